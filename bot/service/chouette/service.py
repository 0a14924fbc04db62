"""The /chouette commands: open, join, leave, start, suggest, status.

The rules are in :mod:`engine.chouette` (pure values); the game in progress is seated
by :class:`~bot.service.chouette.seating.ChouetteSeating`.

Storage.  A chouette is a ``chouettes`` row (rules: variant, rule options and
:class:`~engine.chouette.TableOptions`; state: :class:`~bot.service.core.state.TableState`)
with its members in ``chouette_members`` (list order = ``position``).  Each game of
the chouette is its own money match row (``length`` 0, the table's stake) with
``chouette_id`` set: white is the box, black the captain.

Every command is one transaction under the channel's lock (the action runner's
``transact``); game changes go through a :class:`~bot.service.core.work.Work` and commit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from bot.config import Config
from bot.service.chouette.seating import (
    MAX_SUGGESTIONS,
    ChouetteSeating,
    chouette_game,
    describe_seats,
    load_table,
    new_game_row,
    points_text,
)
from bot.service.core import fairdice, money
from bot.service.core.limits import MAX_STAKE, MAX_TEXT, check_options, quoted
from bot.service.core.observe import kind_of, naming
from bot.service.core.replies import Refusal, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.state import Suggestion, TableState
from bot.service.core.values import Actor, Place, bad_ids, without_server
from bot.service.core.work import Work
from bot.service.play.autoplay import AutoPlay
from bot.service.play.endings import Endings
from bot.service.settings.service import SettingsService, refuse_channel
from bot.storage.interface import (
    ChouetteRow,
    ChouetteStatus,
    MatchStatus,
    StorageError,
    Transaction,
    clean_text,
)
from engine.chouette import (
    Draw,
    GameStakes,
    Stand,
    Table,
    TableOptions,
    draw_seats,
    signed_points,
)
from engine.errors import BackgammonError
from engine.game import Phase
from engine.player import Player
from engine.rules import RuleOptions
from engine.scoring import ResultKind
from engine.variant import get_variant
from engine.words import counted

STALE = ("The table changed before your command arrived (someone acted at the same "
         "moment): try again.")

Body = Callable[[Transaction, ChouetteRow | None], Awaitable[Reply]]


def need(crow: ChouetteRow | None) -> ChouetteRow:
    if crow is None:
        raise Refusal("There is no chouette in this channel: open one with /chouette open.")
    return crow


def points_note(points: Fraction | None, stake: int) -> str:
    """", points -2 1/2" after a money total when the points are not the money (a stake
    other than 1, or a share that is not whole: issue 30 item 1)."""
    if points is None or (stake == 1 and points.denominator == 1):
        return ""
    return f" ({signed_points(points)} {'point' if abs(points) == 1 else 'points'})"


def members(table: Table) -> list[tuple[int, int | None]]:
    return [(m.user, m.throw) for m in table.members]


CHOUETTE_WHY = ("a table of three or more players, who come and go, is run in a server's "
                "channel, where I post its boards and seat the newcomers.")

class ChouetteService:
    """The /chouette commands, on the action runner's storage, locks and dice."""

    def __init__(self, runner: ActionRunner, autoplay: AutoPlay, endings: Endings,
                 seating: ChouetteSeating, config: Config, *,
                 settings: SettingsService) -> None:
        self.runner = runner
        self.autoplay = autoplay
        self.endings = endings
        self.seating = seating
        self.config = config
        self.settings = settings
        """Each server's defaults (variant, rules, where games start)."""

    async def _run(self, place: Place, actor: Actor, body: Body) -> Reply:
        """``body`` on the channel's chouette (or None) as one transaction."""
        if not place.in_server:
            return Reply.refuse(without_server(place, "A chouette table", CHOUETTE_WHY))

        async def run(tx: Transaction) -> Reply:
            await tx.upsert_user(actor.id, actor.name, actor.is_bot)
            crow = await tx.open_chouette_in_channel(place.channel_id)
            if crow is not None and crow.guild_id != place.guild_id:
                crow = None
            return await body(tx, crow)

        with naming(kind_of(body)):
            return await self.runner.transact(place, actor, run, stale=STALE, note_user=False)

    async def _game_work(self, tx: Transaction, crow: ChouetteRow, actor: Actor) -> Work | None:
        """The work on the chouette's game in progress, if any."""
        row = await tx.open_match_in_channel(crow.channel_id)
        if row is None or row.chouette_id != crow.id or row.status is not MatchStatus.ACTIVE:
            return None
        loaded = await self.runner.load_row(tx, row)
        if loaded.game is None:
            return None
        return self.runner.work(tx, loaded, actor)

    # -- open, join, leave, start -------------------------------------------------------

    async def open(self, place: Place, actor: Actor, *, stake: int = 1,
                   refusal: str = "lose-to-captain", captain_refusal: str = "final-word",
                   cap: int = 6, box_partners: int = 0, variant: str | None = None,
                   rules: dict[str, Any] | None = None) -> Reply:
        """Open a chouette table in this channel; ``actor`` is its first player."""
        if not place.in_server:
            return Reply.refuse(without_server(place, "A chouette table", CHOUETTE_WHY))
        if isinstance(stake, bool) or not isinstance(stake, int) or not 0 <= stake <= MAX_STAKE:
            return Reply.refuse(f"The stake is a whole number from 0 to {MAX_STAKE}.")
        asked_in = rules or {}
        try:
            check_options("chouette", [str(refusal), str(captain_refusal), variant or "",
                                       *map(str, asked_in), *map(str, asked_in.values())],
                          len(asked_in))
        except Refusal as too_long:
            return Reply.refuse(str(too_long))
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            server = await self.settings.of(place.guild_id)
        except StorageError as error:
            return Reply.refuse(str(error))
        if not server.games_allowed(place):
            return refuse_channel("Chouette tables don't open in this channel on this server: "
                                  "nothing was opened.", "Games start in ",
                                  server.game_channels)
        try:
            options = TableOptions.from_values(refusal=refusal, captain_refusal=captain_refusal,
                                               cap=cap, box_partners=box_partners, stake=stake)
            variant_cls = get_variant(variant or server.variant)
            asked = dict(rules or {})
            rule_options = RuleOptions.from_dict({**server.rules, **asked})
            if rule_options.beavers:
                if "beavers" in asked:
                    return Reply.refuse("Beavers are not used in a chouette: each partner "
                                        "answers the box's double for himself.")
                # A server that plays beavers by default opens chouettes without them.
                rule_options = replace(rule_options, beavers=False)
            # The money bound: the box's result counts against every player of the team.
            rule_options = money.capped(rule_options, stake, options.cap)
        except BackgammonError as error:
            return Reply.refuse(quoted(error))

        async def body(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            if crow is not None:
                raise Refusal("This channel already has a chouette: /chouette join it.")
            if await tx.open_chouette_in_channel(place.channel_id) is not None:
                # Channel ids are unique across servers: another server's table here
                # (only a non-Discord adapter can say so) is refused as /challenge does.
                raise Refusal("This channel already has a chouette table: open yours in "
                              "another channel or thread.")
            if await tx.open_match_in_channel(place.channel_id) is not None:
                raise Refusal("This channel has a game in progress: open the chouette in "
                              "another channel or thread.")
            new = await tx.insert_chouette(
                guild_id=place.guild_id, channel_id=place.channel_id,
                rules={"variant": variant_cls.name, "rules": rule_options.to_dict(),
                       "options": options.to_dict()},
                state=TableState().to_dict())
            await tx.set_chouette_members(new.id, [(actor.id, None)])
            text = (f"{actor.name} opens a chouette of {variant_cls.title}.\n"
                    f"Table: {'; '.join(options.describe())}.\n"
                    f"Rules: {'; '.join(variant_cls().rule_lines(rule_options, money=True))}.\n"
                    f"Join with /chouette join; /chouette start when {options.min_players} "
                    "or more are at the table.")
            if server.clock != "none":  # issue 44 item 8: the server's clock is not for it
                text += (f"\nA chouette is played without a clock (the server's clock "
                         f"{server.clock} is for two-player matches).")
            return Reply(ok=True, text=text)

        return await self._run(place, actor, body)

    async def join(self, place: Place, actor: Actor) -> Reply:
        """Sit at the table, at the foot of the list (003 ch.5)."""
        async def body(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = need(crow)
            table = (await load_table(tx, crow)).join(actor.id)
            await tx.set_chouette_members(crow.id, members(table))
            await tx.update_chouette(crow.id, crow.version)
            where = len(table.members)
            text = f"{actor.name} joins the chouette at the foot of the list (place {where})."
            if crow.status is ChouetteStatus.PLAYING:
                text += " You play from the next game."
            elif table.ready:
                text += " The table can start: /chouette start."
            else:
                text += (f" {table.options.min_players - len(table.members)} more needed to "
                         "start.")
            advice = table.split_advice  # 003 ch.5: above five players, split the table
            if advice:
                text += f"\n{advice}"
            return Reply(ok=True, text=text)

        return await self._run(place, actor, body)

    async def leave(self, place: Place, actor: Actor, confirm: bool = False) -> Reply:
        """Leave the table.  During a game in which ``actor`` has a stake, leaving is a
        drop at the game's current value, and needs ``confirm``."""
        async def body(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = need(crow)
            table = await load_table(tx, crow)
            work = await self._game_work(tx, crow, actor)
            stakes = self.seating.stakes(work) if work is not None else None
            playing = stakes is not None and (
                actor.id == stakes.box
                or (stakes.on_team(actor.id) and stakes.stake(actor.id).stand is Stand.IN))
            if actor.id not in table.users and not playing:
                raise Refusal("You are not at this chouette table.")
            if actor.id in table.users:
                table = table.leave(actor.id)
                await tx.set_chouette_members(crow.id, members(table))
            if not playing or work is None or stakes is None:
                note = ""
                if stakes is not None and actor.id in stakes.box_side:
                    # A box partner's share was fixed when the game began: he has no
                    # decision to drop, so his share stands to the end of this game.
                    note = (f" {actor.name} still shares the box's result of the game in "
                            "progress, as when it began.")
                return await self._left(tx, crow, table, actor, note)
            await tx.update_chouette(crow.id, crow.version)
            return await self._leave_game(work, stakes, actor, confirm)

        return await self._run(place, actor, body)

    async def _left(self, tx: Transaction, crow: ChouetteRow, table: Table,
                    actor: Actor, note: str = "") -> Reply:
        text = f"{actor.name} leaves the chouette.{note}"
        if not table.members:
            await tx.update_chouette(crow.id, crow.version, status=ChouetteStatus.CLOSED)
            text += " The table is empty and closes."
        else:
            await tx.update_chouette(crow.id, crow.version)
            if crow.status is ChouetteStatus.PLAYING and not table.ready:
                text += (" The game in progress finishes; then the table waits for "
                         f"{counted(table.options.min_players, 'player')}.")
        return Reply(ok=True, text=text)

    async def _leave_game(self, work: Work, stakes: GameStakes, actor: Actor,
                          confirm: bool) -> Reply:
        game = work.current_game()
        if game.phase in (Phase.DOUBLED, Phase.RESIGNATION):
            raise Refusal("A double or a resignation is waiting for an answer: settle it first "
                          "(a partner's /drop retires him from this game), then leave.")
        seating = self.seating
        box = actor.id == stakes.box
        loser = Player.WHITE if box else Player.BLACK
        ended = game.forfeit(loser, ResultKind.SINGLE).result
        assert ended is not None
        value = ended.points
        if not confirm:
            raise Refusal(f"You have a stake in the game in progress: leaving now counts as "
                          f"dropping at its current value, {points_text(value)}"
                          + (" against each player on the team" if box else "")
                          + ". Leave again with confirm to do it.")
        options = seating.options(work)
        name = seating.name(work, actor.id)
        if not box and actor.id != stakes.captain:
            new_stakes, retired = stakes.retire([actor.id], value, options.refusal)
            seating.put(work, new_stakes)
            work.lines.append(f"{name} leaves the table.")
            seating.retired_lines(work, retired)
            return await self.runner.commit(work)
        if not box:
            handed = stakes.hand_over(value, options.refusal)
            if handed is not None:
                new_stakes, retired = handed
                seating.put(work, new_stakes)
                seating.set_captain(work, new_stakes.captain)
                work.lines.append(f"{name} leaves the table; "
                                  f"{seating.name(work, new_stakes.captain)} is the new captain.")
                seating.retired_lines(work, retired)
                return await self.runner.commit(work)
        work.lines.append(f"{name} leaves the table and "
                          f"{'the box' if box else 'the team'} forfeits the game.")
        work.game = game.forfeit(loser, ResultKind.SINGLE)
        await self.endings.finish(work)
        await self.autoplay.auto(work)
        return await self.runner.commit(work)

    async def start(self, place: Place, actor: Actor) -> Reply:
        """Throw for the seats (the first time) and start the table's next game."""
        async def body(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = need(crow)
            if crow.status is ChouetteStatus.PLAYING:
                raise Refusal("The chouette is already playing: its next game starts when "
                              "this one ends.")
            table = await load_table(tx, crow)
            if actor.id not in table.users:
                raise Refusal("Only a player at the table can start it: /chouette join first.")
            if not table.ready:
                raise Refusal(f"A chouette needs {counted(table.options.min_players, 'player')}; "
                              f"{len(table.members)} at the table. Others can /chouette join.")
            if await tx.open_match_in_channel(place.channel_id) is not None:
                raise Refusal("This channel has another game in progress: finish it first.")
            full = await money.turnover_reached(tx, crow.guild_id, list(table.users))
            if full:
                users = {u: await tx.get_user(u) for u in full}
                raise Refusal("The chouette can't start: " + money.limit_text(
                    [r.name if r else str(u) for u, r in users.items()]))
            lines: list[str] = []
            state = TableState.from_dict(crow.state)
            if not table.seated:
                seed = self.runner.new_seed()
                stream = self.runner.dice(seed, 0)
                draw = draw_seats(table.users, stream.die)
                table = table.seat(draw)
                users = {u: (await tx.get_user(u)) for u in table.users}
                lines.append(self._draw_text(draw, {u: r.name if r else str(u)
                                                    for u, r in users.items()}))
                lines.append(f"Seat throws from the seed {seed} (SHA-256 "
                             f"{fairdice.seed_hash(seed)}); the game's automatic doubles "
                             "begin only with its own opening throw (Boyden 1930, ch.4).")
                state = replace(state, seated=True, seat_seed=seed, seat_throws=draw.rounds)
                await tx.set_chouette_members(crow.id, members(table))
            crow = await tx.update_chouette(crow.id, crow.version,
                                            status=ChouetteStatus.PLAYING,
                                            state=state.to_dict())
            row = await new_game_row(tx, crow, table, state.games + 1)
            work = self.runner.work(tx, await self.runner.load_row(tx, row), actor)
            work.lines.extend(lines)
            work.lines.append(describe_seats(work, table))
            await self.endings.next_game(work)
            await self.autoplay.auto(work)
            return await self.runner.commit(work)

        return await self._run(place, actor, body)

    @staticmethod
    def _draw_text(draw: Draw, names: dict[int, str]) -> str:
        parts = []
        for i, throws in enumerate(draw.rounds):
            label = "Seat throw" if i == 0 else "Tie, thrown again"
            parts.append(f"{label}: " + ", ".join(f"{names[u]} {d}" for u, d in throws) + ".")
        return " ".join(parts) + " Order: " + ", ".join(names[u] for u in draw.order) + "."

    # -- suggest, status -----------------------------------------------------------------

    async def suggest(self, place: Place, actor: Actor, text: str) -> Reply:
        """A partner suggests a play or a cube action; the captain sees it with the board."""
        async def body(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = need(crow)
            work = await self._game_work(tx, crow, actor)
            if work is None or work.game is None:
                raise Refusal("No chouette game is in progress: suggestions are for the game "
                              "being played.")
            stakes = self.seating.stakes(work)
            if not stakes.on_team(actor.id):
                raise Refusal("Only the captain's partners make suggestions to the captain.")
            if actor.id == stakes.captain:
                raise Refusal("You are the captain: your decision is the team's; just play.")
            said = clean_text(text).strip()
            if not said:
                raise Refusal("Suggest something: a play (/chouette suggest 13/7 8/7) or a "
                              "cube action (double, take, drop).")
            if len(said) > MAX_TEXT:
                raise Refusal("That suggestion is too long "
                              f"({counted(len(said), 'character')}; at most {MAX_TEXT}).")
            kept = chouette_game(work).suggestions[-(MAX_SUGGESTIONS - 1):]
            self.seating.put(work, stakes, suggestions=(
                *kept, Suggestion(actor.id, len(work.game.record), said)))
            work.lines.append(f"{actor.name} has a suggestion for the captain.")
            return await self.runner.commit(work)

        return await self._run(place, actor, body)

    async def status(self, place: Place, actor: Actor) -> Reply:
        """The table: options, the list in order with roles, money so far, this game."""
        async def body(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = need(crow)
            table = await load_table(tx, crow)
            totals = await tx.chouette_totals(crow.id)
            points = await tx.chouette_points(crow.id)
            games = TableState.from_dict(crow.state).games
            lines = [f"Chouette ({crow.status}), {counted(games, 'game')} played. "
                     f"Table: {'; '.join(table.options.describe())}."]
            for i, member in enumerate(table.members, 1):
                user = await tx.get_user(member.user)
                name = user.name if user else str(member.user)
                throw = f", threw {member.throw}" if member.throw is not None else ""
                lines.append(f"{i}. {name} ({table.role(member.user)}{throw}) "
                             f"{totals.get(member.user, 0):+d}"
                             + points_note(points.get(member.user), table.options.stake))
            gone = [u for u in totals if u not in table.users]
            for u in gone:
                user = await tx.get_user(u)
                lines.append(f"   {user.name if user else u} (left) {totals[u]:+d}"
                             + points_note(points.get(u), table.options.stake))
            work = await self._game_work(tx, crow, actor)
            if work is not None and work.game is not None:
                seating = self.seating
                stakes = seating.stakes(work)
                parts = []
                for s in stakes.team:
                    state = "retired" if s.stand is Stand.RETIRED else (
                        f"in, {counted(s.shares, 'share')}" if s.shares != 1 else "in")
                    parts.append(f"{seating.name(work, s.user)} {state}")
                lines.append(f"Game {chouette_game(work).game}: box "
                             f"{seating.name(work, stakes.box)} vs captain "
                             f"{seating.name(work, stakes.captain)}, cube "
                             f"{work.game.cube.value}; team: " + ", ".join(parts) + ".")
            return Reply(ok=True, text="\n".join(lines), ephemeral=True)

        return await self._run(place, actor, body)
