"""The Discord-side errors and the one table of their messages (used by the command
tree's error handler and by the buttons)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.adapters.discord.convert import NotInGuild
from bot.ops.logs import APOLOGY as APOLOGY  # (re-exported)
from bot.service.core.limits import shown

PERMISSION_NAMES = {
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "read_message_history": "Read Message History",
    "view_channel": "View Channel",
}
NEEDED = ("Send Messages, Send Messages in Threads, Create Public Threads, Embed Links "
          "and Attach Files")


class MissingPermission(app_commands.AppCommandError):
    """Discord refused an operation because the bot lacks ``permission`` here."""

    def __init__(self, permission: str, doing: str) -> None:
        self.permission = permission
        self.doing = doing
        super().__init__(f"missing {permission} to {doing}")


class Unanswerable(app_commands.CheckFailure):
    """The interaction came from a thread a moderator locked and archived: Discord refuses
    every answer there, so nothing is done and nothing is said (:func:`.convert.answerable`)."""


THREAD_ARCHIVED = 50083
"""Discord's code for an answer or edit refused in an archived thread."""


def permission_names(perms: list[str]) -> str:
    names = [PERMISSION_NAMES.get(p, p.replace("_", " ").title()) for p in perms]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe_error(error: Exception) -> str | None:
    """The message for an expected error, or ``None`` for an unexpected one."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, app_commands.BotMissingPermissions):
        names = permission_names(error.missing_permissions)
        plural = "s" if len(error.missing_permissions) > 1 else ""
        return (f"I can't do that here: I'm missing the {names} permission{plural} in this "
                "channel. Ask a server admin to grant it to me.")
    if isinstance(error, MissingPermission):
        return (f"I can't {error.doing}: I'm missing the {error.permission} permission in "
                "this channel. Ask a server admin to grant it to me.")
    if isinstance(error, discord.Forbidden):
        return (f"Discord refused: I'm missing a permission in this channel ({error.text}). "
                f"I need {NEEDED}.")
    if isinstance(error, NotInGuild):
        return str(error)
    if isinstance(error, app_commands.NoPrivateMessage):
        return ("That command works in a server, not in direct messages. Here you can play "
                "a match or money game (/challenge).")
    if isinstance(error, app_commands.TransformerError):
        return f"{shown(str(error.value))} is not a valid value for that option."
    if isinstance(error, app_commands.CommandOnCooldown):
        return f"Slow down: try again in {error.retry_after:.0f} s."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You can't use this command here."
    return None
