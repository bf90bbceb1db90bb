"""The base of the parts a screen is assembled from (ConfigSaving, TrajectoryFiltering...).

To a type checker a part is the Screen it is mixed into, so its methods may use the
screen's own (query_one, notify, post_message, app...); at run time it is a plain class,
and only the screen itself is a Textual Screen. What a part needs from the rest of its
screen it declares in its class body as annotations: the attributes the screen sets, and
the methods of the screen or of its other parts that it calls (as Callable attributes).
The type checker holds the screen to those declarations.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from textual.screen import Screen

    ScreenPart = Screen[Any]
else:
    ScreenPart = object
