"""The role matrix, continued: pages that only read, exports, the public site, and the guard that every
admin action and page is in the matrix. The roles, the world and the helpers are in test_permissions."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import NoReverseMatch, reverse

from tests.tournaments.play import play_round
from tests.tournaments.test_permissions import (
    ARBITERS,
    ROLES,
    STAFF,
    World,
    action,
    change_url,
    changelist_url,
    completed,
    game1,
    paired,
    published,
    team_comp,
    team_cup_decided,
    team_cup_page,
    team_cup_played,
    team_league,
    team_one,
    team_published,
    team_screen,
    team_url,
    team_world,
    world,
)
from tournaments.models import Game, Round, Tournament

__all__ = ["world"]  # the fixture, imported so pytest finds it here


# --- Pages that only read: arbiters' pages stay private --------------------------------------


@dataclass(frozen=True)
class Read:
    name: str
    url: Callable[[World], str]
    allowed: frozenset[str] = ARBITERS
    setup: Callable[[World], None] = completed
    # Where an allowed role is sent when the page has nothing to show in that state ("" = it shows, 200).
    sends_to: str = ""


def _hall_screen(w: World) -> Any:
    from tournaments.models import HallScreen

    return HallScreen.objects.get_or_create(tournament=w.a, name="A", defaults={"token": "screen-a"})[0]


def _history(model: str, obj: Callable[[World], Any]) -> Callable[[World], str]:
    return lambda w: reverse(f"admin:tournaments_{model}_history", args=[obj(w).pk])


READS = [
    Read("round page", lambda w: change_url(w.round(1))),
    Read("game page", lambda w: change_url(w.round(1).games.first())),
    Read("entry page", lambda w: change_url(w.entry(1))),
    Read("tournament page", lambda w: change_url(w.a)),
    Read("admin standings", lambda w: reverse("admin:tournaments_tournament_standings", args=[w.a.pk])),
    Read("players' codes page", lambda w: reverse("admin:tournaments_round_codes", args=[w.round(1).pk])),
    Read("round sheets upload page", lambda w: reverse("admin:tournaments_round_sheets", args=[w.round(1).pk])),
    Read("game sheet page", lambda w: reverse("admin:tournaments_game_sheet", args=[game1(w).pk])),
    Read("round history", _history("round", lambda w: w.round(1))),
    Read("game history", _history("game", lambda w: w.round(1).games.first())),
    Read("entry history", _history("entry", lambda w: w.entry(1))),
    Read("tournament history", _history("tournament", lambda w: w.a)),
    Read("leave the conformance mode (the confirmation)",
         lambda w: reverse("admin:tournaments_tournament_leave_conformance", args=[w.a.pk])),
    Read("hall screen page", lambda w: change_url(_hall_screen(w))),
    Read("control room", lambda w: reverse("admin:tournaments_tournament_control", args=[w.a.pk])),
    Read("round robin schedule", lambda w: reverse("admin:tournaments_tournament_schedule", args=[w.a.pk]),
         setup=lambda w: None),
    Read("pairing numbers page", lambda w: reverse("admin:tournaments_tournament_numbers", args=[w.a.pk])),
    Read("requested-byes grid", lambda w: reverse("admin:tournaments_tournament_byes", args=[w.a.pk])),
    Read("a player's story", lambda w: reverse("admin:tournaments_entry_story", args=[w.entry(1).pk])),
    # The world's tournament is a round robin, which follows the Berger tables: its arbiters are sent
    # to the round's page (tests/tournaments/admin/test_manual_pairing_admin.py opens the page of a Swiss).
    Read("manual pairing of a draft round", lambda w: reverse("admin:tournaments_round_pairing",
                                                              args=[w.round(1).pk]), setup=paired,
         sends_to="/round/"),
    # Offered only when the engine cannot pair the round: otherwise the control room, to pair it.
    Read("a round made by hand (the confirmation)",
         lambda w: reverse("admin:tournaments_round_by_hand", args=[w.a.pk]), setup=lambda w: None,
         sends_to="/control/"),
    Read("a round-robin round by hand", lambda w: reverse("admin:tournaments_tournament_rr_hand",
                                                          args=[w.a.pk, 1]), setup=paired),
    Read("enter players", lambda w: reverse("admin:tournaments_tournament_enter_players", args=[w.a.pk])),
    Read("enter players: the search", lambda w: reverse("admin:tournaments_tournament_enter_search",
                                                        args=[w.a.pk]) + "?q=play"),
    Read("check-in screen", lambda w: reverse("admin:tournaments_tournament_checkin", args=[w.a.pk])),
    Read("check-in state (the screen's refresh)",
         lambda w: reverse("admin:tournaments_tournament_checkin_state", args=[w.a.pk])),
    Read("TRF import page", lambda w: reverse("admin:tournaments_tournament_import_trf"), allowed=STAFF,
         setup=lambda w: None),
    Read("rating preview", lambda w: reverse("admin:tournaments_tournament_rating_preview", args=[w.a.pk])),
    # A team competition's line-up screen (its writes: team_* in test_permissions.py's ENDPOINTS).
    Read("team round line-ups", team_screen, setup=team_league),
    Read("team round line-ups, published", team_screen, setup=team_published),
    Read("team line-ups of the next round", lambda w: reverse("admin:tournaments_tournament_team_round_next",
                                                              args=[w.extra["team"].tournament_id]),
         setup=team_published, sends_to="/team-round/2/"),
    # A cup's decisions of a round (its writes: cup_* in test_permissions.py's ENDPOINTS).
    Read("cup: who goes through a round", team_cup_page, setup=team_cup_played),
    Read("cup: who goes through a round, all decided", team_cup_page, setup=team_cup_decided),
    # A team competition's set-up (its writes: test_permissions.ENDPOINTS).
    Read("team competition: new", lambda w: reverse("admin:tournaments_teamcompetition_add"), allowed=STAFF,
         setup=lambda w: None),
    Read("team competition: its rules", lambda w: change_url(team_comp(w)), setup=team_world),
    Read("team competition: teams and schedule", lambda w: reverse("admin:tournaments_teamcompetition_teams",
                                                                   args=[team_comp(w).pk]), setup=team_world),
    Read("team competition: a team's roster", team_url("team"), setup=team_world),
    Read("team competition: the roster's search", lambda w: team_url("team_search")(w) + "?q=alp",
         setup=team_world),
    Read("team competition: a team in the list (sent to its page)", lambda w: change_url(team_one(w)),
         setup=team_world, sends_to="/team/"),
    Read("team competition: a roster member", lambda w: change_url(team_one(w).roster.first()), setup=team_world),
    # its writes: tests/tournaments/ratinglists/test_permissions.py
    Read("rating list import page", lambda w: reverse("admin:tournaments_ratinglist_import"), allowed=STAFF,
         setup=lambda w: None),
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
    if role in read.allowed and read.sends_to:
        assert response.status_code == 302 and read.sends_to in response["Location"]
    elif role in read.allowed:
        assert response.status_code == 200
    else:
        assert response.status_code in {302, 403, 404}
        if response.status_code == 302:
            assert response["Location"] != url and not response["Location"].startswith(url)


@dataclass(frozen=True)
class Export:
    """A download of a tournament's data: given to its arbiters only, whatever the tournament's visibility."""

    name: str
    request: Callable[[World], tuple[str, str, dict[str, Any]]]  # method, url, data
    allowed: frozenset[str] = ARBITERS
    setup: Callable[[World], None] = lambda w: None


EXPORTS = [
    Export("round PDN (admin)", lambda w: ("get", reverse("admin:tournaments_round_pdn", args=[w.round(1).pk]), {})),
    Export("action: round PDN", lambda w: ("post", *action(Round, "export_round_pdn", lambda w: [w.round(1)])(w))),
    Export("action: tournament PDN", lambda w: ("post", *action(Tournament, "export_tournament_pdn",
                                                                 lambda w: [w.a])(w))),
    Export("action: JSON export (everything)", lambda w: ("post", *action(Tournament, "export_json",
                                                                           lambda w: [w.a])(w))),
    Export("action: TRF(x)", lambda w: ("post", *action(Tournament, "export_trf", lambda w: [w.a])(w)),
           setup=lambda w: Tournament.objects.filter(pk=w.a.pk).update(system="swiss", rounds_total=5)),
    Export("scoresheets PDF", lambda w: ("get", reverse("tournaments:scoresheets_pdf", args=[w.a.slug, 1]), {})),
    Export("result slips PDF", lambda w: ("get", reverse("tournaments:slips_pdf", args=[w.a.slug, 1]), {})),
    # The report to the federation, once the round robin's last two rounds are played.
    *[Export(f"report to the federation: {name}", lambda w, name=name: (
        "get", reverse(f"tournaments:{name}", args=[w.a.slug]), {}),
        setup=lambda w: [play_round(w.a) for _ in range(2)]) for name in ("report_file", "report_pdf")],
    # A private tournament's public PDFs print for its arbiters only.
    *[Export(f"private {name}", lambda w, name=name: ("get", public_url(f"tournaments:{name}", w), {}))
      for name in ("standings_pdf", "crosstable_pdf", "pairings_pdf", "boards_pdf", "starting_list_pdf")],
]


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("export", EXPORTS, ids=[e.name for e in EXPORTS])
def test_export_matrix(world: World, export: Export, role: str) -> None:
    completed(world)
    Tournament.objects.filter(pk=world.a.pk).update(public=False)
    export.setup(world)
    world.a.refresh_from_db()
    method, url, data = export.request(world)
    response = getattr(world.client(role), method)(url, data)
    assert response.status_code < 500
    # An action run on nothing in one's scope may still answer with an empty file: what must never be
    # delivered is the tournament's content (its players' names, or a PDF of it).
    body = response.content if response.status_code == 200 else b""
    delivered = body.startswith(b"%PDF") or b"Player01" in body
    assert delivered == (role in export.allowed), (role, response.status_code, response.get("Content-Type"))


PUBLIC_PAGES = ["tournaments:tournament", "tournaments:standings", "tournaments:crosstable", "tournaments:round",
                "tournaments:standings_pdf", "tournaments:crosstable_pdf", "tournaments:pairings_pdf",
                "tournaments:boards_pdf", "tournaments:player", "tournaments:games_pdn", "tournaments:round_games_pdn",
                "tournaments:tournament_tiebreaks", "tournaments:starting_list_pdf"]
# The PDFs of a private tournament print for its arbiters (test_export_matrix), for nobody else.
PRINTS = {"tournaments:standings_pdf", "tournaments:crosstable_pdf", "tournaments:pairings_pdf",
          "tournaments:boards_pdf", "tournaments:starting_list_pdf"}


def public_url(name: str, w: World) -> str:
    args: list[object] = [w.a.slug]
    if name in {"tournaments:round", "tournaments:pairings_pdf", "tournaments:boards_pdf",
                "tournaments:round_games_pdn", "tournaments:player"}:
        args.append(1)
    return reverse(name, args=args)


@pytest.mark.parametrize("name", PUBLIC_PAGES)
def test_public_pages_show_public_tournaments_to_everyone_and_others_to_nobody(world: World, name: str) -> None:
    completed(world)
    url = public_url(name, world)
    assert world.client("anonymous").get(url).status_code == 200
    world.a.public = False
    world.a.save()
    for role in ROLES:
        expected = 200 if name in PRINTS and role in ARBITERS else 404
        assert world.client(role).get(url).status_code == expected, role


def test_public_pages_hide_draft_rounds(world: World) -> None:
    paired(world)
    assert world.client("anonymous").get(reverse("tournaments:round", args=[world.a.slug, 1])).status_code == 404


# Every admin action and extra admin page, and where the matrix covers it. A new one fails the test below
# until it is added to ENDPOINTS, EXPORTS or READS (one line) and named here.
COVERED = {
    "Player.delete_selected", "Tournament.delete_selected", "Tournament.export_tournament_pdn",
    "Tournament.export_trf", "Tournament.export_json", "Tournament.number_by_rating", "Tournament.pair_next_round",
    "Entry.delete_selected",
    "Entry.withdraw", "Entry.expel", "Entry.grant_bye",
    "Round.complete", "Round.delete_draft", "Round.delete_selected", "Round.export_round_pdn",
    "Round.publish", "Round.reopen", "Game.accept_sheet_result", "Game.delete_selected",
    "url:tournaments_player_import", "url:tournaments_tournament_standings", "url:tournaments_round_sheets",
    "url:tournaments_round_pdn", "url:tournaments_game_sheet", "url:tournaments_round_codes",
    "url:tournaments_round_confirm_agreed",
    "url:tournaments_tournament_control", "url:tournaments_tournament_step", "url:tournaments_tournament_schedule",
    "url:tournaments_tournament_leave_conformance", "url:tournaments_tournament_numbers",
    "url:tournaments_round_pairing", "url:tournaments_round_by_hand", "url:tournaments_tournament_rr_hand",
    "url:tournaments_tournament_import_trf", "url:tournaments_tournament_byes", "url:tournaments_entry_story",
    "url:tournaments_tournament_schedule_fill", "url:tournaments_tournament_rating_preview",
    "url:tournaments_ratinglist_import", "RatingList.delete_selected",  # tests/tournaments/ratinglists/
    "url:tournaments_player_merge",
    "url:tournaments_tournament_checkin", "url:tournaments_tournament_checkin_mark",
    "url:tournaments_tournament_checkin_state",
    "url:tournaments_tournament_enter_players", "url:tournaments_tournament_enter_search",
    "url:tournaments_tournament_team_round", "url:tournaments_tournament_team_round_next",
    "url:tournaments_tournament_team_cup",
    "url:tournaments_teamcompetition_teams", "url:tournaments_teamcompetition_make_schedule",
    "url:tournaments_teamcompetition_team", "url:tournaments_teamcompetition_team_search",
    "url:tournaments_teamcompetition_roster", "url:tournaments_teamcompetition_team_edit",
    "url:tournaments_teamcompetition_team_code", "url:tournaments_teamcompetition_team_remove",
}
# Actions that change nothing and show only what the queryset, already scoped, holds.
# Tournament.leave_conformance_mode only leads to the leave page (in the write matrix), for a tournament in scope.
# Player.merge_records only leads to the merge's preview (in the write matrix).
READ_ONLY_ACTIONS = {"Round.check_pairing", "Tournament.leave_conformance_mode", "Player.merge_records"}


def test_every_admin_action_and_page_is_in_the_matrix(world: World) -> None:
    from django.contrib import admin
    from django.test import RequestFactory

    request = RequestFactory().get("/")
    request.user = world.users["superuser"]
    found = set()
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label != "tournaments":
            continue
        found |= {f"{model.__name__}.{name}" for name in model_admin.get_actions(request)}
        standard = ("_changelist", "_add", "_history", "_delete", "_change", "_simple_history", "_autocomplete")
        found |= {f"url:{u.name}" for u in model_admin.get_urls() if u.name and not u.name.endswith(standard)}
    missing = found - COVERED - READ_ONLY_ACTIONS
    assert not missing, f"not in the role matrix yet: {sorted(missing)} (add a line to ENDPOINTS/EXPORTS/READS)"


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
