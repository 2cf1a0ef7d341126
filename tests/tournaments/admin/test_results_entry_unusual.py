"""The round page with the unusual results, as an arbiter posts it: the new results in
the menus, a warning asked on the page without losing what was typed, confirmed by a tick, then recorded."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.tournaments.admin.test_round_entry import form_in, messages_in, parse, results_of
from tests.tournaments.warning_screen import assert_one_screen
from tournaments.conformance.policy import Level
from tournaments.models import Round, System
from tournaments.players import roster
from tournaments.rounds import services

pytestmark = pytest.mark.django_db



def _round(t) -> tuple[Round, str]:  # type: ignore[no-untyped-def]
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    return rnd, reverse("admin:tournaments_round_change", args=[rnd.pk])


def _index(rnd: Round, board: int) -> int:
    return [g.board for g in rnd.games.order_by("board")].index(board)


def test_a_ruling_and_requested_byes_on_the_round_page(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="page", rounds_total=3)
    excused = t.entries.get(pairing_number=6)
    excused.excused_rounds = [1, 2]
    excused.save()
    rnd, url = _round(t)
    bye_board = rnd.games.get(white=excused).board
    html = chief.get(url).content.decode()
    page = parse(html)
    assert "excused-1" in page.options[f"games-{_index(rnd, bye_board)}-result"]
    assert "1-0" in page.options["games-0-result"] and "postponed" in page.options["games-0-result"]
    # a 1-0 ruling and a requested bye worth a draw (the first: nothing to confirm)
    data = form_in(html, **{"games-0-result": "1-0", f"games-{_index(rnd, bye_board)}-result": "excused-1",
                            "_continue": "1"})
    response = chief.post(url, data, follow=True)
    assert response.status_code == 200
    assert results_of(rnd)[1] == "1-0" and results_of(rnd)[bye_board] == "excused-1"
    for game in rnd.games.filter(result=""):
        services.game_record_result(game=game, result="2-0" if game.black_id else "bye")
    services.round_complete(round=rnd)
    rnd2, url2 = _round(t)
    board2 = rnd2.games.get(white=excused).board
    field = f"games-{_index(rnd2, board2)}-result"
    html = chief.get(url2).content.decode()
    # the second one: the page comes back with the warning to tick, the value as typed, nothing saved
    response = chief.post(url2, form_in(html, **{field: "excused-1", "games-0-result": "2-0", "_continue": "1"}))
    assert response.status_code == 200
    body = assert_one_screen(response, Level.CONFIRM)
    assert 'name="confirm" value="half-point-bye"' in body and "another requested bye worth a draw" in body
    assert parse(body).selected[field] == "excused-1" and parse(body).selected["games-0-result"] == "2-0"
    assert results_of(rnd2)[board2] == "excused" and results_of(rnd2)[1] == ""
    again = form_in(body, **{"_continue": "1"})
    again["confirm"] = "half-point-bye"
    response = chief.post(url2, again, follow=True)
    assert results_of(rnd2)[board2] == "excused-1" and results_of(rnd2)[1] == "2-0"
    assert [e.code for e in t.conformance_events.all()] == ["half-point-bye"]
    # worth a win: a notice, shown and recorded, nothing to tick
    html = chief.get(url2).content.decode()
    response = chief.post(url2, form_in(html, **{field: "excused-2", "_continue": "1"}), follow=True)
    assert results_of(rnd2)[board2] == "excused-2"
    assert any("requested bye worth a win" in m for m in messages_in(response))
    assert [e.code for e in t.conformance_events.all()] == ["half-point-bye", "full-point-bye"]


def test_a_postponed_game_completed_on_the_page_without_a_reason(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="later", rounds_total=2)
    rnd, url = _round(t)
    html = chief.get(url).content.decode()
    chief.post(url, form_in(html, **{"games-0-result": "postponed", "games-1-result": "2-0", "_continue": "1"}))
    services.round_complete(round=rnd)
    html = chief.get(url).content.decode()
    response = chief.post(url, form_in(html, **{"games-0-result": "0-2", "_continue": "1"}))
    body = response.content.decode()
    assert 'value="postponed-not-draw"' in body and "Reason for the correction" in body
    assert "give the reason" not in body  # no correction: the result was to come
    again = form_in(body, **{"_continue": "1"})
    again["confirm"] = "postponed-not-draw"
    chief.post(url, again, follow=True)
    assert results_of(rnd)[1] == "0-2"


def test_the_new_results_speak_french(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(5, system=System.SWISS, slug="fr", rounds_total=3)
    _rnd, url = _round(t)
    html = chief.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "1-0 (décision de l&#x27;arbitre)" in html and "Ajournée (nulle en attendant)" in html
    assert "2-0 non comptée pour le classement Elo" in html


def test_ties_drawn_by_lot_and_ordered_by_hand_on_the_admin_standings(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="ties", rounds_total=1, tiebreaks=["wins"])
    rnd, url = _round(t)
    for game in rnd.games.all():
        services.game_record_result(game=game, result="1-1")
    standings = reverse("admin:tournaments_tournament_standings", args=[t.pk])
    assert "the last round (1) is not completed yet" in chief.get(standings).content.decode()
    services.round_complete(round=rnd)
    html = chief.get(standings).content.decode()
    assert "Final standings: every result is in." in html and "Draw lots for the ties" in html
    body = assert_one_screen(chief.post(standings, {"draw_lots": "1"}), Level.CONFIRM)  # asked first
    assert 'name="confirm" value="lots-drawn"' in body
    chief.post(standings, {"draw_lots": "1", "confirm": "lots-drawn", "lots_token": _lots_token(body)})
    t.refresh_from_db()
    assert t.lots_seed is not None
    assert "drawing again gives the same order" in chief.get(standings).content.decode()
    body = chief.post(standings, {"order_by_hand": "1", "tie_order": "4, 3, 2, 1"}).content.decode()
    assert 'value="ranked-by-hand"' in body and 'value="4, 3, 2, 1"' in body  # what he typed stays
    chief.post(standings, {"order_by_hand": "1", "tie_order": "4, 3, 2, 1", "confirm": "ranked-by-hand"})
    t.refresh_from_db()
    assert [e.code for e in t.conformance_events.all()] == ["lots-drawn", "ranked-by-hand"]
    public = chief.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "Final standings" in public


def _lots_token(body: str) -> str:
    return re.search(r'name="lots_token" value="([^"]+)"', body).group(1)  # type: ignore[union-attr]


def test_the_seed_shown_before_the_draw_is_the_seed_drawn_with(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="seed", rounds_total=1, tiebreaks=["wins"])
    rnd, _url = _round(t)
    for game in rnd.games.all():
        services.game_record_result(game=game, result="1-1")
    services.round_complete(round=rnd)
    standings = reverse("admin:tournaments_tournament_standings", args=[t.pk])
    body = chief.post(standings, {"draw_lots": "1"}).content.decode()
    shown = int(re.search(r"drawn by lot \(seed (\d+)\)", body).group(1))  # type: ignore[union-attr]
    token = _lots_token(body)
    # a confirmation without the draw it was shown with draws nothing: it is asked again, with a new seed
    again = chief.post(standings, {"draw_lots": "1", "confirm": "lots-drawn"}).content.decode()
    t.refresh_from_db()
    assert t.lots_seed is None and 'value="lots-drawn"' in again
    # a token changed by hand (another seed chosen) is not ours: asked again, nothing drawn
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    chief.post(standings, {"draw_lots": "1", "confirm": "lots-drawn", "lots_token": forged})
    t.refresh_from_db()
    assert t.lots_seed is None
    chief.post(standings, {"draw_lots": "1", "confirm": "lots-drawn", "lots_token": token})
    t.refresh_from_db()
    assert t.lots_seed == shown
    assert t.conformance_events.get(code="lots-drawn").values["seed"] == shown


def test_expel_and_grant_a_bye_from_the_entries(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="acts", rounds_total=3)
    changelist = reverse("admin:tournaments_entry_changelist")
    one, two = t.entries.get(pairing_number=1), t.entries.get(pairing_number=2)
    chief.post(changelist, {"action": "grant_bye", "_selected_action": [one.pk], "apply": "1",
                            "round_number": "1", "points": "1"})
    chief.post(changelist, {"action": "grant_bye", "_selected_action": [one.pk], "apply": "1",
                            "round_number": "2", "points": "1"})
    one.refresh_from_db()
    assert one.bye_points == {"1": 1}  # the second one waits for its confirmation
    body = chief.post(changelist, {"action": "grant_bye", "_selected_action": [one.pk], "apply": "1",
                                   "round_number": "2", "points": "1"}).content.decode()
    assert 'value="half-point-bye"' in body
    chief.post(changelist, {"action": "grant_bye", "_selected_action": [one.pk], "apply": "1",
                            "round_number": "2", "points": "1", "confirm": "half-point-bye"})
    one.refresh_from_db()
    assert one.bye_points == {"1": 1, "2": 1} and one.excused_rounds == [1, 2]
    chief.post(changelist, {"action": "expel", "_selected_action": [two.pk], "apply": "1", "after_round": "0"})
    two.refresh_from_db()
    assert two.is_expelled and two.expelled_after_round == 0


def test_public_pages_and_pdfs_show_every_kind(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(9, system=System.SWISS, slug="pages", rounds_total=2)
    sitting = t.entries.get(pairing_number=9)
    sitting.excused_rounds, sitting.bye_points = [1], {"1": 2}
    sitting.save(update_fields=["excused_rounds", "bye_points"])  # bye_points: a service's field, set directly
    rnd, _url = _round(t)
    for game, result in zip(rnd.games.filter(black__isnull=False).order_by("board"),
                            ("1-0", "2-0U", "postponed", "0-0"), strict=True):
        services.game_record_result(game=game, result=result)
    services.round_complete(round=rnd)
    roster.entry_expel(entry=rnd.games.get(board=4).black)
    cross = chief.get(reverse("tournaments:crosstable", args=[t.slug])).content.decode()
    assert "w?" in cross and "2U" in cross and "+2 req" in cross and "excused-2" not in cross
    assert "expelled by the arbiter" in cross
    page = chief.get(reverse("tournaments:standings", args=[t.slug])).content.decode()
    assert "Standings after round 1" in page and "Final" not in page
    for name in ("standings_pdf", "crosstable_pdf"):
        response = chief.get(reverse(f"tournaments:{name}", args=[t.slug]))
        assert response.status_code == 200 and response.content.startswith(b"%PDF")
