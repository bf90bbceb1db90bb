"""The headless command that prints what the workbench shows: `tierscope query ...`.

A query replayed from a trajectory log is untrusted: it may hold escape sequences and
newlines. An argument holding any character that is not printable is written in ANSI-C
quoting (`$'drain\x1b[2J'`: bash, zsh, ksh), so the line shown and copied carries none
raw, and the shell reads back exactly the query."""

from __future__ import annotations

import shlex
from pathlib import Path

from tierscope.api import QueryOptions


def command_line(options: QueryOptions, root: Path, cwd: Path | None = None) -> str:
    """The `tierscope query` invocation with exactly the options the user gave, so its
    output is the JSON the workbench copies. `--root` only when it is not the cwd."""
    argv = ["tierscope", "query", options.text]
    here = (cwd or Path.cwd()).resolve()
    if root.resolve() != here:
        argv += ["--root", str(root)]
    if options.scope is not None:
        argv += ["--scope", options.scope]
    if options.budget is not None:
        argv += ["--budget", str(options.budget)]
    if options.timeout is not None:
        argv += [
            "--timeout",
            (f"{options.timeout:g}" if not isinstance(options.timeout, str) else options.timeout),
        ]
    if options.skill is not None:
        argv += ["--skill", options.skill]
    if options.tiers is not None:
        argv += ["--tiers", ",".join(options.tiers)]
    if options.all_tiers:
        argv.append("--all-tiers")
    if options.refresh:
        argv.append("--refresh")
    argv.append("--json")
    return " ".join(shell_quoted(arg) for arg in argv)


_NAMED = {"\\": "\\\\", "'": "\\'", "\n": "\\n", "\t": "\\t"}


def shell_quoted(arg: str) -> str:
    """`arg` as a shell reads it back: shlex.quote when every character is printable,
    else ANSI-C quoting, a character that is not printable written as its UTF-8 bytes."""
    if arg.isprintable():
        return shlex.quote(arg)
    return "$'" + "".join(_escaped(char) for char in arg) + "'"


def _escaped(char: str) -> str:
    if char in _NAMED:
        return _NAMED[char]
    if char.isprintable():
        return char
    return "".join(f"\\x{byte:02x}" for byte in char.encode("utf-8", "surrogatepass"))
