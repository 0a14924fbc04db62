"""The console plays as in a DM or a group DM (issue 32): ``/dm NAME`` and ``/group NAME``
switch to a conversation without a server, ``/channel NAME`` back to the server."""

from __future__ import annotations

import io
from pathlib import Path

from scripted import Script, opened

from bot.adapters.console import Console
from bot.config import Config
from bot.service.core.values import PERSONAL
from bot.service.game import GameService


async def test_a_match_in_a_dm_and_what_needs_a_server(tmp_path: Path) -> None:
    storage = await opened(tmp_path / "c.sqlite3")
    out = io.StringIO()
    console = Console(GameService(storage, Config(), dice=Script([3, 1])),  # type: ignore[arg-type]
                      tmp_path / "boards", out=out)
    assert await console.handle("/dm alice-bob")
    assert "now in the DM 'alice-bob': a conversation without a server" in out.getvalue()
    assert console.place.guild_id == PERSONAL and not console.place.in_server
    assert await console.handle("alice: /challenge @bob length=1")
    assert await console.handle("bob: /accept")
    assert "@alice to play 3-1." in out.getvalue()
    for refused in ("alice: /chouette open", "alice: /leaderboard", "alice: /claim",
                    "alice: /settings set variant russian",
                    "alice: /tournament create name=cup format=knockout"):
        mark = len(out.getvalue())
        assert await console.handle(refused)
        said = out.getvalue()[mark:]
        assert "needs a server, not this DM" in said and "/challenge" in said, (refused, said)
    assert await console.handle("bob: /forfeit confirm")
    assert "wins the 1-point match" in out.getvalue()
    mark = len(out.getvalue())
    assert await console.handle("alice: /stats")
    assert "personal rating (games outside servers)" in out.getvalue()[mark:]
    async with storage.snapshot() as tx:
        row = await tx.latest_match_in_channel(console.place.channel_id)
        assert row is not None and (row.guild_id, row.place_kind) == (PERSONAL, "dm")
    # A group DM is another place; /channel goes back to the server's channels.
    assert await console.handle("/group friends")
    assert console.place.channel_id != row.channel_id and not console.place.in_server
    assert await console.handle("alice: /challenge @carol stake=2")
    assert await console.handle("/channel table")
    assert console.place.in_server and console.place.guild_id != PERSONAL

    # Started again on the same database, the console names the group DM's challenge and
    # the command that goes back to it.
    again = io.StringIO()
    restarted = Console(GameService(storage, Config()), tmp_path / "boards", out=again)
    await restarted.resume()
    assert ("the group DM 'friends' (/group friends): alice challenges carol"
            in again.getvalue()), again.getvalue()
