"""The Doctor view's header: the project, the config file in use (and why that one), and
every problem found in it."""

from __future__ import annotations

from pathlib import Path

from textual.content import Content
from textual.widgets import Static

from tierscope.doctor import DoctorReport

from .short_path import short_path

LABEL_WIDTH = 9


def _label(text: str) -> tuple[str, str]:
    return (text.ljust(LABEL_WIDTH), "$foreground-muted")


def config_summary(report: DoctorReport) -> Content:
    """Project, config file and reason, then one line per config problem (or none)."""
    root = Path(report.root)
    config = short_path(report.config_path, root) if report.config_path else "built-in defaults"
    lines = [
        Content.assemble(_label("project"), (short_path(report.root), "bold")),
        Content.assemble(
            _label("config"),
            (config, "bold"),
            (f"  {report.config_reason}", "$foreground-muted"),
        ),
    ]
    if not report.problems:
        lines.append(Content.assemble(_label(""), ("✓ no problems", "$success")))
    style = "$error" if report.has_errors else "$warning"
    for problem in report.problems:
        shown = _shorten_file(problem, report.config_path, config)
        lines.append(Content.assemble(_label(""), ("! ", f"{style} bold"), (shown, style)))
    if report.has_errors:
        lines.append(
            Content.assemble(
                _label(""),
                ("values with errors are ignored; their defaults apply", "$foreground-muted"),
            )
        )
    return Content("\n").join(lines)


def _shorten_file(problem: str, path: str | None, short: str) -> str:
    """A problem names its file in full; the summary already did, so use the short form."""
    if path and problem.startswith(path):
        return short + problem[len(path) :]
    return problem


class ConfigSummary(Static):
    """Where the settings come from, and what is wrong with them."""

    DEFAULT_CSS = """
    ConfigSummary {
        height: auto;
    }
    """

    def show(self, report: DoctorReport) -> None:
        self.update(config_summary(report))
