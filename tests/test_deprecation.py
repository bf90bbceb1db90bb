"""A definition marked deprecated, as each common language marks it (ranking/deprecation.py)."""

from __future__ import annotations

import pytest

from tierscope.ranking.deprecation import is_deprecated

MARKED = {
    "kotlin annotation over lines": (
        '@Deprecated(\n    "Passing a Job breaks structured concurrency.",\n'
        "    level = DeprecationLevel.WARNING)\npublic fun CoroutineScope.launch(job: Job) {}"
    ),
    "java annotation": "@Deprecated\npublic static Gson create() {",
    "javadoc tag": (
        "/**\n * Creates one.\n * @deprecated use {@link #of} instead\n */\nstatic X make() {"
    ),
    "jsdoc tag a blank line above": "/** @deprecated use router() */\n\nexport function app() {",
    "rust attribute": '#[deprecated(since = "0.7", note = "use serve")]\npub fn run() {',
    "c# attribute": '[Obsolete("Use Send")]\npublic void Post() {',
    "swift availability": '@available(*, deprecated, message: "use upload")\nfunc send() {',
    "go convention": "// Dial connects.\n//\n// Deprecated: Use DialContext.\nfunc Dial() {",
    "elixir attribute": '@deprecated "Use render/3"\ndef render(conn, t) do',
    "python decorator": '@deprecated("use run()")\ndef start():',
    "python docstring directive": 'def start():\n    """Start.\n\n    .. deprecated:: 2.0\n    """',
    "python warning": (
        "def start(\n    self,\n):\n    warnings.warn('start is old', DeprecationWarning)\n"
    ),
}

NOT_MARKED = {
    "the function above's annotation": "@Deprecated\nfun old() {\n}\nfun launch() {",
    "a blank line between": "# @deprecated\nOLD = 1\n\ndef start():",
    "a mention without the tag": "/** Replaces the deprecated start(). */\nfun launch() {",
    "a filter of warnings in the body": (
        "def quiet():\n    warnings.filterwarnings('ignore', category=DeprecationWarning)"
    ),
    "a warning in the next function": (
        "def a():\n    pass\ndef b():\n    warn('x', DeprecationWarning)"
    ),
    "another indented definition's mark": (
        "class A:\n    @deprecated\n    def old(self): ...\nclass B:"
    ),
}


def _definition(text: str, name_line: str) -> tuple[list[str], int]:
    lines = text.split("\n")
    return lines, next(i for i, line in enumerate(lines) if line.startswith(name_line))


@pytest.mark.parametrize("case", sorted(MARKED))
def test_a_marked_definition_is_deprecated(case):
    lines = MARKED[case].split("\n")
    index = next(
        i
        for i, line in enumerate(lines)
        if line.lstrip().startswith(("public", "pub", "func", "def", "export", "static"))
    )
    assert is_deprecated(lines, index)


@pytest.mark.parametrize(
    ("case", "definition"),
    [
        ("the function above's annotation", "fun launch"),
        ("a blank line between", "def start"),
        ("a mention without the tag", "fun launch"),
        ("a filter of warnings in the body", "def quiet"),
        ("a warning in the next function", "def a"),
        ("another indented definition's mark", "class B"),
    ],
)
def test_an_unmarked_definition_is_not(case, definition):
    lines, index = _definition(NOT_MARKED[case], definition)
    assert not is_deprecated(lines, index)
