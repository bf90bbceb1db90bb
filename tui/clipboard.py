"""Copying out of the workbench, honestly.

A terminal app copies by writing an OSC 52 escape sequence; many terminals put the text on
the clipboard, some ignore it without a word (Apple's Terminal, VTE terminals such as GNOME
Terminal, the Linux console, tmux unless `set-clipboard on`, GNU screen). Where this
terminal is known to ignore it, the text is saved to a file instead and the user is told
where; elsewhere they are told it was sent to the terminal's clipboard, which is all a
program can know.
"""

from __future__ import annotations

import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from tierscope.file_replace import replace_file
from tierscope.project import user_dir

OSC52 = "OSC 52"


def tmux_clipboard_setting() -> str | None:
    """tmux's `set-clipboard` option, None when it cannot be asked."""
    try:
        answer = subprocess.run(
            ["tmux", "show-options", "-gv", "set-clipboard"],
            capture_output=True,
            text=True,
            timeout=1,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return answer.stdout.strip() or None


def osc52_refusal(
    environ: Mapping[str, str], tmux_setting: Callable[[], str | None] = tmux_clipboard_setting
) -> str | None:
    """Why this terminal will not take a copy from a program, when that is known; None when
    it may."""
    if environ.get("TMUX"):
        setting = tmux_setting()
        if setting is not None and setting != "on":
            return (
                f"tmux keeps copies from programs to itself (set-clipboard is {setting}; "
                "`set -g set-clipboard on` passes them on)"
            )
        return None
    if environ.get("STY"):
        return "GNU screen does not pass copies from programs on"
    if environ.get("TERM_PROGRAM") == "Apple_Terminal":
        return f"Apple's Terminal does not take copies from programs (no {OSC52})"
    if environ.get("VTE_VERSION"):
        return f"this terminal (GNOME Terminal or another VTE one) takes no copies ({OSC52})"
    if environ.get("TERM") in ("linux", "dumb"):
        return "this console has no clipboard"
    return None


@dataclass(frozen=True, slots=True)
class CopyReport:
    """What to tell the user about a copy."""

    message: str
    severity: Literal["information", "warning"]


def copy_report(
    what: str, text: str, file_name: str, refusal: str | None, *, show: bool = False
) -> CopyReport:
    """Tell of a copy of `what`; when the terminal refuses copies (`refusal`), save `text`
    to `file_name` in the cache folder and say where (and, with `show`, the text itself,
    short enough to select by hand), or why that failed too."""
    if refusal is None:
        return CopyReport(
            f"Copied {what} (sent to the terminal's clipboard with {OSC52}).", "information"
        )
    shown = f"\n{text}" if show else ""
    path = user_dir("cache") / "copied" / file_name
    try:
        save(path, text)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        return CopyReport(f"Not copied: {refusal}; not saved either ({reason}).{shown}", "warning")
    return CopyReport(f"Not copied: {refusal}. Saved {what} to {path} instead.{shown}", "warning")


def save(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_file(path, text.encode("utf-8"))
