"""The Store view: browse the project's context store by run and type, search it, and read
any entry in full.

Reads run in a thread worker each time the view is shown, on `r`, and whenever a filter,
the search text or the page changes; the worker only posts messages, and a read that a
newer one has replaced is ignored when it arrives.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widgets import ContentSwitcher, Header, Input, Static

from tierscope.api import Project
from tierscope.debugging import report_exception
from tierscope.store.context_types import CONTEXT_TYPES
from tierscope.store.entries import ReadFilters, ReadResult, RunSummary
from tierscope.store.location import store_path
from tierscope.store.store import ContextStore, StoreError, StoreMissing

from ..widgets.short_path import short_path
from ..widgets.store_entries import EntryTable, type_variable
from ..widgets.store_entry_detail import EntryDetail
from ..widgets.store_filters import FilterChoice, FilterList
from ..widgets.workbench_footer import WorkbenchFooter
from .view_screen import ViewScreen

PAGE_SIZE = 50
WRITE_EXAMPLE = 'tierscope context write --type discovery --content "..."'


@dataclass(frozen=True, slots=True)
class StoreBrowse:
    """What the view is looking at: a run (None: every run), a type (None: every type),
    search text, and the offset of the page."""

    run_id: str | None = None
    entry_type: str | None = None
    search: str = ""
    offset: int = 0


@dataclass(frozen=True, slots=True)
class StorePage:
    """One read of the store: the runs, per-type counts under the run and search filters,
    and the page of entries that also match the type filter."""

    browse: StoreBrowse
    runs: tuple[RunSummary, ...]
    type_counts: dict[str, int]
    page: ReadResult


def read_page(path: Path, browse: StoreBrowse) -> StorePage:
    """Read what `browse` asks for. A run no longer in the store falls back to every run,
    an offset past the end to the last page. Raises StoreMissing / StoreError."""
    with ContextStore.open(path, create=False) as store:
        runs = store.runs()
        if browse.run_id is not None and browse.run_id not in {run.run_id for run in runs}:
            browse = replace(browse, run_id=None, offset=0)
        scope = ReadFilters(run_id=browse.run_id, search=browse.search or None)
        type_counts = {
            entry_type: store.read(replace(scope, types=(entry_type,), limit=0)).total
            for entry_type in CONTEXT_TYPES
        }
        types = (browse.entry_type,) if browse.entry_type else ()
        page = store.read(replace(scope, types=types, limit=PAGE_SIZE, offset=browse.offset))
        if not page.entries and page.total and browse.offset:
            browse = replace(browse, offset=(page.total - 1) // PAGE_SIZE * PAGE_SIZE)
            page = store.read(replace(scope, types=types, limit=PAGE_SIZE, offset=browse.offset))
    return StorePage(browse, runs, type_counts, page)


def showing(offset: int, shown: int, total: int) -> str:
    """`showing 1–50 of 1,234`, or why nothing is shown."""
    if total == 0:
        return "no entries match"
    if shown == 0:
        return f"no entries past {offset:,} (of {total:,})"
    return f"showing {offset + 1:,}–{offset + shown:,} of {total:,}"


def run_choices(runs: tuple[RunSummary, ...]) -> list[FilterChoice]:
    total = sum(run.entries for run in runs)
    return [
        FilterChoice(None, "all runs", total, "italic"),
        *(FilterChoice(run.run_id, run.run_id, run.entries) for run in runs),
    ]


def type_choices(counts: dict[str, int]) -> list[FilterChoice]:
    return [
        FilterChoice(None, "all types", sum(counts.values()), "italic"),
        *(
            FilterChoice(entry_type, entry_type, count, f"${type_variable(entry_type)}")
            for entry_type, count in counts.items()
        ),
    ]


def empty_state(path: Path, root: Path) -> Content:
    """What the view says before the project has a store, and how to make one."""
    return Content.assemble(
        ("No context store for this project yet.", "bold"),
        "\n\nSkills record discoveries, errors, decisions and review issues in it; the "
        "first entry written creates it. From the project folder:\n\n  ",
        (WRITE_EXAMPLE, "$accent bold"),
        "\n\nIt will live at ",
        (short_path(path, root), "$foreground-muted"),
        ("\n(store.path in the config or $TIERSCOPE_STORE puts it elsewhere)", "$foreground-muted"),
        "\n\n",
        ("r checks again", "$foreground-muted"),
    )


class StorePageRead(Message):
    """A read finished; `read_id` says which one."""

    def __init__(self, read_id: int, page: StorePage) -> None:
        super().__init__()
        self.read_id = read_id
        self.page = page


class StoreAbsent(Message):
    """There is no store yet at `path`."""

    def __init__(self, read_id: int, path: Path) -> None:
        super().__init__()
        self.read_id = read_id
        self.path = path


class StoreUnreadable(Message):
    """The store exists but cannot be read (corrupt, locked too long...): one line."""

    def __init__(self, read_id: int, error: str) -> None:
        super().__init__()
        self.read_id = read_id
        self.error = error


class StoreScreen(ViewScreen):
    """The project's context store."""

    CSS_PATH = "store.tcss"
    TITLE = "Store"
    # The cursor starts on the entries, so `/` (and the other keys) reach the view instead
    # of being typed into the search field.
    AUTO_FOCUS = "#store-entries"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "focus_search", "Search"),
        Binding("left_square_bracket", "page(-1)", "Previous page"),
        Binding("right_square_bracket", "page(1)", "Next page"),
        Binding("r", "reload", "Reload"),
    ]

    def __init__(self, engine: Project, **kwargs) -> None:
        super().__init__(**kwargs)
        self.engine = engine
        self.browse = StoreBrowse()
        self.page: StorePage | None = None
        self._read_id = 0
        self._reading = False

    def compose(self) -> ComposeResult:
        yield Header()
        with ContentSwitcher(id="store-switcher", initial="store-browser"):
            with Vertical(id="store-browser"):
                with Horizontal(id="store-bar"):
                    yield Input(placeholder="search entries (plain words)", id="store-search")
                    yield Static("reading the store…", id="store-count")
                with Horizontal(id="store-panes"):
                    with Vertical(id="store-filters"):
                        yield FilterList(id="store-runs")
                        yield FilterList(id="store-types")
                    with Vertical(id="store-reading"):
                        yield EntryTable(id="store-entries")
                        yield EntryDetail(id="store-detail")
            yield Static(id="store-empty")
        yield WorkbenchFooter()

    def on_mount(self) -> None:
        for selector, title in (
            ("#store-runs", "Runs"),
            ("#store-types", "Types"),
            ("#store-entries", "Entries"),
            ("#store-detail", "Detail"),
        ):
            self.query_one(selector).border_title = title
        self.query_one(EntryDetail).show(None)

    def on_screen_resume(self) -> None:
        # Every time the view is shown: skills may have written entries since.
        if not self._reading:
            self.reload()

    # Reading ---------------------------------------------------------------------------

    def reload(self) -> None:
        """Read the store again for the current run, type, search and page."""
        self._read_id += 1
        self._reading = True
        self._read(self._read_id, self.browse)

    @work(thread=True, exclusive=True, group="store", exit_on_error=False)
    def _read(self, read_id: int, browse: StoreBrowse) -> None:
        path = store_path(self.engine.root, self.engine.config)
        try:
            page = read_page(path, browse)
        except StoreMissing:
            self.post_message(StoreAbsent(read_id, path))
            return
        except StoreError as exc:
            self.post_message(StoreUnreadable(read_id, str(exc)))
            return
        except Exception as exc:
            # The store turns every database failure into a StoreError, so this is a bug;
            # say it in one line instead of tearing the workbench down.
            report_exception("workbench: reading the store raised", also=self.log.error)
            self.post_message(StoreUnreadable(read_id, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(StorePageRead(read_id, page))

    def on_store_page_read(self, message: StorePageRead) -> None:
        if message.read_id != self._read_id:
            return
        self._reading = False
        page = message.page
        self.page = page
        self.browse = page.browse
        self.query_one(ContentSwitcher).current = "store-browser"
        self.query_one("#store-runs", FilterList).show(run_choices(page.runs), page.browse.run_id)
        self.query_one("#store-types", FilterList).show(
            type_choices(page.type_counts), page.browse.entry_type
        )
        entries = page.page.entries
        self.query_one(EntryTable).show(entries, with_run=page.browse.run_id is None)
        self.query_one("#store-count", Static).update(
            showing(page.browse.offset, len(entries), page.page.total)
            if page.runs
            else "the store holds no entries"
        )
        self.refresh_bindings()

    def on_store_absent(self, message: StoreAbsent) -> None:
        if message.read_id != self._read_id:
            return
        self._reading = False
        self.page = None
        self.query_one("#store-empty", Static).update(empty_state(message.path, self.engine.root))
        self.query_one(ContentSwitcher).current = "store-empty"
        self.refresh_bindings()

    def on_store_unreadable(self, message: StoreUnreadable) -> None:
        if message.read_id != self._read_id:
            return
        self._reading = False
        self.page = None
        self.query_one("#store-empty", Static).update(
            Content.assemble(
                ("The context store cannot be read.", "$error bold"),
                f"\n\n{message.error}\n\n",
                ("r tries again", "$foreground-muted"),
            )
        )
        self.query_one(ContentSwitcher).current = "store-empty"
        self.refresh_bindings()

    # Filters ---------------------------------------------------------------------------

    def _browse(self, browse: StoreBrowse) -> None:
        """Look at `browse`, if that is something else."""
        if browse != self.browse:
            self.browse = browse
            self.reload()

    # A filter changed: back to the first page.

    @on(FilterList.Chosen, "#store-runs")
    def _run_chosen(self, message: FilterList.Chosen) -> None:
        self._browse(replace(self.browse, run_id=message.value, offset=0))

    @on(FilterList.Chosen, "#store-types")
    def _type_chosen(self, message: FilterList.Chosen) -> None:
        self._browse(replace(self.browse, entry_type=message.value, offset=0))

    @on(Input.Changed, "#store-search")
    def _search_changed(self, message: Input.Changed) -> None:
        self._browse(replace(self.browse, search=message.value.strip(), offset=0))

    @on(EntryTable.EntryHighlighted)
    def _entry_highlighted(self, message: EntryTable.EntryHighlighted) -> None:
        self.query_one(EntryDetail).show(message.entry)

    # Actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Without a store there is nothing to search or page through; at either end of
        # the entries, the page key that would leave them is shown dimmed.
        if action in ("focus_search", "page") and self.page is None:
            return False
        if action == "page":
            step = parameters[0]
            return True if isinstance(step, int) and self._page_offset(step) is not None else None
        return True

    def _page_offset(self, step: int) -> int | None:
        """The offset `step` pages away, or None when that is past either end."""
        if self.page is None:
            return None
        offset = self.browse.offset + step * PAGE_SIZE
        return offset if 0 <= offset < self.page.page.total else None

    def action_focus_search(self) -> None:
        self.query_one("#store-search", Input).focus()

    def action_page(self, step: int) -> None:
        offset = self._page_offset(step)
        if offset is not None:
            self._browse(replace(self.browse, offset=offset))

    def action_reload(self) -> None:
        self.reload()
