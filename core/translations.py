"""Translated documentation: the same page in several languages, served once.

A translation keeps the original's code blocks, names and anchors, so on a question's
identifiers every language's copy ranks next to the original and fills the answer with
one page (a project like FastAPI keeps its docs in a dozen languages). Two documentation
files are the same page in two languages when their paths differ only by a language tag:
a folder (`docs/en/docs/cors.md` and `docs/pt-BR/docs/cors.md`; `docs/guide.md` and
`docs/zh/guide.md`), a suffix of a folder's name (tldr's `pages.fr/common/tar.md` beside
`pages/common/tar.md`) or a suffix before the extension (`README.md` and `README.fr.md`,
`README_zh-CN.md`, `README-de.md`).
Two English files (an untagged name counts as English) are the project's own two files
(`docs/a.md`, `docs/en/a.md`). A tag that is also a common folder name or word (`io`,
`it`, `ml`, `os`...) counts only beside `en`, or after a dot (`README.it.md`,
`pages.it/`): `docs/ml/index.md` next to `docs/index.md` is a section, not Malayalam,
and `how-to-do-it.md` is no Italian page; with its region in capitals it is a language
(Crowdin's `docs/it-IT/`, `docs/no-NO/`). A code after `_` or `-` without its region
(`README-de.md`) is a language only beside its untagged original (`README.md`): a name's
last word is often two letters (Prometheus's `http_sd.md`, for service discovery).
Projects also write `cn` and `jp` for Chinese and Japanese (`README.cn.md`); they count
as those, as surely as `it` does.

A translation that ranks above its original (it is shorter, and shares the code) is served
as the original when the original holds as many of the query's words, as written, as the
translation does: the question was not asked in the translation's language (`depende`
shares a stem with `dependency`, not its spelling).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

# ISO 639-1 language codes.
LANGUAGE_CODES = frozenset(
    """aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs
    cu cv cy da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he
    hi ho hr ht hu hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr
    ks ku kv kw ky la lb lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng
    nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk
    sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz
    ve vi vo wa wo xh yi yo za zh zu""".split()
)
# ISO 639-2 and 639-3 codes of languages with no two-letter code that translation
# platforms write with a region (Crowdin's `ckb-IR`, `fil-PH`, `yue-HK`).
_THREE_LETTER_CODES = frozenset(
    "ast bal ber ceb chr ckb fil fur haw hil kab kmr lzh mai nds pcm sah sat sco tok vec yue"
    " zgh".split()
)
# A tag: a language code, then perhaps a region or script (`pt-BR`, `zh_CN`, `zh-hant`);
# a three-letter code only with its region (`ckb-IR`).
_TAG = re.compile(r"([a-z]{2})(?:[-_][A-Za-z]{2,4})?|([a-z]{3})[-_][A-Z]{2}")
# A code with its region in capitals or its script in title case (`it-IT`, `no-NO`,
# `zh-Hant`): a language whatever its code also spells.
_REGIONAL = re.compile(r"[a-z]{2,3}[-_](?:[A-Z]{2}|[A-Z][a-z]{3})")
# Country codes projects write for a language: the language's code.
_COUNTRY_TAGS = {"cn": "zh", "jp": "ja"}
# Codes that are also common folder names or words: a language only beside `en` or in a
# dotted tag (see SuffixTag).
AMBIGUOUS_CODES = frozenset(
    "am an as be cs id io is it ml mr ms my na no or os ps sa so ts to ug cn jp".split()
)
# A name ending in a tag after `_` or `-` (`README_zh-CN`, `README-de`).
_JOINED_TAG = re.compile(r"(.+?)[_-]([a-z]{2}(?:[-_][A-Za-z]{2,4})?)")
# The documents spans.py reads as markdown, AsciiDoc, Org, RDoc or plain text (notebooks
# aside).
DOCUMENT_SUFFIXES = (
    ".md", ".markdown", ".mdx", ".mdown", ".rmd", ".qmd", ".livemd", ".cheatmd", ".mdc", ".rst",
    ".adoc",
    ".asciidoc", ".org", ".rdoc", ".txt", ".scd",
)  # fmt: skip
ORIGINAL = ""  # the tag of an untagged name (`README.md`)


def language_of(tag: str) -> str | None:
    """The language code of a tag (`pt-BR` -> `pt`, `cn` -> `zh`), None when it is not
    one."""
    match = _TAG.fullmatch(tag)
    if match is None:
        return None
    if match.group(2):
        return match.group(2) if match.group(2) in _THREE_LETTER_CODES else None
    code = match.group(1)
    if code in LANGUAGE_CODES:
        return code
    return _COUNTRY_TAGS.get(code)


class JoinedTag(str):
    """A tag written after `_` or `-` at the end of a name (`README-de`, `http_sd`): a
    language with its region (`README_zh-CN`), else only beside the untagged original. It
    compares and hashes as the plain tag."""

    __slots__ = ()


class SuffixTag(str):
    """A tag written between a dot and the extension (`README.it.md`): a language even
    when its code is also a word. It compares and hashes as the plain tag."""

    __slots__ = ()


def _sure(tag: str) -> bool:
    """Whether a tag names a language whatever else is beside it: one after a dot, with
    its region in capitals (Crowdin's `it-IT`, `no-NO`), or of a code that is no word,
    unless written after `_` or `-` without its region (JoinedTag)."""
    if isinstance(tag, JoinedTag):
        return _REGIONAL.fullmatch(tag) is not None
    return (
        isinstance(tag, SuffixTag)
        or tag[:2].lower() not in AMBIGUOUS_CODES
        or _REGIONAL.fullmatch(tag) is not None
    )


def page_and_language(path: str) -> tuple[str, str] | None:
    """(the page: the path without its language tag and its extension, the tag) for a
    documentation file; the tag is ORIGINAL when the path holds none. None for any other
    file. A page is the same in any format (Starlight's English `.mdx` page, its pt-PT
    copy in `.md`)."""
    folder, _, name = path.rpartition("/")
    stem, dot, suffix = name.rpartition(".")
    if not dot or f".{suffix.lower()}" not in DOCUMENT_SUFFIXES:
        return None
    parts = folder.split("/") if folder else []
    for index, part in enumerate(parts):
        if language_of(part):
            return "/".join([*parts[:index], *parts[index + 1 :], stem]), part
        base, tag_dot, tag = part.rpartition(".")
        if tag_dot and base and language_of(tag):  # tldr's `pages.fr/` beside `pages/`
            return "/".join([*parts[:index], base, *parts[index + 1 :], stem]), SuffixTag(tag)
    base, tag_dot, tag = stem.rpartition(".")
    if tag_dot and base and language_of(tag):
        return "/".join([*parts, base]), SuffixTag(tag)
    joined = _JOINED_TAG.fullmatch(stem)  # `README_zh-CN`, `README-de`
    if joined and language_of(joined.group(2)):
        return "/".join([*parts, joined.group(1)]), JoinedTag(joined.group(2))
    return "/".join([*parts, stem]), ORIGINAL


def is_translation_tag(tag: str) -> bool:
    """Whether a path's tag (page_and_language) surely names a language other than
    English."""
    return not _english(tag) and language_of(tag) is not None and _sure(tag)


def _english(tag: str) -> bool:
    return tag == ORIGINAL or language_of(tag) == "en"


def _languages_of_one_page(tag: str, other: str) -> bool:
    """Whether two tags of one page's paths are two languages of it."""
    if _english(tag) and _english(other):
        return False
    if "en" in (language_of(tag), language_of(other)):
        return True  # `docs/en/` beside `docs/it/`: surely languages
    return all(_beside(t, o) for t, o in ((tag, other), (other, tag)) if not _english(t))


def _beside(tag: str, other: str) -> bool:
    """Whether `tag` names a language on a page whose other path is tagged `other`: a
    tag after `_` or `-` only beside the untagged original (`README.md`, `README-de.md`),
    and never one of a code that is also a word (`how-to-do-it.md`)."""
    if _sure(tag):
        return True
    return isinstance(tag, JoinedTag) and _english(other) and tag[:2] not in AMBIGUOUS_CODES


class ServedPages:
    """The pages served so far and their languages: `is_translation(path)` tells whether a
    path is another language's copy of one of them (then it is not served); `add(path)`
    records a served path."""

    def __init__(self) -> None:
        self._languages: dict[str, set[str]] = {}

    def is_translation(self, path: str) -> bool:
        found = page_and_language(path)
        if found is None:
            return False
        page, tag = found
        for same in _pages_above(page, tag):
            served = self._languages.get(same, ())
            if served:
                return any(_languages_of_one_page(tag, other) for other in served)
        return False

    def add(self, path: str) -> None:
        found = page_and_language(path)
        if found is not None:
            page, tag = found
            self._languages.setdefault(page, set()).add(tag)


class Originals:
    """The English originals among a search's matching files, by page: `of(path)` lists
    the originals of a translation's page (none for an English path, or a file that is not
    documentation). The index is built on the first question: most answers hold no
    translation."""

    def __init__(self, paths: Iterable[str]) -> None:
        self._paths = paths
        self._by_page: dict[str, list[tuple[str, str]]] | None = None

    def of(self, path: str) -> list[str]:
        found = page_and_language(path)
        if found is None or _english(found[1]):
            return []
        page, tag = found
        if self._by_page is None:
            self._by_page = {}
            for candidate in self._paths:
                other = page_and_language(candidate)
                if other is not None and _english(other[1]):
                    self._by_page.setdefault(other[0], []).append((candidate, other[1]))
        for same in _pages_above(page, tag):
            if same in self._by_page:
                return [
                    original
                    for original, other in self._by_page[same]
                    if _languages_of_one_page(tag, other)
                ]
        return []


def _pages_above(page: str, tag: str) -> Iterator[str]:
    """The page, then for another language's (`doc/README-zh.md`), the same name in each
    folder above it, nearest first: translations are often kept in a folder of their own,
    their original above them (`README.md`)."""
    yield page
    if _english(tag):
        return
    parts = page.split("/")
    for depth in range(len(parts) - 2, -1, -1):
        yield "/".join([*parts[:depth], parts[-1]])


def words_held(text: str, words: Iterable[str]) -> int:
    """How many of `words` (lower-cased) `text` holds as whole words, in any case."""
    wanted = sorted({word for word in words if word}, key=len, reverse=True)
    if not wanted:
        return 0
    pattern = re.compile(r"(?<!\w)(?:" + "|".join(map(re.escape, wanted)) + r")(?!\w)", re.I)
    return len({found.lower() for found in pattern.findall(text)})
