"""TIERSCOPE_DEBUG=1 prints the tracebacks of failures tierscope absorbs; without it, they
stay one line of the outcome (or nothing)."""

from __future__ import annotations

import json

import pytest

from tierscope.cli import main
from tierscope.debugging import DEBUG_VARIABLE, report_exception
from tierscope.tiers.grep import GrepTier


@pytest.fixture
def project(make_project, path_without_tools):
    return make_project({"grimoires/loa/NOTES.md": "# Notes\n\nThe token budget.\n"})


@pytest.fixture
def broken_grep(monkeypatch):
    def search(self, request, deadline):
        raise RuntimeError("the grep tier broke")

    monkeypatch.setattr(GrepTier, "search", search)


def query(capsys, root) -> tuple[list, str]:
    code = main(
        ["query", "token budget", "--tiers", "grep", "--root", str(root), "--no-trajectory"]
    )
    captured = capsys.readouterr()
    assert code == 0
    return json.loads(captured.out), captured.err


def test_a_tier_that_raises_prints_its_traceback_with_tierscope_debug(
    capsys, monkeypatch, project, broken_grep
):
    monkeypatch.setenv(DEBUG_VARIABLE, "1")

    hits, stderr = query(capsys, project)

    assert hits == []
    assert "tierscope debug: tier grep raised" in stderr
    assert "Traceback (most recent call last)" in stderr
    assert "RuntimeError: the grep tier broke" in stderr


def test_without_tierscope_debug_a_tier_that_raises_prints_no_traceback(
    capsys, monkeypatch, project, broken_grep
):
    monkeypatch.delenv(DEBUG_VARIABLE, raising=False)

    hits, stderr = query(capsys, project)

    assert hits == []
    assert "Traceback" not in stderr
    assert "tierscope debug" not in stderr


@pytest.mark.parametrize("value", ["", "0", "yes"])
def test_only_the_value_1_turns_reporting_on(capsys, monkeypatch, value):
    monkeypatch.setenv(DEBUG_VARIABLE, value)
    try:
        raise ValueError("absorbed")
    except ValueError:
        report_exception("a test")
    assert capsys.readouterr().err == ""


def test_the_report_also_goes_to_the_given_log(capsys, monkeypatch):
    monkeypatch.setenv(DEBUG_VARIABLE, "1")
    logged = []
    try:
        raise ValueError("absorbed")
    except ValueError:
        report_exception("a test", also=logged.append)

    stderr = capsys.readouterr().err
    assert stderr.startswith("tierscope debug: a test\nTraceback (most recent call last)")
    assert stderr.rstrip().endswith("ValueError: absorbed")
    assert logged == [stderr]
