"""The words of a query that are no terms: English function words, and the words that
frame a question about code rather than ask it (analysis.query_terms drops them; a few
count in a query of a few words, where APIs name things with them)."""

from __future__ import annotations

# English function words, with the words of vague quantity `several`, `something`,
# `whenever` (FastAPI's "run several uvicorn worker processes"), and of discourse, `even`,
# `somewhere` (bat's "even though", "somewhere else"; not `else`, Elixir's `with ...
# else`). Not `one`, `every`,
# `many`, `anything`: a passage often says them ("the one kept in the session", "every
# day" for cron, "many arguments"): measured with `tierscope eval`, they cost seven
# answering passages over all sets. And the words of emphasis, `actually`, `really`,
# `basically`, `simply`: logrus' "why doesn't Log actually panic?" was served the one
# comment saying "actually". And `yet` and `whether`, which say when or if, not what:
# libuv's "writes that have not finished yet when I close the socket" was served
# `uv_fileno` ("doesn't have an attached file descriptor yet"). Measured with `tierscope
# eval` on 156 sets: 9 questions up, 3 down; `still` and `nothing` too cost more than they
# gained (got's and fastify's "still in flight", express's "still supported").
_FUNCTION_WORDS = frozenset(
    """a about above after again against all am an and any are as at be because been before
    being below between both but by can could did do does doing down during each few for from
    further had has have having he her here hers him his how i if in into is it its itself just
    me more most my no nor not now of off on once only or other our out over own same she should
    so some such than that the their them then there these they this those through to too under
    until up very was we were what when where which while who whom why will with would you your
    yours don doesn didn isn aren wasn weren won shouldn couldn wouldn haven hasn hadn mustn
    needn mightn shan ll ve re vs versus
    several something whenever even somewhere thing things
    actually really basically simply
    yet whether""".split()
)
# The words that frame a question about code ("where is X implemented", "what happens
# when"): rare in code, they outweighed X itself. Only these forms: "implement a loader"
# still searches `implement`.
_FRAMING_WORDS = frozenset(
    """implemented implementation implementations defined definition located happens happen
    happening""".split()
)
STOPWORDS = _FUNCTION_WORDS | _FRAMING_WORDS
# The stopwords APIs name things with (`before_request`, `SerializeAsAny`, `on_mount`,
# `once`, `off`): terms in a query of a few words.
NAMING_STOPWORDS = frozenset(
    """after before once any all on off up down over under out only each same between from
    during until no not more most few other into through again against above below
    like""".split()
)
