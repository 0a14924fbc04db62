"""The channel half of the fake Discord (issue 29 item 12): channel types, the bot's
permissions per channel, archived and locked threads and the active-thread cap, each
refused with Discord's own status and JSON error code.

:class:`Channels` handles every ``/channels/{id}...`` REST call of
:class:`~fake_discord.FakeDiscord` (which keeps the channels in ``fake.channels``).  What it
enforces, as discord-api-docs (resources/channel.md, topics/threads.md,
topics/permissions.md, topics/opcodes-and-status-codes.md) says Discord does:

* permissions, computed like Discord from the @everyone role, the bot member's roles and
  the channel's overwrites (a thread takes its parent's): no View Channel is 403/50001
  Missing Access; anything else missing is 403/50013 Missing Permissions — Send Messages
  (Send Messages in Threads in a thread), Attach Files for files, Embed Links for embeds,
  Create Public Threads (or Private) to start a thread, Manage Threads to delete, archive
  or lock one (unarchiving an unlocked thread needs only Send Messages), Manage Channels
  to delete a channel, Read Message History to fetch a message (and to reply to one:
  400/160002).  Without Send Messages (in Threads) a member also loses Embed Links
  and Attach Files, as Discord does implicitly;
* channel types: GUILD_TEXT (0), GUILD_ANNOUNCEMENT (5), GUILD_FORUM (15) and the
  threads ANNOUNCEMENT_THREAD (10), PUBLIC_THREAD (11), PRIVATE_THREAD (12).  A text
  channel gives public or private threads; an announcement channel gives announcement
  threads, and only from a message (``POST /channels/{id}/messages/{mid}/threads``);
  a forum channel's threads are posts started with their first message (``message`` is
  required); nothing can be sent to a forum channel itself (400/40058) and a thread holds
  no thread (400/50024); a message holds one thread (400/160004);
* archived threads: sending a message unarchives an unlocked thread (when the sender may
  send there); a locked thread refuses it without Manage Threads (403/160005 Thread is
  locked); editing a message in an archived thread is 400/50083; an interaction's public
  answer unarchives an unlocked thread too, and in a locked archived thread every answer
  that is a new message is 400/50083 (:meth:`Channels.answer_in`);
* the guild's cap on active threads: creating or unarchiving past it is 400/160006;
* an empty message is 400/50006.

A test sets the bot's permissions per channel with :meth:`Channels.deny` (an overwrite
for the bot member, sent to a connected bot as CHANNEL_UPDATE), archives a thread as
Discord does for inactivity with :meth:`Channels.archive`, and lowers
:attr:`Channels.max_active_threads`.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import discord
from aiohttp import web

if TYPE_CHECKING:
    from fake_discord import FakeDiscord

TEXT, ANNOUNCEMENT, FORUM = 0, 5, 15
ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD = 10, 11, 12
THREADS = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
ACTIVE_THREADS = 1000
"""Discord's cap on a guild's active threads."""

P = discord.Permissions


def bit(name: str) -> int:
    return int(getattr(P, name).flag)


ADMINISTRATOR = bit("administrator")
VIEW = bit("view_channel")
SEND = bit("send_messages")
SEND_IN_THREADS = bit("send_messages_in_threads")
EMBED = bit("embed_links")
ATTACH = bit("attach_files")
MANAGE_THREADS = bit("manage_threads")
MANAGE_CHANNELS = bit("manage_channels")
CREATE_PUBLIC = bit("create_public_threads")
CREATE_PRIVATE = bit("create_private_threads")
HISTORY = bit("read_message_history")
ALL = discord.Permissions.all().value


class Refused(Exception):
    """A REST call Discord refuses: its HTTP status, JSON code and message."""

    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


def missing(permission: str) -> Refused:
    return Refused(403, 50013, f"Missing Permissions ({permission})")


class Channels:
    """The guild's channels as Discord treats them (one per fake)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.max_active_threads = ACTIVE_THREADS
        """The guild's cap on active (not archived) threads."""
        self.refusals: list[tuple[str, int]] = []
        """Each refused call (``"METHOD /channels/..."``, code), in order."""

    # ------------------------------------------------------------ set-up by tests

    def add(self, name: str, kind: int = TEXT) -> int:
        """A channel of type ``kind`` (text, announcement or forum); its id."""
        channel_id = self.fake.add_channel(name)
        self.fake.channels[channel_id]["type"] = kind
        return channel_id

    def bot_role(self, permissions: int, *, everyone: int) -> int:
        """Give the bot a role with ``permissions`` (as its invite link grants them) and
        leave the @everyone role ``everyone`` (before the bot connects); the role's id."""
        role = self.fake.add_role("bgbot", permissions)
        self.fake.roles[role]["managed"] = True
        self.fake.bot_user.roles.append(role)
        self.fake.everyone_permissions = everyone
        return role

    def add_post(self, forum_id: int, name: str, author: int) -> int:
        """A thread a member started (a forum's post, or a thread of a text channel), before
        the bot connects; its id."""
        kind = self.kind(forum_id)
        thread = self._thread(forum_id, name, ANNOUNCEMENT_THREAD if kind == ANNOUNCEMENT
                              else PUBLIC_THREAD, {"auto_archive_duration": 1440})
        thread["owner_id"] = str(author)
        return int(thread["id"])

    async def deny(self, channel_id: int, *permissions: str, unseen: bool = False) -> None:
        """Deny the bot ``permissions`` (discord.py names) in ``channel_id`` by a member
        overwrite; a connected bot is sent CHANNEL_UPDATE (``unseen``: not yet, as when the
        gateway event is still on its way: the bot's cache lags behind the server)."""
        await self._overwrite(channel_id, deny=sum(bit(p) for p in permissions),
                              tell=not unseen)

    async def allow_all(self, channel_id: int) -> None:
        """Drop the bot's member overwrite in ``channel_id``."""
        await self._overwrite(channel_id, deny=0)

    async def _overwrite(self, channel_id: int, *, deny: int, tell: bool = True) -> None:
        channel = self.fake.channels[channel_id]
        bot = str(self.fake.app_id)
        kept = [o for o in channel["permission_overwrites"] if o["id"] != bot]
        if deny:
            kept.append({"id": bot, "type": 1, "allow": "0", "deny": str(deny)})
        channel["permission_overwrites"] = kept
        if tell and self.fake.is_connected:
            await self.fake.dispatch("CHANNEL_UPDATE", dict(channel))

    async def archive(self, thread_id: int, *, locked: bool = False) -> None:
        """Discord archives the thread (for inactivity; ``locked``: a moderator locked it)."""
        meta = self.fake.channels[thread_id]["thread_metadata"]
        meta.update(archived=True, locked=locked or meta.get("locked", False))
        if self.fake.is_connected:
            await self.fake.dispatch("THREAD_UPDATE", dict(self.fake.channels[thread_id]))

    # ------------------------------------------------------------------- reading

    def kind(self, channel_id: int) -> int:
        return int(self.fake.channels[channel_id]["type"])

    def is_thread(self, channel_id: int) -> bool:
        return self.kind(channel_id) in THREADS

    def archived(self, channel_id: int) -> bool:
        return bool(self.fake.channels[channel_id].get("thread_metadata", {}).get("archived"))

    def locked(self, channel_id: int) -> bool:
        return bool(self.fake.channels[channel_id].get("thread_metadata", {}).get("locked"))

    def active_threads(self) -> list[int]:
        return [cid for cid in self.fake.channels
                if self.is_thread(cid) and not self.archived(cid)]

    def guild_channels(self) -> list[dict[str, Any]]:
        """What GUILD_CREATE lists as channels (not threads)."""
        return [c for cid, c in self.fake.channels.items() if not self.is_thread(cid)]

    def guild_threads(self) -> list[dict[str, Any]]:
        """What GUILD_CREATE lists as threads: the active ones."""
        return [self.fake.channels[cid] for cid in self.active_threads()]

    def bot_permissions(self, channel_id: int) -> int:
        """The bot's permissions in ``channel_id`` (a thread: its parent's), computed as
        Discord does (topics/permissions.md: base, then @everyone, role and member
        overwrites; implicit denials)."""
        fake = self.fake
        channel = fake.channels[channel_id]
        thread = self.is_thread(channel_id)
        if thread:
            channel = fake.channels[int(channel["parent_id"])]
        roles = [r for r in fake.bot_user.roles if r in fake.roles]
        base = fake.everyone_permissions
        for role in roles:
            base |= int(fake.roles[role]["permissions"])
        if base & ADMINISTRATOR:
            return ALL
        overwrites = channel.get("permission_overwrites", [])
        for o in overwrites:
            if o["id"] == str(fake.guild_id):
                base = (base & ~int(o["deny"])) | int(o["allow"])
        allow = deny = 0
        for o in overwrites:
            if o["type"] == 0 and int(o["id"]) in roles:
                allow |= int(o["allow"])
                deny |= int(o["deny"])
        base = (base & ~deny) | allow
        for o in overwrites:
            if o["type"] == 1 and o["id"] == str(fake.app_id):
                base = (base & ~int(o["deny"])) | int(o["allow"])
        if not base & VIEW:
            return 0
        sends = SEND_IN_THREADS if thread else SEND
        if not base & sends:
            base &= ~(EMBED | ATTACH)
        return base

    # ------------------------------------------------------------------- checking

    def _need(self, channel_id: int, flag: int, name: str) -> None:
        if not self.bot_permissions(channel_id) & flag:
            raise missing(name)

    def _check_post(self, channel_id: int, body: dict[str, Any], files: dict[str, bytes],
                    *, thread: bool) -> None:
        """What a new message needs: something in it, the right to send it, and Attach
        Files / Embed Links for what it carries."""
        if not (body.get("content") or body.get("embeds") or body.get("components")
                or body.get("sticker_ids") or files):
            raise Refused(400, 50006, "Cannot send an empty message")
        if thread:
            self._need(channel_id, SEND_IN_THREADS, "Send Messages in Threads")
        else:
            self._need(channel_id, SEND, "Send Messages")
        if files:
            self._need(channel_id, ATTACH, "Attach Files")
        if body.get("embeds"):
            self._need(channel_id, EMBED, "Embed Links")
        if body.get("message_reference") and not self.bot_permissions(channel_id) & HISTORY:
            raise Refused(400, 160002,
                          "Cannot reply without permission to read message history")

    def _cap(self) -> None:
        if len(self.active_threads()) >= self.max_active_threads:
            raise Refused(400, 160006, "Maximum number of active threads reached")

    async def answer_in(self, channel_id: int, ephemeral: bool) -> None:
        """An interaction's answer (a response or a follow-up that is a new message) in
        ``channel_id``: in a thread a moderator locked and archived it is refused (400/50083
        Thread is archived: discord-api-docs issue 5517); in an archived unlocked thread a
        public answer unarchives it, as any message sent there does."""
        if not self.archived(channel_id):
            return
        if self.locked(channel_id):
            raise Refused(400, 50083, "Thread is archived")
        if not ephemeral:
            await self._unarchive(channel_id)

    async def _unarchive(self, thread_id: int) -> None:
        self._cap()
        self.fake.channels[thread_id]["thread_metadata"]["archived"] = False
        await self.fake.dispatch("THREAD_UPDATE", dict(self.fake.channels[thread_id]))

    def _thread(self, parent_id: int, name: str, kind: int, body: dict[str, Any],
                thread_id: int | None = None) -> dict[str, Any]:
        fake = self.fake
        if not 1 <= len(name or "") <= 100:
            raise Refused(400, 50035, "Invalid Form Body (name: 1-100 characters)")
        duration = int(body.get("auto_archive_duration") or 4320)
        if duration not in (60, 1440, 4320, 10080):
            raise Refused(400, 50035, "Invalid Form Body (auto_archive_duration)")
        self._cap()
        new_id = thread_id if thread_id is not None else fake.snowflake()
        thread = {
            "id": str(new_id), "type": kind, "guild_id": str(fake.guild_id),
            "parent_id": str(parent_id), "name": name, "owner_id": str(fake.app_id),
            "flags": 0, "message_count": 0, "member_count": 1, "rate_limit_per_user": 0,
            "thread_metadata": {"archived": False, "locked": False,
                                "auto_archive_duration": duration,
                                "archive_timestamp": _now()}}
        fake.channels[new_id] = thread
        return thread

    # -------------------------------------------------------------------- routes

    async def handle(self, method: str, rest: list[str], body: dict[str, Any],
                     files: dict[str, bytes]) -> web.StreamResponse | None:
        """Answer ``METHOD /channels/{rest...}`` (None: a route the fake does not know)."""
        try:
            return await self._route(method, rest, body, files)
        except Refused as refused:
            self.refusals.append((f"{method} /channels/{'/'.join(rest)}", refused.code))
            return reply({"message": refused.message, "code": refused.code},
                                   refused.status)

    async def _route(self, method: str, rest: list[str], body: dict[str, Any],
                     files: dict[str, bytes]) -> web.StreamResponse | None:
        fake = self.fake
        channel_id = int(rest[0])
        if channel_id not in fake.channels:
            return reply({"message": "Unknown Channel", "code": 10003}, 404)
        if not self.bot_permissions(channel_id) & VIEW:
            raise Refused(403, 50001, "Missing Access")
        kind = self.kind(channel_id)
        thread = kind in THREADS
        tail = rest[1:]
        if method == "GET" and not tail:
            return reply(fake.channels[channel_id])
        if method == "PATCH" and not tail:
            return await self._modify(channel_id, body)
        if method == "DELETE" and not tail:
            if thread:
                self._need(channel_id, MANAGE_THREADS, "Manage Threads")
            else:
                self._need(channel_id, MANAGE_CHANNELS, "Manage Channels")
            channel = fake.channels.pop(channel_id)
            if thread:
                await fake.dispatch("THREAD_DELETE", {
                    "id": str(channel_id), "guild_id": str(fake.guild_id),
                    "parent_id": channel["parent_id"], "type": kind})
            return reply(channel)
        if method == "POST" and tail == ["threads"]:
            return await self._start_thread(channel_id, kind, body, files)
        if method == "POST" and len(tail) == 3 and tail[0] == "messages" and tail[2] == "threads":
            return await self._thread_from_message(channel_id, kind, int(tail[1]), body)
        if method == "POST" and tail == ["messages"]:
            if kind == FORUM:
                raise Refused(400, 40058, "Cannot send a message in a forum channel")
            self._check_post(channel_id, body, files, thread=thread)
            if thread and self.archived(channel_id):
                if self.locked(channel_id) and not (self.bot_permissions(channel_id)
                                                    & MANAGE_THREADS):
                    raise Refused(403, 160005, "Thread is locked")
                await self._unarchive(channel_id)  # sending unarchives (topics/threads.md)
            message = fake.post_message(channel_id, body, files)
            if thread:
                fake.channels[channel_id]["message_count"] += 1
            return reply(message.json(fake.base))
        if len(tail) == 2 and tail[0] == "messages" and method in ("PATCH", "DELETE", "GET"):
            target = fake.messages.get(int(tail[1]))
            if target is None or target.channel_id != channel_id:
                return reply({"message": "Unknown Message", "code": 10008}, 404)
            if method == "GET":  # (Get Channel Message needs Read Message History)
                self._need(channel_id, HISTORY, "Read Message History")
                return reply(target.json(fake.base))
            if method == "DELETE":  # deleting is the one thing an archived thread allows
                del fake.messages[target.id]
                fake.deleted.append(target.id)
                return web.Response(status=204)
            if thread and self.archived(channel_id):
                raise Refused(400, 50083, "Thread is archived")
            if files:
                self._need(channel_id, ATTACH, "Attach Files")
            if body.get("embeds"):
                self._need(channel_id, EMBED, "Embed Links")
            fake.edit_message(target, body, files)
            return reply(target.json(fake.base))
        return None

    async def _modify(self, channel_id: int, body: dict[str, Any]) -> web.Response:
        """PATCH a thread: archive, lock, unarchive, its auto-archive duration or name."""
        fake = self.fake
        if not self.is_thread(channel_id):
            self._need(channel_id, MANAGE_CHANNELS, "Manage Channels")
            fake.channels[channel_id].update(
                {k: v for k, v in body.items() if k in ("name", "topic")})
            await fake.dispatch("CHANNEL_UPDATE", dict(fake.channels[channel_id]))
            return reply(fake.channels[channel_id])
        meta = fake.channels[channel_id]["thread_metadata"]
        archived = bool(body.get("archived", meta["archived"]))
        locked = bool(body.get("locked", meta["locked"]))
        only_unarchive = (set(body) <= {"archived", "locked"} and not archived
                          and not locked and not meta["locked"])
        if only_unarchive:
            self._need(channel_id, SEND_IN_THREADS, "Send Messages in Threads")
        else:
            self._need(channel_id, MANAGE_THREADS, "Manage Threads")
        if meta["archived"] and archived and set(body) - {"archived", "locked"}:
            raise Refused(400, 50083, "Thread is archived")
        if meta["archived"] and not archived:
            self._cap()
        if "auto_archive_duration" in body:
            meta["auto_archive_duration"] = int(body["auto_archive_duration"])
        if "name" in body:
            fake.channels[channel_id]["name"] = str(body["name"])[:100]
        if meta["archived"] != archived:
            meta["archive_timestamp"] = _now()
        meta.update(archived=archived, locked=locked)
        await fake.dispatch("THREAD_UPDATE", dict(fake.channels[channel_id]))
        return reply(fake.channels[channel_id])

    async def _start_thread(self, channel_id: int, kind: int, body: dict[str, Any],
                            files: dict[str, bytes]) -> web.Response:
        """Start Thread without Message (text channels), or in a forum channel (a post
        with its first message)."""
        fake = self.fake
        if kind in THREADS:
            raise Refused(400, 50024, "Cannot execute action on this channel type")
        if kind == FORUM:
            post = body.get("message")
            if not isinstance(post, dict):
                raise Refused(400, 50035, "Invalid Form Body (message: required in a forum)")
            self._check_post(channel_id, post, files, thread=False)  # Send Messages
            thread = self._thread(channel_id, body.get("name", ""), PUBLIC_THREAD, body)
            thread_id = int(thread["id"])
            message = fake.post_message(thread_id, post, files)
            fake.messages.pop(message.id)
            message.id = thread_id  # a post's first message shares the thread's id
            fake.messages[thread_id] = message
            thread["message_count"] = 1
            await fake.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
            return reply(dict(thread, message=message.json(fake.base)), 201)
        wanted = int(body.get("type") or PRIVATE_THREAD)  # Discord's default: private
        if kind == ANNOUNCEMENT or wanted not in (PUBLIC_THREAD, PRIVATE_THREAD):
            # An announcement channel's threads start from a message.
            raise Refused(400, 50024, "Cannot execute action on this channel type")
        if wanted == PUBLIC_THREAD:
            self._need(channel_id, CREATE_PUBLIC, "Create Public Threads")
            if "invitable" in body:  # (resources/channel.md: "only available when creating
                # a PRIVATE_THREAD")
                fake.hygiene.append(f"POST /channels/{channel_id}/threads: invitable "
                                    f"{body['invitable']!r} on a public thread")
        else:
            self._need(channel_id, CREATE_PRIVATE, "Create Private Threads")
        thread = self._thread(channel_id, body.get("name", ""), wanted, body)
        await fake.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        return reply(thread, 201)

    async def _thread_from_message(self, channel_id: int, kind: int, message_id: int,
                                   body: dict[str, Any]) -> web.Response:
        """Start Thread from Message: a public thread in a text channel, an announcement
        thread in an announcement channel; the thread's id is the message's."""
        fake = self.fake
        if kind not in (TEXT, ANNOUNCEMENT):
            raise Refused(400, 50024, "Cannot execute action on this channel type")
        message = fake.messages.get(message_id)
        if message is None or message.channel_id != channel_id:
            return reply({"message": "Unknown Message", "code": 10008}, 404)
        if message_id in fake.channels:
            raise Refused(400, 160004, "A thread has already been created for this message")
        self._need(channel_id, CREATE_PUBLIC, "Create Public Threads")
        made = ANNOUNCEMENT_THREAD if kind == ANNOUNCEMENT else PUBLIC_THREAD
        thread = self._thread(channel_id, body.get("name", ""), made, body,
                              thread_id=message_id)
        await fake.dispatch("THREAD_CREATE", dict(thread, newly_created=True))
        return reply(thread, 201)


def reply(data: Any, status: int = 200) -> web.Response:
    """A JSON answer with the exact ``Content-Type`` discord.py checks."""
    return web.Response(status=status, body=json.dumps(data).encode(),
                        headers={"Content-Type": "application/json"})


def _now() -> str:
    from fake_discord import now

    return now()
