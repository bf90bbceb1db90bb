"""Which lines of code are imports (navigation.py): an import block ends where its
bracket closes, however the closing line is written; what follows is code."""

from __future__ import annotations

import pytest
from snippet_cuts import snippet

from tierscope.ranking.navigation import imports_only, navigation_test
from tierscope.ranking.spans import Span

HELPERS = (
    "class Meter:\n"
    "    @staticmethod\n"
    "    def format_sizeof(num, suffix=''):\n"
    '        """Formats a number with SI order of magnitude prefixes."""\n'
    "        for unit in ['', 'k', 'M', 'G']:\n"
    "            if abs(num) < 999.5:\n"
    "                return f'{num:3.1f}{unit}{suffix}'\n"
    "            num /= 1000\n"
    "        return f'{num:3.1f}T{suffix}'\n"
)


@pytest.mark.parametrize(
    "block",
    [
        "from .utils import (\n    Comparable, disp_len, disp_trim,\n    envwrap)\n",
        "from .utils import (Comparable, disp_len,\n                    envwrap)\n",
        "use std::{\n    io::{self, Write},\n    fmt};\n",
        "import {\n  disp_len,\n  envwrap } from './utils';\n",
    ],
    ids=["python-grid", "python-hanging", "rust-nested", "js-close-on-name"],
)
def test_an_import_block_ends_on_the_line_closing_its_bracket(block):
    # tqdm's std.py: `from .utils import (` closed on `    envwrap)` never ended, and
    # its 760 lines below were taken for imports: `format_sizeof`, `EMA` and `Bar` were
    # never served, and a short file was demoted "(imports only)".
    lines = (block + "\n\n" + HELPERS).split("\n")
    start = len(block.split("\n")) + 1
    is_navigation = navigation_test(lines, code=True)
    assert is_navigation(Span(0, start - 2))
    assert not is_navigation(Span(start, len(lines)))
    held = {start + 3: {"format_sizeof": 1}, start + 4: {"format_sizeof": 1}}
    assert not imports_only(lines, held)


REPORT = (
    "\n\ndef report(count, size):\n"
    "    total = (\n        count * size\n    )\n"
    "    shown = Meter.format_sizeof(total)\n"
    "    each = Meter.format_sizeof(size)\n"
    "    line = f'{shown} in all, {each} each'\n"
    "    print(line)\n"
    "    return line\n"
)


def test_a_definition_below_a_grid_import_is_served_for_its_name():
    # Taken for imports down to the next line starting with `)`, the definition lost to
    # the code below that line calling it.
    text = "from .utils import (\n    Comparable, disp_len,\n    envwrap)\n\n\n" + HELPERS + REPORT
    cut = snippet(text, "tqdm/std.py", "format_sizeof", max_chars=600)
    assert "def format_sizeof(num, suffix=''):" in cut.text, cut.text


FIXER_JS = (
    '"use strict";\n\n'
    'const path = require("node:path"),\n\tfs = require("node:fs");\n'
    'const { parse } = require("./parser");\n'
    'const debug = require("debug")("tool:fixer");\n'
    "const MAX_FIX_PASSES = 10;\n"
    'const { cache } = require("./cache");\n'
    'const { format } = require("./format");\n\n'
    "/**\n * Applies fix passes over the text until no fix is left.\n"
    " * @param {string} text The source text.\n */\n"
    "function fixAll(text) {\n    let passes = 0;\n    let output = text;\n"
    "    do {\n        output = parse(output).fix();\n        passes++;\n"
    "    } while (passes < MAX_FIX_PASSES && output !== text);\n"
    "    debug(`stopped after ${passes} of MAX_FIX_PASSES`);\n"
    "    return format(output);\n}\n"
)


def test_a_constant_defined_among_requires_is_served_for_its_name():
    # ESLint's linter.js defines `MAX_AUTOFIX_PASSES = 10` among its `require` lines: the
    # block was navigation, and "MAX_AUTOFIX_PASSES" was served only the loop using it.
    cut = snippet(FIXER_JS, "lib/fixer.js", "MAX_FIX_PASSES", max_chars=300)
    assert "const MAX_FIX_PASSES = 10;" in cut.text, cut.text


GUARDED = (
    "def register(bar_class):\n"
    '    """Add `progress_apply` to data frames."""\n'
    "    try:  # pandas>=1.0\n        from pandas.core.frame import DataFrame\n"
    "    except ImportError:\n        from pandas import DataFrame\n"
    "    try:\n        from pandas.core.groupby.generic import DataFrameGroupBy\n"
    "    except ImportError:\n        try:\n"
    "            from pandas.core.groupby.groupby import DataFrameGroupBy\n"
    "        except (ImportError, AttributeError):\n"
    "            from pandas.core.groupby import DataFrameGroupBy\n"
    "    try:\n        from pandas.core.window.rolling import Rolling\n"
    "    except ImportError:\n        Rolling = None\n"
)


def test_imports_guarded_by_try_are_an_import_block():
    # tqdm's pandas support opens with a ladder of `try:` imports, `except ImportError:`
    # fallbacks: half its lines were no imports, and it was served for "grouped pandas
    # frame" instead of the code counting the groups below it.
    lines = GUARDED.split("\n")
    is_navigation = navigation_test(lines, code=True)
    assert is_navigation(Span(2, len(lines) - 1))
    # A `try:` around other code, an `except` of other errors, are code.
    code = (
        "    try:\n        total = len(frame)\n    except TypeError:\n        total = None\n"
        "    try:\n        import numpy\n    except ValueError:\n        numpy = None\n"
    ).split("\n")
    is_navigation = navigation_test(code, code=True)
    assert not is_navigation(Span(0, 4))
    assert not is_navigation(Span(4, 8))


def test_a_guards_fallbacks_do_not_make_a_module_imports_only():
    # What an `except ImportError:` falls back on (`Rolling = None`) names the import, and
    # is no more of one: tqdm's pandas support, found on `Rolling` there and in its code,
    # was demoted "(imports only)".
    lines = (GUARDED + "    return Rolling(frame)\n").split("\n")
    held = {index + 1: {"roll": 1} for index, line in enumerate(lines) if "Rolling" in line}
    assert len(held) == 3
    assert not imports_only(lines, held)
