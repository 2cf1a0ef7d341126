"""Requested byes on one grid (a row per player, a menu per round), a bye or a withdrawal accepted for a draft
round and the draft then paired again, the control room's lines, the entry page's summary."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.admin.forms import late_entry_post
from tests.tournaments.play import play_round
from tournaments.conformance import events
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, Player, Round, RoundStatus, System, Tournament
from tournaments.players import requested_byes, roster
from tournaments.results import Result
from tournaments.rounds import services


def grid(t: Tournament) -> str:
    return reverse("admin:tournaments_tournament_byes", args=[t.pk])


def control(t: Tournament) -> str:
    return reverse("admin:tournaments_tournament_control", args=[t.pk])


def text(response: Any) -> str:
    return response.content.decode()


def entry(t: Tournament, number: int) -> Entry:
    return t.entries.select_related("player").get(pairing_number=number)


def cell(t: Tournament, number: int, rnd: int) -> str:
    return f"bye-{entry(t, number).pk}-{rnd}"


@pytest.fixture
def swiss(make_tournament):  # type: ignore[no-untyped-def]
    """Eight players, five rounds, rounds 1 and 2 played: round 3 is next."""
    t = make_tournament(8, system=System.SWISS, slug="grid", rounds_total=5)
    play_round(t)
    play_round(t)
    return t


# --- The service -----------------------------------------------------------------------------------


def test_the_grid_saves_three_byes_at_once_and_asks_the_checklist_together(swiss) -> None:
    t = swiss
    version = requested_byes.grid_version(t)
    wanted = {entry(t, 3).pk: {4: 1, 5: 1}, entry(t, 5).pk: {4: 2}, entry(t, 6).pk: {4: 0}}
    with pytest.raises(events.NeedsConfirmation) as asked:  # the second bye worth a draw: level 3
        requested_byes.byes_save_grid(tournament=t, wanted=wanted, read_at=version)
    assert [w.code for w in asked.value.warnings] == ["half-point-bye"]  # the bye worth a win: a notice
    assert entry(t, 3).excused_rounds == []  # nothing saved until confirmed
    changes = requested_byes.byes_save_grid(tournament=t, wanted=wanted, read_at=version,
                                            confirmed=["half-point-bye"])
    assert len(changes) == 4
    assert (entry(t, 3).excused_rounds, entry(t, 3).bye_points) == ([4, 5], {"4": 1, "5": 1})
    assert (entry(t, 5).excused_rounds, entry(t, 5).bye_points) == ([4], {"4": 2})
    assert (entry(t, 6).excused_rounds, entry(t, 6).bye_points) == ([4], {})
    assert sorted(t.conformance_events.values_list("code", "round_number")) == [
        ("full-point-bye", 4), ("half-point-bye", 5)]
    assert [(e.pairing_number, p) for e, p in requested_byes.out_of_round(t, 4)] == [(3, 1), (5, 2), (6, 0)]
    # "plays" takes a bye back
    requested_byes.byes_save_grid(tournament=t, wanted={entry(t, 3).pk: {5: None}},
                                  read_at=requested_byes.grid_version(t))
    assert (entry(t, 3).excused_rounds, entry(t, 3).bye_points) == ([4], {"4": 1})


def test_a_stale_grid_is_refused_and_nothing_is_saved(swiss) -> None:
    t = swiss
    version = requested_byes.grid_version(t)
    requested_byes.bye_request(entry=entry(t, 2), round_number=4, points=0)  # another arbiter, meanwhile
    with pytest.raises(StaleEditError, match="changed since this grid was read"):
        requested_byes.byes_save_grid(tournament=t, wanted={entry(t, 3).pk: {4: 0}}, read_at=version)
    assert entry(t, 3).excused_rounds == []
    version = requested_byes.grid_version(t)
    services.round_pair(tournament=t)  # round 3 paired meanwhile: stale too
    with pytest.raises(StaleEditError):
        requested_byes.byes_save_grid(tournament=t, wanted={entry(t, 3).pk: {4: 0}}, read_at=version)


def test_published_rounds_refuse_a_bye_and_a_value_the_player_may_not_have(swiss) -> None:
    t = swiss
    with pytest.raises(DomainError, match="paired only as a draft"):
        requested_byes.byes_save_grid(tournament=t, wanted={entry(t, 3).pk: {2: 0}},
                                      read_at=requested_byes.grid_version(t))
    with pytest.raises(DomainError, match="not paired yet, or paired only as a draft"):
        requested_byes.bye_request(entry=entry(t, 3), round_number=2, points=0)
    e = entry(t, 4)
    e.no_half_bye = True
    e.save(update_fields=["no_half_bye"])
    with pytest.raises(DomainError, match="not allowed for him"):
        requested_byes.byes_save_grid(tournament=t, wanted={e.pk: {4: 1}}, read_at=requested_byes.grid_version(t))
    assert entry(t, 4).excused_rounds == []


def test_a_bye_for_a_draft_round_is_accepted_then_the_draft_is_paired_again(swiss) -> None:
    t = swiss
    draft = services.round_pair(tournament=t)  # round 3, a draft
    sitting = entry(t, 2)
    assert requested_byes.draft_stale(t) == []
    requested_byes.bye_request(entry=sitting, round_number=3, points=1)  # refused before: "not paired yet"
    assert requested_byes.draft_stale(t) == [("bye", entry(t, 2))]
    again = services.round_pair_again(round=draft, expected_version=Round.objects.get(pk=draft.pk).version)
    game = again.games.get(white=sitting, black__isnull=True)
    assert game.result == Result.EXCUSED_DRAW.value
    assert requested_byes.draft_stale(t) == []
    services.round_publish(round=again)
    with pytest.raises(DomainError, match="published round"):  # published: refused still
        requested_byes.bye_request(entry=entry(t, 4), round_number=3, points=0)


# --- The page ---------------------------------------------------------------------------------------


def test_the_grid_page_one_save_for_every_cell_and_published_rounds_read_only(swiss, chief) -> None:
    t = swiss
    page = chief.get(grid(t))
    assert page.status_code == 200
    body = text(page)
    assert f'name="{cell(t, 3, 4)}"' in body and f'name="{cell(t, 3, 2)}"' not in body  # round 2 is played
    name = entry(t, 3).player.full_name
    assert f'aria-label="{name}, round 4"' in body
    data = {"version": page.context["version"], cell(t, 3, 4): "1", cell(t, 5, 4): "2", cell(t, 6, 4): "0"}
    page = chief.post(grid(t), data, follow=True)
    assert page.redirect_chain[-1][0] == control(t)
    assert "Requested byes saved (3 changes)" in text(page)
    assert "A bye worth a win is not described" in text(page)
    assert [(e.pairing_number, p) for e, p in requested_byes.out_of_round(t, 4)] == [(3, 1), (5, 2), (6, 0)]


def test_a_stale_grid_keeps_what_was_typed(swiss, chief) -> None:
    t = swiss
    page = chief.get(grid(t))
    version = page.context["version"]
    requested_byes.bye_request(entry=entry(t, 8), round_number=5, points=0)  # another arbiter
    page = chief.post(grid(t), {"version": version, cell(t, 3, 4): "1", cell(t, 6, 4): "0"})
    assert page.status_code == 200
    assert "nothing was saved" in text(page)
    rows = {r.entry.pairing_number: {c.round: c for c in r.cells} for r in page.context["rows"]}
    assert rows[3][4].value == "1" and rows[3][4].changed and rows[6][4].value == "0"
    assert entry(t, 3).excused_rounds == []
    # Saved again from that page: the new version is on it, and the other arbiter's bye stays.
    page = chief.post(grid(t), {"version": page.context["version"], cell(t, 3, 4): "1", cell(t, 6, 4): "0",
                                cell(t, 8, 5): "0"}, follow=True)
    assert "Requested byes saved (2 changes)" in text(page)
    assert entry(t, 8).excused_rounds == [5]


def test_the_second_bye_worth_a_draw_is_confirmed_on_the_grid(swiss, chief) -> None:
    t = swiss
    version = chief.get(grid(t)).context["version"]
    data = {"version": version, cell(t, 3, 4): "1", cell(t, 3, 5): "1"}
    page = chief.post(grid(t), data)
    assert page.status_code == 200 and 'name="confirm" value="half-point-bye"' in text(page)
    assert entry(t, 3).excused_rounds == []
    page = chief.post(grid(t), {**data, "confirm": "half-point-bye"}, follow=True)
    assert entry(t, 3).excused_rounds == [4, 5]


def test_another_tournaments_arbiter_cannot_open_or_post_the_grid(swiss) -> None:
    t = swiss
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    client = Client()
    client.force_login(other)
    version = requested_byes.grid_version(t)
    assert client.get(grid(t)).status_code in (403, 404)
    assert client.post(grid(t), {"version": version, cell(t, 3, 4): "0"}).status_code in (403, 404)
    assert entry(t, 3).excused_rounds == []


def test_the_entry_page_shows_the_byes_in_words_with_the_grid_link(swiss, chief) -> None:
    t = swiss
    requested_byes.bye_request(entry=entry(t, 3), round_number=4, points=1)
    requested_byes.bye_request(entry=entry(t, 3), round_number=5, points=0)
    e = entry(t, 3)
    page = chief.get(reverse("admin:tournaments_entry_change", args=[e.pk]))
    body = text(page)
    assert "round 4: bye +1; round 5: absent 0" in body and grid(t) in body
    assert 'name="excused_rounds"' not in body and "[4, 5]" not in body and "{&quot;4&quot;: 1}" not in body
    assert "zero-point bye" not in body
    # A posted excused_rounds (an old or forged form) changes nothing: the grid is the one way in.
    data = {"tournament": t.pk, "player": e.player_id, "pairing_number": e.pairing_number,
            "excused_rounds": "[]", "external_tiebreak": "", "_save": "Save"}
    chief.post(reverse("admin:tournaments_entry_change", args=[e.pk]), data)
    assert entry(t, 3).excused_rounds == [4, 5]


def test_french_grid(swiss, chief) -> None:
    page = chief.get(grid(swiss), HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200


# --- The control room --------------------------------------------------------------------------------


def test_the_control_room_says_who_is_out_of_the_round_to_pair(swiss, chief) -> None:
    t = swiss
    requested_byes.bye_request(entry=entry(t, 3), round_number=3, points=1)
    requested_byes.bye_request(entry=entry(t, 5), round_number=3, points=2)
    page = chief.get(control(t))
    assert "Out of round 3: Player03 (+1), Player05 (+2)" in text(page)
    assert grid(t) in text(page)


def test_a_stale_draft_offers_to_pair_again_first_and_delete_the_draft_is_a_step(swiss, chief) -> None:
    t = swiss
    draft = services.round_pair(tournament=t)
    page = chief.get(control(t))
    assert page.context["step"].name == "publish"
    assert [s.name for s, _label in page.context["alternatives"]][-1] == "delete_draft"
    requested_byes.bye_request(entry=entry(t, 2), round_number=3, points=0)
    page = chief.get(control(t))
    assert page.context["step"].name == "pair_again" and "Pair round 3 again" in text(page)
    assert "The draft of round 3 is stale" in text(page) and "Player02, Test asked to sit out round 3" in text(page)
    assert "Out of round 3: Player02 (0)" in text(page)
    delete = next(s for s, _label in page.context["alternatives"] if s.name == "delete_draft")
    page = chief.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                      {"step": "delete_draft", "round": 3, "version": delete.version}, follow=True)
    assert "The draft of round 3 is deleted" in text(page)
    assert not t.rounds.filter(number=3).exists() and not Round.objects.filter(pk=draft.pk).exists()
    assert page.context["step"].name == "pair"  # not paired again by itself


def test_a_stale_draft_step_on_an_old_page_is_refused(swiss, chief) -> None:
    t = swiss
    draft = services.round_pair(tournament=t)
    version = draft.version
    services.round_publish(round=draft)
    page = chief.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                      {"step": "delete_draft", "round": 3, "version": version}, follow=True)
    assert "Nothing was done" in text(page)
    assert Round.objects.get(pk=draft.pk).status == RoundStatus.PUBLISHED


def test_a_withdrawal_for_a_draft_round_makes_it_stale(swiss, chief) -> None:
    t = swiss
    services.round_pair(tournament=t)
    leaving = entry(t, 4)
    roster.entry_withdraw(entry=leaving, after_round=2)  # he does not play the draft round 3
    page = chief.get(control(t))
    assert page.context["step"].name == "pair_again"
    assert "Player04, Test has left the tournament" in text(page)
    assert "7 players (1 left the tournament)" in text(page)  # the field counted without him
    again = page.context["step"]
    chief.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
               {"step": "pair_again", "round": 3, "version": again.version})
    rnd = t.rounds.get(number=3)
    assert not rnd.games.filter(white=leaving).exists() and not rnd.games.filter(black=leaving).exists()
    assert requested_byes.draft_stale(t) == []


def test_the_last_round_does_not_promise_a_next_one(make_tournament, chief) -> None:
    t = make_tournament(4, system=System.SWISS, slug="last", rounds_total=1)
    play_round(t, complete=False)
    page = chief.get(control(t))
    assert page.context["step"].name == "complete"
    assert "the next round can then be paired" not in text(page) and "the last round" in text(page)


# --- A late entry: said, with the numbers it moved and his missed rounds ---------------------------------


def test_a_late_entry_says_the_numbers_it_moved_and_records_missed_rounds_absent(swiss) -> None:
    t = swiss  # eight players, rounds 1 and 2 played
    late = Player.objects.create(surname="van den Heuvel", given_name="Jan", rating=2375)  # earns no. 3
    e = roster.entry_add(tournament=t, player=late)
    assert e.pairing_number == 3
    words = roster.late_entry_message(e)
    assert words.startswith("van den Heuvel, Jan entered late as no. 3; nos. 3–8 are now 4–9.")
    assert "He missed rounds 1, 2: the FMJD competition rules say nothing" in words
    e.refresh_from_db()
    assert (e.excused_rounds, e.bye_points) == ([1, 2], {})  # absent 0, as a requested bye worth 0
    last = Player.objects.create(surname="Last", given_name="One", rating=1000)
    assert "nobody's number changed" in roster.late_entry_message(roster.entry_add(tournament=t, player=last))


def test_a_late_entry_on_the_tournament_page_and_the_entry_page_is_said(swiss, chief) -> None:
    t = swiss
    late = Player.objects.create(surname="van den Heuvel", given_name="Jan", rating=2375)
    data = {"tournament": t.pk, "player": late.pk, "pairing_number": "", "status": "active",
            "external_tiebreak": "", "_save": "Save"}
    page = chief.post(reverse("admin:tournaments_entry_add"), data, follow=True)
    assert "an den Heuvel, Jan entered late as no. 3; nos. 3–8 are now 4–9." in text(page)  # Capitalised
    assert "None. van den Heuvel" not in text(page)
    page = chief.get(control(t))
    assert "players below it move down one: van den Heuvel, Jan (no. 3)" in text(page)


def test_a_late_entry_by_csv_says_it_on_its_line(swiss) -> None:
    from tournaments.exchange.player_import import players_import_csv

    t = swiss
    services.round_pair(tournament=t)  # round 3 a draft: it is then stale
    report = players_import_csv(data=b"surname,given_name,rating\nvan den Heuvel,Jan,2375\n", tournament=t)
    assert report.ok
    assert "van den Heuvel, Jan entered late as no. 3; nos. 3–8 are now 4–9." in report.lines[0].message
    assert "Round 3 was paired as a draft without him" in report.lines[0].message
    assert ("missing", t.entries.get(player__surname="van den Heuvel")) in requested_byes.draft_stale(t)


def test_the_withdrawal_page_proposes_leaving_before_the_draft(swiss, chief) -> None:
    t = swiss
    services.round_pair(tournament=t)  # round 3, a draft
    page = chief.post(reverse("admin:tournaments_entry_changelist"),
                      {"action": "withdraw", "_selected_action": [entry(t, 4).pk]})
    assert page.context["form"].initial["after_round"] == 2


def test_the_round_menu_names_a_requested_bye_whole(swiss, chief) -> None:
    t = swiss
    requested_byes.bye_request(entry=entry(t, 2), round_number=3, points=1)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    body = text(chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])))
    assert ">Requested bye +1</option>" in body and "Requested bye worth a draw (1)</option>" not in body


def test_the_entry_action_grants_a_bye_for_a_draft_round_and_says_to_pair_it_again(swiss, chief) -> None:
    t = swiss
    services.round_pair(tournament=t)  # round 3, a draft
    page = chief.post(reverse("admin:tournaments_entry_changelist"),
                      {"action": "grant_bye", "_selected_action": [entry(t, 4).pk], "apply": "1",
                       "round_number": 3, "points": 0}, follow=True)
    assert "Round 3 was paired as a draft before this change: pair it again" in text(page)
    assert entry(t, 4).excused_rounds == [3]


def test_a_large_field_gets_the_open_rounds_a_few_at_a_time(swiss, chief, settings) -> None:
    """A page's form stays under Django's field limit (a 1,000-player open would otherwise post 11,000 menus
    and get a 400): here 8 players and room for 2 rounds of menus."""
    t = swiss
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 50 + 16
    page = chief.get(grid(t))
    body = text(page)
    assert f'name="{cell(t, 1, 4)}"' in body and f'name="{cell(t, 1, 5)}"' not in body
    assert "?from=5" in body
    page = chief.get(grid(t) + "?from=5")
    assert f'name="{cell(t, 1, 5)}"' in text(page) and f'name="{cell(t, 1, 3)}"' not in text(page)
    page = chief.post(grid(t), {"version": page.context["version"], "from": "5", cell(t, 1, 5): "0"}, follow=True)
    assert "Requested byes saved (1 change)" in text(page)
    assert entry(t, 1).excused_rounds == [5]


def test_a_late_entry_in_the_tournament_pages_entries_table_is_said(swiss, chief) -> None:
    t = swiss
    late = Player.objects.create(surname="van den Heuvel", given_name="Jan", rating=2375)  # earns no. 3
    page = late_entry_post(chief, t, late)
    assert "an den Heuvel, Jan entered late as no. 3; nos. 3–8 are now 4–9." in text(page)
    assert "He missed rounds 1, 2" in text(page)


def test_a_round_robin_draft_is_never_called_stale_by_a_withdrawal(make_tournament, chief) -> None:
    """Its Berger table keeps the player who left (his boards "not played"): pairing it again would give the
    same round, so the control room keeps "Publish" first."""
    t = make_tournament(4, slug="rrw")
    play_round(t)
    services.round_pair(tournament=t)
    roster.entry_withdraw(entry=entry(t, 2), after_round=1)
    assert requested_byes.draft_stale(t) == []
    page = chief.get(control(t))
    assert page.context["step"].name == "publish" and "is stale" not in text(page)
    assert grid(t) not in text(page)  # no requested byes in a round robin


def test_a_bye_stored_before_the_player_was_excluded_is_kept_by_a_save(swiss, chief) -> None:
    t = swiss
    requested_byes.bye_request(entry=entry(t, 4), round_number=4, points=1)
    e = entry(t, 4)
    e.no_half_bye = True
    e.save(update_fields=["no_half_bye"])
    page = chief.get(grid(t))
    row = next(r for r in page.context["rows"] if r.entry.pk == e.pk)
    assert next(c for c in row.cells if c.round == 4).value == "1"
    data = {"version": page.context["version"], cell(t, 4, 4): "1", cell(t, 1, 5): "0"}
    chief.post(grid(t), data, follow=True)
    assert entry(t, 4).bye_points == {"4": 1} and entry(t, 1).excused_rounds == [5]
