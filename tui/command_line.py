"""The headless command that prints what the workbench shows: `tierscope query ...`."""

from __future__ import annotations

import shlex
from pathlib import Path

from tierscope.api import QueryOptions


def command_line(options: QueryOptions, root: Path, cwd: Path | None = None) -> str:
    """The `tierscope query` invocation with exactly the options the user gave, so its
    output is the JSON the workbench copies. `--root` only when it is not the cwd."""
    argv = ["tierscope", "query", options.text]
    here = (cwd or Path.cwd()).resolve()
    if root.resolve() != here:
        argv += ["--root", str(root)]
    if options.scope is not None:
        argv += ["--scope", options.scope]
    if options.budget is not None:
        argv += ["--budget", str(options.budget)]
    if options.timeout is not None:
        argv += [
            "--timeout",
            (f"{options.timeout:g}" if not isinstance(options.timeout, str) else options.timeout),
        ]
    if options.skill is not None:
        argv += ["--skill", options.skill]
    if options.tiers is not None:
        argv += ["--tiers", ",".join(options.tiers)]
    if options.all_tiers:
        argv.append("--all-tiers")
    if options.refresh:
        argv.append("--refresh")
    argv.append("--json")
    return shlex.join(argv)
