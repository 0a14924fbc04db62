"""Chouette in the game service: the table's commands and the per-game table strategy.

The rules are in :mod:`bot.chouette` (pure values); this module stores them and
connects them to :class:`~bot.service.GameService`.

Storage.  A chouette is a ``chouettes`` row (rules: variant, rule options and
:class:`~bot.chouette.TableOptions`; state: seated, games played, the seat
throw) with its members in ``chouette_members`` (list order = ``position``).
Each game of the chouette is its own money match row (``length`` 0, the
table's stake) with ``chouette_id`` set: white is the box, black the captain.
The money side of the game in progress (who is in, shares, partners' answers
to the box's double, suggestions) is in that match row's ``state["chouette"]``,
so it is written in the same transaction, with the same version check, as
the game itself, and a new service on the same database resumes mid-game.

Every command is one transaction under the channel's lock, like the game
service's own operations; game changes go through the game service's
``Work`` and commit.

Game end (:meth:`ChouetteTable.finish`): every player's ledger entry (zero-sum,
with ``chouette_id``), the settlement table, the match row finished, the table
rotated (003 ch.5, 004), and -- with enough players -- the next game's match
row and opening throw, all in the action's transaction.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from bot import fairdice
from bot.chouette import (
    ChouetteError,
    Draw,
    GameStakes,
    Member,
    Retirement,
    Stand,
    Table,
    TableOptions,
    draw_seats,
    settlement,
)
from bot.replies import Act, Button, Refusal, Reply
from bot.repository import (
    ChouetteRow,
    LedgerEntry,
    MatchRow,
    StaleVersionError,
    StorageError,
    Transaction,
)
from bot.service import MAX_TEXT, Actor, GameService, Place, Work
from bot.views import chouette_panel
from engine.errors import BackgammonError
from engine.game import Game, Phase
from engine.player import Player
from engine.record import Event, Roll
from engine.rules import RuleOptions
from engine.scoring import Result, ResultKind
from engine.variant import get_variant
from render.view import ChouetteView, StakeState

MAX_SUGGESTIONS = 10
"""Suggestions kept per game (the oldest are dropped)."""


def _name(work: Work, user: int) -> str:
    """A player's name as stored with the game in progress."""
    data = work.state.get("chouette")
    names = data.get("names", {}) if isinstance(data, dict) else {}
    return str(names.get(str(user), user))


def _pts(value: int | Fraction) -> str:
    """"1 point", "2 points", "1/2 point" (exact: the 000 rule shares in fractions)."""
    return f"{value} point{'s' if value > 1 else ''}"


# ----------------------------------------------------------- the game's table

class ChouetteTable:
    """The table strategy of a chouette game (see :mod:`bot.table`)."""

    def __init__(self, games: GameService) -> None:
        self.games = games

    # -- state of the game in progress (match row state["chouette"]) --------------

    @staticmethod
    def _data(work: Work) -> dict[str, Any]:
        data = work.state.get("chouette")
        if not isinstance(data, dict):
            raise Refusal("This chouette game has lost its table data; ask an admin.")
        return data

    def stakes(self, work: Work) -> GameStakes:
        return GameStakes.from_dict(self._data(work)["stakes"])

    def options(self, work: Work) -> TableOptions:
        return TableOptions.from_dict(self._data(work)["options"])

    def _put(self, work: Work, stakes: GameStakes, **more: Any) -> None:
        # Never mutate the nested dict: it is shared with the cached row's state.
        work.state["chouette"] = {**self._data(work), "stakes": stakes.to_dict(), **more}

    def name(self, work: Work, user: int) -> str:
        return _name(work, user)

    def _retired_lines(self, work: Work, retired: tuple[Retirement, ...]) -> None:
        for r in retired:
            if len(r.receivers) == 1:
                to = f"{self.name(work, r.receivers[0][0])}, who carries the share"
            else:
                to = " and ".join(f"{self.name(work, u)} ({_pts(p)})" for u, p in r.receivers)
                to += ", who share his share equally"
            work.lines.append(f"{self.name(work, r.user)} retires from this game, losing "
                              f"{_pts(r.points)} to {to}.")

    def _set_captain(self, work: Work, user: int) -> None:
        row = replace(work.row, black_id=user)
        names = (work.loaded.names[0], self.name(work, user))
        work.loaded = replace(work.loaded, row=row, names=names)
        work.row_changes["black_id"] = user

    # -- the hooks ------------------------------------------------------------------

    def refuse_outsider(self, work: Work, actor: Actor) -> None:
        stakes = self.stakes(work)
        captain = self.name(work, stakes.captain)
        if stakes.on_team(actor.id):
            raise Refusal(f"{captain} is the captain: only the captain rolls, moves and "
                          "doubles for the team. Suggest a play or a cube action with "
                          "/chouette suggest; answer the box's doubles for yourself with "
                          "/take or /drop.")
        if actor.id in stakes.box_side:
            raise Refusal(f"You share the box's result; {self.name(work, stakes.box)} plays "
                          "for the box.")

    async def answer_double(self, work: Work, take: bool) -> bool:
        game = work.game
        stakes = self.stakes(work)
        actor = work.actor.id
        if game is None or not stakes.on_team(actor):
            return False
        offer = game.cube.offer
        from_box = game.phase is Phase.DOUBLED and offer is not None and (
            offer.answerer is Player.BLACK)
        if actor != stakes.captain:
            if stakes.stake(actor).stand is not Stand.IN:
                raise Refusal("You retired from this game; you are back in the next game.")
            if not from_box:
                raise Refusal("There is no double from the box to answer now"
                              + (": the box answers the team's double." if (
                                  game.phase is Phase.DOUBLED) else "."))
            self._put(work, stakes.answer(actor, take))
            work.lines.append(
                f"{self.name(work, actor)} {'takes' if take else 'drops'} (a partner's own "
                f"answer; the captain {self.name(work, stakes.captain)} answers for the team).")
            return True
        if not from_box or actor != work.row.black_id:
            return False
        ended = game.drop(Player.BLACK).result
        assert ended is not None
        value = ended.points
        options = self.options(work)
        if take:
            taken, retired = stakes.captain_takes(value, options.refusal)
            self._put(work, taken)
            self._retired_lines(work, retired)
            return False
        handed = stakes.captain_drops(value, options.refusal, options.captain_refusal)
        if handed is None:
            if any(t for _, t in stakes.answers):
                work.lines.append("The captain's word is final: the whole team drops.")
            self._put(work, replace(stakes, answers=()))
            return False
        new_stakes, retired = handed
        old = self.name(work, stakes.captain)
        self._put(work, new_stakes)
        self._set_captain(work, new_stakes.captain)
        work.lines.append(f"{old} drops; {self.name(work, new_stakes.captain)} took, and "
                          "takes over as captain.")
        self._retired_lines(work, retired)
        work.game = game.take(Player.BLACK)
        work.lines.append(f"{self.name(work, new_stakes.captain)} takes: the cube is at "
                          f"{work.game.cube.value}.")
        await self.games._auto(work)
        return True

    def check_forfeit(self, work: Work) -> None:
        raise Refusal("In a chouette, leave the table with /chouette leave (during a game it "
                      "counts as dropping at the game's current value).")

    def panel(self, work: Work, game: Game) -> ChouetteView:
        stakes = self.stakes(work)
        team_cube = game.cube.owner is Player.BLACK
        rows: list[tuple[str, StakeState]] = []
        for s in stakes.team:
            if s.user == stakes.captain:
                continue
            state = StakeState.DROPPED if s.stand is Stand.RETIRED else (
                StakeState.OWNS_CUBE if team_cube else StakeState.IN)
            rows.append((self.name(work, s.user), state))
        for u in stakes.box_side[1:]:
            rows.append((f"{self.name(work, u)} (with box)", StakeState.IN))
        return chouette_panel(rows)

    def decorate(self, work: Work, game: Game,
                 buttons: tuple[Button, ...]) -> tuple[Button, ...]:
        stakes = self.stakes(work)
        offer = game.cube.offer
        if game.phase is Phase.DOUBLED and offer is not None and (
                offer.answerer is Player.BLACK) and stakes.partners_in:
            said = []
            for u in stakes.partners_in:
                answer = stakes.answer_of(u)
                said.append(f"{self.name(work, u)} "
                            + ("not yet (goes with the captain)" if answer is None
                               else "takes" if answer else "drops"))
            work.lines.append("Partners' answers: " + "; ".join(said) + ".")
            work.notify.append(
                " ".join(f"<@{u}>" for u in stakes.partners_in)
                + ": answer the box's double for yourselves with /take or /drop before the "
                "captain does; the captain's answer closes it.")
            partners = stakes.partners_in
            buttons = tuple(
                replace(b, users=tuple(sorted({*b.users, *partners})))
                if b.act in (Act.TAKE, Act.DROP) else b for b in buttons)
        fresh = self._fresh_suggestions(work, game)
        if fresh:
            work.lines.append(f"Suggestions for the captain {self.name(work, stakes.captain)}: "
                              + "; ".join(f"{self.name(work, u)}: {t}" for u, t in fresh))
        return buttons

    def _fresh_suggestions(self, work: Work, game: Game) -> list[tuple[int, str]]:
        """Suggestions made since the captain's last decision (a play, a cube action, a
        choice, a resignation; a roll, often automatic, does not count)."""
        out = []
        for user, seq, text in self._data(work).get("suggestions", []):
            later: tuple[Event, ...] = game.record[int(seq):]
            if not any(getattr(ev, "player", None) is Player.BLACK and not isinstance(ev, Roll)
                       for ev in later):
                out.append((int(user), str(text)))
        return out

    async def finish(self, work: Work, result: Result) -> bool:
        """Settle with every player, rotate the table, start the next game."""
        tx = work.tx
        data = self._data(work)
        stakes = self.stakes(work)
        options = self.options(work)
        box_won = result.winner is Player.WHITE
        chouette_id = int(data["id"])
        assert work.game_row is not None
        lines = settlement(stakes, box_won, result.points, options.stake)
        await tx.add_ledger([
            LedgerEntry(work.row.guild_id, line.user, line.points, line.amount, work.row.id,
                        work.game_row.id, chouette_id) for line in lines])
        work.lines.append(self._settlement_text(work, stakes, lines, int(data["game"]),
                                                options.stake))
        crow = await tx.get_chouette(chouette_id)
        assert crow is not None
        table = (await load_table(tx, crow)).after_game(stakes.box, stakes.captains, box_won)
        await tx.set_chouette_members(chouette_id, [(m.user, m.throw) for m in table.members])
        games = int(crow.state.get("games", 0)) + 1
        winner = work.user(result.winner)
        if not table.ready:
            await tx.update_chouette(chouette_id, crow.version, status="open",
                                     state={**crow.state, "games": games})
            work.lines.append(
                f"The table has {len(table.members)} player(s); it needs "
                f"{table.options.min_players} to play on. /chouette join, then /chouette start.")
            work.match_status = "finished"
            work.match_winner = winner
            work.game = None
            work.game_row = None
            work.dice = None
            return True
        await tx.update_chouette(chouette_id, crow.version, state={**crow.state, "games": games})
        await tx.update_match(work.row, state=work.state, status="finished",
                              winner_id=winner, **work.row_changes)
        row = await new_game_row(tx, crow, table, games + 1)
        work.switch_to(await self.games._load_row(tx, row))
        work.lines.append(describe_seats(work, table))
        await self.games._next_game(work)
        return True

    def _settlement_text(self, work: Work, stakes: GameStakes, lines: tuple[Any, ...],
                         number: int, stake: int) -> str:
        roles = {stakes.box: "box", stakes.captain: "captain"}
        for u in stakes.box_side[1:]:
            roles[u] = "with the box"
        for s in stakes.team:
            if s.stand is Stand.RETIRED:
                roles[s.user] = "retired"
        parts = []
        for line in lines:
            role = roles.get(line.user)
            money = f" ({line.amount:+d})" if stake not in (0, 1) else ""
            parts.append(f"{self.name(work, line.user)}"
                         + (f" ({role})" if role else "") + f" {line.points:+d}{money}")
        unit = f"; stake {stake} a point" if stake else ""
        return f"Settlement of chouette game {number}{unit}: " + ", ".join(parts) + "."


# ------------------------------------------------------------------ helpers

async def load_table(tx: Transaction, crow: ChouetteRow) -> Table:
    members = await tx.chouette_members(crow.id)
    return Table(options=TableOptions.from_dict(crow.rules["options"]),
                 members=tuple(Member(m.user_id, m.throw) for m in members),
                 seated=bool(crow.state.get("seated", False)))


async def new_game_row(tx: Transaction, crow: ChouetteRow, table: Table, number: int
                       ) -> MatchRow:
    """The match row of the chouette's next game: white the box, black the captain."""
    names: dict[str, str] = {}
    for user in table.users:
        row = await tx.get_user(user)
        names[str(user)] = row.name if row else str(user)
    state = {"chouette": {"id": crow.id, "game": number, "names": names,
                          "options": crow.rules["options"],
                          "stakes": GameStakes.of_table(table).to_dict(),
                          "suggestions": []}}
    return await tx.insert_match(
        guild_id=crow.guild_id, channel_id=crow.channel_id, white_id=table.box,
        black_id=table.captain, variant=str(crow.rules["variant"]),
        rules=dict(crow.rules["rules"]), length=0, stake=table.options.stake, rated=False,
        status="active", chouette_id=crow.id, state=state)


def describe_seats(work: Work, table: Table) -> str:
    def name(u: int) -> str:
        return _name(work, u)

    number = work.state["chouette"]["game"]
    partners = [name(u) for u in table.team[1:]]
    text = (f"Chouette game {number}: {name(table.box)} in the box against captain "
            f"{name(table.captain)}" + (f" and partners {', '.join(partners)}" if partners
                                          else ""))
    if table.options.box_partners:
        text += f"; with the box: {', '.join(name(u) for u in table.box_side[1:])}"
    return text + "."


# ------------------------------------------------------------------ commands

class ChouetteService:
    """The /chouette commands, on the game service's storage, locks and dice."""

    def __init__(self, games: GameService) -> None:
        self.games = games
        self.storage = games.storage

    async def _run(self, place: Place, actor: Actor,
                   op: Callable[[Transaction, ChouetteRow | None], Awaitable[Reply]]
                   ) -> Reply:
        """``op`` on the channel's chouette (or None) as one transaction."""
        async with self.games._lock(place.channel_id):
            try:
                async with self.storage.transaction() as tx:
                    await tx.upsert_user(actor.id, actor.name, actor.is_bot)
                    crow = await tx.open_chouette_in_channel(place.channel_id)
                    if crow is not None and crow.guild_id != place.guild_id:
                        crow = None
                    return await op(tx, crow)
            except Refusal as refusal:
                return Reply.refuse(str(refusal))
            except (ChouetteError, BackgammonError) as error:
                return Reply.refuse(str(error))
            except StaleVersionError:
                return Reply.refuse("The table changed before your command arrived "
                                    "(someone acted at the same moment): try again.")
            except StorageError as error:  # busy / unavailable: not applied (issue 21)
                return Reply.refuse(str(error))

    @staticmethod
    def _need(crow: ChouetteRow | None) -> ChouetteRow:
        if crow is None:
            raise Refusal("There is no chouette in this channel: open one with /chouette open.")
        return crow

    async def _game_work(self, tx: Transaction, crow: ChouetteRow, actor: Actor) -> Work | None:
        """The work on the chouette's game in progress, if any."""
        row = await tx.open_match_in_channel(crow.channel_id)
        if row is None or row.chouette_id != crow.id or row.status != "active":
            return None
        loaded = await self.games._load_row(tx, row)
        if loaded.game is None:
            return None
        return self.games._work(tx, loaded, actor)

    # -- open, join, leave, start -------------------------------------------------------

    async def open(self, place: Place, actor: Actor, *, stake: int = 1,
                   refusal: str = "lose-to-captain", captain_refusal: str = "final-word",
                   cap: int = 6, box_partners: int = 0, variant: str | None = None,
                   rules: dict[str, Any] | None = None) -> Reply:
        """Open a chouette table in this channel; ``actor`` is its first player."""
        try:
            options = TableOptions.from_values(refusal=refusal, captain_refusal=captain_refusal,
                                               cap=cap, box_partners=box_partners, stake=stake)
            variant_cls = get_variant(variant or self.games.config.game.variant)
            asked = dict(rules or {})
            rule_options = RuleOptions.from_dict({**self.games.config.game.rules, **asked})
            if rule_options.beavers:
                if "beavers" in asked:
                    return Reply.refuse("Beavers are not used in a chouette: each partner "
                                        "answers the box's double for himself.")
                # A server that plays beavers by default opens chouettes without them.
                rule_options = replace(rule_options, beavers=False)
        except (ChouetteError, BackgammonError) as error:
            return Reply.refuse(str(error))

        async def op(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            if crow is not None:
                raise Refusal("This channel already has a chouette: /chouette join it.")
            if await tx.open_match_in_channel(place.channel_id) is not None:
                raise Refusal("This channel has a game in progress: open the chouette in "
                              "another channel or thread.")
            new = await tx.insert_chouette(
                guild_id=place.guild_id, channel_id=place.channel_id,
                rules={"variant": variant_cls.name, "rules": rule_options.to_dict(),
                       "options": options.to_dict()},
                state={"seated": False, "games": 0})
            await tx.set_chouette_members(new.id, [(actor.id, None)])
            text = (f"{actor.name} opens a chouette of {variant_cls.title}.\n"
                    f"Table: {'; '.join(options.describe())}.\n"
                    f"Rules: {'; '.join(rule_options.describe())}.\n"
                    f"Join with /chouette join; /chouette start when {options.min_players} "
                    "or more are at the table.")
            return Reply(ok=True, text=text)

        return await self._run(place, actor, op)

    async def join(self, place: Place, actor: Actor) -> Reply:
        """Sit at the table, at the foot of the list (003 ch.5)."""
        async def op(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = self._need(crow)
            table = (await load_table(tx, crow)).join(actor.id)
            await tx.set_chouette_members(crow.id, [(m.user, m.throw) for m in table.members])
            await tx.update_chouette(crow.id, crow.version)
            where = len(table.members)
            text = f"{actor.name} joins the chouette at the foot of the list (place {where})."
            if crow.status == "playing":
                text += " You play from the next game."
            elif table.ready:
                text += " The table can start: /chouette start."
            else:
                text += (f" {table.options.min_players - len(table.members)} more needed to "
                         "start.")
            return Reply(ok=True, text=text)

        return await self._run(place, actor, op)

    async def leave(self, place: Place, actor: Actor, confirm: bool = False) -> Reply:
        """Leave the table.  During a game in which ``actor`` has a stake, leaving is a
        drop at the game's current value, and needs ``confirm``."""
        async def op(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = self._need(crow)
            table = await load_table(tx, crow)
            work = await self._game_work(tx, crow, actor)
            stakes = ChouetteTable(self.games).stakes(work) if work is not None else None
            playing = stakes is not None and (
                actor.id == stakes.box
                or (stakes.on_team(actor.id) and stakes.stake(actor.id).stand is Stand.IN))
            if actor.id not in table.users and not playing:
                raise Refusal("You are not at this chouette table.")
            if actor.id in table.users:
                table = table.leave(actor.id)
                await tx.set_chouette_members(crow.id,
                                              [(m.user, m.throw) for m in table.members])
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

        return await self._run(place, actor, op)

    async def _left(self, tx: Transaction, crow: ChouetteRow, table: Table,
                    actor: Actor, note: str = "") -> Reply:
        text = f"{actor.name} leaves the chouette.{note}"
        if not table.members:
            await tx.update_chouette(crow.id, crow.version, status="closed")
            text += " The table is empty and closes."
        else:
            await tx.update_chouette(crow.id, crow.version)
            if crow.status == "playing" and not table.ready:
                text += (" The game in progress finishes; then the table waits for "
                         f"{table.options.min_players} players.")
        return Reply(ok=True, text=text)

    async def _leave_game(self, work: Work, stakes: GameStakes, actor: Actor,
                          confirm: bool) -> Reply:
        game = work.game
        assert game is not None
        if game.phase in (Phase.DOUBLED, Phase.RESIGNATION):
            raise Refusal("A double or a resignation is waiting for an answer: settle it first "
                          "(a partner's /drop retires him from this game), then leave.")
        table = ChouetteTable(self.games)
        box = actor.id == stakes.box
        loser = Player.WHITE if box else Player.BLACK
        ended = game.forfeit(loser, ResultKind.SINGLE).result
        assert ended is not None
        value = ended.points
        if not confirm:
            raise Refusal(f"You have a stake in the game in progress: leaving now counts as "
                          f"dropping at its current value, {_pts(value)}"
                          + (" against each player on the team" if box else "")
                          + ". Leave again with confirm to do it.")
        options = table.options(work)
        name = table.name(work, actor.id)
        if not box and actor.id != stakes.captain:
            new_stakes, retired = stakes.retire([actor.id], value, options.refusal)
            table._put(work, new_stakes)
            work.lines.append(f"{name} leaves the table.")
            table._retired_lines(work, retired)
            return await self.games._commit(work)
        if not box:
            handed = stakes.hand_over(value, options.refusal)
            if handed is not None:
                new_stakes, retired = handed
                table._put(work, new_stakes)
                table._set_captain(work, new_stakes.captain)
                work.lines.append(f"{name} leaves the table; "
                                  f"{table.name(work, new_stakes.captain)} is the new captain.")
                table._retired_lines(work, retired)
                return await self.games._commit(work)
        work.lines.append(f"{name} leaves the table and "
                          f"{'the box' if box else 'the team'} forfeits the game.")
        work.game = game.forfeit(loser, ResultKind.SINGLE)
        await self.games._finish(work)
        await self.games._auto(work)
        return await self.games._commit(work)

    async def start(self, place: Place, actor: Actor) -> Reply:
        """Throw for the seats (the first time) and start the table's next game."""
        async def op(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = self._need(crow)
            if crow.status == "playing":
                raise Refusal("The chouette is already playing: its next game starts when "
                              "this one ends.")
            table = await load_table(tx, crow)
            if actor.id not in table.users:
                raise Refusal("Only a player at the table can start it: /chouette join first.")
            if not table.ready:
                raise Refusal(f"A chouette needs {table.options.min_players} players; "
                              f"{len(table.members)} at the table. Others can /chouette join.")
            if await tx.open_match_in_channel(place.channel_id) is not None:
                raise Refusal("This channel has another game in progress: finish it first.")
            lines: list[str] = []
            state = dict(crow.state)
            if not table.seated:
                seed = self.games._new_seed()
                stream = self.games._dice(seed, 0)
                draw = draw_seats(table.users, stream.die)
                table = table.seat(draw)
                names = {u: (await tx.get_user(u)) for u in table.users}
                lines.append(self._draw_text(draw, {u: r.name if r else str(u)
                                                    for u, r in names.items()}))
                lines.append(f"Seat throws from the seed {seed} (SHA-256 "
                             f"{fairdice.seed_hash(seed)}); the game's automatic doubles "
                             "begin only with its own opening throw (003 ch.4).")
                state.update(seated=True, seat_seed=seed, seat_throws=[list(map(list, r))
                                                                       for r in draw.rounds])
                await tx.set_chouette_members(crow.id,
                                              [(m.user, m.throw) for m in table.members])
            crow = await tx.update_chouette(crow.id, crow.version, status="playing",
                                            state=state)
            games = int(crow.state.get("games", 0))
            row = await new_game_row(tx, crow, table, games + 1)
            work = self.games._work(tx, await self.games._load_row(tx, row), actor)
            work.lines.extend(lines)
            work.lines.append(describe_seats(work, table))
            await self.games._next_game(work)
            return await self.games._commit(work)

        return await self._run(place, actor, op)

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
        async def op(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = self._need(crow)
            work = await self._game_work(tx, crow, actor)
            if work is None or work.game is None:
                raise Refusal("No chouette game is in progress: suggestions are for the game "
                              "being played.")
            table = ChouetteTable(self.games)
            stakes = table.stakes(work)
            if not stakes.on_team(actor.id):
                raise Refusal("Only the captain's partners make suggestions to the captain.")
            if actor.id == stakes.captain:
                raise Refusal("You are the captain: your decision is the team's; just play.")
            said = text.strip()
            if not said:
                raise Refusal("Suggest something: a play (/chouette suggest 13/7 8/7) or a "
                              "cube action (double, take, drop).")
            if len(said) > MAX_TEXT:
                raise Refusal(f"That suggestion is too long ({len(said)} characters; at most "
                              f"{MAX_TEXT}).")
            kept = list(table._data(work).get("suggestions", []))[-(MAX_SUGGESTIONS - 1):]
            table._put(work, stakes,
                       suggestions=[*kept, [actor.id, len(work.game.record), said]])
            work.lines.append(f"{actor.name} has a suggestion for the captain.")
            return await self.games._commit(work)

        return await self._run(place, actor, op)

    async def status(self, place: Place, actor: Actor) -> Reply:
        """The table: options, the list in order with roles, money so far, this game."""
        async def op(tx: Transaction, crow: ChouetteRow | None) -> Reply:
            crow = self._need(crow)
            table = await load_table(tx, crow)
            totals = await tx.chouette_totals(crow.id)
            lines = [f"Chouette ({crow.status}), {crow.state.get('games', 0)} game(s) played. "
                     f"Table: {'; '.join(table.options.describe())}."]
            for i, member in enumerate(table.members, 1):
                user = await tx.get_user(member.user)
                name = user.name if user else str(member.user)
                throw = f", threw {member.throw}" if member.throw is not None else ""
                lines.append(f"{i}. {name} ({table.role(member.user)}{throw}) "
                             f"{totals.get(member.user, 0):+d}")
            gone = [u for u in totals if u not in table.users]
            for u in gone:
                user = await tx.get_user(u)
                lines.append(f"   {user.name if user else u} (left) {totals[u]:+d}")
            work = await self._game_work(tx, crow, actor)
            if work is not None and work.game is not None:
                ct = ChouetteTable(self.games)
                stakes = ct.stakes(work)
                parts = []
                for s in stakes.team:
                    state = "retired" if s.stand is Stand.RETIRED else (
                        f"in, {s.shares} shares" if s.shares != 1 else "in")
                    parts.append(f"{ct.name(work, s.user)} {state}")
                lines.append(f"Game {ct._data(work)['game']}: box {ct.name(work, stakes.box)} "
                             f"vs captain {ct.name(work, stakes.captain)}, cube "
                             f"{work.game.cube.value}; team: " + ", ".join(parts) + ".")
            return Reply(ok=True, text="\n".join(lines), ephemeral=True)

        return await self._run(place, actor, op)
