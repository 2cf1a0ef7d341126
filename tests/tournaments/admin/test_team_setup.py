"""The arbiter's set-up of a team competition in the admin: the new competition's page, its teams, rosters of
8 regulars and 2 reserves filled from the register by the one field, the schedule by one button, and the
refusals (a stale form keeps what was typed; a player who played stays; a rule a played round was played under
stays)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.competitions.factory import line_up_round
from tournaments.competitions import lineups
from tournaments.models import (
    Entry,
    Match,
    Player,
    RosterMember,
    System,
    Team,
    TeamCompetition,
    Tournament,
)

pytestmark = pytest.mark.django_db
JSON = {"HTTP_ACCEPT": "application/json"}


def new_competition_form(**over: Any) -> dict[str, Any]:
    data = {"name": "Nationale competitie", "slug": "nc-2026", "start_date": "2026-09-12", "end_date": "",
            "kind": "league", "boards": "8", "match_win": "2", "match_draw": "1", "match_loss": "0",
            "order_1": "match_points", "order_2": "board_points", "forfeit_board_points": "2",
            "forfeit_deduction": "2", "colours": "first_white_on_odd", "tie_1": "board_count", "tie_2": "lots",
            "barrage_time_control": "", "lineup_rule": "free", "one_team_per_player": "on", "_save": "Save"}
    data.update(over)
    return data


def create(chief: Client, **over: Any) -> TeamCompetition:
    response = chief.post(reverse("admin:tournaments_teamcompetition_add"), new_competition_form(**over))
    assert response.status_code == 302, response.content.decode()[:3000]
    return TeamCompetition.objects.select_related("tournament").get(tournament__slug=over.get("slug", "nc-2026"))


def teams_url(comp: TeamCompetition) -> str:
    return reverse("admin:tournaments_teamcompetition_teams", args=[comp.pk])


def team_url(team: Team, name: str = "team") -> str:
    return reverse(f"admin:tournaments_teamcompetition_{name}", args=[team.competition_id, team.pk])


def add_team(chief: Client, comp: TeamCompetition, name: str, **over: Any) -> Any:
    comp.refresh_from_db()
    return chief.post(teams_url(comp), {"name": name, "club": name, "federation": "ned", "captain": "",
                                        "version": comp.version, **over})


def add_player(chief: Client, team: Team, key: str) -> dict[str, Any]:
    team.refresh_from_db()
    response = chief.post(team_url(team), {"key": key, "version": team.version}, **JSON)
    return json.loads(response.content)


def register(n: int, prefix: str) -> list[Player]:
    return [Player.objects.create(surname=f"{prefix}{i:02}", given_name="Jan", federation="NED",
                                  fmjd_id=None, rating=1800 - i) for i in range(1, n + 1)]


def test_a_season_is_set_up_through_the_pages(chief: Client) -> None:
    comp = create(chief)
    t = comp.tournament
    assert (t.system, t.name, str(t.start_date), t.chief_arbiter.username) == (
        System.TEAM, "Nationale competitie", "2026-09-12", "chief")
    assert (comp.boards, comp.forfeit_deduction, comp.order, comp.cup_tie) == (
        8, 2, ["match_points", "board_points"], ["board_count", "lots"])
    for i in range(1, 11):
        assert add_team(chief, comp, f"Team {i}").status_code == 302
    teams = list(comp.teams.order_by("seed"))
    assert [t.seed for t in teams] == list(range(1, 11)) and teams[0].federation == "NED"
    for team in teams:
        players = register(10, f"T{team.seed:02}x")
        for player in players:
            answer = add_player(chief, team, f"p{player.pk}")
            assert answer["ok"], answer
        # the answer carries the rows the page puts in its table, and the version the next add posts
        assert answer["rows_html"].count("<tr") == 10 and answer["version"] == Team.objects.get(pk=team.pk).version
    members = list(RosterMember.objects.filter(team=teams[0]).order_by("position"))
    assert [m.reserve for m in members] == [False] * 8 + [True] * 2
    assert Entry.objects.filter(tournament=t).count() == 100
    comp.refresh_from_db()
    response = chief.post(reverse("admin:tournaments_teamcompetition_make_schedule", args=[comp.pk]),
                          {"version": comp.version, "table": "berger"})
    assert response.status_code == 302
    assert Match.objects.filter(competition=comp).count() == 45
    page = chief.get(teams_url(comp)).content.decode()
    assert "Round 9" in page and "Team 10" in page and "Make the schedule again" in page
    t.refresh_from_db()
    assert t.rounds_total == 9


def test_the_lrajd_table_is_offered_for_8_teams_and_used(chief: Client) -> None:
    comp = create(chief, boards="4")
    for i in range(1, 9):
        add_team(chief, comp, f"Club {i}")
    assert 'value="lrajd"' in chief.get(teams_url(comp)).content.decode()
    comp.refresh_from_db()
    chief.post(reverse("admin:tournaments_teamcompetition_make_schedule", args=[comp.pk]),
               {"version": comp.version, "table": "lrajd"})
    first = [(m.home.seed, m.away.seed) for m in Match.objects.filter(competition=comp, round_number=1)
             .select_related("home", "away").order_by("table")]
    assert first == [(1, 5), (4, 7), (6, 2), (8, 3)]


def test_a_cup_bracket_is_made_with_byes(chief: Client) -> None:
    comp = create(chief, kind="cup", boards="4", slug="cup")
    for i in range(1, 7):
        add_team(chief, comp, f"Club {i}")
    comp.refresh_from_db()
    chief.post(reverse("admin:tournaments_teamcompetition_make_schedule", args=[comp.pk]), {"version": comp.version})
    matches = list(Match.objects.filter(competition=comp).order_by("table"))
    assert len(matches) == 4 and sum(m.away_id is None for m in matches) == 2
    assert "bye" in chief.get(teams_url(comp)).content.decode()


def test_a_stale_team_form_keeps_what_was_typed(chief: Client) -> None:
    comp = create(chief)
    stale = comp.version
    add_team(chief, comp, "First")  # another desk adds a team meanwhile
    response = chief.post(teams_url(comp), {"name": "Typed name", "club": "Typed club", "federation": "FRA",
                                            "version": stale})
    assert response.status_code == 400
    page = response.content.decode()
    assert 'value="Typed name"' in page and 'value="Typed club"' in page and "changed by someone else" in page
    assert not comp.teams.filter(name="Typed name").exists()


def test_a_stale_roster_form_keeps_the_typed_licences(chief: Client) -> None:
    comp = create(chief)
    add_team(chief, comp, "A")
    team = comp.teams.get()
    p1, p2 = register(2, "R")
    add_player(chief, team, f"p{p1.pk}")
    team.refresh_from_db()
    stale = team.version
    add_player(chief, team, f"p{p2.pk}")  # another desk
    member = team.roster.get(entry__player=p1)
    response = chief.post(team_url(team, "roster"), {"version": stale, "member": [member.pk],
                                                    f"licence-{member.pk}": "NL-123", "save": "1"})
    assert response.status_code == 400
    assert 'value="NL-123"' in response.content.decode()
    member.refresh_from_db()
    assert member.licence == ""
    team.refresh_from_db()
    response = chief.post(team_url(team, "roster"), {"version": team.version, "member": [member.pk],
                                                    f"licence-{member.pk}": "NL-123", "save": "1"})
    member.refresh_from_db()
    assert response.status_code == 302 and member.licence == "NL-123"


def test_roster_moves_and_removal_and_a_player_who_played_stays(chief: Client) -> None:
    comp = create(chief, boards="2", slug="small")
    for name in ("A", "B"):
        add_team(chief, comp, name)
    a, b = comp.teams.order_by("seed")
    for team in (a, b):
        for player in register(3, f"{team.name}p"):
            add_player(chief, team, f"p{player.pk}")
    first, second, third = a.roster.order_by("position")
    a.refresh_from_db()
    chief.post(team_url(a, "roster"), {"version": a.version, "member": [first.pk, second.pk, third.pk],
                                       "move": f"down:{first.pk}"})
    assert list(a.roster.order_by("position").values_list("pk", flat=True)) == [second.pk, first.pk, third.pk]
    comp.refresh_from_db()
    chief.post(reverse("admin:tournaments_teamcompetition_make_schedule", args=[comp.pk]), {"version": comp.version})
    line_up_round(comp, 1)
    lineups.round_publish(competition=comp, number=1)
    a.refresh_from_db()
    page = chief.get(team_url(a)).content.decode()
    assert page.count(">played<") == 2 and f'name="remove" value="{third.pk}"' in page
    response = chief.post(team_url(a, "roster"), {"version": a.version, "member": [second.pk],
                                                  "remove": second.pk}, follow=True)
    assert "has played for A" in response.content.decode()
    assert a.roster.filter(pk=second.pk).exists()
    a.refresh_from_db()
    chief.post(team_url(a, "roster"), {"version": a.version, "member": [third.pk], "remove": third.pk})
    assert not a.roster.filter(pk=third.pk).exists()
    assert not Entry.objects.filter(pk=third.entry_id).exists()  # listed nowhere else, no game: gone


def test_a_rule_a_published_round_was_played_under_stays(chief: Client) -> None:
    comp = create(chief, boards="2", slug="rules")
    for name in ("A", "B"):
        add_team(chief, comp, name)
    for team in comp.teams.all():
        for player in register(2, f"{team.name}q"):
            add_player(chief, team, f"p{player.pk}")
    comp.refresh_from_db()
    chief.post(reverse("admin:tournaments_teamcompetition_make_schedule", args=[comp.pk]), {"version": comp.version})
    line_up_round(comp, 1)
    lineups.round_publish(competition=comp, number=1)
    comp.refresh_from_db()
    url = reverse("admin:tournaments_teamcompetition_change", args=[comp.pk])
    form = new_competition_form(boards="3", colours="first_white_on_even", seen_version=comp.version)
    response = chief.post(url, form)
    assert response.status_code == 200
    page = response.content.decode()
    assert "Boards per match: a round is published" in page and "Colours per board" in page
    assert 'value="3"' in page  # what was typed stays in the form
    comp.refresh_from_db()
    assert (comp.boards, comp.colours) == (2, "first_white_on_odd")
    # a scoring setting may still be corrected: the standings read it
    response = chief.post(url, new_competition_form(boards="2", forfeit_deduction="0", seen_version=comp.version))
    comp.refresh_from_db()
    assert response.status_code == 302 and comp.forfeit_deduction == 0


def test_a_stale_settings_form_is_refused(chief: Client) -> None:
    comp = create(chief)
    stale = comp.version
    add_team(chief, comp, "A")
    url = reverse("admin:tournaments_teamcompetition_change", args=[comp.pk])
    response = chief.post(url, new_competition_form(boards="10", seen_version=stale))
    assert response.status_code == 200 and "changed by someone else" in response.content.decode()
    comp.refresh_from_db()
    assert comp.boards == 8


def test_the_new_competition_page_says_where_each_default_comes_from(chief: Client) -> None:
    page = chief.get(reverse("admin:tournaments_teamcompetition_add")).content.decode()
    for source in ("KNDB", "FFJD Coupe", "LRAJD", "IDF-64", "olimpbase", "regulations"):
        assert source in page, source


def test_a_new_player_is_made_in_the_row_and_listed(chief: Client) -> None:
    comp = create(chief)
    add_team(chief, comp, "A")
    team = comp.teams.get()
    response = chief.post(team_url(team), {"action": "new", "surname": "Nieuw", "given_name": "Piet",
                                           "federation": "ned", "rating": "", "title": "", "version": team.version},
                          **JSON)
    assert json.loads(response.content)["ok"]
    assert team.roster.get().entry.player.federation == "NED"
    team.refresh_from_db()
    bad = chief.post(team_url(team), {"action": "new", "surname": "", "given_name": "Typed",
                                      "version": team.version}, **JSON)
    assert bad.status_code == 400 and "surname" in json.loads(bad.content)["fields"]


def test_the_search_marks_players_already_on_this_roster(chief: Client) -> None:
    comp = create(chief)
    add_team(chief, comp, "A")
    team = comp.teams.get()
    (p,) = register(1, "Zoeken")
    add_player(chief, team, f"p{p.pk}")
    found = json.loads(chief.get(team_url(team, "team_search") + "?q=zoek").content)["candidates"]
    assert [c["entered"] for c in found] == [True]


def test_the_captains_code_is_issued_and_revoked(chief: Client) -> None:
    comp = create(chief)
    add_team(chief, comp, "A")
    team = comp.teams.get()
    chief.post(team_url(team, "team_code"), {"action": "issue", "version": team.version})
    team.refresh_from_db()
    assert len(team.captain_token) > 20
    page = chief.get(team_url(team, "team")).content.decode()
    link = f"/t/{comp.tournament.slug}/team/{team.captain_token}/lineup/"
    assert link in page and chief.get(link).status_code == 200  # the address the page gives opens his page
    chief.post(team_url(team, "team_code"), {"action": "revoke", "version": team.version})
    team.refresh_from_db()
    assert team.captain_token == ""


def test_a_team_tournament_is_not_offered_on_the_tournament_form(chief: Client) -> None:
    page = chief.get(reverse("admin:tournaments_tournament_add"))
    assert System.TEAM.value not in [v for v, _l in page.context["adminform"].form.fields["system"].choices]
    comp = create(chief)
    # its control room is the team pages
    response = chief.get(reverse("admin:tournaments_tournament_control", args=[comp.tournament.pk]))
    assert response.status_code == 302 and response["Location"] == teams_url(comp)
    response = chief.post(reverse("admin:tournaments_tournament_step", args=[comp.tournament.pk]),
                          {"step": "number", "round": "1", "version": "0"}, follow=True)
    assert "team competition" in response.content.decode()


@pytest.mark.parametrize(("language", "words"), [("fr", "Accueil"), ("nl", "Start")])
def test_the_pages_render_in_french_and_dutch(chief: Client, language: str, words: str) -> None:
    comp = create(chief)
    add_team(chief, comp, "A")
    team = comp.teams.get()
    for url in (teams_url(comp), team_url(team), reverse("admin:tournaments_teamcompetition_change", args=[comp.pk]),
                reverse("admin:tournaments_teamcompetition_add")):
        with translation.override(language):
            response = chief.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code == 200
        page = response.content.decode()
        assert f'lang="{language}"' in page and f">{words}</a>" in page  # the admin's own words, translated


def test_a_tournament_made_elsewhere_is_not_listed_for_another_arbiter(chief: Client) -> None:
    comp = create(chief)
    other = Client()
    from django.contrib.auth import get_user_model

    other.force_login(get_user_model().objects.create_user("other", is_staff=True))
    assert other.get(teams_url(comp)).status_code in {302, 403, 404}
    assert Tournament.objects.filter(slug="nc-2026").exists()


def test_a_tournament_cannot_be_made_a_team_one_on_its_own_form_and_a_team_ones_form_keeps_it(chief: Client) -> None:
    from tests.tournaments.test_permissions import scrape_form

    add = reverse("admin:tournaments_tournament_add")
    response = chief.post(add, {**scrape_form(chief, add), "name": "Team?", "slug": "team-q", "system": "team",
                                "bye_points": "2", "swiss_order": "rating", "_save": "Save"})
    assert response.status_code == 200 and not Tournament.objects.filter(slug="team-q").exists()
    comp = create(chief)
    url = reverse("admin:tournaments_tournament_change", args=[comp.tournament.pk])
    response = chief.post(url, {**scrape_form(chief, url), "name": "Renamed", "system": "swiss", "_save": "Save"})
    assert response.status_code == 302, response.content.decode()[:2000]
    comp.tournament.refresh_from_db()
    assert (comp.tournament.name, comp.tournament.system) == ("Renamed", System.TEAM)


def test_a_rules_form_without_its_version_is_refused(chief: Client) -> None:
    comp = create(chief)
    url = reverse("admin:tournaments_teamcompetition_change", args=[comp.pk])
    response = chief.post(url, new_competition_form(boards="10"))
    assert response.status_code == 200 and "changed by someone else" in response.content.decode()
    comp.refresh_from_db()
    assert comp.boards == 8


def test_the_captain_is_found_in_the_register_by_the_autocomplete(chief: Client) -> None:
    (p,) = register(1, "Kapitein")
    found = chief.get(reverse("admin:autocomplete"), {"term": "kapit", "app_label": "tournaments",
                                                      "model_name": "team", "field_name": "captain"})
    assert found.status_code == 200 and [r["id"] for r in json.loads(found.content)["results"]] == [str(p.pk)]
    comp = create(chief)
    add_team(chief, comp, "A", captain=str(p.pk))
    assert comp.teams.get().captain == p


def test_an_address_taken_keeps_the_new_competitions_form(chief: Client) -> None:
    create(chief)
    response = chief.post(reverse("admin:tournaments_teamcompetition_add"),
                          new_competition_form(name="Tweede klasse", boards="10"))
    page = response.content.decode()
    assert response.status_code == 200 and "already taken" in page
    assert 'value="Tweede klasse"' in page and 'value="10"' in page
    assert TeamCompetition.objects.count() == 1
