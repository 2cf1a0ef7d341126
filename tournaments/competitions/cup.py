"""A knock-out cup after its matches are played: who goes through, by which step of the competition's rule,
the barrage of a drawn match, the drawing of lots, and the next round made from the winners.

A match is decided once every board has its result (or it was forfeited): more board points go through;
a drawn match goes through the competition's `cup_tie` steps in order (`tournaments.teams.scoring.cup_winner`).
The decision is recorded on the match (`winner`, `decided_by` as a code) like a result, version-checked.
A barrage is a match of its own in the same round, at the next free table, played at the competition's
barrage time control with the same line-ups and the colours swapped (the only stored text on it, the
PLDB's: "De teamopstelling is daarbij gelijk aan die in de eerdere wedstrijd evenwel met verwisselde
kleuren", docs/research/team-competitions.md 1b). Lots are drawn with `secrets` when the arbiter asks,
and the seed is kept so the draw can be repeated and checked. A bye's home team goes through.
"""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _
from simple_history.utils import bulk_create_with_history

from tournaments.errors import DomainError
from tournaments.models import Game, Match, MatchBoard, Round, RoundStatus, TeamCompetition
from tournaments.rounds import services as round_services
from tournaments.teams import scoring
from tournaments.teams.settings import CupTie

from .lineups import _locked_match, _round_of, _save_match, games_make
from .selectors import match_states, settings_of
from .setup import bump, locked_competition
from .words import reason_words

BYE = "bye"  # decided_by of a bye: the home team goes through without playing
_SEED_BITS = 63  # Match.lots_seed is a PositiveBigIntegerField: below 2**63


def _scored(competition: TeamCompetition, match: Match) -> scoring.Match | None:
    """The match as the engine scores it once complete; None while a board has no result."""
    state = next((s for s in match_states(competition, match.round_number) if s.match.pk == match.pk), None)
    return state.scored if state is not None else None


def _incomplete(match: Match) -> DomainError:
    return DomainError(_("%(match)s is not finished: every board needs its result before the match is decided.")
                       % {"match": match})


def _decision(competition: TeamCompetition, match: Match) -> tuple[scoring.CupDecision, bool]:
    """The decision of the rule as far as it goes with what is recorded, and whether lots are still to be
    drawn (the steps before them did not separate the teams and no seed is recorded yet)."""
    scored = _scored(competition, match)
    if scored is None:
        raise _incomplete(match)
    barrage_scored: scoring.Match | None = None
    barrage = Match.objects.filter(barrage_of=match).select_related("home", "away").first()
    if barrage is not None:
        barrage_scored = _scored(competition, barrage)
        if barrage_scored is None:
            raise DomainError(_("The barrage of %(match)s is not finished: every board needs its result first.")
                              % {"match": match})
    settings = settings_of(competition)
    if match.lots_seed is None and CupTie.LOTS in settings.cup_tie:
        before = dataclasses.replace(settings, cup_tie=tuple(s for s in settings.cup_tie if s is not CupTie.LOTS))
        decision = scoring.cup_winner(scored, before, barrage=barrage_scored)
        if decision.winner is None and not (decision.reason is scoring.CupReason.UNDECIDED
                                            and CupTie.BARRAGE in settings.cup_tie and barrage_scored is None):
            return decision, True
        return decision, False
    return scoring.cup_winner(scored, settings, lots_seed=match.lots_seed, barrage=barrage_scored), False


def _record(competition: TeamCompetition, match: Match, decision: scoring.CupDecision, user: Any) -> Match:
    assert decision.winner is not None
    match.winner = match.home if decision.winner == match.home.name else match.away
    match.decided_by = decision.reason.value
    return _save_match(competition, match, ["winner", "decided_by"], user)


def _refuse_after_next_round(competition: TeamCompetition, match: Match) -> None:
    if competition.matches.filter(round_number=match.round_number + 1).exists():
        raise DomainError(_("Round %(next)s of the cup is already made from the winners of round %(round)s: "
                            "%(match)s stays decided as it is.")
                          % {"next": match.round_number + 1, "round": match.round_number, "match": match})


def _cup_match(match: Match) -> tuple[TeamCompetition, Match]:
    competition = match.competition
    if competition.kind != "cup":
        raise DomainError(_("%(competition)s is a league, not a cup: its matches are not decided by a cup’s rule.")
                          % {"competition": competition})
    if match.barrage_of_id is not None:
        raise DomainError(_("%(match)s is a barrage: decide the match it was played for.") % {"match": match})
    return competition, match


@transaction.atomic
def match_decide(*, match: Match, expected_version: int | None = None, user: Any = None) -> Match:
    """Record who goes through a finished cup match, and why. Refused, with what to do, when the rule stops
    at a barrage not yet played or at lots not yet drawn."""
    _cup_match(match)
    competition, match = _locked_match(match, expected_version)
    _refuse_after_next_round(competition, match)
    if match.away_id is None:
        match.winner, match.decided_by = match.home, BYE
        return _save_match(competition, match, ["winner", "decided_by"], user)
    decision, lots_due = _decision(competition, match)
    if lots_due:
        raise DomainError(_("%(match)s is drawn and the steps of the rule before lots do not separate the teams: "
                            "draw lots.") % {"match": match})
    if decision.winner is None:
        if decision.reason is scoring.CupReason.FORFEIT:
            raise DomainError(_("Neither team played %(match)s: nobody goes through by the rule; the cup's "
                                "regulations must say what follows.") % {"match": match})
        if CupTie.BARRAGE in settings_of(competition).cup_tie:
            raise DomainError(_("%(match)s is drawn and goes to a barrage: make the barrage and enter its results.")
                              % {"match": match})
        raise DomainError(_("%(match)s is drawn and the competition's rule does not separate the teams: add a "
                            "step to it (lots always decide).") % {"match": match})
    return _record(competition, match, decision, user)


@transaction.atomic
def lots_draw(*, match: Match, expected_version: int | None = None, user: Any = None) -> Match:
    """Draw lots for a drawn cup match whose earlier steps did not separate the teams: a seed from `secrets`,
    kept on the match, so the same draw (`tournaments.teams.scoring.cup_winner`) can be repeated and checked."""
    _cup_match(match)
    competition, match = _locked_match(match, expected_version)
    _refuse_after_next_round(competition, match)
    if match.lots_seed is not None:
        raise DomainError(_("Lots were already drawn for %(match)s (seed %(seed)s): a draw is never made twice.")
                          % {"match": match, "seed": match.lots_seed})
    if match.away_id is None:
        raise DomainError(_("%(match)s is a bye: there is nothing to draw.") % {"match": match})
    decided, lots_due = _decision(competition, match)
    if not lots_due:
        raise DomainError(_("%(match)s is decided without lots (%(reason)s): nothing is drawn.")
                          % {"match": match, "reason": reason_words(decided.reason.value)})
    match.lots_seed = secrets.randbits(_SEED_BITS)
    match.save(update_fields=["lots_seed"])
    return _record(competition, match, _decision(competition, match)[0], user)


@transaction.atomic
def barrage_make(*, match: Match, expected_version: int | None = None, user: Any = None) -> Match:
    """The barrage of a drawn cup match whose rule calls for one: a match of the same round at the next free
    table, the same line-ups with the colours swapped (the away team becomes the first-named one, so it has
    White where the home team had it). Its games are made at once when the round is already published."""
    _cup_match(match)
    competition, match = _locked_match(match, expected_version)
    _refuse_after_next_round(competition, match)
    if Match.objects.filter(barrage_of=match).exists():
        raise DomainError(_("%(match)s already has its barrage.") % {"match": match})
    if not competition.barrage_time_control.strip():
        raise DomainError(_("%(competition)s names no time control for a barrage: set it in the competition's "
                            "rules first.") % {"competition": competition})
    decision, _lots = _decision(competition, match)
    if decision.reason is not scoring.CupReason.UNDECIDED:
        raise DomainError(_("%(match)s needs no barrage: it is decided (%(reason)s).")
                          % {"match": match, "reason": reason_words(decision.reason.value)})
    table = (competition.matches.filter(round_number=match.round_number).aggregate(m=Max("table"))["m"] or 0) + 1
    barrage = Match(competition=competition, round_number=match.round_number, table=table, home=match.away,
                    away=match.home, barrage_of=match)
    if user is not None:
        barrage._history_user = user  # type: ignore[attr-defined]
    barrage.save()
    boards = [MatchBoard(match=barrage, number=b.number, home_entry_id=b.away_entry_id,
                         away_entry_id=b.home_entry_id) for b in match.boards.order_by("number")]
    bulk_create_with_history(boards, MatchBoard)
    rnd = _round_of(competition, match.round_number)
    if rnd is not None and rnd.status != RoundStatus.DRAFT:
        barrage_publish(competition=competition, barrage=barrage, rnd=rnd)
    bump(competition)
    return barrage


def barrage_publish(*, competition: TeamCompetition, barrage: Match, rnd: Round) -> list[Game]:
    """The games of a barrage added to its round after the round was published (before, `round_publish`
    makes them with the round's). A completed round is reopened: its games are not all played now."""
    if rnd.status == RoundStatus.COMPLETED:
        rnd = round_services.round_reopen(round=rnd)
    return games_make(competition, barrage, list(barrage.boards.order_by("number")), rnd)


@transaction.atomic
def round_decide(*, competition: TeamCompetition, number: int, user: Any = None) -> list[tuple[Match, str]]:
    """Decide every match of a cup round that its rule decides with what is recorded; the rest are returned
    with what the arbiter must do (make the barrage, draw lots), in the reader's language."""
    waiting: list[tuple[Match, str]] = []
    for match in competition.matches.filter(round_number=number, barrage_of__isnull=True).order_by("table"):
        try:
            match_decide(match=match, user=user)
        except DomainError as refused:
            waiting.append((match, str(refused)))
    return waiting


@transaction.atomic
def next_round_make(*, competition: TeamCompetition, expected_version: int | None = None,
                    user: Any = None) -> list[Match]:
    """The next cup round from the winners of the last one, in bracket order: the winners of matches 1 and 2
    meet in match 1 (the first-named first), 3 and 4 in match 2, and so on. Made only when every match of
    the last round is decided."""
    competition = locked_competition(competition, expected_version)
    if competition.kind != "cup":
        raise DomainError(_("%(competition)s is a league: its schedule is made in full at the start.")
                          % {"competition": competition})
    last = competition.matches.aggregate(m=Max("round_number"))["m"]
    if last is None:
        raise DomainError(_("%(competition)s has no schedule yet: make its first round first.")
                          % {"competition": competition})
    matches = list(competition.matches.filter(round_number=last, barrage_of__isnull=True)
                   .select_related("winner").order_by("table"))
    undecided = [str(m) for m in matches if m.winner_id is None]
    if undecided:
        raise DomainError(_("Round %(round)s is not decided yet: %(matches)s. Decide every match before the next "
                            "round is made.") % {"round": last, "matches": "; ".join(undecided)})
    if len(matches) == 1:
        raise DomainError(_("The cup is over: %(team)s won the final.") % {"team": matches[0].winner})
    rnd = _round_of(competition, last)
    if rnd is None or rnd.status != RoundStatus.COMPLETED:
        raise DomainError(_("Round %(round)s is not completed yet: complete it before the next round is made.")
                          % {"round": last})
    made = [Match(competition=competition, round_number=last + 1, table=table, home=first.winner,
                  away=second.winner)
            for table, (first, second) in enumerate(zip(matches[0::2], matches[1::2], strict=True), start=1)]
    bulk_create_with_history(made, Match)
    bump(competition)
    return list(competition.matches.filter(round_number=last + 1).order_by("table"))

