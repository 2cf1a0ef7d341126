"""Changes to a team competition after its set-up (tournaments.competitions.changes): each version-checked, and
refused where a played match was played under what would change."""

from __future__ import annotations

import pytest

from tests.tournaments.competitions.factory import competition, line_up_round
from tournaments.competitions import changes, lineups, setup
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, Match, MatchBoard, Player, RosterMember, Team

pytestmark = pytest.mark.django_db


def published_league(teams: int = 4, boards: int = 2) -> object:
    comp = competition(teams=teams, boards=boards)
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    lineups.round_publish(competition=comp, number=1)
    comp.refresh_from_db()
    return comp


def test_boards_and_colours_are_fixed_once_a_round_is_published() -> None:
    comp = published_league()
    with pytest.raises(DomainError) as refused:
        changes.competition_settings_set(competition=comp, values={"boards": 3, "colours": "first_white_on_even"},
                                         expected_version=comp.version)
    assert "Boards per match" in str(refused.value) and "Colours per board" in str(refused.value)
    comp.refresh_from_db()
    assert (comp.boards, comp.colours) == (2, "first_white_on_odd")
    # match points are how the standings read the results: corrected at any time
    changes.competition_settings_set(competition=comp, values={"forfeit_deduction": 2}, expected_version=comp.version)
    comp.refresh_from_db()
    assert comp.forfeit_deduction == 2


def test_boards_are_fixed_once_a_line_up_is_entered() -> None:
    comp = competition(teams=2, boards=2)
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    comp.refresh_from_db()
    with pytest.raises(DomainError, match="line-ups are entered"):
        changes.competition_settings_set(competition=comp, values={"boards": 3}, expected_version=comp.version)


def test_a_stale_settings_change_is_refused() -> None:
    comp = competition(teams=2)
    stale = comp.version
    setup.team_add(competition=comp, name="Late")
    with pytest.raises(StaleEditError):
        changes.competition_settings_set(competition=comp, values={"match_win": 3}, expected_version=stale)


def test_the_kind_changed_before_any_round_removes_the_schedule() -> None:
    comp = competition(teams=4)
    setup.schedule_make(competition=comp)
    comp.refresh_from_db()
    _comp, notes = changes.competition_settings_set(competition=comp, values={"home_and_away": True},
                                                    expected_version=comp.version)
    assert notes and not Match.objects.filter(competition=comp).exists()


def test_rules_that_do_not_stand_together_are_named() -> None:
    comp = competition(teams=2)
    problems = changes.rules_problems({"match_win": 1, "match_draw": 1, "match_loss": 0, "order": [],
                                       "cup_tie": ["lots", "board_count"]})
    assert set(problems) == {"match_win", "order", "cup_tie"}
    with pytest.raises(DomainError, match="only be the last step"):
        changes.competition_settings_set(competition=comp, values={"cup_tie": ["lots", "barrage"]},
                                         expected_version=comp.version)


def test_a_player_who_played_stays_on_the_roster_and_one_who_did_not_goes() -> None:
    comp = published_league(teams=2, boards=2)
    team = comp.teams.order_by("seed").first()
    first, _second, reserve = team.roster.order_by("position")
    with pytest.raises(DomainError, match="has played for"):
        changes.roster_remove(team=team, expected_version=team.version, member_id=first.pk)
    assert RosterMember.objects.filter(pk=first.pk).exists()
    changes.roster_remove(team=team, expected_version=team.version, member_id=reserve.pk)
    assert not Entry.objects.filter(pk=reserve.entry_id).exists()


def test_a_player_lined_up_in_a_draft_round_is_refused_too() -> None:
    comp = competition(teams=2, boards=2)
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    team = comp.teams.order_by("seed").first()
    first = team.roster.order_by("position").first()
    with pytest.raises(DomainError, match="lined up"):
        changes.roster_remove(team=team, expected_version=team.version, member_id=first.pk)


def test_a_roster_move_swaps_places_and_a_stale_one_is_refused() -> None:
    comp = competition(teams=2, boards=2, reserves=1)
    team = comp.teams.order_by("seed").first()
    a, b, c = team.roster.order_by("position")
    changes.roster_move(team=team, expected_version=team.version, member_id=c.pk, up=True)
    assert list(team.roster.order_by("position").values_list("pk", flat=True)) == [a.pk, c.pk, b.pk]
    stale = team.version
    team.refresh_from_db()
    assert team.version == stale + 1
    with pytest.raises(StaleEditError):
        changes.roster_move(team=team, expected_version=stale, member_id=a.pk, up=False)
    with pytest.raises(DomainError, match="at the top"):
        changes.roster_move(team=team, expected_version=team.version, member_id=a.pk, up=True)


def test_a_member_added_after_the_regulars_is_a_reserve() -> None:
    comp = competition(teams=2, boards=2, reserves=0)
    team = comp.teams.order_by("seed").first()
    member = changes.roster_member_add(team=team, expected_version=team.version,
                                       player=Player.objects.create(surname="Extra"))
    assert member.reserve and member.position == 3


def test_a_team_with_matches_stays_and_one_without_goes_with_its_entries() -> None:
    comp = competition(teams=3, boards=2)
    setup.schedule_make(competition=comp)
    team = comp.teams.order_by("seed").first()
    with pytest.raises(DomainError, match="has matches"):
        changes.team_remove(team=team, expected_version=team.version)
    Match.objects.filter(competition=comp).delete()
    entries = list(team.roster.values_list("entry_id", flat=True))
    changes.team_remove(team=team, expected_version=team.version)
    assert not Team.objects.filter(pk=team.pk).exists()
    assert not Entry.objects.filter(pk__in=entries).exists()


def test_a_team_name_taken_is_refused_and_a_stale_edit_too() -> None:
    comp = competition(teams=2)
    one, two = comp.teams.order_by("seed")
    with pytest.raises(DomainError, match="already has a team"):
        changes.team_edit(team=one, expected_version=one.version, name=two.name)
    with pytest.raises(StaleEditError):
        changes.team_edit(team=one, expected_version=one.version - 1, name="Other")


def test_the_captains_code_is_new_each_time_and_revoked() -> None:
    comp = competition(teams=2)
    team = comp.teams.first()
    first = changes.captain_code_issue(team=team, expected_version=team.version).captain_token
    team.refresh_from_db()
    second = changes.captain_code_issue(team=team, expected_version=team.version).captain_token
    assert first and second and first != second
    team.refresh_from_db()
    changes.captain_code_revoke(team=team, expected_version=team.version)
    team.refresh_from_db()
    assert team.captain_token == ""
    with pytest.raises(DomainError):
        changes.captain_code_revoke(team=team, expected_version=team.version)


def test_licences_and_reserves_are_saved_and_a_member_gone_meanwhile_is_stale() -> None:
    comp = competition(teams=2, boards=2)
    team = comp.teams.first()
    member = team.roster.order_by("position").first()
    assert changes.roster_update(team=team, expected_version=team.version,
                                 rows={member.pk: ("NL-9", True)}) == 1
    member.refresh_from_db()
    assert (member.licence, member.reserve) == ("NL-9", True)
    team.refresh_from_db()
    with pytest.raises(StaleEditError):
        changes.roster_update(team=team, expected_version=team.version, rows={10**6: ("x", False)})
    assert MatchBoard.objects.count() == 0


def test_a_licence_of_two_lines_is_refused_in_words() -> None:
    comp = competition(teams=2, boards=2)
    team = comp.teams.first()
    member = team.roster.order_by("position").first()
    with pytest.raises(DomainError, match=str(member.entry.player)):
        changes.roster_update(team=team, expected_version=team.version, rows={member.pk: ("NL\n9", False)})
