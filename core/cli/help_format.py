"""argparse's help formatters, told the terminal's width.

argparse builds a formatter at every `add_argument` (to check the metavar), and a formatter
not told its width asks `shutil.get_terminal_size()`: importing shutil, with the archive
modules it imports, costs every `tierscope query` ~2 ms. The width is the one shutil would
report, found the way it finds it.
"""

from __future__ import annotations

import argparse
import os
import sys


def terminal_columns(fallback: int = 80) -> int:
    """The columns `shutil.get_terminal_size()` reports: $COLUMNS when a positive number,
    else the size of the terminal on stdout, else `fallback`."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    stdout = sys.__stdout__
    if stdout is None:
        return fallback
    try:
        return os.get_terminal_size(stdout.fileno()).columns or fallback
    except (AttributeError, ValueError, OSError):
        return fallback


class HelpFormatter(argparse.HelpFormatter):
    """argparse's default formatter."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        # What argparse does with a width of None, without shutil.
        width = terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)


class RawDescriptionHelpFormatter(HelpFormatter, argparse.RawDescriptionHelpFormatter):
    """argparse's formatter that keeps the description's and epilog's line breaks."""
