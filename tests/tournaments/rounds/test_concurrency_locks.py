"""What pairing depends on, changed by one arbiter while another pairs, on two real PostgreSQL connections.

Every writer takes the tournament's row first: a pairing number saved on a page read before round 1 is
refused once round 1 is paired, never saved after it; a withdrawal, an expulsion, a requested bye or a
number edit made while the next round is paired waits for it, never deadlocks. Each race runs many times:
the pairing is slowed down (a big field) so that the other arbiter's save lands inside it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from tests.tournaments.rounds.test_concurrency import run_together
from tests.tournaments.test_permissions import scrape_form
from tournaments.errors import DomainError
from tournaments.models import Entry, Numbering, Round, System, Tournament
from tournaments.players import roster
from tournaments.players.expulsion import entry_expel
from tournaments.players.requested_byes import bye_request
from tournaments.rounds import pairing_bridge, services
from tournaments.standings import default_preset

pytestmark = [pytest.mark.postgres_only, pytest.mark.django_db(transaction=True)]

TRIES = 12


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (set DATABASE_URL=postgres://...); SQLite serialises every write anyway")


def _slow_pairing(monkeypatch: pytest.MonkeyPatch, seconds: float = 0.3) -> None:
    """The engine takes its time (a big field): the tournament's lock is held meanwhile."""
    real_pair, real_berger = pairing_bridge.pair_next_round, services._round_robin_boards

    def slow_pair(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return real_pair(*args, **kwargs)

    def slow_berger(*args: Any, **kwargs: Any) -> Any:
        time.sleep(seconds)
        return real_berger(*args, **kwargs)

    monkeypatch.setattr(pairing_bridge, "pair_next_round", slow_pair)
    monkeypatch.setattr(services, "_round_robin_boards", slow_berger)


def _later(seconds: float, job: Callable[[], Any]) -> Callable[[], Any]:
    def run() -> Any:
        time.sleep(seconds)
        return job()
    return run


def _post_while_pairing(t: Tournament, client: Any, url: str, form: dict[str, Any]) -> Any:
    """Round 1 paired on one connection while the page read before it is posted on another; the post's
    answer (or its exception)."""
    def pair() -> Any:
        try:
            return services.round_pair(tournament=t)
        except DomainError as exc:
            return exc

    return run_together(pair, _later(0.1, lambda: client.post(url, form, follow=True)))[1]


def _deputy_client(t: Tournament, name: str) -> Client:
    deputy = get_user_model().objects.filter(username=name).first() or \
        get_user_model().objects.create_user(name, is_staff=True)
    t.deputy_arbiters.add(deputy)
    client = Client()
    client.force_login(deputy)
    return client


@pytest.mark.parametrize("system", [System.ROUND_ROBIN, System.SWISS])
def test_a_number_saved_from_a_page_read_before_round_1_is_never_saved_after_it(  # type: ignore[no-untyped-def]
        make_tournament, monkeypatch, system) -> None:
    """The deputy opened entry 4's page before round 1 and types 9; the chief pairs round 1 meanwhile. The
    number is either saved before the pairing (a round robin is then refused for the gap, a Swiss pairs on
    it) or refused: never saved under a paired round. A Swiss numbering by rating renumbers the entries
    while it pairs: the two saves cross, and neither may deadlock."""
    _slow_pairing(monkeypatch)
    failures = []
    for attempt in range(TRIES):
        t = make_tournament(4, system=system, slug=f"n{attempt}", rounds_total=3 if system == System.SWISS else None)
        if system == System.SWISS:
            t.numbering = Numbering.AUTO
            t.save(update_fields=["numbering"])
        entry = t.entries.get(pairing_number=4)
        client = _deputy_client(t, "deputy")
        url = reverse("admin:tournaments_entry_change", args=[entry.pk])
        form = scrape_form(client, url, pairing_number="9")

        response = _post_while_pairing(t, client, url, form)
        if isinstance(response, Exception) or response.status_code != 200:
            failures.append(f"{attempt}: the number's save failed: {response!r}")
            continue
        rnd = Round.objects.filter(tournament=t, number=1).first()
        numbers = sorted(t.entries.values_list("pairing_number", flat=True))
        if rnd is not None:
            # The round stands on the numbers it was paired with.
            paired_on = sorted({n for g in rnd.games.select_related("white", "black")
                                for n in (g.white.pairing_number, g.black.pairing_number if g.black else None)
                                if n is not None})
            if system == System.ROUND_ROBIN and numbers != [1, 2, 3, 4]:
                failures.append(f"{attempt}: round 1 paired, then the numbers became {numbers}")
            history = Entry.history.filter(id=entry.pk).order_by("history_date")  # type: ignore[attr-defined]
            saved_after = [h for h in history if h.history_date > rnd.history.earliest().history_date
                           and h.pairing_number == 9]
            if saved_after:
                failures.append(f"{attempt}: number 9 saved after round 1 was paired (on {paired_on})")
            page = response.content.decode()
            if 9 not in numbers and "fixed once round 1 is paired" not in page:
                failures.append(f"{attempt}: refused without saying why")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES} tries: {failures[:2]}"


def _swiss_after_round_1(make_tournament, slug: str) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(8, system=System.SWISS, slug=slug, rounds_total=5)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    for game in rnd.games.filter(black__isnull=False):
        services.game_record_result(game=game, result="1-1")
    services.round_complete(round=Round.objects.get(pk=rnd.pk))
    return t


WRITES: dict[str, Callable[[Entry], Any]] = {
    "withdraw": lambda e: roster.entry_withdraw(entry=e, after_round=1),
    "expel": lambda e: entry_expel(entry=e, after_round=1),
    "bye": lambda e: bye_request(entry=e, round_number=2, points=0),
}


@pytest.mark.parametrize("write", list(WRITES))
def test_a_write_on_an_entry_while_the_next_round_is_paired_never_deadlocks(  # type: ignore[no-untyped-def]
        make_tournament, monkeypatch, write) -> None:
    """Before, the entry's row was locked first and the tournament's (its cache version) last, while the
    pairing locks the tournament and then the entries it pairs: PostgreSQL found a deadlock and one arbiter
    got an error page. Now both wait their turn; the outcome is the rules' own (a bye asked for a round
    paired meanwhile is refused, in words)."""
    _slow_pairing(monkeypatch)
    failures = []
    for attempt in range(TRIES):
        t = _swiss_after_round_1(make_tournament, f"{write}{attempt}")
        entry = t.entries.get(pairing_number=3)

        def pair(t: Tournament = t) -> Any:
            with transaction.atomic():
                return services.round_pair(tournament=t)

        def change(e: Entry = entry) -> Any:
            with transaction.atomic():
                return WRITES[write](e)

        outcome = run_together(pair, _later(0.1, change))
        for result in outcome:
            if isinstance(result, Exception) and not isinstance(result, DomainError):
                failures.append(f"{attempt}: {type(result).__name__}: {result}")
        if not isinstance(outcome[0], Round):
            failures.append(f"{attempt}: round 2 not paired: {outcome[0]!r}")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES} tries: {failures[:2]}"


def test_the_withdraw_action_while_a_colleague_pairs_is_never_an_error_page(  # type: ignore[no-untyped-def]
        make_tournament, monkeypatch) -> None:
    """The same race over HTTP: the deputy's withdrawal through the entries' action, the chief's pairing."""
    _slow_pairing(monkeypatch)
    failures = []
    for attempt in range(TRIES):
        t = _swiss_after_round_1(make_tournament, f"w{attempt}")
        entry = t.entries.get(pairing_number=5)
        client = _deputy_client(t, "deputy")
        data = {"action": "withdraw", "_selected_action": [str(entry.pk)], "apply": "1", "after_round": "1"}
        url = reverse("admin:tournaments_entry_changelist")
        outcome = run_together(lambda t=t: services.round_pair(tournament=t),
                               _later(0.1, lambda d=data, c=client, u=url: c.post(u, d, follow=True)))
        response = outcome[1]
        if isinstance(response, Exception) or response.status_code != 200:
            failures.append(f"{attempt}: {response!r}")
        elif not Entry.objects.get(pk=entry.pk).is_withdrawn:
            failures.append(f"{attempt}: not withdrawn: {response.content.decode()[:300]}")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES} tries: {failures[:2]}"


def test_an_entry_deleted_from_a_page_read_before_round_1_is_never_deleted_under_it(  # type: ignore[no-untyped-def]
        make_tournament, monkeypatch) -> None:
    """The deputy ticks "delete" on player 4 in the tournament's entries table, read before round 1; the
    chief pairs round 1 meanwhile. Either the entry goes before the pairing (three players paired) or the
    deletion is refused in words: never an error page for a player the pairing just gave a board."""
    _slow_pairing(monkeypatch)
    failures = []
    for attempt in range(TRIES):
        # With its tie-breaks: an empty list would be offered the preset, a change asked once round 1 is paired.
        t = make_tournament(4, slug=f"d{attempt}",
                            tiebreaks=list(default_preset(System.ROUND_ROBIN, "rating").tiebreaks))
        client = _deputy_client(t, "deputy")
        url = reverse("admin:tournaments_tournament_change", args=[t.pk])
        form = scrape_form(client, url)
        row = next(k.split("-")[1] for k, v in form.items() if k.startswith("entries-") and k.endswith("-id")
                   and v == str(t.entries.get(pairing_number=4).pk))
        form[f"entries-{row}-DELETE"] = "on"

        response = _post_while_pairing(t, client, url, form)
        if isinstance(response, Exception) or response.status_code != 200:
            failures.append(f"{attempt}: {response!r}")
            continue
        rnd = Round.objects.filter(tournament=t, number=1).first()
        paired = {e for g in rnd.games.all() for e in (g.white_id, g.black_id) if e} if rnd else set()
        if rnd is not None and set(t.entries.values_list("pk", flat=True)) != paired:
            failures.append(f"{attempt}: round 1 paired on other entries than the tournament now has")
        page = response.content.decode()
        if t.entries.count() == 4 and "cannot be deleted" not in page and "protected" not in page:
            failures.append(f"{attempt}: the deletion was refused without saying why")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES} tries: {failures[:2]}"


def test_a_result_entered_while_its_player_is_withdrawn_never_deadlocks(make_tournament) -> None:  # type: ignore[no-untyped-def]
    """A withdrawal holds the tournament (as every writer takes it first) and then rewrites the player's
    later games; a result typed on one of those games meanwhile must not lock the game before the
    tournament (a circle): it waits for the tournament, then is told the board changed."""
    failures = []
    for attempt in range(TRIES):
        t = _swiss_after_round_1(make_tournament, f"r{attempt}")
        rnd = services.round_pair(tournament=t)
        services.round_publish(round=rnd)
        game = rnd.games.filter(black__isnull=False).first()

        def withdraw(t: Tournament = t, entry_id: int = game.white_id) -> Any:
            with transaction.atomic():
                list(Tournament.objects.select_for_update().filter(pk=t.pk))  # e.g. a slow pairing step first
                time.sleep(0.3)
                return roster.entry_withdraw(entry=Entry.objects.get(pk=entry_id), after_round=1)

        def result(g: Any = game) -> Any:
            with transaction.atomic():
                return services.game_record_result(game=g, result="2-0", expected_version=g.version)

        outcome = run_together(withdraw, _later(0.1, result))
        for value in outcome:
            if isinstance(value, Exception) and not isinstance(value, DomainError):
                failures.append(f"{attempt}: {type(value).__name__}: {value}")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES} tries: {failures[:2]}"


def test_two_imports_of_a_trf_under_one_slug_at_once_are_one_tournament_and_a_message(  # type: ignore[no-untyped-def]
        db, monkeypatch) -> None:
    """Two arbiters import the same file (or two files under the slug they both typed) at the same moment:
    both found the slug free; the second's tournament then waited on the first's and broke the slug's unique
    index, an IntegrityError (an error page). It is the import's own refusal in words, nothing half-written."""
    from tests.tournaments.exchange.test_trf_hostile import _file
    from tournaments.exchange import trf_import

    real_entries = trf_import._Importer._entries

    def slow_entries(self: Any, t: Tournament) -> Any:
        time.sleep(0.3)  # a big file: the first import's tournament is written, not yet committed
        return real_entries(self, t)

    monkeypatch.setattr(trf_import._Importer, "_entries", slow_entries)
    failures = []
    for attempt in range(TRIES // 2):
        slug = f"same{attempt}"

        def load(s: str = slug) -> Any:
            with transaction.atomic():
                return trf_import.import_trf(_file(), slug=s)

        outcome = run_together(load, _later(0.05, load))
        errors = [r for r in outcome if isinstance(r, Exception)]
        if len(errors) != 1 or not isinstance(errors[0], DomainError):
            failures.append(f"{attempt}: {[type(r).__name__ for r in outcome]}: {errors[:1]}")
        if Tournament.objects.filter(slug=slug).count() != 1:
            failures.append(f"{attempt}: {Tournament.objects.filter(slug=slug).count()} tournaments")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES // 2} tries: {failures[:2]}"


def test_two_arbiters_saving_the_same_round_page_at_once_lose_nothing_typed(  # type: ignore[no-untyped-def]
        make_tournament, monkeypatch) -> None:
    """Both pages were read at the same versions and pass the form's check; the first saves, the second's
    service finds the board changed (StaleEditError). That refusal came back as a redirect to an empty page:
    every result the second arbiter had typed was gone. Now his page comes back with what he typed."""
    from tests.tournaments.admin.test_round_entry import form_in
    from tournaments.models import Game

    real = services.game_record_result

    def slow_result(**kwargs: Any) -> Any:
        time.sleep(0.2)  # a round of many boards: the other arbiter's save lands meanwhile
        return real(**kwargs)

    monkeypatch.setattr(services, "game_record_result", slow_result)

    def stored_boards(rnd: Round) -> list[int]:
        return list(Game.objects.filter(round=rnd, black__isnull=False).values_list("board", flat=True))

    failures = []
    for attempt in range(TRIES // 2):
        t = make_tournament(4, slug=f"page{attempt}")
        rnd = services.round_pair(tournament=t)
        services.round_publish(round=rnd)
        url = reverse("admin:tournaments_round_change", args=[rnd.pk])
        posts = []
        for name, typed in (("first", "2-0"), ("second", "0-2")):
            client = _deputy_client(t, name)
            page = client.get(url).content.decode()
            boards = [k[:-len("-result")] for k in form_in(page) if k.startswith("games-") and k.endswith("-result")]
            posts.append((client, form_in(page, **{f"{b}-result": typed for b in boards}, _continue="1"), typed))
        outcome = run_together(*[lambda c=c, d=d, u=url: c.post(u, d) for c, d, _typed in posts])
        stored = set(Game.objects.filter(round=rnd).values_list("result", flat=True))
        for (_client, _data, typed), response in zip(posts, outcome, strict=True):
            if isinstance(response, Exception):
                failures.append(f"{attempt}: {response!r}")
            elif stored != {typed}:  # the other arbiter's save won: his page comes back with what he typed
                page = response.content.decode()
                kept = page.count(f'<option value="{typed}" selected>')
                if response.status_code != 200 or kept != len(stored_boards(rnd)):
                    failures.append(f"{attempt}: {typed} neither saved nor kept on the page "
                                    f"({response.status_code}, {kept} board(s) kept)")
                elif "changed by someone else" not in page:
                    failures.append(f"{attempt}: the page does not say why nothing was saved")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES // 2} tries: {failures[:2]}"


def test_two_arbiters_adding_a_tournament_under_one_slug_at_once_get_the_form_back(arbiter) -> None:  # type: ignore[no-untyped-def]
    """Both forms found the slug free; the second's row then broke the slug's unique index after the first
    committed: an IntegrityError, an error page. Now the second gets his form back, as typed, saying why."""
    failures = []
    url = reverse("admin:tournaments_tournament_add")
    for attempt in range(TRIES // 2):
        clients = []
        for _ in range(2):
            client = Client()
            client.force_login(arbiter)
            clients.append(client)
        typed = [scrape_form(c, url, name=f"Same {attempt}", slug=f"same{attempt}", rounds_total="5",
                             venue=f"Hall {i}") for i, c in enumerate(clients)]
        outcome = run_together(*[lambda c=c, d=d: c.post(url, d) for c, d in zip(clients, typed, strict=True)])
        codes = sorted(getattr(r, "status_code", 0) for r in outcome)
        if codes != [200, 302]:
            failures.append(f"{attempt}: {[r if isinstance(r, Exception) else r.status_code for r in outcome]}")
            continue
        page = next(r for r in outcome if r.status_code == 200).content.decode()
        if "already exists" not in page or 'value="Hall ' not in page:
            failures.append(f"{attempt}: the form came back without saying why or without what was typed")
        if Tournament.objects.filter(slug=f"same{attempt}").count() != 1:
            failures.append(f"{attempt}: not one tournament")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES // 2} tries: {failures[:2]}"


@pytest.mark.parametrize("way", ["delete page", "bulk action"])
def test_a_draft_round_deleted_while_a_colleague_publishes_it_is_a_refusal_not_an_error_page(  # type: ignore[no-untyped-def]
        make_tournament, admin_user, monkeypatch, way) -> None:
    """The delete page checked the round (a draft: deletable) before the colleague published it; the
    deletion's own guard (tournaments.rounds.deletion) then refused it, uncaught: an error page. It is the
    refusal in words, the round kept."""
    from django.contrib.admin import ModelAdmin

    real_one, real_many = ModelAdmin.delete_model, ModelAdmin.delete_queryset

    def slow_one(self: Any, request: Any, obj: Any) -> Any:
        time.sleep(0.3)  # the page's check is done; the colleague publishes meanwhile
        return real_one(self, request, obj)

    def slow_many(self: Any, request: Any, queryset: Any) -> Any:
        time.sleep(0.3)
        return real_many(self, request, queryset)

    monkeypatch.setattr(ModelAdmin, "delete_model", slow_one)
    monkeypatch.setattr(ModelAdmin, "delete_queryset", slow_many)
    failures = []
    for attempt in range(TRIES // 3):
        t = make_tournament(4, slug=f"del{attempt}")
        rnd = services.round_pair(tournament=t)
        client = Client()
        client.force_login(admin_user)
        if way == "delete page":
            url, data = reverse("admin:tournaments_round_delete", args=[rnd.pk]), {"post": "yes"}
        else:
            url = reverse("admin:tournaments_round_changelist")
            data = {"action": "delete_selected", "_selected_action": [str(rnd.pk)], "post": "yes"}

        def publish(r: Round = rnd) -> Any:
            with transaction.atomic():
                return services.round_publish(round=Round.objects.get(pk=r.pk))

        outcome = run_together(lambda u=url, d=data, c=client: c.post(u, d, follow=True), _later(0.1, publish))
        response = outcome[0]
        if isinstance(response, Exception) or response.status_code != 200:
            failures.append(f"{attempt}: {response!r}")
        elif not Round.objects.filter(pk=rnd.pk).exists():
            if isinstance(outcome[1], Round):
                failures.append(f"{attempt}: a published round was deleted")
        elif "published" not in response.content.decode():
            failures.append(f"{attempt}: refused without saying why")
    assert not failures, f"{len({f.split(':')[0] for f in failures})} of {TRIES // 3} tries: {failures[:2]}"
