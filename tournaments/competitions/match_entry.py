"""A match's line-ups saved as one decision: both teams' boards and the whole-match forfeit, all or nothing.

The arbiter's line-up screen sends a whole match at once. Both teams' line-ups are checked against the
version the page was read at, and every problem of both is named before anything is kept: one team's
refused line-up leaves the other's unsaved too, so the page shows the match exactly as it was typed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, Match, MatchForfeit

from . import lineups

SIDES = (lineups.HOME, lineups.AWAY)


class LineupRefused(DomainError):
    """A match's line-ups refused: what is wrong, by side ("home", "away", or "match" for the match itself)."""

    def __init__(self, by_side: dict[str, str]) -> None:
        self.by_side = by_side
        super().__init__(" ".join(by_side.values()))


def stored_lineup(match: Match, side: str, boards: int) -> list[int | None]:
    by_number = {b.number: getattr(b, f"{side}_entry_id") for b in match.boards.all()}
    return [by_number.get(n) for n in range(1, boards + 1)]


@transaction.atomic
def match_save(*, match: Match, entries: Mapping[str, Sequence[Entry | None]], forfeit: str,
               expected_version: int | None, user: Any = None) -> Match:
    """Save what the screen holds for a match: the forfeit ("none" for a played match) and, for a played
    match, each team's line-up that differs from the stored one. LineupRefused names every problem."""
    if forfeit not in MatchForfeit.values:
        raise LineupRefused({"match": _("Unknown forfeit “%(value)s”.") % {"value": forfeit}})
    match = Match.objects.select_related("home", "away", "competition").get(pk=match.pk)
    if expected_version is not None and match.version != expected_version:
        raise StaleEditError(_("The match %(match)s was changed by someone else since you read it: nothing was "
                               "done; look at it again.") % {"match": match})
    boards = match.competition.boards
    current = expected_version
    if forfeit != match.forfeit and (forfeit == MatchForfeit.NONE or match.forfeit != MatchForfeit.NONE):
        # Back to a played match first (the line-ups then go in), or from one forfeit to another.
        match = lineups.match_forfeit_set(match=match, forfeit=MatchForfeit.NONE, expected_version=current, user=user)
        current = match.version
    problems: dict[str, str] = {}
    if forfeit == MatchForfeit.NONE:
        for side in SIDES:
            if side not in entries:
                continue  # a side the caller does not give stays as stored
            wanted = list(entries[side])
            if [e.pk if e else None for e in wanted] == stored_lineup(match, side, boards):
                continue
            try:
                match = lineups.lineup_set(match=match, side=side, entries=wanted, expected_version=current,
                                           user=user)
                current = match.version
            except StaleEditError:
                raise
            except DomainError as exc:
                problems[side] = str(exc)
    elif forfeit != match.forfeit:
        match = lineups.match_forfeit_set(match=match, forfeit=forfeit, expected_version=current, user=user)
    if problems:
        raise LineupRefused(problems)  # the atomic block takes back what the other side saved
    return match
