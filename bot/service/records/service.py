"""The records of a channel's games, by the numbers players see: /verify, /export and
/history (issue 19 items 6 and 11, issue 22 item 4).

**One numbering, scoped to the channel.**  A game is named by the number the channel
showed for it: in a match or money session, game N of the channel's latest match
("Game 2 begins", "Dice seed of game 2 ... /verify 2"); at a chouette table, the
table's game N ("Chouette game 3"), each of which is its own match row.  The global
row ids of the database are not accepted any more: they were never shown with the
game they name, and the same number could name a game of this channel and a row of
another (``/verify 1`` verified another channel's game).  Earlier matches in the same
channel are not reachable by number; a match played in its own thread (the default)
is the only one there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.names import display_name
from bot.service.core import fairdice
from bot.service.core.replies import Refusal, Reply
from bot.service.core.state import MatchState
from bot.service.core.takeback import with_unsettled
from bot.service.core.values import Actor, Place, bad_ids
from bot.service.records.export import FORMATS, export_channel_match, export_channel_match_sgf
from bot.service.records.verify import dice_of_record
from bot.storage.interface import (
    EventRow,
    GameRow,
    GameStatus,
    MatchRow,
    MatchStatus,
    Storage,
    Transaction,
)
from bot.storage.replay import player_names
from engine.chouette import Stand, signed_points
from engine.errors import BackgammonError
from engine.game import Game, Phase
from engine.move import Play
from engine.player import Player
from engine.record import (
    Beaver,
    ChoiceMade,
    DoubleOffered,
    Drop,
    Event,
    Forfeit,
    GameEnd,
    OpeningRoll,
    PlayMade,
    ResignAnswer,
    ResignOffer,
    Roll,
    Take,
    events_from_list,
)
from engine.rules import RuleOptions
from engine.variant import Stage, get_variant
from engine.words import article, counted

MAX_NUMBER = 1_000_000
"""Game numbers above this are not ours."""
INLINE_LIMIT = 1800
"""A history longer than this (characters) comes as a text file (a Discord message
holds 2,000)."""
NOT_PLAYED = (MatchStatus.CHALLENGED, MatchStatus.DECLINED, MatchStatus.CANCELLED)


@dataclass(frozen=True, slots=True)
class NumberedGame:
    """A game as the channel names it."""

    number: int
    match: MatchRow
    row: GameRow


@dataclass(frozen=True, slots=True)
class ChannelGames:
    """The games a number can name here: the latest match's, or the chouette table's."""

    chouette: bool
    games: tuple[NumberedGame, ...]

    @property
    def latest(self) -> MatchRow:
        return self.games[-1].match

    def find(self, number: int | None) -> NumberedGame:
        """Game ``number`` (None: the latest), or a refusal naming the numbers there are."""
        if number is None:
            return self.games[-1]
        for game in self.games:
            if game.number == number:
                return game
        return refuse_number(number, self)


def refuse_number(number: int, scope: ChannelGames) -> NumberedGame:
    known = sorted({g.number for g in scope.games})
    where = "at this chouette table" if scope.chouette else "in this channel's match"
    span = (f"game {known[0]}" if len(known) == 1 else
            f"games {known[0]} to {known[-1]}")
    raise Refusal(f"There is no game {number} {where}: it has {span}. Game numbers are "
                  "the ones the channel shows (\"Game 2 begins\").")


def game_number(row: GameRow, state: MatchState) -> int:
    """The number players see for ``row``: the chouette table's game number for a
    chouette game, else the game's number in its match."""
    return state.chouette.game if state.chouette is not None else row.number


async def played(tx: Transaction, match: MatchRow) -> bool:
    """Whether ``match`` has games: not a challenge that was never accepted (a tournament
    match the organiser cancelled in play is cancelled too, and has its games)."""
    if match.status not in NOT_PLAYED:
        return True
    return match.status is MatchStatus.CANCELLED and bool(await tx.games_of_match(match.id))


async def channel_games(tx: Transaction, place: Place) -> ChannelGames:
    """The games of the channel's latest match (or chouette table), oldest first."""
    matches = [m for m in await tx.matches_in_channel(place.channel_id, limit=50)
               if m.guild_id == place.guild_id and await played(tx, m)]
    if not matches:
        raise Refusal("No game has been played in this channel yet.")
    latest = matches[-1]
    if latest.chouette_id is not None:
        rows = await tx.matches_in_channel(place.channel_id, chouette_id=latest.chouette_id)
        table = [m for m in rows if await played(tx, m)]
    else:
        table = [latest]
    games: list[NumberedGame] = []
    for match in table:
        state = MatchState.from_dict(match.state)
        for row in await tx.games_of_match(match.id):
            games.append(NumberedGame(game_number(row, state), match, row))
    if not games:
        raise Refusal("No game has been played in this channel yet.")
    return ChannelGames(latest.chouette_id is not None, tuple(games))


def check_number(number: int | None) -> None:
    if number is not None and number > MAX_NUMBER:
        raise Refusal(f"That game number is too large: games are numbered from 1 to at most "
                      f"{MAX_NUMBER:,}, as the channel shows them (\"Game 2 begins\"); /history "
                      "lists the games here.")
    if number is not None and not 0 < number <= MAX_NUMBER:
        shown = f" {number}" if -MAX_NUMBER <= number <= MAX_NUMBER else " with that number"
        raise Refusal(f"There is no game{shown}: games are numbered from 1, as the "
                      "channel shows them (\"Game 2 begins\").")


class Records:
    """/verify, /export and /history on the channel's numbering."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    # ---------------------------------------------------------------- verify

    async def verify(self, place: Place, actor: Actor, number: int | None = None) -> Reply:
        """Recompute every die of game ``number`` here (None: the last finished one)."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            check_number(number)
            async with self.storage.snapshot() as tx:
                scope = await channel_games(tx, place)
                if number is None:
                    finished = [g for g in scope.games if g.row.status is GameStatus.FINISHED]
                    if not finished:
                        raise Refusal("No finished game here to verify: the seed of a game is "
                                      "revealed when it ends. Give a game number.")
                    game = finished[-1]
                else:
                    game = scope.find(number)
                row = game.row
                if row.status is not GameStatus.FINISHED:
                    return Reply(ok=True, text=(
                        f"Game {game.number} is still being played; its dice are committed "
                        f"to by SHA-256 {row.seed_hash}. The seed is revealed when it ends."))
                events = await tx.events(row.id)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        dice = dice_of_record([e.data for e in events])
        problems = fairdice.verify(row.seed, row.seed_hash, dice)
        if problems:
            return Reply(ok=True, text="Verification FAILED:\n" + "\n".join(problems))
        return Reply(ok=True, text=(
            f"Game {game.number}: all {len(dice)} dice match the seed {row.seed} "
            f"(SHA-256 {row.seed_hash}). Check it yourself: "
            f"python -m bot.service.core.fairdice {row.seed} {row.seed_hash} {len(dice)}"))

    # ---------------------------------------------------------------- export

    async def export(self, place: Place, actor: Actor, fmt: str = "mat",
                     number: int | None = None) -> Reply:
        """The channel's match as ``.mat`` or GNU Backgammon ``.sgf``; at a chouette
        table, the table's game ``number`` (default the latest).  In a match, ``number``
        must be one of its games, and the file is the whole match."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        fmt = (fmt or "mat").strip().lower().lstrip(".")
        if fmt not in FORMATS:
            return Reply.refuse(f"Export formats: {' or '.join(FORMATS)} (sgf for analysis "
                                f"in GNU Backgammon: it carries the rules), not {fmt[:20]!r}.")
        try:
            check_number(number)
            async with self.storage.snapshot() as tx:
                scope = await channel_games(tx, place)
                game = scope.find(number)  # (a game number outside the match: refused)
                match = game.match
                write = export_channel_match_sgf if fmt == "sgf" else export_channel_match
                text = await write(tx, match)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        except BackgammonError as error:
            return Reply.refuse(f"This game can't be exported as a .{fmt} file: {error}")
        what = f"Chouette game {game.number}" if scope.chouette else "The match"
        if number is not None and not scope.chouette:  # a game of a match: the match's file
            what = f"The match (game {number} is in it: the file holds the whole match)"
        name = (f"bgbot-chouette-game-{game.number}.{fmt}" if scope.chouette
                else f"bgbot-match-{match.id}.{fmt}")
        how = ("GNU Backgammon: File > Open; its rules are in the file" if fmt == "sgf"
               else "GNU Backgammon: File > Import > .mat; other programs read it too")
        return Reply(ok=True, text=f"{what} as a .{fmt} file ({how}).",
                     attachment=(name, text.encode("utf-8")), match_id=match.id)

    # --------------------------------------------------------------- history

    async def history(self, place: Place, actor: Actor, number: int | None = None) -> Reply:
        """The moves of game ``number`` here, or of every game of the channel's match so
        far (a chouette table: its latest game), with the dice and cube actions."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        try:
            check_number(number)
            async with self.storage.snapshot() as tx:
                scope = await channel_games(tx, place)
                if number is not None:
                    chosen = [scope.find(number)]
                elif scope.chouette:
                    chosen = [scope.games[-1]]
                else:
                    chosen = list(scope.games)
                parts: list[tuple[NumberedGame, tuple[str, str], list[EventRow]]] = []
                names_of: dict[int, tuple[str, str]] = {}
                settled: dict[int, str] = {}
                for game in chosen:
                    if game.match.id not in names_of:
                        names_of[game.match.id] = await player_names(tx, game.match)
                    parts.append((game, names_of[game.match.id], with_unsettled(
                        game.match, game.row, await tx.events(game.row.id))))
                    if scope.chouette:  # each player's own result (issue 42 item 6)
                        settled[game.row.id] = "\n".join(
                            [*own_drops(game.match), await settlement_line(tx, game.row.id)]
                        ).strip("\n")
                scores = await match_scores(tx, scope.latest) if not scope.chouette else {}
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        blocks: list[str] = []
        for game, names, events in parts:
            try:
                lines = game_history(game, names, events, scores.get(game.row.id))
                if settled.get(game.row.id):
                    lines.append(settled[game.row.id])
                blocks.append("\n".join(lines))
            except BackgammonError as error:
                blocks.append(f"Game {game.number}: its record can't be read ({error}).")
        text = "\n\n".join(blocks)
        match = scope.latest
        if len(text) <= INLINE_LIMIT:
            return Reply(ok=True, text=text, match_id=match.id)
        first, last = chosen[0].number, chosen[-1].number
        span = f"game {first}" if first == last else f"games {first} to {last}"
        name = (f"bgbot-history-{match.id}.txt" if len(chosen) > 1 or not scope.chouette
                else f"bgbot-chouette-game-{first}.txt")
        return Reply(ok=True, text=f"The history of {span} is long: it is in the attached "
                     "file.", attachment=(name, (text + "\n").encode("utf-8")),
                     match_id=match.id)


def own_drops(match: MatchRow) -> list[str]:
    """The partners of a chouette game who retired from it on their own answer (a drop of
    the box's double, or the captain's when a partner took over), with what it cost."""
    chouette = MatchState.from_dict(match.state).chouette
    if chouette is None:
        return []
    return [f"  {chouette.name(s.user)} dropped (a partner's own answer) and retired from "
            f"the game at {signed_points(s.settled)}"
            for s in chouette.stakes.team if s.stand is Stand.RETIRED]


async def settlement_line(tx: Transaction, game_id: int) -> str:
    """A chouette game's settlement, each player's points as the table settled them ("" while
    it is not settled): a partner who dropped the box's double alone shows his own result."""
    points = await tx.chouette_game_points(game_id)
    if not points:
        return ""
    shown = []
    for user, value in points:
        known = await tx.get_user(user)
        shown.append(f"{display_name(known.name, str(user)) if known else user} "
                     f"{signed_points(value)}")
    return "  settlement: " + ", ".join(shown)


async def match_scores(tx: Transaction, match: MatchRow) -> dict[int, tuple[int, int]]:
    """The score (white, black) before each game of ``match``, by game row id."""
    score = [0, 0]
    out: dict[int, tuple[int, int]] = {}
    for row in await tx.games_of_match(match.id):
        out[row.id] = (score[0], score[1])
        if row.status is GameStatus.FINISHED and row.result is not None:
            winner = Player[str(row.result["winner"]).upper()]
            score[winner] += int(row.result["points"])
    return out


def game_history(game: NumberedGame, names: tuple[str, str], events: Sequence[EventRow],
                 score: tuple[int, int] | None) -> list[str]:
    """The lines of one game: a header, then one line per throw, choice and cube action."""
    match, row = game.match, game.row
    variant = get_variant(match.variant)()
    rules = RuleOptions.from_dict(match.rules)
    setup = row.setup
    first = setup.get("first_player")
    state = Game.new(variant, rules, money=bool(setup.get("money", match.length == 0)),
                     crawford=bool(setup.get("crawford", False)),
                     first_player=Player[str(first).upper()] if first else None)
    white, black = names
    head = f"Game {game.number}: {white} (white) against {black} (black)"
    if match.length > 0 and score is not None:
        head += f", {match.length}-point match, score {white} {score[0]}, {black} {score[1]}"
        if state.crawford:
            head += " (Crawford game)"
    elif match.length == 0 and score is not None and (score[0] or score[1]):
        net = score[0] - score[1]  # (net, as the session line counts: +5 and -5)
        head += f", points so far {white} {net:+d}, {black} {-net:+d}"
    lines = [head + ":"]
    record = events_from_list([e.data for e in events])
    rolled = False  # the last line is a roll still waiting for its play
    for event in record:
        before = state
        state = state.apply(event)
        if isinstance(event, PlayMade):
            text = before.variant.format_play(Play(event.moves, (), state.position))
            if rolled:
                lines[-1] += f": {text or 'no move'}"
            else:
                lines.append(f"  {names[event.player]} {stage_dice(before)}: "
                             f"{text or 'no move'}")
            rolled = False
            continue
        if isinstance(event, Roll):
            # Higher die first, as GNU Backgammon and the books write a throw (61, 64).
            high, low = sorted((event.dice.first, event.dice.second), reverse=True)
            lines.append(f"  {names[event.player]} {high}{low}")
            rolled = state.phase is Phase.PLAY and state.turn is event.player
            if not rolled and state.phase is not Phase.CHOICE:
                lines[-1] += ": no legal move"
            continue
        rolled = False
        line = event_line(event, before, state, names)
        if line:
            lines.append("  " + line)
    if state.result is None and row.status is GameStatus.FINISHED:
        lines.append("  (not played out: its match or session ended around it)")
    elif state.result is None:
        waiting = state.awaiting
        lines.append("  (in progress" + (f": {names[waiting]} to act)" if waiting is not None
                                         else ")"))
    return lines


def event_line(event: Event, before: Game, after: Game, names: tuple[str, str]) -> str:
    """One event of the record as a player reads it ("" for one that says nothing)."""
    if isinstance(event, OpeningRoll):
        text = (f"opening throw: {names[Player.WHITE]} {'-'.join(map(str, event.white))}, "
                f"{names[Player.BLACK]} {'-'.join(map(str, event.black))}")
        if after.cube.value != before.cube.value:
            text += f"; automatic double, cube {after.cube.value}"
        return text
    if isinstance(event, ChoiceMade):
        return f"{names[event.player]} chooses {event.option}"
    if isinstance(event, DoubleOffered):
        return f"{names[event.player]} doubles to {before.cube.value * 2}"
    if isinstance(event, Take):
        return f"{names[event.player]} takes (cube {after.cube.value})"
    if isinstance(event, Drop):
        return f"{names[event.player]} drops"
    if isinstance(event, Beaver):
        offer = after.cube.offer  # (the beaver's redouble, waiting for its answer)
        return f"{names[event.player]} beavers (cube {offer.value if offer else after.cube.value})"
    if isinstance(event, ResignOffer):
        return f"{names[event.player]} offers to resign {article(event.kind.name.lower())}"
    if isinstance(event, ResignAnswer):
        return (f"{names[event.player]} "
                + ("accepts the resignation" if event.accept else "rejects the resignation"))
    if isinstance(event, Forfeit):
        return f"{names[event.player]} forfeits"
    if isinstance(event, GameEnd):
        kind = event.kind.name.lower()
        return (f"{names[event.winner]} wins {article(kind)} "
                f"({counted(event.points, 'point')}, {event.reason.value})")
    return ""


def stage_dice(game: Game) -> str:
    """The dice of the stage being played in ``game`` ("31", "66"; a named doublet or
    one side of one, "44")."""
    step = game.step
    dice: tuple[int, ...] = ()
    if isinstance(step, Stage):
        dice = step.dice
    elif game.dice is not None:
        dice = (game.dice.first, game.dice.second)
    if len(set(dice)) == 1:
        return f"{dice[0]}{dice[0]}"
    return "".join(str(d) for d in sorted(dice, reverse=True)[:2])
