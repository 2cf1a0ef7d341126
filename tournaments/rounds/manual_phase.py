"""Reads of the manual pairing phase that the round's services need (publish, pair the next round):
whether a round's pairing is being edited by hand, and whether its breaches were confirmed when it was
validated. The phase itself is tournaments/rounds/manual_pairing.py, which builds on the services."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.utils.translation import gettext as _

from tournaments.conformance.policy import Code
from tournaments.errors import DomainError
from tournaments.models import Round


def is_editing(rnd: Round) -> bool:
    return rnd.manual_edit_started_at is not None


def refuse_if_editing(rnd: Round | None, action: str) -> None:
    """`action` is "publish" or "pair": what the open phase forbids."""
    if rnd is None or not is_editing(rnd):
        return
    if action == "publish":
        raise DomainError(_("Round %(round)s: its pairing is being edited by hand; validate the pairing before "
                            "publishing the round.") % {"round": rnd.number})
    raise DomainError(_("Round %(round)s: its pairing is being edited by hand; validate it before pairing the "
                        "next round.") % {"round": rnd.number})


_CHECKER_CODES = {"C1 rematch": Code.REMATCH, "forbidden pair": Code.FORBIDDEN_PAIR_PAIRED,
                  "C2 second bye": Code.BYE_INELIGIBLE, "C3 colour": Code.COLOUR_BREACH}


def confirmed_at_validation(rnd: Round, violations: Iterable[Any]) -> bool:
    """Whether every violation the checker finds in the round was confirmed when its manual pairing was
    validated (recorded as an event of the round): publishing then does not ask again."""
    have = set()
    for code, values in rnd.tournament.conformance_events.filter(round_number=rnd.number).values_list("code",
                                                                                                      "values"):
        numbers = values.get("numbers") or [values.get("number")]
        have.add((code, frozenset(numbers)))
    items = [(_CHECKER_CODES.get(v.criterion), frozenset(v.players)) for v in violations]
    return bool(items) and all(code is not None and (str(code), players) in have for code, players in items)
