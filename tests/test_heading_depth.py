"""A heading's words count for its section less the deeper it lies below the page's top
sections: a topic's own section answers a question naming it, not one of its many
subsections titled with the same words and one more."""

from __future__ import annotations

from snippet_cuts import snippet

# Laravel's eloquent-relationships.md: "## Eager Loading" says what eager loading is and
# when to use it; a dozen "#### Eager Loading ..." subsections below it each show one use.
PAGE = """# Eloquent: Relationships

## Introduction

Database tables are often related to one another.

## Eager Loading

When accessing relationships as properties, the data is lazy loaded. Eager loading
relationships alleviates the N+1 query problem: say which to load up front with `with`.

#### Eager Loading Multiple Relationships

Sometimes you may need to eager load several different relationships in one call.
Just pass an array of relationships to the `with` method, as many as you need to load.

#### Nested Eager Loading

To eager load a relationship's relationships, you may use "dot" syntax. For example,
let's load all of the book's authors and all of the author's personal contacts:

    $books = Book::with('author.contacts')->get();
"""


def test_a_topics_own_section_is_served_before_its_subsections():
    served = snippet(PAGE, "docs/eloquent-relationships.md", "eager loading relationships", 260)
    assert "alleviates the N+1 query problem" in served.text
    assert "Just pass an array" not in served.text
