"""The round page as an arbiter uses it on the day, through the
test client: every POST is the form a browser would send from the page the arbiter was shown."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round, play_swiss_round
from tests.tournaments.test_permissions import _FormScraper, scrape_form
from tests.tournaments.warning_screen import assert_one_screen
from tournaments.conformance.policy import Level
from tournaments.models import ForbiddenPair, Game, Round, Tournament
from tournaments.rounds import services


class _Page(HTMLParser):
    """Each select's options and chosen value, and the page's Tab stops in order."""

    FOCUSABLE = {"select", "textarea", "button", "summary"}

    def __init__(self) -> None:
        super().__init__()
        self.options: dict[str, list[str]] = {}
        self.selected: dict[str, str] = {}
        self.attrs: dict[str, dict[str, str]] = {}
        self.tab_stops: list[str] = []
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if a.get("tabindex") == "-1" or "disabled" in a:
            pass
        elif (tag in self.FOCUSABLE or (tag == "a" and "href" in a) or (tag == "input" and a.get("type") != "hidden")
              or a.get("tabindex") == "0"):
            self.tab_stops.append(a.get("name") or a.get("id") or f"<{tag} {a.get('href', '')}>")
        if tag == "select":
            self._select = a.get("name", "")
            self.options[self._select] = []
            self.selected.setdefault(self._select, "")
            self.attrs[self._select] = a
        elif tag == "option" and self._select is not None:
            self.options[self._select].append(a.get("value", ""))
            if "selected" in a:
                self.selected[self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None


def parse(html: str) -> _Page:
    page = _Page()
    page.feed(html)
    return page


def form_in(html: str, **overrides: object) -> dict[str, Any]:
    """The form the browser would post from this very page (e.g. the one that came back with an error)."""
    scraper = _FormScraper()
    scraper.feed(html)
    data: dict[str, Any] = {k: v if len(v) != 1 else v[0] for k, v in scraper.data.items()}
    data.pop("csrfmiddlewaretoken", None)
    data.update({k: str(v) for k, v in overrides.items()})
    return data


def messages_in(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def results_of(rnd: Round) -> dict[int, str]:
    return dict(rnd.games.values_list("board", "result"))



def published(t: Tournament) -> tuple[Round, str]:
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    return rnd, reverse("admin:tournaments_round_change", args=[rnd.pk])


# --- The page ------------------------------------------------------------------------------------


def test_results_come_first_named_by_board_and_players_with_only_the_results_of_that_board(make_tournament,
                                                                                          chief) -> None:
    rnd, url = published(make_tournament(5))  # five players: two games and a bye
    html = chief.get(url).content.decode()
    page = parse(html)
    assert html.index('id="dm-results-heading"') < html.index("How the round was paired") if \
        "How the round was paired" in html else True
    assert html.index('id="dm-results-heading"') < html.index("Change history")
    assert "<details" in html.split('id="dm-results-heading"')[1]  # the history is folded below
    games = list(rnd.games.select_related("white__player", "black__player").order_by("board"))
    for i, g in enumerate(games):
        name = f"games-{i}-result"
        black = g.black.player if g.black_id else "bye"
        assert page.attrs[name]["aria-label"] == f"Board {g.board}: {g.white.player} – {black}, result"
        if g.black_id:
            assert page.options[name] == ["", "2-0", "1-1", "0-2", "2F-0F", "0F-2F", "0F-0F", "1-0", "0-1", "0-0",
                                          "2-0U", "1-1U", "0-2U", "postponed", "not played"]
        else:
            assert page.options[name] == ["", "bye", "excused", "excused-1", "excused-2", "not played"]
            assert page.selected[name] == "bye"
    # One Tab per board: nothing focusable between two result menus.
    stops = page.tab_stops
    first, last = stops.index("games-0-result"), stops.index(f"games-{len(games) - 1}-result")
    assert stops[first:last + 1] == [f"games-{i}-result" for i in range(len(games))]
    # The keys are on the page, and the state of the round with what is missing sits at the top.
    assert "One key per board" in html and "<kbd>+</kbd>" in html
    head = html.split('class="dm-round-head"')[1].split('id="dm-results-heading"')[0]
    assert "Published" in head and "2 results missing" in head and 'href="#id_games-0-result"' in head


@pytest.mark.parametrize("state", ["draft", "published", "completed"])
def test_the_round_page_has_one_save_button_which_keeps_the_round_date_too(make_tournament, chief,
                                                                          state: str) -> None:
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    if state != "draft":
        services.round_publish(round=rnd)
    if state == "completed":
        for game in rnd.games.all():
            services.game_record_result(game=game, result="1-1")
        services.round_complete(round=Round.objects.get(pk=rnd.pk))
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    html = chief.get(url).content.decode()
    form = html.split('id="round_form"')[1].split("</form>")[0]
    buttons = re.findall(r'<(?:input|button)[^>]*type="submit"[^>]*>', form)
    assert len(buttons) == 1 and 'id="dm-save"' in buttons[0], buttons
    response = chief.post(url, scrape_form(chief, url, date="2026-11-29", _continue="1"))
    assert response.status_code == 302 and str(Round.objects.get(pk=rnd.pk).date) == "2026-11-29"


def test_the_page_speaks_french(make_tournament, chief) -> None:
    rnd, url = published(make_tournament(4))
    html = chief.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Une touche par damier" in html and "Enregistrer les résultats" in html
    assert "Ou collez une feuille de résultats" in html and "2 résultats manquants" in html
    assert "2-0 (les Blancs gagnent)" in html and ", résultat" in html


def test_a_draft_shows_its_players_to_change_and_no_result_menu(make_tournament, chief) -> None:
    rnd = services.round_pair(tournament=make_tournament(4))
    html = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    page = parse(html)
    assert "games-0-white" in page.options and "games-0-result" not in page.options
    assert page.attrs["games-0-white"]["aria-label"] == "Board 1, White"
    assert page.attrs["games-0-black"]["aria-label"] == "Board 1, Black"
    stops = page.tab_stops
    assert stops[stops.index("games-0-white"):stops.index("games-1-black") + 1] == [
        "games-0-white", "games-0-black", "games-1-white", "games-1-black"]
    assert "Draft" in html.split('class="dm-round-head"')[1]


# --- A wrong value ---------------------------------------------------------------------------------


def test_a_wrong_value_marks_its_row_saves_nothing_and_keeps_every_typed_value(make_tournament, chief) -> None:
    rnd, url = published(make_tournament(8))
    typed = {"games-0-result": "2-0", "games-1-result": "bye", "games-2-result": "0-2", "games-3-result": "1-1"}
    response = chief.post(url, scrape_form(chief, url, **typed, _continue="1"))
    assert response.status_code == 200
    assert set(results_of(rnd).values()) == {""}, "nothing saved"
    html = response.content.decode()
    page = parse(html)
    assert [page.selected[f"games-{i}-result"] for i in (0, 2, 3)] == ["2-0", "0-2", "1-1"]
    assert 'id="dm-board-2" class="dm-row-error' in html
    assert "Board 2: “bye” is not a result for a game between two players." in html
    assert page.attrs["games-1-result"]["aria-invalid"] == "true"
    assert page.attrs["games-1-result"]["aria-describedby"] == "dm-err-2 dm-keys"
    summary = html.split('class="dm-error-summary"')[1].split("</div>")[0]
    assert 'href="#id_games-1-result"' in summary and "Every value you typed is still here" in summary
    # The arbiter corrects the one menu and saves the page as it came back.
    response = chief.post(url, form_in(html, **{"games-1-result": "1-1", "_continue": "1"}))
    assert response.status_code == 302
    assert results_of(rnd) == {1: "2-0", 2: "1-1", 3: "0-2", 4: "1-1"}


def test_a_board_changed_by_another_arbiter_is_shown_once_then_the_typed_value_can_be_saved(make_tournament,
                                                                                           chief) -> None:
    rnd, url = published(make_tournament(4))
    form = scrape_form(chief, url, **{"games-0-result": "2-0", "games-1-result": "1-1", "_continue": "1"})
    services.game_record_result(game=rnd.games.get(board=1), result="0-2")  # the deputy, meanwhile
    response = chief.post(url, form)
    html = response.content.decode()
    assert response.status_code == 200 and results_of(rnd) == {1: "0-2", 2: ""}
    assert "Board 1 was changed by someone else since you opened the page (now 0-2)" in html
    assert parse(html).selected["games-0-result"] == "2-0"  # the arbiter's value is kept
    assert chief.post(url, form_in(html, _continue="1")).status_code == 302
    assert results_of(rnd) == {1: "2-0", 2: "1-1"}


# --- The slip box ----------------------------------------------------------------------------------


@pytest.mark.parametrize("slip", ["1 2-0, 2 1-1, 3 0F-2F, 4 0F-0F", "1 2-0\n2 1-1\n3 0F-2F\n4 0F-0F",
                                  "1 2; 2 1 ; 3 - ; 4 ="])
def test_a_slip_by_board_number_is_saved(make_tournament, chief, slip: str) -> None:
    rnd, url = published(make_tournament(8))
    response = chief.post(url, scrape_form(chief, url, slip=slip, _continue="1"), follow=True)
    assert results_of(rnd) == {1: "2-0", 2: "1-1", 3: "0F-2F", 4: "0F-0F"}
    assert any("was changed successfully" in m for m in messages_in(response))


def test_a_slip_with_bad_items_saves_nothing_fills_the_table_and_keeps_only_the_bad_items(make_tournament,
                                                                                         chief) -> None:
    rnd, url = published(make_tournament(8))
    response = chief.post(url, scrape_form(chief, url, slip="1 2-0, 2 bye, 3 2-O, 9 1-1, 4 0-2", _continue="1"))
    assert response.status_code == 200 and set(results_of(rnd).values()) == {""}
    html = response.content.decode()
    page = parse(html)
    assert page.selected["games-0-result"] == "2-0" and page.selected["games-3-result"] == "0-2"
    assert ">2 bye, 3 2-O, 9 1-1</textarea>" in html
    assert "Board 2: the slip says “bye”, which is not a result for a game between two players." in html
    assert "“3 2-O” is not “board result”" in html and "this round has no board 9" in html
    assert 'id="dm-board-2" class="dm-row-error' in html
    response = chief.post(url, form_in(html, slip="2 1-1, 3 2-0", _continue="1"))
    assert response.status_code == 302
    assert results_of(rnd) == {1: "2-0", 2: "1-1", 3: "2-0", 4: "0-2"}


def test_a_slip_that_contradicts_the_table_is_refused_on_that_board(make_tournament, chief) -> None:
    rnd, url = published(make_tournament(4))
    response = chief.post(url, scrape_form(chief, url, slip="1 2-0, 2 0-2", _continue="1",
                                           **{"games-0-result": "1-1"}))
    html = response.content.decode()
    assert response.status_code == 200 and set(results_of(rnd).values()) == {""}
    assert "Board 1: the slip says 2-0 but the table says 1-1; keep one." in html
    assert parse(html).selected["games-1-result"] == "0-2"


# --- Corrections at any time --------------------------------------------------------------------------


def test_a_completed_round_is_corrected_with_a_reason_and_the_later_pairing_is_named(make_tournament, chief,
                                                                                     arbiter) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    services.round_pair(tournament=t)  # round 2 is paired on round 1's results
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    html = chief.get(url).content.decode()
    assert 'name="correction_reason"' in html and "Completed" in html
    assert "disabled" not in parse(html).attrs["games-0-result"]
    response = chief.post(url, scrape_form(chief, url, **{"games-0-result": "2-0", "_continue": "1"}))
    assert response.status_code == 200 and results_of(rnd)[1] == "1-1"
    assert "Round 1 is completed: give the reason for the correction" in response.content.decode()
    assert parse(response.content.decode()).selected["games-0-result"] == "2-0"
    # The conformance mode: round 2 is paired, so round 1 is the previous round: a level-3 confirmation first, with the
    # typed values kept and nothing saved.
    response = chief.post(url, scrape_form(chief, url, **{"games-0-result": "2-0", "_continue": "1",
                                                          "correction_reason": "slip misread by the arbiter"}))
    html = response.content.decode()
    assert response.status_code == 200 and results_of(rnd)[1] == "1-1"
    assert 'name="confirmed" value="previous-round-corrected"' in html and "Level 3" in html
    assert_one_screen(response, Level.CONFIRM)
    assert parse(html).selected["games-0-result"] == "2-0" and "slip misread by the arbiter" in html
    response = chief.post(url, scrape_form(chief, url, **{"games-0-result": "2-0", "_continue": "1",
                                                          "correction_reason": "slip misread by the arbiter",
                                                          "confirmed": "previous-round-corrected"}),
                          follow=True)
    assert results_of(rnd)[1] == "2-0"
    texts = messages_in(response)
    rr_words = "Round 2 is already paired; a round robin follows the Berger tables"
    assert any(m.startswith(rr_words) for m in texts), texts
    record = Game.history.filter(round_id=rnd.pk, board=1).latest("history_date")  # type: ignore[attr-defined]
    assert (record.result, record.history_change_reason, record.history_user) == (
        "2-0", "slip misread by the arbiter", arbiter)
    # A completed round keeps a result on every board.
    response = chief.post(url, scrape_form(chief, url, **{"games-1-result": "", "_continue": "1",
                                                          "correction_reason": "x"}))
    assert response.status_code == 200 and results_of(rnd)[2] == "1-1"
    assert "Board 2: a completed round keeps a result on every board" in response.content.decode()


def test_a_correction_is_one_save_with_the_reason_and_the_confirmation_offered_from_the_start(
        make_tournament, chief, arbiter) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    services.round_pair(tournament=t)  # round 2 is paired: correcting round 1 asks a level-3 confirmation
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = chief.get(url)
    html = page.content.decode()
    # Before anything is typed: the reason and the box, in the words of a recorded correction, not a breach.
    assert 'name="correction_reason"' in html and 'id="dm-correction"' in html
    assert 'name="confirmed" value="previous-round-corrected"' in html
    assert "Correcting this completed round" in html and "breaks the competition rules" not in html
    assert_one_screen(page, Level.CONFIRM)
    assert html.index('name="correction_reason"') < html.index('value="previous-round-corrected"') < \
        html.index('id="dm-save"')
    # One submit: the new result, the reason and the ticked box.
    response = chief.post(url, scrape_form(chief, url, **{"games-0-result": "2-0", "_continue": "1",
                                                          "correction_reason": "slip misread",
                                                          "confirmed": "previous-round-corrected"}))
    assert response.status_code == 302 and results_of(rnd)[1] == "2-0"
    record = Game.history.filter(round_id=rnd.pk, board=1).latest("history_date")  # type: ignore[attr-defined]
    assert (record.history_change_reason, record.history_user) == ("slip misread", arbiter)
    assert t.conformance_events.filter(code="previous-round-corrected").count() == 1


def test_a_correction_without_reason_nor_box_is_refused_once_naming_both_and_keeping_what_was_typed(
        make_tournament, chief) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    services.round_pair(tournament=t)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    response = chief.post(url, scrape_form(chief, url, **{"games-0-result": "2-0", "_continue": "1"}))
    html = response.content.decode()
    assert response.status_code == 200 and results_of(rnd)[1] == "1-1"
    assert "Round 1 is completed: give the reason for the correction" in html
    assert 'name="confirmed" value="previous-round-corrected"' in html and "Level 3" in html
    assert html.count('value="previous-round-corrected"') == 1  # the refusal's screen alone, not twice
    assert parse(html).selected["games-0-result"] == "2-0"
    # The reason given, the box left empty: still refused, the reason kept.
    response = chief.post(url, {**form_in(html), "correction_reason": "slip misread"})
    html = response.content.decode()
    assert response.status_code == 200 and results_of(rnd)[1] == "1-1"
    assert "slip misread" in html and parse(html).selected["games-0-result"] == "2-0"
    assert "give the reason" not in html
    # Ticked on that page: saved.
    response = chief.post(url, {**form_in(html), "confirmed": "previous-round-corrected"})
    assert response.status_code == 302 and results_of(rnd)[1] == "2-0"


def test_an_older_rounds_correction_offers_the_level_4_box_from_the_start_and_saves_in_one_submit(
        make_tournament, chief) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    play_round(t)
    services.round_pair(tournament=t)  # round 3 paired: round 1 is two rounds back
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = chief.get(url)
    html = page.content.decode()
    assert 'name="confirmed" value="old-round-corrected"' in html and 'value="rating-correction"' in html
    assert_one_screen(page, Level.LEAVE)
    typed = {"games-0-result": "2-0", "_continue": "1", "correction_reason": "appeal upheld"}
    # Not ticked: refused, what was typed kept, the tournament still in the mode.
    response = chief.post(url, scrape_form(chief, url, **typed))
    html = response.content.decode()
    t.refresh_from_db()
    assert response.status_code == 200 and results_of(rnd)[1] == "1-1" and t.in_conformance
    assert parse(html).selected["games-0-result"] == "2-0" and "appeal upheld" in html
    # Ticked: one submit saves it, and the tournament leaves the mode as the box said.
    response = chief.post(url, scrape_form(chief, url, **typed, confirmed="old-round-corrected"))
    t.refresh_from_db()
    assert response.status_code == 302 and results_of(rnd)[1] == "2-0" and not t.in_conformance


def test_a_completed_round_with_no_later_round_offers_the_reason_and_no_box(make_tournament, chief) -> None:
    rnd = play_round(make_tournament(4))
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    html = chief.get(url).content.decode()
    assert 'name="correction_reason"' in html and 'id="dm-correction"' not in html
    response = chief.post(url, scrape_form(chief, url, **{"games-0-result": "2-0", "_continue": "1",
                                                          "correction_reason": "slip misread"}))
    assert response.status_code == 302 and results_of(rnd)[1] == "2-0"


def test_a_swiss_correction_says_what_the_pairing_check_says_now(swiss9, chief) -> None:
    rnd = play_swiss_round(swiss9)
    services.round_pair(tournament=swiss9)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    game = rnd.games.get(board=1)
    flipped = "0-2" if game.result == "2-0" else "2-0"
    response = chief.post(url, scrape_form(chief, url, **{"games-0-result": flipped, "_continue": "1",
                                                          "correction_reason": "wrong slip",
                                                          "confirmed": "previous-round-corrected"}), follow=True)
    texts = messages_in(response)
    assert rnd.games.get(board=1).result == flipped
    assert any("Round 2 was paired when board 1 of round 1 read" in m for m in texts)
    assert any(m.startswith("Pairing check of round 2 now: ") for m in texts), texts


def test_another_tournaments_arbiter_cannot_correct(make_tournament) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    other = get_user_model().objects.create_user("other", is_staff=True)
    c = Client()
    c.force_login(other)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    c.post(url, {"games-0-result": "2-0", "correction_reason": "x", "slip": "1 2-0"})
    assert results_of(rnd)[1] == "1-1"


# --- A hand-edited draft ----------------------------------------------------------------------------


def test_a_draft_edit_that_breaks_an_absolute_criterion_is_a_warning_never_a_success(swiss9, chief) -> None:
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    ForbiddenPair.objects.create(tournament=swiss9, first=game.white, second=game.black, reason="same club")
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    index = list(rnd.games.order_by("board").values_list("pk", flat=True)).index(game.pk)
    swapped = {f"games-{index}-white": str(game.black_id), f"games-{index}-black": str(game.white_id)}
    response = chief.post(url, scrape_form(chief, url, **swapped, _continue="1"), follow=True)
    texts = messages_in(response)
    assert Game.objects.get(pk=game.pk).white_id == game.black_id
    assert not any("changed successfully" in m for m in texts), texts
    warning = next(m for m in texts if "breaks" in m)
    assert "absolute criteria" in warning and "<li>Forbidden pair: 1. Player01" in warning
    assert "Correct these boards before publishing the round." in warning
