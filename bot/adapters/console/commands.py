"""The console's commands that are not actions of the action table: ``/challenge``,
``/leaderboard``, ``/chouette``, ``/settings``, ``/demo`` ...: each reads what was typed and
makes the service's call, as the Discord cogs do."""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable

from bot.adapters.console.demo import DEMO_BOUND, play_demo
from bot.adapters.console.puzzles import puzzle
from bot.adapters.console.screen import Screen, channel_id, role_id, shown_name
from bot.adapters.console.tournament import tournament
from bot.service.core.replies import Action
from bot.service.core.values import Actor
from engine.rules import whole_number


class Commands(Screen):
    """The console's state, with its commands."""

    def commands(self) -> dict[str, Callable[[Actor, str], Awaitable[None]]]:
        s = self.service

        async def challenge(actor: Actor, rest: str) -> None:
            try:
                words = shlex.split(rest)
            except ValueError as exc:
                self.say(f"  (only you see this) Can't read that: {exc}.")
                return
            if not words or not shown_name(words[0]):
                self.say("  (only you see this) Name an opponent: /challenge @bob")
                return
            opponent = self.actor(words[0])
            options: dict[str, str] = {}
            for word in words[1:]:
                key, eq, value = word.partition("=")
                if not eq:
                    self.say(f"  (only you see this) Options are key=value, not {word!r}.")
                    return
                options[key.strip().lower()] = value.strip()
            length = whole_number(options.pop("length", "0"))
            stake = whole_number(options.pop("stake", "0"))
            variant = options.pop("variant", None)
            level = options.pop("level", None)
            hints = options.pop("hints", "off").lower() in ("on", "yes", "true", "1")
            if length is None or stake is None:
                self.say("  (only you see this) length and stake are whole numbers, in the "
                         "digits 0 to 9 (at most 18 of them): e.g. length=5 or stake=2.")
                return
            if s.ai_actor is not None and opponent.name.lower() == s.ai_actor.name.lower():
                opponent = s.ai_actor
            await self.show(await s.challenge(self.place, actor, opponent, variant=variant,
                                              rules=options, length=length,
                                              stake=stake, level=level, hints=hints))

        async def answer(actor: Actor, rest: str) -> None:
            word = rest.lower()
            if word not in ("accept", "reject"):
                self.say("  (only you see this) /answer accept or /answer reject")
                return
            action = Action.ACCEPT_RESIGNATION if word == "accept" else Action.REJECT_RESIGNATION
            await self.show(await s.act(action, self.place, actor))

        async def leaderboard(actor: Actor, rest: str) -> None:
            words = rest.split()
            order = words[0] if words else "rating"
            page = whole_number(words[1]) if len(words) > 1 else 1
            if page is None:
                self.say(f"  (only you see this) The page is a whole number, not "
                         f"{words[1][:20]!r}: e.g. /leaderboard {order} 2")
                return
            await self.show(await s.leaderboard(self.place, actor, order, page))

        async def stats(actor: Actor, rest: str) -> None:
            if rest and not shown_name(rest):  # "/stats @" (issue 30 item 15)
                self.say("  (only you see this) Name a player after the @, like /stats @bob "
                         "(or /stats alone for your own card).")
                return
            target = self.actor(rest) if rest else None
            await self.show(await s.stats(self.place, actor, target))

        async def verify(actor: Actor, rest: str) -> None:
            number, ok = game_number(rest)
            if not ok:
                self.say(f"  (only you see this) /verify takes a game number as the channel "
                         f"shows it (\"Game 2 begins\"), not {rest[:20]!r}.")
                return
            await self.show(await s.verify(self.place, actor, number))

        async def rules(actor: Actor, rest: str) -> None:
            await self.show(await s.rules(rest or None, self.place))

        async def demo(actor: Actor, rest: str) -> None:
            await self.demo()

        async def chouette(actor: Actor, rest: str) -> None:
            table = s.chouette
            sub, _, text = rest.partition(" ")
            sub = sub.lower()
            if sub == "open":
                options: dict[str, str] = {}
                for word in text.split():
                    key, eq, value = word.partition("=")
                    if not eq:
                        self.say(f"  (only you see this) Options are key=value, not {word!r}.")
                        return
                    options[key.strip().lower().replace("-", "_")] = value.strip()
                numbers = {"stake": 1, "cap": 6, "box_partners": 0}
                for key in numbers.keys() & options.keys():
                    parsed = whole_number(options.pop(key))
                    if parsed is None:
                        self.say("  (only you see this) stake, cap and box_partners are "
                                 "whole numbers, in the digits 0 to 9 (at most 18 of them).")
                        return
                    numbers[key] = parsed
                await self.show(await table.open(
                    self.place, actor, stake=numbers["stake"], cap=numbers["cap"],
                    box_partners=numbers["box_partners"],
                    refusal=options.pop("refusal", "lose-to-captain"),
                    captain_refusal=options.pop("captain_refusal", "final-word"),
                    variant=options.pop("variant", None), rules=options))
            elif sub == "join":
                await self.show(await table.join(self.place, actor))
            elif sub == "leave":
                await self.show(await table.leave(self.place, actor,
                                                  confirm=text.strip().lower() == "confirm"))
            elif sub == "start":
                await self.show(await table.start(self.place, actor))
            elif sub == "suggest":
                await self.show(await table.suggest(self.place, actor, text))
            elif sub == "status":
                await self.show(await table.status(self.place, actor))
            else:
                self.say("  (only you see this) /chouette open|join|leave|start|suggest|status")

        async def export(actor: Actor, rest: str) -> None:
            fmt, number = "mat", None
            for word in rest.split():
                key, eq, value = word.partition("=")
                if not eq:  # /export sgf
                    key, value = "format", key
                if key.lower() == "format":
                    fmt = value
                elif key.lower() == "game" and (game := whole_number(value)) is not None:
                    number = game
                else:
                    self.say("  (only you see this) /export [mat|sgf] [game=N] (format=sgf "
                             f"for analysis in GNU Backgammon), not {word[:20]!r}.")
                    return
            await self.show(await s.export(self.place, actor, fmt, number))

        async def history(actor: Actor, rest: str) -> None:
            number, ok = game_number(rest)
            if not ok:
                self.say(f"  (only you see this) /history [game number], not {rest[:20]!r}.")
                return
            await self.show(await s.history(self.place, actor, number))

        async def hint(actor: Actor, rest: str) -> None:
            await self.show(await s.hint(self.place, actor))

        # pictures (issue 18): /replay [game]; /analyze [game] [match] [depth=expert]
        async def analyze(actor: Actor, rest: str) -> None:
            number: int | None = None
            depth: str | None = None
            whole_match = False
            for word in rest.split():
                if word.lower() == "match":
                    whole_match = True
                elif word.lower().startswith("depth="):
                    depth = word.split("=", 1)[1]
                elif number is None and (
                        game := whole_number(word.removeprefix("game="))) is not None:
                    number = game
                else:
                    self.say("  (only you see this) /analyze [game number] [match] "
                             f"[depth=strong|expert], not {word[:20]!r}.")
                    return
            await self.show(await s.analyze(self.place, actor, number, depth,
                                            whole_match=whole_match))

        async def settings(actor: Actor, rest: str) -> None:
            # Everyone may change the settings in the console (it is one person's table).
            sub, _, text = rest.strip().partition(" ")
            sub, text = sub.lower(), text.strip()
            key, _, value = text.partition(" ")
            if sub in ("", "show"):
                await self.show(await s.settings_show(self.place, actor, text or None))
            elif sub == "set" and key and value.strip():
                await self.show(await s.settings_set(self.place, actor, key, value.strip(),
                                                     manage_server=True,
                                                     names=ConsoleNames(self)))
            elif sub == "reset" and key and not value:
                await self.show(await s.settings_reset(self.place, actor, key,
                                                       manage_server=True))
            else:
                self.say("  (only you see this) /settings show [KEY] | /settings set KEY VALUE "
                         "| /settings reset KEY (e.g. /settings set threads off)")

        async def replay(actor: Actor, rest: str) -> None:
            word = rest.strip()
            number = whole_number(word)
            if word and number is None:
                self.say("  (only you see this) /replay [game number], e.g. /replay 2")
                return
            await self.show(await s.replay(self.place, actor, number))

        return {
            "challenge": challenge, "answer": answer, "leaderboard": leaderboard,
            "stats": stats, "verify": verify, "rules": rules, "export": export, "hint": hint,
            "analyze": analyze, "demo": demo, "chouette": chouette, "replay": replay,
            "history": history,  # issue 19 item 11
            "tournament": lambda actor, rest: tournament(self, actor, rest, channel_id),
            "tournament-admin": lambda actor, rest: tournament(self, actor, rest, channel_id),
            "settings": settings,
            "puzzle": lambda actor, rest: puzzle(self, actor, rest),  # issue 33
        }

    async def demo(self, limit: int = DEMO_BOUND) -> None:
        """``/demo``: :func:`~bot.adapters.console.demo.play_demo`."""
        await play_demo(self, limit)


class ConsoleNames:
    """Channels and roles as the console names them: ``#name`` (or ``here``) and
    ``@name``."""

    def __init__(self, console: Screen) -> None:
        self.console = console

    def takes_messages(self, channel_id: int) -> bool:
        return True  # every console channel is a text channel

    def channel(self, word: str) -> int | None:
        name = word.strip().removeprefix("#")
        if name.lower() == "here":
            return self.console.place.channel_id
        if not name or len(name) > 100:
            return None
        if name not in self.console.channel_names:
            self.console.channel_names.append(name)
        return channel_id(name)

    def role(self, word: str) -> int | None:
        name = word.strip().removeprefix("@")
        if not name or len(name) > 100:
            return None
        self.console.role_names[role_id(name)] = name
        return role_id(name)


def game_number(text: str) -> tuple[int | None, bool]:
    """A game number typed after /verify or /history: (number or None, readable)."""
    text = text.strip().removeprefix("game=").lstrip("#")
    if not text:
        return None, True
    number = whole_number(text)
    return number, number is not None
