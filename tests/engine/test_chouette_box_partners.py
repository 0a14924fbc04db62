"""Chouette box partners and rotation (issue 15 items 14-15), pure table rules.

003_0f278e3a5d776312.txt ch.5 "Chouette": the defeated active partner "becomes the
lower ranking of the inactive partners"; "If a player joins the game after the
original throw of the dice, he takes his place at the foot of the list"; the
defeated box "joins the inactive partners for the next game, taking his position
at the foot of the list"; "if there are more than five it is wise to break up into
two groups"; "one or more are permitted to join with the man in the box".
004_8ad0f3fa7d887f72.txt 'CHOUETTE': the same rotation.
"""

from __future__ import annotations

import random

import pytest

from engine.chouette import (
    ADVISED_MAX,
    SPLIT_ADVICE,
    ChouetteError,
    Member,
    Table,
    TableOptions,
    split_advice,
)

A, B, C, D, E, F, G = 1, 2, 3, 4, 5, 6, 7


def seated(*users: int, box_partners: int = 1, cap: int = 8) -> Table:
    return Table(TableOptions(box_partners=box_partners, cap=cap),
                 tuple(Member(u) for u in users), seated=True)


def test_box_wins_his_partner_stays_and_the_beaten_captain_is_not_with_him() -> None:
    # 003 ch.5: the box "continues to play against each of the others in turn"; the
    # defeated captain "becomes the lower ranking of the inactive partners" -- on
    # the team, not sharing the box's result next game.
    table = seated(A, B, C, D, E)
    assert table.box_side == (A, E) and table.captain == B
    after = table.after_game(A, [B], box_won=True)
    assert after.box_side == (A, E)
    assert after.team == (C, D, B)


def test_team_wins_the_beaten_box_is_not_his_conqueror_s_partner() -> None:
    # 003 ch.5: "This winning player then sits in the box"; the defeated box "joins
    # the inactive partners ... at the foot of the list" -- not the new box's side.
    table = seated(A, B, C, D, E)
    after = table.after_game(A, [B], box_won=False)
    assert after.box == B
    assert A not in after.box_side and E not in after.box_side
    assert after.box_side == (B, D)  # a partner who won with B
    assert after.team == (C, E, A)  # the old box at the foot


@pytest.mark.parametrize("box_partners, players", [(1, 4), (1, 6), (2, 6), (2, 7), (3, 8)])
def test_nobody_joins_the_side_that_just_beat_him(box_partners: int, players: int) -> None:
    # 003 ch.5 rotation, over many random results: the box side of every game holds
    # no loser of the game before (everyone on it won that game, or did not play).
    rng = random.Random(box_partners * 10 + players)
    table = seated(*range(1, players + 1), box_partners=box_partners)
    for _ in range(60):
        box_won = rng.random() < 0.5
        winners = set(table.box_side) if box_won else set(table.team)
        losers = set(table.users) - winners
        table = table.after_game(table.box, [table.captain], box_won)
        assert not set(table.box_side) & losers, (table.users, box_won)
        assert len(table.box_side) == box_partners + 1


def test_every_player_still_captains_in_turn() -> None:
    # 003 ch.5: "Each player takes his turn as the Active Player against the man in
    # the box" -- with the box winning, the captaincy runs down the partnership.
    table = seated(A, B, C, D, E)
    captains = []
    for _ in range(3):
        captains.append(table.captain)
        table = table.after_game(table.box, [table.captain], True)
    assert captains == [B, C, D]


def test_a_latecomer_takes_the_foot_of_the_partnership() -> None:
    # 003 ch.5: "he takes his place at the foot of the list" -- joining moves no
    # box partner across to the team.
    table = seated(A, B, C, D).join(E)
    assert table.box_side == (A, D) and table.team == (B, C, E)
    unseated = Table(TableOptions(box_partners=1)).join(A).join(B)
    assert unseated.users == (A, B)


def test_box_partners_need_a_large_enough_table() -> None:
    # Two box partners need six players: after a team win four winners (the new box
    # and his partners, 2 of them) come from a team of at least three.
    assert TableOptions(box_partners=2).min_players == 6
    assert TableOptions(box_partners=1).min_players == 4
    with pytest.raises(ChouetteError, match="0 to 2"):
        TableOptions(box_partners=3, cap=6)


def test_the_book_advises_splitting_when_a_sixth_joins() -> None:
    # 003 ch.5: "if there are more than five it is wise to break up into two groups".
    table = seated(A, B, C, D, box_partners=0).join(E)
    assert ADVISED_MAX == 5 and table.split_advice is None
    table = table.join(F)
    # Players are told the book by its name (Boyden 1930), not by its file name.
    assert table.split_advice == SPLIT_ADVICE and "Boyden 1930, ch.5" in SPLIT_ADVICE
    assert split_advice(5) is None and split_advice(7) == SPLIT_ADVICE
    assert TableOptions(cap=8).cap == 8  # the cap stays configurable
