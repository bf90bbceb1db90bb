"""Definitions in the Lisp family, Haskell, R, Julia and OCaml, whose forms share nothing
with the C-like `def name` code_definitions.py reads.

Lisp (Emacs Lisp, Common Lisp, Clojure, Scheme): a form opening with a defining word and
the name after it: `(defun magit-status (`, `(defcustom magit-process-log-max 32`,
`(cl-defmethod magit-section-ident-value (`, `(transient-define-prefix magit-commit ()`,
`(defalias 'magit-diff-visit-file-other-window`, Clojure's `(defn parse-options [args]`.
Haskell: a type signature at the margin (`readMarkdown :: (PandocMonad m, ToSources a)`,
the first of `pipeTable, simpleTable :: ...`), and a type's declaration (`data
ParserState = ...`, `newtype Extensions`); its module's export list defines nothing.
R: a function assigned to a name at the margin (`group_by <- function(`, `arrange =
function(`). Julia: a function's short form at the margin (`nrow(df::DataFrame) = ...`,
`Base.pop!(df::DataFrame) = ...`). OCaml: a `let`, `let rec` or `and` at the margin, and
an interface's `val name :`."""

from __future__ import annotations

import re

_LISP_DEFINITION = re.compile(
    r"[ \t]*\((?:[\w-]+-)?(?:def(?:un|macro|subst|var|var-local|custom|const|face|group"
    r"|class|generic|method|alias|struct|n-?|multi|record|protocol|type|once|ine)"
    r"|define-[\w-]+)[ \t]+'?([^\s()\[\]']+)"
)
_HASKELL_NAME = re.compile(r"[a-z_][\w']*")
_HASKELL_TYPE = re.compile(r"(?:data|newtype)(?:[ \t]+family)?[ \t]+([A-Z][\w']*)")
_R_FUNCTION = re.compile(r"([A-Za-z.][\w.]*)[ \t]*(?:<<?-|=)[ \t]*function\b")
_JULIA_SHORT_FUNCTION = re.compile(
    r"(?:[A-Za-z_]\w*\.)*([A-Za-z_][\w!]*)(?:\{[^{}]*\})?\([^()]*(?:\([^()]*\)[^()]*)*\)"
    r"[^=]*=(?![=>])"  # its return type or `where` clause, then `=`
)
# A definition's line is short: a longer one (minified code) is not read, so that no pattern
# spends more than linear time on a hostile line.
LONGEST_DEFINITION_LINE = 400
_OCAML_DEFINITION = re.compile(r"(?:(?:let|and)(?:[ \t]+rec)?|val)[ \t]+([a-z_][\w']*)\b")


def other_definition(line: str) -> str | None:
    """The name a Lisp form, a Haskell signature or type, an R function, a Julia short
    function or an OCaml definition on this line defines."""
    if len(line) > LONGEST_DEFINITION_LINE:
        return None
    lead = line.lstrip(" \t")[:1]
    if lead == "(":
        found = _LISP_DEFINITION.match(line)
    elif line[:1].isalpha() or line[:1] == "_":
        signed = signature_names(line)
        if signed:
            return signed[0]
        found = (
            _HASKELL_TYPE.match(line)
            or _R_FUNCTION.match(line)
            or _JULIA_SHORT_FUNCTION.match(line)
            or _OCAML_DEFINITION.match(line)
        )
    else:
        return None
    return found.group(1) if found else None


def signature_names(line: str) -> tuple[str, ...]:
    """The names a Haskell type signature on this line declares (`pipeTable, simpleTable
    :: ...`: both), none for any other line: names, a space, `::`, then a space or the
    line's end. Read by splitting, in linear time whatever the line."""
    names, colons, rest = line.partition("::")
    if not colons or names[-1:] not in (" ", "\t") or rest[:1] not in ("", " ", "\t"):
        return ()
    listed = tuple(part.strip() for part in names.split(","))
    return listed if all(_HASKELL_NAME.fullmatch(part) for part in listed) else ()
