"""A unified diff of the config file, coloured: what saving would change."""

from __future__ import annotations

from textual.content import Content
from textual.widgets import Static


def diff_content(diff: str) -> Content:
    """Added lines green, removed lines red, hunk headers in the accent colour."""
    if not diff:
        return Content.styled("no changes", "$foreground-muted")
    lines = []
    for line in diff.splitlines():
        if line.startswith(("+++", "---")):
            style = "bold"
        elif line.startswith("+"):
            style = "$success"
        elif line.startswith("-"):
            style = "$error"
        elif line.startswith("@@"):
            style = "$accent"
        else:
            style = "$foreground-muted"
        lines.append(Content.styled(line, style))
    return Content("\n").join(lines)


class ConfigDiff(Static):
    """Shows one diff; `show` replaces it."""

    DEFAULT_CSS = """
    ConfigDiff {
        width: auto;
        text-wrap: nowrap;
    }
    """

    def show(self, diff: str) -> None:
        self.update(diff_content(diff))
