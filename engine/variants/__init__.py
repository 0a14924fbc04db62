"""The backgammon variants of the rule books: Acey-Deucey, Russian and French backgammon.

:mod:`engine.variants.movement` generates legal plays under each variant's
movement rules; the variant classes (one per rule set) say how a throw is
played in stages, and register themselves with the variant registry.
"""

from engine.variants.acey_deucey import AceyDeucey, AceyDeucey1930
from engine.variants.french import FrenchBackgammon
from engine.variants.russian import (
    EnteringDoublets,
    RussianBackgammon,
    RussianRestriction1,
    RussianRestriction2,
)

__all__ = [
    "AceyDeucey",
    "AceyDeucey1930",
    "EnteringDoublets",
    "FrenchBackgammon",
    "RussianBackgammon",
    "RussianRestriction1",
    "RussianRestriction2",
]
