"""A filter of the Store view (runs, or entry types): "all" first, then every value with
how many entries it holds. Moving the highlight chooses the value."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option


@dataclass(frozen=True, slots=True)
class FilterChoice:
    """One line of a filter: the value it filters by (None: no filter), its label and count."""

    value: str | None
    label: str
    count: int
    style: str = ""


def choice_prompt(choice: FilterChoice, label_width: int, count_width: int) -> Content:
    """`label   1,234`, the counts lined up in one column; a value with none is dimmed."""
    style = choice.style if choice.count else "$foreground-muted"
    return Content.assemble(
        (choice.label.ljust(label_width), style),
        "  ",
        (f"{choice.count:,}".rjust(count_width), "$foreground-muted"),
    )


class FilterList(OptionList):
    """Shows `FilterChoice`s and posts `Chosen` when the highlight moves to another value."""

    DEFAULT_CSS = """
    FilterList {
        height: auto;
        max-height: 1fr;
    }
    """

    class Chosen(Message):
        def __init__(self, filter_list: FilterList, value: str | None) -> None:
            super().__init__()
            self.filter_list = filter_list
            self.value = value

        @property
        def control(self) -> FilterList:
            return self.filter_list

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.choices: tuple[FilterChoice, ...] = ()
        self.chosen: str | None = None

    def show(self, choices: Sequence[FilterChoice], chosen: str | None) -> None:
        """Replace the lines with `choices`, highlighting the one whose value is `chosen`."""
        self.choices = tuple(choices)
        self.chosen = chosen
        label_width = max((len(choice.label) for choice in self.choices), default=0)
        count_width = max((len(f"{choice.count:,}") for choice in self.choices), default=0)
        highlighted = self.highlighted
        self.set_options(
            Option(choice_prompt(choice, label_width, count_width)) for choice in self.choices
        )
        values = [choice.value for choice in self.choices]
        index = values.index(chosen) if chosen in values else highlighted
        if index is not None and self.choices:
            self.highlighted = min(index, len(self.choices) - 1)

    def on_option_list_option_highlighted(self, message: OptionList.OptionHighlighted) -> None:
        message.stop()
        value = self.choices[message.option_index].value
        if value != self.chosen:
            self.chosen = value
            self.post_message(self.Chosen(self, value))

    def on_option_list_option_selected(self, message: OptionList.OptionSelected) -> None:
        # Enter on a line chooses what the highlight already chose.
        message.stop()
