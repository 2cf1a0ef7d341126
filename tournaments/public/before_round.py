"""What the public reads before round 1 (and after): the starting rank list and a round robin's schedule.

The starting rank list is every entry with its number, title, name, federation, rating and club, in the
order of the pairing numbers, or alphabetical, or grouped by federation or by club (`?order=`). The schedule
is the Berger table on the drawn numbers (tournaments.rounds.round_control.berger_table, a read).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy as _

from tournaments import selectors
from tournaments.models import Numbering, Tournament
from tournaments.public.tables import PlayerLine, player_html
from tournaments.public.views import _context, public_tournament_or_404
from tournaments.rounds.round_control import berger_table
from tournaments.rounds.schedule import timetable
from tournaments.words import start_text

# ?order= : the key, its label; the first is the default.
ORDERS: dict[str, Any] = {
    "number": _("By number"),
    "name": _("Alphabetical"),
    "federation": _("By federation"),
    "club": _("By club"),
}


@dataclass(frozen=True)
class RankLine:
    player: PlayerLine
    club: str


def rank_lines(tournament: Tournament, order: str) -> list[RankLine]:
    entries = selectors.starting_order(list(tournament.entries.select_related("player")), order)
    return [RankLine(selectors.player_line(e, tournament.rating_method), e.player.club) for e in entries]


def rank_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament_or_404(slug)
    order = request.GET.get("order") or "number"
    if order not in ORDERS:
        raise Http404("Unknown order: number, name, federation or club.")
    lines = rank_lines(tournament, order)
    groups: list[tuple[str, list[dict[str, Any]]]] = []
    for ln in lines:
        group = {"federation": ln.player.federation, "club": ln.club}.get(order, "")
        if not groups or groups[-1][0] != group:
            groups.append((group, []))
        groups[-1][1].append({"number": ln.player.pairing_number, "title": ln.player.title,
                              "name": player_html(slug, ln.player, bare=True), "federation": ln.player.federation,
                              "rating": ln.player.rating or "", "club": ln.club,
                              "withdrawn": ln.player.withdrawn})
    return render(request, "tournaments/rank_list.html", {
        **_context(tournament, "rank_list"), "order": order, "orders": list(ORDERS.items()),
        "groups": groups, "grouped": order in ("federation", "club"), "count": len(lines),
    })


def numbers_drawn(tournament: Tournament) -> bool:
    """The numbers a round robin's schedule stands on are final: drawn by lot or set by hand, or fixed by
    round 1 being paired (numbered by rating they still move with a late entry before that)."""
    return tournament.numbering in (Numbering.LOT, Numbering.MANUAL) or tournament.rounds.exists()


def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = public_tournament_or_404(slug)
    if not tournament.is_round_robin:
        raise Http404("A Swiss has no schedule before its rounds are paired.")
    # berger_table is empty while the numbers do not run 1..n (a gap left by a removed entry): not ready either
    table = berger_table(tournament) if numbers_drawn(tournament) else []
    drawn = bool(table)
    public = list(selectors.tournament_rounds(tournament, public_only=True))
    published = {r.number for r in public}
    when = {s.number: start_text(s.date, s.time) for s in timetable(tournament, public)}
    rounds = [{"number": i, "published": i in published, "when": when.get(i, ""),
               "boards": [{"board": b, "white": str(w), "black": str(bl) if bl else None}
                          for b, (w, bl) in enumerate(boards, start=1)]}
              for i, boards in enumerate(table, start=1)]
    return render(request, "tournaments/schedule.html", {
        **_context(tournament, "schedule"), "drawn": drawn, "schedule": rounds,
    })
