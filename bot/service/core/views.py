"""Build the renderer's :class:`~render.view.BoardView` from the host's state."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from bot.service.core.drafts import DraftShown, choice_dice_used, shown_dice, shown_stage
from bot.service.core.replies import Board
from engine.game import Game, Phase
from engine.gnubgid import (
    GameState,
    MatchIdState,
    Resignation,
    encode_match_id,
    encode_position_id,
)
from engine.match import Match, Session
from engine.move import Play
from engine.player import Player
from engine.position import Position
from engine.record import PlayMade
from engine.scoring import EndReason, ResultKind
from engine.variant import StandardBackgammon
from render.view import (
    BoardView,
    ChouetteView,
    CubeView,
    GameOverView,
    LastPlay,
    MatchInfo,
    MoneyInfo,
    Partner,
    PlayerInfo,
    ResignationView,
    StakeState,
)
from render.view import ResultKind as ViewResultKind


def last_play(game: Game) -> LastPlay | None:
    """The most recent play with at least one move, for highlighting."""
    for event in reversed(game.record):
        if isinstance(event, PlayMade) and event.moves:
            return LastPlay(event.player, event.moves,
                            game.variant.format_play(Play(event.moves, (), game.position)))
    return None


def scores(session: Session) -> tuple[int, int]:
    if isinstance(session, Match):
        return session.score
    return session.points


def chouette_panel(partners: Sequence[tuple[str, StakeState]], *,
                   box: Player = Player.WHITE,
                   box_partners: Sequence[str] = ()) -> ChouetteView:
    """The chouette panel: ``box`` plays the captain; ``partners`` are the captain's
    partners in list order with their stake in this game; ``box_partners`` the box's."""
    return ChouetteView(box=box, partners=tuple(Partner(n, s) for n, s in partners),
                        box_partners=tuple(box_partners))


def board_view(game: Game, session: Session, names: tuple[str, str], *,
               viewer: Player | None = None,
               chouette: ChouetteView | None = None,
               draft: DraftShown | None = None) -> BoardView:
    """What the picture of ``game`` shows (with the chouette panel, if given; with the
    moves entered so far this turn, if ``draft``)."""
    score = scores(session)
    players = (PlayerInfo(names[0], score=score[0]), PlayerInfo(names[1], score=score[1]))
    if chouette is not None:
        # One game per box/captain pairing: the session score means nothing here.
        notes = ("box", "captain") if chouette.box is Player.WHITE else ("captain", "box")
        players = (PlayerInfo(names[0], note=notes[0]), PlayerInfo(names[1], note=notes[1]))
    cube: CubeView | None = None
    if game.cube_in_use or game.cube.value > 1:
        offer = game.cube.offer if game.phase is Phase.DOUBLED else None
        offered = offer.answerer if offer is not None else None
        # During a pending double the cube still shows the value before it; a beaver is
        # shown as one (issue 30 item 5).
        cube = CubeView(value=game.cube.value, owner=game.cube.owner, offered_to=offered,
                        beaver=offer is not None and offer.beaver)
    dice = shown_dice(game)
    dice_stage, thrown = shown_stage(game)
    resignation = None
    if game.phase is Phase.RESIGNATION and game.resignation is not None:
        # The mover keeps his dice; the offer is drawn (issue 30 item 2).
        resignation = ResignationView(game.resignation.player,
                                      ViewResultKind(ResultKind(game.resignation.kind).label))
    match_info = None
    money = None
    if isinstance(session, Match):
        match_info = MatchInfo(session.length, crawford=game.crawford,
                               post_crawford=session.post_crawford and not game.crawford)
    else:
        money = MoneyInfo(stake=f"{session.stake}/point" if session.stake else "",
                          game_value=game.cube.value)
    over = None
    if game.result is not None:
        over = GameOverView(game.result.winner, ViewResultKind(game.result.kind.label),
                            game.result.points)
    variant_title = "" if isinstance(game.variant, StandardBackgammon) else game.variant.title
    shown_last = last_play(game)
    if draft is not None and draft.moves and game.turn is not None:
        shown_last = LastPlay(game.turn, draft.moves, game.variant.format_play(
            Play(draft.moves, (), draft.position)))
    return BoardView(
        position=draft.position if draft is not None else game.position,
        geometry=tuple(game.variant.opposite),
        viewer=viewer,
        turn=(game.turn if resignation is not None or game.awaiting is None
              else game.awaiting),
        players=players,
        cube=cube,
        dice=dice,
        dice_used=draft.dice_used if draft is not None else choice_dice_used(game),
        match=match_info,
        money=money,
        last_play=shown_last,
        variant=variant_title,
        game_over=over,
        chouette=chouette,
        resignation=resignation,
        dice_stage=dice_stage,
        thrown=thrown,
    )


def gnubg_ids(game: Game, session: Session,
              position: Position | None = None) -> tuple[str, str]:
    """(Position ID, Match ID) of the position shown (``position``: a draft's), for
    standard backgammon only."""
    if not isinstance(game.variant, StandardBackgammon) or game.turn is None:
        return "", ""
    on_roll = game.turn
    state = GameState.PLAYING
    resignation = Resignation.NONE
    if game.result is not None:
        state = {EndReason.DROP: GameState.DROPPED,
                 EndReason.RESIGNATION: GameState.RESIGNED}.get(game.result.reason,
                                                               GameState.OVER)
    if game.resignation is not None:
        resignation = Resignation(int(game.resignation.kind))
    dice = None
    if game.phase is Phase.PLAY and game.dice is not None:
        dice = (game.dice.first, game.dice.second)
    length = session.length if isinstance(session, Match) else 0
    score = scores(session)
    if length:
        score = (min(score[0], length), min(score[1], length))
    try:
        match_id = encode_match_id(MatchIdState(
            cube_value=game.cube.value, cube_owner=game.cube.owner, on_roll=on_roll,
            crawford=game.crawford, game_state=state,
            turn=game.awaiting if game.awaiting is not None else on_roll,
            double_offered=game.phase is Phase.DOUBLED, resignation=resignation, dice=dice,
            match_length=length, score=score,
            jacoby=bool(game.rules.jacoby) if not length else False))
    except ValueError:
        match_id = ""
    return encode_position_id(position or game.position, on_roll), match_id


def with_clocks(shown: Board, faces: tuple[str, str] | None) -> Board:
    """``shown`` with each player's time left (``faces``: white's, black's; None: no
    clock) beside the names (issue 44 item 7)."""
    if faces is None:
        return shown
    view = shown.view
    players = (replace(view.players[0], clock=faces[0]),
               replace(view.players[1], clock=faces[1]))
    return replace(shown, view=replace(view, players=players))


def board(game: Game, session: Session, names: tuple[str, str], caption: str = "", *,
          viewer: Player | None = None, chouette: ChouetteView | None = None,
          draft: DraftShown | None = None) -> Board:
    position_id, match_id = gnubg_ids(game, session,
                                      draft.position if draft is not None else None)
    view = board_view(game, session, names, viewer=viewer, chouette=chouette, draft=draft)
    if position_id:  # printed on the picture too (issue 19, item 5)
        view = replace(view, ids=f"Position ID {position_id}  Match ID {match_id}".rstrip())
    return Board(view, caption, position_id, match_id)

