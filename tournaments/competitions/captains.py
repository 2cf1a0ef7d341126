"""The captain's link: a team's captain gives his line-up for the next round without an account.

The link holds a long random code (Team.captain_token), issued and revoked by the arbiter; whoever
holds it lines up that team, and only that team, until the round is published. A wrong code is counted
against the hashed address that sent it and locks that address out as the players' codes do
(tournaments.boards.codes: the same counter, the same limit), so guessing codes costs the same
whichever page is tried.
"""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.boards import codes
from tournaments.errors import DomainError
from tournaments.models import CodeAttempt, Entry, Match, MatchForfeit, RoundStatus, Team, Tournament

from . import changes, lineups


@transaction.atomic
def token_issue(*, team: Team, expected_version: int | None = None, user: Any = None) -> Team:
    """A new captain's code for the team; the previous one, if any, no longer opens anything (the one
    service: tournaments.competitions.changes.captain_code_issue)."""
    return changes.captain_code_issue(team=team, expected_version=expected_version, user=user)


@transaction.atomic
def token_revoke(*, team: Team, expected_version: int | None = None, user: Any = None) -> Team:
    return changes.captain_code_revoke(team=team, expected_version=expected_version, user=user)


def captain_check(*, tournament: Tournament, token: str, hashed: str,
                  now: datetime.datetime | None = None) -> Team:
    """The team whose live captain's code is `token` in this tournament, or codes.WrongCode (counted) /
    codes.LockedOut, exactly as a player's code is checked."""
    now = now or timezone.now()
    until = CodeAttempt.objects.filter(address_hash=hashed).values_list("locked_until", flat=True).first()
    if until is not None and until > now:
        raise codes.LockedOut(_("Too many wrong codes from this connection: try again after %(time)s, or ask the "
                                "arbiter.") % {"time": timezone.localtime(until).strftime("%H:%M")}, until)
    team = (Team.objects.select_related("competition__tournament")
            .filter(captain_token=token, competition__tournament=tournament).first()
            if 0 < len(token or "") <= 64 else None)
    if team is None:
        attempt = codes.record_failure(hashed, now)
        if attempt.locked_until is not None and attempt.locked_until > now:
            raise codes.LockedOut(_("Too many wrong codes from this connection: try again after %(time)s, or ask "
                                    "the arbiter.") % {"time": timezone.localtime(attempt.locked_until)
                                                       .strftime("%H:%M")}, attempt.locked_until)
        raise codes.WrongCode(_("This link is not valid: ask the arbiter for your team's link."))
    return team


def next_match(team: Team) -> Match | None:
    """The team's match in the competition's first round not yet published; None when the team has no
    line-up to give there (a bye, a match recorded as forfeited, or no match), so the captain never lines up
    a later round while this one is still being prepared."""
    competition = team.competition
    published = set(competition.tournament.rounds.exclude(status=RoundStatus.DRAFT)
                    .values_list("number", flat=True))
    numbers = sorted(set(competition.matches.values_list("round_number", flat=True)) - published)
    if not numbers:
        return None
    match = (Match.objects.filter(competition=competition, round_number=numbers[0], barrage_of__isnull=True)
             .filter(Q(home=team) | Q(away=team)).select_related("home", "away").first())
    if match is None or match.away_id is None or match.forfeit != MatchForfeit.NONE:
        return None
    return match


def side_of(team: Team, match: Match) -> str:
    if match.home_id == team.pk:
        return lineups.HOME
    if match.away_id == team.pk:
        return lineups.AWAY
    raise DomainError(_("%(team)s does not play the match %(match)s.") % {"team": team, "match": match})


@transaction.atomic
def captain_lineup_set(*, team: Team, match: Match, entries: Sequence[Entry | None],
                       expected_version: int | None) -> Match:
    """The captain's line-up for his own team's side of the match; the checks are the arbiter's
    (lineups.lineup_set), and a published round is refused there."""
    return lineups.lineup_set(match=match, side=side_of(team, match), entries=entries,
                              expected_version=expected_version)
