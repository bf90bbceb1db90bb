"""replace_file: the one way tierscope writes a file whole."""

from __future__ import annotations

import errno
import os

import pytest

from tierscope import file_replace
from tierscope.file_replace import create_file, replace_file


def leftovers(directory) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.endswith(".tmp"))


def test_the_file_is_replaced_and_keeps_its_mode(tmp_path):
    target = tmp_path / "settings.json"
    target.write_text("old")
    target.chmod(0o640)

    replace_file(target, b"new")

    assert target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o640
    assert leftovers(tmp_path) == []


def test_a_new_file_gets_the_mode_asked_for_minus_the_umask(tmp_path):
    umask = os.umask(0o022)
    try:
        replace_file(tmp_path / "shared", b"x")
        replace_file(tmp_path / "private", b"x", new_file_mode=0o600)
    finally:
        os.umask(umask)

    assert (tmp_path / "shared").stat().st_mode & 0o777 == 0o644
    assert (tmp_path / "private").stat().st_mode & 0o777 == 0o600


def test_a_read_only_file_is_refused_only_when_asked(tmp_path):
    target = tmp_path / "config.yaml"
    target.write_text("kept")
    target.chmod(0o444)

    with pytest.raises(PermissionError, match="read-only"):
        replace_file(target, b"lost", refuse_read_only=True)
    assert target.read_text() == "kept"

    replace_file(target, b"cache")
    assert target.read_bytes() == b"cache"


def test_a_symlink_is_replaced_never_written_through(tmp_path):
    elsewhere = tmp_path / "elsewhere.txt"
    elsewhere.write_text("untouched")
    link = tmp_path / "link"
    link.symlink_to(elsewhere)

    replace_file(link, b"new")

    assert elsewhere.read_text() == "untouched"
    assert not link.is_symlink() and link.read_bytes() == b"new"


def test_a_failed_replace_leaves_the_old_file_and_no_temporary(tmp_path, monkeypatch):
    target = tmp_path / "state"
    target.write_text("old")

    def broken_replace(source, destination):
        raise OSError("disk full")

    monkeypatch.setattr(file_replace.os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        replace_file(target, b"new")

    assert target.read_text() == "old"
    assert leftovers(tmp_path) == []


@pytest.mark.parametrize("present", ["file", "symlink"])
def test_without_hard_links_a_new_file_never_replaces_what_is_there(tmp_path, monkeypatch, present):
    def no_hard_links(*_args, **_kwargs):
        raise OSError(errno.EPERM, "hard links not supported")

    monkeypatch.setattr(os, "link", no_hard_links)
    target = tmp_path / "config.yaml"
    decoy = tmp_path / "decoy.yaml"
    decoy.write_text("theirs\n")
    if present == "file":
        target.write_text("theirs\n")
    else:
        target.symlink_to(decoy)

    with pytest.raises(FileExistsError):
        create_file(target, b"ours\n")

    assert target.read_text() == "theirs\n" and decoy.read_text() == "theirs\n"
    assert target.is_symlink() == (present == "symlink")
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")] == []


def test_without_hard_links_a_new_file_is_still_written(tmp_path, monkeypatch):
    def no_hard_links(*_args, **_kwargs):
        raise OSError(errno.EPERM, "hard links not supported")

    monkeypatch.setattr(os, "link", no_hard_links)
    create_file(tmp_path / "config.yaml", b"ours\n")

    assert (tmp_path / "config.yaml").read_text() == "ours\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["config.yaml"]
