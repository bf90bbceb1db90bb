"""A hit's text as styled terminal text, with the query's terms highlighted: a markdown
document's rendered, anything else (code, other documents) as written.

Hits are short windows of a file (often cut mid-block), so markdown is rendered line by
line — headings, lists, quotes, fenced code, inline code, emphasis and links — rather than
parsing a whole document, and never fails on half a table or an unclosed fence. A
paragraph or list item wrapped in the file is one line here, which the preview wraps to
its own width.
"""

from __future__ import annotations

import re

from textual.content import Content

from tierscope.models import left_out_lines
from tierscope.ranking.spans import document_kind, front_matter_end

HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
BULLET = re.compile(r"^(\s*)[-*+]\s+(.*)$")
# The first line of a list item, a footnote (`[^1]: `) or a definition (`:   `): it starts
# a block of its own, and the lines below may carry it on.
ITEM_START = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)]|\[\^[^\]]+\]:|:)\s")
QUOTE = re.compile(r"^>\s?(.*)$")
RULE = re.compile(r"^\s*([-*_])(\s*\1){2,}\s*$")
FENCE = re.compile(r"^\s*(```|~~~)")
# A line that starts a block of its own, never the rest of a wrapped line above: a heading,
# a list item, a quote, a table row, HTML, a setext underline or a rule, an admonition or
# directive, a fence, a link or footnote definition (`[docs]: https://...`), a definition
# list's definition (`:   The meaning`).
BLOCK_START = re.compile(
    r"^\s*(?:#{1,6}(?:\s|$)|[-*+]\s|\d{1,9}[.)]\s|[>|<]|=+\s*$|-+\s*$|!!!|:::|```|~~~"
    r"|\[[^\]]+\]:|:\s)"
)
# A link definition (`[docs]: https://...`) is a line of its own.
LINK_DEFINITION = re.compile(r"^\s*\[[^^\]][^\]]*\]:")
# A hard line break at a line's end: two spaces, a backslash or an HTML `<br>`.
HARD_BREAK = re.compile(r"(?:  |\\|<br\s*/?>)$", re.IGNORECASE)
CODE_INDENT = 4
INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    r"|\*\*(?P<bold>[^*]+)\*\*"
    r"|\[(?P<link>[^\]]+)\]\([^)]*\)"
    r"|(?<![\w*])[*_](?P<italic>[^*_\s][^*_]*?)[*_](?![\w*])"
)
TERM_STYLE = "bold $foreground on $accent 45%"
MIN_TERM_LENGTH = 2


def render_hit(text: str, source: str) -> Content:
    """A hit's content as its file is written: markdown rendered; code and other text as
    they are (a doc comment's ` * ` is no bullet, a `# comment` no heading), the lines
    standing for lines left out between passages dimmed."""
    if document_kind(source) == "markdown":
        return render_markdown(text)
    return Content("\n").join(
        Content.styled(line, "$foreground-muted") if left_out_lines(line) else Content(line)
        for line in text.splitlines()
    )


def render_markdown(text: str) -> Content:
    """Styled content for a markdown snippet; unknown constructs stay as plain text."""
    written = text.splitlines()
    # A page's front matter (YAML or TOML between `---` or `+++` lines) is shown as written.
    front = front_matter_end(written)
    lines = [Content.styled(line, "$text-secondary") for line in written[:front]]
    in_code = False
    for line in unwrapped(written[front:]):
        if FENCE.match(line):
            in_code = not in_code
            lines.append(Content.styled(line.strip(), "$foreground-muted"))
        elif in_code:
            lines.append(Content.styled(line, "$text-secondary"))
        else:
            lines.append(_render_line(line))
    return Content("\n").join(lines)


def unwrapped(lines: list[str]) -> list[str]:
    """The lines with each paragraph or list item wrapped over several lines joined into
    one (a soft line break reads as a space), and so each quoted paragraph: wrapped again
    to a narrower preview, every line of the file had left a word or two alone on a line
    of its own. Fenced code, the markers of lines left out, and the lines of tables and
    HTML stay as written."""
    joined: list[str] = []
    open_line = False  # whether the last line may carry on into the next
    in_code = False
    for line in lines:
        if FENCE.match(line):
            in_code = not in_code
        if not in_code and open_line and _carries_on(line):
            joined[-1] = f"{joined[-1]} {line.lstrip()}"
        elif not in_code and joined and (rest := _quote_carried_on(joined[-1], line)):
            joined[-1] = f"{joined[-1]} {rest}"
        else:
            joined.append(line)
        open_line = not in_code and _takes_more(joined[-1])
    return joined


def _takes_more(line: str) -> bool:
    """Whether a (joined) line is a paragraph's or list item's, not yet ended by a hard
    break: the next line may carry it on. A line holding `|` may be a table's row, with
    or without pipes at its ends: it is left as written."""
    if not line.strip() or left_out_lines(line) or HARD_BREAK.search(line) or "|" in line:
        return False
    if LINK_DEFINITION.match(line):
        return False
    if ITEM_START.match(line):
        return True
    indent = len(line) - len(line.lstrip(" "))
    return indent < CODE_INDENT and not BLOCK_START.match(line)


def _quote_carried_on(above: str, line: str) -> str | None:
    """The text of a quote's line (`> ` before it) that carries on the quote's line above,
    else None."""
    first, then = QUOTE.match(above), QUOTE.match(line)
    if first is None or then is None:
        return None
    if _takes_more(first.group(1)) and _carries_on(then.group(1)):
        return then.group(1).lstrip()
    return None


def _carries_on(line: str) -> bool:
    return (
        bool(line.strip())
        and not left_out_lines(line)
        and "|" not in line
        and not BLOCK_START.match(line)
    )


def _render_line(line: str) -> Content:
    if match := HEADING.match(line):
        level = len(match.group(1))
        style = "$accent bold underline" if level == 1 else "$accent bold"
        return _inline(match.group(2), style)
    if RULE.match(line):
        return Content.styled("─" * 24, "$foreground-muted")
    if match := BULLET.match(line):
        return Content.assemble(match.group(1), ("• ", "$accent"), _inline(match.group(2)))
    if match := QUOTE.match(line):
        return Content.assemble(("▌ ", "$foreground-muted"), _inline(match.group(1), "italic"))
    return _inline(line)


def _inline(text: str, base: str = "") -> Content:
    parts: list[str | tuple[str, str]] = []
    position = 0
    for match in INLINE.finditer(text):
        if match.start() > position:
            parts.append((text[position : match.start()], base))
        if match.group("code") is not None:
            parts.append((match.group("code"), f"{base} $text-secondary on $boost".strip()))
        elif match.group("bold") is not None:
            parts.append((match.group("bold"), f"{base} bold".strip()))
        elif match.group("link") is not None:
            parts.append((match.group("link"), f"{base} underline".strip()))
        else:
            parts.append((match.group("italic"), f"{base} italic".strip()))
        position = match.end()
    if position < len(text):
        parts.append((text[position:], base))
    return Content.assemble(*parts)


def query_terms(query: str) -> tuple[str, ...]:
    """The words of a query worth highlighting (longest first, so overlaps prefer them)."""
    words = {word.strip("\"'`.,;:!?()[]{}") for word in query.split()}
    kept = {word for word in words if len(word) >= MIN_TERM_LENGTH}
    return tuple(sorted(kept, key=lambda word: (-len(word), word.lower())))


def highlight_terms(content: Content, terms: tuple[str, ...]) -> Content:
    """`content` with every case-insensitive occurrence of a term highlighted."""
    if not terms:
        return content
    pattern = re.compile("|".join(re.escape(term) for term in terms), re.IGNORECASE)
    return content.highlight_regex(pattern, style=TERM_STYLE)
