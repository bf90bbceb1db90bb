"""The Query view: ask, watch the tiers fall through live, inspect and re-pack the result.

The screen owns the state of its view (the current run, the result, the latency history);
widgets only draw what they are given and post messages back.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.widgets import Header, Static, TabbedContent, TabPane

from tierscope.api import QueryOptions, read_timeout
from tierscope.budget import apply_budget
from tierscope.models import Hit, QueryResult, count_hits
from tierscope.render import render_json
from tierscope.scopes import DEFAULT_SCOPE, INIT_HINT, offered_scopes, resolve_scope

from ..clipboard import CopyReport, copy_report, osc52_refusal
from ..command_line import command_line
from ..messages import (
    BudgetAppliedMessage,
    QueryFinishedMessage,
    QueryStartedMessage,
    RunCancelled,
    RunFailed,
    SessionLooked,
    TierFinishedMessage,
    TierStartedMessage,
)
from ..query_runner import QueryEngine, QueryRun, QueryRunner, execute_run
from ..widgets.budget_meter import BudgetMeter
from ..widgets.compare_panel import ComparePanel
from ..widgets.hit_preview import HitPreview
from ..widgets.latency_history import LatencyHistory
from ..widgets.query_form import QueryForm
from ..widgets.replay_comparison import ReplayComparison
from ..widgets.results_table import ResultsTable
from ..widgets.session_picker import SessionPicker
from ..widgets.tier_pipeline import TierPipeline
from ..widgets.tier_row import format_ms
from ..widgets.workbench_footer import WorkbenchFooter
from .view_screen import ViewScreen

if TYPE_CHECKING:
    from tierscope.trajectory.replay import LoggedQuery


class QueryScreen(ViewScreen):
    """The view the workbench opens on."""

    CSS_PATH = "query.tcss"
    TITLE = "Query"

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "cancel_query", "Cancel"),
        Binding("ctrl+r", "run_all_tiers", "All tiers"),
        Binding("ctrl+g", "focus_budget", "Budget bar", show=False),
        Binding("ctrl+y", "copy_json", "Copy JSON"),
        Binding("ctrl+l", "copy_command", "Copy command", show=False),
    ]
    # Keys of the view's widgets, for the help.
    HELP_KEYS: ClassVar[tuple[tuple[str, str], ...]] = (
        ("enter", "Run the query (from any field)"),
        ("← / →", "Budget − / + 100 (budget bar focused)"),
        ("shift+← / shift+→", "Budget − / + 1000 (budget bar focused)"),
    )

    def __init__(self, engine: QueryEngine, **kwargs) -> None:
        super().__init__(**kwargs)
        self.engine = engine
        self.runner = QueryRunner()
        self.history = LatencyHistory()
        self.options: QueryOptions | None = None
        self.result: QueryResult | None = None
        self.candidates: tuple[Hit, ...] = ()
        self.seen: SessionLooked | None = None  # what the chosen session has of the result

    def compose(self) -> ComposeResult:
        config = self.engine.config
        yield Header()
        yield QueryForm(config, offered_scopes(config, self.engine.root), id="form")
        yield TierPipeline(config.tiers, config.timeout_seconds, id="pipeline")
        yield ReplayComparison(id="replay-comparison")
        with TabbedContent(id="tabs", initial="results-tab"):
            with TabPane("Results", id="results-tab"), Horizontal(id="results-pane"):
                with Vertical(id="results-column"):
                    yield SessionPicker(self.engine.sessions(), id="session-picker")
                    yield ResultsTable(id="results")
                    with VerticalScroll(id="budget-box"):
                        yield BudgetMeter(id="budget-meter")
                yield HitPreview(id="preview")
            with TabPane("Compare", id="compare-tab"):
                yield ComparePanel(id="compare")
        yield Static(id="command-line")
        yield WorkbenchFooter()

    def on_mount(self) -> None:
        self.query_one("#budget-box").border_title = "Budget"
        self.query_one("#budget-box").border_subtitle = "drag the bar · ←/→ when focused"
        self.query_one("#preview").border_title = "Preview"
        self.query_one(HitPreview).show(None, "")
        hint = "Enter runs the query · ctrl+r runs every tier to compare · F1 for help"
        adapted = resolve_scope(DEFAULT_SCOPE, self.engine.config, self.engine.root).adapted
        if adapted:
            # A project not laid out like Loa: say once, where it is read first, what the
            # default scope searches instead and how to get scopes of its own.
            instead = f"No Loa layout here: scope {DEFAULT_SCOPE} searches the project's own files"
            hint = f"{instead} · {INIT_HINT} · {hint}"
            self.query_one(QueryForm).set_status(
                "defaults adapted (no Loa layout)", tooltip=f"{adapted}; {INIT_HINT}"
            )
        self.query_one("#command-line", Static).update(hint)

    def on_screen_resume(self) -> None:
        self._list_sessions()

    def _list_sessions(self) -> None:
        self.query_one(SessionPicker).set_sessions(self.engine.sessions())

    # Running ---------------------------------------------------------------------------

    def run_options(self, options: QueryOptions) -> None:
        """Start a run of `options`; a run still in flight is cancelled first."""
        run = self.runner.begin(options)
        self.options = options
        timeout = read_timeout(options.timeout) or self.engine.config.timeout_seconds
        self.query_one(TierPipeline).reset(timeout)
        self.query_one(QueryForm).set_status("running…", "$accent")
        self._show_command()
        self._execute(run)

    @work(thread=True, exclusive=True, group="query", exit_on_error=False)
    def _execute(self, run: QueryRun) -> None:
        execute_run(self.engine, run, self.post_message)

    def load_options(
        self, options: QueryOptions, *, run: bool = True, logged: LoggedQuery | None = None
    ) -> None:
        """Fill the form from `options` (a replayed query) and, by default, run it; with
        `logged` (what the trajectory says the query found), show then beside now."""
        self.query_one(QueryForm).load(options)
        self.query_one(ReplayComparison).expect(logged)
        if run:
            self.run_options(options)

    def choose_scope(self, scope: str) -> None:
        """Switch the form to `scope` and re-run the query typed there, if any."""
        form = self.query_one(QueryForm)
        form.set_scope(scope)
        if form.has_query():
            form.submit()

    @on(QueryForm.Submitted)
    def _submitted(self, message: QueryForm.Submitted) -> None:
        if message.options != self.options:
            # Another query than the replayed one: then and now no longer compare.
            self.query_one(ReplayComparison).expect(None)
        self.run_options(message.options)

    @on(QueryForm.Invalid)
    def _invalid(self, message: QueryForm.Invalid) -> None:
        self.query_one(QueryForm).set_status(message.problem, "$warning")

    def on_query_started_message(self, message: QueryStartedMessage) -> None:
        if self.runner.is_current(message.run_id):
            self.query_one(TierPipeline).reset(message.event.request.timeout)

    def on_tier_started_message(self, message: TierStartedMessage) -> None:
        if self.runner.is_current(message.run_id):
            self.query_one(TierPipeline).tier_started(message.event.tier, message.event.timeout)

    def on_tier_finished_message(self, message: TierFinishedMessage) -> None:
        if self.runner.is_current(message.run_id):
            self.query_one(TierPipeline).tier_finished(message.event.outcome)

    def on_budget_applied_message(self, message: BudgetAppliedMessage) -> None:
        if self.runner.is_current(message.run_id):
            self.query_one(BudgetMeter).show(message.event.report, new_result=True)

    def on_query_finished_message(self, message: QueryFinishedMessage) -> None:
        if not self.runner.is_current(message.run_id):
            return
        self.runner.finish(message.run_id)
        self.show_result(message.event.result)

    def on_run_cancelled(self, message: RunCancelled) -> None:
        if not self.runner.is_current(message.run_id):
            return
        self.runner.finish(message.run_id)
        self.query_one(TierPipeline).cancel()
        self.query_one(QueryForm).set_status("cancelled", "$warning")

    def on_run_failed(self, message: RunFailed) -> None:
        if not self.runner.is_current(message.run_id):
            return
        self.runner.finish(message.run_id)
        self.query_one(TierPipeline).cancel()
        self.query_one(QueryForm).set_status(f"failed: {message.error}", "$error")
        self.notify(message.error, title="The query failed", severity="error")

    # Showing a result ------------------------------------------------------------------

    def show_result(self, result: QueryResult) -> None:
        """Draw a finished result everywhere and remember it for re-packing."""
        self.result = result
        report = result.budget
        self.candidates = tuple(entry.hit for entry in (*report.included, *report.dropped))
        pipeline = self.query_one(TierPipeline)
        pipeline.show_outcomes(result.outcomes)
        self.history.record(result.outcomes)
        pipeline.show_history(self.history)
        # What the chosen session has of this result is looked up below; until then, none.
        self.seen = None
        table = self.query_one(ResultsTable)
        table.seen = {} if self.query_one(SessionPicker).chosen() else None
        table.show(report)
        self.query_one(BudgetMeter).show(report, new_result=True)
        self.query_one(ReplayComparison).show_now(result)
        self._show_status()
        self._show_command()
        self._list_sessions()
        self._look_at_session()
        compare = self.query_one(ComparePanel)
        if result.request.all_tiers:
            self.run_worker(compare.show(result.outcomes), group="compare", exclusive=True)
            self.query_one(TabbedContent).active = "compare-tab"
        else:
            # Columns left from an earlier all-tiers run would pass for this query's.
            self.run_worker(compare.clear(), group="compare", exclusive=True)
            self.query_one(TabbedContent).active = "results-tab"

    def repack(self, limit: int) -> None:
        """Cut the current hits to `limit` again, without re-running any tier."""
        if self.result is None or limit == self.result.budget.limit:
            return
        report = apply_budget(self.candidates, limit)
        self.result = replace(
            self.result, budget=report, request=replace(self.result.request, budget=limit)
        )
        if self.options is not None:
            self.options = replace(self.options, budget=limit)
        self.query_one(ResultsTable).show(report)
        self.query_one(BudgetMeter).show(report)
        self.query_one(QueryForm).set_budget(limit)
        self._show_status()
        self._show_session_summary()
        self._show_command()

    def _show_status(self) -> None:
        result = self.result
        form = self.query_one(QueryForm)
        if result is None:
            return
        if result.refused:
            form.set_status(result.refused.message, "$warning")
            return
        if result.scope is not None and result.scope.missing and not result.served_by:
            form.set_status(f"scope {result.scope.name}: {result.scope.missing}", "$warning")
            return
        served = f"{result.served_by} served" if result.served_by else "no tier had hits"
        scope = result.request.scope
        if result.scope is not None and result.scope.adapted:
            scope += " (project files)"
        report = result.budget
        form.set_status(
            f"{served} · {scope} · {len(report.included)} kept"
            f" · {len(report.dropped)} dropped · {format_ms(result.total_ms)}",
            "$success" if result.served_by else "$warning",
        )

    def _show_session_summary(self) -> None:
        picker = self.query_one(SessionPicker)
        if self.seen is None or self.result is None:
            picker.show_summary("")
            return
        included = self.result.budget.included
        kept = [entry for entry in included if entry.hit in self.seen.seen]
        if not kept:
            picker.show_summary("nothing kept was sent in it", "$success")
            return
        tokens = sum(entry.tokens for entry in kept)
        picker.show_summary(
            f"↺ {len(kept)} of {len(included)} kept · {tokens:,} tokens",
            tooltip=f"{len(kept)} of the {len(included)} kept hits were sent in session "
            f"{self.seen.session} already ({tokens:,} tokens): a query in it would get "
            "references to them (↺), or only their new lines (◐)",
        )

    # Comparing with a session -----------------------------------------------------------

    @on(SessionPicker.Chosen)
    def _session_chosen(self) -> None:
        self._look_at_session()

    def _look_at_session(self) -> None:
        """Mark which hits the chosen session has received (looked up off the UI thread)."""
        session = self.query_one(SessionPicker).chosen()
        if session is None or self.result is None:
            self.seen = None
            self.query_one(ResultsTable).show_seen(None)
            self._show_session_summary()
            return
        self._look(self.result.query_id, session, self.candidates)

    @work(thread=True, exclusive=True, group="session-look", exit_on_error=False)
    def _look(self, query_id: str, session: str, hits: tuple[Hit, ...]) -> None:
        seen = {
            assessment.hit: (assessment.kind, assessment.where)
            for assessment in self.engine.session_preview(session, hits)
            if assessment.kind != "new"
        }
        self.post_message(SessionLooked(query_id, session, seen))

    def on_session_looked(self, message: SessionLooked) -> None:
        current = self.result.query_id if self.result is not None else None
        if message.query_id != current:
            return
        if message.session != self.query_one(SessionPicker).chosen():
            return
        self.seen = message
        self.query_one(ResultsTable).show_seen(message.seen)
        self._show_session_summary()

    def _show_command(self) -> None:
        if self.options is None:
            return
        line = command_line(self.options, self.engine.root)
        shown = self.query_one("#command-line", Static)
        shown.update(f"$ {line}")
        shown.tooltip = f"{line}\n(ctrl+l copies it)"

    @on(ResultsTable.HitSelected)
    def _hit_selected(self, message: ResultsTable.HitSelected) -> None:
        query = self.result.request.text if self.result else ""
        self.query_one(HitPreview).show(message.ranked, query)

    @on(BudgetMeter.LimitRequested)
    def _limit_requested(self, message: BudgetMeter.LimitRequested) -> None:
        self.repack(message.limit)

    @on(QueryForm.BudgetEdited)
    def _budget_edited(self) -> None:
        limit = self.query_one(QueryForm).typed_budget()
        if limit is not None:
            self.repack(limit)

    # Actions ---------------------------------------------------------------------------

    def action_cancel_query(self) -> None:
        if self.runner.cancel():
            self.query_one(QueryForm).set_status("cancelling…", "$warning")

    def action_run_all_tiers(self) -> None:
        self.query_one(QueryForm).submit(all_tiers=True)

    def action_focus_budget(self) -> None:
        self.query_one(BudgetMeter).focus()

    def action_copy_json(self) -> None:
        if self.result is None:
            self.notify("Run a query first.", severity="warning")
            return
        text = render_json(self.result.hits)
        self.app.copy_to_clipboard(text)
        count = len(self.result.hits)
        what = f"{count_hits(count)} as JSON"
        self._report_copy(copy_report(what, text, "result.json", osc52_refusal(os.environ)))

    def action_copy_command(self) -> None:
        if self.options is None:
            self.notify("Run a query first.", severity="warning")
            return
        line = command_line(self.options, self.engine.root)
        self.app.copy_to_clipboard(line)
        refusal = osc52_refusal(os.environ)
        what = "the equivalent tierscope command"
        self._report_copy(copy_report(what, line, "command.txt", refusal, show=True))

    def _report_copy(self, report: CopyReport) -> None:
        title = "Copied" if report.severity == "information" else "Not copied"
        timeout = 5 if report.severity == "information" else 15
        self.notify(report.message, title=title, severity=report.severity, timeout=timeout)
