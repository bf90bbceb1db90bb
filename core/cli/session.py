"""`tierscope session list | show ID | clear ID`: the sessions skills query in, headless.

Exit 0 on success, 1 when the session does not exist or cannot be read or locked, 2 for
usage errors (an id that cannot name a session included).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

SPARK = "▁▂▃▄▅▆▇█"

DESCRIPTION = """\
A session is what one skill session asks with `tierscope query --session ID` (or
$TIERSCOPE_SESSION; an MCP connection is one): a section it has received already is not
sent in full again, and the tokens it is sent are added up against the token_budgets
thresholds (seed 004 §3.4) — over `accumulated`, synthesize and clear; over `session`,
stop and synthesize.
"""


def add_parser(subparsers: argparse._SubParsersAction) -> None:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--config", default=argparse.SUPPRESS, help="config file")
    common.add_argument("--root", default=argparse.SUPPRESS, help="project root")

    parser = subparsers.add_parser(
        "session",
        help="list, show and clear query sessions",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="session_action", metavar="ACTION", required=True)

    listing = actions.add_parser(
        "list", parents=[common], help="sessions: queries, tokens, repeats avoided, thresholds"
    )
    listing.add_argument("--json", action="store_true", help="a JSON array")

    show = actions.add_parser(
        "show", parents=[common], help="one session: each query's tokens, the accumulated curve"
    )
    show.add_argument("session", metavar="ID")
    show.add_argument("--json", action="store_true", help="one JSON object")

    clear = actions.add_parser(
        "clear",
        parents=[common],
        help="record a clearing: the accumulated count restarts (seed 004's clearing phase)",
    )
    clear.add_argument("session", metavar="ID")
    clear.add_argument("--summary", default="", help="what was synthesized (logged)")
    clear.add_argument("--skill", help="the skill clearing (names its trajectory log)")

    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from tierscope.session.names import SESSION_ID_RULE, is_session_id

    session = getattr(args, "session", None)
    if session is not None and not is_session_id(session):
        _say(f"not a session id: {session!r} (must be {SESSION_ID_RULE})")
        return 2
    action = {"list": _list, "show": _show, "clear": _clear}
    return action[args.session_action](args)


def _say(message: str) -> None:
    from tierscope.terminal import printable

    print(f"tierscope session: {printable(message)}", file=sys.stderr)


def _project(args: argparse.Namespace):
    from tierscope.config.loader import load_config
    from tierscope.project import find_root
    from tierscope.trajectory.paths import default_dir

    root = find_root(getattr(args, "root", None))
    config = load_config(root, getattr(args, "config", None))
    return default_dir(root, config), config


def _print_json(value: object) -> None:
    import json

    from tierscope.terminal import json_for_terminal

    print(json_for_terminal(json.dumps(value, indent=2, ensure_ascii=False)))


# -- list ----------------------------------------------------------------------------------


def _list(args: argparse.Namespace) -> int:
    from tierscope.session.ledger import list_sessions
    from tierscope.session.report import listing_row

    log_dir, config = _project(args)
    rows = [listing_row(found, config.token_budgets) for found in list_sessions(log_dir)]
    if args.json:
        _print_json(rows)
        return 0
    if not rows:
        print(f"no sessions in {_printable(str(log_dir))}")
        return 0
    header = ("session", "queries", "tokens", "accumulated", "repeats", "saved", "last", "over")
    table = [
        (
            row["session"],
            f"{row['queries']:,}",
            f"{row['tokens']:,}",
            f"{row['accumulated']:,}",
            f"{row['repeats_avoided']:,}",
            f"{row['tokens_saved']:,}",
            _printable(row["last"]),
            ", ".join(row["over"]) or "-",
        )
        for row in rows
    ]
    _print_table(header, table, right=(1, 2, 3, 4, 5))
    return 0


def _print_table(
    header: tuple[str, ...], rows: Sequence[tuple[str, ...]], right: tuple[int, ...] = ()
) -> None:
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    for row in (header, *rows):
        cells = [
            cell.rjust(width) if index in right else cell.ljust(width)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        print("  ".join(cells).rstrip())


def _printable(text: str) -> str:
    from tierscope.terminal import printable

    return printable(text)


# -- show ----------------------------------------------------------------------------------


def _show(args: argparse.Namespace) -> int:
    from tierscope.session.ledger import SessionUnavailable, read_records
    from tierscope.session.report import session_report

    log_dir, config = _project(args)
    try:
        records, clipped = read_records(log_dir, args.session)
    except SessionUnavailable as exc:
        _say(f"no session {args.session} in {log_dir} ({exc})")
        return 1
    report = session_report(args.session, records, config.token_budgets, clipped)
    if args.json:
        _print_json(report.to_dict())
        return 0
    for line in report_lines(report):
        print(line)
    return 0


def report_lines(report) -> list[str]:
    """`session show` as text: a summary, the crossings, one row per query or clearing,
    and the accumulated curve."""
    from tierscope.models import noun_for

    limits = report.limits
    totals = report.totals
    queries = report.queries
    agents = ", ".join(_printable(agent) for agent in report.agents) or "-"
    count = totals.get("queries", len(queries))
    clearings = report.clearings
    lines = [
        f"session {report.session} · {count:,} {noun_for(count, 'query', 'queries')} · "
        f"{clearings} {noun_for(clearings, 'clearing')} · agents: {agents}",
        f"tokens served {totals.get('total', 0):,} (session threshold {limits.session:,}) · "
        f"accumulated now {totals.get('accumulated', 0):,} "
        f"(threshold {limits.accumulated:,})",
        f"repeats avoided {totals.get('repeats_total', 0):,} · "
        f"tokens saved {totals.get('saved_total', 0):,}",
    ]
    crossings = report.crossings()
    if crossings:
        parts = []
        for name, number, event in crossings:
            value = event.accumulated if name == "accumulated" else event.total
            threshold = limits.accumulated if name == "accumulated" else limits.session
            advice = "synthesize and clear" if name == "accumulated" else "stop and synthesize"
            parts.append(f"{name} at query {number} ({value:,} > {threshold:,}: {advice})")
        lines.append("thresholds crossed: " + " · ".join(parts))
    else:
        lines.append("thresholds crossed: none")
    if report.clipped:
        lines.append("(the session's file is long: only its newest lines are shown)")
    lines.append("")
    header = ("#", "time", "tokens", "accumulated", "session", "repeats", "saved", "query")
    rows = []
    number = 0
    for event in report.events:
        time = _printable(event.ts[11:19] if len(event.ts) >= 19 else event.ts)
        if event.kind == "clearing":
            rows.append(
                ("-", time, "", "0", f"{event.total:,}", "", "",
                 f"clearing: {event.cleared_tokens:,} tokens cleared")
            )  # fmt: skip
            continue
        number += 1
        over = f"  [over {', '.join(event.over)}]" if event.over else ""
        rows.append(
            (
                str(number),
                time,
                f"{event.used:,}",
                f"{event.accumulated:,}",
                f"{event.total:,}",
                f"{event.repeats:,}",
                f"{event.saved:,}",
                _printable(event.query) + over,
            )
        )
    widths = [max(len(cell) for cell in column) for column in zip(header, *rows, strict=True)]
    for row in (header, *rows):
        cells = [
            cell.ljust(width) if index in (1, 7) else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ]
        lines.append("  ".join(cells).rstrip())
    curve = [event.accumulated for event in report.events]
    if curve:
        lines.append("")
        full = _top(curve, limits.accumulated)
        lines.append(f"accumulated {sparkline(curve, limits.accumulated)}  (█ = {full:,})")
    return lines


def _top(values: list[int], limit: int) -> int:
    return max([*values, limit, 1])


def sparkline(values: list[int], limit: int) -> str:
    """One block per value, scaled so the larger of the values and `limit` is a full one."""
    top = _top(values, limit)
    last = len(SPARK) - 1
    return "".join(SPARK[min(last, round(value / top * last))] for value in values)


# -- clear ---------------------------------------------------------------------------------


def _clear(args: argparse.Namespace) -> int:
    from tierscope.session.keeper import clear_session
    from tierscope.session.ledger import SessionUnavailable
    from tierscope.trajectory.paths import agent_name

    log_dir, config = _project(args)
    skill = args.skill
    try:
        clearing = clear_session(
            log_dir,
            args.session,
            agent=agent_name(skill),
            summary=args.summary or "cleared with tierscope session clear",
            wait=config.timeout_seconds,
        )
    except SessionUnavailable as exc:
        _say(str(exc))
        return 1
    if clearing.warning:
        _say(f"trajectory not written: {clearing.warning}")
    print(
        f"session {clearing.session}: cleared {clearing.cleared_tokens:,} accumulated tokens; "
        f"{clearing.total:,} tokens served in the session "
        f"(threshold {config.token_budgets.session:,})"
    )
    return 0
