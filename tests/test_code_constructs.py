"""Which lines of code start inside a signature, a call, a string or a comment spread over
lines, and where a passage starting there is read whole from."""

from __future__ import annotations

from tierscope.ranking.code_constructs import OpenConstructs, open_constructs
from tierscope.ranking.spans import split_lines

PYTHON = '''\
import os


@cache
# Keeps the answer.
def lookup(
    key: str,
    default: str = ")",
) -> str:
    """Find a key.

    Args:
        key: What to find (a name).
    """
    value = fetch(
        key,  # a comment with a quote ' and a bracket (
        default,
    )
    return value


LABEL = "a # that is no comment"
'''


def line_of(lines: list[str], text: str) -> int:
    return next(index for index, line in enumerate(lines) if text in line)


def read(text: str, path: str) -> tuple[list[str], OpenConstructs]:
    lines = split_lines(text)
    constructs = open_constructs(lines, path)
    assert constructs is not None
    return lines, constructs


def test_a_python_docstring_is_read_from_the_definition_with_its_decorators():
    lines, constructs = read(PYTHON, "src/lookup.py")
    inside = line_of(lines, "key: What to find")
    assert constructs.readable_start(inside) == line_of(lines, "@cache")


def test_a_signature_or_call_over_lines_is_read_from_its_first_line():
    lines, constructs = read(PYTHON, "src/lookup.py")
    assert constructs.readable_start(line_of(lines, "default: str")) == line_of(
        lines, "def lookup("
    )
    # A quote and a bracket in a comment, and a bracket in a string, change nothing.
    assert constructs.readable_start(line_of(lines, "        default,")) == line_of(
        lines, "value = fetch("
    )
    assert constructs.readable_start(line_of(lines, "return value")) == line_of(
        lines, "return value"
    )
    assert constructs.readable_start(line_of(lines, "LABEL")) == line_of(lines, "LABEL")


def test_the_construct_a_line_starts_inside_spans_from_its_opening_to_its_closing_line():
    lines, constructs = read(PYTHON, "src/lookup.py")
    docstring = constructs.around(line_of(lines, "Args:"))
    assert docstring is not None and docstring.is_string
    assert (docstring.first, docstring.last) == (
        line_of(lines, '"""Find a key.'),
        line_of(lines, "key: What to find") + 1,
    )
    # The opening line itself starts outside it.
    assert constructs.around(line_of(lines, '"""Find a key.')) is None


def test_a_string_that_opens_no_definition_is_read_from_its_own_first_line():
    _, constructs = read('HELP = """\nUsage: run it\nwith care\n"""\n', "cli.py")
    assert constructs.readable_start(2) == 0


def test_in_the_c_family_braces_are_bodies_not_constructs():
    text = (
        "/**\n * Retries a call.\n */\nfunction retry(\n  call,\n  attempts,\n) {\n"
        "  const message = `tried\n  ${attempts} times`;\n  return call();\n}\n"
    )
    lines, constructs = read(text, "src/retry.ts")
    assert constructs.readable_start(line_of(lines, "* Retries")) == 0
    assert constructs.readable_start(line_of(lines, "  attempts,")) == line_of(lines, "function")
    assert constructs.readable_start(line_of(lines, "${attempts}")) == line_of(lines, "const")
    body = line_of(lines, "return call()")
    assert constructs.readable_start(body) == body


def test_rust_lifetimes_are_not_quotes():
    text = "fn first<'a>(\n    items: &'a [u8],\n) -> &'a u8 {\n    &items[0]\n}\n"
    _, constructs = read(text, "src/lib.rs")
    assert constructs.readable_start(1) == 0
    assert constructs.readable_start(3) == 3


def test_other_files_are_not_read():
    assert open_constructs(["echo (", ")"], "run.sh") is None
    assert open_constructs(["# Title"], "README.md") is None


def test_a_definition_in_a_docstring_example_does_not_restart_the_scan():
    text = (
        "def on(message):\n"
        '    """Declare a handler.\n\n'
        "    ```python\n"
        "    @on(Button.Pressed)\n"
        "    def quit(self):\n"
        "        self.app.exit()\n"
        "    ```\n\n"
        "    Works for any message.\n"
        '    """\n'
        "    return message\n"
    )
    lines, constructs = read(text, "src/on.py")
    assert constructs.readable_start(line_of(lines, "Works for any")) == 0
    assert constructs.readable_start(line_of(lines, "def quit")) == 0


def test_a_triple_quote_of_the_other_kind_inside_a_docstring_opens_no_string():
    # pydantic's networks.py: a `\'\'\'` docstring holding one `"""` made every definition
    # after it read as inside a string, and example code in a later docstring as a
    # definition: a passage started in the class above.
    text = (
        "class MultiHostUrl:\n"
        "    def hosts(self):\n"
        "        '''The hosts.\n\n"
        "        ```python\n        print(url.hosts())\n"
        '        """\n'
        "        [{'host': 'foo.com'}]\n        ```\n"
        "        '''\n"
        "        return self._hosts\n\n\n"
        "class HttpUrl:\n"
        '    """A type for http URLs.\n\n'
        "    ```python\n    class MyModel(BaseModel):\n        url: HttpUrl\n    ```\n"
        '    """\n\n\n'
        "class Dsn:\n"
        "    @property\n"
        "    def host(self) -> str:\n"
        '        """The required URL host."""\n'
        "        return self._url.host\n\n\n"
        "def import_email_validator() -> None:\n"
        "    global email_validator\n"
        "    import email_validator\n"
    )
    lines, constructs = read(text, "src/networks.py")
    target = line_of(lines, "def import_email_validator")
    assert constructs.readable_start(target) == target
    below = line_of(lines, "global email_validator")
    assert constructs.readable_start(below) == below
