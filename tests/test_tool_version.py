"""`<tool> --version` is asked once per installed binary and remembered across runs."""

from __future__ import annotations

from tierscope import tool_version as module
from tierscope.deadline import Deadline
from tierscope.tool_version import tool_version


def write_tool(path, version: str):
    path.write_text(f"#!/bin/sh\necho '{version}'\n")
    path.chmod(0o755)
    return str(path)


def test_the_answer_is_remembered_until_the_binary_changes(tmp_path, monkeypatch):
    calls = []
    real_run = module.run_bounded

    def counting(argv, deadline, **kwargs):
        calls.append(argv)
        return real_run(argv, deadline, **kwargs)

    monkeypatch.setattr(module, "run_bounded", counting)
    tool = write_tool(tmp_path / "tool", "tool 1.0.0")
    assert tool_version(tool, Deadline.after(5)) == "tool 1.0.0"
    assert tool_version(tool, Deadline.after(5)) == "tool 1.0.0"
    assert len(calls) == 1
    write_tool(tmp_path / "tool", "tool 2.0.0 (upgraded)")
    assert tool_version(tool, Deadline.after(5)) == "tool 2.0.0 (upgraded)"
    assert len(calls) == 2


def test_anything_but_an_executable_file_has_no_version(tmp_path):
    data = tmp_path / "context.sqlite"
    data.write_bytes(b"SQLite format 3\0")
    assert tool_version(str(data), Deadline.after(5)) is None
    assert tool_version(str(tmp_path / "absent"), Deadline.after(5)) is None
    assert tool_version(None, Deadline.after(5)) is None
