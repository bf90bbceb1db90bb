"""Tier names to implementations, imported only when a query uses them."""

from __future__ import annotations

import importlib

from .base import Tier

_TIER_CLASSES = {
    "qmd": ("tierscope.tiers.qmd", "QmdTier"),
    "ck": ("tierscope.tiers.ck", "CkTier"),
    "grep": ("tierscope.tiers.grep", "GrepTier"),
    "store": ("tierscope.tiers.store", "StoreTier"),
}


def load_tier(name: str) -> Tier:
    module_name, class_name = _TIER_CLASSES[name]
    return getattr(importlib.import_module(module_name), class_name)()
