"""Nothing that holds a result, a pairing or a sheet of a paired round is deleted, on any path (VCL4THP Q189):
Django's delete page and bulk action, a cascade, QuerySet.delete() from the shell. A draft still goes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import ProtectedError
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round, play_swiss_round
from tournaments.models import Entry, Game, GameSheet, Round, System, Tournament
from tournaments.rounds import deletion, services
from tournaments.sheets import sheet_upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def root() -> Client:
    c = Client()
    c.force_login(get_user_model().objects.create_superuser("root", email=None, password=None))
    return c


@pytest.fixture
def four_rounds(make_tournament):  # type: ignore[no-untyped-def]
    """A Swiss of ten players: four rounds played and completed, round 5 paired as a draft."""
    t = make_tournament(10, system=System.SWISS, slug="four", rounds_total=6)
    for _ in range(4):
        play_swiss_round(t)
    services.round_pair(tournament=t)
    return t


def _body(page) -> str:  # type: ignore[no-untyped-def]
    return page.content.decode()


def test_the_delete_page_of_a_played_game_refuses_and_says_what_to_do(four_rounds, root) -> None:
    game = Game.objects.filter(round__tournament=four_rounds, round__number=1).first()
    url = reverse("admin:tournaments_game_delete", args=[game.pk])
    page = root.get(url)
    assert page.status_code == 200
    body = _body(page)
    assert "Nothing is deleted" in body and "Correct its result on the round" in body
    assert 'value="Yes, I’m sure"' not in body
    assert root.post(url, {"post": "yes"}).status_code == 200
    assert Game.objects.filter(pk=game.pk).exists()


def test_the_bulk_delete_action_refuses_played_games(four_rounds, root) -> None:
    games = list(Game.objects.filter(round__tournament=four_rounds, round__number=1).values_list("pk", flat=True))
    page = root.post(reverse("admin:tournaments_game_changelist"),
                     {"action": "delete_selected", "_selected_action": [str(pk) for pk in games], "post": "yes"})
    assert "Nothing is deleted" in _body(page)
    assert Game.objects.filter(pk__in=games).count() == len(games)


def test_the_last_completed_round_is_not_deleted_from_its_delete_page(make_tournament, root) -> None:
    t = make_tournament(4)
    rnd = play_round(t)
    url = reverse("admin:tournaments_round_delete", args=[rnd.pk])
    assert "its pairing and results are kept" in _body(root.get(url))
    root.post(url, {"post": "yes"})
    assert Round.objects.filter(pk=rnd.pk).exists() and rnd.games.count() == 2


def test_a_played_tournament_is_not_deleted_and_the_page_names_the_real_actions(four_rounds, root) -> None:
    url = reverse("admin:tournaments_tournament_delete", args=[four_rounds.pk])
    body = _body(root.get(url))
    assert "round(s) 1, 2, 3, 4 were published" in body and "untick “public”" in body
    assert "Export everything (JSON, for import_tournament)" in body
    root.post(url, {"post": "yes"})
    assert Tournament.objects.filter(pk=four_rounds.pk).exists()


@pytest.mark.parametrize("what", ["game", "round", "tournament", "entry", "sheet"])
def test_the_shell_cannot_delete_a_played_record(make_tournament, what) -> None:
    t = make_tournament(4)
    rnd = play_round(t, {1: "2-0"}, complete=False)
    game = rnd.games.select_related("white__player", "black__player", "round").get(board=1)
    if what == "sheet":
        from tests.tournaments.sheets.test_sheets import finished_game, sheet_text

        sheet_upload(game=game, data=sheet_text(game, finished_game("2-0"), "2-0"))
    qs = {"game": Game.objects.filter(pk=game.pk), "round": Round.objects.filter(pk=rnd.pk),
          "tournament": Tournament.objects.filter(pk=t.pk), "entry": Entry.objects.filter(pk=game.white_id),
          "sheet": GameSheet.objects.filter(game=game)}[what]
    # An entry's games hold it (PROTECT): Django refuses those first; the guard refuses everything else.
    with pytest.raises(deletion.DeletionRefused if what not in ("tournament", "entry") else ProtectedError), \
            transaction.atomic():
        qs.delete()
    assert Game.objects.filter(pk=game.pk).exists() and Tournament.objects.filter(pk=t.pk).exists()
    assert what != "sheet" or GameSheet.objects.filter(game=game).exists()


def test_a_refusal_is_worded_for_what_was_asked_not_the_first_game_reached(four_rounds) -> None:
    with pytest.raises(deletion.DeletionRefused, match="round 1: rounds 2, 3, 4, 5 were paired on it"), \
            transaction.atomic():
        Round.objects.filter(tournament=four_rounds).delete()  # its games are reached first
    assert "round(s) 1, 2, 3, 4 were published" in (deletion.why_not(four_rounds) or "")


def test_an_entry_taken_out_on_the_tournament_page_stays(four_rounds, arbiter) -> None:
    from tests.tournaments.test_permissions import scrape_form

    chief = Client()
    chief.force_login(arbiter)
    url = reverse("admin:tournaments_tournament_change", args=[four_rounds.pk])
    entry = four_rounds.entries.get(pairing_number=1)
    data = scrape_form(chief, url)
    index = next(k.split("-")[1] for k, v in data.items() if k.startswith("entries-") and k.endswith("-id")
                 and v == str(entry.pk))
    data[f"entries-{index}-DELETE"] = "on"
    page = chief.post(url, data, follow=True)
    assert page.status_code == 200
    # Django's inline refuses it as a protected object (his games); the page says so, nothing is lost.
    assert "would require deleting the following protected related objects" in _body(page)
    assert Entry.objects.filter(pk=entry.pk).exists()
    assert "Withdraw him instead" in (deletion.why_not(entry) or "")  # the delete page and the shell say this


def test_a_draft_round_is_still_deleted_and_paired_again(make_tournament, root) -> None:
    t = make_tournament(6, system=System.SWISS, slug="draft", rounds_total=3)
    play_round(t)
    draft = services.round_pair(tournament=t)
    again = services.round_pair_again(round=draft)
    assert again.number == 2 and not Round.objects.filter(pk=draft.pk).exists()
    assert deletion.why_not(again) is None
    body = _body(root.get(reverse("admin:tournaments_round_delete", args=[again.pk])))
    assert "Nothing is deleted" not in body and 'value="Yes, I’m sure"' in body
    root.post(reverse("admin:tournaments_round_delete", args=[again.pk]), {"post": "yes"})
    assert not Round.objects.filter(pk=again.pk).exists()


def test_a_tournament_with_no_published_round_is_still_deleted(make_tournament) -> None:
    t = make_tournament(4)
    draft = services.round_pair(tournament=t)  # a draft round 1 only
    services.round_delete_draft(round=draft)  # its games hold the entries (PROTECT): the round goes first
    t.delete()
    assert not Tournament.objects.filter(slug="t").exists()


def test_inside_allowed_a_played_tournament_goes(four_rounds) -> None:
    with deletion.allowed():
        Round.objects.filter(tournament=four_rounds).delete()
        Entry.objects.filter(tournament=four_rounds).delete()
        four_rounds.delete()
    assert not Tournament.objects.filter(pk=four_rounds.pk).exists()
