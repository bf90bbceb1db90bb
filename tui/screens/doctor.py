"""The Doctor view: the report of `tierscope doctor` — which tiers can serve here and
exactly why not, what every scope resolves to, and the config in use with its problems.

The check probes real tools (and may spawn them for their versions), so it runs in a
thread worker each time the view is shown and on `r`; the worker only posts messages.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Header, Static

from tierscope.api import Project
from tierscope.debugging import report_exception
from tierscope.doctor import DoctorReport, diagnose

from ..widgets.doctor_config import ConfigSummary
from ..widgets.doctor_scopes import ScopeDetails
from ..widgets.doctor_tiers import TierTable
from ..widgets.workbench_footer import WorkbenchFooter
from .view_screen import ViewScreen


class DoctorChecked(Message):
    """A check finished; `check_id` says which one."""

    def __init__(self, check_id: int, report: DoctorReport) -> None:
        super().__init__()
        self.check_id = check_id
        self.report = report


class DoctorFailed(Message):
    """The check raised: a programming error, shown as one line rather than a crash."""

    def __init__(self, check_id: int, error: str) -> None:
        super().__init__()
        self.check_id = check_id
        self.error = error


def summary(report: DoctorReport) -> Content:
    """One line: how many tiers are usable here, and how many are in use."""
    usable = sum(tier.usable for tier in report.tiers)
    style = "$success" if usable else "$error"
    return Content.assemble(
        (f"{usable} of {len(report.tiers)} tiers usable here", f"{style} bold"),
        ("  ·  r checks again", "$foreground-muted"),
    )


class DoctorScreen(ViewScreen):
    """Which tiers work in this project, and why."""

    CSS_PATH = "doctor.tcss"
    TITLE = "Doctor"

    BINDINGS: ClassVar[list[BindingType]] = [Binding("r", "check", "Check again")]

    def __init__(self, engine: Project, **kwargs) -> None:
        super().__init__(**kwargs)
        self.engine = engine
        self.report: DoctorReport | None = None
        self._check_id = 0
        self._checking = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="doctor-status")
        with VerticalScroll(id="doctor-body"):
            yield ConfigSummary(id="doctor-config")
            with Vertical(id="doctor-tiers-box"):
                yield TierTable(id="doctor-tiers")
            yield Static("Scopes", id="doctor-scopes-heading")
            yield ScopeDetails(id="doctor-scopes")
        yield WorkbenchFooter()

    def on_mount(self) -> None:
        self.query_one("#doctor-tiers-box").border_title = "Tiers"

    def on_screen_resume(self) -> None:
        # Every time the view is shown: tools may have been installed or indexes built since.
        if not self._checking:
            self.action_check()

    def action_check(self) -> None:
        """Run the doctor's check again; a check still running is superseded."""
        self._check_id += 1
        self._checking = True
        self.query_one("#doctor-status", Static).update(
            Content.styled("checking every tier…", "$accent")
        )
        self._diagnose(self._check_id)

    @work(thread=True, exclusive=True, group="doctor", exit_on_error=False)
    def _diagnose(self, check_id: int) -> None:
        try:
            report = diagnose(self.engine)
        except Exception as exc:
            # diagnose turns every tier's trouble into a finding, so this is a bug; say it
            # in one line instead of tearing the workbench down.
            report_exception("workbench: the doctor raised", also=self.log.error)
            self.post_message(DoctorFailed(check_id, f"{type(exc).__name__}: {exc}"))
            return
        self.post_message(DoctorChecked(check_id, report))

    async def on_doctor_checked(self, message: DoctorChecked) -> None:
        if message.check_id != self._check_id:
            return
        self._checking = False
        report = message.report
        self.report = report
        await self.query_one(ConfigSummary).show(report)
        root = Path(report.root)
        await self.query_one(TierTable).show(report.tiers, root)
        await self.query_one(ScopeDetails).show(report.used_scopes, root, report.tiers)
        self.query_one("#doctor-status", Static).update(summary(report))

    def on_doctor_failed(self, message: DoctorFailed) -> None:
        if message.check_id != self._check_id:
            return
        self._checking = False
        self.query_one("#doctor-status", Static).update(
            Content.styled(f"the check failed: {message.error}", "$error")
        )
        self.notify(message.error, title="The doctor's check failed", severity="error")
