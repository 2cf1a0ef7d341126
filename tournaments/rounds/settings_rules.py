"""The rules a tournament's settings obey that depend on what is stored.

What the paired rounds were built on may not change under them (the system, the rating and colour
settings, fewer rounds than are paired), and a round robin's tie-breaks must separate players who all
met the same field. The model checks each value alone (Tournament.clean); these rules read the stored
row and its rounds, so every path that changes a tournament's settings asks here: the admin's form
(tournaments/admin/tournaments.py), the service that saves it (rounds.under_way.tournament_save), and
the JSON and TRF imports (tournaments/exchange/).
"""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.models import System, Tournament
from tournaments.standings import meaningless_in_round_robin
from tournaments.words import tiebreak_label


def settings_refusals(tournament: Tournament) -> dict[str, str]:
    """What is refused in the tournament's settings as edited, by field (empty: nothing). A change of what
    the paired rounds were built on comes alone: it is the decisive error, whatever else was edited."""
    return fixed_once_paired(tournament) or round_robin_tiebreaks(tournament)


def check_settings(tournament: Tournament) -> None:
    """For a form or an import checking a tournament as it checks its fields: ValidationError by field."""
    if refusals := settings_refusals(tournament):
        raise ValidationError(refusals)


def require_settings(tournament: Tournament) -> None:
    """For a service: DomainError naming every refusal."""
    if refusals := settings_refusals(tournament):
        raise DomainError(" ".join(refusals.values()))


def fixed_once_paired(tournament: Tournament) -> dict[str, str]:
    """What the paired rounds were built on may not change under them (rematches, lost colours)."""
    if tournament.pk is None:
        return {}
    stored = Tournament.objects.filter(pk=tournament.pk).values(
        "system", "rating_method", "tie_order", "rr_reverse_last_two", "first_colour", "fmjd_list_id",
        "national_list_id").first()
    if stored is None:
        return {}
    last = tournament.rounds.aggregate(m=Max("number"))["m"]
    if not last:
        return {}
    if stored["system"] != tournament.system:
        return {"system": _("The system cannot change once round 1 is paired (%(n)s round(s) paired as "
                            "%(system)s).") % {"n": last, "system": System(stored["system"]).label}}
    if errors := _rating_and_colour(stored, tournament):
        return errors
    if tournament.system == System.SWISS and tournament.rounds_total is not None and tournament.rounds_total < last:
        return {"rounds_total": _("%(n)s rounds are already paired: the number of rounds cannot be smaller.")
                % {"n": last}}
    return {}


def _rating_and_colour(stored: dict[str, object], tournament: Tournament) -> dict[str, str]:
    """The rating, colour and round-robin settings a paired round was built on. (The settings that may
    change with a level-4 confirmation are tournaments.rounds.under_way.WATCHED.)"""
    errors: dict[str, str] = {}
    if stored["rating_method"] != tournament.rating_method:
        errors["rating_method"] = _("The tournament rating cannot change once round 1 is paired: the pairing "
                                    "numbers and the rating tie-breaks were set on it.")
    for name in ("fmjd_list", "national_list"):
        if stored[f"{name}_id"] != getattr(tournament, f"{name}_id"):
            # The entries keep their values from the list chosen before round 1; a later list is taken
            # entry by entry, with its warning (tournaments.players.rating_lists.list_change).
            errors[name] = _("The rating list cannot change on the settings once round 1 is paired: the pairing "
                             "numbers and the rating tie-breaks were made on its values. Compare a later list on "
                             "the pairing-numbers page and take the changes you choose.")
    if stored["tie_order"] != tournament.tie_order:
        errors["tie_order"] = _("The order of equal ratings was announced before round 1 and the pairing "
                                "numbers follow it: it cannot change now.")
    if stored["first_colour"] != tournament.first_colour and not tournament.is_round_robin:
        # The colour drawn by lot before round 1 gave round 1's colours, and every later colour the Dutch
        # system gives when nothing else decides (E.5); the TRF carries it (XXC) for a checker to rebuild
        # round 1. Changed now, the record would contradict the boards already played.
        errors["first_colour"] = _("The first-round colour was drawn before round 1 and round 1's colours were "
                                   "given by it: it cannot change now. If round 1 is still a draft, delete it, "
                                   "change the colour and pair it again.")
    if stored["rr_reverse_last_two"] != tournament.rr_reverse_last_two and tournament.is_round_robin:
        errors["rr_reverse_last_two"] = _("The schedule of a round robin is fixed once round 1 is paired: the "
                                          "order of its rounds cannot change now.")
    return errors


def round_robin_tiebreaks(tournament: Tournament) -> dict[str, str]:
    """A round robin's tie-breaks must separate players who met the same field. A tournament stored with
    such a list before the rule keeps it until its list or its system changes."""
    names = tournament.tiebreaks
    if not tournament.is_round_robin or not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return {}  # a malformed list is the model's refusal (Tournament.clean)
    stored = (Tournament.objects.filter(pk=tournament.pk).values("tiebreaks", "system").first()
              if tournament.pk else None)
    if stored is not None and stored["tiebreaks"] == names and stored["system"] == tournament.system:
        return {}
    if bad := meaningless_in_round_robin(names):
        return {"tiebreaks": _(
            "%(names)s mean nothing in a round robin, where everyone meets the same field: the Solkoff "
            "(Buchholz) family and the opponents' average rating give the same field to every player. "
            "Choose the wins, the mutual result, the ranking order or Sonneborn-Berger.")
            % {"names": ", ".join(str(tiebreak_label(n)) for n in bad)}}
    return {}
