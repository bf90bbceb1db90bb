"""tierscope: tiered context retrieval (qmd -> ck -> grep) under a token budget.

Kept free of imports on purpose: `tierscope query` must start fast, so each module is
imported only by the command that needs it. The one exception keeps the compiled methods
of the dataclasses every command uses and of the regular expressions its modules hold
(see compiled_dataclasses and compiled_patterns).
"""

from .compiled_dataclasses import install as _install_dataclass_cache
from .compiled_patterns import install as _install_pattern_cache

__version__ = "0.1.0"
_install_dataclass_cache()
_install_pattern_cache()
