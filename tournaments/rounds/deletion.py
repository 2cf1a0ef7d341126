"""What may never be deleted: anything that holds a result, a pairing or a game sheet of a paired round.

A round once published is the tournament's record: its pairing was announced, its results paired the
rounds after it, its sheets back its results. Such a record changes only through the correction path
(tournaments.rounds.corrections: a reason, the checklist's warning, an event). So deleting a game, a
sheet or a round of a published or completed round, an entry that played in one, a tournament that has
one, a conformance event of such a tournament (the warnings given and confirmed), or a team competition's
part of a published round (its matches and their boards, the teams and roster places that played in them,
the competition itself), is refused on every
path: the admin's delete page and bulk action (`refusals`, which the admin shows instead of its button), a
cascade, and `QuerySet.delete()` from the shell or a command (a `pre_delete`
receiver, connected in apps.py, raises `DeletionRefused`). Each refusal names what to do instead.

Still deleted freely: a draft round (to pair it again), its games, an entry that played nowhere, a
tournament with no published round, a team competition's schedule and line-ups of rounds not published.
A whole-tournament replacement from its own export (the JSON import
with --replace) and the tests' own clean-up delete inside `allowed()`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from contextvars import ContextVar
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Q, QuerySet
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.models import (
    ConformanceEvent,
    Entry,
    Game,
    GameSheet,
    Match,
    MatchBoard,
    RosterMember,
    Round,
    RoundStatus,
    Team,
    TeamCompetition,
    Tournament,
)

_ALLOWED: ContextVar[bool] = ContextVar("damier_deletion_allowed", default=False)

TEAM_GUARDED = (TeamCompetition, Team, RosterMember, Match, MatchBoard)
GUARDED = (Tournament, Round, Game, GameSheet, Entry, ConformanceEvent, *TEAM_GUARDED)


class DeletionRefused(DomainError):
    """Deleting this would lose a result, a pairing or a sheet of a paired round."""


@contextlib.contextmanager
def allowed() -> Iterator[None]:
    """Deletes inside are not checked: a tournament replaced by its own export, a test's clean-up."""
    token = _ALLOWED.set(True)
    try:
        yield
    finally:
        _ALLOWED.reset(token)


def _status(rnd: Round) -> str:
    return str(rnd.get_status_display()).lower()


def _stored(rnd_id: int) -> Round | None:
    # As stored now: the caller's instance may have been read before the round was published or completed.
    return Round.objects.select_related("tournament").filter(pk=rnd_id).first()


def why_not(obj: Any) -> str | None:
    """Why `obj` may not be deleted, in the reader's language, with what to do instead; None when it may."""
    if isinstance(obj, Tournament):
        played = list(Round.objects.filter(tournament_id=obj.pk).exclude(status=RoundStatus.DRAFT)
                      .order_by("number").values_list("number", flat=True))
        if played:
            return _("%(tournament)s cannot be deleted: round(s) %(rounds)s were published, and a tournament that "
                     "was played is kept. To take it off the public site, untick “public” on its page; to keep a "
                     "copy elsewhere, use the action “Export everything (JSON, for import_tournament)”.") \
                % {"tournament": obj, "rounds": ", ".join(map(str, played))}
        return None
    if isinstance(obj, Round):
        obj = _stored(obj.pk) or obj
        later = list(Round.objects.filter(tournament_id=obj.tournament_id, number__gt=obj.number)
                     .order_by("number").values_list("number", flat=True))
        if later:
            return _("%(round)s: rounds %(later)s were paired on it; it cannot be deleted.") \
                % {"round": obj, "later": ", ".join(map(str, later))}
        if obj.status != RoundStatus.DRAFT:
            return _("%(round)s is %(status)s: its pairing and results are kept. Correct a result on the round's "
                     "page (with a reason); a published round without any result goes back to draft in the control "
                     "room (“Take round %(number)s back to draft”), and a draft can then be deleted or paired "
                     "again.") % {"round": obj, "status": _status(obj), "number": obj.number}
        return None
    if isinstance(obj, Game):
        rnd = _stored(obj.round_id)
        if rnd is not None and rnd.status != RoundStatus.DRAFT:
            return _("Round %(round)s, board %(board)s of %(tournament)s cannot be deleted: the round is %(status)s. "
                     "Correct its result on the round's page (with a reason), or withdraw a player who leaves "
                     "(Entries, action “Withdraw the player (competition rules 5.9)”).") \
                % {"round": rnd.number, "board": obj.board, "tournament": rnd.tournament, "status": _status(rnd)}
        return None
    if isinstance(obj, GameSheet):
        game = Game.objects.filter(pk=obj.game_id).first()
        rnd = _stored(game.round_id) if game is not None else None
        if game is not None and rnd is not None and rnd.status != RoundStatus.DRAFT:
            return _("The game sheet of round %(round)s, board %(board)s cannot be deleted: it backs the game's "
                     "result. Upload the right sheet in its place (tick “Replace the sheet already stored”).") \
                % {"round": rnd.number, "board": game.board}
        return None
    if isinstance(obj, Entry):
        rounds = sorted(set(Game.objects.filter(Q(white_id=obj.pk) | Q(black_id=obj.pk))
                            .exclude(round__status=RoundStatus.DRAFT).values_list("round__number", flat=True)))
        if rounds:
            return _("%(player)s cannot be taken out of %(tournament)s: he is paired in round(s) %(rounds)s. "
                     "Withdraw him instead (Entries, action “Withdraw the player (competition rules 5.9)”), or "
                     "expel him (“Expel the player (competition rules 2.6)”).") \
                % {"player": obj.player, "tournament": obj.tournament, "rounds": ", ".join(map(str, rounds))}
        return None
    if isinstance(obj, TEAM_GUARDED):
        return _team_why_not(obj)
    if isinstance(obj, get_user_model()):
        return _account_named(obj)
    if isinstance(obj, ConformanceEvent):
        if Round.objects.filter(tournament_id=obj.tournament_id).exclude(status=RoundStatus.DRAFT).exists():
            return _("The conformance event “%(event)s” of %(tournament)s cannot be deleted: it records a warning "
                     "given or confirmed, and is a ### line of the tournament's TRF. What changed since is "
                     "recorded as an event of its own.") % {"event": obj, "tournament": obj.tournament}
        return None
    return None


def _played_rounds(tournament_id: int, numbers: Iterable[int]) -> list[int]:
    """The rounds among `numbers` of the tournament that are published or completed, in order."""
    return list(Round.objects.filter(tournament_id=tournament_id, number__in=set(numbers))
                .exclude(status=RoundStatus.DRAFT).order_by("number").values_list("number", flat=True))


def _team_why_not(obj: Any) -> str | None:
    """A team competition's part of the record: the matches of a published round (their line-ups, forfeits
    and decisions are what its games and standings stand on), the teams and roster places that played in
    them, and the competition once a round of it is published. The schedule and line-ups of rounds not
    published yet may still go."""
    if isinstance(obj, TeamCompetition):
        played = _played_rounds(obj.tournament_id, Round.objects.filter(tournament_id=obj.tournament_id)
                                .values_list("number", flat=True))
        if played:
            return _("%(competition)s cannot be deleted: round(s) %(rounds)s were published, and its teams, "
                     "line-ups and matches are the record of those games.") \
                % {"competition": obj, "rounds": ", ".join(map(str, played))}
        return None
    if isinstance(obj, (Match, MatchBoard)):
        match = obj if isinstance(obj, Match) else Match.objects.filter(pk=obj.match_id).first()
        if match is None:
            return None
        match = Match.objects.select_related("competition", "home", "away").filter(pk=match.pk).first() or match
        if not _played_rounds(match.competition.tournament_id, [match.round_number]):
            return None
        if isinstance(obj, MatchBoard):
            return _("Board %(board)s of %(match)s cannot be deleted: round %(round)s is published, and the board "
                     "is part of its record. Correct its result on the round's page (with a reason).") \
                % {"board": obj.number, "match": match, "round": match.round_number}
        return _("%(match)s cannot be deleted: round %(round)s is published, and the match is part of its record. "
                 "Correct a board's result on the round's page (with a reason); a published round without any "
                 "result can be taken back to draft first.") % {"match": match, "round": match.round_number}
    if isinstance(obj, Team):
        numbers = Match.objects.filter(Q(home_id=obj.pk) | Q(away_id=obj.pk)).values_list("round_number", flat=True)
        played = _played_rounds(obj.competition.tournament_id, numbers)
        if played:
            return _("%(team)s cannot be deleted: it played in round(s) %(rounds)s of %(competition)s, and its "
                     "matches and line-ups are the record of those games.") \
                % {"team": obj, "rounds": ", ".join(map(str, played)), "competition": obj.competition}
        return None
    # A roster place: the rounds whose line-ups name the player for this team.
    team = Team.objects.select_related("competition").filter(pk=obj.team_id).first()
    if team is None:
        return None
    numbers = MatchBoard.objects.filter(
        Q(match__home_id=team.pk, home_entry_id=obj.entry_id) | Q(match__away_id=team.pk, away_entry_id=obj.entry_id)
    ).values_list("match__round_number", flat=True)
    played = _played_rounds(team.competition.tournament_id, numbers)
    if played:
        return _("%(player)s cannot be taken off the roster of %(team)s: he played for it in round(s) %(rounds)s, "
                 "and the line-ups of those rounds name him.") \
            % {"player": obj.entry.player, "team": team, "rounds": ", ".join(map(str, played))}
    return None


def _account_named(user: Any) -> str | None:
    """An account the record names (who entered, corrected or confirmed what): deleting it would empty every
    one of those names (their relations are SET_NULL), so it is made inactive instead."""
    named = ConformanceEvent.objects.filter(created_by=user).exists() or any(
        model.history.filter(history_user=user).exists() for model in (Game, Round, Entry, GameSheet, Tournament))
    if not named:
        return None
    return _("The account %(user)s cannot be deleted: the tournaments' record names it (who entered, corrected or "
             "confirmed what), and would lose the name. Untick “active” on the account's page instead: it can no "
             "longer log in, and the record keeps its name.") % {"user": user.get_username()}


def refusals(objs: Iterable[Any]) -> list[str]:
    """Every refusal among `objs` (the admin's delete page and bulk action list them instead of a button)."""
    return [why for obj in objs if (why := why_not(obj)) is not None]


def _origin_reason(origin: Any) -> str | None:
    """The refusal worded for what the arbiter asked to delete (a tournament, an entry), not for the first
    game the cascade reached."""
    guarded = (*GUARDED, get_user_model())
    if isinstance(origin, QuerySet):
        if origin.model not in guarded:
            return None
        for obj in origin:
            if (why := why_not(obj)) is not None:
                return why
        return None
    return why_not(origin) if isinstance(origin, guarded) else None


def guard(sender: Any, instance: Any, origin: Any = None, **kwargs: Any) -> None:
    """pre_delete: refuse the whole delete (the caller's transaction rolls it back) when one object is kept."""
    if _ALLOWED.get():
        return
    why = why_not(instance)
    if why is not None:
        raise DeletionRefused(_origin_reason(origin) or why)


def connect() -> None:
    from django.db.models.signals import pre_delete

    for model in GUARDED:
        pre_delete.connect(guard, sender=model, dispatch_uid=f"damier-keep-{model.__name__}")
    pre_delete.connect(guard, sender=get_user_model(), dispatch_uid="damier-keep-account")
