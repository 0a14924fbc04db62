"""/lobby's Accept and Join buttons, end to end through the fake Discord (issue 44 item 3):
persistent buttons on the private lobby; a press goes to the same service entry points as
/accept and /queue join, and the game is played where the challenge waits."""

from __future__ import annotations

from discord_e2e import Host, assert_board_message, private, users
from fake_discord import FakeDiscord


async def test_lobby_accept_and_join_buttons(fake: FakeDiscord, host: Host) -> None:
    alice, bob, carol = users(fake)
    dave = fake.user("dave")
    elsewhere = fake.add_channel("lobby")
    await host.start()
    challenge = await (await fake.slash(alice, "challenge", length=1)).public()
    await fake.until(lambda: challenge.labels() == ["Accept", "Withdraw"])
    # The lobby, privately, in another channel: an Accept per open challenge, and Join.
    carols = await (await fake.slash(carol, "lobby", channel=elsewhere)).message()
    assert carols.ephemeral and "Open challenges (1)" in carols.text
    assert carols.labels() == ["Accept alice's", "Join the queue"]
    assert all(cid.startswith("bglb:") for cid in carols.custom_ids())  # persistent ids
    bobs = await (await fake.slash(bob, "lobby", channel=elsewhere)).message()
    alices = await (await fake.slash(alice, "lobby")).message()
    assert alices.labels() == ["Join the queue"]  # not her own challenge
    await host.stop()
    await host.start()  # a new Bot instance: the lobby's buttons still work
    # carol accepts from the other channel: the game starts where the challenge waits.
    taken = await fake.click(carol, carols, "Accept alice's")
    assert f"<#{fake.channel_id}>" in await private(taken)
    await fake.until(lambda: any("carol accepts" in m.text
                                 for m in fake.channel_messages(fake.channel_id)))
    (board,) = [m for m in fake.channel_messages(fake.channel_id) if "carol accepts" in m.text]
    assert_board_message(board)
    await fake.until(lambda: "taken by carol" in challenge.text)
    assert challenge.components == []
    # bob's lobby was listed before: his press is told, privately, who took it.
    late = await fake.click(bob, bobs, "Accept alice's")
    assert "carol accepted alice's challenge first" in await private(late)
    # Join: as /queue join on those terms; a Join button for the terms someone waits for.
    joined = await fake.click(bob, bobs, "Join the queue")
    assert "You are in the queue for a 3-point match of standard" in await private(joined)
    daves = await (await fake.slash(dave, "lobby", channel=elsewhere)).message()
    assert "1 player waits in the queue" in daves.text
    assert daves.labels() == ["Join: 3 pt standard", "Join the queue"]
    again = await fake.click(bob, bobs, "Join the queue")
    assert "You are already in the queue" in await private(again)
    paired = await fake.click(dave, daves, "Join: 3 pt standard")
    assert "You are in the queue for a 3-point match of standard" in await private(paired)

    def posted() -> bool:
        return any("Paired from the queue" in m.text for m in fake.channel_messages(elsewhere))

    await fake.until(posted, timeout=5)
    (post,) = [m for m in fake.channel_messages(elsewhere) if "Paired from the queue" in m.text]
    assert f"<@{bob.id}>" in post.text and f"<@{dave.id}>" in post.text
