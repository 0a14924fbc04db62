"""What the pictures show, built from the host's data: pure functions, no I/O.

* :func:`replay_frames` -- a game record -> the frames of its replay
  (:mod:`render.replay`);
* :func:`analysis_chart` -- a :class:`~bot.ai.analysed.GameAnalysis` -> the
  analysis graph's data (:mod:`render.chart`);
* :func:`player_card` -- a player's stats (``Transaction.user_stats``) -> the
  card (:mod:`render.card`);
* :func:`match_summary` -- a match's game records (and analyses) -> the match
  summary (:mod:`render.summary`).

Move numbers are the same everywhere: the plays of a game counted from 1 in
the order they were made (a throw that could not be played counts as a
play), so "move 14" on the graph is frame "14." of the replay.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.service.core.drafts import stage_kind
from bot.service.core.views import board_view, scores
from engine.game import Game, Phase
from engine.match import Match, Session
from engine.move import Play
from engine.player import Player
from engine.record import (
    Beaver,
    DoubleOffered,
    Drop,
    Event,
    Forfeit,
    GameRecord,
    PlayMade,
    ResignAnswer,
    Roll,
    Take,
)
from engine.rules import RuleOptions
from engine.scoring import EndReason
from render.card import CardForm, PlayerCard, RecentResult
from render.chart import ChartData, ChartMistake, ChartPoint
from render.replay import FrameKind, ReplayFrame
from render.summary import GameLine, MatchSummary, SummaryCube
from render.view import ChouetteView, LastPlay

if TYPE_CHECKING:
    from bot.ai.analysed import GameAnalysis

# -------------------------------------------------------------------- replay


def _game_of(record: GameRecord) -> Game:
    return Game.new(record.variant, RuleOptions.from_dict(record.rules), money=record.money,
                    crawford=record.crawford, first_player=record.first_player,
                    position=record.position)


def move_numbers(record: GameRecord) -> tuple[int, ...]:
    """For each event of ``record``, the number of the play it is or precedes.

    A play (or an unplayable throw) at event ``i`` is play ``k`` when it is
    the ``k``-th of the game; any other event gets the number of the next play
    (a double before the 14th play is at move 14).
    """
    out: list[int] = []
    count = 0
    game = _game_of(record)
    for event in record.events:
        after = game.apply(event)
        if _is_play(game, event, after):
            count += 1
            out.append(count)
        else:
            out.append(count + 1)
        game = after
    return tuple(out)


def _danced(before: Game, event: Event, after: Game) -> bool:
    """A throw that could not be played at all (the turn passed without a play)."""
    return (isinstance(event, Roll) and after.phase not in (Phase.PLAY, Phase.CHOICE)
            and not (after.stage_plays and any(p.moves for _, p in after.stage_plays)))


def _is_play(before: Game, event: Event, after: Game) -> bool:
    return isinstance(event, PlayMade) or _danced(before, event, after)


_CUBE_EVENTS = (DoubleOffered, Take, Drop, Beaver)


def _result_caption(game: Game, names: tuple[str, str]) -> str:
    r = game.result
    if r is None:
        turn = game.awaiting if game.awaiting is not None else game.turn
        who = f": {names[turn]} to act" if turn is not None else ""
        return f"Game not finished{who}"
    how = {EndReason.BORNE_OFF: "", EndReason.DROP: " (double refused)",
           EndReason.RESIGNATION: " (resignation)", EndReason.FORFEIT: " (forfeit)"}[r.reason]
    what = {1: "a single game", 2: "a gammon", 3: "a backgammon"}[int(r.kind)]
    pts = f"{r.points} point{'' if r.points == 1 else 's'}"
    return f"{names[r.winner]} wins {what}{how}: {pts}"


def replay_frames(record: GameRecord, names: tuple[str, str], session: Session, *,
                  viewer: Player = Player.WHITE,
                  chouette: ChouetteView | None = None) -> list[ReplayFrame]:
    """The frames of ``record``'s replay: one per play (the board after it, the
    mover's dice, the moved and hit checkers marked), one per cube action
    (double, take, drop, beaver), and a final one with the result; so
    ``len(frames) == plays + cube actions + 1``.

    ``session`` is the match or money session as it stood when the game began
    (scores, match length, stake); the final frame shows the score after it.
    ``viewer`` sits at the bottom of every frame (the board does not turn).
    """
    game = _game_of(record)
    frames: list[ReplayFrame] = []
    count = 0
    for event in record.events:
        before = game
        game = game.apply(event)
        mover = getattr(event, "player", None)
        if isinstance(event, PlayMade) or _danced(before, event, game):
            assert mover is not None
            count += 1
            throw = before.dice if isinstance(event, PlayMade) else game.dice
            if throw is None:  # a dance: the throw is in the record
                assert isinstance(event, Roll)
                throw = event.dice
            dice = (throw.first, throw.second)
            # The second stage of a doublet, or the doublet named after acey-deucy, is
            # labelled with its own dice, as /history does (issue 30 item 3).
            stage = before.stage if isinstance(event, PlayMade) else None
            kind = stage_kind(stage, throw)
            how = ""
            if kind and stage is not None:
                how = (f" ({kind} after {dice[0]}-{dice[1]})" if kind == "named"
                       else f" ({kind} of {dice[0]}-{dice[1]})")
                thrown: tuple[int, int] | None = dice
                dice = (stage.dice[0], stage.dice[1])
            else:
                thrown = None
            if isinstance(event, PlayMade) and event.moves:
                text = game.variant.format_play(
                    Play(event.moves, tuple(m.distance for m in event.moves), game.position))
                last: LastPlay | None = LastPlay(mover, event.moves)
            else:
                text, last = "cannot move", None
            view = board_view(game, session, names, viewer=viewer, chouette=chouette)
            view = replace(view, turn=mover, dice=dice, dice_used=(), last_play=last,
                           game_over=None, dice_stage=kind, thrown=thrown, resignation=None)
            caption = f"{count}. {names[mover]} {dice[0]}-{dice[1]}{how}: {text}"
            frames.append(ReplayFrame(view, caption, FrameKind.PLAY, count))
        elif isinstance(event, _CUBE_EVENTS):
            assert mover is not None
            view = board_view(game, session, names, viewer=viewer, chouette=chouette)
            view = replace(view, last_play=None, game_over=None, dice=None)
            if isinstance(event, DoubleOffered):
                cube = game.cube.offer.value if game.cube.offer is not None else 0
                text = f"{names[mover]} doubles to {cube or 2 * game.cube.value}"
            elif isinstance(event, Take):
                text = f"{names[mover]} takes: the cube is at {game.cube.value}"
            elif isinstance(event, Beaver):
                redouble = game.cube.offer.value if game.cube.offer is not None else 0
                text = f"{names[mover]} beavers: redoubles to {redouble}"
            else:
                text = f"{names[mover]} refuses the double"
            frames.append(ReplayFrame(view, f"{text} (before move {count + 1})",
                                      FrameKind.CUBE, count + 1))
    after: Session = session
    if game.result is not None:
        if not (isinstance(session, Match) and session.is_over):
            after = session.add_game(game)
    final = board_view(game, after, names, viewer=viewer, chouette=chouette)
    final = replace(final, dice=None)
    caption = _result_caption(game, names)
    ended_by = next((e for e in reversed(record.events)
                     if isinstance(e, (Forfeit, ResignAnswer))), None)
    if isinstance(ended_by, Forfeit) and game.result is not None:
        caption = f"{names[ended_by.player]} forfeits. " + caption
    if isinstance(session, Match) and game.result is not None:
        s = scores(after)
        caption += f" · score {s[0]}-{s[1]} (to {session.length})"
    frames.append(ReplayFrame(final, caption, FrameKind.RESULT, count))
    return frames


def count_actions(record: GameRecord) -> tuple[int, int]:
    """(plays, cube actions) of ``record``, as :func:`replay_frames` counts them."""
    game = _game_of(record)
    plays = cubes = 0
    for event in record.events:
        after = game.apply(event)
        plays += _is_play(game, event, after)
        cubes += isinstance(event, _CUBE_EVENTS)
        game = after
    return plays, cubes


# ------------------------------------------------------------- analysis graph


def analysis_chart(analysis: GameAnalysis, record: GameRecord, player: Player,
                   names: tuple[str, str]) -> ChartData:
    """The analysis graph of ``record`` for ``player``: one point per rated
    decision (his winning chances and equity after it, either player's
    decision), and each player's largest mistakes (``analysis``' own list),
    all at their move numbers (:func:`move_numbers`)."""
    numbers = move_numbers(record)
    plays, _ = count_actions(record)
    points = []
    for dp in analysis.timeline:
        mine = dp.player is player
        mwc = None if dp.mwc is None else (dp.mwc if mine else 1.0 - dp.mwc)
        points.append(ChartPoint(numbers[dp.event_index], dp.win if mine else 1.0 - dp.win,
                                 dp.equity if mine else -dp.equity, mwc))
    mistakes = tuple(
        ChartMistake(numbers[m.event_index], m.equity_lost, m.player is player, m.kind,
                     m.played, m.best)
        for pa in analysis.players for m in pa.mistakes)
    mine_pa = analysis.of(player)
    rate = mine_pa.error_rate if analysis.supported and mine_pa.decisions else None
    return ChartData(names[player], names[player.other], tuple(points), mistakes, rate, plays)


# ---------------------------------------------------------------- player card


def player_card(name: str, stats: Mapping[str, object], *, experience: int = 0,
                established: int = 400, variants: Sequence[str] = (),
                recent: Sequence[RecentResult] = (), form: CardForm | None = None,
                personal: bool = False, personal_rating: float | None = None
                ) -> PlayerCard:
    """The card of a player from ``Transaction.user_stats`` (rating, rating_history,
    games, games_won, matches, matches_won, balance); ``variants`` are the
    variants of his matches (the most frequent is his favourite); ``recent`` his
    last results, newest first."""
    def num(key: str) -> int:
        value = stats.get(key, 0)
        return int(value) if isinstance(value, (int, float)) else 0

    raw = stats.get("rating", 1500.0)
    rating = float(raw) if isinstance(raw, (int, float)) else 1500.0
    history_raw = stats.get("rating_history", [])
    history: tuple[float, ...] = ()
    if isinstance(history_raw, Sequence) and history_raw:
        pairs = [(float(b), float(a)) for b, a in history_raw]
        history = (pairs[0][0], *(a for _, a in pairs))
    return PlayerCard(
        name=name, rating=rating, experience=experience, rating_history=history,
        games=num("games"), games_won=num("games_won"), matches=num("matches"),
        matches_won=num("matches_won"), balance=num("balance"),
        favourite_variant=favourite(variants), recent=tuple(recent)[:10],
        provisional=experience < established, form=form, personal=personal,
        personal_rating=personal_rating)


def favourite(variants: Sequence[str]) -> str:
    """The most frequent variant (the earliest seen among equals); "" for none."""
    counts: dict[str, int] = {}
    for v in variants:
        counts[v] = counts.get(v, 0) + 1
    return max(counts, key=lambda v: counts[v]) if counts else ""


# -------------------------------------------------------------- match summary


_HOW = {EndReason.DROP: "double refused", EndReason.RESIGNATION: "resigned",
        EndReason.FORFEIT: "forfeit"}


def match_summary(names: tuple[str, str], length: int, records: Sequence[GameRecord],
                  analyses: Sequence[GameAnalysis | None] = (), *,
                  winner: Player | None = None) -> MatchSummary:
    """The summary of a match (``length`` 0: a money session) from its games'
    records in order, and the analysis of each game where it ran (``None`` or
    missing: not analysed).  ``winner`` overrides the score (a forfeited match)."""
    score = [0, 0]
    lines: list[GameLine] = []
    cubes: list[SummaryCube] = []
    for number, record in enumerate(records, 1):
        game = _game_of(record)
        count = 0
        for event in record.events:
            after = game.apply(event)
            if _is_play(game, event, after):
                count += 1
            if isinstance(event, _CUBE_EVENTS):
                who = int(event.player)
                if isinstance(event, DoubleOffered):
                    value = after.cube.offer.value if after.cube.offer else after.cube.value
                    cubes.append(SummaryCube(number, count + 1, who, f"doubles to {value}",
                                             value))
                elif isinstance(event, Beaver):
                    value = after.cube.offer.value if after.cube.offer else after.cube.value
                    cubes.append(SummaryCube(number, count + 1, who, f"beavers to {value}",
                                             value))
                elif isinstance(event, Take):
                    cubes.append(SummaryCube(number, count + 1, who, "takes",
                                             after.cube.value))
                else:
                    cubes.append(SummaryCube(number, count + 1, who, "drops",
                                             game.cube.value * 2))
            game = after
        r = game.result
        if r is None:
            continue
        score[r.winner] += r.points
        how = _HOW.get(r.reason, r.kind.label)
        if r.reason is not EndReason.BORNE_OFF and r.kind.label != "single":
            how += f" ({r.kind.label})"
        lines.append(GameLine(number, int(r.winner), r.points, how, r.cube,
                              (score[0], score[1]), record.crawford))
    lost = [0.0, 0.0]
    decided = [0, 0]
    ran = [False, False]
    for analysis in analyses:
        if analysis is None or not analysis.supported:
            continue
        for pa in analysis.players:
            ran[pa.player] = True
            lost[pa.player] += pa.total_lost
            decided[pa.player] += pa.decisions
    rates = tuple(lost[p] / decided[p] if ran[p] and decided[p] else (0.0 if ran[p] else None)
                  for p in (0, 1))
    won: int | None = int(winner) if winner is not None else None
    if won is None and length:
        won = next((p for p in (0, 1) if score[p] >= length), None)
    from bot.ai.grades import grade_match

    graded = grade_match(analyses)
    prs: tuple[float | None, float | None] = (None, None)
    grades = ("", "")
    lucks: tuple[float | None, float | None] = (None, None)
    if graded is not None:  # (no decision: no PR and no grade)
        white, black = graded.players
        prs = (white.pr if white.decisions else None, black.pr if black.decisions else None)
        grades = (white.grade if white.decisions else "",
                  black.grade if black.decisions else "")
        lucks = (white.luck, black.luck)
    return MatchSummary(names, length, tuple(lines), tuple(cubes), (rates[0], rates[1]),
                        (decided[0], decided[1]), won, prs, grades, lucks)
