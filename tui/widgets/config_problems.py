"""Every problem of the edited config, by line: errors and warnings, the parse error of
the YAML editor first. Choosing one shows where it is."""

from __future__ import annotations

from collections.abc import Iterable

from textual.content import Content
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from tierscope.config.model import ConfigProblem


def problem_line(problem: ConfigProblem) -> Content:
    """`✗ 63 default_budget: expected positive integer …` in the problem's colour."""
    error = problem.severity == "error"
    line = f"{problem.line:>4} " if problem.line is not None else "     "
    key = f"{problem.key}: " if problem.key else ""
    return Content.assemble(
        ("✗ " if error else "⚠ ", "$error" if error else "$warning"),
        (line, "$foreground-muted"),
        (key, "bold"),
        problem.message,
    )


class ProblemList(OptionList):
    """One option per problem; an empty list says so."""

    class Chosen(Message):
        def __init__(self, problem: ConfigProblem) -> None:
            super().__init__()
            self.problem = problem

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.problems: tuple[ConfigProblem, ...] = ()

    def show(self, problems: Iterable[ConfigProblem]) -> None:
        problems = tuple(problems)
        if problems == self.problems and self.option_count:
            return
        self.problems = problems
        highlighted = self.highlighted
        self.clear_options()
        if not self.problems:
            self.add_option(Option(Content.styled("no problems", "$success"), disabled=True))
            return
        self.add_options(Option(problem_line(problem)) for problem in self.problems)
        if highlighted is not None:
            self.highlighted = min(highlighted, len(self.problems) - 1)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self.problems):
            self.post_message(self.Chosen(self.problems[event.option_index]))
