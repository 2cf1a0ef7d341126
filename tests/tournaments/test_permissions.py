"""The role matrix: every write endpoint and admin action, against every role.

Roles: anonymous, a staff user arbitrating nothing, the arbiter of another tournament, the deputy
and the chief arbiter of tournament A, a superuser. Each ENDPOINTS line names one write: how to
prepare it, the request, the state it changes, and which roles may make it. A refused request
must leave the state exactly as it was and never be a server error; an allowed one must change it.
Adding an endpoint is adding one line to ENDPOINTS (or READS, EXPORTS in test_permissions_pages).
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
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.models import CheckIn, Entry, ForbiddenPair, Game, GameSheet, Player, Round, Tournament
from tournaments.players.enter import entry_version
from tournaments.rounds import services

ROLES = ("anonymous", "staff", "other_arbiter", "deputy", "chief", "superuser")
ARBITERS = frozenset({"deputy", "chief", "superuser"})
STAFF = frozenset({"staff", "other_arbiter", "deputy", "chief", "superuser"})
SUPERUSER = frozenset({"superuser"})
CHIEF = frozenset({"chief", "superuser"})  # who arbitrates is the chief's decision, not a deputy's
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
    return scrape_form(w.client("superuser"), url, **overrides)


def scrape_form(client: Client, url: str, **overrides: object) -> dict[str, Any]:
    """The form a browser would post from this page for this client, with some fields changed."""
    page = client.get(url)
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


def board_1_agreed(w: World) -> None:
    """Round 1 published, both players of board 1 report 2-0 with a game the moves confirm."""
    from tournaments.boards import codes, reports

    published(w)
    codes.codes_issue(tournament=w.a)
    game = w.round(1).games.get(board=1)
    for entry in (game.white, game.black):
        reports.report_submit(code=codes.live_code(entry), sent=reports.Sent(
            result="2-0", pdn=b'[FEN "W:W28:B23"]\n1. 28x19 2-0\n'), address="10.0.0.1")


def live_codes(w: World) -> object:
    from tournaments.models import BoardCode

    return sorted(BoardCode.objects.filter(entry__tournament=w.a, revoked_at=None).values_list("token", flat=True))


def all_results_in(w: World) -> None:
    play_round(w.a, complete=False)


def completed(w: World) -> None:
    play_round(w.a)


def ratings_reversed(w: World) -> None:
    for e in w.a.entries.all():
        e.rating = 1000 + 10 * e.pairing_number  # the ratings the tournament holds
        e.save(update_fields=["rating"])  # a service's field, set here directly


def a_free_player(w: World) -> None:
    w.extra["free"] = Player.objects.create(surname="Newcomer", fmjd_id=777001)


def sheet_pdn(game: Game, result: str) -> str:
    return (f'[Round "{game.round.number}"]\n[White "{game.white.player.full_name}"]\n'
            f'[Black "{game.black.player.full_name}"]\n[Result "{result}"]\n\n1. 32-28 19-23 2. 28x19 14x23 {result}\n')


def game1(w: World) -> Game:
    return w.round(1).games.select_related("white__player", "black__player", "round").get(board=1)


def a_sheet_that_disagrees(w: World) -> None:
    from tournaments import sheets

    play_round(w.a, {1: "2-0"}, complete=False)
    sheets.sheet_upload(game=game1(w), data=sheet_pdn(game1(w), "0-2"), source_name="b1.pdn")


def a_round_preview(w: World) -> None:
    from tournaments import sheets
    from tournaments.admin.sheets import _pack

    play_round(w.a, complete=False)
    preview = sheets.round_import_preview(round=w.round(1), data=sheet_pdn(game1(w), "1-1"), source_name="r1.pdn")
    w.extra["payload"] = _pack(w.round(1), preview, False)


def sheets_of_a(w: World) -> object:
    return sorted(GameSheet.objects.filter(game__round__tournament=w.a).values_list("game__board", "status"))


# --- The matrix ------------------------------------------------------------------------------


def pairings(w: World) -> object:
    return sorted(Game.objects.filter(round__tournament=w.a).values_list("board", "white_id", "black_id"))


def swapped_colours(w: World) -> dict[str, Any]:
    game = w.round(1).games.get(board=1)
    # not the Berger table's round: the round robin's guard asks, and this arbiter has ticked its box
    return {"games-0-white": str(game.black_id), "games-0-black": str(game.white_id),
            "confirmed": ["schedule-by-hand"]}


def results(w: World) -> object:
    return sorted(Game.objects.filter(round__tournament=w.a).values_list("board", "result", "version"))


def round_states(w: World) -> object:
    return sorted(w.a.rounds.values_list("number", "status"))


def entries(w: World) -> object:
    return sorted(w.a.entries.values_list("player_id", "pairing_number", "status", "withdrawn_after_round"))


def a_twin(w: World) -> None:
    w.extra["twin"] = Player.objects.create(surname="Player01", given_name="T.")


def merge_twin(w: World) -> tuple[str, dict[str, Any]]:
    from tournaments.players.merge import fingerprint

    kept, twin = w.entry(1).player, w.extra["twin"]
    return (reverse("admin:tournaments_player_merge", args=[kept.pk, twin.pk]),
            {"version": fingerprint(kept, twin), "confirm": "1"})


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
    Endpoint("round page: re-pair a draft", lambda w: change_form(lambda w: w.round(1), **swapped_colours(w))(w),
             pairings, setup=paired),
    Endpoint("round action: delete selected", action(Round, "delete_selected", lambda w: [w.round(1)], post="yes"),
             round_states, allowed=SUPERUSER, setup=paired),
    # A played round is the record: nobody deletes it (tournaments/rounds/deletion.py).
    Endpoint("round action: delete selected, completed", action(Round, "delete_selected", lambda w: [w.round(1)],
                                                                post="yes"), round_states, allowed=frozenset(),
             setup=completed),
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
        # The chief picks among his colleagues; "staff" (who arbitrates nothing with him) is not offered
        lambda w: sorted(w.a.deputy_arbiters.values_list("username", flat=True)), allowed=SUPERUSER),
    Endpoint("tournament page: change the chief arbiter", change_form(lambda w: w.a, chief_arbiter=lambda w: w.users[
        "deputy"].pk), lambda w: Tournament.objects.get(pk=w.a.pk).chief_arbiter_id, allowed=CHIEF),
    Endpoint("tournament page: remove an entry (no games yet)", change_form(lambda w: w.a, **{
        "entries-3-DELETE": "on"}), entries),
    Endpoint("tournament page: remove an entry that has games", change_form(lambda w: w.a, **{
        "entries-0-DELETE": "on"}), entries, allowed=NOBODY, setup=completed),
    Endpoint("tournament page: add a forbidden pair", lambda w: change_form(lambda w: w.a, **{
        "forbidden_pairs-TOTAL_FORMS": "1", "forbidden_pairs-0-first": str(w.entry(1).pk),
        "forbidden_pairs-0-second": str(w.entry(2).pk), "forbidden_pairs-0-reason": "same club"})(w),
        lambda w: list(ForbiddenPair.objects.filter(tournament=w.a).values_list("first_id", "second_id"))),
    Endpoint("tournament: add (its creator becomes chief)", lambda w: (reverse("admin:tournaments_tournament_add"), {
        **form_data(w, reverse("admin:tournaments_tournament_add")), "name": "New", "slug": "new",
        "system": "round_robin", "bye_points": "2", "swiss_order": "rating", "_save": "Save"}),
        lambda w: list(Tournament.objects.filter(slug="new").values_list("slug", flat=True)), allowed=STAFF),
    Endpoint("tournament action: delete selected", action(Tournament, "delete_selected", lambda w: [w.a],
                                                          post="yes"),
             lambda w: Tournament.objects.filter(pk=w.a.pk).exists(), allowed=SUPERUSER),
    Endpoint("tournament: delete", lambda w: (reverse("admin:tournaments_tournament_delete", args=[w.a.pk]),
                                              {"post": "yes"}),
             lambda w: Tournament.objects.filter(pk=w.a.pk).exists(), allowed=SUPERUSER),
    Endpoint("entry page: change pairing number", change_form(lambda w: w.entry(4), pairing_number="9"), entries),
    Endpoint("entry page: move to another tournament", change_form(lambda w: w.entry(4), tournament=lambda w: w.b.pk,
                                                                  pairing_number="9"),
             # An entry stays in its tournament (its games, pairs, history are there), for everyone
             lambda w: Entry.objects.filter(tournament=w.b).count(), allowed=NOBODY),
    Endpoint("entry: add to tournament A", lambda w: (reverse("admin:tournaments_entry_add"), {
        "tournament": str(w.a.pk), "player": str(w.extra["free"].pk), "pairing_number": "5", "_save": "Save"}),
        entries, setup=a_free_player),
    Endpoint("entry action: delete selected", action(Entry, "delete_selected", lambda w: [w.entry(4)], post="yes"),
             entries, allowed=SUPERUSER),
    Endpoint("entry action: withdraw", action(Entry, "withdraw", lambda w: [w.entry(2)], apply=1, after_round=0),
             entries),
    Endpoint("entry action: expel", action(Entry, "expel", lambda w: [w.entry(2)], apply=1, after_round=0), entries),
    Endpoint("entry action: grant a requested bye",
             action(Entry, "grant_bye", lambda w: [w.entry(2)], apply=1, round_number=1, points=0),
             lambda w: sorted(w.a.entries.values_list("pk", "excused_rounds")),
             setup=lambda w: Tournament.objects.filter(pk=w.a.pk).update(system="swiss", rounds_total=5)),
    Endpoint("game sheet: upload", lambda w: (reverse("admin:tournaments_game_sheet", args=[game1(w).pk]),
                                              {"text": sheet_pdn(game1(w), "1-1")}), sheets_of_a,
             setup=lambda w: play_round(w.a, complete=False)),
    Endpoint("game sheet: accept its result", lambda w: (
        reverse("admin:tournaments_game_sheet", args=[game1(w).pk]), {"accept": "1", "version": game1(w).version}),
        results, setup=a_sheet_that_disagrees),
    # The action's confirmation step carries each game's version, as its own page would post it.
    Endpoint("game action: accept the sheet's result", lambda w: (changelist_url(Game), {
        "action": "accept_sheet_result", "_selected_action": [str(game1(w).pk)], "index": "0",
        "confirm_accept": "1", f"version-{game1(w).pk}": str(Game.objects.get(pk=game1(w).pk).version)}),
        results, setup=a_sheet_that_disagrees),
    Endpoint("round sheets: confirm the upload", lambda w: (
        reverse("admin:tournaments_round_sheets", args=[w.round(1).pk]),
        {"confirm": "1", "payload": w.extra["payload"]}), sheets_of_a, setup=a_round_preview),
    Endpoint("game action: delete selected", action(Game, "delete_selected", lambda w: [game1(w)], post="yes"),
             results, allowed=SUPERUSER, setup=paired),
    Endpoint("game action: delete selected, published", action(Game, "delete_selected", lambda w: [game1(w)],
                                                               post="yes"), results, allowed=frozenset(),
             setup=published),
    Endpoint("player: add", lambda w: (reverse("admin:tournaments_player_add"), {
        "surname": "Added", "given_name": "", "federation": "", "title": "", "club": "", "_save": "Save"}),
        players, allowed=STAFF),
    Endpoint("player action: delete selected", action(Player, "delete_selected", lambda w: [w.extra["free"]],
                                                      post="yes"),
             players, allowed=SUPERUSER, setup=a_free_player),
    Endpoint("player page: change a player of A", change_form(lambda w: w.entry(1).player, rating="1234"), players),
    Endpoint("players: merge a record of A with its twin", merge_twin, players, allowed=ARBITERS,
             setup=a_twin),
    Endpoint("player CSV import into A", csv_upload(lambda w: "surname,fmjd_id,rating\nNewcomer,777002,1500\n",
                                                    True), entries),
    Endpoint("player CSV import updating a player of A", csv_upload(
        lambda w: f"surname,fmjd_id,rating\nPlayer01,{w.entry(1).player.fmjd_id},1500\n", False), players),
]


def step(name: str, number: int = 1, **extra: object) -> Callable[[World], tuple[str, dict]]:
    """A POST of the control room's next-step button, carrying the round's version as the page read it."""
    def build(w: World) -> tuple[str, dict[str, Any]]:
        rnd = Round.objects.filter(tournament=w.a, number=number).first()
        return reverse("admin:tournaments_tournament_step", args=[w.a.pk]), {
            "step": name, "round": str(number), "version": str(rnd.version if rnd else 0),
            **{k: str(v) for k, v in extra.items()}}

    return build


def round_rows(w: World) -> object:
    return sorted(w.a.rounds.values_list("pk", "number", "status"))


def numbering(w: World) -> object:
    t = Tournament.objects.get(pk=w.a.pk)
    return (t.numbering, t.numbering_seed, entries(w))


def schedule_rows(w: World) -> object:
    return sorted(w.a.schedule.values_list("number", "date", "start_time"))


def checkin_on(w: World) -> None:
    Tournament.objects.filter(pk=w.a.pk).update(checkin_enabled=True)


def checkin_opened(w: World) -> None:
    Tournament.objects.filter(pk=w.a.pk).update(checkin_enabled=True, checkin_round=1, checkin_code="ACDEF")


def checkin_state(w: World) -> object:
    t = Tournament.objects.get(pk=w.a.pk)
    return (t.checkin_round, t.checkin_code, sorted(CheckIn.objects.filter(entry__tournament=t).values_list(
        "entry_id", "round_number")))


ENDPOINTS += [
    Endpoint("control room: plan the rounds", lambda w: (
        reverse("admin:tournaments_tournament_schedule_fill", args=[w.a.pk]),
        {"first_date": "2026-11-14", "start_times": "14:00", "rest_days": "0"}), schedule_rows),
    Endpoint("control room: pair round 1", step("pair"), round_rows),
    Endpoint("control room: publish", step("publish"), round_rows, setup=paired),
    Endpoint("control room: complete", step("complete"), round_rows, setup=all_results_in),
    Endpoint("control room: take back to draft", step("unpublish", confirmed=1), round_rows, setup=published),
    Endpoint("control room: delete and pair again", step("pair_again"), round_rows, setup=paired),
    Endpoint("control room: number by rating", step("number"), numbering, setup=ratings_reversed),
    Endpoint("control room: draw lots", step("draw"), numbering),
    Endpoint("control room: keep the numbers", step("keep"), numbering),
    # Check-in before a round (tournaments/hall/checkin.py): opening it, and one player marked present.
    Endpoint("check-in: open", lambda w: (reverse("admin:tournaments_tournament_checkin", args=[w.a.pk]),
                                          {"action": "open"}), checkin_state, setup=checkin_on),
    Endpoint("check-in: mark a player present", lambda w: (
        reverse("admin:tournaments_tournament_checkin_mark", args=[w.a.pk]),
        {"mark": f"{w.entry(1).pk}:1", "round": "1"}), checkin_state, setup=checkin_opened),
    # Entering players by keyboard (tournaments/admin/enter_players.py): a person in no list, made and entered.
    Endpoint("enter players: a new player", lambda w: (
        reverse("admin:tournaments_tournament_enter_players", args=[w.a.pk]),
        {"action": "new", "surname": "Newcomer", "given_name": "Ann", "version": entry_version(w.a)}), entries),
    # Leaving the conformance mode on purpose, confirmed.
    Endpoint("round page: confirm the agreed boards", lambda w: (
        reverse("admin:tournaments_round_confirm_agreed", args=[w.round(1).pk]), {}), results, setup=board_1_agreed),
    Endpoint("players' codes: issue", lambda w: (reverse("admin:tournaments_round_codes", args=[w.round(1).pk]),
                                                 {"issue": "1"}), live_codes, setup=published),
    Endpoint("leave the conformance mode", lambda w: (
        reverse("admin:tournaments_tournament_leave_conformance", args=[w.a.pk]), {"confirmed": "left-mode"}),
        lambda w: Tournament.objects.get(pk=w.a.pk).conformance_left_round),
]


# --- A team competition arbitrated by A's arbiters: its line-up screen (tournaments/admin/team_lineups.py) ----


def team_league(w: World) -> None:
    """A 4-team, 2-board league whose tournament has A's chief and deputy, its schedule made."""
    from tests.tournaments.competitions.factory import competition
    from tournaments.competitions import setup

    comp = competition(teams=4, boards=2, reserves=0, slug="teams")
    Tournament.objects.filter(pk=comp.tournament_id).update(chief_arbiter=w.users["chief"])
    comp.tournament.deputy_arbiters.add(w.users["deputy"])
    setup.schedule_make(competition=comp)
    comp.refresh_from_db()
    w.extra["team"] = comp


def team_lined_up(w: World) -> None:
    from tests.tournaments.competitions.factory import line_up_round

    team_league(w)
    line_up_round(w.extra["team"], 1)
    w.extra["team"].refresh_from_db()


def team_published(w: World) -> None:
    from tournaments.competitions import lineups

    team_lined_up(w)
    lineups.round_publish(competition=w.extra["team"], number=1)
    w.extra["team"].refresh_from_db()


def team_screen(w: World) -> str:
    return reverse("admin:tournaments_tournament_team_round", args=[w.extra["team"].tournament_id, 1])


def team_match_post(w: World) -> tuple[str, dict[str, Any]]:
    match = w.extra["team"].matches.get(round_number=1, table=1)
    return team_screen(w), {"match": str(match.pk), f"m{match.pk}-version": str(match.version),
                            f"m{match.pk}-forfeit": "none", f"m{match.pk}-home-1": "1", f"m{match.pk}-home-2": "2",
                            f"m{match.pk}-away-1": "2", f"m{match.pk}-away-2": "1"}


def team_lineups(w: World) -> object:
    from tournaments.models import MatchBoard

    return sorted(MatchBoard.objects.filter(match__competition=w.extra["team"]).values_list(
        "match_id", "number", "home_entry_id", "away_entry_id", "game_id"))


def team_rounds(w: World) -> object:
    return sorted(Round.objects.filter(tournament_id=w.extra["team"].tournament_id).values_list("number", "status"))


def team_tokens(w: World) -> object:
    return sorted(w.extra["team"].teams.values_list("pk", "captain_token"))


def team_step(action: str) -> Callable[[World], tuple[str, dict[str, Any]]]:
    def build(w: World) -> tuple[str, dict[str, Any]]:
        if action in ("issue", "revoke"):
            return team_screen(w), {"action": action, "team": str(w.extra["team"].teams.first().pk)}
        return team_screen(w), {"action": action, "version": str(w.extra["team"].version)}

    return build


# --- A team competition of tournament A's arbiters (tournaments/admin/team_*.py) -------------------------


def team_world(w: World) -> None:
    """A league of two teams of three players (two boards), its chief A's chief and its deputy A's deputy."""
    from tournaments.competitions import setup

    comp = setup.competition_create(name="Teams A", slug="teams-a", boards=2, user=w.users["chief"])
    comp.tournament.deputy_arbiters.add(w.users["deputy"])
    for name in ("Alpha", "Beta"):
        team = setup.team_add(competition=comp, name=name)
        for i in range(1, 4):
            setup.roster_add(team=team, player=Player.objects.create(surname=f"{name}{i}"))
    w.extra["comp"] = comp
    w.extra["free"] = Player.objects.create(surname="Newcomer", fmjd_id=777001)


def team_comp(w: World) -> Any:
    from tournaments.models import TeamCompetition

    return TeamCompetition.objects.get(pk=w.extra["comp"].pk)


def team_one(w: World) -> Any:
    return team_comp(w).teams.order_by("seed").first()


def team_url(name: str) -> Callable[[World], str]:
    return lambda w: reverse(f"admin:tournaments_teamcompetition_{name}", args=[team_comp(w).pk, team_one(w).pk])


def team_post(name: str, **data: Callable[[World], object] | object) -> Callable[[World], tuple[str, dict]]:
    def build(w: World) -> tuple[str, dict[str, Any]]:
        values = {k: v(w) if callable(v) else v for k, v in data.items()}
        return team_url(name)(w), {"version": str(team_one(w).version), **values}

    return build


def team_token_issued(w: World) -> None:
    from tournaments.competitions import captains

    team_league(w)
    captains.token_issue(team=w.extra["team"].teams.first())


ENDPOINTS += [
    Endpoint("team line-ups: save a match", team_match_post, team_lineups, setup=team_league),
    Endpoint("team line-ups: publish the round", team_step("publish"), team_rounds, setup=team_lined_up),
    Endpoint("team line-ups: back to draft", team_step("unpublish"), team_rounds, setup=team_published),
    Endpoint("team line-ups: issue a captain's link", team_step("issue"), team_tokens, setup=team_league),
    Endpoint("team line-ups: revoke a captain's link", team_step("revoke"), team_tokens, setup=team_token_issued),
]


# --- A cup of tournament A's arbiters: who goes through a round (tournaments/admin/team_cup.py) -----------


def team_cup_played(w: World, steps: tuple[str, ...] = ("board_count", "eliminate_lowest", "lots")) -> None:
    """A 4-team, 2-board cup whose round 1 is played: match 1 drawn 2-2 and decided by board count, match 2
    drawn on every board (lots, or a barrage, decide it)."""
    from tests.tournaments.competitions.factory import competition, line_up_round
    from tournaments.competitions import lineups, setup

    comp = competition(teams=4, boards=2, reserves=0, slug="cup", kind="cup", cup_tie=list(steps),
                       barrage_time_control="15 min")
    Tournament.objects.filter(pk=comp.tournament_id).update(chief_arbiter=w.users["chief"])
    comp.tournament.deputy_arbiters.add(w.users["deputy"])
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    lineups.round_publish(competition=comp, number=1)
    for match, codes in zip(comp.matches.order_by("table"), (["2-0", "2-0"], ["1-1", "1-1"]), strict=True):
        for board, code in zip(match.boards.order_by("number"), codes, strict=True):
            services.game_record_result(game=Game.objects.get(pk=board.game_id), result=code)
    comp.refresh_from_db()
    w.extra["cup"] = comp


def team_cup_barrage(w: World) -> None:
    team_cup_played(w, ("board_count", "barrage", "lots"))


def team_cup_decided(w: World) -> None:
    from tournaments.competitions import cup

    team_cup_played(w)
    cup.round_decide(competition=w.extra["cup"], number=1)
    cup.lots_draw(match=w.extra["cup"].matches.get(round_number=1, table=2))
    services.round_complete(round=Round.objects.get(tournament_id=w.extra["cup"].tournament_id, number=1))


def team_cup_page(w: World) -> str:
    return reverse("admin:tournaments_tournament_team_cup", args=[w.extra["cup"].tournament_id, 1])


def team_cup_step(action: str, table: int = 1) -> Callable[[World], tuple[str, dict[str, Any]]]:
    def build(w: World) -> tuple[str, dict[str, Any]]:
        from tournaments.models import TeamCompetition

        if action in ("round", "next"):
            return team_cup_page(w), {"action": action,
                                      "version": str(TeamCompetition.objects.get(pk=w.extra["cup"].pk).version)}
        match = w.extra["cup"].matches.get(round_number=1, table=table)
        return team_cup_page(w), {"action": action, "match": str(match.pk), "version": str(match.version)}

    return build


def team_cup_matches(w: World) -> object:
    return sorted(w.extra["cup"].matches.values_list("round_number", "table", "winner_id", "decided_by", "lots_seed"))


ENDPOINTS += [
    Endpoint("cup: decide a match", team_cup_step("decide"), team_cup_matches, setup=team_cup_played),
    Endpoint("cup: draw lots", team_cup_step("lots", table=2), team_cup_matches, setup=team_cup_played),
    Endpoint("cup: make a barrage", team_cup_step("barrage", table=2), team_cup_matches, setup=team_cup_barrage),
    Endpoint("cup: decide the round", team_cup_step("round"), team_cup_matches, setup=team_cup_played),
    Endpoint("cup: make the next round", team_cup_step("next"), team_cup_matches, setup=team_cup_decided),
]


def team_state(w: World) -> object:
    from tournaments.models import RosterMember, Team

    comp = w.extra["comp"]
    return (sorted(Team.objects.filter(competition=comp).values_list("name", "club", "captain_token")),
            sorted(RosterMember.objects.filter(team__competition=comp).values_list(
                "team_id", "entry__player_id", "position", "licence", "reserve")),
            comp.matches.count(), team_comp(w).boards)


def roster_rows(w: World) -> dict[str, Any]:
    members = list(team_one(w).roster.order_by("position"))
    return {"member": [str(m.pk) for m in members], f"licence-{members[0].pk}": "L-1",
            "move": f"down:{members[0].pk}"}


ENDPOINTS += [
    Endpoint("team competition: add (its creator becomes chief)", lambda w: (
        reverse("admin:tournaments_teamcompetition_add"), {
            **form_data(w, reverse("admin:tournaments_teamcompetition_add")), "name": "League", "slug": "league",
            "_save": "Save"}),
        lambda w: list(Tournament.objects.filter(slug="league").values_list("chief_arbiter__username", flat=True)),
        allowed=STAFF),
    Endpoint("team competition: change the rules", lambda w: change_form(team_comp, boards="3")(w), team_state,
             setup=team_world),
    Endpoint("teams page: add a team", lambda w: (
        reverse("admin:tournaments_teamcompetition_teams", args=[team_comp(w).pk]),
        {"name": "Gamma", "club": "", "federation": "", "captain": "", "version": str(team_comp(w).version)}),
        team_state, setup=team_world),
    Endpoint("teams page: make the schedule", lambda w: (
        reverse("admin:tournaments_teamcompetition_make_schedule", args=[team_comp(w).pk]),
        {"version": str(team_comp(w).version)}), team_state, setup=team_world),
    Endpoint("team page: add a player from the register", team_post("team", key=lambda w: f"p{w.extra['free'].pk}"),
             team_state, setup=team_world),
    Endpoint("team page: a new player made in the row", team_post("team", action="new", surname="Newer"),
             team_state, setup=team_world),
    Endpoint("team page: roster licences and a move", lambda w: team_post("roster", **roster_rows(w))(w), team_state,
             setup=team_world),
    Endpoint("team page: edit the team", lambda w: (team_url("team_edit")(w), {
        "name": "Renamed", "club": "Club", "federation": "", "captain": "",
        "seen_version": str(team_one(w).version)}), team_state, setup=team_world),
    Endpoint("team page: issue the captain's code", team_post("team_code", action="issue"), team_state,
             setup=team_world),
    Endpoint("team page: remove the team", team_post("team_remove"), team_state, setup=team_world),
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


def test_a_forbidden_pair_with_another_tournaments_player_is_refused(world: World) -> None:
    url, data = change_form(lambda w: w.a, **{
        "forbidden_pairs-TOTAL_FORMS": "1", "forbidden_pairs-0-first": str(world.entry(1).pk),
        "forbidden_pairs-0-second": str(world.b.entries.first().pk)})(world)
    response = world.client("chief").post(url, data)
    assert response.status_code == 200 and "errorlist" in response.content.decode()
    assert not ForbiddenPair.objects.exists()
