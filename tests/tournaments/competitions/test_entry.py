"""Line-ups as typed (place numbers, name starts), a match saved as one decision, and the captain's link:
issued, revoked, wrong codes counted and locked out, his own team's line-up for the next round only."""

from __future__ import annotations

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.competitions.factory import competition, line_up_round, roster
from tournaments.boards import codes
from tournaments.competitions import captains, lineup_input, lineups, match_entry, setup
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Match, MatchForfeit, Player, TeamCompetition

pytestmark = pytest.mark.django_db


@pytest.fixture
def league() -> TeamCompetition:
    comp = competition(teams=4, boards=4, slug="cl")
    setup.schedule_make(competition=comp)
    comp.refresh_from_db()
    return comp


def first_match(comp: TeamCompetition, number: int = 1) -> Match:
    return Match.objects.select_related("home", "away").get(competition=comp, round_number=number, table=1)


# --- What is typed ---------------------------------------------------------------------------


def test_places_and_name_starts_are_read_and_what_cannot_be_is_named(league: TeamCompetition) -> None:
    team = first_match(league).home
    setup.roster_add(team=team, player=Player.objects.create(given_name="Éric", surname="van der Berg"))
    setup.roster_add(team=team, player=Player.objects.create(given_name="Erik", surname="Vermeulen"))
    lines = lineup_input.roster_lines(team)
    entries = {line.position: line.entry for line in lines}
    read = lineup_input.read(["2", " VAN DER ", "eric van", "", "vermeu"], lines)
    assert read.entries == [entries[2], entries[6], entries[6], None, entries[7]]
    assert read.errors == {}
    wrong = lineup_input.read(["12", "v", "zz", "١", "x" * 70], lines)
    assert wrong.entries == [None] * 5
    assert wrong.errors[1] == "Board 1: the roster has no place 12."
    assert wrong.errors[2].startswith("Board 2: “v” fits 6. van der Berg, Éric, 7. Vermeulen, Erik")
    assert wrong.errors[3] == "Board 3: no player of the roster has a name starting with “zz”."
    assert "“١”" in wrong.errors[4]  # an Arabic digit is no place number: read as a name, and named
    assert "too long" in wrong.errors[5]


def test_the_stored_line_up_shows_as_place_numbers(league: TeamCompetition) -> None:
    match = first_match(league)
    home = roster(match.home)
    lineups.lineup_set(match=match, side="home", entries=[home[2], None, home[0], home[4]])
    lines = lineup_input.roster_lines(match.home)
    assert lineup_input.stored_typed(list(match.boards.all()), "home", lines, 4) == ["3", "", "1", "5"]


# --- A match as one decision -----------------------------------------------------------------


def test_a_match_is_saved_whole_or_not_at_all(league: TeamCompetition) -> None:
    TeamCompetition.objects.filter(pk=league.pk).update(licence_required=True)
    match = first_match(league)
    home, away = roster(match.home), roster(match.away)
    away[1].roster_places.update(licence="")
    with pytest.raises(match_entry.LineupRefused) as refused:
        match_entry.match_save(match=match, entries={"home": home[:4], "away": away[:4]}, forfeit="none",
                               expected_version=match.version)
    assert set(refused.value.by_side) == {"away"} and "no licence number" in refused.value.by_side["away"]
    match.refresh_from_db()
    assert not match.boards.exists() and match.version == 1  # the home line-up, valid, is not kept either
    saved = match_entry.match_save(match=match, entries={"home": home[:4], "away": [away[0], None, *away[2:4]]},
                                   forfeit="none", expected_version=1)
    assert saved.version == 3
    again = match_entry.match_save(match=saved, entries={"home": home[:4], "away": [away[0], None, *away[2:4]]},
                                   forfeit="none", expected_version=3)
    assert again.version == 3  # nothing changed: nothing written
    with pytest.raises(StaleEditError):
        match_entry.match_save(match=saved, entries={"home": home[:4][::-1]}, forfeit="none", expected_version=1)


def test_a_forfeit_through_the_match_save_and_back(league: TeamCompetition) -> None:
    match = first_match(league)
    match = match_entry.match_save(match=match, entries={}, forfeit="home", expected_version=1)
    assert match.forfeit == MatchForfeit.HOME
    match = match_entry.match_save(match=match, entries={}, forfeit="both", expected_version=match.version)
    assert match.forfeit == MatchForfeit.BOTH
    home = roster(match.home)
    match = match_entry.match_save(match=match, entries={"home": home[:4]}, forfeit="none",
                                   expected_version=match.version)
    assert match.forfeit == MatchForfeit.NONE and match.boards.filter(home_entry__isnull=False).count() == 4
    with pytest.raises(match_entry.LineupRefused):
        match_entry.match_save(match=match, entries={}, forfeit="maybe", expected_version=match.version)


# --- The captain's link ----------------------------------------------------------------------


def test_a_captains_code_is_issued_replaced_and_revoked(league: TeamCompetition) -> None:
    team = first_match(league).home
    issued = captains.token_issue(team=team)
    first = issued.captain_token
    assert len(first) >= 32
    assert captains.captain_check(tournament=league.tournament, token=first, hashed="h") == team
    second = captains.token_issue(team=team).captain_token
    assert second != first
    with pytest.raises(codes.WrongCode):
        captains.captain_check(tournament=league.tournament, token=first, hashed="h")
    captains.token_revoke(team=team)
    with pytest.raises(codes.WrongCode):
        captains.captain_check(tournament=league.tournament, token=second, hashed="h")
    with pytest.raises(DomainError, match="no captain's code"):
        captains.token_revoke(team=team)


def test_wrong_codes_are_counted_with_the_players_codes_and_lock_the_address_out(league: TeamCompetition,
                                                                                 settings: object) -> None:
    team = captains.token_issue(team=first_match(league).home)
    now = timezone.now()
    hashed = codes.address_hash("6.6.6.6")
    limit = codes.failure_limit()
    outcomes = []
    for i in range(limit + 1):
        try:
            captains.captain_check(tournament=league.tournament, token=f"guess{i}", hashed=hashed, now=now)
        except codes.LockedOut:
            outcomes.append("locked")
        except codes.WrongCode:
            outcomes.append("wrong")
    assert outcomes[:limit - 1] == ["wrong"] * (limit - 1) and set(outcomes[limit - 1:]) == {"locked"}
    with pytest.raises(codes.LockedOut):  # the right code too, from that address
        captains.captain_check(tournament=league.tournament, token=team.captain_token, hashed=hashed, now=now)
    # a player's code from the same address is locked out as well: one counter for every code
    with pytest.raises(codes.LockedOut):
        codes.code_check(tournament=league.tournament, token="whatever", hashed=hashed, now=now)
    later = now + codes.cooloff() + datetime.timedelta(seconds=5)
    assert captains.captain_check(tournament=league.tournament, token=team.captain_token, hashed=hashed, now=later)
    other = competition(teams=2, boards=4, slug="other")
    with pytest.raises(codes.WrongCode):  # another competition's code is a wrong code here
        captains.captain_check(tournament=other.tournament, token=team.captain_token, hashed="x")


def test_the_captains_page_enters_his_own_line_up_until_the_round_is_published(league: TeamCompetition) -> None:
    match = first_match(league)
    team = captains.token_issue(team=match.away)
    url = reverse("tournaments:team_lineup", args=[league.tournament.slug, team.captain_token])
    client = Client()
    page = client.get(url)
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"] and "private" in page["Cache-Control"]
    assert page["Referrer-Policy"] == "same-origin" and "noindex" in page["X-Robots-Tag"]
    body = page.content.decode()
    assert f"Round 1: you play away against {match.home}." in body and "csrfmiddlewaretoken" in body
    refused = client.post(url, {"match": match.pk, "version": match.version, "board-1": "1", "board-2": "99"})
    assert refused.status_code == 400 and "Board 2: the roster has no place 99." in refused.content.decode()
    assert 'value="99"' in refused.content.decode() and not match.boards.exists()
    sent = client.post(url, {"match": match.pk, "version": match.version, "board-1": "2", "board-2": "p1",
                             "board-3": "", "board-4": "4"})
    assert sent.status_code == 302 and "no-store" in sent["Cache-Control"]
    match.refresh_from_db()
    away = roster(match.away)
    assert [b.away_entry_id for b in match.boards.order_by("number")] == [away[1].pk, away[0].pk, None, away[3].pk]
    assert not match.boards.filter(home_entry__isnull=False).exists()  # the other team's side untouched
    assert "the arbiter sees your line-up" in client.get(sent["Location"]).content.decode()
    # a forged match (another team's) is not taken: the page's match is the team's next one
    other = Match.objects.get(competition=league, round_number=1, table=2)
    forged = client.post(url, {"match": other.pk, "version": other.version, "board-1": "1"})
    assert forged.status_code == 400 and not other.boards.exists()
    # once round 1 is published, the page offers round 2
    line_up_round(league, 1)
    lineups.round_publish(competition=league, number=1)
    assert "Round 2:" in client.get(url).content.decode()


def test_the_captains_page_refuses_a_wrong_code_and_a_locked_address(league: TeamCompetition) -> None:
    strict = Client(enforce_csrf_checks=True)
    team = captains.token_issue(team=first_match(league).home)
    url = reverse("tournaments:team_lineup", args=[league.tournament.slug, team.captain_token])
    assert strict.post(url, {"board-1": "1"}).status_code == 403 and not first_match(league).boards.exists()
    wrong = Client(REMOTE_ADDR="192.0.2.9").get(reverse("tournaments:team_lineup", args=[league.tournament.slug,
                                                                                          "nope"]))
    assert wrong.status_code == 403 and "no-store" in wrong["Cache-Control"] and "not valid" in wrong.content.decode()
    for _ in range(codes.failure_limit()):
        Client(REMOTE_ADDR="192.0.2.9").get(reverse("tournaments:team_lineup", args=[league.tournament.slug, "no"]))
    locked = Client(REMOTE_ADDR="192.0.2.9").get(url)
    assert locked.status_code == 429 and "Too many wrong codes" in locked.content.decode()


def test_a_captain_whose_match_is_forfeited_is_never_offered_the_next_round_early(league: TeamCompetition) -> None:
    """Round 1 is still being prepared: a team whose round-1 match is recorded as forfeited has no line-up
    to give now, not round 2's."""
    match = first_match(league)
    lineups.match_forfeit_set(match=match, forfeit=MatchForfeit.HOME)
    assert captains.next_match(match.home) is None and captains.next_match(match.away) is None
    other = Match.objects.filter(competition=league, round_number=1).exclude(pk=match.pk).first()
    assert captains.next_match(other.home) == other
    for side, team in (("home", other.home), ("away", other.away)):
        other.refresh_from_db()
        lineups.lineup_set(match=other, side=side, entries=roster(team)[:4])
    lineups.round_publish(competition=league, number=1)
    assert captains.next_match(match.home).round_number == 2
