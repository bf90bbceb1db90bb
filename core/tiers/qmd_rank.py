"""Ranking what qmd found with the ranking core, from the files themselves.

qmd (its index or its CLI) says which documents hold any query term. Each is read from
disk: a file that is gone is never served, a file changed since qmd indexed it is ranked
and cut by what it says now (the trace counts both), and a file outside the scope's paths
is left out. The documents are then scored with BM25 like the grep tier scores files, so
the ladder is never worse for having qmd first.
"""

from __future__ import annotations

import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ..files import TextFile, Unreadable, read_text_file
from ..models import FilteredHit, Hit, noun_for
from ..project import is_inside
from ..ranking.analysis import Term
from ..ranking.candidates import Candidates, ranked_and_rescored
from ..ranking.matching import TermMatcher
from ..scopes import in_scope
from .base import Deadline, TierRequest
from .file_hits import FileHits, FileReader
from .qmd_collections import Collection, FileTally, collection_files


@dataclass(frozen=True, slots=True)
class FoundDocument:
    """A document qmd found, as a file on disk."""

    path: Path  # on disk, absolute, normalised
    # sha256 (hex) of the text qmd indexed, or its start (a result's `docid` is "#" and
    # the first six digits); None when unknown.
    indexed_hash: str | None


@dataclass
class RankedDocuments:
    """The hits made of qmd's documents, and what was left out and why."""

    hits: tuple[Hit, ...] = ()
    filtered: tuple[FilteredHit, ...] = ()
    notes: list[str] = field(default_factory=list)
    left_out: Counter = field(default_factory=Counter)  # reason -> documents


def rank_found(
    request: TierRequest,
    terms: tuple[Term, ...],
    found: list[FoundDocument],
    size: tuple[int, int],
    tier: str,
    limit: int,
    deadline: Deadline,
    frequencies: dict[str, int] | None = None,
) -> RankedDocuments:
    """The best `limit` of the found documents as hits; `size` is how many files the
    searched collections hold and their bytes (for IDF and length normalisation);
    `frequencies`, when `found` is only the best of the documents holding a term, how many
    documents of the collections hold each term (for IDF)."""
    result = RankedDocuments()
    root = Path(os.path.realpath(request.root))
    matcher = TermMatcher(terms)
    candidates = Candidates()
    texts: dict[str, TextFile] = {}
    changed = 0
    for document in found:
        if deadline.expired() or deadline.cancelled:
            result.notes.append("deadline reached while reading qmd's documents")
            break
        why = _left_out(document.path, root, request)
        if why:
            result.left_out[why] += 1
            continue
        source = document.path.relative_to(root).as_posix()
        if source in texts:
            continue
        try:
            text = read_text_file(document.path, root, request.config.grep.max_filesize)
        except Unreadable as exc:
            result.left_out[f"file {exc}"] += 1
            continue
        counts = matcher.count(text.text)
        if document.indexed_hash and not _sha256(text.text).startswith(document.indexed_hash):
            changed += 1
            if not counts:
                result.left_out["changed since indexed, no query term left"] += 1
                continue
        if not counts:
            continue
        texts[source] = text
        candidates.frequencies[source] = counts
        candidates.lengths[source] = text.size
    if changed:
        noun = noun_for(changed, "file")
        result.notes.append(
            f"qmd: {changed} {noun} changed since indexed: ranked and cut as they are now"
        )
    candidates.documents, candidates.total_bytes = size
    candidates.known_frequencies = dict(frequencies or {})
    scorer = candidates.scorer(tuple(term.key for term in terms))
    collected = FileHits(
        request=request,
        terms=terms,
        matcher=matcher,
        scorer=scorer,
        tier=tier,
        context_filter=request.context(),
        limit=limit,
        frequencies=candidates.frequencies,
    )
    reader = FileReader(request, matcher, read_already=texts)
    ranked_files = ranked_and_rescored(candidates, scorer, lambda path: None, matcher, reader.read)
    for ranked in ranked_files:
        if collected.full:
            break
        if ranked.score < request.config.qmd.min_score:
            result.left_out[f"below min_score {request.config.qmd.min_score}"] += 1
            continue
        collected.add(ranked, reader.read(ranked.path))
    result.hits = tuple(collected.hits)
    result.filtered = tuple(collected.filtered)
    result.notes += collected.notes()
    result.notes += [f"{count} results left out: {why}" for why, count in result.left_out.items()]
    return result


def _left_out(path: Path, root: Path, request: TierRequest) -> str | None:
    if not is_inside(path, root):
        return "outside the project root"
    if any(is_inside(path, p) for p in request.private_paths):
        return "tierscope's own state"
    if not in_scope(path, request.scope):
        return f"outside scope {request.scope.name}"
    return None


def _sha256(text: str) -> str:
    import hashlib  # only when qmd serves: OpenSSL's import costs every query a few ms

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def collection_size(collections: tuple[Collection, ...]) -> tuple[int, int]:
    """How many files the collections hold on disk, and their bytes: the scope's size for
    IDF and length normalisation, as the grep tier measures it."""
    tally = FileTally()
    for collection in collections:
        for _, entry in collection_files(collection):
            try:
                tally.add(entry)
            except OSError:
                continue
    return tally.files_and_bytes()
