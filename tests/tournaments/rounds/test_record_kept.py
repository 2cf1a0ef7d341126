"""Nothing already played changes behind the record: the paths around the guards, tried one by one.

A finished tournament (its last round completed) keeps its field, its numbers, its results and the ratings
it was played on: a correction goes through the correction path (a reason kept in the history), never
through a step that makes the tournament look unfinished again or a late entry nobody could pair."""

from __future__ import annotations

import datetime

import pytest

from tests.tournaments.play import play_round
from tournaments import ratings
from tournaments.errors import DomainError
from tournaments.models import Entry, Game, Player, RoundStatus, System, Tournament
from tournaments.players import roster
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


def _finished_swiss(arbiter, rounds: int = 2) -> Tournament:  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name="Finished", slug="finished", system=System.SWISS, rounds_total=rounds,
                                  chief_arbiter=arbiter, start_date=datetime.date(2026, 1, 1))
    for i in range(1, 7):
        roster.entry_add(tournament=t, player=Player.objects.create(surname=f"P{i}", given_name="T",
                                                                      rating=2400 - 50 * i))
    for _ in range(rounds):
        play_round(t)
    assert ratings.is_finished(t)
    return t


def _record(t: Tournament) -> tuple[list[tuple[int, str]], list[tuple[int, int | None, str]]]:
    numbers = list(Entry.objects.filter(tournament=t).order_by("pairing_number")
                   .values_list("pairing_number", "player__surname"))
    games = sorted(Game.objects.filter(round__tournament=t).values_list("white_id", "black_id", "result"))
    return numbers, games


def test_a_finished_swiss_takes_no_late_entry(arbiter) -> None:  # type: ignore[no-untyped-def]
    # A late entry renumbers the players below him: in a finished tournament nobody could pair him, and the
    # numbers of the file already sent (standings, TRF) would move under the record.
    t = _finished_swiss(arbiter)
    before = _record(t)
    late = Player.objects.create(surname="Late", given_name="T", rating=2330)
    with pytest.raises(DomainError, match="all 2 rounds are paired"):
        roster.entry_add(tournament=t, player=late)
    assert _record(t) == before
    assert not t.conformance_events.filter(code="late-entry").exists()


def test_the_csv_import_enters_nobody_in_a_finished_swiss(arbiter) -> None:  # type: ignore[no-untyped-def]
    from tournaments.exchange.player_import import players_import_csv

    t = _finished_swiss(arbiter)
    before = _record(t)
    with pytest.raises(DomainError, match="all 2 rounds are paired"):
        players_import_csv(data=b"surname,given_name,rating\nLate,T,2330\n", source="late.csv", tournament=t)
    assert _record(t) == before


def test_a_late_entry_is_still_taken_while_a_round_is_left(arbiter) -> None:  # type: ignore[no-untyped-def]
    t = _finished_swiss(arbiter, rounds=2)
    Tournament.objects.filter(pk=t.pk).update(rounds_total=3)  # one more round, as a level-4 change gives
    t.refresh_from_db()
    entry = roster.entry_add(tournament=t, player=Player.objects.create(surname="Late", given_name="T",
                                                                          rating=2330))
    assert entry.pairing_number == 2


def test_the_last_round_of_a_finished_tournament_is_not_reopened(arbiter) -> None:  # type: ignore[no-untyped-def]
    # Reopened, its results would change with no reason kept, and the tournament would no longer be finished:
    # the "take note" of a later rating list would then rewrite the ratings it was played on.
    t = _finished_swiss(arbiter)
    last = t.rounds.get(number=2)
    with pytest.raises(DomainError, match="correct it on the round.s page with a reason"):
        services.round_reopen(round=last)
    last.refresh_from_db()
    assert last.status == RoundStatus.COMPLETED
    assert ratings.is_finished(t)


def test_a_round_before_the_last_is_reopened_while_the_next_is_not_paired(arbiter) -> None:  # type: ignore[no-untyped-def]
    t = _finished_swiss(arbiter, rounds=1)
    Tournament.objects.filter(pk=t.pk).update(rounds_total=3)
    rnd = t.rounds.get(number=1)
    assert services.round_reopen(round=rnd).status == RoundStatus.PUBLISHED


def test_the_admin_reopen_action_on_a_finished_tournament_changes_nothing(arbiter) -> None:  # type: ignore[no-untyped-def]
    from django.test import Client
    from django.urls import reverse

    t = _finished_swiss(arbiter)
    last = t.rounds.get(number=2)
    client = Client()
    client.force_login(arbiter)
    client.post(reverse("admin:tournaments_round_changelist"),
                {"action": "reopen", "_selected_action": [last.pk]}, follow=True)
    last.refresh_from_db()
    assert last.status == RoundStatus.COMPLETED


def test_a_finished_long_event_keeps_its_later_ratings(arbiter) -> None:  # type: ignore[no-untyped-def]
    # The later ratings of a long event are what its rating tie-breaks ranked on: typed on the entry's page
    # while it runs, kept once it is finished, as the entries' own ratings are.
    from django.test import Client
    from django.urls import reverse

    from tests.tournaments.test_permissions import scrape_form
    from tournaments.models import EntryRating

    t = _finished_swiss(arbiter)
    Tournament.objects.filter(pk=t.pk).update(long_event=True)
    entry = t.entries.get(pairing_number=1)
    EntryRating.objects.create(entry=entry, from_round=2, rating=2000)
    client = Client()
    client.force_login(arbiter)
    url = reverse("admin:tournaments_entry_change", args=[entry.pk])
    data = scrape_form(client, url)
    data.update({"later_ratings-TOTAL_FORMS": "2", "later_ratings-INITIAL_FORMS": "1",
                 "later_ratings-0-id": str(EntryRating.objects.get().pk), "later_ratings-0-entry": str(entry.pk),
                 "later_ratings-0-from_round": "2", "later_ratings-0-rating": "2500",
                 "later_ratings-1-entry": str(entry.pk), "later_ratings-1-from_round": "3",
                 "later_ratings-1-rating": "2600"})
    client.post(url, data)
    assert list(EntryRating.objects.values_list("from_round", "rating")) == [(2, 2000)]


def test_replace_refuses_an_export_older_than_the_tournament_it_replaces(arbiter) -> None:  # type: ignore[no-untyped-def]
    # import_tournament --replace puts the file's copy in the tournament's place. A file written before a
    # correction would undo it with no trace on the tournament's pages (its event and reason gone with it).
    from tournaments.exchange.transfer import TransferError, dumps, export_tournament, import_tournament, loads

    t = _finished_swiss(arbiter)
    older = loads(dumps(export_tournament(t)))
    game = Game.objects.filter(round__tournament=t, round__number=2, black__isnull=False).first()
    corrected = "2-0" if game.result != "2-0" else "0-2"
    services.game_record_result(game=game, result=corrected, reason="wrong key", user=arbiter)
    with pytest.raises(TransferError, match="not in the file"):
        import_tournament(older, replace=True)
    game.refresh_from_db()
    assert game.result == corrected
    # the tournament's own export, written after the correction, still replaces it
    newer = loads(dumps(export_tournament(t)))
    back = import_tournament(newer, replace=True).tournament
    assert Game.objects.filter(round__tournament=back, round__number=2, board=game.board).get().result == corrected
    # and so does the same file once more (its import recorded nothing the file lacks)
    import_tournament(loads(dumps(export_tournament(back))), replace=True)


@pytest.mark.parametrize("model_name", ["game", "entry", "round", "tournament", "player"])
def test_no_history_page_saves_an_old_version_back(arbiter, model_name: str) -> None:  # type: ignore[no-untyped-def]
    # simple_history's page of an old version saves it on POST even with reverts disabled. A player's old
    # version written back would also keep today's "source of the ratings" beside yesterday's rating.
    from django.test import Client
    from django.urls import reverse

    from tests.tournaments.test_permissions import scrape_form

    t = _finished_swiss(arbiter)
    arbiter.is_superuser = True
    arbiter.save()
    player = t.entries.get(pairing_number=1).player
    player.rating, player.rating_source = 2500, "fmjd-2026-12.csv"
    player.save()
    obj = {"game": Game.objects.filter(round__tournament=t, round__number=2).first(),
           "entry": t.entries.get(pairing_number=1), "round": t.rounds.get(number=2), "tournament": t,
           "player": player}[model_name]
    model = type(obj)
    first = model.history.filter(id=obj.pk).order_by("history_id").first()
    url = reverse(f"admin:tournaments_{model_name}_simple_history", args=[obj.pk, first.history_id])
    client = Client()
    client.force_login(arbiter)
    before = model.history.filter(id=obj.pk).count()
    assert client.post(url, scrape_form(client, url)).status_code == 403
    assert model.history.filter(id=obj.pk).count() == before
    player.refresh_from_db()
    assert player.rating == 2500


def test_the_shell_cannot_delete_a_played_tournament_s_conformance_event(arbiter) -> None:  # type: ignore[no-untyped-def]
    # An event is the record of a warning confirmed (a ### line of the TRF): kept as the games are.
    from django.db import transaction

    from tournaments.models import ConformanceEvent
    from tournaments.rounds import deletion

    t = _finished_swiss(arbiter)
    Tournament.objects.filter(pk=t.pk).update(rounds_total=3)
    roster.entry_add(tournament=t, player=Player.objects.create(surname="Late", given_name="T", rating=2330))
    assert t.conformance_events.filter(code="late-entry").exists()
    with pytest.raises(deletion.DeletionRefused, match="late-entry @ round 2.*cannot be deleted"), transaction.atomic():
        ConformanceEvent.objects.filter(tournament=t).delete()
    assert t.conformance_events.filter(code="late-entry").exists()


def test_an_unplayed_tournament_goes_with_its_events(arbiter) -> None:  # type: ignore[no-untyped-def]
    from tournaments.conformance import events
    from tournaments.conformance.policy import Code

    t = Tournament.objects.create(name="Unplayed", slug="unplayed", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=arbiter)
    events.record(t, Code.LEFT_MODE)
    t.delete()
    assert not Tournament.objects.filter(slug="unplayed").exists()


def test_saving_a_game_s_read_only_page_never_writes_back_what_it_read(arbiter, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # The game's own page has nothing to type (result and players are read-only), yet its Save wrote the whole
    # row as read: a correction another arbiter saved between that read and the write was silently undone.
    from django.test import Client
    from django.urls import reverse

    from tests.tournaments.test_permissions import scrape_form
    from tournaments.admin.rounds import GameAdmin

    t = _finished_swiss(arbiter)
    game = Game.objects.filter(round__tournament=t, round__number=2, black__isnull=False).first()
    corrected = "2-0" if game.result != "2-0" else "0-2"
    client = Client()
    client.force_login(arbiter)
    url = reverse("admin:tournaments_game_change", args=[game.pk])
    data = scrape_form(client, url)
    read = GameAdmin.get_object

    def read_then_corrected(self, request, object_id, from_field=None):  # type: ignore[no-untyped-def]
        obj = read(self, request, object_id, from_field)
        if request.method == "POST" and obj is not None:  # the other arbiter's correction lands here
            services.game_record_result(game=Game.objects.get(pk=obj.pk), result=corrected, reason="wrong key")
        return obj

    monkeypatch.setattr(GameAdmin, "get_object", read_then_corrected)
    client.post(url, data)
    game.refresh_from_db()
    assert game.result == corrected


def test_an_arbiter_named_in_the_record_keeps_his_account(arbiter) -> None:  # type: ignore[no-untyped-def]
    # Deleting an account empties every "who" that names it (SET_NULL): who corrected a result, who
    # confirmed a breach. The account is made inactive instead; the admin's delete page says so.
    from django.contrib.auth import get_user_model
    from django.db import transaction
    from django.test import Client
    from django.urls import reverse

    from tournaments.rounds import deletion

    t = _finished_swiss(arbiter)
    game = Game.objects.filter(round__tournament=t, round__number=2, black__isnull=False).first()
    services.game_record_result(game=game, result="2-0" if game.result != "2-0" else "0-2", reason="wrong key",
                                user=arbiter)
    root = get_user_model().objects.create_superuser("root", password="pw-root-123")
    client = Client()
    client.force_login(root)
    url = reverse("admin:auth_user_delete", args=[arbiter.pk])
    page = client.get(url)
    assert page.status_code == 200 and "Untick" in page.content.decode()
    client.post(url, {"post": "yes"})
    assert get_user_model().objects.filter(pk=arbiter.pk).exists()
    client.post(reverse("admin:auth_user_changelist"), {"action": "delete_selected", "post": "yes",
                                                         "_selected_action": [arbiter.pk]})
    assert get_user_model().objects.filter(pk=arbiter.pk).exists()
    with pytest.raises(deletion.DeletionRefused), transaction.atomic():
        get_user_model().objects.filter(pk=arbiter.pk).delete()
    assert Game.history.filter(id=game.pk, history_user=arbiter).exists()
    # an account the record never names still goes
    get_user_model().objects.create_user("visitor").delete()
