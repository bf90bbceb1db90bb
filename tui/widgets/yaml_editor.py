"""The raw YAML of the `qmd_context:` block, highlighted, numbered as in the file."""

from __future__ import annotations

from textual.widgets import TextArea


class YamlEditor(TextArea):
    """A YAML code editor whose line numbers are the file's, so a problem's line can be
    found in it directly."""

    def __init__(self, **kwargs) -> None:
        super().__init__(
            language="yaml",
            soft_wrap=False,
            tab_behavior="indent",
            show_line_numbers=True,
            placeholder="qmd_context:\n  default_budget: 2000",
            **kwargs,
        )

    def show(self, text: str, first_line: int) -> None:
        """Replace the text (without reporting it as an edit) when it differs."""
        self.line_number_start = first_line
        if text != self.text:
            with self.prevent(TextArea.Changed):
                self.load_text(text)

    def go_to_line(self, line: int) -> bool:
        """Move the cursor to file line `line`; False when it is not in the block."""
        row = line - self.line_number_start
        if not 0 <= row < self.document.line_count:
            return False
        self.move_cursor((row, 0), center=True)
        return True
