"""The pure chouette rules (engine.chouette), checked against the rule books.

000 'CHOUETTE'; 003 ch.4 I and III (notes), ch.5 "Chouette", ch.6 I (the
settlement example); 004 'CHOUETTE'.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction as F

import pytest

from engine.chouette import (
    CaptainRefusal,
    ChouetteError,
    GameStakes,
    Member,
    RefusalRule,
    Stand,
    Table,
    TableOptions,
    apportion,
    draw_seats,
    settlement,
    signed_points,
)

LOSE = RefusalRule.LOSE_TO_CAPTAIN
FORFEIT = RefusalRule.FORFEIT_TO_PARTNERS
A, B, C, D, E, G = 1, 2, 3, 4, 5, 6


def dice(values: Sequence[int]) -> Iterator[int]:
    return iter(values)


def seated(*users: int, **options: object) -> Table:
    return Table(TableOptions(**options),  # type: ignore[arg-type]
                 tuple(Member(u) for u in users), seated=True)


def as_dict(pairs: Sequence[tuple[int, F]]) -> dict[int, F]:
    return dict(pairs)


# ------------------------------------------------------------------ settlement

def test_003_ch6_white_in_the_box_wins_a_gammon_with_two_doubles() -> None:
    # 003 ch.6 I: automatic double + optional double = 4, gammon = 8 points.
    # "If White is sitting in the box and playing against Black and Brown, he wins
    # eight points from each of the others ... White +16, Black -8, Brown -8."
    white, black, brown = A, B, C
    stakes = GameStakes.of_table(seated(white, black, brown))
    lines = settlement(stakes, box_won=True, points=8, stake=1)
    assert [(x.user, x.points) for x in lines] == [(white, 16), (black, -8), (brown, -8)]


def test_003_ch6_black_in_the_box_loses_eight_to_each_partner() -> None:
    # "If they are playing Chouette and Black is sitting in the box, he loses eight
    # points to each of the Partners."
    white, black, brown = A, B, C
    stakes = GameStakes.of_table(seated(black, white, brown))
    result = as_dict(stakes.settle(box_won=False, points=8))
    assert result == {black: -16, white: 8, brown: 8}


@pytest.mark.parametrize("size", [3, 4, 5, 6, 7, 8])
@pytest.mark.parametrize("box_won", [True, False])
def test_box_wins_or_loses_the_value_against_each_member(size: int, box_won: bool) -> None:
    # 003 ch.5 / 004: "he collects the amount of the game ... from each of the remaining
    # players" / "he loses the amount of the game to each of the inactive partners as
    # well as to the Active Opponent".
    users = list(range(1, size + 1))
    stakes = GameStakes.of_table(seated(*users, cap=8))
    result = as_dict(stakes.settle(box_won, 3))
    sign = 1 if box_won else -1
    assert result[users[0]] == sign * 3 * (size - 1)
    assert all(result[u] == -sign * 3 for u in users[1:])
    assert sum(result.values()) == 0


# The box doubles from 1 to 2 (value as it stands: 1); the listed partners drop, the
# captain takes; then the game ends with ``points`` for the box (+) or the team (-).
REFUSALS = [
    # 003 ch.4 III / 004: the dropper loses 1 to the captain, who carries his share.
    (LOSE, [A, B, C, D], [D], True, 2, {A: 6, B: 1 - 4, C: -2, D: -1}),
    (LOSE, [A, B, C, D], [D], False, 2, {A: -6, B: 1 + 4, C: 2, D: -1}),
    (LOSE, [A, B, C, D, E], [C, E], True, 4, {A: 16, B: 2 - 12, C: -1, D: -4, E: -1}),
    (LOSE, [A, B, C], [C], False, 8, {A: -16, B: 1 + 16, C: -1}),
    # 000: "his stake is forfeited to his partners, who share his profit or loss equally".
    (FORFEIT, [A, B, C, D], [D], True, 2,
     {A: 6, B: F(1, 2) - 3, C: F(1, 2) - 3, D: -1}),
    (FORFEIT, [A, B, C, D, E], [E], False, 2,
     {A: -8, B: F(1, 3) + F(8, 3), C: F(1, 3) + F(8, 3), D: F(1, 3) + F(8, 3), E: -1}),
    (FORFEIT, [A, B, C, D, E], [C, D], True, 1,
     {A: 4, B: 1 - 2, C: -1, D: -1, E: 1 - 2}),
    # With one partner left the two rules agree.
    (FORFEIT, [A, B, C], [C], True, 2, {A: 4, B: 1 - 4, C: -1}),
]


@pytest.mark.parametrize("rule, users, droppers, box_won, points, expected", REFUSALS)
def test_partners_refusing_a_double_the_captain_takes(
        rule: RefusalRule, users: list[int], droppers: list[int], box_won: bool, points: int,
        expected: dict[int, F]) -> None:
    stakes = GameStakes.of_table(seated(*users))
    for u in droppers:
        stakes = stakes.answer(u, False)
    taken, retired = stakes.captain_takes(1, rule)
    assert [r.user for r in retired] == droppers
    assert all(taken.stake(u).stand is Stand.RETIRED for u in droppers)
    assert taken.answers == ()
    result = as_dict(taken.settle(box_won, points))
    assert result == expected
    assert sum(result.values()) == 0


def test_partners_who_take_or_say_nothing_stay_in_when_the_captain_takes() -> None:
    stakes = GameStakes.of_table(seated(A, B, C, D)).answer(C, True)
    taken, retired = stakes.captain_takes(1, LOSE)
    assert retired == () and taken.still_in == (B, C, D)


def test_a_partner_may_change_his_answer_until_the_captain_answers() -> None:
    stakes = GameStakes.of_table(seated(A, B, C)).answer(C, False).answer(C, True)
    assert stakes.answers == ((C, True),)


def test_the_captain_s_drop_is_final_by_default() -> None:
    # 003 ch.5 "In case of disagreement the Active Partner has the final decision".
    stakes = GameStakes.of_table(seated(A, B, C, D)).answer(C, True)
    assert stakes.captain_drops(1, LOSE, CaptainRefusal.FINAL_WORD) is None


@pytest.mark.parametrize("rule", [LOSE, FORFEIT])
def test_partner_takes_over_when_the_captain_drops(rule: RefusalRule) -> None:
    # B (captain) drops; C took and becomes captain; D said nothing (goes with B).
    # C is the only one staying in, so both rules give him the retired shares.
    stakes = GameStakes.of_table(seated(A, B, C, D)).answer(C, True)
    handed = stakes.captain_drops(1, rule, CaptainRefusal.PARTNER_TAKES_OVER)
    assert handed is not None
    after, retired = handed
    assert after.captain == C and after.captains == (B, C)
    assert {r.user for r in retired} == {B, D}
    assert after.stake(C).shares == 3
    # The team, C alone carrying three shares, wins 2 points (cube 2) from the box.
    result = as_dict(after.settle(box_won=False, points=2))
    assert result == {A: -6, B: -1, C: 2 + 6, D: -1}
    assert sum(result.values()) == 0


def test_no_taker_means_the_team_drops_even_with_partner_takes_over() -> None:
    stakes = GameStakes.of_table(seated(A, B, C)).answer(C, False)
    assert stakes.captain_drops(1, LOSE, CaptainRefusal.PARTNER_TAKES_OVER) is None


def test_a_captain_carrying_shares_loses_them_all_when_he_retires() -> None:
    # C retires (lose-to-captain): B carries 2 shares.  Later B leaves mid-game at a
    # value of 2: he loses 2 for each share to D, the next captain.
    stakes, _ = GameStakes.of_table(seated(A, B, C, D)).answer(C, False).captain_takes(1, LOSE)
    handed = stakes.hand_over(2, LOSE)
    assert handed is not None
    after, retired = handed
    assert retired[0].user == B and retired[0].points == 4
    assert after.captain == D and after.stake(D).shares == 3
    assert as_dict(after.settle(True, 2)) == {A: 6, B: 1 - 4, C: -1, D: 4 - 6}


def test_box_partners_share_the_box_s_result() -> None:
    # 003 ch.5: "one or more are permitted to join with the man in the box".
    table = seated(A, B, C, D, E, box_partners=1)
    assert table.box_side == (A, E) and table.team == (B, C, D)
    stakes = GameStakes.of_table(table)
    assert as_dict(stakes.settle(True, 2)) == {A: 3, E: 3, B: -2, C: -2, D: -2}
    lines = settlement(GameStakes.of_table(seated(A, B, C, D, box_partners=1)), True, 1, 1)
    assert {x.user: x.points for x in lines} == {A: 1, D: 1, B: -1, C: -1}


def test_retired_partners_cannot_answer_and_the_captain_answers_for_the_team() -> None:
    stakes, _ = GameStakes.of_table(seated(A, B, C)).answer(C, False).captain_takes(1, LOSE)
    with pytest.raises(ChouetteError, match="retired"):
        stakes.answer(C, True)
    with pytest.raises(ChouetteError, match="captain"):
        stakes.answer(B, True)
    with pytest.raises(ChouetteError, match="not on the team"):
        stakes.answer(A, True)


def test_stakes_round_trip_through_storage_form() -> None:
    stakes, _ = GameStakes.of_table(seated(A, B, C, D)).answer(C, False).captain_takes(
        1, FORFEIT)
    stakes = stakes.answer(D, True)
    assert GameStakes.from_dict(stakes.to_dict()) == stakes


# ----------------------------------------------------------------- rounding

@pytest.mark.parametrize("values, expected", [
    ([F(6), F(-5, 2), F(-1), F(-5, 2)], (6, -2, -1, -3)),
    ([F(1, 3), F(1, 3), F(-2, 3)], (1, 0, -1)),
    ([F(0)], (0,)),
    ([F(7, 2), F(-7, 2)], (4, -4)),
])
def test_apportion_keeps_the_total_and_stays_within_one(values: list[F],
                                                       expected: tuple[int, ...]) -> None:
    out = apportion(values)
    assert out == expected
    assert sum(out) == sum(values)
    assert all(abs(o - v) < 1 for o, v in zip(out, values, strict=True))


def test_points_are_exact_and_a_stake_of_ten_is_exact_money() -> None:
    # 000 'CHOUETTE': "his stake is forfeited to his partners, who share his profit or
    # loss equally": B and C at -2 1/2 each, in points too (issue 30 item 1).
    stakes, _ = GameStakes.of_table(seated(A, B, C, D)).answer(D, False).captain_takes(
        1, FORFEIT)
    lines = settlement(stakes, True, 2, 10)
    assert [(x.points, x.amount, x.rounded) for x in lines] == [
        (6, 60, False), (F(-5, 2), -25, False), (F(-5, 2), -25, False), (-1, -10, False)]


def test_money_is_rounded_only_when_a_share_times_the_stake_is_not_whole() -> None:
    # 000 'CHOUETTE' at a stake of 1: the exact points stay, the money is rounded (the
    # table still adds up to zero) and each line says it was.
    stakes, _ = GameStakes.of_table(seated(A, B, C, D)).answer(D, False).captain_takes(
        1, FORFEIT)
    lines = settlement(stakes, True, 2, 1)
    assert [x.points for x in lines] == [6, F(-5, 2), F(-5, 2), -1]
    assert [x.amount for x in lines] == [6, -2, -3, -1]
    assert [x.rounded for x in lines] == [False, True, True, False]
    assert sum(x.amount for x in lines) == 0


@pytest.mark.parametrize("value, text", [
    (F(6), "+6"), (F(-5, 2), "-2 1/2"), (F(-1, 3), "-1/3"), (F(0), "0"), (F(7, 3), "+2 1/3")])
def test_signed_points_are_written_exactly(value: F, text: str) -> None:
    assert signed_points(value) == text


# -------------------------------------------------------------------- seats

@pytest.mark.parametrize("users, thrown, order, rounds", [
    # 004: highest in the box, next the playing opponent, the rest by their throw.
    ([A, B, C, D], [3, 6, 5, 2], (B, C, A, D), 1),
    # Ties are thrown again among the tied only.
    ([A, B, C], [5, 5, 2, 3, 4], (B, A, C), 2),
    ([A, B, C], [6, 2, 2, 1, 4], (A, C, B), 2),
    ([A, B, C, D], [4, 4, 4, 1, 2, 2, 6, 3, 5], (C, B, A, D), 3),
    ([A, B, C], [1, 2, 3], (C, B, A), 1),
])
def test_seat_throw(users: list[int], thrown: list[int], order: tuple[int, ...],
                    rounds: int) -> None:
    it = dice(thrown)
    draw = draw_seats(users, lambda: next(it))
    assert draw.order == order
    assert len(draw.rounds) == rounds
    assert next(it, None) is None  # every die was used, no more
    table = Table(TableOptions(), tuple(Member(u) for u in users)).seat(draw)
    assert table.users == order and table.box == order[0] and table.captain == order[1]
    assert table.members[0].throw == draw.first_throw(order[0])


def test_a_seat_throw_that_always_ties_gives_up() -> None:
    with pytest.raises(ChouetteError, match="tying"):
        draw_seats([A, B], lambda: 4)


# --------------------------------------------------- joining, leaving, rotation

def test_latecomers_join_at_the_foot_up_to_the_cap() -> None:
    table = seated(A, B, C)
    table = table.join(D).join(E).join(G)
    assert table.users == (A, B, C, D, E, G) and table.members[-1].throw is None
    with pytest.raises(ChouetteError, match="full"):
        table.join(7)
    with pytest.raises(ChouetteError, match="already"):
        seated(A, B, C).join(A)
    assert seated(A, B, C, D).leave(C).users == (A, B, D)
    with pytest.raises(ChouetteError, match="not at this table"):
        seated(A, B, C).leave(D)


@pytest.mark.parametrize("before, box_won, after", [
    # 003 ch.5: box wins: stays; the third becomes captain; the captain to the foot.
    ((A, B, C), True, (A, C, B)),
    ((A, B, C, D, E), True, (A, C, D, E, B)),
    # The team wins: the captain takes the box, the old box to the foot.
    ((A, B, C), False, (B, C, A)),
    ((A, B, C, D, E), False, (B, C, D, E, A)),
])
def test_rotation_after_a_game(before: tuple[int, ...], box_won: bool,
                               after: tuple[int, ...]) -> None:
    table = seated(*before)
    assert table.after_game(table.box, [table.captain], box_won).users == after


def test_rotation_over_several_games_cycles_every_player_through_the_captaincy() -> None:
    table = seated(A, B, C, D)
    outcomes = [True, True, False, True, False]
    seen = []
    for box_won in outcomes:
        seen.append((table.box, table.captain))
        table = table.after_game(table.box, [table.captain], box_won)
    assert seen == [(A, B), (A, C), (A, D), (D, B), (D, C)]
    assert table.users == (C, A, B, D)


def test_rotation_skips_leavers_and_keeps_latecomers_at_the_foot() -> None:
    table = seated(A, B, C, D).join(E).leave(C)
    assert table.after_game(A, [B], True).users == (A, D, E, B)
    # The box left mid-game (he forfeited): the team won, the captain takes the box.
    table = seated(A, B, C, D).leave(A)
    assert table.after_game(A, [B], False).users == (B, C, D)
    # A captain who handed over mid-game goes to the foot with the defeated captain.
    assert seated(A, B, C, D).after_game(A, [B, C], True).users == (A, D, B, C)
    assert seated(A, B, C, D).after_game(A, [B, C], False).users == (C, D, B, A)


# ------------------------------------------------------------------ options

@pytest.mark.parametrize("kwargs, words", [
    ({"cap": 9}, "cap is 3 to 8"),
    ({"cap": 2}, "cap is 3 to 8"),
    # 003 ch.5: the beaten box "joins the inactive partners", so the winners must be
    # able to fill the box partners' seats: 2 x box partners + 2 players.
    ({"box_partners": 4, "cap": 6}, "0 to 2"),
    ({"stake": -1}, "stake"),
    ({"refusal": "whatever"}, "forfeit-to-partners, lose-to-captain"),
    ({"captain_refusal": "vote"}, "final-word, partner-takes-over"),
])
def test_options_are_checked_with_a_reason(kwargs: dict[str, object], words: str) -> None:
    with pytest.raises(ChouetteError, match=words):
        TableOptions.from_values(**kwargs)  # type: ignore[arg-type]


def test_options_round_trip_and_defaults() -> None:
    options = TableOptions.from_values(refusal="forfeit-to-partners",
                                       captain_refusal="partner-takes-over", cap=8,
                                       box_partners=2, stake=5)
    assert TableOptions.from_dict(options.to_dict()) == options
    default = TableOptions()
    assert default.cap == 6 and default.refusal is LOSE
    assert default.captain_refusal is CaptainRefusal.FINAL_WORD
    # Two box partners need 2 x 2 + 2 players (003 ch.5 rotation; see bot/chouette.py).
    assert default.min_players == 3 and options.min_players == 6


def test_a_table_needs_seats_and_enough_players_before_it_has_a_box() -> None:
    with pytest.raises(ChouetteError, match="needs 3 players"):
        _ = Table(TableOptions(), (Member(A), Member(B), Member(C))).box
    with pytest.raises(ChouetteError, match="needs 3 players"):
        _ = seated(A, B).box
    assert seated(A, B, C).role(A) == "box" and seated(A, B, C).role(C) == "partner"
