"""The workbench's Doctor view: the report of `tierscope doctor`, checked in a worker when
the view is shown and again on `r`."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from textual.widgets import Static
from tui_checks import NARROW, settled_text
from tui_fakes import FAKE_ROOT, ScriptedProject

from tierscope.api import Project
from tierscope.doctor import DoctorReport, TierReport, diagnose
from tierscope.models import RefusedPath, ResolvedScope
from tierscope.store.entries import WriteRequest
from tierscope.store.location import store_path
from tierscope.store.store import ContextStore
from tierscope.tiers.base import Probe
from tierscope.tui.app import TierscopeApp
from tierscope.tui.screens import doctor as doctor_screen
from tierscope.tui.widgets.doctor_config import ConfigSummary
from tierscope.tui.widgets.doctor_scopes import ScopeCard

pytestmark = pytest.mark.anyio
HARBOR = FAKE_ROOT

MISCONFIGURED = """\
qmd_context:
  tiers: [qmd, ck, grep]
  scopes:
    notes:
      qmd_collection: "loa-grimoire"
      ck_path: "grimoires/loa/.ck/"
      grep_paths:
        - "grimoires/loa/"
        - "../elsewhere/"
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def show_doctor(pilot) -> None:
    """Switch to the Doctor view and wait until its check has been drawn."""
    await pilot.press("f5")
    await settle(pilot)


async def settle(pilot) -> None:
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def row_text(screen, tier: str) -> str:
    """Everything the tier table shows for `tier`, cell after cell."""
    return " | ".join(str(cell.content) for cell in screen.query(f"Static.tier-{tier}"))


def card_text(screen, scope: str) -> str:
    card = next(card for card in screen.query(ScopeCard) if card.scope.name == scope)
    return "\n".join(str(cell.content) for cell in card.query(Static))


async def test_doctor_view_shows_qmd_not_usable_with_the_reason_doctor_gives(
    make_project, path_without_tools
):
    root = make_project({"grimoires/loa/NOTES.md": "# Notes\n"})
    project = Project(root)
    expected = next(tier for tier in diagnose(project).tiers if tier.name == "qmd")
    assert not expected.usable

    app = TierscopeApp(project)
    async with app.run_test(size=(140, 60)) as pilot:
        await show_doctor(pilot)
        qmd_row = row_text(app.screen, "qmd")

    assert "✗ not usable" in qmd_row
    assert expected.reason in qmd_row


async def test_doctor_view_shows_refused_paths_and_a_ck_path_inside_its_index(
    make_project, path_without_tools
):
    root = make_project({".tierscope.yaml": MISCONFIGURED, "grimoires/loa/NOTES.md": "# Notes\n"})
    (root / "grimoires/loa/.ck").mkdir()
    app = TierscopeApp(Project(root))
    async with app.run_test(size=(140, 60)) as pilot:
        await show_doctor(pilot)
        notes = card_text(app.screen, "notes")

    assert "! refused ../elsewhere/" in notes
    assert "inside a .ck/ index directory" in notes
    assert "grimoires/loa" in notes


async def test_r_checks_again_and_finds_a_store_written_since(make_project, path_without_tools):
    root = make_project({"grimoires/loa/NOTES.md": "# Notes\n"})
    project = Project(root)
    app = TierscopeApp(project)
    async with app.run_test(size=(140, 60)) as pilot:
        await show_doctor(pilot)
        before = row_text(app.screen, "store")
        with ContextStore.open(store_path(project.root, project.config)) as store:
            store.write(WriteRequest("run-1", "discovery", "The scheduler retries thrice"))
        await pilot.press("r")
        await settle(pilot)
        after = row_text(app.screen, "store")
    now = next(tier for tier in diagnose(project).tiers if tier.name == "store")

    assert "✗ not usable" in before
    assert now.usable
    assert "✓ usable" in after
    assert now.reason in after


async def test_a_failing_check_is_one_line_in_the_view(monkeypatch):
    def broken(_project):
        raise RuntimeError("probe table is gone")

    monkeypatch.setattr(doctor_screen, "diagnose", broken)
    app = TierscopeApp(ScriptedProject())
    async with app.run_test(size=(120, 40)) as pilot:
        await show_doctor(pilot)
        status = str(app.screen.query_one("#doctor-status", Static).content)

    assert status == "the check failed: RuntimeError: probe table is gone"


def fixed_report(_project) -> DoctorReport:
    """A report with one of everything the view draws: a stale qmd index, a missing tool,
    a tier left out of `tiers:`, a config problem, a refused path and a misconfiguration."""
    root = str(HARBOR)
    qmd_details = {"index_file": "/srv/cache/qmd/index.sqlite", "missing": []}
    return DoctorReport(
        root=root,
        config_path=f"{root}/.loa.config.yaml",
        config_reason="found .loa.config.yaml in the project root",
        problems=(f"{root}/.loa.config.yaml:71: timeout_seconds: expected number, got 'soon'",),
        has_errors=True,
        tiers=(
            TierReport(
                "qmd",
                True,
                True,
                "qmd at /usr/local/bin/qmd",
                "/usr/local/bin/qmd",
                "2.8.3",
                {
                    "grimoires": Probe(
                        True,
                        "qmd: index 3 files behind (run qmd update)",
                        "/usr/local/bin/qmd",
                        "2.8.3",
                        {**qmd_details, "collections": {"loa-grimoire": "grimoires/loa"}},
                    ),
                    "code": Probe(False, "scope code has no qmd collection"),
                    "notes": Probe(
                        True,
                        "qmd at /usr/local/bin/qmd",
                        "/usr/local/bin/qmd",
                        "2.8.3",
                        {**qmd_details, "collections": {"loa-grimoire": "grimoires/loa"}},
                    ),
                },
            ),
            TierReport(
                "ck",
                True,
                False,
                "ck not installed (not on PATH)",
                None,
                None,
                dict.fromkeys(
                    ("grimoires", "code", "notes"), Probe(False, "ck not installed (not on PATH)")
                ),
            ),
            TierReport(
                "grep",
                True,
                True,
                "grep: ripgrep",
                "/usr/bin/rg",
                None,
                {
                    "grimoires": Probe(True, "grep: ripgrep", "/usr/bin/rg"),
                    "code": Probe(True, "grep: ripgrep", "/usr/bin/rg"),
                    "notes": Probe(False, "grep: no existing paths in this scope", "/usr/bin/rg"),
                },
            ),
            TierReport(
                "store",
                False,
                False,
                "store: no context store yet (tierscope context write ...)",
                "/srv/data/harbor/context.sqlite",
                None,
                dict.fromkeys(
                    ("grimoires", "code", "notes"),
                    Probe(False, "store: no context store yet (tierscope context write ...)"),
                ),
            ),
        ),
        scopes={
            "grimoires": ResolvedScope(
                "grimoires",
                ("loa-grimoire",),
                (HARBOR / "grimoires/loa",),
                (HARBOR / "grimoires/loa",),
            ),
            "code": ResolvedScope("code", (), (HARBOR / "src",), (HARBOR / "src",)),
            "notes": ResolvedScope(
                "notes",
                ("loa-grimoire",),
                (),
                (),
                refused=(RefusedPath("../elsewhere/", "outside the project root"),),
                notes=(
                    "ck_path grimoires/loa/.ck/ is inside a .ck/ index directory (ck searches "
                    "sources, not its index): ck searches nothing instead",
                    "grep path grimoires/loa/NOTES.md does not exist",
                ),
            ),
        },
    )


def test_doctor_view_snapshot(snap_compare, monkeypatch):
    monkeypatch.setattr(doctor_screen, "diagnose", fixed_report)
    app = TierscopeApp(ScriptedProject(root=HARBOR))

    async def run_before(pilot) -> None:
        await show_doctor(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=(120, 60))


async def test_at_80x24_each_tiers_reason_reads_as_a_line(monkeypatch):
    monkeypatch.setattr(doctor_screen, "diagnose", fixed_report)
    app = TierscopeApp(ScriptedProject(root=HARBOR))
    async with app.run_test(size=NARROW) as pilot:
        await show_doctor(pilot)
        body = app.screen.query_one("#doctor-body")
        body.scroll_to(y=0, animate=False)
        await pilot.pause()
        shown = await settled_text(pilot)
        for tier in fixed_report(None).tiers[:2]:
            assert tier.reason.split(";")[0][:40] in shown, tier.name


# A store path as long as a real one under the user's data folder.
LONG_STORE_PATH = "/srv/data/tierscope/projects/harbor-22949366/a-long-store-name/context.sqlite"


def long_path_report(_project) -> DoctorReport:
    report = fixed_report(_project)
    store = dataclasses.replace(report.tiers[-1], path=LONG_STORE_PATH)
    return dataclasses.replace(report, tiers=(*report.tiers[:-1], store))


async def test_at_80x24_a_path_too_long_for_its_column_wraps_after_a_slash(monkeypatch):
    monkeypatch.setattr(doctor_screen, "diagnose", long_path_report)
    app = TierscopeApp(ScriptedProject(root=HARBOR))
    async with app.run_test(size=NARROW) as pilot:
        await show_doctor(pilot)
        shown = await settled_text(pilot)
    lines = [line.strip(" │▁▂▃▄▅▆▇█") for line in shown.splitlines()]
    first = next(i for i, line in enumerate(lines) if "/srv/data/" in line)
    last = next(i for i in range(first, len(lines)) if "context.sqlite" in lines[i])
    pieces = [line.split()[-1] for line in lines[first : last + 1]]
    assert "".join(pieces) == LONG_STORE_PATH, pieces
    assert all(piece.endswith("/") for piece in pieces[:-1]), pieces


def hostile_path_report(_project) -> DoctorReport:
    report = fixed_report(_project)
    notes = ("grep path docs/\x1b[2Jboom/\x1b]0;PWNED\x07/file.md does not exist",)
    scopes = {**report.scopes, "notes": dataclasses.replace(report.scopes["notes"], notes=notes)}
    return dataclasses.replace(report, scopes=scopes)


async def test_a_config_path_with_escape_sequences_is_drawn_not_sent_to_the_terminal(
    monkeypatch,
):
    monkeypatch.setattr(doctor_screen, "diagnose", hostile_path_report)
    app = TierscopeApp(ScriptedProject(root=HARBOR))
    async with app.run_test(size=(120, 60)) as pilot:
        await show_doctor(pilot)
        shown = await settled_text(pilot)
    assert "\x1b" not in shown and "\x07" not in shown
    assert "docs/␛[2Jboom/␛]0;PWNED/file.md" in shown


def test_doctor_view_snapshot_at_80x24(snap_compare, monkeypatch):
    monkeypatch.setattr(doctor_screen, "diagnose", fixed_report)
    app = TierscopeApp(ScriptedProject(root=HARBOR))

    async def run_before(pilot) -> None:
        await show_doctor(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=NARROW)


# -- a project without Loa's layout ------------------------------------------------------------

GAUGE = Path("/srv/gauge")


async def test_doctor_view_names_scopes_without_paths_and_the_adapted_default(
    make_project, path_without_tools
):
    root = make_project({"README.md": "# Gauge\n", "src/meter.py": "x = 1\n"})
    project = Project(root)
    report = diagnose(project)
    app = TierscopeApp(project)
    async with app.run_test(size=(140, 60)) as pilot:
        await show_doctor(pilot)
        summary = app.screen.query_one(ConfigSummary).text()

    for name, problem in report.scope_problems:
        assert f"! scope {name}: {problem}" in summary
    assert "`tierscope init` writes scopes for this project" in summary
    assert f"adapted  {report.adapted}" in summary
    assert "no problems" not in summary


def plain_report(_project) -> DoctorReport:
    """The report in a project not laid out like Loa, without a config: the built-in Loa
    scopes find nothing, the default scope searches the project's files."""
    root = str(GAUGE)
    loa_scopes = {
        "grimoires": "grimoires/loa/",
        "skills": ".claude/skills/",
        "notes": "grimoires/loa/NOTES.md",
        "reality": "grimoires/loa/reality/",
    }
    scopes = {
        name: ResolvedScope(
            name,
            (),
            (),
            (),
            notes=(f"grep path {path} does not exist",),
            missing=f"none of its paths exist here ({path})",
        )
        for name, path in loa_scopes.items()
    }
    scopes["all"] = ResolvedScope(
        "all",
        (),
        (GAUGE,),
        (GAUGE,),
        adapted="no Loa layout here (grimoires/loa/, .claude/skills/): scope all searches "
        "the project's own files",
    )
    no_qmd = Probe(False, "qmd not installed (not on PATH)")
    no_ck = Probe(False, "ck not installed (not on PATH)")
    no_grep = Probe(False, "grep: no existing paths in this scope", "/usr/bin/rg")
    grep_probes = dict.fromkeys(loa_scopes, no_grep)
    grep_probes["all"] = Probe(True, "grep: ripgrep", "/usr/bin/rg")
    return DoctorReport(
        root=root,
        config_path=None,
        config_reason="no config file found; built-in defaults",
        problems=(),
        has_errors=False,
        tiers=(
            TierReport(
                "qmd", True, False, no_qmd.reason, None, None, dict.fromkeys(scopes, no_qmd)
            ),
            TierReport("ck", True, False, no_ck.reason, None, None, dict.fromkeys(scopes, no_ck)),
            TierReport(
                "grep", True, True, "usable in 1 of 5 scopes", "/usr/bin/rg", None, grep_probes
            ),
        ),
        scopes=scopes,
        adapted=scopes["all"].adapted,
        hint="`tierscope init` writes scopes for this project",
    )


@pytest.mark.parametrize("size", [(120, 40), NARROW])
def test_doctor_view_snapshot_without_the_loa_layout(snap_compare, monkeypatch, size):
    monkeypatch.setattr(doctor_screen, "diagnose", plain_report)
    app = TierscopeApp(ScriptedProject(root=GAUGE))

    async def run_before(pilot) -> None:
        await show_doctor(pilot)

    assert snap_compare(app, run_before=run_before, terminal_size=size)
