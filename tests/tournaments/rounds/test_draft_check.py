"""A Swiss draft's round page shows each board as a pairing check reads it: points, score group, colours, floats."""

from __future__ import annotations

import re

import pytest
from django.db import connection, reset_queries
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.tournaments.play import play_swiss_round
from tournaments.models import Game, System, Tournament
from tournaments.results import Result
from tournaments.rounds import draft_check, services


def _before(t: Tournament, number: int) -> dict[int, tuple[int, str]]:
    """Each entry's points and played colours before round `number`, read from the games themselves."""
    out: dict[int, tuple[int, str]] = {e.pk: (0, "") for e in t.entries.all()}
    for g in Game.objects.filter(round__tournament=t, round__number__lt=number).order_by("round__number"):
        result = Result(g.result)
        white, black = result.points(t.bye_points)
        played = g.black_id is not None and not result.is_forfeit
        pts, cols = out[g.white_id]
        out[g.white_id] = (pts + white, cols + ("w" if played else ""))
        if g.black_id:
            pts, cols = out[g.black_id]
            out[g.black_id] = (pts + black, cols + ("b" if played else ""))
    return out


def test_each_board_of_a_swiss_draft_has_the_players_points_group_colours_and_floats(swiss9) -> None:
    play_swiss_round(swiss9)
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)  # round 3, a draft
    checks = draft_check.draft_boards(rnd)
    games = list(rnd.games.order_by("board"))
    assert sorted(checks) == [g.board for g in games]
    before, after_one = _before(swiss9, 3), _before(swiss9, 2)
    for g in games:
        check = checks[g.board]
        assert (check.white.points, check.white.colours) == before[g.white_id]
        if g.black_id:
            assert check.black is not None and (check.black.points, check.black.colours) == before[g.black_id]
            assert check.group == max(before[g.white_id][0], before[g.black_id][0])
        else:
            assert check.black is None and check.group == before[g.white_id][0]
        for entry_id, side in ((g.white_id, check.white), (g.black_id, check.black)):
            if side is None:
                continue
            # The previous round's float: against an opponent who had more points up, fewer down (A.4).
            last = Game.objects.filter(round__tournament=swiss9, round__number=2).filter(
                white_id=entry_id).first() or Game.objects.get(round__tournament=swiss9, round__number=2,
                                                               black_id=entry_id)
            opponent = last.black_id if last.white_id == entry_id else last.white_id
            mine = after_one[entry_id][0]
            if opponent is None:
                expected = "d" if Result(last.result).points(swiss9.bye_points)[0] > 0 else None
            else:
                theirs = after_one[opponent][0]
                expected = "d" if mine > theirs else "u" if mine < theirs else None
            assert dict(side.floats).get(2) == expected


def test_the_swiss_draft_page_shows_the_check_on_each_row(swiss9, chief) -> None:
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    html = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    for header in ("Points before", "Score group", "Colours", "Floats"):
        assert f'class="dm-check">{header}</th>' in html
    checks = draft_check.draft_boards(rnd)
    for board, check in checks.items():
        row = html.split(f'id="dm-board-{board}"')[1].split("</tr>")[0]
        cells = re.findall(r'<td class="dm-check">([^<]*)</td>', row)
        black = check.black
        assert cells[0] == f"{check.white.points} – {black.points if black else '·'}"
        assert cells[1] == str(check.group)
        assert cells[2] == (f"{check.white.colours.upper() or '·'} – "
                            f"{(black.colours.upper() or '·') if black else '·'}")
        floats = [" ".join(f"{'↑' if w == 'u' else '↓'}{n}" for n, w in side.floats) or "·" if side else "·"
                  for side in (check.white, black)]
        assert cells[3] == " – ".join(floats)
    assert "(W White, B Black)" in html


def test_no_check_columns_on_a_published_round_nor_a_round_robin_draft(swiss9, make_tournament, chief) -> None:
    rnd = services.round_pair(tournament=swiss9)
    services.round_publish(round=rnd)
    page = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    assert 'class="dm-check"' not in page
    rr = services.round_pair(tournament=make_tournament(4, slug="rr"))
    assert draft_check.draft_boards(rr) == {}
    assert 'class="dm-check"' not in chief.get(reverse("admin:tournaments_round_change", args=[rr.pk])).content.decode()


def _draft_queries(make_tournament, chief, players: int, slug: str, order: str) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    t = make_tournament(players, system=System.SWISS, slug=slug, rounds_total=5, swiss_order=order)
    play_swiss_round(t)
    play_swiss_round(t)
    rnd = services.round_pair(tournament=t)
    rnd.refresh_from_db()
    reset_queries()  # the log keeps 9000 queries at most: a full one would count none
    with CaptureQueriesContext(connection) as reads:
        checks = draft_check.draft_boards(rnd)
    assert len(checks) == rnd.games.count()
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    chief.get(url)
    reset_queries()
    with CaptureQueriesContext(connection) as page:
        assert chief.get(url).status_code == 200
    return len(reads), len(page)


@pytest.mark.parametrize("order", ["rating", "standing"])
def test_the_check_reads_a_fixed_number_of_queries_whatever_the_number_of_boards(make_tournament, chief,
                                                                                 order: str) -> None:
    small = _draft_queries(make_tournament, chief, 8, "small", order)
    large = _draft_queries(make_tournament, chief, 20, "large", order)
    assert small[0] == large[0] <= 8, (small, large)
    assert small[1] == large[1], (small, large)
