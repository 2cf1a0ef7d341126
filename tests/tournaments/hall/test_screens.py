"""Hall screens: what each panel holds (selectors), the public page (token, no chrome, 304), the clock."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.errors import DomainError, StaleEditError
from tournaments.hall import screen_services, screens
from tournaments.models import HallScreen, Player, System, Tournament
from tournaments.players import roster
from tournaments.rounds import services


def _screen(t: Tournament, **kwargs: object) -> HallScreen:
    kwargs.setdefault("name", "A")
    kwargs.setdefault("shows", ["pairings", "find", "clock"])
    return screen_services.screen_save(screen=HallScreen(tournament=t, **kwargs), expected_version=None)


@pytest.fixture
def open40(make_tournament):  # type: ignore[no-untyped-def]
    t = make_tournament(40, system=System.SWISS, slug="open", rounds_total=7)
    rnd = services.round_pair(tournament=t)
    rnd = services.round_publish(round=rnd)
    return t, rnd


def test_pairings_are_paged_within_the_screens_board_range(open40) -> None:  # type: ignore[no-untyped-def]
    t, rnd = open40
    a = _screen(t, name="A", boards_from=1, boards_to=10, lines_per_page=4, shows=["pairings"])
    b = _screen(t, name="B", boards_from=11, boards_to=None, lines_per_page=4, shows=["pairings"])
    panels_a = screens.screen_view(a).panels
    assert [[b.number for b in p.boards] for p in panels_a] == [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10]]
    assert [(p.page, p.pages) for p in panels_a] == [(1, 3), (2, 3), (3, 3)]
    panels_b = screens.screen_view(b).panels
    assert [[b.number for b in p.boards] for p in panels_b] == [[11, 12, 13, 14], [15, 16, 17, 18], [19, 20]]


def test_the_rotation_follows_the_screens_order_and_skips_what_is_empty(open40) -> None:  # type: ignore[no-untyped-def]
    t, rnd = open40
    s = _screen(t, shows=["message", "clock", "pairings", "standings", "find"], message="Lunch at 13:00",
                lines_per_page=10, boards_to=10)
    kinds = [(p.kind, p.page) for p in screens.screen_view(s).panels]
    # No clock before it is started, no standings before a result; find: 40 players, 20 a panel.
    assert kinds == [("message", 1), ("pairings", 1), ("find", 1), ("find", 2)]
    screen_services.clocks_start(round=rnd, expected_version=rnd.version, user=None)
    kinds = [p.kind for p in screens.screen_view(s).panels]
    assert kinds[:3] == ["message", "clock", "pairings"]


def test_find_your_board_is_sorted_by_folded_name_cyrillic_and_accents_included(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name="Folded", slug="folded", system=System.SWISS, rounds_total=5,
                                  start_date=datetime.date(2026, 1, 1), public=True)
    for surname, given in (("Zuiderveld", "Jan"), ("Шварцман", "Александр"), ("Émile", "Roux"),
                           ("Eerens", "Piet"), ("Sørensen", "Ivar"), ("Baba", "Sy")):
        roster.entry_add(tournament=t, player=Player.objects.create(surname=surname, given_name=given))
    rnd = services.round_pair(tournament=t)
    rnd = services.round_publish(round=rnd)
    s = _screen(t, shows=["find"], lines_per_page=4)
    panel = screens.screen_view(s).panels[0]
    names = [line.player.name.split(",")[0] for column in panel.find for line in column]
    # Émile with the Es (emile after eerens), Шварцман as "shvartsman", before Sørensen ("sorensen").
    assert names == ["Baba", "Eerens", "Émile", "Шварцман", "Sørensen", "Zuiderveld"]
    assert [len(c) for c in panel.find] == [4, 2]
    line = panel.find[0][0]
    assert line.board is not None and line.colour in ("white", "black") and line.opponent is not None


def test_a_screens_settings_are_refused_on_a_stale_version(open40) -> None:  # type: ignore[no-untyped-def]
    t, _rnd = open40
    s = _screen(t)
    first = HallScreen.objects.get(pk=s.pk)
    second = HallScreen.objects.get(pk=s.pk)
    first.message = "one"
    screen_services.screen_save(screen=first, expected_version=1)
    second.message = "two"
    with pytest.raises(StaleEditError):
        screen_services.screen_save(screen=second, expected_version=1)
    assert HallScreen.objects.get(pk=s.pk).message == "one"
    with pytest.raises(DomainError, match="not something a screen shows"):
        screen_services.clean_shows("pairings, pearings")
    assert screen_services.clean_shows("find; Pairings") == ["find", "pairings"]


def test_start_the_clocks_once_then_refused_and_stale_version_refused(open40, arbiter) -> None:  # type: ignore[no-untyped-def]
    t, rnd = open40
    old = rnd.version
    started = screen_services.clocks_start(round=rnd, expected_version=old, user=arbiter)
    assert started.clock_started_at is not None and started.clock_started_by == arbiter
    assert started.history.first().history_change_reason == "clocks started"
    with pytest.raises(StaleEditError):  # a second page read before the first press
        screen_services.clocks_start(round=rnd, expected_version=old, user=arbiter)
    with pytest.raises(DomainError, match="already started"):
        screen_services.clocks_start(round=rnd, expected_version=started.version, user=arbiter)
    at = started.clock_started_at
    again = screen_services.clocks_start(round=rnd, expected_version=started.version, user=arbiter, restart=True)
    assert again.clock_started_at >= at


def test_the_clock_cannot_start_on_a_draft(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    with pytest.raises(DomainError, match="not published"):
        screen_services.clocks_start(round=rnd, expected_version=rnd.version, user=None)


def test_type_size_rule() -> None:
    # 5 m x tan(5') x 1.4 = 10.2 mm of x-height, on a 685-mm-high screen with a 0.547 em x-height.
    assert screens.smallest_text_vh() == 2.72
    assert screens.row_text_vh(12) >= screens.smallest_text_vh()
    assert screens.readable_from_m(12) >= 5
    assert screens.readable_from_m(30) < 5


# --- the page --------------------------------------------------------------------------------------


def _url(s: HallScreen) -> str:
    return reverse("tournaments:hall_screen", args=[s.tournament.slug, s.token])


def test_the_page_is_public_by_its_token_without_the_sites_chrome(open40) -> None:  # type: ignore[no-untyped-def]
    t, rnd = open40
    s = _screen(t, boards_from=1, boards_to=12, lines_per_page=12)
    response = Client().get(_url(s))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'class="hall"' in html and "Round 1 – pairings" in html
    assert 'class="site"' not in html and "set_language" not in html  # no header, footer or language switch
    assert "<svg" in html and "/t/open/round/1/" in html  # the QR code and its address
    game = rnd.games.get(board=12)
    assert f"{game.white.player.full_name}" in html
    assert rnd.games.filter(board=13).exists() and rnd.games.get(board=13).white.player.full_name not in \
        html.split("find your board")[0]


def test_an_unknown_token_or_another_tournaments_slug_is_a_404(open40, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t, _rnd = open40
    s = _screen(t)
    other = make_tournament(4, slug="other")
    client = Client()
    assert client.get(reverse("tournaments:hall_screen", args=[t.slug, "nosuchscreen"])).status_code == 404
    assert client.get(reverse("tournaments:hall_screen", args=[other.slug, s.token])).status_code == 404


def test_the_page_answers_304_until_something_changes_and_is_never_stored(open40, page_cache,  # type: ignore[no-untyped-def]
                                                                          django_assert_max_num_queries) -> None:  # type: ignore[no-untyped-def]
    t, rnd = open40
    s = _screen(t)
    client = Client()
    first = client.get(_url(s))
    tag = first.headers["ETag"]
    assert "X-Damier-Cache" not in first.headers  # holds its render's time: never kept
    assert first.headers["Cache-Control"] == "no-store"  # by a browser either: reopened, the time is now's
    with django_assert_max_num_queries(3):  # the version, the screen: no render for a 304
        assert client.get(_url(s), HTTP_IF_NONE_MATCH=tag).status_code == 304
    s.message = "Round 2 at 15:00"
    screen_services.screen_save(screen=s, expected_version=s.version)  # a screen's settings move the tag
    changed = client.get(_url(s), HTTP_IF_NONE_MATCH=tag)
    assert changed.status_code == 200 and changed.headers["ETag"] != tag
    tag = changed.headers["ETag"]
    screen_services.clocks_start(round=rnd, expected_version=rnd.version, user=None)
    started = client.get(_url(s), HTTP_IF_NONE_MATCH=tag)
    assert started.status_code == 200 and "elapsed" in started.content.decode()


def test_the_clock_line_and_the_french_page(open40) -> None:  # type: ignore[no-untyped-def]
    t, rnd = open40
    s = _screen(t, shows=["clock", "find"])
    services_round = screen_services.clocks_start(round=rnd, expected_version=rnd.version, user=None)
    type(services_round).objects.filter(pk=rnd.pk).update(
        clock_started_at=timezone.now() - datetime.timedelta(hours=1, minutes=23, seconds=5))
    html = Client().get(_url(s) + "?lang=fr").content.decode()
    assert '<html lang="fr">' in html
    assert "1:23</span>" in html and "1:23:0" in html
    assert "Joueur" in html and "Couleur" in html  # the find panel's heads, in French


def test_a_private_tournaments_screen_is_for_its_arbiters_only(open40, chief) -> None:  # type: ignore[no-untyped-def]
    t, _rnd = open40
    s = _screen(t)
    Tournament.objects.filter(pk=t.pk).update(public=False)
    assert Client().get(_url(s)).status_code == 404
    html = chief.get(_url(s)).content.decode()
    assert 'class="hall"' in html and "<svg" not in html  # no code to live pages the public cannot open


def test_standings_after_a_result_and_the_check_in_code_while_open(open40) -> None:  # type: ignore[no-untyped-def]
    t, rnd = open40
    s = _screen(t, shows=["standings"], lines_per_page=5)
    assert [p.kind for p in screens.screen_view(s).panels] == ["waiting"]
    game = rnd.games.exclude(black=None).order_by("board").first()
    services.game_record_result(game=game, result="2-0")
    panel = screens.screen_view(s).panels[0]
    assert panel.kind == "standings" and len(panel.standings) == 5
    assert panel.standings[0].player.entry_id == game.white_id and panel.standings[0].row.points == 2
    assert 'class="hall-code"' not in Client().get(_url(s)).content.decode()
    Tournament.objects.filter(pk=t.pk).update(checkin_round=2, checkin_code="K7Q2")
    html = Client().get(_url(s)).content.decode()
    assert "K7Q2" in html
