"""Fuzzing the PDN reader: random and mutated text only ever yields games or PdnError, and never hangs."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.pdn import ParsedGame, PdnError, read_games
from tests.hang_guard import no_hang

CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "pdn"
_FALLBACK = (
    '[Event "x"]\n[White "A"]\n[Result "1-0"]\n[GameType "20"]\n'
    '1. 32-28 19-23 (18-23 {c} 38-32) 2. 28x19 14x23 $1 /FEN "W:W31-50:B1-20"/ 3. 1- 6! 1-0\n'
)
# Mutations start from real files when the shared corpus is there, from a small sample otherwise.
SEEDS: list[str] = [
    p.read_text(encoding="utf-8")[:3000] for p in sorted(CORPUS.glob("**/*.pdn"))
] or [_FALLBACK]

# Characters that matter to the tokenizer are over-represented so that the edge cases come up often.
PDN_ALPHABET = st.sampled_from(list('0123456789-x:./*[]{}()"%$!?\\ \n\r\tWBK,;=+\u00bd\ufeff\u00e9a'))
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def read_bounded(data: str | bytes) -> list[ParsedGame]:
    with no_hang():
        try:
            games = read_games(data, source="fuzz")
        except PdnError:
            games = []
    for game in games:
        for error in game.errors:
            assert error.line >= 1 and error.column >= 1
    return games


@FUZZ
@given(st.text(PDN_ALPHABET, max_size=400))
def test_random_pdn_like_text(text: str) -> None:
    read_bounded(text)


@FUZZ
@given(st.text(max_size=300))
def test_random_unicode_text(text: str) -> None:
    read_bounded(text)


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes(data: bytes) -> None:
    read_bounded(data)


@st.composite
def mutated(draw: st.DrawFn) -> str:
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 8))):
        if not text:
            break
        at = draw(st.integers(0, len(text) - 1))
        action = draw(st.sampled_from(["delete", "insert", "replace", "duplicate"]))
        piece = draw(st.text(PDN_ALPHABET, min_size=1, max_size=6))
        if action == "delete":
            text = text[:at] + text[at + len(piece):]
        elif action == "insert":
            text = text[:at] + piece + text[at:]
        elif action == "replace":
            text = text[:at] + piece + text[at + len(piece):]
        else:
            text = text[:at] + text[at:at + 200] + text[at:]
    return text


@FUZZ
@given(mutated())
def test_mutated_corpus_text(text: str) -> None:
    games = read_bounded(text)
    assert [g.index for g in games] == list(range(1, len(games) + 1))
    for game in games:
        places = [(m.line, m.column) for m in game.moves]
        assert places == sorted(places)  # the main line is read in file order, variations apart


@FUZZ
@given(mutated())
def test_mutated_corpus_bytes_in_windows_1252(text: str) -> None:
    read_bounded(text.encode("cp1252", errors="replace"))


def test_brace_storms_stay_linear() -> None:
    for text in ("{{}" * 4000, "{" * 12000, "(" * 12000, "[" * 12000, '[A "' * 3000, "/" * 12000):
        read_bounded(text)
