"""Chouette: the rules of the table, as pure immutable values (no I/O).

Sources (the rule books in ``/work/shared/rules``):

* 000 'CHOUETTE': "All the added players play against the player who makes
  the highest single dice throw ... In a question of play the partner's player
  has the decision. In doubling, any partner may refuse a double, but his
  interest in that game ends and his stake is forfeited to his partners, who
  share his profit or loss equally."  -> :attr:`RefusalRule.FORFEIT_TO_PARTNERS`.
* 003 ch.4 I (note): the throw for the box comes first; "the Automatic
  Doubles do not begin until the player in the box is decided upon".
* 003 ch.4 III (note) and 004 'CHOUETTE': a partner who declines a double the
  active partner accepts "loses the amount of the game, as it now stands, to
  the Active Partner, who then wins or loses the amount of the retired
  partner's full share" -> :attr:`RefusalRule.LOSE_TO_CAPTAIN`.
* 003 ch.5 and 004: seats by a die each (highest in the box, second the
  captain, the rest ranked by their throw); a latecomer joins at the foot of
  the list; the box keeps the box while he wins, the next in line becomes
  captain and the defeated captain goes to the foot; when the team wins, the
  captain takes the box and the old box goes to the foot; "if there are more
  than five it is wise to break up into two groups" (the cap, and
  :attr:`Table.split_advice` once a sixth joins); "one or more are permitted to
  join with the man in the box" (:attr:`TableOptions.box_partners`).
* **Box partners** are the last ``box_partners`` seats of the list.  The
  rotation keeps the sides of a result together (003 ch.5: the beaten captain
  "becomes the lower ranking of the inactive partners"; the beaten box "joins
  the inactive partners ... taking his position at the foot of the list"), so
  nobody lands on the winner's side right after losing to him: when the box
  wins, his partners stay with him and the beaten captain goes to the foot of
  the partnership, above the box partners; when the team wins, the captain
  takes the box and the lowest-ranked players of his winning partnership join
  him, while the old box partners and then the old box go to the foot of the
  partnership.  A latecomer takes the foot of the partnership too (above the
  box partners), so joining never moves anybody across.  A table therefore
  needs ``2 * box_partners + 2`` players (and at least three) -- enough winners
  to fill the box partners' seats; only when players left mid-game and too few
  winners remain are the seats filled from the losers.
* 003 ch.6 I: the box wins or loses the game's value against each member:
  a gammon with two doubles is 8 points, "White +16, Black -8, Brown -8".

Decisions the books leave open (documented here, enforced by the service):

* **Ties** in the seat throw are thrown again among the tied players only
  (for every tied group, so the whole list is ranked).
* **A partner's answer to the box's double**: each partner answers for himself
  before the captain does; the captain's answer closes the double; a partner
  who has not answered by then goes with the captain's answer.  Partners'
  "drop" answers only matter when the team plays on: if the captain drops
  (and nobody takes over), the whole team has dropped and every member still
  in loses the value before the double to the box.
* **The captain refuses** (:class:`CaptainRefusal`): by default the captain's
  word is final for the team (003 ch.5 "the Active Partner has the final
  decision"; 004 "makes the decision which is final"): the game ends as a
  dropped double for everybody still in.  With ``partner-takes-over`` the
  first partner (in list order) who answered "take" becomes captain; the old
  captain retires under the table's refusal rule and the game goes on.
* **Several shares**: a retiring member loses the value as it stands for every
  share he carries (a captain who carries retired partners' shares and then
  retires hands them all on).  Under the 000 rule the receivers are the
  members who stay in, equally.
* **Fractions** (the 000 rule and box partners split amounts equally) are kept
  exact in points (halves, thirds: :class:`Line`).  Money is whole units of the
  stake; only when ``points x stake`` is not whole is it rounded, with the total
  kept at zero: each amount is rounded down, then the missing units go to the
  largest remainders (earlier seats first on equal remainders) -- see
  :func:`apportion`; the settlement says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from typing import Any

from engine.errors import BackgammonError
from engine.words import counted

MIN_PLAYERS = 3
"""A chouette is "more than two people" (003 ch.1); with two, play money instead."""
ADVISED_MAX = 5
"""003 ch.5: "if there are more than five it is wise to break up into two groups"."""
SPLIT_ADVICE = (
    "The rule book advises splitting a chouette of more than five players into two "
    "groups (Boyden 1930, ch.5): consider opening a second table in another channel."
)
DEFAULT_CAP = 6
MAX_CAP = 8
MAX_RETHROWS = 50


class ChouetteError(BackgammonError):
    """A chouette rule refuses the request; the message says why, for the user."""


class RefusalRule(Enum):
    """What happens to the stake of a partner who refuses a double the team takes."""

    FORFEIT_TO_PARTNERS = "forfeit-to-partners"
    """000: his stake (the value as it stands) goes to his partners, who share his
    profit or loss equally."""
    LOSE_TO_CAPTAIN = "lose-to-captain"
    """003 ch.4, 004: he loses the value as it stands to the captain, who then wins or
    loses the retired partner's full share."""

    @property
    def describe(self) -> str:
        if self is RefusalRule.FORFEIT_TO_PARTNERS:
            return ("a partner who refuses a double forfeits the game's value to the "
                    "partners still in, who share his result equally (Milton Bradley 1973)")
        return ("a partner who refuses a double loses the game's value to the captain, who "
                "then carries his full share (Boyden 1930, Parker Brothers)")


class CaptainRefusal(Enum):
    """What a captain's refusal of the box's double does."""

    FINAL_WORD = "final-word"
    """The captain's word is final: the whole team drops (003 ch.5, 004)."""
    PARTNER_TAKES_OVER = "partner-takes-over"
    """A partner who took becomes captain; the old captain retires."""

    @property
    def describe(self) -> str:
        if self is CaptainRefusal.FINAL_WORD:
            return "the captain's drop is final for the whole team"
        return "if the captain drops, a partner who took becomes captain and plays on"


def needed_players(box_partners: int) -> int:
    """Players a table with ``box_partners`` needs: a box, a captain and a partner,
    and a team large enough that its winners can fill the box partners' seats."""
    return max(MIN_PLAYERS + box_partners, 2 * box_partners + 2)


def split_advice(players: int) -> str | None:
    """The book's advice to split when a table has more than five players (003 ch.5)."""
    return SPLIT_ADVICE if players > ADVISED_MAX else None


def _enum(kind: type[Any], value: Any, what: str) -> Any:
    try:
        return kind(value)
    except ValueError:
        allowed = ", ".join(m.value for m in kind)
        raise ChouetteError(f"Unknown {what} {value!r}: choose {allowed}.") from None


@dataclass(frozen=True, slots=True)
class TableOptions:
    """The rule-set a table chooses when it opens."""

    refusal: RefusalRule = RefusalRule.LOSE_TO_CAPTAIN
    captain_refusal: CaptainRefusal = CaptainRefusal.FINAL_WORD
    cap: int = DEFAULT_CAP
    """Most players at the table (the books advise splitting above five)."""
    box_partners: int = 0
    """How many players at the foot of the list join the box and share its result
    (003 ch.5, "when a large number are playing")."""
    stake: int = 1
    """Money units per point."""

    def __post_init__(self) -> None:
        if not MIN_PLAYERS <= self.cap <= MAX_CAP:
            raise ChouetteError(f"The table size cap is {MIN_PLAYERS} to {MAX_CAP} players "
                                f"(the books advise at most five; default {DEFAULT_CAP}).")
        if self.box_partners < 0 or needed_players(self.box_partners) > self.cap:
            most = max(k for k in range(self.cap) if needed_players(k) <= self.cap)
            raise ChouetteError(
                f"Box partners must leave a box, a captain and a partner at the table, and "
                f"a winning partnership large enough to fill their seats (2 x box partners "
                f"+ 2 players): with a cap of {self.cap}, 0 to {most}.")
        if self.stake < 0:
            raise ChouetteError("The stake is a whole number of units a point, 0 or more.")

    @property
    def min_players(self) -> int:
        return needed_players(self.box_partners)

    @classmethod
    def from_values(cls, *, refusal: str = RefusalRule.LOSE_TO_CAPTAIN.value,
                    captain_refusal: str = CaptainRefusal.FINAL_WORD.value,
                    cap: int = DEFAULT_CAP, box_partners: int = 0,
                    stake: int = 1) -> TableOptions:
        return cls(refusal=_enum(RefusalRule, refusal, "refusal rule"),
                   captain_refusal=_enum(CaptainRefusal, captain_refusal,
                                         "captain-refusal policy"),
                   cap=cap, box_partners=box_partners, stake=stake)

    def to_dict(self) -> dict[str, Any]:
        return {"refusal": self.refusal.value, "captain_refusal": self.captain_refusal.value,
                "cap": self.cap, "box_partners": self.box_partners, "stake": self.stake}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableOptions:
        return cls.from_values(
            refusal=str(data.get("refusal", RefusalRule.LOSE_TO_CAPTAIN.value)),
            captain_refusal=str(data.get("captain_refusal", CaptainRefusal.FINAL_WORD.value)),
            cap=int(data.get("cap", DEFAULT_CAP)), box_partners=int(data.get("box_partners", 0)),
            stake=int(data.get("stake", 1)))

    def describe(self) -> list[str]:
        out = [self.refusal.describe, self.captain_refusal.describe,
               f"at most {self.cap} players"]
        if self.box_partners:
            out.append(f"the {counted(self.box_partners, 'player')} at the foot of the list "
                       f"{counted(self.box_partners, 'joins', 'join', digits=False)} the box and "
                       "share its result")
        out.append(f"stake {self.stake} a point" if self.stake else "no stake")
        return out


# --------------------------------------------------------------------- seats

@dataclass(frozen=True, slots=True)
class Draw:
    """The seat throw: every throw made (ties thrown again) and the resulting order."""

    order: tuple[int, ...]
    """User ids, highest throw first: box, captain, then the partners."""
    rounds: tuple[tuple[tuple[int, int], ...], ...]
    """Each throw round as (user, die); the first round is everybody's, later ones
    are re-throws among tied players."""

    def first_throw(self, user: int) -> int:
        for user_id, die in self.rounds[0]:
            if user_id == user:
                return die
        raise KeyError(user)


def draw_seats(users: Sequence[int], die: Callable[[], int]) -> Draw:
    """Each player throws a die; ties throw again among the tied (003 ch.5, 004)."""
    if len(set(users)) != len(users):
        raise ChouetteError("Each player throws once for the seats.")
    rounds: list[tuple[tuple[int, int], ...]] = []

    def rank(group: Sequence[int]) -> list[int]:
        if len(group) == 1:
            return [group[0]]
        if len(rounds) >= MAX_RETHROWS:
            raise ChouetteError("The seat throw keeps tying; throw again.")
        throws = tuple((u, die()) for u in group)
        rounds.append(throws)
        out: list[int] = []
        for value in sorted({d for _, d in throws}, reverse=True):
            out.extend(rank([u for u, d in throws if d == value]))
        return out

    order = tuple(rank(list(users))) if users else ()
    return Draw(order, tuple(rounds))


@dataclass(frozen=True, slots=True)
class Member:
    user: int
    throw: int | None = None
    """The die thrown for the seats (None for a latecomer)."""


@dataclass(frozen=True, slots=True)
class Table:
    """The players in order: the box, the captain, then the partners (then box partners)."""

    options: TableOptions = field(default_factory=TableOptions)
    members: tuple[Member, ...] = ()
    seated: bool = False
    """The seats have been thrown for (later players join at the foot)."""

    @property
    def users(self) -> tuple[int, ...]:
        return tuple(m.user for m in self.members)

    @property
    def ready(self) -> bool:
        return len(self.members) >= self.options.min_players

    def _need_seats(self) -> None:
        if not self.seated or not self.ready:
            raise ChouetteError(
                f"The table needs {self.options.min_players} players and a seat throw "
                f"before it plays ({len(self.members)} seated).")

    @property
    def box(self) -> int:
        self._need_seats()
        return self.members[0].user

    @property
    def box_side(self) -> tuple[int, ...]:
        """The box and the players who share its result (003 ch.5)."""
        self._need_seats()
        k = self.options.box_partners
        return (self.members[0].user, *(m.user for m in self.members[len(self.members) - k:]))

    @property
    def team(self) -> tuple[int, ...]:
        """The captain first, then the partners in order."""
        self._need_seats()
        k = self.options.box_partners
        return tuple(m.user for m in self.members[1:len(self.members) - k])

    @property
    def captain(self) -> int:
        return self.team[0]

    def role(self, user: int) -> str:
        if user not in self.users:
            return "not at the table"
        if not self.seated or not self.ready:
            return "waiting"
        if user == self.box:
            return "box"
        if user in self.box_side:
            return "with the box"
        return "captain" if user == self.captain else "partner"

    @property
    def split_advice(self) -> str | None:
        """The book's advice to split, once the table has more than five players
        (003 ch.5); the host shows it when a sixth (or later) player joins."""
        return split_advice(len(self.members))

    def join(self, user: int) -> Table:
        """A latecomer takes his place at the foot of the list (003 ch.5): the foot
        of the partnership, above the box partners' seats."""
        if user in self.users:
            raise ChouetteError("You are already at this table.")
        if len(self.members) >= self.options.cap:
            raise ChouetteError(f"The table is full ({self.options.cap} players): the books "
                                "advise splitting into two groups; open another chouette.")
        k = self.options.box_partners if self.seated else 0
        at = len(self.members) - min(k, max(len(self.members) - 1, 0))
        members = (*self.members[:at], Member(user), *self.members[at:])
        return replace(self, members=members)

    def leave(self, user: int) -> Table:
        if user not in self.users:
            raise ChouetteError("You are not at this table.")
        return replace(self, members=tuple(m for m in self.members if m.user != user))

    def seat(self, draw: Draw) -> Table:
        """Order the table by the seat throw."""
        if sorted(draw.order) != sorted(self.users):
            raise ChouetteError("The seat throw must include every player at the table.")
        return replace(self, members=tuple(Member(u, draw.first_throw(u)) for u in draw.order),
                       seated=True)

    def after_game(self, box: int, captains: Sequence[int], box_won: bool) -> Table:
        """The order for the next game (003 ch.5, 004).

        ``captains`` are the players who captained the game, the last one at the
        end.  If the box won he stays with his partners, the next in line becomes
        captain and the defeated captain(s) go to the foot of the partnership; if
        the team won, the (last) captain takes the box, the lowest-ranked of his
        winning partners become the box partners, and the old box partners and
        then the old box go to the foot of the partnership (see the module
        docstring).  Players who left are skipped; latecomers keep their places.
        """
        if not captains:
            raise ChouetteError("A game has a captain.")
        present = {m.user: m for m in self.members}
        k = self.options.box_partners
        users = list(self.users)
        partners = [u for u in users[len(users) - k:] if u != box and u not in captains] \
            if k else []
        rest = [u for u in users if u != box and u not in captains and u not in partners]
        if box_won:
            order = [box, *rest, *captains, *partners]
        else:
            winners = [*rest, *captains[:-1]]
            losers = [*partners, box]
            new_partners = winners[len(winners) - k:] if k else []
            if len(new_partners) < k:  # too few winners left at the table
                new_partners = [*losers[:k - len(new_partners)], *new_partners]
            order = [captains[-1], *(u for u in winners if u not in new_partners),
                     *(u for u in losers if u not in new_partners), *new_partners]
        seen: list[int] = []
        for u in order:
            if u in present and u not in seen:
                seen.append(u)
        return replace(self, members=tuple(present[u] for u in seen))

    def to_dict(self) -> dict[str, Any]:
        return {"options": self.options.to_dict(), "seated": self.seated,
                "members": [[m.user, m.throw] for m in self.members]}


# -------------------------------------------------------------------- stakes

class Stand(Enum):
    """A team member's stake in the current game."""

    IN = "in"
    RETIRED = "retired"


@dataclass(frozen=True, slots=True)
class Stake:
    """One team member's interest in the game.

    ``shares`` is how many shares of the team's result against the box he
    carries (1 at the start; more when he took over retired members' shares);
    ``settled`` what he has already won (+) or lost (-) to his partners by
    retirements, in points.
    """

    user: int
    shares: Fraction = Fraction(1)
    settled: Fraction = Fraction(0)
    stand: Stand = Stand.IN


@dataclass(frozen=True, slots=True)
class Retirement:
    """What one retirement did: who paid, how much, to whom."""

    user: int
    points: Fraction
    receivers: tuple[tuple[int, Fraction], ...]


@dataclass(frozen=True, slots=True)
class GameStakes:
    """The money side of one chouette game: who is in, shares, partners' answers."""

    box_side: tuple[int, ...]
    team: tuple[Stake, ...]
    captain: int
    captains: tuple[int, ...]
    """Every player who captained this game, in order (the current one last)."""
    answers: tuple[tuple[int, bool], ...] = ()
    """Partners' answers to the box's pending double (True = take), in answer order."""

    @classmethod
    def start(cls, box_side: Sequence[int], team: Sequence[int]) -> GameStakes:
        if not box_side or not team:
            raise ChouetteError("A chouette game needs a box and a team.")
        return cls(tuple(box_side), tuple(Stake(u) for u in team), team[0], (team[0],))

    @classmethod
    def of_table(cls, table: Table) -> GameStakes:
        return cls.start(table.box_side, table.team)

    @property
    def box(self) -> int:
        return self.box_side[0]

    def stake(self, user: int) -> Stake:
        for s in self.team:
            if s.user == user:
                return s
        raise ChouetteError("You are not on the team in this game.")

    def on_team(self, user: int) -> bool:
        return any(s.user == user for s in self.team)

    @property
    def still_in(self) -> tuple[int, ...]:
        return tuple(s.user for s in self.team if s.stand is Stand.IN)

    @property
    def partners_in(self) -> tuple[int, ...]:
        """Team members still in, other than the captain, in order."""
        return tuple(u for u in self.still_in if u != self.captain)

    def answer_of(self, user: int) -> bool | None:
        for u, take in self.answers:
            if u == user:
                return take
        return None

    def answer(self, user: int, take: bool) -> GameStakes:
        """A partner's own answer to the box's double (he may change it until the
        captain answers)."""
        if user == self.captain:
            raise ChouetteError("The captain's answer closes the double; it is not recorded "
                                "as a partner's.")
        stake = self.stake(user)
        if stake.stand is not Stand.IN:
            raise ChouetteError("You retired from this game when you refused a double; "
                                "you are back in the next game.")
        answers = (*((u, t) for u, t in self.answers if u != user), (user, take))
        return replace(self, answers=answers)

    def retire(self, users: Iterable[int], value: int, rule: RefusalRule
               ) -> tuple[GameStakes, tuple[Retirement, ...]]:
        """``users`` leave the game, each losing ``value`` (the game's value as it
        stands) for every share he carries, to the receivers ``rule`` names among
        the members who stay in; the receivers take the shares over."""
        leaving = [u for u in dict.fromkeys(users)]
        for u in leaving:
            if self.stake(u).stand is not Stand.IN:
                raise ChouetteError("That player has already retired from this game.")
        staying = [u for u in self.still_in if u not in leaving]
        if not staying:
            raise ChouetteError("Somebody must stay in to carry the team's shares.")
        if rule is RefusalRule.LOSE_TO_CAPTAIN:
            if self.captain not in staying:
                raise ChouetteError("The captain must stay in to receive a retired share.")
            weights = {self.captain: Fraction(1)}
        else:
            weights = {u: Fraction(1, len(staying)) for u in staying}
        shares = {s.user: s.shares for s in self.team}
        settled = {s.user: s.settled for s in self.team}
        stands = {s.user: s.stand for s in self.team}
        done: list[Retirement] = []
        for u in leaving:
            carried = shares[u]
            loss = carried * value
            settled[u] -= loss
            shares[u] = Fraction(0)
            stands[u] = Stand.RETIRED
            for r, w in weights.items():
                settled[r] += loss * w
                shares[r] += carried * w
            done.append(Retirement(u, loss, tuple((r, loss * w) for r, w in weights.items())))
        team = tuple(Stake(s.user, shares[s.user], settled[s.user], stands[s.user])
                     for s in self.team)
        return replace(self, team=team), tuple(done)

    def captain_takes(self, value: int, rule: RefusalRule
                      ) -> tuple[GameStakes, tuple[Retirement, ...]]:
        """The captain takes: the partners who answered "drop" retire at ``value``
        (the value before the double); the others (answered or silent) are in."""
        droppers = [u for u, take in self.answers if not take]
        stakes = replace(self, answers=())
        if not droppers:
            return stakes, ()
        return stakes.retire(droppers, value, rule)

    def captain_drops(self, value: int, rule: RefusalRule, policy: CaptainRefusal
                      ) -> tuple[GameStakes, tuple[Retirement, ...]] | None:
        """The captain drops.  ``None``: the whole team has dropped (the game ends).
        Otherwise a partner who answered "take" is the new captain (the first in
        list order), the old captain and the droppers have retired, and the team
        has taken the double."""
        takers = [u for u in self.partners_in if self.answer_of(u) is True]
        if policy is CaptainRefusal.FINAL_WORD or not takers:
            return None
        new = takers[0]
        leaving = [self.captain, *(u for u in self.partners_in if self.answer_of(u) is not True)]
        handed = replace(self, captain=new, captains=(*self.captains, new), answers=())
        return handed.retire(leaving, value, rule)

    def hand_over(self, value: int, rule: RefusalRule
                  ) -> tuple[GameStakes, tuple[Retirement, ...]] | None:
        """The captain leaves mid-game: the next partner still in becomes captain and
        the old captain retires at ``value``.  ``None`` if no partner is left."""
        if not self.partners_in:
            return None
        old = self.captain
        new = self.partners_in[0]
        handed = replace(self, captain=new, captains=(*self.captains, new), answers=())
        return handed.retire([old], value, rule)

    def settle(self, box_won: bool, points: int) -> tuple[tuple[int, Fraction], ...]:
        """Each player's signed result in points (zero-sum), box side first.

        Each team member wins or loses ``points`` per share he carries, plus what
        he settled with his partners; the box side takes the opposite total,
        shared equally (003 ch.6 I: White +16, Black -8, Brown -8).
        """
        sign = -1 if box_won else 1
        team = [(s.user, s.settled + sign * points * s.shares) for s in self.team]
        box_total = -sum((v for _, v in team), Fraction(0))
        each = box_total / len(self.box_side)
        return (*((u, each) for u in self.box_side), *team)

    def to_dict(self) -> dict[str, Any]:
        return {"box_side": list(self.box_side), "captain": self.captain,
                "captains": list(self.captains),
                "team": [[s.user, str(s.shares), str(s.settled), s.stand.value]
                         for s in self.team],
                "answers": [[u, t] for u, t in self.answers]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameStakes:
        return cls(box_side=tuple(int(u) for u in data["box_side"]),
                   team=tuple(Stake(int(u), Fraction(sh), Fraction(se), Stand(st))
                              for u, sh, se, st in data["team"]),
                   captain=int(data["captain"]),
                   captains=tuple(int(u) for u in data["captains"]),
                   answers=tuple((int(u), bool(t)) for u, t in data.get("answers", ())))


def apportion(values: Sequence[Fraction]) -> tuple[int, ...]:
    """Whole numbers for ``values`` (whose total is whole), keeping the total.

    Each value is rounded down; the units still missing go one each to the
    largest remainders, the earlier position first when remainders are equal.
    Each result is within 1 of its exact value.
    """
    total = sum(values, Fraction(0))
    if total.denominator != 1:
        raise ValueError("the values must add up to a whole number")
    floors = [v.numerator // v.denominator for v in values]
    missing = int(total) - sum(floors)
    order = sorted(range(len(values)), key=lambda i: (-(values[i] - floors[i]), i))
    out = list(floors)
    for i in order[:missing]:
        out[i] += 1
    return tuple(out)


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line of a game's settlement table.

    ``points`` is exact (the 000 rule and box partners share in halves, thirds...);
    ``amount`` is the money in whole units of the stake: ``points * stake`` when that is
    whole, else rounded by :func:`apportion` (the table's amounts still add up to zero,
    each within one unit of its exact value; :attr:`exact_amount` keeps the exact one).
    """

    user: int
    points: Fraction
    amount: int
    exact_amount: Fraction = Fraction(0)

    @property
    def rounded(self) -> bool:
        """True when the money had to be rounded to a whole unit."""
        return self.exact_amount != self.amount


def settlement(stakes: GameStakes, box_won: bool, points: int, stake: int
               ) -> tuple[Line, ...]:
    """The settlement table of a game: exact points, money in whole units (each
    zero-sum).  No fraction of a point is rounded away (issue 30 item 1, 000
    'CHOUETTE': "who share his profit or loss equally"); money is rounded only when
    ``points * stake`` is not a whole number of units, by :func:`apportion`."""
    exact = stakes.settle(box_won, points)
    users = [u for u, _ in exact]
    money = [v * stake for _, v in exact]
    amounts = apportion(money)
    return tuple(Line(u, v, a, m) for u, (_, v), a, m
                 in zip(users, exact, amounts, money, strict=True))


def signed_points(value: Fraction | int) -> str:
    """A signed exact number of points: "+6", "-2 1/2", "-1/3", "0"."""
    value = Fraction(value)
    if value == 0:
        return "0"
    sign = "-" if value < 0 else "+"
    whole, part = divmod(abs(value.numerator), value.denominator)
    if not part:
        return f"{sign}{whole}"
    fraction = f"{part}/{value.denominator}"
    return f"{sign}{whole} {fraction}" if whole else f"{sign}{fraction}"
