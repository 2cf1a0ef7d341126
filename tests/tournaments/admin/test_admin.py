"""The arbiter's workplace, driven through Django's test client as an arbiter would."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.models import Round, RoundStatus, Tournament
from tournaments.rounds import services


def round_post_data(rnd: Round, results: dict[int, str], versions: dict[int, int] | None = None) -> dict[str, str]:
    games = list(rnd.games.order_by("board"))
    data = {
        "date": "",
        "games-TOTAL_FORMS": str(len(games)),
        "games-INITIAL_FORMS": str(len(games)),
        "games-MIN_NUM_FORMS": "0",
        "games-MAX_NUM_FORMS": "1000",
        "_continue": "1",
    }
    for i, g in enumerate(games):
        data[f"games-{i}-id"] = str(g.pk)
        data[f"games-{i}-round"] = str(rnd.pk)
        data[f"games-{i}-result"] = results.get(g.board, g.result)
        data[f"games-{i}-loaded_version"] = str((versions or {}).get(g.board, g.version))
    return data


@pytest.fixture
def client_for(db):  # type: ignore[no-untyped-def]
    def make(user) -> Client:  # type: ignore[no-untyped-def]
        c = Client()
        c.force_login(user)
        return c

    return make


def test_arbiter_enters_a_round_and_the_standings_change(make_tournament, arbiter, client_for) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    c = client_for(arbiter)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = c.get(url)
    assert page.status_code == 200 and b"games-0-result" in page.content
    response = c.post(url, round_post_data(rnd, {1: "2-0", 2: "0F-2F"}))
    assert response.status_code == 302, response.content.decode()[:2000]
    assert dict(rnd.games.values_list("board", "result")) == {1: "2-0", 2: "0F-2F"}
    standings = c.get(reverse("admin:tournaments_tournament_standings", args=[t.pk]))
    assert standings.status_code == 200
    winners = [g.white for g in rnd.games.filter(board=1)] + [g.black for g in rnd.games.filter(board=2)]
    text = standings.content.decode()
    for entry in winners:
        assert entry.player.surname in text
    rows = text.split("<tbody>")[1]
    assert rows.index(winners[0].player.surname) < rows.index(rnd.games.get(board=1).black.player.surname)


def test_stale_result_from_a_second_arbiter_is_refused_in_the_admin(make_tournament, arbiter, client_for) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    deputy = get_user_model().objects.create_user("deputy", password="x-deputy-123", is_staff=True)
    t.deputy_arbiters.add(deputy)
    stale = round_post_data(rnd, {1: "0-2"})
    c1, c2 = client_for(arbiter), client_for(deputy)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    assert c1.post(url, round_post_data(rnd, {1: "2-0"})).status_code == 302
    response = c2.post(url, stale, follow=True)
    assert "changed by someone else" in response.content.decode()
    assert rnd.games.get(board=1).result == "2-0"


def test_result_in_a_completed_round_without_a_reason_gets_a_message_and_nothing_is_saved(make_tournament, arbiter,
                                                                                          client_for) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    c = client_for(arbiter)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    response = c.post(url, round_post_data(rnd, {1: "2-0"}), follow=True)
    assert "Round 1 is completed: give the reason for the correction" in response.content.decode()
    assert rnd.games.get(board=1).result == "1-1"
    c.post(url, {**round_post_data(rnd, {1: "2-0"}), "correction_reason": "wrong slip"})
    assert rnd.games.get(board=1).result == "2-0"


def test_actions_pair_publish_complete(make_tournament, arbiter, client_for) -> None:
    t = make_tournament(4)
    c = client_for(arbiter)
    changelist = reverse("admin:tournaments_tournament_changelist")
    c.post(changelist, {"action": "pair_next_round", "_selected_action": [t.pk]})
    rnd = t.rounds.get()
    assert rnd.status == RoundStatus.DRAFT
    rounds_url = reverse("admin:tournaments_round_changelist")
    c.post(rounds_url, {"action": "publish", "_selected_action": [rnd.pk]})
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PUBLISHED
    response = c.post(rounds_url, {"action": "complete", "_selected_action": [rnd.pk]}, follow=True)
    assert "cannot be completed: no result on boards 1, 2" in response.content.decode()
    response = c.post(changelist, {"action": "pair_next_round", "_selected_action": [t.pk]}, follow=True)
    assert "Round 1 is not completed" in response.content.decode()
    assert t.rounds.count() == 1


def test_withdraw_action_asks_for_the_round(make_tournament, arbiter, client_for) -> None:
    t = make_tournament(4)
    play_round(t)
    entry = t.entries.get(pairing_number=2)
    c = client_for(arbiter)
    url = reverse("admin:tournaments_entry_changelist")
    page = c.post(url, {"action": "withdraw", "_selected_action": [entry.pk]})
    assert b"Withdrawn after round" in page.content
    c.post(url, {"action": "withdraw", "_selected_action": [entry.pk], "apply": "1", "after_round": "1"})
    entry.refresh_from_db()
    assert entry.is_withdrawn and entry.withdrawn_after_round == 1


def test_csv_import_page_reports_bad_lines(arbiter, client_for) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    c = client_for(arbiter)
    url = reverse("admin:tournaments_player_import")
    upload = SimpleUploadedFile("p.csv", b"surname,rating\nA,2000\nB,abc\n", content_type="text/csv")
    response = c.post(url, {"file": upload})
    text = response.content.decode()
    assert "Nothing imported from p.csv: 1 bad line, listed below." in text
    assert "rating “abc” is not a whole number" in text


def test_another_tournaments_arbiter_sees_nothing(make_tournament, client_for) -> None:
    t = make_tournament(4)
    other = get_user_model().objects.create_user("other", password="x-other-123", is_staff=True)
    c = client_for(other)
    assert c.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).status_code in (302, 404)
    listing = c.get(reverse("admin:tournaments_tournament_changelist"))
    assert t.name not in listing.content.decode()
    c.post(reverse("admin:tournaments_tournament_changelist"),
           {"action": "pair_next_round", "_selected_action": [t.pk]})
    assert not Tournament.objects.get(pk=t.pk).rounds.exists()


def test_round_page_costs_a_constant_number_of_queries(make_tournament, arbiter, client_for,
                                                       django_assert_max_num_queries) -> None:
    small = make_tournament(4, slug="small")
    big = make_tournament(16, slug="big")
    c = client_for(arbiter)
    counts = []
    for t in (small, big):
        rnd = services.round_pair(tournament=t)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        url = reverse("admin:tournaments_round_change", args=[rnd.pk])
        c.get(url)  # the first view of an object warms per-object caches
        with CaptureQueriesContext(connection) as ctx:
            assert c.get(url).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts


def test_round_page_links_the_score_sheets_for_printing(make_tournament, arbiter, client_for) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    c = client_for(arbiter)
    page = c.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    url = reverse("tournaments:scoresheets_pdf", args=[t.slug, 1])
    assert url in page
    pdf = c.get(url)
    assert pdf.status_code == 200 and pdf["Content-Type"] == "application/pdf"
