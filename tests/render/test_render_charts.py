"""The analysis graph, the player card and the match summary: the data built
from the host's values, and the pictures read back (pixel probes, alt text)."""

from __future__ import annotations

import io

import pytest
from picture_games import sample_game
from PIL import Image

from bot.ai.analysis import DecisionPoint, GameAnalysis, Mistake, PlayerAnalysis, analyze
from bot.ai.levels import INTERMEDIATE
from bot.service.pictures.contents import (
    analysis_chart,
    count_actions,
    favourite,
    match_summary,
    move_numbers,
    player_card,
)
from engine.game import Game
from engine.match import Match
from engine.player import Player
from engine.record import DoubleOffered, GameRecord, PlayMade, Take
from render.card import (
    PlayerCard,
    RecentResult,
    card_alt_text,
    card_geometry,
    render_card,
    spark_points,
)
from render.chart import (
    ChartData,
    ChartMistake,
    ChartPoint,
    chart_alt_text,
    geometry,
    mistake_xy,
    render_chart,
    win_colour,
)
from render.summary import render_summary, summary_alt_text, summary_geometry
from render.theme import get_theme

NAMES = ("alice", "bob")
TH = get_theme("default")
W, B = Player.WHITE, Player.BLACK


def close(a: object, b: tuple[int, int, int], tol: int = 30) -> bool:
    assert isinstance(a, tuple)
    return max(abs(int(a[i]) - b[i]) for i in range(3)) <= tol


def png(data: bytes) -> Image.Image:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(data)).convert("RGB")


def _play_indices(record: GameRecord) -> list[int]:
    return [i for i, e in enumerate(record.events) if isinstance(e, PlayMade)]


def made_up_analysis(record: GameRecord) -> GameAnalysis:
    """An analysis with known figures on ``record``'s plays (no network needed)."""
    idx = _play_indices(record)
    timeline = []
    for k, i in enumerate(idx):
        event = record.events[i]
        assert isinstance(event, PlayMade)
        timeline.append(DecisionPoint(i, event.player, "play", 0.05 * (k % 7) - 0.1,
                                      0.3 + 0.02 * (k % 20), 0.0))
    game = Game.from_record(record)
    big = Mistake(W, idx[10], game, "play", "13/7", "24/18", 0.4, None)
    theirs = Mistake(B, idx[21], game, "play", "8/2", "13/7", 0.25, None)
    return GameAnalysis(True, (PlayerAnalysis(W, 20, 1.0, (big,)),
                               PlayerAnalysis(B, 18, 0.5, (theirs,))),
                        timeline=tuple(timeline))


@pytest.fixture(scope="module")
def record() -> GameRecord:
    return sample_game(40, seed=11, doubles=1)


# ------------------------------------------------------------- analysis graph


def test_chart_points_are_the_analysis_numbers(record: GameRecord) -> None:
    an = made_up_analysis(record)
    numbers = move_numbers(record)
    for player in Player:
        data = analysis_chart(an, record, player, NAMES)
        assert data.player == NAMES[player] and data.opponent == NAMES[player.other]
        assert len(data.points) == len(an.timeline)
        for pt, dp in zip(data.points, an.timeline, strict=True):
            assert pt.move == numbers[dp.event_index]
            if dp.player is player:
                assert (pt.win, pt.equity) == (dp.win, dp.equity)
            else:  # the opponent's decision, seen from this side
                assert pt.win == pytest.approx(1 - dp.win)
                assert pt.equity == pytest.approx(-dp.equity)
        assert data.error_rate == pytest.approx(an.of(player).error_rate)
        assert data.moves == count_actions(record)[0] == 40
        marked = {(m.move, m.equity_lost, m.mine) for m in data.mistakes}
        assert marked == {(numbers[m.event_index], m.equity_lost, m.player is player)
                          for pa in an.players for m in pa.mistakes}


def test_move_numbers_count_plays_from_one(record: GameRecord) -> None:
    numbers = move_numbers(record)
    idx = _play_indices(record)
    assert [numbers[i] for i in idx] == list(range(1, len(idx) + 1))
    doubles = [i for i, e in enumerate(record.events) if isinstance(e, DoubleOffered)]
    takes = [i for i, e in enumerate(record.events) if isinstance(e, Take)]
    for i in doubles + takes:  # a cube action belongs to the next play
        assert numbers[i] == 1 + sum(1 for j in idx if j < i)


def test_real_analysis_timeline_feeds_the_chart() -> None:
    """bgsage (1-ply): one timeline entry per counted decision, the mistakes'
    costs among them, and the chart's points are those numbers."""
    rec = sample_game(14, seed=4, doubles=0)
    an = analyze(rec, level=INTERMEDIATE, min_mistake=0.0)
    assert an.supported
    assert len(an.timeline) == sum(pa.decisions for pa in an.players)
    assert sum(dp.lost for dp in an.timeline) == pytest.approx(
        sum(pa.total_lost for pa in an.players))
    lost_at = {dp.event_index: dp.lost for dp in an.timeline}
    for pa in an.players:
        for m in pa.mistakes:
            assert lost_at[m.event_index] == pytest.approx(m.equity_lost)
    assert all(0.0 <= dp.win <= 1.0 for dp in an.timeline)
    data = analysis_chart(an, rec, W, NAMES)
    assert [p.win for p in data.points] == [
        dp.win if dp.player is W else 1 - dp.win for dp in an.timeline]


def test_chart_pixels_curve_and_mistake_marks(record: GameRecord) -> None:
    data = analysis_chart(made_up_analysis(record), record, W, NAMES)
    img = png(render_chart(data))
    g = geometry(data, img.width, img.height)
    marks = {m.move for m in data.mistakes}
    # One probe of the curve: a point away from the marks and from the ends.
    pts = sorted(data.points, key=lambda p: p.move)
    probe = next(p for p in pts[3:] if all(abs(p.move - m) > 3 for m in marks))
    x, y = round(g.x(probe.move)), round(g.y_win(probe.win))
    assert close(img.getpixel((x, y)), win_colour(TH))
    # Below the curve (well off it) is the plot's background, not the curve.
    assert not close(img.getpixel((x, round(g.y_win(probe.win - 0.2)))), win_colour(TH), 10)
    # Mistakes: a ring on the curve, the player's own in the hit colour.
    u = img.width / 40
    for m in data.mistakes:
        mx, my = mistake_xy(data, g, m)
        ring = [img.getpixel((round(mx + dx), round(my + dy)))
                for dx, dy in ((u * 0.3, 0), (-u * 0.3, 0), (0, u * 0.3), (0, -u * 0.3))]
        want = TH.hit if m.mine else TH.panel_text
        assert sum(close(c, want, 40) for c in ring) >= 3, m


def test_chart_alt_text() -> None:
    data = ChartData("alice", "bob", (ChartPoint(1, 0.5, 0.0), ChartPoint(2, 0.35, -0.3),
                                      ChartPoint(3, 0.8, 0.7)),
                     (ChartMistake(2, 0.123, True, "play", "13/7", "24/18"),), 0.0412, 3)
    alt = chart_alt_text(data)
    assert "alice against bob" in alt and "50% at move 1" in alt and "80% at move 3" in alt
    assert "lowest 35% at move 2" in alt and "error rate 41.2".lower() in alt.lower()
    assert "move 2, alice: play 13/7, better 24/18 (-0.123)" in alt
    assert "no rated decisions" in chart_alt_text(ChartData("alice", "bob", ()))
    assert png(render_chart(ChartData("alice", "bob", ()))).size == (800, 400)


# ------------------------------------------------------------------ the card


def test_card_from_stats() -> None:
    stats = {"rating": 1543.5, "rating_history": [(1500.0, 1510.0), (1510.0, 1543.5)],
             "games": 12, "games_won": 7, "matches": 4, "matches_won": 3, "balance": -20}
    recent = [RecentResult(True, "bob", "5-2"), RecentResult(False, "carol", "1-5")]
    card = player_card("alice", stats, experience=30,
                       variants=["russian", "standard", "russian"], recent=recent)
    assert card.rating_history == (1500.0, 1510.0, 1543.5)
    assert (card.games, card.games_won, card.matches, card.matches_won, card.balance) == \
        (12, 7, 4, 3, -20)
    assert card.favourite_variant == "russian" and card.provisional
    assert card.recent == tuple(recent)
    assert favourite([]) == "" and favourite(["a", "b"]) == "a"
    empty = player_card("new", {"rating": 1500.0, "rating_history": []})
    assert empty.rating_history == () and empty.games == 0


def test_card_pixels_and_alt_text() -> None:
    card = PlayerCard("alice", 1623.0, 420, (1500.0, 1480.0, 1560.0, 1623.0), 34, 20, 10, 6,
                      45, "standard",
                      (RecentResult(True, "bob", "7-4"), RecentResult(False, "carol")))
    img = png(render_card(card))
    g = card_geometry(card, img.width, img.height)
    assert len(g.chips) == 2
    win, loss = g.chips
    assert close(img.getpixel((win[0] + 3, win[1] + 3)), TH.highlight)
    assert close(img.getpixel((loss[0] + 3, loss[1] + 3)), TH.hit)
    # The rating curve passes through its points; the newest is the highest, at the top.
    pts = spark_points(card, g)
    assert pts[-1][1] == min(p[1] for p in pts) and pts[1][1] == max(p[1] for p in pts)
    for x, y in pts[1:-1]:
        assert close(img.getpixel((round(x), round(y))), TH.highlight, 60)
    alt = card_alt_text(card)
    for text in ("alice", "rating 1623", "from 1500 to 1623", "Games won 20 of 34",
                 "matches won 6 of 10", "balance +45", "standard",
                 "won against bob 7-4; lost against carol"):
        assert text in alt, text
    assert "provisional" not in alt


# --------------------------------------------------------------- the summary


def test_summary_scores_and_cube_history_from_records() -> None:
    records = [sample_game(20, seed=s, money=False, doubles=1) for s in (1, 2, 3)]
    match = Match.new(9)
    for rec in records:
        match = match.add_game(Game.from_record(rec))
    s = match_summary(NAMES, 9, records)
    assert s.score == match.score
    assert [g.points for g in s.games] == [r.points for r in match.results]
    assert [g.winner for g in s.games] == [int(r.winner) for r in match.results]
    cube_events = [e for r in records for e in r.events if isinstance(e, (DoubleOffered, Take))]
    assert len(s.cube) == len(cube_events)
    assert all(c.action.startswith("doubles to") for c in s.cube[::2])
    assert s.error_rates == (None, None) and s.winner is None
    won = match_summary(NAMES, 1, records[:1])
    assert won.winner == int(match.results[0].winner)


def test_summary_error_rates_from_analyses(record: GameRecord) -> None:
    an = made_up_analysis(record)
    s = match_summary(NAMES, 0, [record, record], [an, None])
    assert s.error_rates[0] == pytest.approx(1.0 / 20)
    assert s.error_rates[1] == pytest.approx(0.5 / 18)
    assert s.decisions == (20, 18)


def test_summary_pixels_and_alt_text() -> None:
    records = [sample_game(20, seed=s, money=False, doubles=1) for s in (1, 2)]
    s = match_summary(NAMES, 7, records, [None, None])
    img = png(render_summary(s))
    g = summary_geometry(s, img.width)
    assert img.size == (800, g.height) and len(g.rows) == 2
    for line, bars in zip(s.games, g.bars, strict=True):
        for p in (0, 1):
            x0, y0, x1, y1 = bars[p]
            if line.score[p]:
                assert close(img.getpixel(((x0 + x1) // 2, (y0 + y1) // 2)),
                             TH.checkers[p].fill, 20)
    alt = summary_alt_text(s)
    assert f"alice {s.score[0]}, bob {s.score[1]}" in alt
    for line in s.games:
        assert f"Game {line.number}: {NAMES[line.winner]} +{line.points}" in alt
    assert "alice: not analysed" in alt and "bob: not analysed" in alt
    assert ("The cube was never turned" in alt) == (not s.cube)


def test_a_match_graph_plots_match_winning_chances() -> None:
    """Issue 30 item 8: in match play the equity line sat near -0.9 at move 1 with 50%
    winning chances, on a scale that changed with the cube.  A match's graph plots the
    match-winning chances (from each result's chances and the match equity table), on the
    same 0-100% scale, and says so."""
    from bot.ai.context import MatchContext

    rec = sample_game(14, seed=4, doubles=0)
    an = analyze(rec, level=INTERMEDIATE, min_mistake=0.0,
                 context=MatchContext(length=3, score=(0, 0)))
    assert an.supported and an.timeline
    assert all(dp.mwc is not None and 0.0 <= dp.mwc <= 1.0 for dp in an.timeline)
    first = an.timeline[0]
    assert first.mwc is not None and abs(first.mwc - 0.5) < 0.15  # 0-0: near even
    money = analyze(rec, level=INTERMEDIATE, min_mistake=0.0)
    assert all(dp.mwc is None for dp in money.timeline)
    data = analysis_chart(an, rec, W, NAMES)
    assert data.match
    assert [p.mwc for p in data.points] == [
        dp.mwc if dp.player is W else 1 - (dp.mwc or 0.0) for dp in an.timeline]
    img = png(render_chart(data))
    g = geometry(data, img.width, img.height)
    from render.chart import equity_colour
    pts = sorted(data.points, key=lambda p: p.move)
    # Where the two curves are furthest apart (a 3-point match at 0-0 is closer to even
    # than the game: a single game is worth 60% / 40% of the match).
    marks = {m.move for m in data.mistakes}
    clear = [p for p in pts[1:-1] if all(abs(p.move - m) > 1 for m in marks)
             and sum(q.move == p.move for q in pts) == 1]
    probe = max(clear, key=lambda p: abs((p.mwc or 0.0) - p.win))
    assert probe.mwc is not None and abs(probe.mwc - probe.win) > 0.02
    near = [img.getpixel((round(g.x(probe.move)), round(g.y_win(probe.mwc)) + dy))
            for dy in (-1, 0, 1)]
    assert any(close(c, equity_colour(TH), 40) for c in near)
    assert "match-winning chances" in chart_alt_text(data)


def test_mistake_labels_stay_inside_the_plot_and_off_the_rings() -> None:
    """Issue 30 item 8: the last marker's move number was clipped at the frame, and
    labels sat on their circles."""
    from render.chart import label_box, render_chart_image, ring_radius

    points = tuple(ChartPoint(m, 0.97 if m > 70 else 0.5, 0.0) for m in range(1, 77))
    mistakes = (ChartMistake(76, 0.2, True), ChartMistake(75, 0.1, False),
                ChartMistake(1, 0.1, True))
    data = ChartData("alice", "bob", points, mistakes, moves=76)
    g = geometry(data)
    x0, y0, x1, y1 = g.plot
    rings = [mistake_xy(data, g, m) for m in mistakes]
    r = ring_radius(g)
    for m in mistakes:
        bx0, by0, bx1, by1 = label_box(data, g, m)
        assert x0 <= bx0 and bx1 <= x1 and y0 <= by0 and by1 <= y1, m
        for cx, cy in rings:
            nx, ny = min(max(cx, bx0), bx1), min(max(cy, by0), by1)
            assert (nx - cx) ** 2 + (ny - cy) ** 2 >= r * r, (m, cx, cy)
    # The pictures with and without the marks differ only inside the plot.
    marked = render_chart_image(data)
    plain = render_chart_image(ChartData("alice", "bob", points, (), moves=76))
    legend_top = round(marked.height - g.unit * 1.2)
    for y in range(0, legend_top):
        for x in range(marked.width):
            on_ring = any((x - cx) ** 2 + (y - cy) ** 2 <= (r + g.unit * 0.15) ** 2
                          for cx, cy in rings)
            if not (x0 <= x <= x1 and y0 <= y <= y1) and not on_ring:
                assert marked.getpixel((x, y)) == plain.getpixel((x, y)), (x, y)


def test_mistake_labels_at_consecutive_moves_do_not_overlap() -> None:
    """Issue 42 item 14: the move numbers of mistakes at consecutive moves were drawn over
    each other.  Each label's box meets no other label and no ring, and each is drawn
    (its colour read back inside its box)."""
    from render.chart import label_box, render_chart, ring_radius

    points = tuple(ChartPoint(m, 0.3 + 0.005 * m, 0.0) for m in range(1, 81))
    moves = (40, 41, 42, 43, 44, 45)
    mistakes = tuple(ChartMistake(m, 0.1, m % 2 == 0) for m in moves)
    data = ChartData("alice", "bob", points, mistakes, moves=80)
    g = geometry(data)
    boxes = [label_box(data, g, m) for m in mistakes]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)
        for cx, cy in (mistake_xy(data, g, m) for m in mistakes):
            nx, ny = min(max(cx, a[0]), a[2]), min(max(cy, a[1]), a[3])
            assert (nx - cx) ** 2 + (ny - cy) ** 2 >= ring_radius(g) ** 2
    img = png(render_chart(data))
    for m, (x0, y0, x1, y1) in zip(mistakes, boxes, strict=True):
        colour = TH.hit if m.mine else TH.panel_text
        inside = [img.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]
        assert any(close(p, colour, 40) for p in inside), m


def test_a_two_move_game_marks_both_moves_on_the_x_axis() -> None:
    """Issue 42 item 14: a two-move game's axis showed only "1".  Read back: a tick under
    move 1 and under move 2, each with its number below it."""
    points = (ChartPoint(1, 0.5, 0.0), ChartPoint(2, 0.45, -0.1))
    data = ChartData("alice", "bob", points, moves=2)
    g = geometry(data)
    img = png(render_chart(data))
    _, _, _, y1 = g.plot
    for move in (1, 2):
        x = round(g.x(move))
        assert close(img.getpixel((x, y1 + 2)), TH.panel_muted, 10), move
        under = [img.getpixel((xx, yy)) for xx in range(x - 8, x + 9)
                 for yy in range(y1 + round(g.unit * 0.35), y1 + round(g.unit * 1.1))]
        assert any(close(p, TH.panel_muted, 40) for p in under), move


def _form_card(prs: tuple[float, ...]) -> PlayerCard:
    from render.card import CardForm

    return PlayerCard("alice", 1512.0, 5, (1500.0, 1512.0), 3, 2, 1, 1, 0, "backgammon",
                      (RecentResult(True, "bob", "7-4"),),
                      form=CardForm(prs, prs[-1], "Advanced", len(prs), "6.2 vs bob"))


def _form_box(card: PlayerCard, img: Image.Image) -> tuple[int, int, int, int]:
    """The PR chart's box, read back: the background-coloured rectangle under the PR
    heading, below the rating chart."""
    g = card_geometry(card, img.width, img.height)
    x0, _, x1, y1 = g.spark
    top = next(y for y in range(y1 + 3, img.height)
               if img.getpixel((x0 + 1, y)) == TH.background)
    bottom = next(y for y in range(top, img.height)
                  if img.getpixel((x0 + 1, y)) != TH.background) - 1
    assert bottom - top > 20
    return x0, top, x1, bottom


def test_card_with_one_analysed_match_draws_its_pr() -> None:
    """Issue 42 item 15: with one analysed match the PR chart was an empty box."""
    card = _form_card((6.2,))
    img = png(render_card(card))
    x0, y0, x1, y1 = _form_box(card, img)
    inside = [img.getpixel((x, y)) for x in range(x0, x1) for y in range(y0, y1)]
    assert any(close(p, TH.highlight, 30) for p in inside)


def test_card_pr_chart_has_a_scale_saying_which_way_is_better() -> None:
    """Issue 42 item 15: the PR chart had no scale, so nobody could tell whether up is
    better.  Its top and bottom are labelled with their PR, the top "better"; the labels
    read back are those texts."""
    from render.card import form_scale_labels
    from render.text import draw_text, font

    for prs in ((6.2,), (6.2, 3.1, 9.8, 5.0)):
        card = _form_card(prs)
        img = png(render_card(card))
        x0, y0, _, y1 = _form_box(card, img)
        best, worst = form_scale_labels(card.form) if card.form else ("", "")
        assert best == f"PR {min(prs) if len(prs) > 1 else 5.7:.1f} better"
        assert worst.endswith("worse")
        u = img.width / 40
        sf = font(max(9, round(u * 0.5)))
        for text, xy, anchor in ((best, (x0 + round(u * 0.2), y0 + 2), "lt"),
                                 (worst, (x0 + round(u * 0.2), y1 - 2), "lb")):
            alone = Image.new("RGB", img.size, TH.background)
            draw_text(alone, xy, text, sf, TH.panel_muted, anchor)
            box = _ink_box(alone)
            assert img.crop(box).tobytes() == alone.crop(box).tobytes(), text


def _ink_box(img: Image.Image) -> tuple[int, int, int, int]:
    xs, ys = [], []
    for y in range(img.height):
        for x in range(img.width):
            if img.getpixel((x, y)) != TH.background:
                xs.append(x)
                ys.append(y)
    return min(xs), min(ys), max(xs) + 1, max(ys) + 1


def test_card_rating_range_is_off_the_pr_heading_line() -> None:
    """Issue 42 item 15: the rating range ("1500–1512") sat at the right end of the PR
    heading's line.  Right of the heading's text, between the two charts, nothing is
    drawn."""
    from render.text import fit_text, text_length

    card = _form_card((6.2, 5.0))
    img = png(render_card(card))
    g = card_geometry(card, img.width, img.height)
    x0, _, x1, y1 = g.spark
    _, top, _, _ = _form_box(card, img)
    u = img.width / 40
    assert card.form is not None
    heading, f = fit_text(f"PR {card.form.pr:.1f} {card.form.grade} · last "
                          f"{card.form.matches} matches", round(u * 0.62), True, x1 - x0)
    end = x0 + round(text_length(f, heading)) + 4
    strip = [img.getpixel((x, y)) for x in range(end, x1 + 1) for y in range(y1 + 2, top - 1)]
    assert all(p == TH.panel for p in strip)
