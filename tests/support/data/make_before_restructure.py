"""How ``before_restructure.sqlite3`` was written: by the service as it was before the
host's restructuring (commit d77e8c6, when bot/service.py was one module), run from a
checkout of that commit:  PYTHONPATH=. python make_before_restructure.py OUT.sqlite3

Kept for the record; tests/service/core/test_stored_state.py reads the database with today's
service.  (It imports modules that no longer exist, so nothing imports or runs it now.)
"""
import asyncio, sys
from pathlib import Path
sys.path.insert(0, "tests")
from scripted import Script
from bot.config import Config, GameConfig
from bot.service import Actor, GameService, Place
from bot.storage import SqliteStorage
from bot.chouette_service import ChouetteService

A, B, C, D = Actor(1, "alice"), Actor(2, "bob"), Actor(3, "carol"), Actor(4, "dave")

async def main(path: str) -> None:
    storage = SqliteStorage(path)
    await storage.open()
    # channel 10: a money game at 5 a point, bob has entered half of his play (a draft)
    s = GameService(storage, Config(), dice=Script([3, 1, 6, 5, 2, 3, 4, 4, 1, 1]))
    g = Place(7, 10)
    assert (await s.challenge(g, A, B, stake=5, hints=True)).ok
    assert (await s.accept(g, B)).ok
    assert (await s.move(g, A, "8/5 6/5")).ok
    assert (await s.roll(g, B)).ok                       # bob 6-5
    r = await s.move(g, B, "24/18")                      # half a play: a draft
    assert r.ok and "entered" in r.text, r.text
    # channel 20: a rated 3-point match waiting for a Confirm (auto_confirm off)
    s2 = GameService(storage, Config(game=GameConfig(auto_confirm=False)), dice=Script([5, 2, 6, 4]))
    m = Place(7, 20)
    assert (await s2.challenge(m, C, D, length=3)).ok
    assert (await s2.accept(m, D)).ok
    r = await s2.move(m, C, "13/8 13/11")
    assert r.ok and "Confirm" in r.text, r.text
    # channel 30: a chouette game in progress with a partner's suggestion
    s3 = GameService(storage, Config(), dice=Script([6, 5, 4, 3, 2, 1, 3, 1, 6, 4]))
    t = ChouetteService(s3)
    h = Place(7, 30)
    assert (await t.open(h, A, stake=2)).ok
    for who in (B, C, D):
        assert (await t.join(h, who)).ok
    r = await t.start(h, A)
    assert r.ok, r.text
    r = await s3.move(h, A, "13/11 6/5")
    assert r.ok, r.text
    r = await t.suggest(h, C, "double, then 8/5 6/5")
    assert r.ok, r.text
    await storage.close()

asyncio.run(main(sys.argv[1]))
