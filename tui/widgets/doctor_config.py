"""The Doctor view's header: the project, the config file in use (and why that one), every
problem found in it and every scope that can search nothing, and whether the default scope
was adapted to a project not laid out like Loa."""

from __future__ import annotations

from pathlib import Path

from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from tierscope.doctor import DoctorReport

from .short_path import short_path
from .slash_wrap import PathText

LABEL_WIDTH = 9


def config_summary(report: DoctorReport) -> list[tuple[str, Content]]:
    """(label, text) rows: project, config file and reason, one row per problem (or none),
    what to do about missing scopes, and the adapted default scope."""
    root = Path(report.root)
    config = short_path(report.config_path, root) if report.config_path else "built-in defaults"
    rows = [
        ("project", Content.styled(short_path(report.root), "bold")),
        (
            "config",
            Content.assemble((config, "bold"), (f"  {report.config_reason}", "$foreground-muted")),
        ),
    ]
    if not report.problems and not report.scope_problems:
        rows.append(("", Content.styled("✓ no problems", "$success")))
    style = "$error" if report.has_errors else "$warning"
    for problem in report.problems:
        shown = _shorten_file(problem, report.config_path, config)
        rows.append(("", Content.assemble(("! ", f"{style} bold"), (shown, style))))
    if report.has_errors:
        muted = Content.styled(
            "values with errors are ignored; their defaults apply", "$foreground-muted"
        )
        rows.append(("", muted))
    for name, problem in report.scope_problems:
        text = Content.assemble(("! ", "$warning bold"), (f"scope {name}: {problem}", "$warning"))
        rows.append(("", text))
    if report.hint:
        rows.append(("", Content.styled(report.hint, "$foreground-muted")))
    if report.unused:
        rows.append(("", Content.styled(report.unused_note(), "$foreground-muted")))
    if report.adapted:
        rows.append(("adapted", Content(report.adapted)))
    return rows


def _shorten_file(problem: str, path: str | None, short: str) -> str:
    """A problem names its file in full; the summary already did, so use the short form."""
    if path and problem.startswith(path):
        return short + problem[len(path) :]
    return problem


class ConfigSummary(Widget):
    """Where the settings come from, and what is wrong with them: a label column and a
    text column, so a long line wraps under its own text."""

    DEFAULT_CSS = """
    ConfigSummary {
        height: auto;
        layout: grid;
        grid-size: 2;
        grid-columns: 9 1fr;
        grid-rows: auto;
    }
    ConfigSummary Static {
        height: auto;
    }
    ConfigSummary .summary-label {
        color: $foreground-muted;
    }
    """

    async def show(self, report: DoctorReport) -> None:
        await self.remove_children()
        cells: list[Static] = []
        for label, text in config_summary(report):
            cells.append(Static(label, classes="summary-label"))
            cells.append(PathText(text, classes="summary-text"))
        await self.mount_all(cells)

    def text(self) -> str:
        """The summary as plain text, one row per line."""
        cells = list(self.query(Static))
        return "\n".join(
            f"{label.content!s:<{LABEL_WIDTH}}{text.content}"
            for label, text in zip(cells[::2], cells[1::2], strict=True)
        )
