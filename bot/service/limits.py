"""Bounds on what a user may send (longer or larger is refused with a reason)."""

from bot.service.replies import Refusal

MAX_TEXT = 200
"""Longest text accepted from a user for a move, choice or suggestion."""
MAX_MATCH_LENGTH = 25
MAX_OPTIONS = 20
MAX_OPTION_TEXT = 40
MAX_STAKE = 1_000_000


def clean(text: str, what: str) -> str:
    """``text`` stripped, or a refusal when it is too long."""
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise Refusal(f"That {what} is too long ({len(text)} characters; at most {MAX_TEXT}).")
    return text
