"""Rule options typed as ``key=value`` words (the variant-only options of /challenge
and /chouette open, issue 15), and the pairs an autocomplete offers.

Discord allows 25 options a command, so the options that apply to one variant only
travel in one text option, ``variant_rules:"kicked_off=reserve"``; the service
reads them with :meth:`engine.rules.RuleOptions.from_dict`, which refuses an unknown
key or value with a reason.
"""

from __future__ import annotations

from enum import Enum
from typing import Any

from engine.rules import DEFAULT_RULES

VARIANT_RULES: dict[str, tuple[str, ...]] = {
    "kicked_off": ("acey-deucey",),
    "acey_deucey_gammons": ("acey-deucey",),
    "russian_entering": ("russian", "russian-restriction-1"),
}
"""The options that apply to some variants only, and those variants."""
MAX_WORDS = 10


def parse_rule_words(text: str | None) -> dict[str, str]:
    """``"kicked_off=reserve, acey_deucey_gammons=off"`` as a dict of options.

    A word without ``=`` is kept as a key with an empty value, so that the
    service's :meth:`RuleOptions.from_dict` refuses it with the option's name
    and its allowed values, as for any other bad option.
    """
    out: dict[str, str] = {}
    for word in (text or "").replace(",", " ").split()[:MAX_WORDS]:
        key, _, value = word.partition("=")
        out[key.strip()] = value.strip()
    return out


def pairs_for(variant: str | None) -> list[str]:
    """Every ``key=value`` of the variant-only options that apply to ``variant``
    (all of them when no variant is named), the default value first."""
    pairs: list[str] = []
    for key, variants in VARIANT_RULES.items():
        if variant and variant not in variants:
            continue
        default = getattr(DEFAULT_RULES, key)
        members: list[Any] = list(type(default)) if isinstance(default, Enum) else []
        values = ([True, False] if isinstance(default, bool)
                  else sorted(members, key=lambda m: m is not default))
        for value in values:
            shown = ("on" if value else "off") if isinstance(value, bool) else (
                value.value if isinstance(value, Enum) else str(value))
            pairs.append(f"{key}={shown}")
    return pairs


def suggest_rule_words(typed: str, variant: str | None, limit: int = 25) -> list[str]:
    """Completions of ``typed`` (its last word completed, options already given left
    out) for an autocomplete."""
    words = typed.replace(",", " ").split()
    done = typed.endswith((" ", ",")) or not words
    head = words if done else words[:-1]
    last = "" if done else words[-1].lower()
    given = {w.partition("=")[0].lower().replace("-", "_") for w in head}
    name = variant.strip().lower() if variant else None
    options = pairs_for(name) or pairs_for(None)
    key, eq, value = last.partition("=")
    prefix = key.replace("-", "_") + eq + value
    out = [" ".join([*head, pair]) for pair in options
           if pair.partition("=")[0] not in given and pair.startswith(prefix)]
    return [o for o in out if len(o) <= 100][:limit]
