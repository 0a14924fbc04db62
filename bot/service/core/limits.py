"""Bounds on what a user may send (longer or larger is refused with a reason)."""

from bot.names import printable
from bot.service.core.replies import Refusal
from engine.words import counted

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
        raise Refusal(f"That {what} is too long ({counted(len(text), 'character')}; at most "
                      f"{MAX_TEXT}).")
    return text


def check_options(what: str, texts: list[str], count: int = 0) -> None:
    """Refuse option values (and names) too long to quote back, or too many of them."""
    if count > MAX_OPTIONS or any(len(t) > MAX_OPTION_TEXT for t in texts):
        raise Refusal(f"Those {what} options are too long: at most {MAX_OPTIONS} options of "
                      f"{MAX_OPTION_TEXT} characters each.")


SHOWN = 40
"""The most of a user's text a refusal quotes back (longer is cut, with an ellipsis)."""


def shown(text: str, limit: int = SHOWN) -> str:
    """``text`` quoted for a refusal, cleaned (:func:`bot.names.printable`: no control,
    bidirectional or invisible character, no lone surrogate) and cut to ``limit``
    characters: a refusal never echoes a whole input (a 10,000-character label is not
    worth 10,000 characters back), nor one that garbles what follows it.  Every echo of
    what a user typed goes through here."""
    return repr(echo(text, limit))


def echo(text: str, limit: int = SHOWN) -> str:
    """:func:`shown` without the quotes (where the sentence quotes it its own way)."""
    text = printable(text)
    return text if len(text) <= limit else text[:limit] + "..."


def quoted(error: Exception) -> str:
    """An error's text cut to a reply's length (it may quote what the user typed)."""
    return str(error)[:300]
