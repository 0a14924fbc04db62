"""The matchmaking queue (issue 44 item 2): ``/queue join [length] [variant] [clock]
[rated]``, ``/queue leave``, ``/queue status``.

* The server's waiting players are paired when their terms are the same (length, variant,
  clock, rated), **closest ratings first**; the rating gap a player accepts starts at
  :data:`BASE_GAP` and widens by :data:`GAP_PER_MINUTE` each minute he waits (a pair fits
  when the gap is within what the longer-waiting of the two accepts).
* Pairing is part of the timer's due work (:meth:`Queue.due`, within a quarter of a second
  of a join): the earlier player challenges the later one in the channel where the later
  joined, and both are taken off the queue **in the challenge's transaction** (each row
  deleted as it was read: a pair that another process took first, or a player who left
  meanwhile, rolls it back), then the later player accepts at once.  Both are mentioned.
* A player nobody was found for in :data:`WAIT_MINUTES` leaves the queue, once, and is
  told so.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.service.core.limits import MAX_MATCH_LENGTH
from bot.service.core.replies import Mention, Refusal, Reply, notice
from bot.service.core.runner import ActionRunner
from bot.service.core.spans import span
from bot.service.core.timecontrol import ClockError
from bot.service.core.values import Actor, Place, bad_ids, without_server
from bot.service.lobby.listing import lobby
from bot.service.play.challenges import Challenges, clock_for
from bot.service.settings.service import SettingsService, refuse_channel
from bot.storage.interface import QueueEntry, StorageError, Transaction
from engine.variant import get_variant
from engine.words import article, counted

BASE_GAP = 100
"""The rating gap every waiting player accepts at once."""
GAP_PER_MINUTE = 50
"""How much wider it gets each minute he waits."""
WAIT_MINUTES = 60
"""How long a player waits before he leaves the queue by himself."""
NEEDS_A_SERVER = ("the queue pairs a server's players: here, challenge the other person by "
                  "name (/challenge @user).")


def accepted_gap(entry: QueueEntry, now: datetime) -> float:
    waited = (now - datetime.fromisoformat(entry.joined_at)).total_seconds() / 60
    return BASE_GAP + GAP_PER_MINUTE * max(0.0, waited)


def terms_of(entry: QueueEntry) -> tuple[int, str, str, bool]:
    return entry.length, entry.variant, entry.clock, entry.rated


def waits(count: int) -> str:
    """The verb after a count of players: "1 player waits", "2 players wait"."""
    return "waits" if count == 1 else "wait"


def terms_text(entry: QueueEntry) -> str:
    what = article(f"{entry.length}-point match") if entry.length else "money play"
    clock = "" if entry.clock == "none" else f", clock {entry.clock}"
    return f"{what} of {entry.variant}{clock}, {'rated' if entry.rated else 'unrated'}"


def pairs(entries: list[QueueEntry], now: datetime) -> list[tuple[QueueEntry, QueueEntry]]:
    """The pairs to make now: same terms, the rating gap within what the longer-waiting
    accepts, closest ratings first (ties: who waited longest), each player once."""
    fits: list[tuple[float, str, QueueEntry, QueueEntry]] = []
    for i, a in enumerate(entries):
        for b in entries[i + 1:]:
            if a.guild_id != b.guild_id or terms_of(a) != terms_of(b):
                continue
            gap = abs(a.rating - b.rating)
            if gap <= max(accepted_gap(a, now), accepted_gap(b, now)):
                fits.append((gap, min(a.joined_at, b.joined_at), a, b))
    fits.sort(key=lambda f: (f[0], f[1]))
    taken: set[tuple[int, int]] = set()
    out: list[tuple[QueueEntry, QueueEntry]] = []
    for _, _, a, b in fits:
        if (a.guild_id, a.user_id) in taken or (b.guild_id, b.user_id) in taken:
            continue
        taken |= {(a.guild_id, a.user_id), (b.guild_id, b.user_id)}
        first, later = sorted((a, b), key=lambda e: (e.joined_at, e.user_id))
        out.append((first, later))
    return out


@dataclass(frozen=True, slots=True)
class Wanted:
    """What a player asks the queue for."""

    length: int = 3
    variant: str | None = None
    clock: str | None = None
    rated: bool = True
    bot_after: float = 0.0
    """Minutes after which he plays the bot if nobody was found (0: never)."""


class Queue:
    """Joining, leaving, looking at and pairing the server's queue."""

    def __init__(self, runner: ActionRunner, challenges: Challenges,
                 settings: SettingsService,
                 after_ai: Callable[[Place, Reply], Awaitable[Reply]] | None = None) -> None:
        self.runner = runner
        self.challenges = challenges
        self.settings = settings
        self.after_ai = after_ai
        """Lets the bot answer in a game against it (its first turns)."""

    async def join(self, place: Place, actor: Actor, wanted: Wanted = Wanted()) -> Reply:
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        if not place.in_server:
            return Reply.refuse(without_server(place, "The queue", NEEDS_A_SERVER))
        if not 0 <= wanted.length <= MAX_MATCH_LENGTH:
            return Reply.refuse(f"A match is 1 to {MAX_MATCH_LENGTH} points (or 0 for money "
                                "play).")
        try:
            server = await self.settings.of(place.guild_id)
            variant = get_variant(wanted.variant or server.variant).name
            spec, _ = clock_for(wanted.clock, server.clock, wanted.length)
        except StorageError as error:
            return Reply.refuse(str(error))
        except (ClockError, ValueError) as error:
            return Reply.refuse(str(error)[:300])
        if not 0 <= wanted.bot_after < WAIT_MINUTES:
            return Reply.refuse(f"bot_after is the minutes after which you play the bot if "
                                f"nobody was found: more than 0, less than {WAIT_MINUTES}.")
        if wanted.bot_after and (self.challenges.ai is None or self.challenges.ai_actor is None
                                 or not server.ai):
            return Reply.refuse("The bot doesn't play on this server, so the queue can't "
                                "fall back to it: join without bot_after.")
        if not server.games_allowed(place):
            return refuse_channel("Games don't start in this channel on this server, so the "
                                  "queue is not joined here.", "Games start in ",
                                  server.game_channels)
        now = self.runner.clock().isoformat(timespec="milliseconds")

        async def body(tx: Transaction) -> Reply:
            rating = (await tx.rating(place.guild_id, actor.id)).rating
            entry = QueueEntry(place.guild_id, actor.id, place.channel_id, wanted.length,
                               variant, spec.text if spec is not None else "none",
                               wanted.rated, rating, now, wanted.bot_after)
            if not await tx.join_queue(entry):
                raise Refusal("You are already in the queue: /queue status shows it, "
                              "/queue leave takes you off.")
            waiting = [e for e in await tx.queue_entries(place.guild_id)
                       if e.user_id != actor.id and terms_of(e) == terms_of(entry)]
            return Reply(ok=True, ephemeral=True, text=(
                f"You are in the queue for {terms_text(entry)} (your rating {rating:.0f}). "
                f"{counted(len(waiting), 'other player')} {waits(len(waiting))} for the same. "
                f"You are paired with the "
                f"closest rating, the gap you accept widening while you wait; after "
                f"{span(WAIT_MINUTES)} without a match you leave the queue. /queue leave "
                "takes you off."))

        return await self.runner.transact(place, actor, body)

    async def leave(self, place: Place, actor: Actor) -> Reply:
        if not place.in_server:
            return Reply.refuse(without_server(place, "The queue", NEEDS_A_SERVER))

        async def body(tx: Transaction) -> Reply:
            mine = [e for e in await tx.queue_entries(place.guild_id) if e.user_id == actor.id]
            if not mine:
                raise Refusal("You are not in the queue (you may have been paired, or timed "
                              "out): /queue join puts you in it.")
            await tx.take_from_queue(mine[0])
            return Reply(ok=True, ephemeral=True, text=(
                f"You left the queue (you waited for {terms_text(mine[0])})."))

        return await self.runner.transact(place, actor, body,
                                          stale="You were paired (or left) at that moment: "
                                                "look at the channel.")

    async def status(self, place: Place, actor: Actor) -> Reply:
        if not place.in_server:
            return Reply.refuse(without_server(place, "The queue", NEEDS_A_SERVER))
        try:
            async with self.runner.storage.snapshot() as tx:
                entries = await tx.queue_entries(place.guild_id)
        except StorageError as error:
            return Reply.refuse(str(error))
        return Reply(ok=True, ephemeral=True, text=self.describe(entries, actor.id))

    async def lobby(self, place: Place, actor: Actor) -> Reply:
        """``/lobby``: the server's open challenges and this queue
        (:mod:`bot.service.lobby.listing`)."""
        return await lobby(self.runner, place, actor, self.describe)

    def describe(self, entries: list[QueueEntry], user_id: int | None = None) -> str:
        """The queue in words: how many wait, for what (and the asker's own place)."""
        if not entries:
            return "Nobody is waiting in the queue: /queue join starts it."
        groups: dict[str, int] = {}
        for entry in entries:
            groups[terms_text(entry)] = groups.get(terms_text(entry), 0) + 1
        lines = [f"{counted(len(entries), 'player')} {waits(len(entries))} in the queue:"]
        lines += [f"- {n} for {what}" for what, n in groups.items()]
        now = self.runner.clock()
        for entry in entries:
            if entry.user_id == user_id:
                waited = (now - datetime.fromisoformat(entry.joined_at)).total_seconds() / 60
                lines.append(f"You wait for {terms_text(entry)} since {span(waited)}; you "
                             f"accept a rating gap of {accepted_gap(entry, now):.0f} now.")
        return "\n".join(lines)

    # --------------------------------------------------------------- due work

    async def due(self) -> list[tuple[int, Reply]]:
        """Time out who waited too long, then pair who fits: (channel, reply) to post."""
        now = self.runner.clock()
        async with self.runner.storage.snapshot() as tx:
            entries = await tx.queue_entries()
        if not entries:
            return []
        out: list[tuple[int, Reply]] = []
        limit = timedelta(minutes=WAIT_MINUTES)
        staying = []
        for entry in entries:
            if now - datetime.fromisoformat(entry.joined_at) >= limit:
                told = await self.time_out(entry)
                if told is not None:
                    out.append(told)
            else:
                staying.append(entry)
        paired: set[int] = set()
        for first, later in pairs(staying, now):
            made = await self.pair(first, later)
            if made is not None:
                out.append(made)
                paired |= {first.user_id, later.user_id}
        for entry in staying:  # nobody found in time: the bot, for who asked for it
            waited = (now - datetime.fromisoformat(entry.joined_at)).total_seconds() / 60
            if entry.bot_after and waited >= entry.bot_after and entry.user_id not in paired:
                played = await self.play_bot(entry)
                if played is not None:
                    out.append(played)
        return out

    async def play_bot(self, entry: QueueEntry) -> tuple[int, Reply] | None:
        """``entry``'s player, taken off the queue, plays the bot (unrated) where he joined."""
        bot = self.challenges.ai_actor
        if bot is None:
            return None
        name, _ = await self.names(entry.user_id, bot.id)
        player = Actor(entry.user_id, name)
        place = Place(entry.guild_id, entry.channel_id)

        async def take(tx: Transaction) -> None:
            await tx.take_from_queue(entry)

        made = await self.challenges.challenge(
            place, player, bot, length=entry.length, variant=entry.variant, clock=entry.clock,
            rated=False, before=take)
        if not made.ok:
            return None
        if self.after_ai is not None:
            made = await self.after_ai(place, made)
        head = notice(Mention(player.id, player.name), f", nobody was found for you in "
                      f"{span(entry.bot_after)}: you play me (the bot), unrated, as you asked.")
        return entry.channel_id, replace(made, notify=(head, *made.notify))

    async def time_out(self, entry: QueueEntry) -> tuple[int, Reply] | None:
        async def body(tx: Transaction) -> Reply:
            await tx.take_from_queue(entry)
            return Reply(ok=True, text="", notify=(notice(
                Mention(entry.user_id), f", nobody was found for you in {span(WAIT_MINUTES)}"
                f" ({terms_text(entry)}): you left the queue. /queue join tries again."),))

        place = Place(entry.guild_id, entry.channel_id)
        reply = await self.runner.transact(place, Actor(entry.user_id, ""), body,
                                           note_user=False)
        return (entry.channel_id, reply) if reply.ok else None

    async def pair(self, first: QueueEntry, later: QueueEntry) -> tuple[int, Reply] | None:
        """``first`` challenges ``later`` in the server's queue channel (``/settings
        queue_channel``), else where ``later`` joined (the next channel when one already has
        a game), both taken off the queue in the challenge's transaction; ``later`` accepts
        at once."""
        names = await self.names(first.user_id, later.user_id)
        white = Actor(first.user_id, names[0])
        black = Actor(later.user_id, names[1])

        async def take(tx: Transaction) -> None:
            await tx.take_from_queue(first)
            await tx.take_from_queue(later)

        try:  # the server's channel for them (/settings queue_channel), else the later's
            chosen = (await self.settings.of(later.guild_id)).queue_channel
        except StorageError:
            chosen = None
        for channel in dict.fromkeys(c for c in (chosen, later.channel_id, first.channel_id)
                                     if c is not None):
            place = Place(later.guild_id, channel)
            made = await self.challenges.challenge(
                place, white, black, length=later.length, variant=later.variant,
                clock=later.clock, rated=later.rated, before=take)
            if made.ok:
                started = await self.challenges.accept(place, black)
                head = notice("Paired from the queue: ", Mention(white.id, white.name),
                              f" ({first.rating:.0f}) and ", Mention(black.id, black.name),
                              f" ({later.rating:.0f}), {terms_text(later)}.")
                shown = started if started.ok else made
                return channel, Reply(ok=True, text=shown.text, boards=shown.boards,
                                      buttons=shown.buttons, notify=(head, *shown.notify),
                                      match_id=shown.match_id, version=shown.version)
            if "already has a game" not in made.text:
                return None  # taken by another process, left meanwhile, or refused
        return None

    async def names(self, white: int, black: int) -> tuple[str, str]:
        """The two players' stored names (their ids while the database is away)."""
        out = [str(white), str(black)]
        try:
            async with self.runner.storage.snapshot() as tx:
                for i, user_id in enumerate((white, black)):
                    user = await tx.get_user(user_id)
                    if user is not None:
                        out[i] = user.name
        except StorageError:
            pass
        return out[0], out[1]

