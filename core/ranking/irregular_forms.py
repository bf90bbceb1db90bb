"""Irregular forms of a word count as the word, in the query and in the text alike:
`draw` finds "drawn", `write` finds "written", `child` finds "children", `convert` finds
"conversion", and the other way round.

Snowball stems regular inflections together (`draws`, `drawing`) but leaves the irregular
ones apart, and documentation writes exactly those: "is drawn", "can be overridden", "its
children". A word part is read as its base word before it is stemmed (`base_word`), so all
its forms share a term key; a query term's search pattern holds every form (`forms`), so
ripgrep finds each in the files.

Only the words listed here count, and the nouns of verbs in -ify. A form with another
common reading is left out (`left` is also a side, `found` a verb of its own, `bound` a
limit; `given`, `known`, `hidden` and `frozen` are also adjectives, and a style's values;
`built` starts "built-in"), and so is a form that starts many other words (`ran` starts
`range`, `met` starts `method`), which would make every search read more lines.
"""

from __future__ import annotations

import re
from functools import cache

# A verb, then its irregular past and participle forms (those Snowball stems apart).
_VERBS = """
begin began begun
break broke broken
bring brought
catch caught
choose chose chosen
draw drew drawn
fall fell fallen
forget forgot forgotten
grow grew grown
hang hung
hold held
keep kept
lead led
lose lost
make made
overwrite overwrote overwritten
override overrode overridden
prove proven
rewrite rewrote rewritten
seek sought
send sent
show shown
shrink shrank shrunk
sleep slept
speak spoke spoken
spend spent
spin spun
stand stood
steal stole stolen
stick stuck
swing swung
take took taken
teach taught
tell told
throw threw thrown
understand understood
undo undid undone
wake woke woken
write wrote written
"""
# A noun, then its irregular plural.
_NOUNS = """
analysis analyses
appendix appendices
axis axes
child children
criterion criteria
ellipsis ellipses
half halves
hypothesis hypotheses
index indices
matrix matrices
mouse mice
parenthesis parentheses
person people
radius radii
vertex vertices
"""
# A verb, then the noun of its action, which Snowball stems apart (`conversion` is
# `convers`, `converting` is `convert`); its plural too. A noun with a reading of its own
# is left out: a file's `extension`, a `description`, an `application`, `production`, a
# `solution`, a screen's `resolution`, a `permission`.
_ACTIONS = """
acquire acquisition
assume assumption
collide collision
compose composition
conclude conclusion
consume consumption
convert conversion
decide decision
decompose decomposition
deduce deduction
define definition
destroy destruction
emit emission
evolve evolution
exclude exclusion
expand expansion
explode explosion
include inclusion
invert inversion
omit omission
reduce reduction
repeat repetition
submit submission
subscribe subscription
transmit transmission
"""


@cache
def _families() -> dict[str, tuple[str, ...]]:
    """Every form listed -> all the forms of its word, the base word first."""
    table: dict[str, tuple[str, ...]] = {}
    actions = [f"{line} {line.split()[-1]}s" for line in _ACTIONS.split("\n") if line]
    for line in [*(_VERBS + _NOUNS).split("\n"), *actions]:
        family = tuple(line.split())
        for form in family:
            table[form] = family
    return table


# The noun of a verb in -ify (`modification`, `notifications`): Snowball stems the verb
# `modifi` and the noun `modif`, apart. Every such pair is one word (fd's "files modified
# in the last two weeks" against its "modification time").
_IFICATION = re.compile(r"(\w{2,})ifications?")


def base_word(part: str) -> str:
    """The base word of a lower-case word part (itself when it is no irregular form)."""
    return forms(part)[0]


def forms(part: str) -> tuple[str, ...]:
    """Every form of a lower-case word part's word, the base word first (the part alone
    when its word has no irregular form listed)."""
    family = _families().get(part)
    if family:
        return family
    noun = _IFICATION.fullmatch(part)
    return (noun.group(1) + "ify", part) if noun else (part,)


# Nouns Snowball stems to a verb said throughout code, kept apart as their own stem
# (`settings` is not `set`: Ecto's guide using `set` everywhere outranked the one on
# settings).
NOUNS_APART = {"setting": "setting", "settings": "setting"}
