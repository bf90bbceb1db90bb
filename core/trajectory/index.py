"""Random access to the lines of one trajectory file of any size, for a virtualised view.

A `LineIndex` records where each line ends and a few facts per line (time, agent, phase,
flagged) in compact arrays, about 25 bytes a line; the text itself stays on disk and is
read back with `pread` only for the lines a caller asks for.

Indexing runs in bounded steps (`index_more`) so a worker thread can report progress and
stop at any point, in two passes: first the line ends alone (a newline search, fast: every
line is then readable at random), then the facts of each line (a full JSON parse, several
times slower), which filters, merging and the malformed count use. Lines whose facts are
not known yet are parsed on demand, so every answer is right at any point, only slower.

A `.jsonl.gz` file is decompressed once, step by step, into an anonymous temporary file
and read from there: memory stays bounded by the step size whatever the archive expands
to, at the cost of its decompressed size in temporary disk space.

What to match is an `EntryFilter` (filters.py); the per-line facts live in `LineFacts`
(facts.py); several files ordered by time are a `MergedView` (merged.py); how far indexing
has got and what a refresh changed are `IndexProgress` and `Growth` (index_progress.py).
"""

from __future__ import annotations

import gzip
import os
import tempfile
import zlib
from array import array
from bisect import bisect_right
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import BinaryIO

import orjson

from .facts import NO_TIME, LineFacts
from .filters import EntryFilter, search_range
from .index_progress import Growth, IndexProgress
from .indexed_filter import IndexedTest
from .records import TrajectoryEntry, decode_record, parse_line

STEP_BYTES = 4 << 20
# Lines longer than this are indexed but not summarised (no agent, phase or time, not
# flagged), so one pathological line cannot pull hundreds of megabytes into memory.
SUMMARY_LIMIT = 16 << 20
_READ_BLOCK = 1 << 20


class LineIndex:
    """Byte-offset index of one `.jsonl` or `.jsonl.gz` file.

    Line numbers passed to methods count from 0 (`line(i).line_no == i + 1`). The last line
    of a scanned file may lack its newline; it is then returned flagged as truncated, and
    re-read after `refresh()` once a writer completes it. Raises OSError only when the file
    cannot be opened; read errors later end indexing and are kept in `problem`.

    One thread may build or refresh while others read: arrays only grow, and a line is
    published (its end appended) only after its bytes are readable.
    """

    def __init__(self, path: Path | str, *, step_bytes: int = STEP_BYTES) -> None:
        self.path = Path(path)
        self.compressed = self.path.name.endswith(".gz")
        self.step_bytes = step_bytes
        self._open()

    # -- state ---------------------------------------------------------------------------

    def _open(self) -> None:
        self._file: BinaryIO = open(self.path, "rb", buffering=0)  # noqa: SIM115 - held open
        self._identity = _identity(os.fstat(self._file.fileno()))
        self._gzip: gzip.GzipFile | None = None
        self._data: BinaryIO = self._file
        if self.compressed:
            self._gzip = gzip.GzipFile(fileobj=self._file)
            self._data = tempfile.TemporaryFile()  # noqa: SIM115 - lives as long as the index
        self._target = 0 if self.compressed else self._identity[2]
        self._scanned = 0
        self._scan_done = False
        self.problem = ""
        self._ends = array("Q")
        self.facts = LineFacts()

    def close(self) -> None:
        if self._gzip is not None:
            self._gzip.close()
            self._data.close()
        self._file.close()

    def __enter__(self) -> LineIndex:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    # -- building ------------------------------------------------------------------------

    @property
    def scanned(self) -> bool:
        """Every line end is known: any line can be read."""
        return self._scan_done

    @property
    def done(self) -> bool:
        """Both passes are complete."""
        return self._scan_done and len(self.facts) == len(self._ends)

    @property
    def progress(self) -> IndexProgress:
        if self._gzip is not None:
            total = self._identity[2]
            done = total if self._scan_done else min(self._file.tell(), total)
        else:
            total, done = self._target, self._scanned
        return IndexProgress(done, total, len(self), len(self.facts), self._scan_done, self.done)

    def index_more(self, max_bytes: int | None = None) -> IndexProgress:
        """Do up to `max_bytes` (default `step_bytes`) more work and report progress:
        search that many more bytes for line ends, or once all are found, summarise
        lines totalling about that many bytes."""
        budget = max_bytes or self.step_bytes
        if not self._scan_done:
            self._scan_step(budget)
        elif len(self.facts) < len(self._ends):
            self._summarise_step(budget)
        return self.progress

    def build(
        self,
        cancelled: Callable[[], bool] | None = None,
        on_progress: Callable[[IndexProgress], None] | None = None,
    ) -> IndexProgress:
        """Index to the end unless `cancelled()` turns true between steps."""
        progress = self.progress
        while not progress.done:
            if cancelled is not None and cancelled():
                break
            progress = self.index_more()
            if on_progress is not None:
                on_progress(progress)
        return progress

    def _scan_step(self, budget: int) -> None:
        try:
            chunk = self._read_gzip(budget) if self._gzip is not None else self._read_plain(budget)
        except OSError as exc:
            self.problem = f"read stopped at byte {self._scanned}: {exc}"
            self._scan_done = True
            return
        base = self._scanned
        append = self._ends.append
        find = chunk.find
        start = 0
        while (newline := find(b"\n", start)) >= 0:
            start = newline + 1
            append(base + start)
        self._scanned = base + len(chunk)

    def _read_plain(self, budget: int) -> bytes:
        remaining = self._target - self._scanned
        chunk = os.pread(self._file.fileno(), min(budget, remaining), self._scanned)
        if len(chunk) < min(budget, remaining):  # shrank under us: what we have is all
            self._target = self._scanned + len(chunk)
        if self._scanned + len(chunk) >= self._target:
            self._scan_done = True
        return chunk

    def _read_gzip(self, budget: int) -> bytes:
        assert self._gzip is not None
        pieces: list[bytes] = []
        got = 0
        # read1 hands over what is decompressed so far, so a cut-off archive keeps every
        # line before the cut instead of losing the whole step to the error.
        try:
            while got < budget:
                piece = self._gzip.read1(budget - got)
                if not piece:
                    self._scan_done = True
                    break
                pieces.append(piece)
                got += len(piece)
        except (OSError, EOFError, zlib.error) as exc:
            self.problem = f"compressed data unreadable after byte {self._scanned + got}: {exc}"
            self._scan_done = True
        chunk = b"".join(pieces)
        if chunk:
            os.pwrite(self._data.fileno(), chunk, self._scanned)
            self._target = self._scanned + len(chunk)
        return chunk

    def _summarise_step(self, budget: int) -> None:
        ends = self._ends
        first = len(self.facts)
        block_start = self._start_of(first)
        stop = min(max(bisect_right(ends, block_start + budget, first), first + 1), len(ends))
        if ends[stop - 1] - block_start > SUMMARY_LIMIT:  # one huge line alone
            self.facts.note(None, False)
            return
        block = os.pread(self._data.fileno(), ends[stop - 1] - block_start, block_start)
        loads = orjson.loads
        note = self.facts.note
        offset = 0
        for i in range(first, stop):
            end = ends[i] - block_start
            body = block[offset : end - 1]
            offset = end
            try:
                record = loads(body)
            except orjson.JSONDecodeError:
                note(decode_record(body)[0], True)
                continue
            if type(record) is dict:
                note(record, False)
            else:
                note(None, True)

    # -- reading -------------------------------------------------------------------------

    @property
    def complete_lines(self) -> int:
        """Lines that end with a newline (the truncated last line, if any, excluded)."""
        return len(self._ends)

    @property
    def has_truncated_tail(self) -> bool:
        """A scanned file that does not end with a newline."""
        return self._scan_done and self._target > self._end_of_complete()

    def __len__(self) -> int:
        return len(self._ends) + (1 if self.has_truncated_tail else 0)

    def line(self, i: int) -> TrajectoryEntry:
        """Line `i` (0-based; negative counts from the end), read from disk and parsed."""
        count = len(self)
        if i < 0:
            i += count
        if not 0 <= i < count:
            raise IndexError(f"line {i} out of range (0..{count - 1})")
        if i == len(self._ends):
            start = self._end_of_complete()
            data = os.pread(self._data.fileno(), self._target - start, start)
            return parse_line(data, i + 1, start, complete=False)
        start = self._start_of(i)
        data = os.pread(self._data.fileno(), self._ends[i] - start, start)
        return parse_line(data, i + 1, start)

    def lines(self, start: int, stop: int) -> list[TrajectoryEntry]:
        """Lines `start` to `stop - 1` (clamped to the file), read in as few reads as possible."""
        start = max(start, 0)
        stop = min(stop, len(self))
        entries = [
            parse_line(body, i + 1, offset)
            for i, offset, body in self._bodies(start, min(stop, len(self._ends)))
        ]
        tail = len(self._ends)
        if self.has_truncated_tail and start <= tail < stop:
            entries.append(self.line(tail))
        return entries

    def timestamp(self, i: int) -> float:
        """Epoch seconds of line `i` for ordering; a line without a time takes the time of
        the line before it (-inf before any)."""
        facts = self.facts
        if i < len(facts):
            return facts.times[i]
        for k in range(i, -1, -1):
            if k < len(facts):
                return facts.times[k]
            moment = self.line(k).timestamp
            if moment is not None:
                return moment
        return NO_TIME

    def timestamps(self) -> list[float]:
        """`timestamp(i)` of every line, in line order (for merging files by time)."""
        known = min(len(self.facts), len(self))
        return [*self.facts.times[:known], *(self.timestamp(i) for i in range(known, len(self)))]

    def _start_of(self, i: int) -> int:
        return self._ends[i - 1] if i > 0 else 0

    def _end_of_complete(self) -> int:
        return self._ends[-1] if self._ends else 0

    def _bodies(self, start: int, stop: int) -> Iterator[tuple[int, int, bytes]]:
        """(line, offset, bytes with newline) for complete lines, read in ~1 MiB blocks."""
        ends = self._ends
        fd = self._data.fileno()
        i = start
        while i < stop:
            block_start = self._start_of(i)
            j = min(max(bisect_right(ends, block_start + _READ_BLOCK, i), i + 1), stop)
            block = os.pread(fd, ends[j - 1] - block_start, block_start)
            for k in range(i, j):
                offset = self._start_of(k)
                yield k, offset, block[offset - block_start : ends[k] - block_start]
            i = j

    # -- facts and filtering -------------------------------------------------------------

    @property
    def flagged_count(self) -> int:
        """Malformed lines among those summarised so far (all complete lines once `done`;
        a truncated last line is not counted)."""
        return self.facts.flagged_count

    @property
    def data_loss_ratio(self) -> float:
        """Malformed / summarised lines (seed 004 §3.3); 0.0 for no lines."""
        return self.facts.data_loss_ratio

    def is_flagged(self, i: int) -> bool:
        if i < len(self.facts):
            return bool(self.facts.flags[i])
        return self.line(i).flagged

    def agents(self) -> dict[str, int]:
        """Lines per agent among those summarised, for filter choices (lines without an
        agent left out)."""
        return self.facts.agents()

    def phases(self) -> dict[str, int]:
        """Lines per phase among those summarised (lines without a phase left out)."""
        return self.facts.phases()

    def matches(
        self,
        wanted: EntryFilter,
        start: int = 0,
        *,
        reverse: bool = False,
        stop: int | None = None,
    ) -> Iterator[int]:
        """Line numbers passing `wanted`, from `start` onwards (backwards with `reverse`,
        `start` included) up to `stop` (excluded; None: to the end). Lazy: stop iterating
        to cancel, take the first to jump."""
        positions = search_range(start, stop, len(self), reverse)
        if wanted.is_empty:
            yield from positions
            return
        test = IndexedTest(self, wanted)
        if reverse or not wanted.text:
            yield from (i for i in positions if test.passes(i))
            return
        # Forward text search reads the file in blocks instead of one pread a line.
        complete = max(min(positions.stop, len(self._ends)), positions.start)
        for i, _offset, body in self._bodies(positions.start, complete):
            if test.facts_pass(i) and wanted.text_in(body):
                yield i
        yield from (i for i in range(complete, positions.stop) if test.passes(i))

    def tester(self, wanted: EntryFilter) -> Callable[[int], bool]:
        """A test of single line numbers against `wanted` (for views over several files)."""
        return IndexedTest(self, wanted).passes

    def refresh(self) -> Growth:
        """Index whatever was appended since the last build (follow mode).

        A truncated or replaced file is indexed again from the start (`reset`); a file
        that disappeared keeps the lines already read.
        """
        try:
            now = _identity(os.stat(self.path))
        except OSError:
            return Growth(len(self), len(self))
        before = len(self._ends)
        if now == self._identity:
            if self.done:
                return Growth(len(self), len(self))
            self.build()
            return Growth(before, len(self))
        replaced = now[:2] != self._identity[:2]
        if replaced or self.compressed or now[2] < self._identity[2]:
            self.close()
            self._open()
            self.build()
            return Growth(0, len(self), reset=True)
        self._identity = now
        self._target = now[2]
        self._scan_done = self._scanned >= self._target
        self.build()
        return Growth(before, len(self))

    def raw_line(self, i: int) -> bytes:
        """The bytes of complete line `i`, newline included."""
        start = self._start_of(i)
        return os.pread(self._data.fileno(), self._ends[i] - start, start)


def _identity(stat: os.stat_result) -> tuple[int, int, int, int]:
    return (stat.st_dev, stat.st_ino, stat.st_size, stat.st_mtime_ns)
