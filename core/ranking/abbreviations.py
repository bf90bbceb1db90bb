"""Software's common abbreviations count for the words they stand for: a query's `env var`
finds "environment variable", `repo` finds "repository", `msg` finds "message".

Only the abbreviation a query spells is widened (to the whole word's forms, under the
abbreviation's term key); the other way round, a query's "environment" would count every
`ENV` and "variable" every `var` keyword of JavaScript, so it is not. Only the pairs
listed here count: a rule such as "a prefix is its word" would make `cat` find "category".
A word counts by its stem, so an abbreviation whose word shares a stem with a common word
is left out (`spec`: "specification" is "specific"; `ref`: "reference" is "refer";
`init`: "initialize" is "initial"; `info`), and so is one with two readings (`cmd` is also
the Mac key, `temp` also a temperature).
"""

from __future__ import annotations

# Abbreviation (lower case, as a word part) -> the words it stands for, each counted by
# its stem, so their inflections count too (`variables`, `configured`).
_WORDS_OF = {
    "app": ("application",),
    "arg": ("argument",),
    "args": ("argument",),
    "async": ("asynchronous",),
    "attr": ("attribute",),
    "attrs": ("attribute",),
    "auth": ("authentication", "authenticate"),
    "btn": ("button",),
    "cfg": ("configuration", "configure"),
    "config": ("configuration", "configure"),
    "conf": ("configuration", "configure"),
    "ctx": ("context",),
    "db": ("database",),
    "dep": ("dependency",),
    "deps": ("dependency",),
    "dest": ("destination",),
    "dir": ("directory",),
    "dirs": ("directory",),
    "dst": ("destination",),
    "elem": ("element",),
    "env": ("environment",),
    "err": ("error",),
    "fn": ("function",),
    "func": ("function",),
    "idx": ("index",),
    "len": ("length",),
    "lib": ("library",),
    "max": ("maximum",),
    "min": ("minimum",),
    "msg": ("message",),
    "num": ("number",),
    "obj": ("object",),
    "opt": ("option",),
    "opts": ("option",),
    "param": ("parameter",),
    "params": ("parameter",),
    "perf": ("performance",),
    "pkg": ("package",),
    "prev": ("previous",),
    "prop": ("property",),
    "props": ("property",),
    "regex": ("regexp",),  # two spellings of one abbreviation
    "regexp": ("regex",),
    "repo": ("repository",),
    "req": ("request",),
    "src": ("source",),
    "stats": ("statistics",),
    "str": ("string",),
    "sync": ("synchronous",),
    "tmp": ("temporary",),
    "val": ("value",),
    "var": ("variable",),
    "vars": ("variable",),
}


def words_for(part: str) -> tuple[str, ...]:
    """The whole words a lower-case word part abbreviates (none for a word that is no
    abbreviation listed)."""
    return _WORDS_OF.get(part, ())
