"""`tierscope query`: the headless contract (DESIGN §3), a drop-in for
qmd-context-query.sh. Exit 0 for every query outcome; 2 only for usage errors."""

from __future__ import annotations

import argparse
import os
import sys

FORMATS = ("json", "text")
# Options that take a value, by their long name. The value is taken whatever it starts
# with (`--query -rf`, `-q "- [ ] fix login"`), as the seed script takes "$2": argparse
# would refuse a value that looks like an option, so `join_option_values` hands these over
# as `--long-name=value`, the one form every argparse reads the same way.
VALUE_OPTIONS = {
    "-q": "--query", "--query": "--query", "-s": "--scope", "--scope": "--scope",
    "-b": "--budget", "--budget": "--budget", "-f": "--format", "--format": "--format",
    "-t": "--timeout", "--timeout": "--timeout", "--skill": "--skill", "--tiers": "--tiers",
    "--config": "--config", "--root": "--root", "--theme": "--theme",
    "--session": "--session",
}  # fmt: skip

HELP_TOP = """\
Answer one query through the retrieval tiers (qmd -> ck -> grep, falling through) and cut
the answer to a token budget. A drop-in for qmd-context-query.sh: a skill may replace that
script with `exec tierscope query "$@"`.

USAGE:
    tierscope query --query "search text" --scope <scope> [OPTIONS]
    tierscope query "search text" [OPTIONS]

SCOPES:
    grimoires   the grimoire: grimoires/loa/ (NOTES, sprint plans, PRD, SDD)
    skills      skill definitions: .claude/skills/
    notes       grimoires/loa/NOTES.md alone
    reality     grimoires/loa/reality/
    all         every scope above (the default); in a project without that layout,
                the project's own files
    ...and any scope the config file defines under qmd_context.scopes
                (`tierscope init` writes docs, code and all for a project)
"""

HELP_BOTTOM = """\
OUTPUT:
    stdout: a JSON array of {"source", "score", "content", "tier"}, best first; with
    --format text, a "--- <source> (score: <s>, tier: <t>) ---" header before each hit.
    Every query outcome exits 0 (no query, an unknown scope, a budget of 0 or that is not
    a positive integer, everything disabled: []); 2 only for a command-line error.

EXAMPLES:
    tierscope query --query "authentication flow" --scope grimoires
    tierscope query -q "open blockers" -s notes -b 1000
    tierscope query "adapter pattern" --scope all --format text
    tierscope query "token budget" --skill implement --explain
    tierscope query "retry policy" --session impl-42 --json

SESSIONS:
    With --session ID (or $TIERSCOPE_SESSION), a section this session has already received
    comes back as a short reference ("already provided in this session: path:12-40"), and
    crossing the token_budgets thresholds is said on stderr, one line each. See
    `tierscope session --help`.
"""


def join_option_values(argv: list[str]) -> list[str]:
    """argv with each value option joined to the value after it (`-q`, `-rf` ->
    `--query=-rf`), up to a `--` that ends the options."""
    joined: list[str] = []
    index = 0
    while index < len(argv):
        token = argv[index]
        if token == "--":
            joined.extend(argv[index:])
            break
        if token in VALUE_OPTIONS and index + 1 < len(argv):
            joined.append(f"{VALUE_OPTIONS[token]}={argv[index + 1]}")
            index += 2
            continue
        joined.append(token)
        index += 1
    return joined


def _scopes_hint(typed: str, scopes: list[str]) -> str:
    """`did you mean docs? scopes here: docs, code, all` for a scope that is not one."""
    import difflib

    close = difflib.get_close_matches(typed, scopes, n=1)
    guess = f"did you mean {close[0]}? " if close else ""
    return f"{guess}scopes here: {', '.join(scopes)}"


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    from .help_format import RawDescriptionHelpFormatter

    parser = subparsers.add_parser(
        "query",
        help="answer one query through the tiers, cut to a token budget",
        description=HELP_TOP,
        epilog=HELP_BOTTOM,
        formatter_class=RawDescriptionHelpFormatter,
    )
    parser._positionals.title = "ARGUMENTS"
    parser._optionals.title = "OPTIONS"
    parser.add_argument("text", nargs="?", metavar="TEXT", help="the query (as --query)")
    parser.add_argument("-q", "--query", dest="query_flag", metavar="TEXT", help="the query")
    parser.add_argument(
        "-s", "--scope", metavar="SCOPE", help="grimoires, skills, notes, reality, all, ..."
    )
    parser.add_argument("-b", "--budget", metavar="N", help="token budget (positive integer)")
    parser.add_argument("-f", "--format", metavar="FORMAT", help="json (default) or text")
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.add_argument("-t", "--timeout", metavar="SECONDS", help="per-tier timeout")
    parser.add_argument(
        "--skill", metavar="NAME", help="calling skill: selects its overrides, names the log"
    )
    parser.add_argument(
        "--session",
        metavar="ID",
        help="the calling session (default: $TIERSCOPE_SESSION): no section sent twice",
    )
    parser.add_argument("--tiers", metavar="LIST", help="comma-separated tiers, in order")
    parser.add_argument("--all-tiers", action="store_true", help="run every tier (compare)")
    parser.add_argument("--explain", action="store_true", help="print results and the trace")
    parser.add_argument("--refresh", action="store_true", help="run `qmd update` first")
    parser.add_argument("--no-trajectory", action="store_true", help="do not log this query")
    # Also accepted after the subcommand, as the seed script's callers pass them.
    parser.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    parser.add_argument("--root", default=argparse.SUPPRESS, help="project root")
    parser.set_defaults(handler=run)


def _restore_double_dashes(args: argparse.Namespace) -> None:
    """A value option given `--` (`-q --`, joined as `--query=--`) is parsed by argparse as
    no value, an empty list (it drops every `--` among an option's values): its value is
    `--`."""
    for name, value in vars(args).items():
        if isinstance(value, list) and not value:
            setattr(args, name, "--")


def _warn(message: str) -> None:
    _stderr(f"tierscope: {message}")


def _stderr(line: str) -> None:
    from tierscope.terminal import printable

    # Scope names, skill names and config values are echoed: never raw to a terminal.
    print(printable(line), file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from tierscope.api import SKILL_NAME, Project, QueryOptions
    from tierscope.models import RefusalReason
    from tierscope.render import render_explain, render_json, render_text

    # Where the seed script is silent on stderr, so is this command (its callers merge
    # stderr into stdout): an unknown format is json; the budget and timeout are passed
    # as typed, and the api reads them (a budget that is not a whole number is refused,
    # answering [], a timeout that is not a positive number is the configured one).
    _restore_double_dashes(args)
    text = args.query_flag if args.query_flag is not None else (args.text or "")
    fmt = "json" if args.json else (args.format or "json").lower()
    if fmt not in FORMATS:
        fmt = "json"

    skill = args.skill or None
    if skill is not None and not SKILL_NAME.match(skill):
        _stderr(f"WARNING: Invalid --skill value '{skill}', ignoring")
        skill = None

    session = args.session
    origin = "--session"
    if session is None:
        from tierscope.session.names import SESSION_ENV

        session, origin = os.environ.get(SESSION_ENV), f"${SESSION_ENV}"
    session = session or None
    if session is not None:
        from tierscope.session.names import is_session_id

        if not is_session_id(session):
            _stderr(f"WARNING: Invalid {origin} value '{session}', ignoring")
            session = None

    tiers = None
    if args.tiers:
        tiers = tuple(t.strip().lower() for t in args.tiers.split(",") if t.strip())

    project = Project(args.root, args.config)
    for problem in project.config.problems:
        if problem.severity == "error":
            _warn(f"config {problem}")
    result = project.run(
        QueryOptions(
            text=text,
            scope=args.scope,
            budget=args.budget,
            timeout=args.timeout,
            skill=skill,
            tiers=tiers,
            all_tiers=args.all_tiers,
            refresh=args.refresh,
            session=session,
        ),
        trajectory=not args.no_trajectory,
    )
    for warning in result.warnings:
        _warn(warning)
    # The one refusal the seed script reports; the others (no query, disabled by the
    # config or for the skill) answer [] in silence, as it does. --explain says why.
    if result.refused and result.refused.reason is RefusalReason.UNKNOWN_SCOPE:
        _stderr(result.refused.message)
        if sys.stderr.isatty():  # a person typing: the seed's one line, then some help
            from tierscope.scopes import offered_scopes

            _warn(_scopes_hint(args.scope, list(offered_scopes(project.config, project.root))))
    if result.session is not None:
        for note in result.session.notes:
            _warn(note)

    if args.explain:
        source = str(project.config.source.path or "built-in defaults")
        print(render_explain(result, project.root, source))
    elif fmt == "text":
        body = render_text(result.hits)
        if body:
            if sys.stdout.isatty():
                from tierscope.terminal import printable

                # Project files are untrusted; a pipe gets them verbatim, a terminal never.
                body = printable(body, keep_newlines=True)
            print(body)
    else:
        print(render_json(result.hits))
    return 0
