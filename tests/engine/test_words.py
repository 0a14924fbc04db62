"""Issue 42 item 11: counted nouns and articles are built in one place
(:mod:`engine.words`), and a sweep of every text template of the host (each f-string and
format template under engine/, render/ and bot/) finds none that writes a count or an
article by hand: no "1 decisions", "over 1 rolls", "last 1 matches", "game(s)", "a
acey-deucey game"."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from engine.words import article, counted, plural, sentence

ROOT = Path(__file__).resolve().parents[2]

# ------------------------------------------------------------------ the helper


@pytest.mark.parametrize(("noun", "texts"), [
    ("decision", ("0 decisions", "1 decision", "2 decisions")),
    ("roll", ("0 rolls", "1 roll", "2 rolls")),
    ("match", ("0 matches", "1 match", "2 matches")),
    ("analysed match", ("0 analysed matches", "1 analysed match", "2 analysed matches")),
    ("minute", ("0 minutes", "1 minute", "2 minutes")),
    ("cube action", ("0 cube actions", "1 cube action", "2 cube actions")),
    ("entry", ("0 entries", "1 entry", "2 entries")),
    ("die", ("0 dice", "1 die", "2 dice")),
])
def test_counted_with_0_1_and_2(noun: str, texts: tuple[str, str, str]) -> None:
    assert tuple(counted(n, noun) for n in (0, 1, 2)) == texts


def test_counted_plural_forms_and_large_counts() -> None:
    assert counted(1186, "decision") == "1,186 decisions"
    assert counted(1, "joins", "join", digits=False) == "joins"
    assert counted(2, "joins", "join", digits=False) == "join"
    assert counted(2, "is", digits=False) == "are" and plural("box") == "boxes"


@pytest.mark.parametrize(("phrase", "expected"), [
    ("acey-deucey game", "an acey-deucey game"), ("single", "a single"),
    ("gammon", "a gammon"), ("backgammon", "a backgammon"), ("hour", "an hour"),
    ("1-point match", "a 1-point match"), ("8-point match", "an 8-point match"),
    ("11-point match", "an 11-point match"), ("18-point match", "an 18-point match"),
    ("5-point match", "a 5-point match"), ("one-die opening", "a one-die opening"),
    ("unique seed", "a unique seed"), ("Swiss", "a Swiss"), ("empty", "an empty"),
])
def test_article(phrase: str, expected: str) -> None:
    assert article(phrase) == expected


def test_sentence_capitalises_the_first_letter_only() -> None:
    assert sentence("this tournament has no pairing 'r1-9'") == \
        "This tournament has no pairing 'r1-9'"
    assert sentence("'x' is not...") == "'X' is not..." and sentence("") == ""


# ------------------------------------------------------------------ the sweep

NOUNS = ("decisions rolls matches minutes games points players moves checkers shares "
         "puzzles characters results frames hours days pages options seconds rounds "
         "problems fields pips times entries steps draws slots boards votes losses actions "
         "cubes throws members partners suggestions events").split()
COUNT = re.compile(r"^ (?:(?:analysed|rated|opposing|cube|more|other|open|unfinished|legal|"
                   r"whole|colon-separated) )?(" + "|".join(NOUNS) + r")\b")
ARTICLE = re.compile(r"(^|[^A-Za-z])[Aa]n? $")

ALLOWED = {
    # (file, the expression written before the plural or after "a"): why it is right.
    ("bot/adapters/discord/tournament_ui.py", "int(OPENING_RETRY.total_seconds() // 60)"):
        "a constant of several minutes",
    ("bot/ai/convert.py", "on_board"): "only said above 15 checkers",
    ("bot/ai/grades.py", "value"): "a measure (+1.250 points), not a count",
    ("bot/service/builder/listing.py", "die"): "a die is 1 to 6: a one ... a six",
    ("bot/service/core/limits.py", "what"): "not a count: 'those move options'",
    ("bot/service/core/runner.py", "len(mine)"): "only said for more than one",
    ("render/chart.py", "data.error_rate * 1000"): "a measure in thousandths",
    ("render/summary.py", "rate * 1000"): "a measure in thousandths",
    ("render/replay.py", "len(todo)"): "an operator's error for many frames",
    ("bot/ai/duel.py", "self.mean"): "a mean of points a game, not a count",
    ("engine/chouette.py", "self.cap"): "a table takes at least 2 players",
    ("engine/chouette.py", "self.options.min_players"): "at least 2 players",
    ("engine/chouette.py", "self.options.cap"): "at least 2 players",
    ("engine/gnubgid.py", "on_board"): "only said above 15 checkers",
    ("engine/gnubgid.py", "what"): "'Position ID', 'Match ID'",
    ("engine/interpret.py", "len(hops)"): "only said above the dice's limit (at least 2)",
    ("engine/interpret.py", "_number_word(limit)"): "'twice', 'four times'",
    ("engine/interpret.py", "die"): "a die is 1 to 6",
    ("engine/interpret.py", "count"): "a blocked point holds at least 2 checkers",
    ("engine/interpret.py", "n"): "a blocked point holds at least 2 checkers",
    ("engine/notation.py", "len(text)"): "only said above 200 characters",
    ("engine/rules.py", "bg"): "3 or 4 times",
    ("engine/tournament/state.py", "why.value"): "not a count: 'bye results'",
    ("engine/tournament/state.py", "n"): "only said for 2 players or more",
    ("engine/variants/movement.py", "die"): "a die is 1 to 6",
    ("engine/variants/postext.py", "on_board"): "only said above 15 checkers",
    ("engine/xgid.py", "on_board"): "only said above 15 checkers",
}


def templates() -> list[tuple[str, int, list[ast.expr]]]:
    """Every f-string (its parts) and every format template (a string with ``{name}``)
    under engine/, render/ and bot/, but the helper itself."""
    out = []
    for root in ("engine", "render", "bot"):
        for path in sorted((ROOT / root).rglob("*.py")):
            if path.name == "words.py":
                continue
            rel = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.JoinedStr):
                    out.append((rel, node.lineno, list(node.values)))
                elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                        re.search(r"\{[a-z_]+\}", node.value)):
                    parts: list[ast.expr] = []
                    for piece in re.split(r"(\{[a-z_]+\})", node.value):
                        if piece.startswith("{") and piece.endswith("}"):
                            parts.append(ast.FormattedValue(ast.Name(piece[1:-1]), -1, None))
                        elif piece:
                            parts.append(ast.Constant(piece))
                    out.append((rel, node.lineno, parts))
    return out


def test_no_template_counts_or_puts_an_article_by_hand() -> None:
    found = []
    for rel, line, parts in templates():
        for i, part in enumerate(parts):
            nxt = parts[i + 1] if i + 1 < len(parts) else None
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                if re.search(r"\w\((s|es)\)", part.value):
                    found.append(f"{rel}:{line}: {part.value.strip()!r} (write counted())")
                if ARTICLE.search(part.value) and isinstance(nxt, ast.FormattedValue):
                    expr = ast.unparse(nxt.value)
                    if (rel, expr) not in ALLOWED:
                        found.append(f"{rel}:{line}: 'a {{{expr}}}' (write article())")
            if isinstance(part, ast.FormattedValue) and isinstance(nxt, ast.Constant) and (
                    isinstance(nxt.value, str) and COUNT.match(nxt.value)):
                expr = ast.unparse(part.value)
                if re.fullmatch(r"[A-Z_]+", expr) or (rel, expr) in ALLOWED:
                    continue  # a constant: never one
                found.append(f"{rel}:{line}: '{{{expr}}}{nxt.value[:20]}' (write counted())")
    assert not found, "\n".join(found)


def test_the_allowed_exceptions_still_exist() -> None:
    """The list of exceptions is no place for stale entries."""
    seen = {(rel, ast.unparse(p.value)) for rel, _, parts in templates() for p in parts
            if isinstance(p, ast.FormattedValue)}
    assert set(ALLOWED) <= seen, set(ALLOWED) - seen
