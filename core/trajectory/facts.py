"""What is known about each line of a trajectory file without reading it again: its time,
agent, phase and whether it is malformed, in compact arrays (about 17 bytes a line).

Filters on agent, phase and malformed lines, the merged view's ordering and the header's
counts are answered from here; only free text needs the line itself.
"""

from __future__ import annotations

from array import array
from collections import Counter
from datetime import datetime

from .filters import EntryFilter
from .records import text_field, timestamp_of

NO_TIME = float("-inf")


class LineFacts:
    """The facts of the first `len(self)` lines of one file, noted in line order.

    One thread notes while others read: the arrays only grow, and the flags grow last, so
    `len(self)` lines are always complete.
    """

    def __init__(self) -> None:
        self.times = array("d")
        self.agent_ids = array("I")
        self.phase_ids = array("I")
        self.flags = bytearray()
        self.flagged_count = 0
        self.agent_names = InternedNames()
        self.phase_names = InternedNames()
        self._last_time = NO_TIME

    def __len__(self) -> int:
        return len(self.flags)

    def note(self, record: dict | None, flagged: bool) -> None:
        """Add the facts of the next line: its parsed object (None when nothing could be
        recovered) and whether it is malformed."""
        # The hot loop of indexing: the common shapes (string agent and phase, ISO time
        # ending in Z) take the short paths, anything else the general helpers.
        agent = phase = ""
        if record is not None:
            agent = record.get("agent", "")
            if type(agent) is not str:
                agent = text_field(record, "agent")
            phase = record.get("phase", "")
            if type(phase) is not str:
                phase = text_field(record, "phase")
            moment = _utc_timestamp(record.get("ts"))
            if moment is not None:
                self._last_time = moment
        # A line without a time sorts with the line before it.
        self.times.append(self._last_time)
        self.agent_ids.append(self.agent_names.id_of(agent))
        self.phase_ids.append(self.phase_names.id_of(phase))
        self.flagged_count += flagged
        self.flags.append(flagged)

    @property
    def data_loss_ratio(self) -> float:
        """Malformed / noted lines (seed 004 §3.3); 0.0 for no lines."""
        return self.flagged_count / len(self.flags) if self.flags else 0.0

    def agents(self) -> dict[str, int]:
        """Lines per agent (lines without an agent left out)."""
        return self.agent_names.counts(self.agent_ids)

    def phases(self) -> dict[str, int]:
        """Lines per phase (lines without a phase left out)."""
        return self.phase_names.counts(self.phase_ids)

    def test(self, wanted: EntryFilter) -> FactTest:
        return FactTest(self, wanted)


class FactTest:
    """The agent, phase and malformed parts of an EntryFilter resolved against one file's
    facts: names become sets of interned ids, so a line is decided without reading it."""

    def __init__(self, facts: LineFacts, wanted: EntryFilter) -> None:
        self.facts = facts
        self.wanted = wanted
        self.agent_ids = facts.agent_names.ids_matching(wanted.agent) if wanted.agent else None
        self.phase_ids = facts.phase_names.ids_matching(wanted.phase) if wanted.phase else None

    def passes(self, i: int) -> bool:
        """Line `i` (which must have facts) passes the agent, phase and malformed tests."""
        facts = self.facts
        if self.wanted.flagged_only and not facts.flags[i]:
            return False
        if self.agent_ids is not None and facts.agent_ids[i] not in self.agent_ids:
            return False
        return self.phase_ids is None or facts.phase_ids[i] in self.phase_ids


class InternedNames:
    """Small ids for repeated strings (agents, phases); id 0 is the empty string."""

    def __init__(self) -> None:
        self.names: list[str] = [""]
        self._ids: dict[str, int] = {"": 0}

    def id_of(self, name: str) -> int:
        found = self._ids.get(name)
        if found is None:
            found = self._ids[name] = len(self.names)
            self.names.append(name)
        return found

    def ids_matching(self, name: str) -> frozenset[int]:
        wanted = name.casefold()
        return frozenset(i for i, known in enumerate(self.names) if known.casefold() == wanted)

    def counts(self, ids: array) -> dict[str, int]:
        tally = Counter(ids)
        return {self.names[i]: n for i, n in sorted(tally.items()) if i != 0}


def _utc_timestamp(value: object) -> float | None:
    if type(value) is str and value.endswith("Z"):
        try:
            return datetime.fromisoformat(value).timestamp()
        except ValueError:
            return None
    return timestamp_of(value)
