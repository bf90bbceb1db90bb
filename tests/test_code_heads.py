"""The head of a long Python class or function served for a question its docstring
answers: the definition with its whole docstring, not the docstring's first paragraph
nor a window run on into the code below it."""

from __future__ import annotations

from snippet_cuts import snippet

_FILLER = "".join(f"        self.slot_{n} = compute_slot({n}, width, height)\n" for n in range(30))

# A class too long to serve whole, whose docstring (in paragraphs, blank lines between)
# says what it is for; further down, a long method whose body names the same words once
# each in a denser window than the class's docstring run on into its filler.
STYLES_CACHE = f'''\
import rich


class StylesCache:
    """Responsible for rendering styles.

    It keeps a cache of rendered lines, with the border and the padding
    applied to the widget's content.

    The diagram below shows content with padding and border:

        +-----------+
        |  content  |
        +-----------+
    """

    def __init__(self, width, height):
{_FILLER}
    def render_widget(self, widget, crop):
        lines = widget.render_lines(crop)
        padding = widget.styles.padding
        border = widget.styles.border
        cached = self.cache.get(crop)
        cached_lines = self.cache_lines(cached, lines)
        rendered = self.rendered(cached_lines, padding, border)
{_FILLER.replace("slot", "part")}
        return rendered
'''


def test_a_class_docstring_in_paragraphs_is_served_whole_with_its_definition():
    cut = snippet(STYLES_CACHE, "src/styles_cache.py", "cache rendered lines padding border", 1500)
    assert cut.text.startswith("class StylesCache:\n")
    assert "It keeps a cache of rendered lines" in cut.text
    # The docstring whole, not run on into the filler of __init__ below it.
    assert '        +-----------+\n    """' in cut.text
    assert cut.line_start == 4
