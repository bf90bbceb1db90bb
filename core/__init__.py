"""tierscope: tiered context retrieval (qmd -> ck -> grep) under a token budget.

Kept empty of imports on purpose: `tierscope query` must start fast, so each module is
imported only by the command that needs it.
"""

__version__ = "0.1.0"
