"""One process of the tournament race test: ends one match by forfeit when told to.

    python tests/support/tournament_race.py DB GUILD CHANNEL LOSER GO

``DB`` is a SQLite file or a ``postgresql://`` URL.  Prints ``ready`` once the database is
open, waits for the file ``GO`` to exist, then has user ``LOSER`` forfeit the match in
``CHANNEL`` and prints the reply as one JSON line (ok, text).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from bot.config import Config  # noqa: E402
from bot.service.core.values import Actor, Place  # noqa: E402
from bot.service.game import GameService  # noqa: E402


async def main(db: str, guild: int, channel: int, loser: int, go: Path) -> int:
    storage: Any
    if db.startswith("postgresql://"):
        from bot.storage.postgres import PostgresStorage

        storage = PostgresStorage(db, pool_size=2)
    else:
        from bot.storage.sqlite import SqliteStorage

        storage = SqliteStorage(db)
    await storage.open()
    try:
        service = GameService(storage, Config())
        print("ready", flush=True)
        while not go.exists():
            time.sleep(0.001)  # spin: both processes start their action together
        reply = await service.forfeit(Place(guild, channel), Actor(loser, f"p{loser}"))
        print(json.dumps({"ok": reply.ok, "text": reply.text}), flush=True)
    finally:
        await storage.close()
    return 0


if __name__ == "__main__":
    db, guild, channel, loser, go = sys.argv[1:6]
    raise SystemExit(asyncio.run(main(db, int(guild), int(channel), int(loser), Path(go))))
