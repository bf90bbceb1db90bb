"""British and American spellings of one word count as one term, in the query and in the
text alike: `colour` finds `color`, `centred` finds `centered`, `initialise` finds
`initialize`, and the other way round.

A word part is read in its American spelling before it is stemmed (`american`), so both
spellings share a term key; a query term's search pattern holds every spelling of its
word (`spellings`), so ripgrep finds either in the files. Only the words listed here, with
their inflections, are respelt: a rule such as "-ise is -ize" would also respell `precise`
away from `precision`, which share a stem today.
"""

from __future__ import annotations

from functools import cache

# -our words (and their inflections and derivatives: `coloured`, `favourite`, `behavioural`).
_OUR = (
    "armour behaviour candour clamour colour endeavour favour flavour harbour honour humour "
    "labour neighbour odour parlour rumour saviour splendour tumour valour vapour vigour"
).split()
_OUR_ENDINGS = (
    "", "s", "ed", "ing", "ful", "fully", "less", "ite", "ites", "able", "ably", "al", "ally",
    "er", "ers", "ist", "ists", "ise", "ised", "ises", "ising", "isation",
)  # fmt: skip
# -re words: `centre` is `center`, `centred` is `centered`.
_RE = "calibre centre fibre litre lustre meagre metre sabre sombre spectre theatre".split()
_RE_ENDINGS = {"e": "er", "es": "ers", "ed": "ered", "ing": "ering"}
# -ise verbs as software writes them (`initialise`, `serialiser`, `normalisation`).
_ISE = (
    "apolog author capital categor central civil custom deserial digit emphas final "
    "general harmon initial international local maxim memo minim mobil modern normal "
    "optim organ parameter parametr personal popular priorit public random rational "
    "real recogn sanit serial special stabil standard summar symbol synchron token "
    "trivial util virtual visual"
).split()
_ISE_ENDINGS = {
    "ise": "ize", "ised": "ized", "ises": "izes", "ising": "izing", "iser": "izer",
    "isers": "izers", "isation": "ization", "isations": "izations",
}  # fmt: skip
# Other pairs, British first, each with its own inflections.
_OTHER = {
    "grey": "gray", "greys": "grays", "greyed": "grayed", "greying": "graying",
    "greyscale": "grayscale", "licence": "license", "licences": "licenses",
    "defence": "defense", "offence": "offense", "catalogue": "catalog",
    "catalogues": "catalogs", "dialogue": "dialog", "dialogues": "dialogs",
    "analogue": "analog", "judgement": "judgment", "judgements": "judgments",
    "acknowledgement": "acknowledgment", "acknowledgements": "acknowledgments",
    "artefact": "artifact", "artefacts": "artifacts", "enrol": "enroll", "enrols": "enrolls",
    "enrolment": "enrollment", "fulfil": "fulfill", "fulfils": "fulfills",
    "fulfilment": "fulfillment", "programme": "program", "programmes": "programs",
    "ageing": "aging", "manoeuvre": "maneuver", "aluminium": "aluminum",
}  # fmt: skip


@cache
def _american_of() -> dict[str, str]:
    """Every British form listed, and its American form (built on first use)."""
    table = dict(_OTHER)
    for word in _OUR:
        for ending in _OUR_ENDINGS:
            respelt = ending.replace("is", "iz", 1) if ending.startswith("is") else ending
            table[word + ending] = word[:-2] + "r" + respelt
    for word in _RE:
        for ending, american in _RE_ENDINGS.items():
            table[word[:-1] + ending] = word[:-2] + american
    for root in _ISE:
        for ending, american in _ISE_ENDINGS.items():
            table[root + ending] = root + american
    return table


@cache
def _british_of() -> dict[str, str]:
    return {american: british for british, american in _american_of().items()}


def american(part: str) -> str:
    """A lower-case word part in its American spelling (itself when it has no other)."""
    return _american_of().get(part, part)


def spellings(part: str) -> tuple[str, ...]:
    """Every spelling of a lower-case word part: American first, then British."""
    us = american(part)
    british = _british_of().get(us)
    return (us, british) if british else (us,)
