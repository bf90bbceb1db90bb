"""A function of the C family (C, C++, Java, C#) told by its signature: its return type
and name over one or two lines, its parameters' parenthesis closed within a few lines, and
then its body's brace, not a call's or a prototype's `;` (code_definitions.py asks it of a
line no other form defines)."""

from __future__ import annotations

import re

from .code_blocks import C_KEYWORDS, C_NAME_ALONE, indentation, typed_start

# A signature (a C-family function's, a wrapped method's) spans at most this many lines.
SIGNATURE_MAX_LINES = 40

# A function of the C family (C, C++, Java, C#): its return type and modifiers, its name
# (C++'s `Holder::name`), its parameters' parenthesis. At the margin, a C function (in the
# GNU style its name opens the line, the type on the line above); indented, a method, with
# at least one word before its name, perhaps generic (C#'s `ExecuteCore<TResult>(`). Never a
# statement's keyword.
_C_TYPE_WORD = rf"(?!{C_KEYWORDS})[A-Za-z_][\w:]*(?:<[^;(){{}}]*>)?(?:\[\])*[ \t*&]*[ \t]"
# Each word of the type is read once, with the spaces after it (`(?>...)`): a line of many
# words two spaces apart is not split every way.
C_SIGNATURE = re.compile(
    rf"(?:(?>{_C_TYPE_WORD}[ \t]*)*|[ \t]++(?>{_C_TYPE_WORD}[ \t]*)+)\**"
    rf"(?!{C_KEYWORDS})(?:\w+::)*~?([A-Za-z_]\w*)(?:<[^;(){{}}<>]*(?:<[^;(){{}}<>]*>)?>)?[ \t]*\("
)
# What may follow a C-family signature's closing parenthesis before its body's brace. A
# `throws` clause or an initializer list runs to the brace at once (`*+`): many clauses
# that end on no brace are not tried split every way.
_C_AFTER_PARAMETERS = re.compile(
    r"[ \t]*+(?:const|noexcept|override|final|throws[ \t][^;{]*+|:[^;{]*+)*[ \t]*+(\{)?[ \t]*+$"
)
# A method declared without a body, as a definition: an abstract one (C#, Java), or one in
# an interface (its opener above: `public interface Codec {`, C#'s brace under it). A C
# prototype (`int jv_parse(const char *text);`) is neither: its definition is elsewhere.
_DECLARED_END = re.compile(r"[ \t]*(?:throws[ \t][^;{]*)?;[ \t]*$")
_ABSTRACT = re.compile(r"[ \t]*(?:\w+[ \t]+)*?abstract[ \t]")
_INTERFACE_OPENER = re.compile(r"[ \t]*(?:\w+[ \t]+)*?interface[ \t]")


def c_function_defined(lines: list[str], index: int) -> str | None:
    """The name of the C-family function whose definition line `index` (0-based) opens,
    None for a call, a prototype or no function at all."""
    function = C_SIGNATURE.match(lines[index]) or _c_name_under_its_type(lines, index)
    if function and _c_body_follows(lines, index, function.end()):
        return function.group(1)
    return None


def _c_name_under_its_type(lines: list[str], index: int) -> re.Match[str] | None:
    """An indented C-family name opening line `index` under a line of its return type
    (a C++ member: `static BasicJsonType` over `unflatten(`), None otherwise."""
    if index == 0 or indentation(lines[index]) == 0 or typed_start(lines, index) == index:
        return None
    return C_NAME_ALONE.match(lines[index])


def _c_body_follows(lines: list[str], index: int, opened: int) -> bool:
    """Whether the parenthesis opened at column `opened` of line `index` closes (within a
    few lines) on a signature whose body's `{` follows, on that line or alone on the next:
    a definition, not a call or a prototype (`;`)."""
    depth = 1
    column = opened
    for number in range(index, min(len(lines), index + SIGNATURE_MAX_LINES)):
        line = lines[number]
        for position in range(column, len(line)):
            character = line[position]
            if character == "(":
                depth += 1
            elif character == ")":
                depth -= 1
                if depth == 0:
                    after = _C_AFTER_PARAMETERS.match(line, position + 1)
                    if after is None:
                        return _DECLARED_END.match(line, position + 1) is not None and (
                            _ABSTRACT.match(lines[index]) is not None
                            or _in_an_interface(lines, index)
                        )
                    if after.group(1):
                        return True
                    following = next((rest for rest in lines[number + 1 :] if rest.strip()), "")
                    return following.strip() == "{"
            elif character in ";{}":
                return False
        column = 0
    return False


def _in_an_interface(lines: list[str], index: int) -> bool:
    """Whether the indented line `index` is a member of an interface: the first line above
    it indented less (a brace alone aside) opens one."""
    level = indentation(lines[index])
    if not level:
        return False  # a prototype at the margin (a C header's)
    for above in range(index - 1, -1, -1):
        line = lines[above]
        stripped = line.strip()
        if stripped and stripped != "{" and indentation(line) < level:
            return _INTERFACE_OPENER.match(line) is not None
    return False
