"""Reads for running the rounds: the control room's view of a tournament and its next step, what
a correction means for the rounds paired after it, what deleting a round would lose, a round robin's
whole schedule.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from tournaments.models import Entry, Game, Numbering, Round, RoundStatus, System, Tournament
from tournaments.pairing.roundrobin import berger_schedule
from tournaments.results import Result
from tournaments.rounds.manual_phase import confirmed_at_validation
from tournaments.rounds.pairing_bridge import broken_criteria, check_round, round_violations, violation_words
from tournaments.selectors import rating_order_key, rounds_total


@dataclass(frozen=True)
class RoundLine:
    round: Round
    games: int
    missing: list[int]  # boards without a result yet


@dataclass(frozen=True)
class Step:
    """One thing the arbiter can do next. `name` is the step the step URL takes (or "results", a page,
    "wait" and "done", which post nothing); `round` and `version` are what the state was read at."""

    name: str
    round: int
    version: int = 0


@dataclass(frozen=True)
class ControlRoom:
    tournament: Tournament
    rounds: list[RoundLine]
    total: int  # rounds the tournament will have (a round robin's follows from its players)
    players: int
    step: Step
    alternatives: list[Step]
    draft: Round | None  # the last round when it is a draft: shown for a look before publishing
    draft_games: list[Game]
    draft_violations: list[str]
    rating_order: list[Entry]  # a Swiss numbering by rating: the order round 1 will be paired in
    draft_confirmed: bool = False  # its broken criteria were confirmed when its manual pairing was validated


def control_room(tournament: Tournament) -> ControlRoom:
    """Every round with its state and missing results, and the next step. A fixed number of queries
    (plus the pairing check of a draft Swiss round)."""
    rounds = list(tournament.rounds.annotate(
        n_games=Count("games"), n_missing=Count("games", filter=Q(games__result=""))).order_by("number"))
    missing: dict[int, list[int]] = {}
    for round_id, board in Game.objects.filter(round__tournament=tournament, result="").order_by(
            "board").values_list("round_id", "board"):
        missing.setdefault(round_id, []).append(board)
    lines = [RoundLine(r, r.n_games, missing.get(r.pk, [])) for r in rounds]  # type: ignore[attr-defined]
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    total = rounds_total(tournament, len(entries))
    last = rounds[-1] if rounds else None
    alternatives: list[Step] = []
    draft, draft_games, draft_violations = None, [], []
    draft_confirmed = False
    rating_order: list[Entry] = []
    if last is None:
        if len(entries) < 2:
            step = Step("wait", 1)
        elif tournament.is_round_robin and tournament.numbering == Numbering.AUTO:
            step, alternatives = Step("draw", 1), [Step("keep", 1)]
        else:
            step = Step("pair", 1)
            if tournament.is_round_robin:
                alternatives = [Step("draw", 1)]
            elif tournament.numbering != Numbering.AUTO:
                alternatives = [Step("number", 1)]
        if not tournament.is_round_robin and tournament.numbering == Numbering.AUTO:
            rating_order = sorted(entries, key=rating_order_key)
    elif last.status == RoundStatus.DRAFT and last.manual_edit_started_at is not None:
        # The manual pairing phase is open: it ends on its own page, by "Validate".
        step, alternatives = Step("manual", last.number, last.version), [Step("pair_again", last.number,
                                                                               last.version)]
        draft, draft_games = last, list(last.games.select_related("white__player", "black__player").order_by("board"))
    elif last.status == RoundStatus.DRAFT:
        step, alternatives = Step("publish", last.number, last.version), [Step("pair_again", last.number,
                                                                                last.version)]
        if not tournament.is_round_robin:
            alternatives.append(Step("edit", last.number, last.version))
        draft, draft_games = last, list(last.games.select_related("white__player", "black__player").order_by("board"))
        try:
            draft_violations = round_violations(last)
            draft_confirmed = bool(draft_violations) and confirmed_at_validation(last, broken_criteria(last))
        except Exception as exc:  # the check needs every earlier result; say why it could not run
            draft_violations = [str(exc)]
    elif last.status == RoundStatus.PUBLISHED:
        step = Step("results", last.number, last.version) if missing.get(last.pk) else \
            Step("complete", last.number, last.version)
        if not _has_entered_results(last):
            alternatives = [Step("unpublish", last.number, last.version)]
    elif last.number < total:
        step = Step("pair", last.number + 1)
    else:
        step = Step("done", last.number)
    return ControlRoom(tournament, lines, total, len(entries), step, alternatives, draft, draft_games,
                       draft_violations, rating_order, draft_confirmed)


def _has_entered_results(rnd: Round) -> bool:
    automatic = {Result.BYE.value, Result.EXCUSED.value, Result.NOT_PLAYED.value, ""}
    return rnd.games.exclude(result__in=automatic).exists() or rnd.games.filter(sheet__isnull=False).exists()


def correction_warnings(game: Game) -> list[str]:
    """After a result was corrected: the later rounds paired on the old result, in words, and what the
    pairing check says of each now. The later pairing stands (FMJD and FIDE practice): nothing changes
    by itself, the arbiter decides. A round robin's Berger tables do not depend on results: only that is said."""

    rnd = game.round
    tournament = rnd.tournament
    later = list(tournament.rounds.filter(number__gt=rnd.number).order_by("number"))
    if not later:
        return []
    if tournament.is_round_robin:
        # Said anyway: an arbiter who corrects an old result wonders whether the later rounds move.
        return [ngettext("Round %(rounds)s is already paired; a round robin follows the Berger tables, which do "
                         "not depend on results: nothing else changes.",
                         "Rounds %(rounds)s are already paired; a round robin follows the Berger tables, which do "
                         "not depend on results: nothing else changes.", len(later))
                % {"rounds": ", ".join(str(r.number) for r in later)}]
    history = list(Game.history.filter(id=game.pk).order_by("-history_date", "-history_id")  # type: ignore[attr-defined]
                   .values_list("result", "history_date")[:50])
    old = next((result for result, _date in history[1:] if result != game.result), None)
    changed_at = history[0][1] if history else None
    created = dict(Round.history.filter(  # type: ignore[attr-defined]
        id__in=[r.pk for r in later], history_type="+").values_list("id", "history_date"))
    paired_before = [r for r in later if changed_at is None or created.get(r.pk) is None
                     or created[r.pk] <= changed_at]
    if not paired_before:
        return []

    names = ", ".join(str(r.number) for r in paired_before)
    words = [ngettext("Round %(rounds)s was paired when board %(board)s of round %(round)s read %(old)s (now "
                      "%(new)s). Its pairing stands; nothing was changed by itself.",
                      "Rounds %(rounds)s were paired when board %(board)s of round %(round)s read %(old)s (now "
                      "%(new)s). Their pairing stands; nothing was changed by itself.", len(paired_before))
             % {"rounds": names, "board": game.board, "round": rnd.number, "old": old or _("no result"),
                "new": game.result or _("no result")}]
    for r in paired_before:
        try:
            report = check_round(tournament, r.number)
        except Exception as exc:  # an earlier round of it still lacks a result: the check cannot run yet
            words.append(_("Pairing check of round %(number)s: not possible yet (%(why)s).")
                         % {"number": r.number, "why": exc})
            continue
        if report.violations:

            broken = " ".join(violation_words(tournament, report.violations))
            words.append(_("Pairing check of round %(number)s now: %(broken)s") % {"number": r.number,
                                                                                     "broken": broken})
        elif report.differs:
            words.append(_("Pairing check of round %(number)s now: no absolute criterion is broken, but the "
                           "engine would now pair it differently.") % {"number": r.number})
        else:
            words.append(_("Pairing check of round %(number)s now: no absolute criterion is broken, and it is "
                           "still the engine's own pairing.") % {"number": r.number})
    return words


def berger_table(tournament: Tournament) -> list[list[tuple[Entry, Entry | None]]]:
    """A round robin's whole schedule on today's pairing numbers: rounds, then boards (white, black or None
    for the free round). Empty unless the numbers run 1..n."""

    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    if len(entries) < 2 or [e.pairing_number for e in entries] != list(range(1, len(entries) + 1)):
        return []
    by_number = {e.pairing_number: e for e in entries}
    schedule = berger_schedule(len(entries), double=tournament.system == System.DOUBLE_ROUND_ROBIN,
                               reverse_last_two=tournament.rr_reverse_last_two)
    return [[(by_number[w], by_number[b] if b is not None else None) for w, b in boards] for boards in schedule]
