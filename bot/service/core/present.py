"""What a committed action shows: the board, the turn line and the buttons of the next
actions, built from the :class:`~bot.service.core.work.Work` that made it."""

from __future__ import annotations

from bot.service.core.between import may_stop
from bot.service.core.drafts import draft_shown, stage_text
from bot.service.core.replies import Action, Board, Button, Notice, Reply, notice
from bot.service.core.takeback import unsettled_user
from bot.service.core.views import board, with_clocks
from bot.service.core.work import Loaded, Work
from bot.storage.interface import MatchRow, MatchStatus
from engine.dice import Dice
from engine.game import Action as GameAction
from engine.game import Game, Phase
from engine.move import Play
from engine.player import Player
from engine.variant import StandardBackgammon, Variant
from engine.words import article

_BUTTONS = {GameAction.ROLL: (Action.ROLL, "Roll"), GameAction.DOUBLE: (Action.DOUBLE, "Double"),
            GameAction.TAKE: (Action.TAKE, "Take"), GameAction.DROP: (Action.DROP, "Drop"),
            GameAction.BEAVER: (Action.BEAVER, "Beaver"),
            GameAction.ACCEPT_RESIGNATION: (Action.ACCEPT_RESIGNATION, "Accept resignation"),
            GameAction.REJECT_RESIGNATION: (Action.REJECT_RESIGNATION, "Reject resignation")}


def dice_text(dice: Dice) -> str:
    return f"{dice.first}-{dice.second}"


def play_text(game: Game, play: Play) -> str:
    """A play in the variant's canonical notation."""
    return game.variant.format_play(play) or "no move"


def example(game: Game) -> str:
    """A legal play to quote in a refusal."""
    plays = game.legal_plays()
    return play_text(game, plays[0]) if plays else "13/7"


def draft_text(work: Work, game: Game) -> str:
    """The moves entered so far this turn ("" if none, or if they are stale)."""
    draft = work.state.draft
    if draft is None or not draft.fits(work.game_id, len(game.record)):
        return ""
    return draft.text


def board_of(work: Work, game: Game) -> Board:
    # One orientation per game: white (the challenger, a chouette's box) at the bottom,
    # unless the match was made with the "on-roll" orientation.
    viewer = None if work.state.orientation == "on-roll" else Player.WHITE
    shown = board(game, work.session, work.loaded.names, chouette=work.seating.panel(work, game),
                  draft=draft_shown(work.state, work.game_id, game), viewer=viewer)
    return with_clocks(shown, work.clock_faces)


def turn_line(work: Work, game: Game, waiting: Player) -> Notice:
    who = work.mention(waiting)
    if game.phase is Phase.DOUBLED:
        beaver = (waiting, GameAction.BEAVER) in game.available_actions()
        return notice(who, ": take, drop or beaver?" if beaver else ": take or drop?")
    if game.phase is Phase.RESIGNATION:
        return notice(who, ": accept or reject the resignation?")
    if game.phase is Phase.PLAY and game.dice is not None:
        return notice(who, f" to play {stage_text(game)}.")
    if game.phase is Phase.CHOICE and game.pending_choice is not None:
        return notice(who, f": {game.pending_choice.prompt}")
    if not game.may_double(waiting):
        return notice("It's ", who, "'s turn: roll.")
    return notice("It's ", who, "'s turn: roll or double.")


def answer_awaited(loaded: Loaded) -> str:
    """What the game waits for when it waits for an answer (a double or a resignation
    offer), said to someone who typed ``/accept`` or ``/decline`` for it: "" otherwise."""
    game = loaded.game
    if game is None or game.awaiting is None:
        return ""
    names = loaded.names
    answerer = names[game.awaiting]
    if game.phase is Phase.DOUBLED and game.cube.offer is not None:
        beaver = (game.awaiting, GameAction.BEAVER) in game.available_actions()
        return (f"{names[game.cube.offer.doubler]} doubled to {game.cube.offer.value}: "
                f"{answerer} answers with /take or /drop" + (" (or /beaver)" if beaver else "")
                + ".")
    if game.phase is Phase.RESIGNATION and game.resignation is not None:
        return (f"{names[game.resignation.player]} offers to resign "
                f"{article(game.resignation.kind.label)}: {answerer} answers with the Accept "
                "resignation or Reject resignation button under that offer (/board shows "
                "it again).")
    return ""


def turn_key(work: Work, game: Game) -> str:
    """Which stage of which turn a Play button opens the move builder for: the game and
    the length of its record (any event, a play or a roll, makes it another)."""
    return f"{work.game_id}.{len(game.record)}"


def buttons(work: Work, game: Game) -> tuple[Button, ...]:
    acts = game.available_actions()
    out: list[Button] = []
    if game.phase is Phase.PLAY and game.turn is not None and (
            work.user(game.turn) != _ai_user(work)):  # the move builder (issue 31)
        out.append(Button(Action.STEPS, "Play", (work.user(game.turn),),
                          turn_key(work, game)))
    for game_action, (action, label) in _BUTTONS.items():
        users = tuple(sorted(work.user(p) for p, a in acts if a is game_action))
        if users:
            out.append(Button(action, label, users))
    if game.phase is Phase.CHOICE and game.pending_choice is not None and (
            game.turn is not None):
        for option in game.pending_choice.options:
            out.append(Button(Action.CHOOSE, option, (work.user(game.turn),), option))
    if draft_text(work, game) and game.turn is not None:
        out.append(Button(Action.UNDO, "Undo", (work.user(game.turn),)))
    if work.state.pending is not None and game.turn is not None:
        out.append(Button(Action.CONFIRM, "Confirm", (work.user(game.turn),)))
    mover = unsettled_user(work)
    if mover is not None and mover != _ai_user(work):  # the AI never takes a play back
        out.append(Button(Action.UNDO, "Take back", (mover,)))
    if may_stop(work.session, game, work.row.chouette_id is not None):
        out.append(Button(Action.STOP, "End session", players(work)))
    return tuple(out)


def _ai_user(work: Work) -> int | None:
    """The AI's user id in this match (None: two people play)."""
    return work.state.ai.user if work.state.ai is not None else None


def players(work: Work) -> tuple[int, ...]:
    """The two players' ids, without the AI's."""
    ai = _ai_user(work)
    return tuple(sorted(u for u in (work.row.white_id, work.row.black_id) if u != ai))


def bot_in_variant(variant: Variant) -> str:
    """What plays the bot in a book variant, as /rules and a challenge say it
    (:func:`bot.ai.tdnet.player.opponent_text`: our network where one ships, else the
    heuristic)."""
    from bot.ai.tdnet.player import opponent_text  # (loads numpy and the network's code)

    return opponent_text(variant)


def analysable_variant(name: str) -> bool:
    """Whether games of the variant ``name`` are analysed (standard backgammon, or a
    variant one of our own networks knows: :mod:`bot.ai.variant_analysis`)."""
    if name == StandardBackgammon.name:
        return True
    from bot.ai.variant_analysis import analysable_variant as known  # (loads numpy)

    return known(name)


def reply(work: Work, row: MatchRow, *, analysis: bool = False) -> Reply:
    """The reply to an action that committed ``row`` (``analysis``: the server analyses
    games, so a match's end offers its analysis)."""
    boards = list(work.boards)
    game = work.game
    shown: tuple[Button, ...] = ()
    if game is not None and row.status is MatchStatus.ACTIVE:
        boards.append(board_of(work, game))
        shown = buttons(work, game)
        waiting = game.awaiting
        if waiting is not None:
            work.notify.append(turn_line(work, game, waiting))
        shown = work.seating.decorate(work, game, shown)
    elif row.status is MatchStatus.FINISHED and row.chouette_id is None:
        # No [Rematch] after a tournament's match, no analysis of a variant no network
        # knows (issue 30 item 14; issue 46 item 4: our own networks know the others).
        if work.rematch:
            shown = (Button(Action.REMATCH, "Rematch", players(work)),)
        if analysis and analysable_variant(row.variant):
            shown += (Button(Action.ANALYZE, "Analyse the match", players(work)),)
    return Reply(ok=True, text="\n".join(work.lines), boards=tuple(boards),
                 buttons=shown, notify=tuple(work.notify), match_id=row.id,
                 version=row.version, attachment=work.attachment,
                 pictures=tuple(work.pictures), retire=tuple(work.retire))
