"""The ck tier against a faithful fake `ck` on PATH: flags, statuses, scores and cleanup."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from dataclasses import replace
from pathlib import Path

import pytest

from tierscope.config.model import CkSettings, Config
from tierscope.models import ResolvedScope, TierStatus
from tierscope.tiers.base import Deadline, TierRequest
from tierscope.tiers.ck import NOT_INSTALLED, CkTier

from process_watch import gone_soon
from tier_projects import write_files

FAKE_CK = Path(__file__).parent / "fakes" / "ck"
GENEROUS = 30.0

FILES = {
    "grimoires/loa/budget.md": (
        "# Token budget\n"
        "\n"
        "Every query is cut to a token budget.\n"
        "Tokens are estimated as words times 1.3.\n"
        "\n"
        "A hit that does not fit the budget is skipped.\n"
    ),
    "grimoires/loa/deploy.md": (
        "# Deployment\n\nRoll back with the release script.\nKeep the old release warm.\n"
    ),
    "grimoires/loa/cli.md": (
        "# Command line\n\nPass --dry-run to print the plan without applying it.\n"
    ),
    "grimoires/loa/src/auth.py": (
        "import hashlib\n"
        "\n"
        "\n"
        "def authenticate_user(token):\n"
        "    return hashlib.sha256(token.encode()).hexdigest()\n"
    ),
}


@pytest.fixture(autouse=True)
def quiet_environment(monkeypatch):
    for name in ("FAKE_CK_BEHAVIOUR", "FAKE_CK_ARGV_LOG", "FAKE_CK_PIDFILE", "CK_INDEX_DIR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def ck_on_path(tmp_path, monkeypatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "ck").symlink_to(FAKE_CK)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    return bin_dir / "ck"


@pytest.fixture
def root(tmp_path) -> Path:
    return write_files(tmp_path / "project", FILES)


@pytest.fixture
def argv_log(tmp_path, monkeypatch) -> Path:
    log = tmp_path / "argv.jsonl"
    monkeypatch.setenv("FAKE_CK_ARGV_LOG", str(log))
    return log


def make_request(
    root: Path,
    query: str,
    *,
    ck_paths: tuple[Path, ...] | None = None,
    config: Config | None = None,
    private_paths: tuple[Path, ...] = (),
) -> TierRequest:
    paths = (root / "grimoires/loa",) if ck_paths is None else ck_paths
    scope = ResolvedScope(
        name="grimoires",
        qmd_collections=("loa-grimoire",),
        ck_paths=paths,
        grep_paths=(root / "grimoires/loa",),
    )
    return TierRequest(
        query=query,
        root=root,
        scope=scope,
        config=config or Config(),
        timeout=GENEROUS,
        private_paths=private_paths,
    )


def search(request: TierRequest, seconds: float = GENEROUS):
    return CkTier().search(request, Deadline.after(seconds))


def logged_calls(log: Path) -> list[list[str]]:
    return [json.loads(line) for line in log.read_text().splitlines()]


def with_mode(mode: str) -> Config:
    return replace(Config(), ck=CkSettings(mode=mode))


def test_hits_are_root_relative_with_the_lines_they_quote_and_unit_scores(ck_on_path, root):
    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.SERVED
    assert outcome.hits[0].source == "grimoires/loa/budget.md"
    for hit in outcome.hits:
        assert hit.tier == "ck"
        assert 0.0 <= hit.score <= 1.0
        lines = (root / hit.source).read_text().splitlines()
        assert hit.content == "\n".join(lines[hit.line_start - 1 : hit.line_end]).rstrip()
    scores = [hit.score for hit in outcome.hits]
    assert scores == sorted(scores, reverse=True)


@pytest.mark.parametrize("mode", ["hybrid", "sem", "lex"])
def test_every_mode_is_normalised_into_the_unit_range(ck_on_path, root, mode):
    outcome = search(make_request(root, "token budget", config=with_mode(mode)))

    assert outcome.status is TierStatus.SERVED
    assert f"--{mode}" in outcome.argv
    assert all(0.0 <= hit.score <= 1.0 for hit in outcome.hits)


def test_hybrid_rrf_scores_are_stretched_to_use_the_whole_scale(ck_on_path, root):
    outcome = search(make_request(root, "token budget"))

    # Raw hybrid scores never exceed 2/61; a keyword-and-semantic top hit must not look weak.
    assert outcome.hits[0].score > 0.5


def test_ck_is_called_with_its_real_flags_and_the_path_as_a_positional(ck_on_path, root, argv_log):
    config = Config()
    outcome = search(make_request(root, "token budget", config=config))

    [argv] = logged_calls(argv_log)
    assert argv == list(outcome.argv[1:])
    assert argv == [
        "--hybrid",
        "--topk",
        str(config.ck.limit),
        "--threshold",
        str(config.ck.threshold),
        "--jsonl",
        "--",
        "token budget",
        "grimoires/loa",
    ]
    assert not {"--path", "--semantic", "--top-k", "--limit"} & set(argv)


def test_the_threshold_in_use_is_stated_in_the_trace(ck_on_path, root):
    outcome = search(make_request(root, "token budget"))

    assert f"hybrid threshold {Config().ck.threshold} (raw RRF)" in outcome.notes


def test_ck_runs_from_the_root_whatever_the_current_directory(
    ck_on_path, root, tmp_path, monkeypatch
):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.SERVED
    assert (root / "grimoires/loa/.ck").is_dir()


def test_a_query_starting_with_a_dash_is_searched_literally(ck_on_path, root, argv_log):
    outcome = search(make_request(root, "--dry-run"))

    [argv] = logged_calls(argv_log)
    assert argv[argv.index("--") + 1] == r"\-\-dry\-run"
    assert outcome.status is TierStatus.SERVED
    assert outcome.hits[0].source == "grimoires/loa/cli.md"


def test_nothing_above_the_threshold_is_empty_not_an_error(ck_on_path, root):
    outcome = search(make_request(root, "qqzx vvkj"))

    assert outcome.status is TierStatus.EMPTY
    assert outcome.hits == ()


def test_no_matches_found_is_empty(ck_on_path, root, monkeypatch):
    monkeypatch.setenv("FAKE_CK_BEHAVIOUR", "no-matches")

    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.EMPTY
    assert outcome.reason == "no matches"


def test_regex_syntax_in_a_hybrid_query_is_searched_literally(ck_on_path, root, argv_log):
    outcome = search(make_request(root, "authenticate_user("))

    [argv] = logged_calls(argv_log)
    assert argv[argv.index("--") + 1] == r"authenticate_user\("
    assert outcome.status is TierStatus.SERVED
    assert outcome.hits[0].source == "grimoires/loa/src/auth.py"


def test_the_fake_reports_an_unescaped_regex_as_a_detailed_error(root):
    result = subprocess.run(
        [str(FAKE_CK), "--hybrid", "--topk", "5", "--jsonl", "--", "foo(", str(root)],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 1
    assert "DETAILED ERROR: regex parse error" in result.stderr


def test_a_detailed_error_is_an_error_with_cks_message(root, tmp_path, monkeypatch):
    bin_dir = tmp_path / "errbin"
    bin_dir.mkdir()
    broken = bin_dir / "ck"
    broken.write_text("#!/bin/sh\necho 'DETAILED ERROR: index is corrupt' >&2\nexit 1\n")
    broken.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}/usr/bin:/bin")

    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.ERROR
    assert outcome.reason == "DETAILED ERROR: index is corrupt"


def test_a_usage_error_is_an_error_naming_the_refused_argument(ck_on_path, root):
    # A negative limit reaches ck as "--topk -1": clap takes "-1" for a flag, not a value.
    config = replace(Config(), ck=CkSettings(limit=-1))

    outcome = search(make_request(root, "token budget", config=config))

    assert outcome.status is TierStatus.ERROR
    assert outcome.reason.startswith("ck usage error: error:")
    assert "--topk" in outcome.reason


def test_a_hanging_ck_times_out_and_leaves_no_process(ck_on_path, root, tmp_path, monkeypatch):
    pidfile = tmp_path / "pid"
    monkeypatch.setenv("FAKE_CK_BEHAVIOUR", "hang")
    monkeypatch.setenv("FAKE_CK_PIDFILE", str(pidfile))

    outcome = search(make_request(root, "token budget"), seconds=1.5)

    assert outcome.status is TierStatus.TIMEOUT
    assert outcome.reason == "timed out after 1.5 s"
    assert outcome.argv
    assert gone_soon(int(pidfile.read_text()))


def test_a_hanging_child_of_ck_is_killed_too(ck_on_path, root, tmp_path, monkeypatch):
    pidfile = tmp_path / "pid"
    monkeypatch.setenv("FAKE_CK_BEHAVIOUR", "hang-with-child")
    monkeypatch.setenv("FAKE_CK_PIDFILE", str(pidfile))

    outcome = search(make_request(root, "token budget"), seconds=1.5)

    assert outcome.status is TierStatus.TIMEOUT
    assert gone_soon(int(pidfile.read_text()))


def test_a_cancelled_search_is_an_error_saying_so(ck_on_path, root, monkeypatch):
    monkeypatch.setenv("FAKE_CK_BEHAVIOUR", "hang")
    cancel = threading.Event()
    threading.Timer(0.2, cancel.set).start()

    outcome = CkTier().search(make_request(root, "token budget"), Deadline.after(GENEROUS, cancel))

    assert outcome.status is TierStatus.ERROR
    assert outcome.reason == "cancelled"


def test_a_crash_is_an_error_naming_the_exit_code(ck_on_path, root, monkeypatch):
    monkeypatch.setenv("FAKE_CK_BEHAVIOUR", "crash")

    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.ERROR
    assert "101" in outcome.reason
    assert outcome.hits == ()


def test_malformed_lines_are_dropped_and_counted_and_valid_hits_kept(ck_on_path, root, monkeypatch):
    request = make_request(root, "token budget")
    clean = search(request)
    monkeypatch.setenv("FAKE_CK_BEHAVIOUR", "malformed")

    outcome = search(request)

    raw = subprocess.run(outcome.argv, cwd=root, capture_output=True, text=True, check=True)
    printed = [line for line in raw.stdout.splitlines() if line.strip()]
    assert outcome.status is TierStatus.SERVED
    assert outcome.dropped_lines == len(printed) - len(clean.hits) > 0
    assert {(h.source, h.line_start, h.line_end) for h in outcome.hits} == {
        (h.source, h.line_start, h.line_end) for h in clean.hits
    }
    assert all(0.0 <= hit.score <= 1.0 for hit in outcome.hits)


def test_results_inside_tierscopes_own_state_are_never_returned(ck_on_path, root):
    trajectory = root / "grimoires/loa/a2a/trajectory"
    trajectory.mkdir(parents=True)
    (trajectory / "implement-2026-01-01.jsonl").write_text('{"query": "token budget"}\n')

    outcome = search(make_request(root, "token budget", private_paths=(trajectory,)))

    assert outcome.status is TierStatus.SERVED
    assert not any(hit.source.startswith("grimoires/loa/a2a/") for hit in outcome.hits)


def test_ck_missing_from_path_is_unavailable(root, tmp_path, monkeypatch):
    empty_bin = tmp_path / "empty-bin"
    empty_bin.mkdir()
    monkeypatch.setenv("PATH", str(empty_bin))

    outcome = search(make_request(root, "token budget"))

    assert outcome.status is TierStatus.UNAVAILABLE
    assert outcome.reason == NOT_INSTALLED
    assert not CkTier().probe(make_request(root, "token budget")).usable


def test_a_scope_without_ck_paths_is_unavailable(ck_on_path, root, argv_log):
    outcome = search(make_request(root, "token budget", ck_paths=()))

    assert outcome.status is TierStatus.UNAVAILABLE
    assert not argv_log.exists()


def test_a_scope_whose_ck_paths_do_not_exist_is_unavailable(ck_on_path, root, argv_log):
    outcome = search(make_request(root, "token budget", ck_paths=(root / "missing",)))

    assert outcome.status is TierStatus.UNAVAILABLE
    assert "missing" in outcome.reason
    assert not argv_log.exists()


@pytest.mark.parametrize("flag", ["--semantic", "--path", "--top-k"])
def test_the_fake_rejects_flags_ck_does_not_have(flag, root):
    ran = subprocess.run(
        [sys.executable, str(FAKE_CK), flag, "x", "token budget", "."],
        cwd=root,
        capture_output=True,
        text=True,
    )

    assert ran.returncode == 2
    assert ran.stdout == ""
    assert f"unexpected argument '{flag}'" in ran.stderr
    assert "Usage: ck [OPTIONS] [PATTERN] [FILES]..." in ran.stderr


def test_the_fake_hybrid_mode_finds_neighbours_unless_a_threshold_filters(root):
    def fake(*args: str) -> subprocess.CompletedProcess:
        argv = [sys.executable, str(FAKE_CK), "--hybrid", "--jsonl", *args]
        return subprocess.run(argv, cwd=root, capture_output=True, text=True)

    unfiltered = fake("--", "qqzx vvkj", "grimoires")
    filtered = fake("--threshold", "0.02", "--", "qqzx vvkj", "grimoires")

    assert unfiltered.returncode == 0
    assert all(json.loads(line)["score"] <= 1 / 61 for line in unfiltered.stdout.splitlines())
    assert filtered.returncode == 1
    assert "No matches found" in filtered.stderr
