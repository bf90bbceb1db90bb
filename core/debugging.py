"""`TIERSCOPE_DEBUG=1`: the tracebacks of failures tierscope deliberately absorbs.

A broken tier falls through to the next, a broken probe becomes a doctor finding, an
unwritable cache is skipped: the user sees one line, or nothing. With the switch on, each
such place also prints the traceback it absorbed on stderr. Off, it costs one environment
lookup, and only when something failed.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

DEBUG_VARIABLE = "TIERSCOPE_DEBUG"


def report_exception(context: str, also: Callable[[str], object] | None = None) -> None:
    """Call in an `except` block: with TIERSCOPE_DEBUG=1, print `context` (where and what
    was absorbed) and the traceback being handled on stderr, and hand the same text to
    `also` (the workbench passes Textual's log). Does nothing when the switch is off."""
    if os.environ.get(DEBUG_VARIABLE) != "1":
        return
    import traceback  # only when reporting: it is not otherwise imported by a query

    text = f"tierscope debug: {context}\n{traceback.format_exc()}"
    sys.stderr.write(text)
    sys.stderr.flush()
    if also is not None:
        also(text)
