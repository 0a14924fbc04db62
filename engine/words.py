"""English as the players read it, built in one place: counted nouns ("1 decision",
"2 decisions"), the indefinite article ("a single", "an acey-deucey game") and sentences
that begin with a capital.

Every text of the host that counts something or puts "a" before a word it does not know in
advance goes through here (tests/engine/test_words.py sweeps them with 0, 1 and 2), so a
count of one is never "1 decisions" and a vowel never follows "a".
"""

from __future__ import annotations

import re
from fractions import Fraction

_IRREGULAR = {"die": "dice", "was": "were", "is": "are", "has": "have", "this": "these"}

_AN_EXCEPTIONS = ("one", "once", "uni", "use", "usu", "eu", "ew")
"""Words written with a vowel that sound with a consonant ("a one-point match", "a
unique...")."""

_AN_SILENT_H = ("hour", "honest", "honour", "honor", "heir")
"""Words written with a consonant that sound with a vowel ("an hour")."""


def plural(noun: str) -> str:
    """``noun``'s plural: ``match`` -> ``matches``, ``die`` -> ``dice``, ``roll`` ->
    ``rolls`` (the last word of a phrase: ``cube action`` -> ``cube actions``)."""
    head, sep, last = noun.rpartition(" ")
    if last in _IRREGULAR:
        many = _IRREGULAR[last]
    elif re.search(r"(s|x|z|ch|sh)$", last):
        many = last + "es"
    elif re.search(r"[^aeiou]y$", last):
        many = last[:-1] + "ies"
    else:
        many = last + "s"
    return head + sep + many


def counted(count: int | Fraction, noun: str, many: str | None = None, *,
            digits: bool = True) -> str:
    """``count`` and ``noun``, singular for exactly one: ``counted(1, "decision")`` ->
    "1 decision", ``counted(2, "match")`` -> "2 matches", ``counted(0, "roll")`` ->
    "0 rolls".  ``many``: an irregular plural; a count of a thousand or more is written
    with commas (1,186), a fraction as it is (a chouette share: "1/2 shares").
    ``digits`` False: the count is left out ("decision", "decisions")."""
    word = noun if count == 1 else (many or plural(noun))
    if not digits:
        return word
    return f"{count:,} {word}" if isinstance(count, int) else f"{count} {word}"


def article(phrase: str) -> str:
    """``phrase`` after its indefinite article: "a single", "an acey-deucey game",
    "an 8-point match", "a 1-point match", "an 11-point match"."""
    word = phrase.lstrip()
    low = word.lower()
    if not low:
        return phrase
    first = low[0]
    if first.isdigit():
        number = re.match(r"\d+", low)
        assert number is not None
        digits = number.group()
        # "an 8", "an 11", "an 18", "an 80...", "an 800..."; "a 1", "a 100".
        vowel = digits[0] == "8" or (len(digits) in (2, 5, 8) and digits[:2] in ("11", "18"))
    elif low.startswith(_AN_SILENT_H):
        vowel = True
    elif low.startswith(_AN_EXCEPTIONS):
        vowel = False
    else:
        vowel = first in "aeiou"
    return ("an " if vowel else "a ") + phrase


def sentence(text: str) -> str:
    """``text`` with its first letter capitalised (the rest untouched): an engine's
    message ("this tournament has no pairing...") as the sentence a reply shows."""
    for index, char in enumerate(text):
        if char.isalpha():
            return text[:index] + char.upper() + text[index + 1:]
        if not char.isspace() and char not in "\"'(«“":
            return text
    return text
