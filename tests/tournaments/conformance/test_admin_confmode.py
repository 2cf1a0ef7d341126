"""The conformance mode in the admin: the confirmation keeps what was typed, the re-check
is said, the events are listed, the mark is on every page (public pages right after the event, cache or
not), leaving on purpose, corrections on the round page, the set-up notice, the TRF export."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.admin.test_round_entry import form_in, messages_in
from tests.tournaments.play import play_swiss_round
from tests.tournaments.test_permissions import scrape_form
from tests.tournaments.warning_screen import assert_one_screen
from tournaments.conformance.policy import Code, Level
from tournaments.models import ConformanceEvent, Entry, ForbiddenPair, Game, System, Tournament
from tournaments.standings import default_preset

pytestmark = pytest.mark.django_db
LEFT = "This tournament left the conformance mode during round 2."


def text_of(response: Any) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))



@pytest.fixture
def swiss8(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    # With its system's tie-breaks, as the tournament form gives a new tournament (an empty list would be
    # offered the preset, which is then a change of tie-breaks under way, asked too).
    t = make_tournament(8, system=System.SWISS, slug="a8", rounds_total=5,
                        tiebreaks=list(default_preset(System.SWISS, "rating").tiebreaks))
    play_swiss_round(t)
    play_swiss_round(t)
    return Tournament.objects.get(pk=t.pk)


def change(t: Tournament) -> str:
    return reverse("admin:tournaments_tournament_change", args=[t.pk])


def test_rounds_changed_under_way_asks_keeps_the_values_then_rechecks_and_records(swiss8, chief, arbiter,
                                                                                  page_cache) -> None:  # type: ignore[no-untyped-def]
    public = reverse("tournaments:standings", args=[swiss8.slug])
    assert LEFT not in chief.get(public).content.decode()  # cached now, at the old cache version
    url = change(swiss8)
    response = chief.post(url, scrape_form(chief, url, rounds_total="7", venue="Typed venue"))
    html = response.content.decode()
    assert response.status_code == 200
    assert 'name="confirmed" value="rounds-changed"' in html and "Level 4" in text_of(response)
    assert_one_screen(response, Level.LEAVE)
    assert "leaves the conformance mode" in text_of(response)
    assert "The number of rounds changed from 5 to 7." in text_of(response)
    kept = form_in(html)
    assert kept["rounds_total"] == "7" and kept["venue"] == "Typed venue"  # what was typed is kept
    swiss8.refresh_from_db()
    assert swiss8.rounds_total == 5 and swiss8.venue == "" and not ConformanceEvent.objects.exists()

    response = chief.post(url, {**form_in(html), "confirmed": "rounds-changed"}, follow=True)
    swiss8.refresh_from_db()
    assert swiss8.rounds_total == 7 and swiss8.venue == "Typed venue" and swiss8.conformance_left_round == 2
    texts = messages_in(response)
    assert any("Recorded: The number of rounds changed from 5 to 7." in m for m in texts), texts
    assert any("Re-check with the new settings" in m for m in texts), texts
    event = ConformanceEvent.objects.get()
    assert (event.code, event.values["old"], event.values["new"], event.created_by) == ("rounds-changed", 5, 7,
                                                                                        arbiter)
    # the mark and the event on the tournament's admin pages, its history, and the public pages at once
    page = text_of(chief.get(url))
    assert LEFT in page and "The number of rounds changed from 5 to 7." in page
    history = text_of(chief.get(reverse("admin:tournaments_tournament_history", args=[swiss8.pk])))
    assert LEFT in history and "The number of rounds changed from 5 to 7." in history
    assert LEFT in text_of(chief.get(reverse("admin:tournaments_tournament_control", args=[swiss8.pk])))
    assert LEFT in Client().get(public).content.decode()
    assert LEFT in Client().get(reverse("tournaments:tournament", args=[swiss8.slug])).content.decode()
    # the TRF export action carries the ### lines after the header
    trf = chief.post(reverse("admin:tournaments_tournament_changelist"), {
        "action": "export_trf", "_selected_action": [str(swiss8.pk)], "index": "0"}).content.decode()
    lines = trf.splitlines()
    first_player = next(i for i, line in enumerate(lines) if line.startswith("001"))
    comments = [i for i, line in enumerate(lines) if line.startswith("###")]
    assert comments and max(comments) < first_player
    assert "### conformance mode left @ Round 2" in lines
    assert any(line.startswith("### rounds-changed @ Round 2: ") and "new=7 old=5" in line for line in lines)


def test_the_system_change_is_refused_and_nothing_written(swiss8, chief) -> None:  # type: ignore[no-untyped-def]
    url = change(swiss8)
    response = chief.post(url, scrape_form(chief, url, system="round_robin", confirmed="system-changed"))
    assert response.status_code == 200 and "The system cannot change once round 1 is paired" in text_of(response)
    swiss8.refresh_from_db()
    assert swiss8.system == System.SWISS and not ConformanceEvent.objects.exists()


def test_the_bye_is_a_game_score_in_the_form(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="b6", rounds_total=3)
    url = change(t)
    response = chief.post(url, scrape_form(chief, url, bye_points="3"))
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    t.refresh_from_db()
    assert t.bye_points == 2


def test_a_forbidden_pair_after_round_1_asks_level_4(swiss8, chief) -> None:  # type: ignore[no-untyped-def]
    url = change(swiss8)
    a, b = Entry.objects.filter(tournament=swiss8).order_by("pairing_number")[:2]
    extra = {"forbidden_pairs-TOTAL_FORMS": "1", "forbidden_pairs-0-first": str(a.pk),
             "forbidden_pairs-0-second": str(b.pk), "forbidden_pairs-0-reason": "brothers",
             "forbidden_pairs-0-tournament": str(swiss8.pk)}
    response = chief.post(url, scrape_form(chief, url, **extra))
    html = response.content.decode()
    assert response.status_code == 200 and 'value="forbidden-pair-late"' in html and "brothers" in html
    assert not ForbiddenPair.objects.exists()
    response = chief.post(url, {**form_in(html), "confirmed": "forbidden-pair-late"}, follow=True)
    assert ForbiddenPair.objects.count() == 1
    assert ConformanceEvent.objects.get().code == Code.FORBIDDEN_PAIR_LATE


def test_leaving_the_mode_from_the_admin(swiss8, chief) -> None:  # type: ignore[no-untyped-def]
    url = reverse("admin:tournaments_tournament_leave_conformance", args=[swiss8.pk])
    assert url in chief.get(change(swiss8)).content.decode()
    page = chief.get(url)
    assert 'name="confirmed" value="left-mode"' in page.content.decode() and "Level 4" in text_of(page)
    assert_one_screen(page, Level.LEAVE)
    chief.post(url, {})
    swiss8.refresh_from_db()
    assert swiss8.in_conformance and not ConformanceEvent.objects.exists()
    chief.post(url, {"confirmed": "left-mode"})
    swiss8.refresh_from_db()
    assert swiss8.conformance_left_round == 2 and ConformanceEvent.objects.get().code == Code.LEFT_MODE
    # the action leads to the same page
    response = chief.post(reverse("admin:tournaments_tournament_changelist"), {
        "action": "leave_conformance_mode", "_selected_action": [str(swiss8.pk)], "index": "0"})
    assert response.status_code == 302 and response["Location"] == url


def test_an_old_round_on_the_round_page_leave_or_rating_only(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug="r8", rounds_total=5)
    first = play_swiss_round(t)
    play_swiss_round(t)
    play_swiss_round(t)
    game = first.games.exclude(black=None).order_by("board")[0]
    index = list(first.games.order_by("board")).index(game)
    new = "0-2" if game.result == "2-0" else "2-0"
    url = reverse("admin:tournaments_round_change", args=[first.pk])
    assert 'name="rating_only"' in chief.get(url).content.decode()
    typed = {f"games-{index}-result": new, "_continue": "1", "correction_reason": "appeal upheld"}
    response = chief.post(url, scrape_form(chief, url, **typed))
    assert 'value="old-round-corrected"' in response.content.decode() and "Level 4" in text_of(response)
    # rather for the rating report only: level 3, the result as played stays
    response = chief.post(url, scrape_form(chief, url, **typed, rating_only="1"))
    html = response.content.decode()
    assert 'value="rating-correction"' in html and "Level 3" in text_of(response)
    response = chief.post(url, {**form_in(html), "confirmed": "rating-correction"}, follow=True)
    game.refresh_from_db()
    t.refresh_from_db()
    assert game.rating_result == new and game.result != new and t.in_conformance
    assert f"rating report: {new}" in text_of(chief.get(url))
    assert Game.objects.filter(rating_result="").count() == Game.objects.count() - 1


def test_the_control_room_notices_a_setup_that_cannot_finish(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="n6", rounds_total=6)
    response = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk]))
    assert_one_screen(response, Level.NOTICE)
    page = text_of(response)
    assert "Level 2: notice" in page and "6 rounds cannot all be paired with 6 players without a rematch." in page


def test_no_setting_turns_a_warning_off_or_down(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    """Q218-221: the levels are fixed in code; the tournament form offers nothing that skips or lowers one, and
    the mode's own mark is not a form field (it is never cleared)."""
    from tournaments.admin.tournaments import TournamentForm
    from tournaments.conformance.policy import LEVELS, Level

    t = make_tournament(4, system=System.SWISS, slug="w4", rounds_total=3)
    fields = set(TournamentForm(instance=t).fields)
    assert not {f for f in fields if "conform" in f or "warn" in f or "level" in f}
    assert LEVELS[Code.ROUNDS_CHANGED] is Level.LEAVE and LEVELS[Code.SYSTEM_CHANGED] is Level.REFUSE
    html = chief.get(change(t)).content.decode()
    assert "conformance_left_round" not in html


def test_the_game_page_shows_the_rating_result_beside_the_result(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="g4", rounds_total=3)
    rnd = play_swiss_round(t)
    game = rnd.games.exclude(black=None).first()
    Game.objects.filter(pk=game.pk).update(rating_result="0F-2F")
    page = text_of(chief.get(reverse("admin:tournaments_game_change", args=[game.pk])))
    assert "Result for the rating report" in page and "0F-2F" in page
