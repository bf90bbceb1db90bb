"""Synthetic Loa-layout markdown projects for benchmarks, deterministic by seed.

A corpus looks like a real project the default scopes apply to: `grimoires/loa/` with
NOTES, prd, sdd, sprint, a2a feedback, reality and context files, and `.claude/skills/*/`
with SKILL.md and resources. Files hold headings, prose, lists, code fences and tables
drawn from a Zipf-like vocabulary, so some terms are everywhere and most are rare — as in
real notes, where the ranking of a grep tier is earned.

Each file has its own random stream seeded from (seed, index), so a corpus is the same
bytes on every machine and run. Corpora are cached under `bench/corpora/`, keyed by size,
seed and generator version, and written to a temporary name first, so an interrupted
generation is never mistaken for a finished one.
"""

from __future__ import annotations

import itertools
import math
import os
import random
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

GENERATOR_VERSION = 1
DEFAULT_SEED = 1729
CORPUS_SIZES = (100, 1_000, 10_000)
CORPORA_DIR = Path(__file__).resolve().parent / "corpora"

VOCABULARY_SIZE = 20_000
ZIPF_EXPONENT = 1.05
# Lognormal file sizes: a mean near 10 KB makes the 10,000-file corpus about 100 MB.
MEAN_FILE_BYTES = 10_000
SIZE_SIGMA = 0.8
MAX_FILE_BYTES = 200_000

FUNCTION_WORDS = """the of and to a in is that for it as with on be this by are or from at
an not we but if can will all which when should each has have was its into more than must
then one only also these any so use our new no may there they how what been after before
other per such both out up each""".split()

DOMAIN_WORDS = """token budget query scope tier grep fallback timeout latency score snippet
context collection index search semantic hybrid lexical rank result trajectory agent skill
sprint review audit feedback reviewer engineer security deployment rollback migration schema
config configuration default override path root file directory module package function
handler request response error warning failure retry cache store session memory signal
filter archive threshold limit window line chunk embedding model vector bm25 fts5 sqlite
database table column record entry event message worker thread process group signal
deadline cancel probe status health doctor version release changelog commit branch merge
pipeline build test fixture assertion coverage benchmark profile import startup latency
throughput memory parser renderer formatter serializer json yaml markdown heading section
paragraph table fence code block inline link reference citation source target goal
requirement constraint decision tradeoff risk mitigation dependency interface contract
adapter boundary layer component service endpoint route client server protocol stream
buffer offset cursor page virtual scroll view screen widget theme palette layout style
keyboard binding command action state transition lifecycle hook plugin extension registry
manifest lockfile artifact bundle container image volume network port host domain tenant
user account permission role policy secret credential encryption hash signature checksum
integrity validation sanitizer escape injection boundary quota rate throttle backoff jitter
metric counter gauge histogram trace span log level verbose quiet debug incident outage
postmortem runbook alert oncall escalation owner stakeholder milestone roadmap backlog
estimate velocity capacity blocker dependency handoff acceptance criteria definition done
grimoire reality notes prd sdd lore vision finding observation hypothesis experiment
baseline regression speedup slowdown bottleneck hotspot allocation garbage collector
""".split()

SKILL_NAMES = """implementing-tasks reviewing-code auditing-security planning-sprints
discovering-requirements designing-architecture riding-codebase deploying-production
translating-context mounting-framework continuous-learning enhancing-prompts
""".split()

CODE_LANGUAGES = ("python", "bash", "yaml", "typescript", "json")


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Terms in rank order (most frequent first) with cumulative Zipf weights."""

    terms: tuple[str, ...]
    cumulative_weights: tuple[float, ...]

    def rank_of(self, term: str) -> int:
        """1-based rank of a term (1 = most frequent)."""
        return self.terms.index(term) + 1


@dataclass(frozen=True, slots=True)
class CorpusFile:
    """One planned file: where it goes, what kind of document it is, how big."""

    path: str
    kind: str
    target_bytes: int


@dataclass(frozen=True, slots=True)
class Corpus:
    """A generated project on disk."""

    root: Path
    size: int
    seed: int
    file_count: int
    total_bytes: int


def build_vocabulary(seed: int, size: int = VOCABULARY_SIZE) -> Vocabulary:
    """Real function and domain words first, then pronounceable invented words, all
    ranked for a Zipf distribution (weight of rank r is 1 / r**ZIPF_EXPONENT)."""
    rng = random.Random(f"vocabulary:{seed}")
    known = list(dict.fromkeys(FUNCTION_WORDS + DOMAIN_WORDS))
    seen = set(known)
    invented: list[str] = []
    while len(known) + len(invented) < size:
        word = _invented_word(rng)
        if word not in seen:
            seen.add(word)
            invented.append(word)
    terms = tuple(known + invented)
    weights = (1.0 / rank**ZIPF_EXPONENT for rank in range(1, len(terms) + 1))
    return Vocabulary(terms, tuple(itertools.accumulate(weights)))


_ONSETS = tuple("b c d f g k l m n p r s t v z br cr dr fl gr kl pr st tr th sh ch".split())
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "io", "ou")
_CODAS = ("", "", "", "n", "r", "s", "l", "x", "nt", "st", "m", "k")


def _invented_word(rng: random.Random) -> str:
    syllables = rng.choice((2, 2, 3, 3, 3, 4))
    parts = [rng.choice(_ONSETS) + rng.choice(_VOWELS) for _ in range(syllables)]
    return "".join(parts) + rng.choice(_CODAS)


def plan_files(size: int, seed: int) -> tuple[CorpusFile, ...]:
    """Where each of `size` files goes in the Loa layout, its kind and target size."""
    rng = random.Random(f"plan:{seed}:{size}")
    files: list[CorpusFile] = [
        CorpusFile("grimoires/loa/NOTES.md", "notes", 24_000),
        CorpusFile("grimoires/loa/prd.md", "prd", 60_000),
        CorpusFile("grimoires/loa/sdd.md", "sdd", 80_000),
        CorpusFile("grimoires/loa/sprint.md", "sprint", 30_000),
    ]
    remaining = size - len(files)
    shares = {"a2a": 0.45, "reality": 0.20, "skills": 0.15, "context": 0.10, "archive": 0.07}
    counts = {kind: int(remaining * share) for kind, share in shares.items()}
    counts["scratch"] = remaining - sum(counts.values())

    feedback_names = ("reviewer.md", "engineer-feedback.md", "auditor-sprint-feedback.md")
    for index in range(counts["a2a"]):
        sprint, which = divmod(index, len(feedback_names))
        files.append(
            CorpusFile(f"grimoires/loa/a2a/sprint-{sprint + 1}/{feedback_names[which]}", "a2a", 0)
        )
    for index in range(counts["reality"]):
        files.append(
            CorpusFile(f"grimoires/loa/reality/component-{index + 1:05d}.md", "reality", 0)
        )
    skill_count = max(1, counts["skills"] // 4)
    skills = [
        SKILL_NAMES[i] if i < len(SKILL_NAMES) else f"skill-{i + 1:04d}" for i in range(skill_count)
    ]
    for index in range(counts["skills"]):
        skill = skills[index % skill_count]
        if index < skill_count:
            files.append(CorpusFile(f".claude/skills/{skill}/SKILL.md", "skill", 6_000))
        else:
            files.append(
                CorpusFile(f".claude/skills/{skill}/resources/guide-{index + 1:05d}.md", "skill", 0)
            )
    for index in range(counts["context"]):
        files.append(CorpusFile(f"grimoires/loa/context/context-{index + 1:05d}.md", "context", 0))
    for index in range(counts["archive"]):
        month = index % 12 + 1
        files.append(
            CorpusFile(
                f"grimoires/loa/archive/2025-{month:02d}/cycle-{index + 1:05d}.md", "archive", 0
            )
        )
    for index in range(counts["scratch"]):
        prefix = ("brainstorm", "session-notes", "draft")[index % 3]
        files.append(CorpusFile(f"grimoires/loa/{prefix}-{index + 1:04d}.md", "scratch", 0))

    mu = math.log(MEAN_FILE_BYTES) - SIZE_SIGMA**2 / 2
    return tuple(
        planned
        if planned.target_bytes
        else CorpusFile(
            planned.path,
            planned.kind,
            min(MAX_FILE_BYTES, max(400, int(rng.lognormvariate(mu, SIZE_SIGMA)))),
        )
        for planned in files
    )


class _WordStream:
    """Zipf-distributed words drawn in batches (one `choices` call per batch is fast)."""

    def __init__(self, rng: random.Random, vocabulary: Vocabulary) -> None:
        self._rng = rng
        self._vocabulary = vocabulary
        self._words: Iterator[str] = iter(())

    def take(self, count: int) -> list[str]:
        return [self.next() for _ in range(count)]

    def next(self) -> str:
        word = next(self._words, None)
        if word is None:
            self._words = iter(
                self._rng.choices(
                    self._vocabulary.terms,
                    cum_weights=self._vocabulary.cumulative_weights,
                    k=2048,
                )
            )
            word = next(self._words)
        return word


def render_file(planned: CorpusFile, index: int, seed: int, vocabulary: Vocabulary) -> str:
    """The markdown text of one planned file, the same for the same (seed, index)."""
    rng = random.Random(f"file:{seed}:{index}")
    words = _WordStream(rng, vocabulary)
    title = " ".join(w.capitalize() for w in words.take(rng.randint(2, 5)))
    parts = [f"# {_KIND_TITLES[planned.kind]}: {title}\n"]
    size = len(parts[0])
    while size < planned.target_bytes:
        block = _block(rng, words)
        parts.append(block)
        size += len(block)
    return "\n".join(parts)


_KIND_TITLES = {
    "notes": "NOTES",
    "prd": "Product Requirements",
    "sdd": "Software Design",
    "sprint": "Sprint Plan",
    "a2a": "Sprint Feedback",
    "reality": "Reality",
    "skill": "Skill",
    "context": "Context",
    "archive": "Archived Cycle",
    "scratch": "Scratch",
}


def _block(rng: random.Random, words: _WordStream) -> str:
    roll = rng.random()
    if roll < 0.12:
        level = rng.choice(("##", "##", "###"))
        return f"{level} {' '.join(w.capitalize() for w in words.take(rng.randint(2, 6)))}\n"
    if roll < 0.60:
        return _paragraph(rng, words)
    if roll < 0.78:
        return _bullet_list(rng, words)
    if roll < 0.91:
        return _code_fence(rng, words)
    return _table(rng, words)


def _sentence(rng: random.Random, words: _WordStream) -> str:
    chosen = words.take(rng.randint(6, 20))
    chosen[0] = chosen[0].capitalize()
    return " ".join(chosen) + rng.choice((".", ".", ".", "?", ":"))


def _paragraph(rng: random.Random, words: _WordStream) -> str:
    sentences = [_sentence(rng, words) for _ in range(rng.randint(2, 7))]
    lines: list[str] = []
    line = ""
    # Wrap near 90 columns, as hand-written markdown usually is.
    for word in " ".join(sentences).split(" "):
        if line and len(line) + len(word) > 90:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(lines) + "\n"


def _bullet_list(rng: random.Random, words: _WordStream) -> str:
    marker = rng.choice(("-", "-", "*", "1."))
    items = [
        f"{marker} {' '.join(words.take(rng.randint(3, 14)))}" for _ in range(rng.randint(3, 8))
    ]
    return "\n".join(items) + "\n"


def _identifier(words: _WordStream) -> str:
    return "_".join(words.take(2))


def _code_fence(rng: random.Random, words: _WordStream) -> str:
    language = rng.choice(CODE_LANGUAGES)
    lines: list[str] = []
    for _ in range(rng.randint(3, 14)):
        if language == "python":
            lines.append(
                rng.choice(
                    (
                        f"def {_identifier(words)}({words.next()}, {words.next()}):",
                        f"    return {words.next()}.{_identifier(words)}({words.next()})",
                        f'    {words.next()} = {words.next()}["{words.next()}"]',
                        f"# {' '.join(words.take(rng.randint(3, 9)))}",
                    )
                )
            )
        elif language == "bash":
            lines.append(f'{words.next()} --{words.next()} "{words.next()}" | grep {words.next()}')
        elif language == "yaml":
            lines.append(f"{'  ' * rng.randint(0, 2)}{words.next()}: {words.next()}")
        elif language == "typescript":
            lines.append(f"const {words.next()} = await {_identifier(words)}({words.next()});")
        else:
            lines.append(f'  "{words.next()}": "{" ".join(words.take(rng.randint(1, 4)))}",')
    return f"```{language}\n" + "\n".join(lines) + "\n```\n"


def _table(rng: random.Random, words: _WordStream) -> str:
    columns = rng.randint(2, 5)
    header = "| " + " | ".join(w.capitalize() for w in words.take(columns)) + " |"
    rule = "|" + "|".join("---" for _ in range(columns)) + "|"
    rows = [
        "| " + " | ".join(" ".join(words.take(rng.randint(1, 4))) for _ in range(columns)) + " |"
        for _ in range(rng.randint(2, 8))
    ]
    return "\n".join([header, rule, *rows]) + "\n"


def write_corpus(destination: Path, size: int, seed: int) -> Corpus:
    """Write a corpus of `size` files under `destination` (which must not exist yet)."""
    vocabulary = build_vocabulary(seed)
    total = 0
    planned_files = plan_files(size, seed)
    for index, planned in enumerate(planned_files):
        path = destination / planned.path
        path.parent.mkdir(parents=True, exist_ok=True)
        data = render_file(planned, index, seed, vocabulary).encode("utf-8")
        path.write_bytes(data)
        total += len(data)
    return Corpus(destination, size, seed, len(planned_files), total)


def corpus_path(size: int, seed: int = DEFAULT_SEED, base: Path = CORPORA_DIR) -> Path:
    return base / f"loa-{size}-s{seed}-v{GENERATOR_VERSION}"


def ensure_corpus(size: int, seed: int = DEFAULT_SEED, base: Path = CORPORA_DIR) -> Corpus:
    """The cached corpus for (size, seed), generating it first if it is not there."""
    final = corpus_path(size, seed, base)
    if not final.is_dir():
        partial = final.with_name(final.name + f".partial-{os.getpid()}")
        shutil.rmtree(partial, ignore_errors=True)
        write_corpus(partial, size, seed)
        try:
            partial.rename(final)
        except OSError:
            # Another run finished the same corpus first; theirs is identical.
            shutil.rmtree(partial, ignore_errors=True)
    files = [p for p in final.rglob("*.md") if p.is_file()]
    return Corpus(final, size, seed, len(files), sum(p.stat().st_size for p in files))


@dataclass(frozen=True, slots=True)
class BenchQuery:
    """A benchmark query: its words, and which vocabulary band each came from."""

    terms: tuple[str, ...]
    bands: tuple[str, ...]

    @property
    def text(self) -> str:
        return " ".join(self.terms)


# Rank bands: "medium" terms recur across many files; "rare" ones sit in a handful.
MEDIUM_RANKS = (90, 310)
RARE_RANKS = (3_000, 12_000)
QUERY_SHAPES = (
    ("medium", "rare"),
    ("medium", "medium", "rare"),
    ("rare", "medium"),
    ("medium", "rare", "rare"),
)


def benchmark_queries(seed: int = DEFAULT_SEED, count: int = 3) -> tuple[BenchQuery, ...]:
    """`count` deterministic 2-3 word queries mixing medium and rare vocabulary terms."""
    vocabulary = build_vocabulary(seed)
    rng = random.Random(f"queries:{seed}")
    queries: list[BenchQuery] = []
    for shape in itertools.islice(itertools.cycle(QUERY_SHAPES), count):
        terms: list[str] = []
        for band in shape:
            low, high = MEDIUM_RANKS if band == "medium" else RARE_RANKS
            term = vocabulary.terms[rng.randint(low, high) - 1]
            while term in terms:
                term = vocabulary.terms[rng.randint(low, high) - 1]
            terms.append(term)
        queries.append(BenchQuery(tuple(terms), shape))
    return tuple(queries)


def medium_term_pairs(seed: int = DEFAULT_SEED, count: int = 12) -> tuple[BenchQuery, ...]:
    """Two-word queries of medium-band terms, which co-occur in many files: candidates for
    engines with AND semantics (qmd's BM25 search), where a rare pair would match nothing."""
    vocabulary = build_vocabulary(seed)
    rng = random.Random(f"pairs:{seed}")
    low, high = MEDIUM_RANKS
    pairs: list[BenchQuery] = []
    while len(pairs) < count:
        first, second = rng.sample(vocabulary.terms[low - 1 : high], 2)
        pairs.append(BenchQuery((first, second), ("medium", "medium")))
    return tuple(pairs)
