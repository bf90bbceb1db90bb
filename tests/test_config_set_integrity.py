"""`config set` never loses an update it acknowledged, never replaces a read-only file,
and edits a file that starts with a UTF-8 byte order mark like any other."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from tierscope.cli import main
from tierscope.config.document import ConfigDocument
from tierscope.config.edit_errors import ConfigEditError

CONFIG = "# shared settings\nqmd_context:\n  default_budget: 1200\n"
DROP_PRIVILEGES = ("setpriv", "--inh-caps=-all", "--bounding-set=-all")

# `tierscope` with the time between reading the file and saving it stretched, as on a
# loaded machine, so parallel edits overlap every time instead of now and then.
SLOW_TIERSCOPE = textwrap.dedent(
    """
    import sys, time
    import tierscope.config.validate as validate_module
    real_validate = validate_module.validate

    def slow_validate(*args, **kwargs):
        time.sleep(0.15)
        return real_validate(*args, **kwargs)

    validate_module.validate = slow_validate
    from tierscope.cli import main
    sys.exit(main(sys.argv[1:]))
    """
)


@pytest.fixture
def project(make_project) -> Path:
    return make_project({".loa.config.yaml": CONFIG, "docs/a.md": "# A\n"})


def config_file(root: Path) -> Path:
    return root / ".loa.config.yaml"


def config_set(root: Path, key: str, value: str, *, prefix: tuple[str, ...] = ()):
    return subprocess.Popen(
        [*prefix, sys.executable, "-c", SLOW_TIERSCOPE, "--root", str(root), "config", "set",
         key, value],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )  # fmt: skip


@pytest.mark.parametrize("round_number", range(2))
def test_parallel_sets_of_different_keys_all_succeed_and_none_is_lost(project, round_number):
    editors = {
        f"skill_overrides.skill-{n}.budget": config_set(
            project, f"skill_overrides.skill-{n}.budget", str(100 + n)
        )
        for n in range(8)
    }
    for key, editor in editors.items():
        _out, err = editor.communicate(timeout=120)
        assert editor.returncode == 0, f"{key}: {err}"
    overrides = yaml.safe_load(config_file(project).read_text())["qmd_context"]["skill_overrides"]
    assert {name: body["budget"] for name, body in overrides.items()} == {
        f"skill-{n}": 100 + n for n in range(8)
    }


def test_a_workbench_save_racing_a_config_set_is_refused_not_lost(project):
    document = ConfigDocument.load(config_file(project))
    document.set("timeout_seconds", 3)
    editor = config_set(project, "default_budget", "1500")
    assert editor.wait(timeout=60) == 0
    from tierscope.config.edit_errors import ConfigConflict

    with pytest.raises(ConfigConflict):
        document.save()
    assert "default_budget: 1500" in config_file(project).read_text()


def test_set_refuses_a_read_only_file_and_leaves_it_untouched(capsys, project):
    path = config_file(project)
    path.chmod(0o444)
    before = path.stat()
    code = main(["--root", str(project), "config", "set", "default_budget", "1500"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert "read-only" in captured.err and captured.err.count("\n") == 1
    after = path.stat()
    assert path.read_text() == CONFIG
    assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)


def test_set_without_the_right_to_write_the_file_leaves_it_untouched(project):
    path = config_file(project)
    path.chmod(0o444)
    before = path.stat().st_ino
    # As root without capabilities: the folder stays writable, the file is not.
    editor = config_set(project, "default_budget", "1500", prefix=DROP_PRIVILEGES)
    _out, err = editor.communicate(timeout=60)
    assert editor.returncode == 1, err
    assert path.read_text() == CONFIG and path.stat().st_ino == before


def test_set_edits_a_file_that_starts_with_a_byte_order_mark(capsys, project):
    path = config_file(project)
    path.write_bytes(b"\xef\xbb\xbf" + CONFIG.encode())
    code = main(["--root", str(project), "config", "set", "default_budget", "97"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert path.read_bytes() == b"\xef\xbb\xbf" + CONFIG.replace("1200", "97").encode()
    assert "-  default_budget: 1200\n+  default_budget: 97\n" in captured.out


def test_a_document_with_a_byte_order_mark_reads_its_values(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_bytes(b"\xef\xbb\xbfqmd_context:\n  default_budget: 97\n")
    document = ConfigDocument.load(path)
    assert document.get("default_budget") == 97
    assert not document.text.startswith("\ufeff")


def test_set_refuses_a_config_that_is_not_a_regular_file(project):
    fifo = project / "settings.yaml"
    os.mkfifo(fifo)
    result = subprocess.run(
        [sys.executable, "-m", "tierscope", "--root", str(project), "--config", str(fifo),
         "config", "set", "default_budget", "97"],
        capture_output=True,
        text=True,
        timeout=30,
    )  # fmt: skip
    assert result.returncode == 1 and "not a regular file" in result.stderr


def test_set_never_writes_through_a_link_out_of_the_configs_folder(capsys, make_project, tmp_path):
    # A project's `.tierscope.yaml` may be a link planted to a file elsewhere (a dotfile,
    # another project's config): editing the project's settings must not rewrite it.
    outside = tmp_path / "elsewhere" / "shared.yaml"
    outside.parent.mkdir()
    outside.write_text(CONFIG)
    root = make_project({"docs/a.md": "# A\n"})
    (root / ".tierscope.yaml").symlink_to(outside)
    code = main(["--root", str(root), "config", "set", "default_budget", "1500"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == ""
    assert "link" in captured.err and captured.err.count("\n") == 1
    assert outside.read_text() == CONFIG
    assert (root / ".tierscope.yaml").is_symlink()
    assert sorted(p.name for p in outside.parent.iterdir()) == ["shared.yaml"]


def test_set_edits_the_file_a_link_names_inside_the_configs_folder(capsys, make_project):
    root = make_project({"config/tierscope.yaml": CONFIG, "docs/a.md": "# A\n"})
    (root / ".tierscope.yaml").symlink_to("config/tierscope.yaml")
    code = main(["--root", str(root), "config", "set", "default_budget", "1500"])
    assert code == 0, capsys.readouterr().err
    assert "default_budget: 1500" in (root / "config" / "tierscope.yaml").read_text()
    assert (root / ".tierscope.yaml").is_symlink()


def test_a_workbench_save_never_writes_through_a_link_out_of_the_folder(tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text(CONFIG)
    project = tmp_path / "project"
    project.mkdir()
    (project / ".tierscope.yaml").symlink_to(outside)
    document = ConfigDocument.load(project / ".tierscope.yaml")
    document.set("default_budget", 1500)
    with pytest.raises(ConfigEditError, match="link"):
        document.save()
    assert outside.read_text() == CONFIG
