"""Nothing a team competition already played changes behind the record, by any path: the deletion guard
(tournaments.rounds.deletion, a pre_delete receiver, so `Model.delete()`, `QuerySet.delete()` and every
cascade go through it, and the admin's delete pages list its words) refuses the matches, boards, teams,
roster places and the competition of a published round; what is not played yet may still go. Line-ups,
forfeits and the schedule are refused by their services once the round is published."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import ProtectedError, RestrictedError
from django.test import Client
from django.urls import reverse

from tests.tournaments.competitions.factory import competition, line_up_round, roster
from tournaments.competitions import lineups, setup
from tournaments.errors import DomainError
from tournaments.models import (
    Game,
    Match,
    MatchBoard,
    MatchForfeit,
    RosterMember,
    Team,
    TeamCompetition,
    Tournament,
)
from tournaments.rounds import deletion
from tournaments.rounds import services as round_services

pytestmark = pytest.mark.django_db


@pytest.fixture
def played() -> TeamCompetition:
    """Four teams of two boards (one reserve each): round 1 published, its results in, completed; round 2
    lined up as a draft."""
    comp = competition(teams=4, boards=2, slug="kept")
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    rnd = lineups.round_publish(competition=comp, number=1)
    for game in Game.objects.filter(round=rnd):
        round_services.game_record_result(game=game, result="1-1")
    round_services.round_complete(round=rnd)
    line_up_round(comp, 2)
    return comp


def _counts(comp: TeamCompetition) -> tuple[int, ...]:
    return (Team.objects.filter(competition=comp).count(), Match.objects.filter(competition=comp).count(),
            MatchBoard.objects.filter(match__competition=comp).count(),
            RosterMember.objects.filter(team__competition=comp).count(), Game.objects.count())


def _refused(delete, words: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(deletion.DeletionRefused, match=words), transaction.atomic():
        delete()


def test_a_played_match_and_its_boards_are_kept_on_every_path(played) -> None:  # type: ignore[no-untyped-def]
    before = _counts(played)
    match = Match.objects.filter(competition=played, round_number=1).first()
    _refused(match.delete, "round 1 is published, and the match is part of its record")
    _refused(Match.objects.filter(competition=played, round_number=1).delete, "is part of its record")
    # The admin's delete pages and bulk action list these words instead of their button.
    assert "Correct a board's result on the round's page" in " ".join(deletion.refusals([match]))
    board = match.boards.first()
    _refused(board.delete, f"Board {board.number} of .* cannot be deleted")
    _refused(MatchBoard.objects.filter(match__competition=played).delete, "cannot be deleted")
    assert _counts(played) == before
    # A match of a round not published yet, and its line-up, may go.
    draft = Match.objects.filter(competition=played, round_number=2).first()
    assert deletion.why_not(draft) is None
    draft.boards.first().delete()
    draft.delete()
    assert not Match.objects.filter(pk=draft.pk).exists()


def test_a_team_a_roster_place_and_the_competition_that_played_are_kept(played) -> None:  # type: ignore[no-untyped-def]
    before = _counts(played)
    match = Match.objects.filter(competition=played, round_number=1).select_related("home").first()
    team = match.home
    member = RosterMember.objects.get(team=team, entry=roster(team)[0])
    _refused(member.delete, "cannot be taken off the roster of .* he played for it in round\\(s\\) 1")
    _refused(RosterMember.objects.filter(team=team).delete, "played for it")
    # A team is held by its matches (RESTRICT) and, for the admin's page, by the guard's words.
    with pytest.raises((RestrictedError, deletion.DeletionRefused)), transaction.atomic():
        team.delete()
    assert "it played in round(s) 1" in " ".join(deletion.refusals([team]))
    _refused(played.delete, "round\\(s\\) 1 were published, and its teams, line-ups and matches are the record")
    _refused(TeamCompetition.objects.filter(pk=played.pk).delete, "are the record of those games")
    # The tournament is held first by its games' players (Game.white/black PROTECT, as any played tournament);
    # its admin page gives the guard's words (test below).
    with pytest.raises((ProtectedError, deletion.DeletionRefused)), transaction.atomic():
        played.tournament.delete()
    assert _counts(played) == before
    # The reserve, who never played, may leave the roster.
    reserve = RosterMember.objects.get(team=team, reserve=True)
    reserve.delete()
    assert not RosterMember.objects.filter(pk=reserve.pk).exists()


def test_a_competition_never_published_is_deleted_whole() -> None:
    comp = competition(teams=4, boards=2, slug="gone")
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    tournament_id = comp.tournament_id
    comp.tournament.delete()  # through every RESTRICT of the team models: all go together
    assert not Tournament.objects.filter(pk=tournament_id).exists()
    assert not TeamCompetition.objects.filter(pk=comp.pk).exists()


def test_the_admin_delete_page_of_a_played_team_tournament_refuses_in_words(played) -> None:  # type: ignore[no-untyped-def]
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", email=None, password=None))
    url = reverse("admin:tournaments_tournament_delete", args=[played.tournament_id])
    page = client.get(url)
    assert page.status_code == 200
    body = page.content.decode()
    assert "Nothing is deleted" in body and "round(s) 1 were published" in body
    assert client.post(url, {"post": "yes"}).status_code in (200, 302)
    assert Tournament.objects.filter(pk=played.tournament_id).exists()


def test_the_admin_deletes_a_team_tournament_never_published() -> None:
    comp = competition(teams=2, boards=1, slug="draftonly")
    setup.schedule_make(competition=comp)
    line_up_round(comp, 1)
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", email=None, password=None))
    url = reverse("admin:tournaments_tournament_delete", args=[comp.tournament_id])
    assert client.get(url).status_code == 200
    assert client.post(url, {"post": "yes"}).status_code == 302
    assert not Tournament.objects.filter(pk=comp.tournament_id).exists()


def test_line_ups_forfeits_and_the_schedule_are_fixed_once_the_round_is_published(played) -> None:  # type: ignore[no-untyped-def]
    match = Match.objects.filter(competition=played, round_number=1).select_related("home", "away").first()
    with pytest.raises(DomainError, match="Round 1 is published: its line-ups are fixed"):
        lineups.lineup_set(match=match, side="home", entries=roster(match.home)[1:3])
    with pytest.raises(DomainError, match="has board results"):
        lineups.match_forfeit_set(match=match, forfeit=MatchForfeit.AWAY)
    with pytest.raises(DomainError, match="has a published round"):
        setup.schedule_make(competition=played)
    with pytest.raises(DomainError, match="already has its schedule"):
        setup.team_add(competition=played, name="Late")
    with pytest.raises(DomainError):
        lineups.round_unpublish(competition=played, number=1)
    assert [b.home_entry_id for b in match.boards.order_by("number")] == [e.pk for e in roster(match.home)[:2]]


def test_a_forfeit_is_fixed_once_the_round_is_published() -> None:
    comp = competition(teams=2, boards=1, slug="ff")
    setup.schedule_make(competition=comp)
    match = Match.objects.get(competition=comp)
    lineups.match_forfeit_set(match=match, forfeit=MatchForfeit.AWAY)
    lineups.round_publish(competition=comp, number=1)
    match.refresh_from_db()
    with pytest.raises(DomainError, match="is published"):
        lineups.match_forfeit_set(match=match, forfeit=MatchForfeit.NONE)
    _refused(match.delete, "is part of its record")


@pytest.mark.parametrize("model", [TeamCompetition, Team, RosterMember, Match, MatchBoard])
def test_the_admin_delete_page_of_each_team_model_lists_the_refusal(played, model) -> None:  # type: ignore[no-untyped-def]
    """What the project's admin base gives a delete page or the bulk action (the team models' own admin pages
    come with the set-up screens): the guard's words, and no error."""
    from django.contrib import admin
    from django.test import RequestFactory

    from tournaments.admin.base import ArbiterScopedAdmin

    request = RequestFactory().get("/")
    request.user = get_user_model().objects.create_superuser("root", email=None, password=None)
    objs = {TeamCompetition: [played], Team: list(Team.objects.filter(competition=played)),
            RosterMember: list(RosterMember.objects.filter(team__competition=played, reserve=False)),
            Match: list(Match.objects.filter(competition=played, round_number=1)),
            MatchBoard: list(MatchBoard.objects.filter(match__competition=played, match__round_number=1))}[model]
    _deleted, _counts_, _perms, kept = ArbiterScopedAdmin(model, admin.site).get_deleted_objects(objs, request)
    assert kept and "cannot be" in " ".join(map(str, kept))


def test_each_team_objects_own_delete_page_sends_to_the_page_that_removes_it(played) -> None:  # type: ignore[no-untyped-def]
    """A team, a roster member or a competition is never deleted on its own admin page, played or not: the
    competition goes with its tournament, a team and a roster member through the team page's services."""
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root2", email=None, password=None))
    team = played.teams.order_by("seed").first()
    member = team.roster.first()
    for obj, goes_to in ((played, reverse("admin:tournaments_tournament_delete", args=[played.tournament_id])),
                         (team, reverse("admin:tournaments_teamcompetition_team", args=[played.pk, team.pk])),
                         (member, reverse("admin:tournaments_teamcompetition_team", args=[played.pk, team.pk]))):
        url = reverse(f"admin:tournaments_{obj._meta.model_name}_delete", args=[obj.pk])
        for answer in (client.get(url), client.post(url, {"post": "yes"})):
            assert answer.status_code == 302 and answer["Location"] == goes_to
        assert type(obj).objects.filter(pk=obj.pk).exists()
