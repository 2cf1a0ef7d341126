"""Competition rules 5.9: the three withdrawal cases, and the readings the text leaves open."""

from __future__ import annotations

from collections.abc import Collection

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing.roundrobin import berger_schedule
from tournaments.results import TWO_PLAYER_RESULTS, Result
from tournaments.standings import (
    StandingGame,
    StandingPlayer,
    StandingRow,
    compute_standings,
    crosstable_cells,
    effective_games,
)

G = StandingGame


def field(n: int, withdrawn: dict[int, int] | None = None) -> list[StandingPlayer]:
    """Players with pairing numbers 1..n and ids 10 * number (so ids and numbers differ)."""
    withdrawn = withdrawn or {}
    return [StandingPlayer(10 * k, k, f"P{k}", None, withdrawn.get(k)) for k in range(1, n + 1)]


def round_robin(n: int, *, double: bool = False, draws: Collection[frozenset[int]] = (),
                gone: dict[int, int] | None = None, last_round: int | None = None) -> list[StandingGame]:
    """The Berger schedule of pairing numbers played out: the lower number wins, except the pairs in
    `draws`; games of a player gone after round r are NOT_PLAYED from round r+1 (as the lead's
    service records them). Free rounds are BYE."""
    gone = gone or {}
    out: list[StandingGame] = []
    for rnd, boards in enumerate(berger_schedule(n, double=double), start=1):
        if last_round is not None and rnd > last_round:
            break
        for w, b in boards:
            absent = any(p in gone and rnd > gone[p] for p in (w, b) if p is not None)
            if b is None:
                out.append(G(rnd, 10 * w, None, Result.NOT_PLAYED if absent else Result.BYE))
                continue
            if absent:
                result = Result.NOT_PLAYED
            elif frozenset((w, b)) in draws:
                result = Result.DRAW
            else:
                result = Result.WHITE_WINS if w < b else Result.BLACK_WINS
            out.append(G(rnd, 10 * w, 10 * b, result))
    return out


def rows_by_number(rows: list[StandingRow]) -> dict[int, StandingRow]:
    return {r.player.pairing_number: r for r in rows}


# Six players, Berger: R1 1-6 2-5 3-4 | R2 6-4 5-3 1-2 | R3 2-6 3-1 4-5 | R4 6-5 1-4 2-3 | R5 3-6 4-2 5-1.
# Lower number wins every game except 6-4 in round 2, a draw. Undisturbed: 1 10, 2 8, 3 6, 4 3, 5 2, 6 1.
DRAW_6_4 = {frozenset((6, 4))}


def test_undisturbed_six_player_round_robin() -> None:
    rows = compute_standings(field(6), round_robin(6, draws=DRAW_6_4), system="round_robin",
                             rounds_total=5, tiebreaks=[])
    assert {n: r.points for n, r in rows_by_number(rows).items()} == {1: 10, 2: 8, 3: 6, 4: 3, 5: 2, 6: 1}


def test_round_robin_withdrawal_at_most_half_cancels_everything() -> None:
    # 5.9 A.a: player 6 leaves after round 2, having played 2 of 5 games (2 * 2 <= 5). His loss to 1
    # and his draw with 4 disappear from their scores too; he is not ranked.
    games = round_robin(6, draws=DRAW_6_4, gone={6: 2})
    rows = compute_standings(field(6, {6: 2}), games, system="round_robin", rounds_total=5,
                             tiebreaks=["sonneborn_berger"])
    by = rows_by_number(rows)
    assert {n: by[n].points for n in range(1, 6)} == {1: 8, 2: 6, 3: 4, 4: 2, 5: 0}
    assert [r.player.pairing_number for r in rows] == [1, 2, 3, 4, 5, 6]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, None]
    six = by[6]
    assert six.rank is None and six.withdrawn and six.points == 0 and six.played == 0
    assert six.not_ranked_reason is not None and "5.9 A.a" in six.not_ranked_reason
    assert "2 of 5" in six.not_ranked_reason
    # Nobody's tie-break still sees him: 1's Sonneborn-Berger is 2 * (6 + 4 + 2 + 0) = 24.
    assert by[1].tiebreaks["sonneborn_berger"] == 24
    assert by[1].played == 4 and by[4].played == 4
    # The final table still prints his results, flagged as cancelled.
    cells = crosstable_cells(field(6, {6: 2}), games, system="round_robin", rounds_total=5)
    r1 = cells[60][0]
    assert (r1.opponent, r1.text, r1.cancelled, r1.counts, r1.points) == (10, "0", True, False, 0)
    assert (cells[40][1].text, cells[40][1].cancelled) == ("1", True)


def test_round_robin_withdrawal_after_more_than_half_turns_the_rest_into_forfeits() -> None:
    # 5.9 A.b: player 6 leaves after round 3, having played 3 of 5 (2 * 3 > 5). Results stand; round 4
    # (6-5) becomes 0F-2F and round 5 (3-6) 2F-0F; he is ranked.
    games = round_robin(6, draws=DRAW_6_4, gone={6: 3})
    rows = compute_standings(field(6, {6: 3}), games, system="round_robin", rounds_total=5, tiebreaks=[])
    by = rows_by_number(rows)
    assert {n: r.points for n, r in by.items()} == {1: 10, 2: 8, 3: 6, 4: 3, 5: 2, 6: 1}
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    assert by[6].withdrawn and by[6].not_ranked_reason is None
    assert by[6].withdrawal_note is not None and "5.9 A.b" in by[6].withdrawal_note
    assert by[5].played == 4 and by[5].wins == 1  # the forfeit is a win but not a game played
    effective = [g for g in effective_games(field(6, {6: 3}), games, "round_robin", 5)
                 if 60 in (g.white, g.black)]
    assert [(g.round, g.white, g.black, g.result, g.forfeit_after_withdrawal) for g in effective[3:]] == [
        (4, 60, 50, Result.BLACK_FORFEIT_WIN, True),
        (5, 30, 60, Result.WHITE_FORFEIT_WIN, True),
    ]
    cells = crosstable_cells(field(6, {6: 3}), games, system="round_robin", rounds_total=5)
    assert [c.text for c in cells[60]] == ["0", "1", "0", "0F", "0F"]
    assert cells[50][3].text == "2F" and cells[30][4].text == "2F"


def test_swiss_withdrawal_results_stand_and_he_is_ranked_on_what_he_played() -> None:
    # 5.9 B. D beats A in round 1 and leaves; rounds 2-3 are paired without him.
    # A 0+2+0 = 2, B 1+0+2 = 3, C 1+2+2 = 5, D 2. Solkoffs (a bye counts 0): C B 3 + 0 + A 2 = 5,
    # B C 5 + A 2 + 0 = 7, A D 2 + B 3 + C 5 = 10, D A 2 = 2: D stays counted at his score.
    a, b, c, d = 1, 2, 3, 4
    ps = [StandingPlayer(a, 1, "A", None), StandingPlayer(b, 2, "B", None),
          StandingPlayer(c, 3, "C", None), StandingPlayer(d, 4, "D", None, withdrawn_after_round=1)]
    games = [G(1, a, d, Result.BLACK_WINS), G(1, b, c, Result.DRAW),
             G(2, a, b, Result.WHITE_WINS), G(2, c, None, Result.BYE),
             G(3, c, a, Result.WHITE_WINS), G(3, b, None, Result.BYE)]
    rows = compute_standings(ps, games, system="swiss", rounds_total=3, tiebreaks=["solkoff"])
    assert [(r.player.name, r.rank, r.points, r.tiebreaks["solkoff"]) for r in rows] == [
        ("C", 1, 5, 5), ("B", 2, 3, 7), ("A", 3, 2, 10), ("D", 4, 2, 2)]
    d_row = rows[3]
    assert d_row.withdrawn and d_row.not_ranked_reason is None and d_row.played == 1
    assert d_row.withdrawal_note is not None and "5.9 B" in d_row.withdrawal_note
    assert rows[0].withdrawal_note is None
    assert effective_games(ps, games, "swiss", 3) == games  # nothing rewritten in a Swiss


def test_exactly_half_is_not_more_than_half() -> None:
    # Double round robin of 4 players: 6 games each. Player 4 leaves after round 3 of the first cycle,
    # having played 3 = half: cancelled. After round 4 (4 played) his results stand.
    half = compute_standings(field(4, {4: 3}), round_robin(4, double=True, gone={4: 3}),
                             system="double_round_robin", rounds_total=6, tiebreaks=[])
    assert rows_by_number(half)[4].rank is None
    assert "3 of 6" in (rows_by_number(half)[4].not_ranked_reason or "")
    more = compute_standings(field(4, {4: 4}), round_robin(4, double=True, gone={4: 4}),
                             system="double_round_robin", rounds_total=6, tiebreaks=[])
    assert rows_by_number(more)[4].rank == 4
    # Undisturbed, 1 would have 12; with 4 cancelled he has 8; with 4's forfeits he keeps 12.
    assert rows_by_number(half)[1].points == 8 and rows_by_number(more)[1].points == 12


def test_a_forfeit_is_not_a_game_played() -> None:
    # Player 6 of six: round 1 he lost over the board, round 2 he was absent (0F), round 3 he
    # lost over the board, then he left. 2 played of 5 (the forfeit not counted): cancelled.
    games = round_robin(6, gone={6: 3})
    games = [G(2, 60, 40, Result.BLACK_FORFEIT_WIN) if (g.round, g.white) == (2, 60) else g for g in games]
    rows = rows_by_number(compute_standings(field(6, {6: 3}), games, system="round_robin",
                                            rounds_total=5, tiebreaks=[]))
    assert rows[6].rank is None and "2 of 5" in (rows[6].not_ranked_reason or "")


def test_missing_games_of_a_withdrawn_player_are_written_in_from_the_berger_table() -> None:
    # Rounds 4 and 5 never recorded at all: the Berger table of pairing numbers supplies them.
    games = round_robin(6, draws=DRAW_6_4, last_round=3)
    games += [g for g in round_robin(6, draws=DRAW_6_4) if g.round > 3 and 60 not in (g.white, g.black)]
    rows = rows_by_number(compute_standings(field(6, {6: 3}), games, system="round_robin", rounds_total=5,
                                            tiebreaks=[], after_round=5))
    assert rows[5].points == 2 and rows[3].points == 6 and rows[6].points == 1


def test_two_withdrawn_players_due_to_meet_both_forfeit() -> None:
    # Players 5 and 6 both leave after round 3 having played 3 of 5; round 4 is 6-5: 0F-0F (5.8).
    games = round_robin(6, gone={5: 3, 6: 3})
    effective = effective_games(field(6, {5: 3, 6: 3}), games, "round_robin", 5)
    r4 = next(g for g in effective if g.round == 4 and g.white == 60)
    assert (r4.black, r4.result) == (50, Result.DOUBLE_FORFEIT)


def test_withdrawal_takes_effect_in_the_standings_after_his_last_round() -> None:
    # Withdrawn after round 2: the standings after round 1 show him as he was; after round 2 the
    # ruling applies (the arbiter has recorded it).
    games = round_robin(6, draws=DRAW_6_4, gone={6: 2})
    after_1 = rows_by_number(compute_standings(field(6, {6: 2}), games, system="round_robin",
                                               rounds_total=5, tiebreaks=[], after_round=1))
    assert not after_1[6].withdrawn and after_1[6].rank is not None and after_1[1].points == 2
    after_2 = rows_by_number(compute_standings(field(6, {6: 2}), games, system="round_robin",
                                               rounds_total=5, tiebreaks=[], after_round=2))
    assert after_2[6].withdrawn and after_2[6].rank is None and after_2[1].points == 2  # 1-2 only


def test_withdrawal_before_the_first_round() -> None:
    games = round_robin(4, gone={4: 0})
    rows = rows_by_number(compute_standings(field(4, {4: 0}), games, system="round_robin",
                                            rounds_total=3, tiebreaks=[]))
    assert rows[4].rank is None and "0 of 3" in (rows[4].not_ranked_reason or "")
    assert [rows[n].points for n in (1, 2, 3)] == [4, 2, 0]


RESULTS = [r for r in TWO_PLAYER_RESULTS if r is not Result.NOT_PLAYED]


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_one_withdrawal_in_a_random_round_robin(data: st.DataObject) -> None:
    n = data.draw(st.integers(min_value=3, max_value=9), label="players")
    double = data.draw(st.booleans(), label="double")
    schedule = berger_schedule(n, double=double)
    leaver = data.draw(st.integers(min_value=1, max_value=n), label="leaver")
    after = data.draw(st.integers(min_value=0, max_value=len(schedule)), label="after round")
    games: list[StandingGame] = []
    for rnd, boards in enumerate(schedule, start=1):
        for w, b in boards:
            if b is None:
                free = Result.NOT_PLAYED if w == leaver and rnd > after else Result.BYE
                games.append(G(rnd, 10 * w, None, free))
            elif leaver in (w, b) and rnd > after:
                games.append(G(rnd, 10 * w, 10 * b, Result.NOT_PLAYED))
            else:
                games.append(G(rnd, 10 * w, 10 * b, data.draw(st.sampled_from(RESULTS))))
    system = "double_round_robin" if double else "round_robin"
    rows = rows_by_number(compute_standings(field(n, {leaver: after}), games, system=system,
                                            rounds_total=len(schedule), tiebreaks=[], bye_points=0))
    played = sum(1 for g in games if 10 * leaver in (g.white, g.black) and g.result.is_played)
    scheduled = (n - 1) * (2 if double else 1)

    def points(k: int, game: StandingGame) -> int:
        white, black = game.result.points(0)
        return white if game.white == 10 * k else black

    for k in range(1, n + 1):
        mine = [g for g in games if g.involves(10 * k) and g.black is not None]
        if 2 * played <= scheduled:  # 5.9 A.a: as if he had never entered
            expected = 0 if k == leaver else sum(points(k, g) for g in mine if not g.involves(10 * leaver))
        else:  # 5.9 A.b: every unplayed game against him is 2F for the other, 0F for him
            expected = sum(points(k, g) for g in mine if g.result is not Result.NOT_PLAYED)
            if k != leaver:
                expected += 2 * sum(1 for g in mine
                                    if g.involves(10 * leaver) and g.result is Result.NOT_PLAYED)
        assert rows[k].points == expected
    assert (rows[leaver].rank is None) == (2 * played <= scheduled)
    assert rows[leaver].withdrawn
