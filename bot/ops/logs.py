"""The bot's logs: one line per committed action at INFO (written by the action runner:
place, action, who, outcome, milliseconds), errors with a reference that the player's
apology shows ("error 7f3a9c01") so a report can be matched to its traceback, the token
never written, and JSON lines on request (``ops.json_logs``)."""

from __future__ import annotations

import json
import logging
import secrets
import sys
from datetime import UTC, datetime
from typing import Any

APOLOGY = ("Sorry, something went wrong on my side and nothing was changed by this "
           "message. The error has been logged; please try again.")

_STANDARD = frozenset(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {
    "message", "asctime"}
"""The attributes every log record has (the rest came with ``extra=``)."""


def error_reference() -> str:
    """A short reference for an unexpected error: in its log line and in the apology."""
    return secrets.token_hex(4)


def apology(reference: str) -> str:
    """What a player sees after an unexpected error: the reference to quote."""
    return (f"{APOLOGY} If it happens again, tell the server's admins: error {reference}.")


class RedactingFormatter(logging.Formatter):
    def __init__(self, secret: str, fmt: str | None = None) -> None:
        super().__init__(fmt or "%(asctime)s %(levelname)-8s %(name)s: %(message)s")
        self.secret = secret

    def redact(self, text: str) -> str:
        return text.replace(self.secret, "[token]") if self.secret else text

    def format(self, record: logging.LogRecord) -> str:
        return self.redact(super().format(record))


class JsonFormatter(RedactingFormatter):
    """One JSON object a line: ``time``, ``level``, ``logger``, ``message``, the record's
    extra fields, and ``traceback`` for an exception."""

    def format(self, record: logging.LogRecord) -> str:
        data: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(
                timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and not key.startswith("_"):
                data[key] = value if isinstance(value, int | float | bool | None) else str(value)
        if record.exc_info:
            data["traceback"] = self.formatException(record.exc_info)
        return self.redact(json.dumps(data, ensure_ascii=False))


def setup_logging(token: str = "", *, json_lines: bool = False, level: str = "info") -> None:
    """Log to standard error at ``level`` (text, or JSON lines), the token redacted."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter(token) if json_lines else RedactingFormatter(token))
    root = logging.getLogger()
    root.setLevel(level.upper())
    root.addHandler(handler)
