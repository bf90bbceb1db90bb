"""What a person sees on the workbench's screen, for tests of layout: the text of each row
of the screen or of one widget, and whether a widget has room and lies wholly on screen."""

from __future__ import annotations

NARROW = (80, 24)  # the default terminal


def screen_lines(app) -> list[str]:
    """The screen as text, one string per row."""
    return [strip.text for strip in app.screen._compositor.render_strips()]


def widget_lines(app, widget) -> list[str]:
    """The rows of the screen the widget covers, cut to its columns."""
    region = widget.region
    rows = screen_lines(app)[region.y : region.bottom]
    return [row[region.x : region.right] for row in rows]


def on_screen(app, widget) -> bool:
    """The widget has room and lies wholly inside the screen."""
    region = widget.region
    width, height = app.size
    return (
        region.width > 0
        and region.height > 0
        and region.x >= 0
        and region.y >= 0
        and region.right <= width
        and region.bottom <= height
    )


async def settled_text(pilot, widget=None) -> str:
    """What the screen (or `widget`'s part of it) shows once two looks a moment apart
    agree: a widget that refills itself for its new width is drawn on a later refresh."""
    previous = None
    for _ in range(50):
        await pilot.pause(0.05)
        rows = widget_lines(pilot.app, widget) if widget is not None else screen_lines(pilot.app)
        text = "\n".join(rows)
        if text == previous:
            return text
        previous = text
    return previous or ""
