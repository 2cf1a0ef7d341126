"""Each entry holds the ratings its tournament was played on (VCL4THP Q116, Q143): a later list changes the
players, a running tournament only when the arbiter takes the new ratings on, a finished one never."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round, play_swiss_round
from tournaments import ratings, selectors
from tournaments.errors import DomainError
from tournaments.exchange.player_import import players_import_csv
from tournaments.exchange.transfer import dumps, export_tournament, import_tournament, loads
from tournaments.exchange.trf_import import import_trf
from tournaments.models import Entry, Player, RatingMethod, System, Tournament
from tournaments.players import numbering, roster
from tournaments.rounds import pairing_bridge

pytestmark = pytest.mark.django_db


def _trf_ratings(t: Tournament) -> list[str]:
    """Each 001 line's rating field (columns 49-52)."""
    return [line[48:52] for line in pairing_bridge.export_trf(t).splitlines() if line.startswith("001")]


def _averages(t: Tournament) -> dict[str, object]:
    return {row.player.name: row.tiebreaks["average_rating"] for row in selectors.standings(t)}


def _new_list(t: Tournament, bump: int) -> bytes:
    """A players' CSV giving every player of t another rating (a later FMJD list)."""
    lines = ["surname,given_name,fmjd_id,rating"]
    for p in Player.objects.filter(entries__tournament=t):
        lines.append(f"{p.surname},{p.given_name},{p.fmjd_id},{(p.rating or 1000) + bump}")
    return ("\n".join(lines) + "\n").encode()


def test_a_later_list_leaves_a_finished_tournament_as_it_was_played(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="done", rounds_total=3, tiebreaks=["average_rating"])
    for _ in range(3):
        play_swiss_round(t)
    assert ratings.is_finished(t)
    averages, trf, card = _averages(t), _trf_ratings(t), selectors.player_line(t.entries.first())
    report = players_import_csv(data=_new_list(t, 150), source="fmjd-2027.csv",
                                tournament=make_tournament(2, slug="next"))
    assert report.ok and Player.objects.filter(rating__gte=2400).exists()
    t = Tournament.objects.get(pk=t.pk)
    assert _averages(t) == averages
    assert _trf_ratings(t) == trf
    assert selectors.player_line(t.entries.first()).rating == card.rating
    assert ratings.rating_changes(t) == []  # nothing to take on: the record stays
    with pytest.raises(DomainError, match="is finished: it keeps the ratings it was played on"):
        numbering.ratings_take_note(tournament=t)
    assert [e.rating for e in t.entries.order_by("pairing_number")] == [2390, 2380, 2370, 2360, 2350, 2340]


def test_a_running_tournament_takes_a_later_list_only_through_the_step(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="run", rounds_total=5, tiebreaks=["average_rating"])
    play_swiss_round(t)
    averages, trf = _averages(t), _trf_ratings(t)
    last = t.entries.get(pairing_number=6)
    Player.objects.filter(pk=last.player_id).update(rating=2500)  # a new list, applied to the players
    assert _averages(t) == averages and _trf_ratings(t) == trf
    assert numbering.regeneration_moves(t) == []
    assert selectors.player_line(Entry.objects.get(pk=last.pk)).rating == 2340
    changes = ratings.rating_changes(t)
    assert [(c.entry.pk, c.at_entry, c.now) for c in changes] == [(last.pk, 2340, 2500)]
    numbering.ratings_take_note(tournament=t, expected=numbering.changes_signature(changes), user=arbiter)
    assert Entry.objects.get(pk=last.pk).rating == 2500
    assert _trf_ratings(t)[5] == "2500" and _averages(t) != averages
    assert [m.entry.pk for m in numbering.regeneration_moves(t)][:1] == [last.pk]
    event = t.conformance_events.get(code="rating-changed")
    assert event.values == {"player": last.player.full_name, "old": 2340, "new": 2500}
    assert Entry.history.filter(id=last.pk, rating=2500).get().history_user == arbiter


def test_the_tournament_method_reads_the_entry_s_ratings(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(2, system=System.SWISS, slug="m", rounds_total=3)
    entry = t.entries.get(pairing_number=1)
    Player.objects.filter(pk=entry.player_id).update(rating=None, national_rating=1800, unrated=False)
    entry.refresh_from_db()
    assert (entry.rating, entry.national_rating) == (2390, None)
    t.rating_method = RatingMethod.NATIONAL  # before round 1: the method may still change
    t.save()
    entry = Tournament.objects.get(pk=t.pk).entries.get(pairing_number=1)
    assert ratings.entry_rating(entry) == 2390  # the entry holds no national rating: the FMJD one counts


def test_every_path_that_enters_a_player_gives_the_entry_his_ratings(make_tournament, make_players) -> None:  # type: ignore[no-untyped-def]
    rated = Player.objects.create(surname="Rated", rating=2100, national_rating=2050, fmjd_id=501)
    unrated = Player.objects.create(surname="Unrated", unrated=True, fmjd_id=502)
    t = make_tournament(0, system=System.SWISS, slug="paths", rounds_total=5)
    a = roster.entry_add(tournament=t, player=rated)
    b = roster.entry_add(tournament=t, player=unrated)
    assert [(e.rating, e.national_rating) for e in Entry.objects.filter(pk__in=[a.pk, b.pk]).order_by("pk")] == [
        (2100, 2050), (None, None)]
    # The CSV import enters in bulk (no save()): each entry still takes the player's ratings.
    report = players_import_csv(data=b"surname,fmjd_id,rating,national_rating\nBulk,503,1900,1850\n",
                                source="p.csv", tournament=t)
    assert report.ok
    assert (t.entries.get(player__fmjd_id=503).rating, t.entries.get(player__fmjd_id=503).national_rating) == (
        1900, 1850)
    # The admin's add form goes through the same service.
    client = Client()
    client.force_login(t.chief_arbiter)
    admin_player = Player.objects.create(surname="Admin", rating=1600, fmjd_id=504)
    form = {"tournament": t.pk, "player": admin_player.pk, "pairing_number": t.entries.count() + 1,
            "excused_rounds": "[]", "external_tiebreak": ""}
    page = client.post(reverse("admin:tournaments_entry_add"), form)
    assert page.status_code == 302, page.context["adminform"].form.errors if page.context else page
    entry = t.entries.get(player=admin_player)
    assert entry.rating == 1600
    page = client.get(reverse("admin:tournaments_entry_change", args=[entry.pk]))
    assert "FMJD rating" in page.content.decode() and "1600" in page.content.decode()  # shown, not a field
    assert 'name="rating"' not in page.content.decode()
    # A late entry (round 1 paired) too.
    for p in make_players(3):
        roster.entry_add(tournament=t, player=p)
    play_round(t)
    late = roster.entry_add(tournament=t, player=Player.objects.create(surname="Late", rating=1700))
    assert Entry.objects.get(pk=late.pk).rating == 1700


def test_another_player_put_in_an_entry_brings_his_own_ratings(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(2, system=System.SWISS, slug="swap", rounds_total=3)
    entry = t.entries.get(pairing_number=2)
    entry.player = Player.objects.create(surname="Instead", rating=1500, national_rating=1450)
    entry.save()
    entry.refresh_from_db()
    assert (entry.rating, entry.national_rating) == (1500, 1450)


def test_the_trf_import_enters_players_with_ratings(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="trf-src", rounds_total=3)
    play_swiss_round(t)
    text = pairing_bridge.export_trf(t)
    Player.objects.update(fmjd_id=None)  # new players: created from the file's lines
    imported = import_trf(text, slug="from-trf").tournament
    assert sorted(imported.entries.values_list("rating", flat=True)) == [2340, 2350, 2360, 2370, 2380, 2390]


def test_the_json_transfer_carries_the_entry_s_ratings(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="json", rounds_total=3)
    play_swiss_round(t)
    Entry.objects.filter(tournament=t, pairing_number=1).update(rating=2222)  # differs from the player's 2390
    doc = export_tournament(t)
    assert "rating" in transfer_schema_entry()  # the schema names the field
    assert sorted(e["rating"] for e in doc["entries"]) == [2222, 2360, 2370, 2380]
    Player.objects.filter(entries__tournament=t).update(rating=1000)  # the other server's register differs
    back = import_tournament(loads(dumps(doc)), replace=True).tournament
    assert sorted(back.entries.values_list("rating", flat=True)) == [2222, 2360, 2370, 2380]
    assert export_tournament(back)["entries"] == doc["entries"]


def test_an_older_export_takes_the_ratings_of_the_file_s_players(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="old", rounds_total=3)
    play_swiss_round(t)
    doc = json.loads(dumps(export_tournament(t)))
    for record in doc["entries"]:  # as written before entries held their ratings
        del record["rating"], record["national_rating"]
    for record in doc["history"]["entries"]:
        record.pop("rating", None)
        record.pop("national_rating", None)
    Player.objects.filter(entries__tournament=t).update(rating=1000)  # this server's register moved on
    back = import_tournament(doc, replace=True).tournament
    assert sorted(back.entries.values_list("rating", flat=True)) == [2360, 2370, 2380, 2390]


def test_a_player_edit_names_only_running_tournaments(make_tournament) -> None:  # type: ignore[no-untyped-def]
    from tournaments.admin.numbering import rating_change_message

    done = make_tournament(2, system=System.SWISS, slug="fin", rounds_total=1)
    play_swiss_round(done)
    player = done.entries.get(pairing_number=1).player
    running = make_tournament(0, system=System.SWISS, slug="live", rounds_total=5)
    roster.entry_add(tournament=running, player=player)
    player.rating = 2000
    player.save()
    message = str(rating_change_message(player))
    assert "Test live" in message and "Test fin" not in message


def transfer_schema_entry() -> dict[str, object]:
    from tournaments.exchange.transfer import schema

    return schema()["properties"]["entries"]["items"]["properties"]  # type: ignore[no-any-return]


@pytest.mark.django_db(transaction=True)
def test_the_migration_gives_existing_entries_their_players_ratings() -> None:
    """Entries made before entries held ratings take their players' ratings as they stand (what every page
    showed until then); an unrated player's entry holds none."""
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from tournaments.web import cache_version

    before, after = [("tournaments", "0019_longevents")], [("tournaments", "0020_ratings_entry_rating")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    try:
        apps = executor.loader.project_state(before).apps
        old_player = apps.get_model("tournaments", "Player")
        t = apps.get_model("tournaments", "Tournament").objects.create(name="Old", slug="old", system="swiss",
                                                                      rounds_total=5)
        rated = old_player.objects.create(surname="Rated", rating=2100, national_rating=2000)
        unrated = old_player.objects.create(surname="Unrated", unrated=True)
        for n, p in enumerate((rated, unrated), start=1):
            apps.get_model("tournaments", "Entry").objects.create(tournament=t, player=p, pairing_number=n,
                                                                  rating_at_entry=1900)
        executor = MigrationExecutor(connection)
        executor.migrate(after)
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
        assert list(Entry.objects.order_by("pairing_number").values_list("rating", "national_rating")) == [
            (2100, 2000), (None, None)]
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(executor.loader.graph.leaf_nodes())
        cache_version.install()  # a table rebuilt on the way back lost its triggers
