"""Puzzles made from the server's own blunders (issue 33, item 5).

A decision of one of the server's players that lost at least the server's minimum equity
becomes a puzzle when its game's analysis is kept (:mod:`bot.service.analysis.store`):
the position before it, the dice (a play) or the cube decision (double or not; take or
pass), the analysis' candidates with their equities, the best answer and the one played.

* ``/puzzle [number]`` shows a puzzle (by default the server's oldest one the asker has
  not answered) as a board picture with its answers offered: a select menu of the
  candidate plays in notation order (the order hints nothing), or a button per cube
  answer; the question names nobody unless the server's setting says so;
* ``/puzzle answer ...`` (or the menu, or a button) is judged by the analysis: right when
  it is the best answer or within :data:`CORRECT_WITHIN` of it; a right answer scores a
  point, and only a player's first answer to a puzzle counts (``/leaderboard puzzles``);
* a server may have a puzzle posted every day in a channel of its choice: each day's post
  is claimed once per server, cluster-wide, and marked sent after the post (a claim
  whose post never went out, its process killed, is taken again after
  :data:`DAILY_STALE`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from bot.service.analysis.settings import AnalysisSettings
from bot.service.core.replies import PuzzleChoices, Refusal, Reply
from bot.service.core.runner import ActionRunner
from bot.service.core.values import MAX_ID, Actor, Place, bad_ids, without_server
from bot.service.core.views import board
from bot.service.pictures.service import session_before
from bot.storage.interface import PuzzleRow, Transaction
from bot.storage.replay import replay_game
from engine.errors import BackgammonError
from engine.game import Game
from engine.match import Session
from engine.player import Player
from engine.words import article, counted

CORRECT_WITHIN = 0.005
"""An answer this close to the best (EMG) is right: the analysis cannot tell them apart."""
DAILY_STALE = timedelta(minutes=10)
"""A daily post claimed this long ago and never marked sent is claimed again."""

CUBE_WORDS = {"double": "double", "d": "double", "dbl": "double",
              "no double": "no double", "nodouble": "no double", "no-double": "no double",
              "nd": "no double", "roll": "no double", "no": "no double",
              "take": "take", "t": "take", "accept": "take",
              "pass": "pass", "drop": "pass", "p": "pass", "refuse": "pass"}
"""The words a cube answer may be typed as."""

TASKS = {"play": "find the best play", "double": "double, or no double?",
         "take": "you are doubled: take or pass?"}


@dataclass(frozen=True, slots=True)
class Judged:
    """An answer as the analysis judges it."""

    answer: str
    """The answer in the puzzle's own words (a play in notation, a cube answer)."""
    correct: bool
    lost: float
    """Equity it gives up against the best (a lower bound when ``known`` is false)."""
    known: bool
    """Whether the analysis weighed this answer (a play outside its candidates was not)."""


@dataclass(frozen=True, slots=True)
class DailyPost:
    """The daily puzzle of a server, to post in ``channel_id`` then mark sent."""

    guild_id: int
    day: str
    channel_id: int
    puzzle_id: int
    reply: Reply


class Puzzles:
    """``/puzzle``, its answers, and the daily puzzle."""

    def __init__(self, runner: ActionRunner, settings: AnalysisSettings) -> None:
        self.runner = runner
        self.storage = runner.storage
        self.settings = settings

    # ---------------------------------------------------------------- showing

    async def show(self, place: Place, actor: Actor, number: int | None = None) -> Reply:
        """Puzzle ``number`` of this server, else the oldest one ``actor`` has not answered."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        if not place.in_server:
            return Reply.refuse(without_server(
                place, "Puzzles", "they are made from the blunders of a server's own graded "
                "games. Ask /hint during a game, or /analyze a finished one, instead.",
                many=True))
        try:
            async with self.storage.snapshot() as tx:
                puzzle = await self._find(tx, place, actor, number)
                return await self._puzzle_reply(tx, puzzle)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))

    async def _find(self, tx: Transaction, place: Place, actor: Actor,
                    number: int | None) -> PuzzleRow:
        if number is not None:
            puzzle = await tx.get_puzzle(number) if 0 < number <= MAX_ID else None
            if puzzle is None or puzzle.guild_id != place.guild_id:
                count = await tx.puzzle_count(place.guild_id)
                raise Refusal(f"There is no puzzle #{number} on this server"
                              + (f" ({counted(count, 'puzzle')} so far): /puzzle alone shows "
                                 "the next one for you." if count else ": none so far."))
            return puzzle
        puzzle = await tx.next_puzzle(place.guild_id, actor.id)
        if puzzle is not None:
            return puzzle
        settings = await self.settings.for_guild(place.guild_id, tx)
        count = await tx.puzzle_count(place.guild_id)
        if count:
            answered = "the only puzzle" if count == 1 else f"all {counted(count, 'puzzle')}"
            raise Refusal(f"You have answered {answered} of this server: new ones "
                          "come from the server's next graded matches (/puzzle N shows "
                          "puzzle N again).")
        raise Refusal("No puzzle yet on this server: puzzles are made from the decisions of "
                      "its players in graded matches (standard backgammon, and the variants "
                      "our own networks know) that lost at least "
                      f"{settings.puzzle_min_equity:.3f} of equity.")

    async def _before(self, tx: Transaction, puzzle: PuzzleRow) -> tuple[Game, Session]:
        """The game just before the puzzle's decision, and the match as it stood then."""
        row = await tx.get_match(puzzle.match_id)
        game_row = await tx.get_game(puzzle.game_id)
        if row is None or game_row is None:  # pragma: no cover - rows are never deleted
            raise Refusal(f"Puzzle #{puzzle.id}'s game is gone.")
        events = await tx.events(game_row.id)
        game = replay_game(row, game_row, events[:puzzle.event_index])
        session = session_before(row, await tx.games_of_match(row.id), game_row)
        return game, session

    async def _puzzle_reply(self, tx: Transaction, puzzle: PuzzleRow) -> Reply:
        settings = await self.settings.for_guild(puzzle.guild_id, tx)
        game, session = await self._before(tx, puzzle)
        data = puzzle.data
        side = Player(int(data["side"]))
        names = self._names(data, side, anonymous=settings.anonymous_puzzles)
        task = TASKS[puzzle.kind]
        if puzzle.kind == "play" and data.get("dice"):
            task = f"{data['dice'][0]}-{data['dice'][1]} to play: {task}"
        caption = f"Puzzle #{puzzle.id}: {names[side]} - {task}"
        where = (article(f"{data['length']}-point match") if data.get("length")
                 else "a money game")
        if settings.anonymous_puzzles:
            source = f"From {where} on this server."
        else:
            real = data.get("names") or ["?", "?"]
            source = (f"From {real[0]} - {real[1]}, {where}, game {data.get('game_number')}: "
                      f"{real[side]} to decide.")
        options = sorted(c[0] for c in data["candidates"]) if puzzle.kind == "play" else (
            ["double", "no double"] if puzzle.kind == "double" else ["take", "pass"])
        how = ("pick a play in the menu, or type /puzzle answer with your play"
               if puzzle.kind == "play" else "press a button, or type /puzzle answer")
        judge = str(data.get("judge") or "")
        by = f" ({judge})" if judge else ""
        stop = "" if task.endswith("?") else "."  # ("no double?. From": issue 42 item 11)
        lines = [f"Puzzle #{puzzle.id}: {task}{stop} {source}",
                 f"Answer: {how} (puzzle:{puzzle.id}). The analysis{by} judges it; a right "
                 "first answer scores a point (/leaderboard puzzles)."]
        shown = board(game, session, names, caption, viewer=side)
        return Reply(ok=True, text="\n".join(lines), boards=(shown,),
                     puzzle=PuzzleChoices(puzzle.id, tuple(options[:25]),
                                          buttons=puzzle.kind != "play"))

    @staticmethod
    def _names(data: dict[str, object], side: Player, *, anonymous: bool) -> tuple[str, str]:
        if anonymous:
            return ("You", "Opponent") if side is Player.WHITE else ("Opponent", "You")
        real = data.get("names")
        if isinstance(real, list) and len(real) == 2:
            return (str(real[0]), str(real[1]))
        return ("White", "Black")

    # -------------------------------------------------------------- answering

    async def answer(self, place: Place, actor: Actor, text: str,
                     number: int | None = None) -> Reply:
        """Judge ``actor``'s answer to puzzle ``number`` (by default the one ``/puzzle``
        shows him now) and score his first answer."""
        if (bad := bad_ids(place, actor)) is not None:
            return Reply.refuse(bad)
        if not place.in_server:
            return Reply.refuse(without_server(
                place, "Puzzles", "they are made from the blunders of a server's own graded "
                "games. Ask /hint during a game, or /analyze a finished one, instead.",
                many=True))
        typed = " ".join(text.split())
        if not typed:
            return Reply.refuse("Say your answer: a play such as /puzzle answer 13/7 8/7, or "
                                "double, no double, take, pass.")
        try:
            async with self.storage.snapshot() as tx:
                puzzle = await self._find(tx, place, actor, number)
                game, _ = await self._before(tx, puzzle)
            judged = judge(puzzle, game, typed)
        except Refusal as refusal:
            return Reply.refuse(str(refusal))
        now = self.runner.now()

        async def record(tx: Transaction) -> tuple[bool, tuple[int, int], str, bool]:
            await self.runner.note_user(tx, actor)
            first = await tx.answer_puzzle(
                puzzle_id=puzzle.id, user_id=actor.id, guild_id=place.guild_id,
                answer=judged.answer, correct=judged.correct, lost=judged.lost,
                score=int(judged.correct), now=now)
            earlier = await tx.puzzle_answer(puzzle.id, actor.id)
            assert earlier is not None
            return (first, await tx.puzzle_record(place.guild_id, actor.id), earlier.answer,
                    earlier.correct)

        first, (answered, score), earlier, was_right = await self.storage.run(record)
        return Reply(ok=True, ephemeral=True,
                     text=self._verdict(puzzle, judged, first, earlier, was_right, answered,
                                        score))

    @staticmethod
    def _verdict(puzzle: PuzzleRow, judged: Judged, first: bool, earlier: str,
                 was_right: bool, answered: int, score: int) -> str:
        data = puzzle.data
        best = str(data["best"])
        cands = [(str(t), float(e)) for t, e in data["candidates"]]
        top = cands[0][1] if cands else 0.0
        if judged.correct:
            head = f"Right: {judged.answer} is the best answer to puzzle #{puzzle.id}."
        elif judged.known:
            head = (f"Not the best: {judged.answer} gives up {judged.lost:.3f} against "
                    f"{best}, the best answer to puzzle #{puzzle.id}.")
        else:
            head = (f"Not the best: {judged.answer} is not among the "
                    f"{counted(len(cands), 'play')} the analysis weighed (it gives up at least "
                    f"{judged.lost:.3f}); the best answer to puzzle #{puzzle.id} is {best}.")
        lines = [head]
        if puzzle.kind == "play":
            lines.append("The best plays: " + ", ".join(
                f"{t} ({e - top:+.3f})" if e != top else f"{t} (best)" for t, e in cands[:3])
                + ".")
        else:
            lines.append("Equities: " + ", ".join(f"{t} {e:+.3f}" for t, e in cands) + ".")
        lines.append(f"In the game, {data['played']} was played ({float(data['lost']):.3f} "
                     "lost).")
        if not first:
            lines.append(f"You answered this puzzle before ({earlier}, "
                         f"{'right' if was_right else 'not the best'}): only a first answer "
                         "counts.")
        lines.append(f"Your puzzle score here: {score} right of {answered} answered.")
        return "\n".join(lines)

    # ------------------------------------------------------------ the daily one

    async def due_daily(self, now: datetime | None = None) -> list[DailyPost]:
        """The daily puzzles to post now, each claimed for this process (post each, then
        :meth:`daily_sent`)."""
        when = now or datetime.now(UTC)
        if when.hour < self.settings.daily_puzzle_hour:
            return []
        day = when.date().isoformat()
        stamp = when.isoformat(timespec="milliseconds")
        stale = (when - DAILY_STALE).isoformat(timespec="milliseconds")
        posts = []
        for guild, channel in sorted((await self.settings.daily_puzzle_channels()).items()):
            async with self.storage.snapshot() as tx:
                done = await tx.daily_puzzle(guild, day)
                waiting = await tx.next_daily_puzzle(guild)
            if (done is not None and done[1] is not None) or waiting is None:
                continue  # posted today already, or no puzzle yet: look again later

            async def claim(tx: Transaction, g: int = guild, c: int = channel) -> bool:
                return await tx.claim_daily_puzzle(g, day, c, stamp, stale)

            if not await self.storage.run(claim):
                continue  # another process (or an earlier round) is posting it
            async with self.storage.snapshot() as tx:
                puzzle = await tx.next_daily_puzzle(guild)
                reply = await self._puzzle_reply(tx, puzzle) if puzzle is not None else None
            if puzzle is None or reply is None:  # pragma: no cover - puzzles are never deleted
                continue
            daily = Reply(ok=True, text=f"Puzzle of the day ({day}):\n{reply.text}",
                          boards=reply.boards, puzzle=reply.puzzle)
            posts.append(DailyPost(guild, day, channel, puzzle.id, daily))
        return posts

    async def daily_sent(self, post: DailyPost, now: datetime | None = None) -> None:
        """``post`` went out: it is not posted again."""
        stamp = (now or datetime.now(UTC)).isoformat(timespec="milliseconds")
        await self._mark(post.guild_id, post.day, post.puzzle_id, stamp)

    async def _mark(self, guild: int, day: str, puzzle: int | None, stamp: str) -> None:
        async def work(tx: Transaction) -> None:
            await tx.daily_puzzle_sent(guild, day, puzzle, stamp)

        await self.storage.run(work)


def judge(puzzle: PuzzleRow, game: Game, text: str) -> Judged:
    """``text`` as an answer to ``puzzle`` (``game``: the position before the decision);
    a refusal saying why when it is no answer (an illegal or unreadable play, a word that
    is not a cube answer)."""
    data = puzzle.data
    cands = {str(t): float(e) for t, e in data["candidates"]}
    best = max(cands.values())
    if puzzle.kind == "play":
        stage = game.stage
        player = game.turn
        assert stage is not None and player is not None
        try:
            play = game.variant.resolve_play(text, game.position, player, stage,
                                             game.legal_plays())
        except BackgammonError as error:
            raise Refusal(f"{error} Puzzle #{puzzle.id} asks for a whole play of "
                          f"{data['dice'][0]}-{data['dice'][1]}, e.g. /puzzle answer "
                          f"{data['best']}.") from None
        answer = game.variant.format_play(play)
        if answer in cands:
            lost = best - cands[answer]
            return Judged(answer, lost <= CORRECT_WITHIN, lost, True)
        return Judged(answer, False, best - min(cands.values()), False)
    word = CUBE_WORDS.get(text.strip().lower())
    allowed = ("double", "no double") if puzzle.kind == "double" else ("take", "pass")
    if word not in allowed:
        raise Refusal(f"Puzzle #{puzzle.id} is a cube decision: answer {allowed[0]} or "
                      f"{allowed[1]}.")
    lost = best - cands[word]
    return Judged(word, lost <= CORRECT_WITHIN, lost, True)

