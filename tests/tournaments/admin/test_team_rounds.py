"""The arbiter's round screens of a team competition: the line-up screen (typed boxes, one decision per match,
problems beside the match, version checks, forfeit, publish and back), and the round page's results grouped by
match with the same keys, the sheets and the complete step as in any round."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.competitions.factory import competition, line_up_round, roster
from tournaments import sheets
from tournaments.competitions import lineups, setup
from tournaments.models import Game, Match, MatchForfeit, RoundStatus, TeamCompetition
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(arbiter: Any) -> TeamCompetition:
    comp = competition(teams=4, boards=4, slug="lg")
    comp.tournament.chief_arbiter = arbiter
    comp.tournament.save()
    setup.schedule_make(competition=comp)
    comp.refresh_from_db()
    return comp


def screen(comp: TeamCompetition, number: int = 1) -> str:
    return reverse("admin:tournaments_tournament_team_round", args=[comp.tournament.pk, number])


def match_of(comp: TeamCompetition, table: int, number: int = 1) -> Match:
    return Match.objects.select_related("home", "away").get(competition=comp, round_number=number, table=table)


def boxes(match: Match, home: list[str], away: list[str], forfeit: str = "none", **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {"match": match.pk, f"m{match.pk}-version": match.version, f"m{match.pk}-forfeit": forfeit}
    for side, typed in (("home", home), ("away", away)):
        for n, value in enumerate(typed, start=1):
            data[f"m{match.pk}-{side}-{n}"] = value
    data.update(extra)
    return data


def lineup(match: Match, side: str) -> list[int | None]:
    return [getattr(b, f"{side}_entry_id") for b in match.boards.order_by("number")]


# --- The line-up screen ----------------------------------------------------------------------


def test_the_screen_shows_every_match_with_its_rosters_and_the_cursor_on_the_first(chief: Client,
                                                                                  league: TeamCompetition) -> None:
    page = chief.get(screen(league))
    assert page.status_code == 200
    body = page.content.decode()
    first = match_of(league, 1)
    assert body.count('class="dm-lineup-match') == 2
    assert f"Match 1: {first.home} – {first.away}" in body
    assert re.search(rf'name="m{first.pk}-home-1"[^>]*autofocus', body)
    assert "Roster: 1\xa0Team" in body or "Roster: 1&nbsp;Team" in body
    assert "Publish round 1" in body and "2 matches still wait for a line-up." in body


def test_a_match_typed_by_places_and_name_starts_is_saved_whole_and_the_cursor_moves_on(
        chief: Client, league: TeamCompetition) -> None:
    match = match_of(league, 1)
    home, away = roster(match.home), roster(match.away)
    response = chief.post(screen(league), boxes(match, ["1", "2", "p3", "5"], ["4", "3", "", "P1 team"]))
    assert response.status_code == 302 and response["Location"].endswith("?after=1")
    match.refresh_from_db()
    assert lineup(match, "home") == [home[0].pk, home[1].pk, home[2].pk, home[4].pk]
    assert lineup(match, "away") == [away[3].pk, away[2].pk, None, away[0].pk]
    assert match.version == 3  # one step per side
    body = chief.get(response["Location"]).content.decode()
    following = match_of(league, 2)
    assert re.search(rf'name="m{following.pk}-home-1"[^>]*autofocus', body)
    assert re.search(rf'name="m{match.pk}-home-3" value="3"', body)  # stored, shown as its place number


def test_a_box_that_cannot_be_read_saves_nothing_and_keeps_what_was_typed(chief: Client,
                                                                          league: TeamCompetition) -> None:
    match = match_of(league, 1)
    response = chief.post(screen(league), boxes(match, ["1", "2", "3", "99"], ["1", "p", "3", "4"]))
    assert response.status_code == 400
    body = response.content.decode()
    assert "Board 4: the roster has no place 99." in body
    assert "Board 2: “p” fits 1. Team" in body and "type more of the name" in body
    assert re.search(rf'name="m{match.pk}-home-4" value="99" [^>]*aria-invalid="true"[^>]*autofocus', body)
    assert re.search(rf'name="m{match.pk}-away-2" value="p"', body)
    match.refresh_from_db()
    assert match.version == 1 and not match.boards.exists()


def test_the_rules_problems_of_both_teams_are_named_beside_the_match_and_neither_side_is_saved(
        chief: Client, league: TeamCompetition) -> None:
    TeamCompetition.objects.filter(pk=league.pk).update(licence_required=True)
    match = match_of(league, 1)
    first = roster(match.home)[0]
    first.roster_places.update(licence="")
    other = match_of(league, 2)
    lineups.lineup_set(match=other, side="home", entries=[roster(other.home)[0], None, None, None])
    # the away team's board 1: a player of match 2's home team, who is not on this roster
    stranger = roster(other.home)[0]
    setup.roster_add(team=match.away, player=stranger.player, licence="X1")
    place = match.away.roster.get(entry=stranger).position
    response = chief.post(screen(league), boxes(match, ["1", "2", "3", "4"], [str(place), "2", "3", "4"]))
    assert response.status_code == 400
    body = response.content.decode()
    assert "Board 1: Team1, P1 has no licence number on the roster" in body
    assert "is already lined up in round 1, match R1.2" in body
    assert "nothing was saved; its problems are named below" in body
    match.refresh_from_db()
    assert not match.boards.exists() and match.version == 1
    assert re.search(rf'name="m{match.pk}-away-1" value="{place}"', body)


def test_a_stale_page_is_refused_once_with_what_was_typed_then_saved_over(chief: Client,
                                                                         league: TeamCompetition) -> None:
    match = match_of(league, 1)
    typed = boxes(match, ["1", "2", "3", "4"], ["1", "2", "3", "4"])
    lineups.lineup_set(match=match, side="home", entries=roster(match.home)[:4][::-1])  # another arbiter
    response = chief.post(screen(league), typed)
    assert response.status_code == 400
    body = response.content.decode()
    assert "was changed by someone else" in body and "save again to record it over theirs" in body
    assert f'name="m{match.pk}-version" value="2"' in body
    assert re.search(rf'name="m{match.pk}-home-1" value="1"', body)
    assert chief.post(screen(league), {**typed, f"m{match.pk}-version": "2"}).status_code == 302
    match.refresh_from_db()
    assert lineup(match, "home") == [e.pk for e in roster(match.home)[:4]]


def test_a_whole_match_forfeit_and_back(chief: Client, league: TeamCompetition) -> None:
    match = match_of(league, 1)
    assert chief.post(screen(league), boxes(match, [""] * 4, [""] * 4, forfeit="away")).status_code == 302
    match.refresh_from_db()
    assert match.forfeit == MatchForfeit.AWAY
    body = chief.get(screen(league)).content.decode()
    assert re.search(r'<option value="away" selected>', body)
    back = boxes(match, ["1", "2", "3", "4"], ["1", "2", "3", "4"])
    assert chief.post(screen(league), back).status_code == 302
    match.refresh_from_db()
    assert match.forfeit == MatchForfeit.NONE and lineup(match, "away") == [e.pk for e in roster(match.away)[:4]]


def test_publish_from_the_screen_then_back_to_draft(chief: Client, league: TeamCompetition) -> None:
    refused = chief.post(screen(league), {"action": "publish", "version": league.version}, follow=True)
    assert "has no line-up; enter it or record the forfeit" in refused.content.decode()
    assert not league.tournament.rounds.exists()
    line_up_round(league, 1)
    league.refresh_from_db()
    stale = chief.post(screen(league), {"action": "publish", "version": league.version - 1}, follow=True)
    assert "changed by someone else" in stale.content.decode() and not league.tournament.rounds.exists()
    done = chief.post(screen(league), {"action": "publish", "version": league.version})
    rnd = league.tournament.rounds.get(number=1)
    assert done["Location"] == reverse("admin:tournaments_round_change", args=[rnd.pk])
    assert rnd.status == RoundStatus.PUBLISHED and rnd.games.count() == 8
    body = chief.get(screen(league)).content.decode()
    assert "The line-ups are fixed" in body and "disabled" in body and "autofocus" not in body
    league.refresh_from_db()
    assert chief.post(screen(league), {"action": "unpublish", "version": league.version}).status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.DRAFT and not rnd.games.exists()
    assert match_of(league, 1).boards.filter(home_entry__isnull=False).count() == 4  # the line-ups stay


def test_back_to_draft_is_refused_once_a_result_is_in(chief: Client, league: TeamCompetition) -> None:
    line_up_round(league, 1)
    rnd = lineups.round_publish(competition=league, number=1)
    round_services.game_record_result(game=rnd.games.get(board=1), result="2-0")
    league.refresh_from_db()
    page = chief.post(screen(league), {"action": "unpublish", "version": league.version}, follow=True)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PUBLISHED and "Nothing was done" in page.content.decode()


def test_a_match_of_another_round_or_competition_is_refused(chief: Client, league: TeamCompetition) -> None:
    later = match_of(league, 1, number=2)
    page = chief.post(screen(league), boxes(later, ["1", "2", "3", "4"], ["1", "2", "3", "4"]), follow=True)
    assert "is not one of round 1" in page.content.decode() and not later.boards.exists()
    assert chief.get(screen(league, 7)).status_code == 404


def test_an_individual_tournament_has_no_line_up_screen(chief: Client, make_tournament: Any) -> None:
    t = make_tournament(4)
    assert chief.get(reverse("admin:tournaments_tournament_team_round", args=[t.pk, 1])).status_code == 404


# --- The round page of a team round ----------------------------------------------------------


def published(league: TeamCompetition) -> Any:
    line_up_round(league, 1)
    match = match_of(league, 2)
    # match 2's away team leaves board 4 unfilled: the home team wins it by forfeit
    lineups.lineup_set(match=match, side="away", entries=[*roster(match.away)[:3], None])
    return lineups.round_publish(competition=league, number=1)


def test_the_round_page_groups_the_boards_by_match_with_the_score(chief: Client, league: TeamCompetition) -> None:
    rnd = published(league)
    round_services.game_record_result(game=rnd.games.get(board=1), result="2-0")
    body = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    first, second = match_of(league, 1), match_of(league, 2)
    assert body.count('class="dm-match-head"') == 2
    assert f'<span class="dm-match-teams">{first.home} – {first.away}</span>' in body
    assert re.search(r'id="dm-score-1"[^>]*>2 – 0</output>', body)
    # board 4 of match 2 has no game: the home team's 2 forfeit points are in the score from the start
    assert 'data-match="2" data-fixed-home="2" data-fixed-away="0"' in body
    assert re.search(r'id="dm-score-2"[^>]*>2 – 0</output>', body) and "board 4 unfilled (forfeit)" in body
    # match 2's boards are the round's boards 5-7 (its board 4 has no game), numbered 1-3 in the match
    assert re.search(r'<tr id="dm-board-5" data-match="2" data-home-white="1"[^>]*>\s*<th scope="row" '
                     r'class="dm-board">1 <span class="dm-round-board"', body)
    assert f'aria-label="{second.home} – {second.away}, board 2: ' in body
    assert "damier/team-score.js" in body and 'id="dm-team-points"' in body
    assert "Home team White on boards 1, 3, 5…" in body


def test_an_individual_round_page_is_as_before(chief: Client, make_tournament: Any) -> None:
    t = make_tournament(4)
    rnd = round_services.round_publish(round=round_services.round_pair(tournament=t))
    body = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    assert "dm-match-head" not in body and "team-score.js" not in body and "dm-round-board" not in body


def test_results_saved_with_the_same_form_then_the_round_completed_from_the_control_room(
        chief: Client, league: TeamCompetition) -> None:
    from tests.tournaments.test_permissions import scrape_form

    rnd = published(league)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    data = scrape_form(chief, url)
    rows = sorted(k for k in data if re.fullmatch(r"games-\d+-result", k))
    assert len(rows) == 7
    for i, key in enumerate(rows):
        data[key] = ["2-0", "1-1", "0-2"][i % 3]
    data["slip"] = ""
    saved = chief.post(url, {**data, "_continue": "1"})
    assert saved.status_code == 302
    assert not rnd.games.filter(result="").exists()
    step = chief.post(reverse("admin:tournaments_tournament_step", args=[league.tournament.pk]),
                      {"step": "complete", "round": 1, "version": rnd.__class__.objects.get(pk=rnd.pk).version})
    assert step.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.COMPLETED


def test_a_game_sheet_of_a_team_board_is_uploaded_and_replayed(chief: Client, league: TeamCompetition) -> None:
    rnd = published(league)
    game = Game.objects.select_related("white__player", "black__player", "round").get(round=rnd, board=1)
    round_services.game_record_result(game=game, result="2-0")
    pdn = (f'[Round "1"]\n[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n'
           '[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 2-0\n')
    sheet = sheets.sheet_upload(game=game, data=pdn, source_name="b1.pdn")
    assert sheet.game_id == game.pk and sheet.status
    page = chief.get(reverse("admin:tournaments_game_sheet", args=[game.pk]))
    assert page.status_code == 200


def test_the_control_room_leads_to_the_line_ups_of_the_next_round(chief: Client, league: TeamCompetition) -> None:
    control = chief.get(reverse("admin:tournaments_tournament_control", args=[league.tournament.pk]), follow=True)
    nxt = reverse("admin:tournaments_tournament_team_round_next", args=[league.tournament.pk])
    assert control.redirect_chain[-1][0].endswith(f"/teamcompetition/{league.pk}/teams/")  # the team's control room
    assert nxt in control.content.decode()
    assert chief.get(nxt)["Location"] == screen(league, 1)
    line_up_round(league, 1)
    lineups.round_publish(competition=league, number=1)
    assert chief.get(nxt)["Location"] == screen(league, 2)


def test_a_forfeited_match_is_named_on_the_round_page_and_its_line_ups_linked(chief: Client,
                                                                             league: TeamCompetition) -> None:
    first = match_of(league, 1)
    lineups.match_forfeit_set(match=first, forfeit=MatchForfeit.HOME)
    second = match_of(league, 2)
    for side, team in (("home", second.home), ("away", second.away)):
        second.refresh_from_db()
        lineups.lineup_set(match=second, side=side, entries=roster(team)[:4])
    rnd = lineups.round_publish(competition=league, number=1)
    body = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    assert body.count('class="dm-match-head"') == 1
    assert f"Not played:\n    {first} (Home team did not play)." in body
    assert f'href="{screen(league)}"' in body


def test_a_refused_match_takes_the_cursor_even_when_no_match_waits(chief: Client, league: TeamCompetition) -> None:
    line_up_round(league, 1)
    match = match_of(league, 2)
    body = chief.post(screen(league), boxes(match, ["1", "2", "3", "77"], ["1", "2", "3", "4"])).content.decode()
    assert body.count("autofocus") == 1
    assert re.search(rf'name="m{match.pk}-home-4" value="77"[^>]*autofocus', body)
    assert 'id="dm-publish-button">' in body  # the publish button waits without the cursor


def test_the_arbiter_sees_the_captains_line_up_and_a_captains_save_makes_his_page_stale(
        chief: Client, league: TeamCompetition) -> None:
    from tournaments.competitions import captains

    match = match_of(league, 1)
    read_at = boxes(match, ["1", "2", "3", "4"], ["1", "2", "3", "4"])  # the arbiter's page, read now
    team = captains.token_issue(team=match.away)
    captain = Client().post(reverse("tournaments:team_lineup", args=[league.tournament.slug, team.captain_token]),
                            {"match": match.pk, "version": match.version, "board-1": "4", "board-2": "3",
                             "board-3": "2", "board-4": "1"})
    assert captain.status_code == 302
    body = chief.get(screen(league)).content.decode()
    assert re.search(rf'name="m{match.pk}-away-1" value="4"', body)
    assert team.captain_token in body  # the link, to give the captain
    stale = chief.post(screen(league), read_at)
    assert stale.status_code == 400 and "changed by someone else" in stale.content.decode()
    match.refresh_from_db()
    assert [b.away_entry_id for b in match.boards.order_by("number")] == [e.pk for e in roster(match.away)[:4][::-1]]


@pytest.mark.parametrize("way", ["control room", "rounds' list"])
def test_a_team_round_taken_back_is_published_again_from_its_line_ups_by_every_path(
        chief: Client, league: TeamCompetition, way: str) -> None:
    """The control room offers "Publish round 1" for the draft left by "back to draft", and the rounds' list
    has its action: both make the games from the line-ups again, never an empty published round."""
    line_up_round(league, 1)
    lineups.round_publish(competition=league, number=1)
    rnd = lineups.round_unpublish(competition=league, number=1)
    assert rnd.status == RoundStatus.DRAFT and not rnd.games.exists()
    if way == "control room":
        response = chief.post(reverse("admin:tournaments_tournament_step", args=[league.tournament.pk]),
                              {"step": "publish", "round": 1, "version": rnd.version})
    else:
        response = chief.post(reverse("admin:tournaments_round_changelist"),
                              {"action": "publish", "_selected_action": [str(rnd.pk)], "index": "0"})
    assert response.status_code == 302
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.PUBLISHED and rnd.games.count() == 8
    assert match_of(league, 1).boards.filter(game__isnull=False).count() == 4


def test_the_control_room_refuses_a_stale_publish_of_a_team_round(chief: Client, league: TeamCompetition) -> None:
    line_up_round(league, 1)
    lineups.round_publish(competition=league, number=1)
    rnd = lineups.round_unpublish(competition=league, number=1)
    page = chief.post(reverse("admin:tournaments_tournament_step", args=[league.tournament.pk]),
                      {"step": "publish", "round": 1, "version": rnd.version - 1}, follow=True)
    rnd.refresh_from_db()
    assert rnd.status == RoundStatus.DRAFT and "changed by someone else" in page.content.decode()


def test_a_team_rounds_draft_page_offers_its_line_ups_not_a_pairing(chief: Client, league: TeamCompetition) -> None:
    line_up_round(league, 1)
    lineups.round_publish(competition=league, number=1)
    rnd = lineups.round_unpublish(competition=league, number=1)
    body = chief.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    assert reverse("admin:tournaments_round_pairing", args=[rnd.pk]) not in body
    assert f'href="{screen(league)}"' in body


def test_the_entry_screen_sends_a_team_competition_to_its_rosters(chief: Client, league: TeamCompetition) -> None:
    """Players join a team competition on a team's roster: the individual entry screen adds none."""
    entries = league.tournament.entries.count()
    url = reverse("admin:tournaments_tournament_enter_players", args=[league.tournament.pk])
    for answer in (chief.get(url), chief.post(url, {"q": "x", "version": "1"})):
        assert answer.status_code == 302
        assert answer["Location"] == reverse("admin:tournaments_teamcompetition_teams", args=[league.pk])
    assert league.tournament.entries.count() == entries


def test_the_line_up_screen_prints_each_match_sheet_before_the_round_is_published(
        chief: Client, league: TeamCompetition) -> None:
    line_up_round(league, 1)
    page = chief.get(screen(league)).content.decode()
    sheet = reverse("tournaments:team_match_sheet", args=[league.tournament.slug, 1, 2])
    assert sheet in page
    answer = chief.get(sheet)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
