"""tierscope: tiered context retrieval (qmd -> ck -> grep) under a token budget.

Kept free of imports on purpose: `tierscope query` must start fast, so each module is
imported only by the command that needs it. The one exception keeps the compiled methods
of the dataclasses every command uses (see compiled_dataclasses).
"""

from .compiled_dataclasses import install as _install_dataclass_cache

__version__ = "0.1.0"
_install_dataclass_cache()
