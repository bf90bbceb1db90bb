"""Words that frame a question rather than ask it, told by the word beside them: "what am
I doing wrong?" asks for the fix, and its `wrong` found Textual's `WrongType` (a wrong
password is a term); "things like a shared client" names an example, as `like` after any
word does (SQL's `LIKE` is a term); "does the helper let me provide..." asks whether it
can, and its `let` found every JavaScript `let` declaration (pinia's testing helper came
below them; Rust's `let statement` is a term). analysis.query_terms drops them."""

from __future__ import annotations

import re

# A word that frames a question after the word before it. And `like` after any word: it
# introduces an example ("an extension like fzf native", "hidden files like dotfiles"), or
# is a verb ("I'd like to run a callback"); measured with `tierscope eval` on 90 sets, 9
# questions' answers ranked higher and 2 lower, 2 passages lost where the passage says it.
# First in the query, it is SQL's `LIKE`.
# And `make` and `tell` after the one doing it ("how do I make a piece of styled text
# clickable", "how do I tell the router not to clean the path"): Go's `make(` builtin, a
# Makefile's `make docs` and gorilla/mux's "UseEncodedPath tells the router" are no
# answer; and `get` so ("how do I get to see..."): Go's getters are no answer either.
# And the `example` of "for example", which gives one (lazy.nvim's "for example" put its
# config and example modules first; a question asking for examples says so). And the
# `long` of "how long", which asks for a duration (Textual's "how long does a notification
# stay on screen" found "long form", not "Default number of seconds to show
# notifications").
_FRAMING_PAIRS = frozenset(
    {
        ("doing", "wrong"),
        ("how", "long"),
        ("make", "sure"),
        ("for", "example"),
        *((doer, verb) for doer in ("i", "we", "you", "to") for verb in ("make", "tell", "get")),
    }
)
# `code` as the place asked about ("which code decides", "where does the code decide",
# "which part of the code"), or as the user's own ("in my code", "from your code"): in a
# code scope every file is code, and `code` found "exit code" (tox, mocha), `os.Exit(code)`
# (logrus). Not a kind of code ("exit code", "the code block").
_ASKS_OF_CODE = re.compile(
    r"(?:\bwhich|\b(?:does|do|did|is|in|of)[ \t]+the|\b(?:my|our|your|their))[ \t]+$",
    re.IGNORECASE,
)
_CODE_THING = re.compile(
    r"code[ \t]+(?:blocks?|snippets?|samples?|examples?|points?|pages?|units?|paths?|base)\b",
    re.IGNORECASE,
)
# `library` as the project asked about ("how does the library make sure", "does this
# library still fetch"): jsonschema's DeprecationWarning text saying "the library" came
# first. Not a kind of library ("the library crate") nor one acted on ("link the library").
_ASKS_OF_LIBRARY = re.compile(
    r"(?:\b(?:does|do|did|is|was|can|will|would|could|should|in|of)[ \t]+(?:the|this)"
    r"|\bthis)[ \t]+$",
    re.IGNORECASE,
)
_LIBRARY_THING = re.compile(r"library[ \t]+(?:crates?|targets?|paths?|files?|modules?)\b", re.I)
# `make` of "make sure", which asks how something is ensured; `sure` is no term after it.
_SURE = re.compile(r"[ \t]+sure\b", re.IGNORECASE)
# `let` before the one it lets: "let me", "lets us".
_LETS_SOMEONE = re.compile(r"lets?[ \t]+(?:me|us|you|them)\b", re.IGNORECASE)


def frames(previous: str, word: str, text: str, found: re.Match[str]) -> bool:
    """Whether the query's word `found` (`word`, lower case, after `previous`) frames the
    question."""
    if (previous, word) in _FRAMING_PAIRS or (word == "like" and previous):
        return True
    if word == "code":
        before = text[max(0, found.start() - 12) : found.start()]
        return bool(_ASKS_OF_CODE.search(before)) and not _CODE_THING.match(text, found.start())
    if word == "library":
        before = text[max(0, found.start() - 16) : found.start()]
        asks = _ASKS_OF_LIBRARY.search(before)
        return bool(asks) and not _LIBRARY_THING.match(text, found.start())
    if word == "make":
        return _SURE.match(text, found.end()) is not None
    return word in ("let", "lets") and _LETS_SOMEONE.match(text, found.start()) is not None
