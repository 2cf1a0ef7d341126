"""The admin standings page's final part: whether the standings are final, and the ties
the tie-breaks leave, resolved by lot or by hand, each confirmed on the page and recorded."""

from __future__ import annotations

import re
from typing import Any

from django.contrib import messages
from django.core import signing
from django.http import HttpRequest
from django.utils.translation import gettext

from rules.numbers import number_or_none
from tournaments import selectors
from tournaments.admin import warnings
from tournaments.admin.base import run_service
from tournaments.conformance import events
from tournaments.errors import DomainError
from tournaments.models import Tournament, numbered
from tournaments.permissions import can_manage
from tournaments.ranking import final_standings
from tournaments.standings.final import tie_groups


def _pairing_numbers(typed: str) -> list[int]:
    """The numbers typed, in order; anything between them separates them. A run of digits that is not a
    number (other scripts' digits, too many digits) is refused by name: the service would not know it."""
    runs = re.findall(r"\d+", typed)  # every script's digits, on purpose: each must be a number read here
    numbers = [number_or_none(run) for run in runs]
    if None in numbers:
        bad = runs[numbers.index(None)]
        raise DomainError(gettext("Order by hand: %(numbers)s is not a pairing number of a ranked player.")
                          % {"numbers": bad[:12] + ("…" if len(bad) > 12 else "")})
    return [n for n in numbers if n is not None]


def ties_context(request: HttpRequest, tournament: Tournament) -> dict[str, Any]:
    """Runs the asked step (POST) and returns what the page shows: the state, the ties, what to confirm."""
    out: dict[str, Any] = {"to_confirm": "", "typed_order": "", "asked": "", "lots_token": ""}
    if request.method == "POST" and can_manage(request.user, tournament):
        out["asked"] = "lots" if "draw_lots" in request.POST else "hand" if "order_by_hand" in request.POST else ""
        out["typed_order"] = (request.POST.get("tie_order") or "").strip()
        confirmed = request.POST.getlist("confirm")

        def step() -> None:
            if out["asked"] == "lots":
                shown = _shown(tournament, request.POST.get("lots_token", ""))
                # A confirmation counts only for the draw it was shown with (its seed rides in the page).
                seed = final_standings.ties_draw_lots(tournament=tournament, confirmed=confirmed if shown else [],
                                                      user=request.user, shown=shown)
                messages.success(request, gettext("Ties drawn by lot (seed %(seed)s).") % {"seed": seed})
            elif out["asked"] == "hand":
                numbers = _pairing_numbers(out["typed_order"])
                final_standings.ties_order_by_hand(tournament=tournament, order=numbers, confirmed=confirmed,
                                                   user=request.user)
                messages.success(request, gettext("Tied players ordered by hand."))

        try:
            run_service(request, step, passes=(events.NeedsConfirmation,))
        except events.NeedsConfirmation as exc:
            out["to_confirm"] = warnings.block(request, exc.warnings, field="confirm")
            out["lots_token"] = "".join(_token(tournament, w.values) for w in exc.warnings
                                        if str(w.code) == "lots-drawn")
        tournament.refresh_from_db()
    state = final_standings.final_state(tournament)
    out["final_text"] = final_standings.status_text(state)
    out["is_final"] = state.final
    bare = Tournament.objects.get(pk=tournament.pk)
    bare.lots_seed, bare.hand_order = None, []
    out["ties"] = [[numbered(r.player.pairing_number, r.player.name) for r in g]
                   for g in tie_groups(selectors.standings(bare))] if state.final else []
    out["lots_seed"] = tournament.lots_seed
    return out


def _salt(tournament: Tournament) -> str:
    return f"damier.final-ties.lots.{tournament.pk}"


def _token(tournament: Tournament, values: dict[str, Any]) -> str:
    """The draw the page shows (seed and ties), signed: the confirmation brings back this draw, not another."""
    return signing.dumps({"seed": values["seed"], "groups": values["groups"]}, salt=_salt(tournament))


def _shown(tournament: Tournament, token: str) -> dict[str, Any] | None:
    """The draw the arbiter was shown, or None (a first click, or a token that is not ours: asked again)."""
    if not token:
        return None
    try:
        value = signing.loads(token, salt=_salt(tournament))
    except signing.BadSignature:
        return None
    return value if isinstance(value, dict) else None
