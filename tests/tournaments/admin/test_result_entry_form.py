"""The round page's save in three parts: the form parses the table and the slip from the POST it is given
(and leaves it as posted), the service (tournaments.rounds.result_entry) saves the parsed values, the admin
view wires the two."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.contrib import admin
from django.contrib.messages.storage.fallback import FallbackStorage
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import QueryDict
from django.test import RequestFactory

from tests.tournaments.admin.test_round_entry import parse, published, results_of
from tests.tournaments.play import play_round, play_swiss_round
from tests.tournaments.test_permissions import scrape_form
from tournaments.admin.rounds import GameInline
from tournaments.conformance.events import NeedsConfirmation
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Game, Round, RoundStatus
from tournaments.rounds import result_entry, services
from tournaments.rounds.result_entry import ResultEntry, TypedResult


def as_post(data: dict[str, Any]) -> QueryDict:
    """The data as Django hands a POST to a view: a QueryDict nobody may change."""
    post = QueryDict(mutable=True)
    for key, value in data.items():
        post.setlist(key, value if isinstance(value, list) else [value])
    post._mutable = False
    return post


def admin_request(user: Any, data: dict[str, Any], url: str) -> Any:
    request = RequestFactory().post(url, data)
    request.user = user
    request._dont_enforce_csrf_checks = True  # as the test client does
    SessionMiddleware(lambda r: None).process_request(request)
    request._messages = FallbackStorage(request)
    return request


def the_formset(rnd: Round, user: Any, post: QueryDict) -> Any:
    rnd = Round.objects.get(pk=rnd.pk)  # as the admin reads it
    request = admin_request(user, {}, "/")
    inline = GameInline(Round, admin.site)
    formset_class = inline.get_formset(request, rnd)
    return formset_class(data=post, instance=rnd, prefix="games", queryset=inline.get_queryset(request))


# --- The form: a QueryDict in, parsed values out ------------------------------------------------------


def test_the_form_parses_the_table_and_the_slip_and_leaves_the_post_as_posted(make_tournament, chief,
                                                                             arbiter) -> None:
    rnd, url = published(make_tournament(8))
    post = as_post(scrape_form(chief, url, slip="1 2-0, 2 1-1", **{"games-2-result": "0-2"}))
    before = {key: post.getlist(key) for key in post}
    formset = the_formset(rnd, arbiter, post)
    assert formset.is_valid(), formset.errors
    entry = formset.entry()
    assert {t.game.board: t.result for t in entry.results} == {1: "2-0", 2: "1-1", 3: "0-2"}
    games = {g.board: g.version for g in rnd.games.all()}
    assert all(t.expected_version == games[t.game.board] for t in entry.results)
    assert entry.boards == {} and entry.reason == "" and not entry.rating_only
    assert {key: post.getlist(key) for key in post} == before, "the POST is left as it was posted"
    assert formset.data is not post and formset.slip_text == ""  # the slip went into the form's own copy


def test_the_form_keeps_a_refused_slip_item_in_its_box(make_tournament, chief, arbiter) -> None:
    rnd, url = published(make_tournament(4))
    post = as_post(scrape_form(chief, url, slip="1 2-0, 7 1-1"))
    formset = the_formset(rnd, arbiter, post)
    assert not formset.is_valid()
    assert formset.slip_text == "7 1-1" and post["slip"] == "1 2-0, 7 1-1"


# --- The view: the POST untouched, the service called with what the form read ----------------------------


def test_the_round_page_calls_the_service_with_parsed_values_and_leaves_the_post_alone(make_tournament, chief,
                                                                                      arbiter) -> None:
    rnd, url = published(make_tournament(8))
    data = scrape_form(chief, url, slip="1 2-0, 2 1-1", _continue="1", **{"games-3-result": "0-2"})
    request = admin_request(arbiter, data, url)
    before = {key: request.POST.getlist(key) for key in request.POST}
    calls: list[dict[str, Any]] = []
    real = result_entry.round_enter_results

    def spy(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs)

    with mock.patch("tournaments.rounds.result_entry.round_enter_results", spy):
        response = admin.site._registry[Round].changeform_view(request, str(rnd.pk))
    assert response.status_code == 302
    assert {key: request.POST.getlist(key) for key in request.POST} == before, "request.POST is not rewritten"
    assert not request.POST._mutable
    assert not [name for name in vars(request) if name.startswith("_damier")], "no private request attributes"
    (call,) = calls
    assert isinstance(call["entry"], ResultEntry) and call["round"].pk == rnd.pk and call["user"] == arbiter
    assert [(t.game.board, t.result) for t in call["entry"].results] == [(1, "2-0"), (2, "1-1"), (4, "0-2")]
    assert results_of(rnd) == {1: "2-0", 2: "1-1", 3: "", 4: "0-2"}


def test_a_save_the_service_refuses_comes_back_with_what_was_typed(make_tournament, chief) -> None:
    rnd, url = published(make_tournament(8))
    form = scrape_form(chief, url, slip="1 2-0", _continue="1", **{"games-1-result": "1-1"})
    with mock.patch("tournaments.rounds.result_entry.round_enter_results",
                    side_effect=StaleEditError("Board 1 was changed meanwhile.")):
        response = chief.post(url, form)
    assert response.status_code == 200 and set(results_of(rnd).values()) == {""}
    html = response.content.decode()
    assert "Board 1 was changed meanwhile." in html
    page = parse(html)
    assert page.selected["games-0-result"] == "2-0" and page.selected["games-1-result"] == "1-1"


def test_a_stale_untouched_board_shows_the_other_arbiters_value_and_the_typed_one_stays(make_tournament, chief) -> None:
    rnd, url = published(make_tournament(8))
    form = scrape_form(chief, url, **{"games-0-result": "2-0", "games-2-result": "bye", "_continue": "1"})
    services.game_record_result(game=rnd.games.get(board=2), result="0-2")  # the deputy, meanwhile
    response = chief.post(url, form)
    assert response.status_code == 200 and results_of(rnd) == {1: "", 2: "0-2", 3: "", 4: ""}
    page = parse(response.content.decode())
    assert page.selected["games-0-result"] == "2-0"  # typed, kept
    assert page.selected["games-1-result"] == "0-2"  # not touched here: what the deputy saved


# --- The service -------------------------------------------------------------------------------------------


def test_the_service_saves_every_board_or_none(make_tournament) -> None:
    rnd, _url = published(make_tournament(4))
    one, two = rnd.games.order_by("board")
    entry = ResultEntry(results=[TypedResult(one, "2-0", one.version), TypedResult(two, "1-1", two.version - 1)])
    with pytest.raises(StaleEditError):
        result_entry.round_enter_results(round=rnd, entry=entry)
    assert results_of(rnd) == {1: "", 2: ""}
    saved = result_entry.round_enter_results(round=rnd, entry=ResultEntry(
        results=[TypedResult(one, "2-0", one.version), TypedResult(two, "1-1", two.version)],
        reason="ignored: no correction"))
    assert [g.board for g in saved.games] == [1, 2] and results_of(rnd) == {1: "2-0", 2: "1-1"}
    assert saved.correction_warnings == [] and saved.report is None
    assert Game.history.filter(id=one.pk).first().history_change_reason in (None, "")


def test_a_correction_in_a_completed_round_takes_the_reason_and_names_the_later_round(make_tournament) -> None:
    t = make_tournament(4)
    first = Round.objects.get(pk=play_round(t).pk)
    services.round_pair(tournament=t)
    game = first.games.order_by("board").first()
    assert first.status == RoundStatus.COMPLETED
    typed = "0-2" if game.result != "0-2" else "2-0"
    with pytest.raises(DomainError):
        result_entry.round_enter_results(round=first, entry=ResultEntry(results=[TypedResult(game, typed)]))
    entry = ResultEntry(results=[TypedResult(game, typed)], reason="scoresheet misread")
    with pytest.raises(NeedsConfirmation) as asked:  # the later round was paired on the old result
        result_entry.round_enter_results(round=first, entry=entry)
    assert Game.objects.get(pk=game.pk).result == game.result
    saved = result_entry.round_enter_results(round=first, entry=ResultEntry(
        results=entry.results, reason=entry.reason, confirmed=[str(w.code) for w in asked.value.warnings]))
    assert Game.objects.get(pk=game.pk).result == typed
    assert saved.correction_warnings == ["Round 2 is already paired; a round robin follows the Berger tables, "
                                         "which do not depend on results: nothing else changes."]


def test_a_hand_edit_of_a_swiss_draft_opens_the_manual_phase_and_is_checked(swiss9) -> None:
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    saved = result_entry.round_enter_results(round=rnd, entry=ResultEntry(
        boards={game.board: (game.black, game.white)}))
    rnd.refresh_from_db()
    assert rnd.manual_edit_started_at is not None
    assert saved.report is not None and saved.games == []
    assert Game.objects.get(pk=game.pk).white_id == game.black_id
