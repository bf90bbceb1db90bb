"""The names code defines, told line by line: a definition in the common languages (a
function, a class, a method, a constant), the class a member is defined in, the
definition a line is inside. Only for code files, so imported only when one is read
(structure.py asks it for a code file's names)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping

from .c_functions import C_SIGNATURE, SIGNATURE_MAX_LINES, c_function_defined
from .code_blocks import attribute_string_end, indentation
from .code_lines import CodeLines
from .definition_forms import other_definition
from .matching import TermMatcher
from .query_asks import name_key
from .spans import document_kind

# A word that may stand before a definition's keyword: `export default`, Rust's `pub(crate)`
# and `const`, Java's, C#'s and Kotlin's `public static`, `private suspend`, `open`, Scala's
# `case class`, `implicit def`, `lazy val`, `private[this]`, Lua's `local function`...
_MODIFIER = (
    r"(?:export|default|pub(?:\([^)]*\))?|async|const|unsafe|extern|public|private|protected"
    r"|internal|static|final|abstract|sealed|open|override|suspend|inline|operator|infix|data"
    r"|partial|virtual|readonly|expect|actual|enum|annotation|value|inner|companion|fun"
    r"|mutable|case|implicit|lazy|local)(?:\[\w*\])?"
)
# A JavaScript or TypeScript class member's modifiers and name, up to its parameters'
# parenthesis (a generic's `<T>` included); never a statement's keyword (`if (`).
_METHOD_NAME = (
    r"[ \t]+(?:(?:public|private|protected|static|async|readonly|override|abstract|get|set)"
    r"[ \t]+)*(?!(?:if|for|while|switch|catch|return|function|else|do|try|with|new|await"
    r"|typeof|super|this)\b)([A-Za-z_$][\w$]*)[ \t]*(?:<[^<>()]*>)?"
)
# A member defined by assignment, as CommonJS and code written before JavaScript's classes
# define one: `res.redirect = function redirect(url) {`, `Router.prototype.route =
# function`, `exports.compile = (text) =>`, `exports.Parser = class extends Base {`. The
# object's path, then the member's name; a function or a class is assigned, never data
# (`res.locals = {}`) nor another name for a function written elsewhere (`res.contentType
# = res.type`). Wherever it stands: a factory's body adds members to what it builds.
_OBJECT_PATH = r"(?:[A-Za-z_$][\w$]*\.)+"
_ASSIGNED_FUNCTION = (
    r"[ \t]*=[ \t]*(?:async[ \t]+)?"
    r"(?:function\b|class\b|(?:\([^()]*\)|[A-Za-z_$][\w$]*)[ \t]*=>)"
)
_MEMBER_ASSIGNMENT = re.compile(rf"[ \t]*({_OBJECT_PATH})[A-Za-z_$][\w$]*{_ASSIGNED_FUNCTION}")
# Elixir's definitions besides `def`: private, macros, guards, delegations, modules and
# protocols (`defmodule Phoenix.Router do` defines `Router`, the last of its names), and a
# behaviour's callbacks (`@callback terminate(reason, state) :: term`, documented there).
_ELIXIR_DEFINITION = (
    r"defp|defmacrop?|defguardp?|defdelegate|defmodule|defprotocol|@callback|@macrocallback"
)
# A definition in the common languages (Python, JavaScript/TypeScript, Go, Rust, Java/C#,
# Kotlin, Ruby (`def self.set`), Elixir, shell functions) or a module-level constant
# (`NOTIFICATION_TIMEOUT = 5`): its name. Ruby's predicate `redirect?` is another name than
# `redirect` (its `run!` is the query's `run`: a query cannot spell the `!`).
_DEFINITION = re.compile(
    rf"[ \t]*(?:{_MODIFIER}[ \t]+)*"
    r"(?:def|class|function|fn|func|fun|struct|enum|interface|@interface|trait|type|impl|macro"
    rf"|module|object|sub|proc|contract|{_ELIXIR_DEFINITION})[ \t]+"
    r"(?:\([^)]*\)[ \t]*)?(?:<[^<>]*>[ \t]*)?(?:[A-Za-z_]\w*\.)*([A-Za-z_$][\w$]*)(?![\w$?])"
    r"|([A-Z][A-Z0-9_]{2,})[ \t]*(?::[^=\n]*)?="
    # A class's constant (rich's `    KEYWORDS: ClassVar[...] = [`), spaced as Python and
    # Ruby write one (not a shell's indented `FZF_DEFAULT_COMMAND=...`, nor `X == y`).
    r"|[ \t]+([A-Z][A-Z0-9_]{2,})(?:[ \t]*:[^=\n]*)?[ \t]=(?!=)"
    # A Kotlin property given a modifier (`public val IO:`, `const val CONFLATED`; a local
    # value takes none), a Java constant (`static final int DEFAULT_NESTING_LIMIT = 255`).
    rf"|[ \t]*(?:{_MODIFIER}[ \t]+)+val[ \t]+([A-Za-z_]\w*)"
    r"|[ \t]*(?:(?:public|private|protected|static|final)[ \t]+)+[\w.<>\[\], ?]+[ \t]+"
    r"([A-Z][A-Z0-9_]{2,})[ \t]*="
    # A Rust constant or static, at any visibility, in a module, a body or an `impl` (uv's
    # `    pub const UV_CACHE_DIR: &'static str`): its type written, its name in capitals.
    r"|[ \t]*(?:pub(?:\([^)]*\))?[ \t]+)?(?:const|static)[ \t]+(?:mut[ \t]+)?"
    r"([A-Z][A-Z0-9_]*)[ \t]*:(?!:)"
    # A JavaScript or TypeScript module's `const`, `let` or `var` (`export const useState =
    # (...) =>`, the form most of modern TypeScript defines with); not one inside a body.
    r"|(?:(?:export|pub)[ \t]+)?(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]*)?=(?!=)"
    # One inside a body given a function (zustand's `  const setState: StoreApi<TState>[
    # 'setState'] = (partial, replace) => {`, in the factory building the store).
    r"|[ \t]+(?:const|let|var)[ \t]+([A-Za-z_$][\w$]*)[ \t]*(?::[^=\n]*)?"
    rf"{_ASSIGNED_FUNCTION}"
    # A JavaScript or TypeScript class method, its signature on one line:
    # `  async start(filters?: string[]): Promise<void> {`; never `if (x) {`.
    rf"|{_METHOD_NAME}\([^()]*\)[ \t]*(?::[^={{}};]+)?\{{[ \t]*$"
    rf"|[ \t]*{_OBJECT_PATH}([A-Za-z_$][\w$]*){_ASSIGNED_FUNCTION}"
    # A Rust macro by example (minijinja's `macro_rules! embed_templates {`).
    r"|[ \t]*macro_rules![ \t]*([A-Za-z_]\w*)"
    # A JavaScript object literal's method (sinon's `    resetHistory: function () {`), as
    # code written before classes defines one.
    r"|[ \t]+([A-Za-z_$][\w$]*)[ \t]*:[ \t]*(?:async[ \t]+)?function\b"
)
# The first line of such a method's signature wrapped over lines (as Prettier wraps one
# past 80 columns): `  async fetchModule(`, its parameters on the lines under it.
_WRAPPED_METHOD = re.compile(rf"{_METHOD_NAME}\([ \t]*$")
# The line that closes a wrapped signature, opening the body: `): Promise<void> {`. A call
# wrapped the same way closes with `)` or `);`.
_SIGNATURE_CLOSE = re.compile(r"[ \t]*\)[ \t]*(?::[^={};]+)?\{[ \t]*$")
# Annotations written on a definition's line, before its modifiers (moshi's
# `@CheckReturnValue public abstract fun peekJson(): JsonReader`): read past when the line
# as written defines nothing (an Elixir `@callback terminate` does). Not a decorator alone
# on its line.
_ANNOTATIONS = re.compile(r"([ \t]*)(?:@[A-Za-z_][\w.]*(?:\([^()\n]*\))?[ \t]+)+(?=[A-Za-z_])")
# A Rust `impl` block's first line: `impl LinkMode {`, `impl<T> Display for Json<T> {`.
_IMPL_BLOCK = re.compile(r"[ \t]*(?:unsafe[ \t]+)?impl\b")
# A C or C++ type declared, not defined: `struct ordered_map;`, `class basic_json;`.
_FORWARD_DECLARATION = re.compile(r"[ \t]*(?:class|struct|union|enum)[ \t]+\w+[ \t]*;")


def defined_as_spelt(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], matcher: TermMatcher
) -> Iterator[tuple[int, str]]:
    """Each line holding query terms (0-based) that defines a name, with the name, unless
    the query writes that name with capitals spelt otherwise: `mergePath` asked, a
    definition of `MergePath` is another name, and `FAIL_FAST` is not `FailFast` (a query
    in one case names any spelling)."""
    cased = {name_key(name): name for name in matcher.spelt_names if name != name.lower()}
    for index, name in _defined(lines, line_terms):
        if cased.get(name_key(name), name) == name:
            yield index, name


def defined_names(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], path: str, matcher: TermMatcher
) -> frozenset[str]:
    """The query terms of each name the query spells whole (`add_typer`, `FileBinaryWrite`,
    `echo`) that this code file defines: the file that defines what is asked for, not one
    that imports or calls it."""
    if not matcher.names or document_kind(path) != "code":
        return frozenset()
    found = definitions_of_names(lines, line_terms, matcher)
    defined = {key for keys in found.values() for key in keys}
    holders = holders_asked(matcher)
    if holders and any(holder_of(lines, index) in holders for index in found):
        # `ModuleGraph.invalidate` defined in class ModuleGraph: the holder named is this
        # file's too, not only the member (another class may define one of that name).
        defined |= {term.key for term in matcher.terms if term.qualifier}
    return frozenset(defined)


_RECEIVER = re.compile(r"[ \t]*func[ \t]*\([ \t]*\w*[ \t]*\*?[ \t]*(\w+)")
# Rust: `impl Router {`, `impl<S> FromRequest<S> for Json<T> {` (the type is the holder).
_IMPL = re.compile(r"[ \t]*impl(?:<[^>]*>)?[ \t]+(?:[\w:]+(?:<[^{]*?>)?[ \t]+for[ \t]+)?(\w+)")
# A class (an interface, a trait; an Elixir module, protocol or protocol's implementation,
# by its last name), or a JavaScript class expression given a name (`var Router = class
# {`, `exports.Router = class extends Layer {`).
_CLASS = re.compile(
    rf"[ \t]*(?:(?:{_MODIFIER}[ \t]+)*(?:class|module|object|interface|trait)[ \t]+(\w+)"
    r"\b(?![ \t]*[=,>])"  # C++'s template parameters (`class Allocator = ...`) are no class
    r"|(?:defmodule|defprotocol|defimpl)[ \t]+(?:\w+\.)*(\w+)"
    rf"|(?:(?:export[ \t]+)?(?:const|let|var)[ \t]+|{_OBJECT_PATH})([A-Za-z_$][\w$]*)"
    r"[ \t]*=[ \t]*class\b)"
)
# The objects whose members a CommonJS module exports: what it defines there is its own.
_MODULE_OBJECTS = frozenset({"exports", "module.exports"})


def _assigned_holder(line: str) -> str | None:
    """The holder (name_key) of a member a line defines by assignment: the object before
    its name (`res` of `res.redirect`), the class of a prototype's (`Router` of
    `Router.prototype.route`), "" for a module's export; None for a line that assigns no
    member a function."""
    assigned = _MEMBER_ASSIGNMENT.match(line)
    if assigned is None:
        return None
    path = assigned.group(1).rstrip(".").removesuffix(".prototype")
    if path in _MODULE_OBJECTS:
        return ""
    return name_key(path.rsplit(".", 1)[-1])


def holder_of(lines: list[str], index: int) -> str:
    """The name (name_key) of the class a definition on line `index` is inside, "" for
    none: its receiver's type for a Go method, the object a member is assigned to
    (`_assigned_holder`), else the nearest line above it, less indented, that opens a
    class, an interface or a trait (a Rust `impl` block)."""
    receiver = _RECEIVER.match(lines[index])
    if receiver:
        return name_key(receiver.group(1))
    assigned = _assigned_holder(lines[index])
    if assigned is not None:
        return assigned
    level = indentation(lines[index])
    for above in range(index - 1, -1, -1):
        line = lines[above]
        if line.strip() == "{":
            continue  # a class's brace under its first line (PHP, C#, Java's Allman style)
        if line.strip() and indentation(line) < level:
            opened = _CLASS.match(line) or _IMPL.match(line)
            if opened:
                return name_key(next(name for name in opened.groups() if name))
            level = indentation(line)
            if level == 0:
                return ""
    return ""


ENCLOSING_MAX_LINES = 3000
# A line that leads into a definition: a comment (`#`, `//`, `/*`, `*`, `--`), a decorator
# or attribute (`@cached`, `#[test]`).
_LEAD_IN = re.compile(r"[ \t]*(?:#|//|/\*|\*|--|@[A-Za-z_])")


def _looks_defining(line: str) -> bool:
    """Whether a line starts like a definition (its body not checked: for telling where
    a passage is, not which names a file defines)."""
    return bool(
        _DEFINITION.match(line)
        or _WRAPPED_METHOD.match(line)
        or C_SIGNATURE.match(line)
        or _IMPL_BLOCK.match(line)  # what a Rust method is inside (`impl<S> Router<S> {`)
    )


def opens_a_definition(lines: list[str], index: int) -> bool:
    """Whether line `index` defines a name or leads into a definition (the comments and
    decorators right above it, an attribute's string over lines such as Elixir's `@doc`),
    not a comment among statements."""
    number, end = index, min(len(lines), index + SIGNATURE_MAX_LINES)
    while number < end:
        line = lines[number]
        if _looks_defining(line):
            return True
        if not _LEAD_IN.match(line):
            return False
        closing = attribute_string_end(lines, number)
        if closing is not None:
            number, end = closing, min(len(lines), closing + SIGNATURE_MAX_LINES)
        number += 1
    return False


def enclosing_definition(lines: list[str], index: int) -> int | None:
    """The line (0-based) of the nearest definition whose body line `index` is inside (a
    function, a method, a class): the first line above it, less indented, that defines a
    name. None at the margin, or when the nearest less indented line defines nothing
    and is at the margin."""
    level = indentation(lines[index]) if lines[index].strip() else None
    for above in range(index - 1, max(-1, index - ENCLOSING_MAX_LINES), -1):
        line = lines[above]
        if not line.strip() or line.strip() == "{":
            continue  # a C function's brace under its signature
        if level is None:
            level = indentation(line) + 1  # a blank first line: inside what is above
        if indentation(line) < level:
            if _looks_defining(line):
                return above
            if line.lstrip().startswith(")"):  # a wrapped signature's close: its start above
                level = indentation(line) + 1
                continue
            level = indentation(line)
            if level == 0:
                return None
    return None


def holders_asked(matcher: TermMatcher) -> set[str]:
    """The names (name_key) of the classes the query names as holders of the member it
    looks up (`AsyncClient` of `AsyncClient.stream`)."""
    qualifiers = [term for term in matcher.terms if term.qualifier]
    in_parts = {part for term in qualifiers if term.compound for part in term.parts}
    return {name_key(term.word) for term in qualifiers if term.word not in in_parts}


# How many lines after a definition's own may still be its body when it only passes its
# call on to another of its name (`return registerSubtype(type, label);` and `}`).
_PASSING_ON_LINES = 2


def passes_on(lines: list[str], index: int) -> bool:
    """Whether the definition on line `index` (0-based) is an overload that only calls
    another of its name: Kotlin's `fun delay(duration: Duration) = delay(millis)`, Java's
    one-line `return registerSubtype(type, type.getSimpleName());`."""
    name = _name_defined_on(lines, index)
    if name is None:
        return False
    line = lines[index]
    level = indentation(line)
    body: list[str] = []
    for following in lines[index + 1 : index + 2 + _PASSING_ON_LINES]:
        if following.strip() and indentation(following) <= level:
            break  # the body ended (its closing brace) or there was none
        body.append(following)
    if len(body) > _PASSING_ON_LINES:
        return False  # a longer body does work of its own
    after = line.find(name)
    text = "\n".join([line[after + len(name) :] if after >= 0 else line, *body])
    return re.search(rf"(?<![\w$]){re.escape(name)}[ \t]*\(", text) is not None


def definitions_of_names(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]], matcher: TermMatcher
) -> dict[int, tuple[str, ...]]:
    """The lines (0-based) of code that define a name the query spells whole, each with
    that name's term keys."""
    names = matcher.names
    found: dict[int, tuple[str, ...]] = {}
    if not names:
        return found
    private: set[int] = set()
    for index, name in defined_as_spelt(lines, line_terms, matcher):
        keys = names.get(name_key(name))
        if keys:
            found[index] = keys
            if name.startswith("_"):
                private.add(index)
    # Of a name and its private twin (structlog's `make_filtering_bound_logger` and the
    # `_make_filtering_bound_logger` it calls), the name as the query spells it: a query
    # word never starts with `_`.
    public = {keys for index, keys in found.items() if index not in private}
    for index in private:
        if found[index] in public:
            del found[index]
    # Rust's `impl LinkMode {` adds methods to a type its `enum LinkMode` declares: where
    # the file declares the type, the declaration is where it is defined (uv's link.rs).
    blocks = [index for index in found if _IMPL_BLOCK.match(lines[index])]
    if blocks and len(blocks) < len(found):
        declared = {keys for index, keys in found.items() if index not in blocks}
        for index in blocks:
            if found[index] in declared:
                del found[index]
    return found


def _defined(
    lines: list[str], line_terms: Mapping[int, Mapping[str, int]]
) -> Iterator[tuple[int, str]]:
    """Each line holding query terms (0-based) that defines a name, with the name."""
    for number in line_terms:
        if number <= len(lines):
            name = _name_defined_on(lines, number - 1)
            if name is not None:
                yield number - 1, name


def defines_a_name(lines: list[str], index: int) -> bool:
    """Whether line `index` (0-based) defines a name: a function, a class, a constant."""
    return _name_defined_on(lines, index) is not None


def _name_defined_on(lines: list[str], index: int) -> str | None:
    """The name line `index` (0-based) defines, None for a line defining nothing."""
    if isinstance(lines, CodeLines):
        known = lines.defined
        if index not in known:
            known[index] = _name_read_on(lines, index)
        return known[index]
    return _name_read_on(lines, index)


def _name_read_on(lines: list[str], index: int) -> str | None:
    """The name line `index` defines, read afresh (`_name_defined_on` remembers it)."""
    line = lines[index]
    if _FORWARD_DECLARATION.match(line):
        return None  # `struct ordered_map;`: the definition is elsewhere
    found = _DEFINITION.match(line)
    if found is None and "@" in line and (annotated := _ANNOTATIONS.match(line)) is not None:
        found = _DEFINITION.match(annotated.group(1) + line[annotated.end() :])
    if found:
        return next(name for name in found.groups() if name)
    other = other_definition(line)
    if other is not None:
        return other
    wrapped = _WRAPPED_METHOD.match(line)
    if wrapped and _opens_a_body(lines, index):
        return wrapped.group(1)
    return c_function_defined(lines, index)


def _opens_a_body(lines: list[str], index: int) -> bool:
    """Whether the signature wrapped from line `index` closes, on the first line as
    indented as it below it, with `) {` or `): Type {` (a method's), not `)` (a call's)."""
    level = indentation(lines[index])
    for line in lines[index + 1 : index + 1 + SIGNATURE_MAX_LINES]:
        if line.strip() and indentation(line) <= level:
            return indentation(line) == level and _SIGNATURE_CLOSE.match(line) is not None
    return False
