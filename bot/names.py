"""Display names made safe to show anywhere: texts, terminals, pictures, files.

A platform display name may carry characters that change how everything after it is
shown: bidirectional controls (U+202E RIGHT-TO-LEFT OVERRIDE reverses the rest of a
terminal line, and the picture's name), zero-width and other invisible characters
(a name that looks empty, or like another player's), line separators.  Issue 30 item 15:
names are neutralised where they enter -- :class:`bot.service.core.values.Actor` and the
storage's :func:`bot.storage.core.errors.clean_name` -- so every text, picture and file
built from them shows what a reader sees.

:func:`display_width` and :func:`pad` line names up in a monospaced table (a wide emoji
or a CJK character takes two columns, a combining mark none: issue 30 item 16).
"""

from __future__ import annotations

import re
import unicodedata

_INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
"""Letters that draw nothing (Hangul fillers, the blank Braille pattern)."""

_ZWJ = "\u200d"


def neutral(text: str) -> str:
    """``text`` without bidirectional controls and invisible characters.

    Removed: every format character (Unicode category Cf: the bidi embeddings,
    overrides and isolates, LRM/RLM/ALM, zero-width space and joiners, word joiner,
    BOM, soft hyphen, tag characters...) except a zero-width joiner between two
    visible symbols (it joins an emoji sequence), and the letters that draw nothing.
    NUL is removed; other controls (C0, C1) and line or paragraph separators become
    spaces; other spaces become a plain space; a lone surrogate (not encodable as UTF-8)
    becomes U+FFFD.
    """
    out: list[str] = []
    for i, ch in enumerate(text):
        cat = unicodedata.category(ch)
        if ch == _ZWJ and 0 < i < len(text) - 1 and _joins(text[i - 1]) and _joins(text[i + 1]):
            out.append(ch)
        elif cat == "Cf" or ch in _INVISIBLE_LETTERS or ch == "\x00":
            continue
        elif cat in ("Cc", "Zl", "Zp", "Zs"):
            out.append(" ")
        elif cat == "Cs":  # a lone surrogate: no UTF-8 for it
            out.append("\ufffd")
        else:
            out.append(ch)
    return "".join(out)


_PLAIN = re.compile(r"[\x20-\x7e\n]*")
"""Printable ASCII and newlines: nothing to clean (the quick path of :func:`printable`)."""


def printable(text: str, *, lines: bool = False) -> str:
    """``text`` fit to show back to anyone, on any platform (issue 43 item 4): the one
    cleaning of every echoed text.  :func:`neutral` line by line (no NUL, bidirectional
    control or invisible character; other controls as spaces; lone surrogates as U+FFFD);
    ``lines``: newlines are kept (a reply's lines), else they become spaces too.  Every
    reply of the service passes here (:class:`bot.service.core.replies.Reply`); what a
    user typed is quoted cut to a length by :func:`bot.service.core.limits.shown`."""
    if _PLAIN.fullmatch(text):
        return text if lines else text.replace("\n", " ")
    if not lines:
        return neutral(text)
    return "\n".join(neutral(line) for line in text.split("\n"))


def _joins(ch: str) -> bool:
    """A character a zero-width joiner may join (an emoji, a symbol, a variation
    selector after one)."""
    return unicodedata.category(ch) in ("So", "Sk", "Mn") or "\ufe00" <= ch <= "\ufe0f"


def display_name(name: str, fallback: str) -> str:
    """A name to show: :func:`neutral`, runs of spaces made one, trimmed; ``fallback``
    when nothing visible is left."""
    shown = " ".join(neutral(name).split())
    return shown or fallback


def display_width(text: str) -> int:
    """Columns ``text`` takes in a monospaced font: East Asian wide and full-width
    characters (most emoji) 2, combining marks, joiners and variation selectors 0."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf") or (
                "\ufe00" <= ch <= "\ufe0f"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def pad(text: str, width: int) -> str:
    """``text`` cut or padded with spaces to exactly ``width`` columns (a cut name ends
    with "…")."""
    if display_width(text) <= width:
        return text + " " * (width - display_width(text))
    out = ""
    for ch in text:
        if display_width(out + ch) > width - 1:
            break
        out += ch
    out += "…"
    return out + " " * (width - display_width(out))
