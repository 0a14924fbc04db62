"""A chouette game's seating: the box (white) against the captain (black) and partners.

The rules are pure values in :mod:`engine.chouette`; this module applies them to
the game in progress.  The money side of that game (who is in, shares, partners'
answers to the box's double, suggestions) is the :class:`~bot.service.core.state.ChouetteGame`
in its match row's state, written in the same transaction and with the same version
check as the game itself, so a new service on the same database resumes mid-game.

Game end (:meth:`ChouetteSeating.finish`): every player's ledger entry (zero-sum,
with ``chouette_id``), the settlement table, the match row finished, the table
rotated (003 ch.5, 004), and -- with enough players -- the next game's match row,
all in the action's transaction.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from bot.service.core import money
from bot.service.core.replies import Action, Button, Mention, Refusal, notice
from bot.service.core.runner import ActionRunner
from bot.service.core.state import ChouetteGame, MatchState, Suggestion, TableState
from bot.service.core.values import Actor
from bot.service.core.views import chouette_panel
from bot.service.core.work import Work
from bot.service.play.autoplay import AutoPlay
from bot.service.play.endings import Endings
from bot.storage.interface import (
    ChouetteRow,
    ChouetteStatus,
    LedgerEntry,
    MatchRow,
    MatchStatus,
    Transaction,
)
from engine.chouette import (
    GameStakes,
    Line,
    Member,
    Retirement,
    Stand,
    Table,
    TableOptions,
    settlement,
    signed_points,
)
from engine.game import Game, Phase
from engine.player import Player
from engine.record import Event, Roll
from engine.scoring import Result
from engine.words import counted
from render.view import ChouetteView, StakeState

MAX_SUGGESTIONS = 10
"""Suggestions kept per game (the oldest are dropped)."""


def points_text(value: int | Fraction) -> str:
    """"1 point", "2 points", "1/2 point" (exact: the 000 rule shares in fractions)."""
    return f"{value} point{'s' if value > 1 else ''}"


def chouette_game(work: Work) -> ChouetteGame:
    data = work.state.chouette
    if data is None:
        raise Refusal("This chouette game has lost its table data; ask an admin.")
    return data


async def load_table(tx: Transaction, crow: ChouetteRow) -> Table:
    members = await tx.chouette_members(crow.id)
    return Table(options=TableOptions.from_dict(crow.rules["options"]),
                 members=tuple(Member(m.user_id, m.throw) for m in members),
                 seated=TableState.from_dict(crow.state).seated)


async def new_game_row(tx: Transaction, crow: ChouetteRow, table: Table, number: int
                       ) -> MatchRow:
    """The match row of the chouette's next game: white the box, black the captain."""
    names: dict[int, str] = {}
    for user in table.users:
        row = await tx.get_user(user)
        names[user] = row.name if row else str(user)
    state = MatchState(chouette=ChouetteGame(
        id=crow.id, game=number, names=names, options=table.options,
        stakes=GameStakes.of_table(table)))
    return await tx.insert_match(
        guild_id=crow.guild_id, channel_id=crow.channel_id, white_id=table.box,
        black_id=table.captain, variant=str(crow.rules["variant"]),
        rules=dict(crow.rules["rules"]), length=0, stake=table.options.stake, rated=False,
        status=MatchStatus.ACTIVE, chouette_id=crow.id, state=state.to_dict())


def describe_seats(work: Work, table: Table) -> str:
    cg = chouette_game(work)
    partners = [cg.name(u) for u in table.team[1:]]
    text = (f"Chouette game {cg.game}: {cg.name(table.box)} in the box against captain "
            f"{cg.name(table.captain)}" + (f" and partners {', '.join(partners)}" if partners
                                             else ""))
    if table.options.box_partners:
        text += f"; with the box: {', '.join(cg.name(u) for u in table.box_side[1:])}"
    return text + "."


class ChouetteSeating:
    """The seating strategy of a chouette game (see :class:`bot.service.core.work.Seating`)."""

    def __init__(self, runner: ActionRunner, autoplay: AutoPlay, endings: Endings) -> None:
        self.runner = runner
        self.autoplay = autoplay
        self.endings = endings

    # -- the game's money state ---------------------------------------------------------

    @staticmethod
    def stakes(work: Work) -> GameStakes:
        return chouette_game(work).stakes

    @staticmethod
    def options(work: Work) -> TableOptions:
        return chouette_game(work).options

    @staticmethod
    def put(work: Work, stakes: GameStakes,
            suggestions: tuple[Suggestion, ...] | None = None) -> None:
        """The game's new stakes (and suggestions)."""
        cg = chouette_game(work)
        work.state = work.state.with_(chouette=replace(
            cg, stakes=stakes,
            suggestions=cg.suggestions if suggestions is None else suggestions))

    @staticmethod
    def name(work: Work, user: int) -> str:
        return chouette_game(work).name(user)

    def retired_lines(self, work: Work, retired: tuple[Retirement, ...]) -> None:
        for r in retired:
            if len(r.receivers) == 1:
                to = f"{self.name(work, r.receivers[0][0])}, who carries the share"
            else:
                to = " and ".join(f"{self.name(work, u)} ({points_text(p)})"
                                  for u, p in r.receivers)
                to += ", who share his share equally"
            work.lines.append(f"{self.name(work, r.user)} retires from this game, losing "
                              f"{points_text(r.points)} to {to}.")

    def set_captain(self, work: Work, user: int) -> None:
        row = replace(work.row, black_id=user)
        names = (work.loaded.names[0], self.name(work, user))
        work.loaded = replace(work.loaded, row=row, names=names)
        work.row_changes["black_id"] = user

    # -- the hooks ------------------------------------------------------------------------

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
            self.put(work, stakes.answer(actor, take))
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
            self.put(work, taken)
            self.retired_lines(work, retired)
            return False
        handed = stakes.captain_drops(value, options.refusal, options.captain_refusal)
        if handed is None:
            if any(t for _, t in stakes.answers):
                work.lines.append("The captain's word is final: the whole team drops.")
            self.put(work, replace(stakes, answers=()))
            return False
        new_stakes, retired = handed
        old = self.name(work, stakes.captain)
        self.put(work, new_stakes)
        self.set_captain(work, new_stakes.captain)
        work.lines.append(f"{old} drops; {self.name(work, new_stakes.captain)} took, and "
                          "takes over as captain.")
        self.retired_lines(work, retired)
        work.game = game.take(Player.BLACK)
        work.lines.append(f"{self.name(work, new_stakes.captain)} takes: the cube is at "
                          f"{work.game.cube.value}.")
        await self.autoplay.auto(work)
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
            # His own answer to the box's double, shown until the captain's closes it
            # (issue 30 item 6: a partner who dropped was shown "in").
            answer = stakes.answer_of(s.user) if game.phase is Phase.DOUBLED else None
            if answer is not None and s.stand is not Stand.RETIRED:
                state = StakeState.TAKES if answer else StakeState.DROPS
            rows.append((self.name(work, s.user), state))
        # The box's own partners go with the box, not with the team (issue 42 item 7).
        return chouette_panel(rows, box_partners=[self.name(work, u)
                                                  for u in stakes.box_side[1:]])

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
            # Only the partners who have not answered yet are asked (issue 19, item 7).
            partners = tuple(u for u in stakes.partners_in if stakes.answer_of(u) is None)
            mentions: list[str | Mention] = []
            for i, u in enumerate(partners):
                mentions += [" "] if i else []
                mentions.append(Mention(u, self.name(work, u)))
            if partners:
                work.notify.append(notice(
                    *mentions, ": answer the box's double "
                    + ("for yourselves" if len(partners) > 1 else "for yourself")
                    + " with /take or "
                    "/drop before the captain does; the captain's answer closes it."))
            buttons = tuple(
                replace(b, users=tuple(sorted({*b.users, *partners})))
                if b.action in (Action.TAKE, Action.DROP) else b for b in buttons)
        fresh = self._fresh_suggestions(work, game)
        if fresh:
            work.lines.append(f"Suggestions for the captain {self.name(work, stakes.captain)}: "
                              + "; ".join(f"{self.name(work, u)}: {t}" for u, t in fresh))
        return buttons

    def _fresh_suggestions(self, work: Work, game: Game) -> list[tuple[int, str]]:
        """Suggestions made since the captain's last decision (a play, a cube action, a
        choice, a resignation; a roll, often automatic, does not count)."""
        out = []
        for s in chouette_game(work).suggestions:
            later: tuple[Event, ...] = game.record[s.seq:]
            if not any(getattr(ev, "player", None) is Player.BLACK and not isinstance(ev, Roll)
                       for ev in later):
                out.append((s.user, s.text))
        return out

    async def finish(self, work: Work, result: Result) -> bool:
        """Settle with every player, rotate the table, start the next game."""
        tx = work.tx
        cg = chouette_game(work)
        stakes = cg.stakes
        options = cg.options
        box_won = result.winner is Player.WHITE
        assert work.game_row is not None
        lines = settlement(stakes, box_won, result.points, options.stake)
        await tx.add_ledger([
            LedgerEntry(work.row.guild_id, line.user, line.points, line.amount, work.row.id,
                        work.game_row.id, cg.id) for line in lines])
        work.lines.append(self._settlement_text(work, stakes, lines, cg.game, options.stake))
        crow = await tx.get_chouette(cg.id)
        assert crow is not None
        table = (await load_table(tx, crow)).after_game(stakes.box, stakes.captains, box_won)
        await tx.set_chouette_members(cg.id, [(m.user, m.throw) for m in table.members])
        before = TableState.from_dict(crow.state)
        played = replace(before, games=before.games + 1)
        winner = work.user(result.winner)
        full = await money.turnover_reached(tx, crow.guild_id, list(table.users))
        if full:
            work.lines.append("The table stops: " + money.limit_text(
                [cg.name(u) for u in full]))
        if not table.ready or full:
            await tx.update_chouette(cg.id, crow.version, status=ChouetteStatus.OPEN,
                                     state=played.to_dict())
            if not table.ready:
                work.lines.append(
                    f"The table has {counted(len(table.members), 'player')}; it needs "
                    f"{table.options.min_players} to play on. /chouette join, then "
                    "/chouette start.")
            work.match_status = MatchStatus.FINISHED
            work.match_winner = winner
            work.game = None
            work.game_row = None
            work.dice = None
            return True
        await tx.update_chouette(cg.id, crow.version, state=played.to_dict())
        await tx.update_match(work.row, state=work.state.to_dict(), status=MatchStatus.FINISHED,
                              winner_id=winner, **work.row_changes)
        row = await new_game_row(tx, crow, table, played.games + 1)
        work.switch_to(await self.runner.load_row(tx, row))
        work.lines.append(describe_seats(work, table))
        await self.endings.next_game(work)
        return True

    def _settlement_text(self, work: Work, stakes: GameStakes, lines: tuple[Line, ...],
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
            money = ""
            if line.rounded:
                money = f" ({line.amount:+d}, exactly {signed_points(line.exact_amount)})"
            elif stake not in (0, 1):
                money = f" ({line.amount:+d})"
            parts.append(f"{self.name(work, line.user)}"
                         + (f" ({role})" if role else "") + f" {signed_points(line.points)}"
                         + money)
        unit = f"; stake {stake} a point" if stake else ""
        if any(line.rounded for line in lines):
            unit += ("; money in whole units, rounded so that the table adds up to zero "
                     "(the largest fractions first)")
        return f"Settlement of chouette game {number}{unit}: " + ", ".join(parts) + "."

