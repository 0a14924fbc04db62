"""Which network serves which variant, and the shipped weights.

A *family* is a set of variants that share one network: Acey-Deucey's two
rule books (1973 and 1930), Russian backgammon with or without its entering
restrictions, French backgammon.  Standard backgammon is bgsage's.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from bot.ai.tdnet.net import Net
from engine.variant import Variant

WEIGHTS = Path(__file__).parent / "weights"

FAMILIES: dict[str, str] = {
    "acey-deucey": "acey-deucey",
    "acey-deucey-1930": "acey-deucey",
    "russian": "russian",
    "russian-restriction-1": "russian",
    "russian-restriction-2": "russian",
    "french": "french",
}

TITLES: dict[str, str] = {
    "acey-deucey": "our Acey-Deucey network, self-trained",
    "russian": "our Russian backgammon network, self-trained",
    "french": "our French backgammon network, self-trained",
}


def family_of(variant: Variant) -> str:
    """The family of ``variant`` (its own name if it has none)."""
    return FAMILIES.get(variant.name, variant.name)


def weights_path(family: str) -> Path:
    return WEIGHTS / f"{family}.npz"


@cache
def shipped(family: str) -> Net | None:
    """The shipped network of ``family``, or ``None`` where none ships."""
    path = weights_path(family)
    if not path.exists():
        return None
    return Net.load(path)


def network_for(variant: Variant) -> Net | None:
    return shipped(family_of(variant))
