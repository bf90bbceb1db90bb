"""tierscope as a skill runs it: installed (not the checkout's editable install, whose
import hook costs every start ~15 ms) into a venv of its own, its dependencies taken from
the environment running the bench. Built once per state of the source files."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import sysconfig
import tomllib
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / "bench" / "installed"
SOURCES = ("core", "tui", "themes")
# The console script pip writes for pyproject's [project.scripts] entry, without its argv[0]
# rewriting (for Windows names).
ENTRY_POINT = "#!{python}\nimport sys\nfrom {module} import {function}\nsys.exit({function}())\n"


def entry_point() -> tuple[str, str]:
    """The module and function the `tierscope` command runs, as pyproject declares them."""
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    module, function = scripts["tierscope"].split(":")
    return module, function


def source_digest() -> str:
    digest = hashlib.sha256((REPO / "pyproject.toml").read_bytes())
    for folder in SOURCES:
        for path in sorted((REPO / folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                digest.update(str(path.relative_to(REPO)).encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def installed_tierscope() -> Path:
    """The `tierscope` command of an installed copy of this checkout (built if needed)."""
    home = CACHE / source_digest()
    command = home / "bin" / "tierscope"
    if command.is_file():
        return command
    for older in CACHE.glob("*") if CACHE.is_dir() else ():
        shutil.rmtree(older, ignore_errors=True)
    venv.EnvBuilder(with_pip=False, clear=True).create(home)
    python = home / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True, text=True, check=True,
        ).stdout.strip()
    )  # fmt: skip
    (site / "bench-dependencies.pth").write_text(sysconfig.get_path("purelib") + "\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
         str(REPO)],
        check=True, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    module, function = entry_point()
    command.write_text(ENTRY_POINT.format(python=python, module=module, function=function))
    command.chmod(0o755)
    return command
