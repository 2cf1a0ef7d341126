"""Rating tie-breaks in long events and for unrated players, end to end (VCL4THP Q208-Q216)."""

from __future__ import annotations

import datetime
import re
from fractions import Fraction

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_permissions import change_url, scrape_form
from tests.tournaments.warning_screen import assert_one_screen
from tournaments import selectors
from tournaments.admin import warnings
from tournaments.conformance.policy import Level
from tournaments.models import Entry, EntryRating, Game, Player, Round, RoundStatus, System, Tournament
from tournaments.players import period_ratings
from tournaments.results import Result
from tournaments.rounds import pairing_bridge

pytestmark = pytest.mark.django_db
DAY = datetime.date(2026, 1, 10)


def text_of(response) -> str:  # type: ignore[no-untyped-def]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))



@pytest.fixture
def event(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    """Four players (2390, 2380, 2370 and one unrated), a Swiss of 3 rounds on the FMJD rating preset;
    two rounds played: r1 1-2 (1 wins), 3-4 draw; r2 1-4 (1 wins), 2-3 draw."""
    t = make_tournament(3, system=System.SWISS, slug="long", rounds_total=3,
                        tiebreaks=["mutual_result", "average_rating"])
    unrated = Player.objects.create(surname="Nouveau", given_name="Test", federation="FRA", fmjd_id=99999)
    Entry.objects.create(tournament=t, player=unrated, pairing_number=4)
    e = {x.pairing_number: x for x in t.entries.all()}
    for number, boards in ((1, [(1, 2, Result.WHITE_WINS), (3, 4, Result.DRAW)]),
                           (2, [(1, 4, Result.WHITE_WINS), (2, 3, Result.DRAW)])):
        rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.COMPLETED,
                                   date=DAY + datetime.timedelta(days=20 * (number - 1)))
        for board, (w, b, result) in enumerate(boards, 1):
            Game.objects.create(round=rnd, board=board, white=e[w], black=e[b], result=result.value)
    return t


def aro(t: Tournament) -> dict[int, object]:
    return {r.player.pairing_number: r.tiebreaks["average_rating"] for r in selectors.standings(t)}


def save(client: Client, t: Tournament, **fields: object):  # type: ignore[no-untyped-def]
    data = scrape_form(client, change_url(t), **fields)
    for key in [k for k in data if k.endswith("_per_round") or k == "long_event"]:
        if key not in fields:
            data.pop(key)  # an unticked box is not posted
    # After round 1 these settings are a level-4 change (tests/tournaments/conformance/test_under_way.py): the
    # arbiter here has ticked its box.
    data["confirmed"] = "rating-tiebreaks-changed"
    return client.post(change_url(t), data, follow=True)


@pytest.mark.parametrize(("fields", "player1", "note"), [
    ({}, Fraction(2380), "Unrated opponents are left out."),
    ({"unrated_method": "fixed", "unrated_rating": 1500}, Fraction(2380 + 1500, 2), "counts at 1500"),
    ({"unrated_method": "lowest"}, Fraction(2380 + 2370, 2), "lowest rating in the field (2370)"),
    ({"unrated_method": "average"}, Fraction(2380 + 2380, 2), "rated players (2380)"),
])
def test_unrated_players_counted_as_the_arbiter_chose(event: Tournament, chief: Client, fields: dict[str, object],
                                                      player1: Fraction, note: str) -> None:
    """Q208/Q209: four methods; the standings, the admin's standings and the public help page follow."""
    response = save(chief, event, **fields)
    assert response.status_code == 200 and "errornote" not in response.content.decode()
    event.refresh_from_db()
    assert aro(event)[1] == player1
    page = text_of(chief.get(reverse("admin:tournaments_tournament_standings", args=[event.pk])))
    assert note in page and "first rating counts" in page
    public = text_of(Client().get(reverse("tournaments:tournament_tiebreaks", args=[event.slug])))
    assert note in public


def test_a_fixed_rating_needs_the_rating_and_the_form_keeps_what_was_typed(event: Tournament,
                                                                           chief: Client) -> None:
    response = save(chief, event, unrated_method="fixed", unrated_rating="", venue="Salle des fêtes")
    html = response.content.decode()
    assert "Type the rating unrated players count at" in html
    assert 'value="Salle des fêtes"' in html and '<option value="fixed" selected>' in html
    event.refresh_from_db()
    assert event.unrated_method == "drop" and event.venue == ""


def test_long_event_suggested_by_the_dates_and_rating_tiebreaks_advised_against(event: Tournament,
                                                                                chief: Client) -> None:
    """Q210/Q211: 49 days from the start suggest the flag; ticked with a rating tie-break, C.07 Art. 10's notice."""
    html = chief.get(change_url(event)).content.decode()
    assert 'id="long-event-suggestion"' not in html  # rounds 20 days apart
    Round.objects.create(tournament=event, number=3, date=DAY + datetime.timedelta(days=40))
    html = chief.get(change_url(event)).content.decode()
    assert 'id="long-event-suggestion"' in html and "span 49 days" in html  # from the start date, 1 January
    assert 'id="long-event-rating-tiebreaks"' not in html
    response = save(chief, event, long_event="on")
    page = text_of(response)
    assert "FIDE C.07 Article 10 advises against rating-based tie-breaks" in page
    assert "FMJD rules have no text on it" in page
    # the message after the save is the screen's row in one line: its level and the one wording of a notice
    assert "Level 2: notice" in page and warnings.consequence(Level.NOTICE) in page
    html = assert_one_screen(chief.get(change_url(event)), Level.NOTICE)
    assert 'id="long-event-rating-tiebreaks"' in html and 'id="long-event-suggestion"' not in html


def test_no_notice_without_a_rating_tiebreak(event: Tournament) -> None:
    assert period_ratings.long_event_notices(True, ["mutual_result", "solkoff"]) == []
    assert period_ratings.long_event_notices(False, ["average_rating"]) == []
    assert [str(w.code) for w in period_ratings.long_event_notices(True, ["average_rating"])] == [
        "long-event-rating-tiebreaks"]


def test_later_ratings_on_the_entry_page_and_the_rating_round(event: Tournament, chief: Client) -> None:
    """Q212/Q213/Q215/Q216/Q214: later ratings from a round on; first rating by default; a chosen round;
    per round. Player 2 (2380) is 2500 from round 2; player 4 (unrated) 2000 from round 2."""
    e = {x.pairing_number: x for x in event.entries.all()}
    assert "later_ratings-0-from_round" not in chief.get(change_url(e[2])).content.decode()  # not a long event
    save(chief, event, long_event="on")
    for number, rating in ((2, 2500), (4, 2000)):
        url = change_url(e[number])
        page = chief.get(url).content.decode()
        assert "later_ratings-0-from_round" in page
        data = scrape_form(chief, url, **{"later_ratings-0-from_round": 2, "later_ratings-0-rating": rating})
        assert chief.post(url, data).status_code == 302
    assert EntryRating.objects.filter(entry__tournament=event).count() == 2
    # player 1 met 2 in round 1 and 4 in round 2
    assert aro(event)[1] == Fraction(2380)  # Q215: first ratings (4 unrated, left out)
    response = save(chief, event, tiebreak_rating_round=2)  # the flag unticked: no later ratings
    assert "tick “lasts more than 30 days” first" in response.content.decode()
    save(chief, event, long_event="on", tiebreak_rating_round=2)
    event.refresh_from_db()
    assert event.tiebreak_rating_round == 2
    assert aro(event)[1] == Fraction(2500 + 2000, 2)  # Q216: round 2's ratings
    assert "ratings are those players held in round 2" in text_of(
        chief.get(reverse("admin:tournaments_tournament_standings", args=[event.pk])))
    response = save(chief, event, long_event="on", tiebreak_rating_round=2, tiebreak_rating_per_round="on")
    assert "not both" in response.content.decode()
    save(chief, event, long_event="on", tiebreak_rating_round="", tiebreak_rating_per_round="on")
    event.refresh_from_db()
    assert aro(event)[1] == Fraction(2380 + 2000, 2)  # Q214: 2 at round 1's 2380, 4 at round 2's 2000
    assert "held in the round the game was played" in text_of(
        Client().get(reverse("tournaments:tournament_tiebreaks", args=[event.slug])))


def test_trf_lines_and_public_pages_follow_a_later_rating(event: Tournament) -> None:
    assert "###" not in pairing_bridge.export_trf(event)  # the default changes nothing in the file
    event.long_event, event.tiebreak_rating_per_round, event.unrated_method = True, True, "lowest"
    event.save()
    version = Tournament.objects.get(pk=event.pk).cache_version
    EntryRating.objects.create(entry=event.entries.get(pairing_number=2), from_round=3, rating=2450)
    assert Tournament.objects.get(pk=event.pk).cache_version > version  # cached pages are made again
    trf = pairing_bridge.export_trf(event)
    assert "### rating tie-breaks: unrated=lowest ratings=per-round long-event=yes\n" in trf
    assert "### later rating: player=2 from-round=3 rating=2450\n" in trf


def test_settings_and_later_ratings_travel_in_the_json_export(event: Tournament) -> None:
    from tournaments.exchange.transfer import dumps, export_tournament, import_tournament, loads

    event.long_event, event.tiebreak_rating_round, event.unrated_method = True, 2, "average"
    event.save()
    EntryRating.objects.create(entry=event.entries.get(pairing_number=4), from_round=2, rating=2000)
    before = aro(event)
    doc = loads(dumps(export_tournament(event)))
    # the fixture's rounds are made by hand, not by the engine: the import asks, as for any such round
    imported = import_tournament(doc, replace=True, confirmed=["import-not-engine-pairing"]).tournament
    assert (imported.long_event, imported.tiebreak_rating_round, imported.unrated_method) == (True, 2, "average")
    assert list(EntryRating.objects.filter(entry__tournament=imported).values_list(
        "entry__pairing_number", "from_round", "rating")) == [(4, 2, 2000)]
    assert aro(imported) == before
