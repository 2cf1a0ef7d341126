"""The role matrix: every write endpoint and admin action, against every role.

Roles: anonymous, a staff user arbitrating nothing, the arbiter of another tournament, the deputy
and the chief arbiter of tournament A, a superuser. Each ENDPOINTS line names one write: how to
prepare it, the request, the state it changes, and which roles may make it. A refused request
must leave the state exactly as it was and never be a server error; an allowed one must change it.
Adding an endpoint is adding one line to ENDPOINTS (or READS for pages that only show data).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import NoReverseMatch, reverse

from tests.tournaments.conftest import play_round
from tournaments import services
from tournaments.models import Entry, Game, Player, Round, Tournament

ROLES = ("anonymous", "staff", "other_arbiter", "deputy", "chief", "superuser")
ARBITERS = frozenset({"deputy", "chief", "superuser"})
SUPERUSER = frozenset({"superuser"})
NOBODY: frozenset[str] = frozenset()


@dataclass
class World:
    a: Tournament
    b: Tournament
    users: dict[str, Any]
    extra: dict[str, Any] = field(default_factory=dict)

    def client(self, role: str) -> Client:
        c = Client()
        if role != "anonymous":
            c.force_login(self.users[role])
        return c

    def round(self, number: int = 1) -> Round:
        return Round.objects.get(tournament=self.a, number=number)

    def entry(self, number: int = 1) -> Entry:
        return Entry.objects.get(tournament=self.a, pairing_number=number)


@pytest.fixture
def world(make_tournament, arbiter) -> World:  # type: ignore[no-untyped-def]
    user_model = get_user_model()
    users = {
        "chief": arbiter,
        # No passwords (force_login): hashing five of them per test would dominate the matrix's time.
        "deputy": user_model.objects.create_user("deputy", is_staff=True),
        "other_arbiter": user_model.objects.create_user("other", is_staff=True),
        "staff": user_model.objects.create_user("staff", is_staff=True),
        "superuser": user_model.objects.create_superuser("root", email=None, password=None),
    }
    a = make_tournament(4, slug="a")
    a.deputy_arbiters.add(users["deputy"])
    b = make_tournament(4, slug="b")
    b.chief_arbiter = users["other_arbiter"]
    b.save()
    return World(a=a, b=b, users=users)


# --- Building requests -----------------------------------------------------------------------


class _FormScraper(HTMLParser):
    """The values a browser would submit from the page's main form (inputs, selects, textareas)."""

    def __init__(self) -> None:
        super().__init__()
        self.data: dict[str, list[str]] = {}
        self._select: str | None = None
        self._textarea: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        name = a.get("name")
        if tag == "input" and name and a.get("type") not in {"submit", "button", "file", "image"}:
            if a.get("type") in {"checkbox", "radio"} and "checked" not in a:
                return
            self.data.setdefault(name, []).append(a.get("value", "on" if a.get("type") == "checkbox" else ""))
        elif tag == "select" and name:
            self._select = name
            self.data.setdefault(name, [])
        elif tag == "option" and self._select and "selected" in a:
            self.data[self._select].append(a.get("value", ""))
        elif tag == "textarea" and name:
            self._textarea = name
            self.data[name] = [""]

    def handle_endtag(self, tag: str) -> None:
        if tag == "select":
            self._select = None
        elif tag == "textarea":
            self._textarea = None

    def handle_data(self, data: str) -> None:
        if self._textarea:
            self.data[self._textarea][0] += data.lstrip("\n") if not self.data[self._textarea][0] else data


def form_data(w: World, url: str, **overrides: object) -> dict[str, Any]:
    """The change form as the superuser sees it, with some fields changed: a valid POST for anyone."""
    page = w.client("superuser").get(url)
    assert page.status_code == 200, f"{url}: {page.status_code}"
    scraper = _FormScraper()
    scraper.feed(page.content.decode())
    data: dict[str, Any] = {k: v if len(v) != 1 else v[0] for k, v in scraper.data.items()}
    data.pop("csrfmiddlewaretoken", None)
    data.update({k: str(v) if not isinstance(v, list) else v for k, v in overrides.items()})
    return data


def change_url(obj: object) -> str:
    meta = obj._meta  # type: ignore[attr-defined]
    return reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])  # type: ignore[attr-defined]


def changelist_url(model: type) -> str:
    return reverse(f"admin:tournaments_{model._meta.model_name}_changelist")  # type: ignore[attr-defined]


def action(model: type, name: str, objs: Callable[[World], list[Any]], **extra: object) -> Callable[[World],
                                                                                                     tuple[str, dict]]:
    def build(w: World) -> tuple[str, dict[str, Any]]:
        return changelist_url(model), {"action": name, "_selected_action": [str(o.pk) for o in objs(w)],
                                       "index": "0", **{k: str(v) for k, v in extra.items()}}

    return build


def change_form(obj: Callable[[World], Any], **overrides: Callable[[World], object] | object) -> Callable[
        [World], tuple[str, dict]]:
    def build(w: World) -> tuple[str, dict[str, Any]]:
        url = change_url(obj(w))
        values = {k: v(w) if callable(v) else v for k, v in overrides.items()}
        return url, {**form_data(w, url, **values), "_save": "Save"}

    return build


def csv_upload(text: Callable[[World], str], tournament: bool) -> Callable[[World], tuple[str, dict]]:
    def build(w: World) -> tuple[str, dict[str, Any]]:
        data: dict[str, Any] = {"file": SimpleUploadedFile("players.csv", text(w).encode(), "text/csv")}
        if tournament:
            data["tournament"] = str(w.a.pk)
        return reverse("admin:tournaments_player_import"), data

    return build


# --- Preparing the tournament ----------------------------------------------------------------


def paired(w: World) -> None:
    services.round_pair(tournament=w.a)


def published(w: World) -> None:
    services.round_publish(round=services.round_pair(tournament=w.a))


def all_results_in(w: World) -> None:
    play_round(w.a, complete=False)


def completed(w: World) -> None:
    play_round(w.a)


def ratings_reversed(w: World) -> None:
    for e in w.a.entries.select_related("player"):
        e.player.rating = 1000 + 10 * e.pairing_number
        e.player.save()


def a_free_player(w: World) -> None:
    w.extra["free"] = Player.objects.create(surname="Newcomer", fmjd_id=777001)


# --- The matrix ------------------------------------------------------------------------------


def results(w: World) -> object:
    return sorted(Game.objects.filter(round__tournament=w.a).values_list("board", "result", "version"))


def round_states(w: World) -> object:
    return sorted(w.a.rounds.values_list("number", "status"))


def entries(w: World) -> object:
    return sorted(w.a.entries.values_list("player_id", "pairing_number", "status", "withdrawn_after_round"))


def players(w: World) -> object:
    return sorted(Player.objects.values_list("id", "surname", "rating", "fmjd_id"))


@dataclass(frozen=True)
class Endpoint:
    name: str
    request: Callable[[World], tuple[str, dict[str, Any]]]
    state: Callable[[World], object]
    allowed: frozenset[str] = ARBITERS
    setup: Callable[[World], None] = lambda w: None


ENDPOINTS = [
    Endpoint("round page: enter results", change_form(lambda w: w.round(1), **{"games-0-result": "2-0"}),
             results, setup=published),
    Endpoint("round page: change the date", change_form(lambda w: w.round(1), date="2026-01-02"),
             lambda w: w.round(1).date, setup=published),
    Endpoint("round action: publish", action(Round, "publish", lambda w: [w.round(1)]), round_states, setup=paired),
    Endpoint("round action: complete", action(Round, "complete", lambda w: [w.round(1)]), round_states,
             setup=all_results_in),
    Endpoint("round action: reopen", action(Round, "reopen", lambda w: [w.round(1)]), round_states, setup=completed),
    Endpoint("round action: delete draft", action(Round, "delete_draft", lambda w: [w.round(1)]), round_states,
             setup=paired),
    Endpoint("round: history revert (never)", lambda w: (
        reverse("admin:tournaments_round_simple_history",
                args=[w.round(1).pk, w.round(1).history.earliest("history_date").history_id]),
        {"date": "2026-03-03"}), lambda w: w.round(1).date, allowed=NOBODY, setup=published),
    Endpoint("tournament action: pair next round", action(Tournament, "pair_next_round", lambda w: [w.a]),
             round_states),
    Endpoint("tournament action: number by rating", action(Tournament, "number_by_rating", lambda w: [w.a]),
             entries, setup=ratings_reversed),
    Endpoint("tournament page: change", change_form(lambda w: w.a, name="Renamed"),
             lambda w: Tournament.objects.get(pk=w.a.pk).name),
    Endpoint("tournament page: add a deputy", change_form(lambda w: w.a, deputy_arbiters=lambda w: [
        str(w.users["deputy"].pk), str(w.users["staff"].pk)]),
        lambda w: sorted(w.a.deputy_arbiters.values_list("username", flat=True))),
    Endpoint("tournament: delete", lambda w: (reverse("admin:tournaments_tournament_delete", args=[w.a.pk]),
                                              {"post": "yes"}),
             lambda w: Tournament.objects.filter(pk=w.a.pk).exists(), allowed=SUPERUSER),
    Endpoint("entry page: change pairing number", change_form(lambda w: w.entry(4), pairing_number="9"), entries),
    Endpoint("entry page: move to another tournament", change_form(lambda w: w.entry(4), tournament=lambda w: w.b.pk,
                                                                  pairing_number="9"),
             entries, allowed=SUPERUSER),
    Endpoint("entry: add to tournament A", lambda w: (reverse("admin:tournaments_entry_add"), {
        "tournament": str(w.a.pk), "player": str(w.extra["free"].pk), "pairing_number": "5", "_save": "Save"}),
        entries, setup=a_free_player),
    Endpoint("entry action: withdraw", action(Entry, "withdraw", lambda w: [w.entry(2)], apply=1, after_round=0),
             entries),
    Endpoint("player page: change a player of A", change_form(lambda w: w.entry(1).player, rating="1234"), players),
    Endpoint("player CSV import into A", csv_upload(lambda w: "surname,fmjd_id,rating\nNewcomer,777002,1500\n",
                                                    True), entries),
    Endpoint("player CSV import updating a player of A", csv_upload(
        lambda w: f"surname,fmjd_id,rating\nPlayer01,{w.entry(1).player.fmjd_id},1500\n", False), players),
]


def refused(status: int, role: str) -> bool:
    # The admin answers a refusal with 403, a redirect (to the login page, or to the index for an object
    # outside the arbiter's scope) or the form again with the error; what matters is the unchanged state.
    return status in {200, 302, 403, 404} if role != "anonymous" else status == 302


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("endpoint", ENDPOINTS, ids=[e.name for e in ENDPOINTS])
def test_write_matrix(world: World, endpoint: Endpoint, role: str) -> None:
    endpoint.setup(world)
    url, data = endpoint.request(world)
    before = endpoint.state(world)
    response = world.client(role).post(url, data)
    after = endpoint.state(world)
    assert response.status_code < 500
    if role in endpoint.allowed:
        assert response.status_code in {200, 302}, response.content.decode()[:1500]
        assert after != before, f"{role} should be able to: {endpoint.name} (status {response.status_code})"
    else:
        assert after == before, f"{role} must not be able to: {endpoint.name}"
        assert refused(response.status_code, role), response.status_code
        if role == "anonymous":
            assert "/login/" in response["Location"]


# --- Pages that only read: arbiters' pages stay private --------------------------------------


@dataclass(frozen=True)
class Read:
    name: str
    url: Callable[[World], str]
    allowed: frozenset[str] = ARBITERS
    setup: Callable[[World], None] = completed


def _history(model: str, obj: Callable[[World], Any]) -> Callable[[World], str]:
    return lambda w: reverse(f"admin:tournaments_{model}_history", args=[obj(w).pk])


READS = [
    Read("round page", lambda w: change_url(w.round(1))),
    Read("game page", lambda w: change_url(w.round(1).games.first())),
    Read("entry page", lambda w: change_url(w.entry(1))),
    Read("tournament page", lambda w: change_url(w.a)),
    Read("admin standings", lambda w: reverse("admin:tournaments_tournament_standings", args=[w.a.pk])),
    Read("round history", _history("round", lambda w: w.round(1))),
    Read("game history", _history("game", lambda w: w.round(1).games.first())),
    Read("entry history", _history("entry", lambda w: w.entry(1))),
    Read("tournament history", _history("tournament", lambda w: w.a)),
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("read", READS, ids=[r.name for r in READS])
def test_read_matrix(world: World, read: Read, role: str) -> None:
    read.setup(world)
    try:
        url = read.url(world)
    except NoReverseMatch:
        pytest.skip(f"{read.name}: not there yet")
    response = world.client(role).get(url)
    assert response.status_code < 500
    if role in read.allowed:
        assert response.status_code == 200
    else:
        assert response.status_code in {302, 403, 404}
        if response.status_code == 302:
            assert response["Location"] != url and not response["Location"].startswith(url)


def test_an_arbiter_lists_only_his_tournaments_objects(world: World) -> None:
    completed(world)
    page = world.client("other_arbiter").get(changelist_url(Game))
    assert page.status_code == 200
    assert page.context["cl"].result_count == 0
    page = world.client("deputy").get(changelist_url(Game))
    assert page.context["cl"].result_count == world.round(1).games.count()


def test_the_entry_form_offers_only_the_arbiters_tournaments(world: World) -> None:
    page = world.client("other_arbiter").get(reverse("admin:tournaments_entry_add"))
    offered = list(page.context["adminform"].form.fields["tournament"].queryset)
    assert offered == [world.b]


def test_csv_import_refusal_names_the_players(world: World) -> None:
    text = f"surname,fmjd_id,rating\nPlayer01,{world.entry(1).player.fmjd_id},1500\n"
    page = world.client("other_arbiter").post(reverse("admin:tournaments_player_import"),
                                              {"file": SimpleUploadedFile("p.csv", text.encode())}, follow=True)
    assert "tournaments you are not an arbiter of" in page.content.decode()


def test_the_history_of_a_round_is_read_only_even_for_its_chief(world: World) -> None:
    published(world)
    rnd = world.round(1)
    record = rnd.history.earliest("history_date")
    url = reverse("admin:tournaments_round_simple_history", args=[rnd.pk, record.history_id])
    assert world.client("chief").get(url).status_code == 200
    assert world.client("chief").post(url, {"date": "2026-03-03"}).status_code == 403
    assert Round.objects.get(pk=rnd.pk).date is None
