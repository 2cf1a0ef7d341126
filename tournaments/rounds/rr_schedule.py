"""A round-robin round made by hand: the arbiter changes who plays whom in a draft round
of a round robin on the hand-round page. The change goes through services.round_set_boards, where the
round robin's guard (tournaments.rounds.rr_guard) asks a confirmation (3) for the round made by hand, for each
pair meeting twice in a cycle and for each player given the same colour three times in a row; once
confirmed, the events are recorded with it. The same guard holds on the round page and in the imports.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.models import Entry, Round, RoundStatus, Tournament
from tournaments.rounds import services
from tournaments.rounds.rr_guard import HandCheck, NumberBoards, check_hand_round, refuse_unplayable, round_boards

__all__ = ["HandCheck", "NumberBoards", "check_hand_round", "round_boards", "rr_round_by_hand"]


@transaction.atomic
def rr_round_by_hand(*, round: Round, boards: NumberBoards, expected_version: int | None = None,
                     confirmed: Collection[str] = (), user: Any = None) -> HandCheck:
    """Put the players of `boards` (pairing numbers) on a draft round-robin round, once each breach is
    confirmed; the events are recorded in the same transaction."""
    rnd = services._lock_round(round, expected_version)
    tournament = Tournament.objects.select_for_update().get(pk=rnd.tournament_id)
    if not tournament.is_round_robin:
        raise DomainError(_("%(tournament)s is a Swiss: its rounds are changed on the round page.")
                          % {"tournament": tournament})
    if rnd.status != RoundStatus.DRAFT:
        raise DomainError(_("Round %(round)s is published: only a draft round can be made by hand; take it back "
                            "to draft first.") % {"round": rnd.number})
    entries = {e.pairing_number: e for e in tournament.entries.select_related("player")}
    names = {n: e.player.full_name for n, e in entries.items()}
    current = round_boards(rnd)
    if set(boards) != set(current):
        raise DomainError(_("Round %(round)s has boards %(boards)s: give the players of each of them.")
                          % {"round": rnd.number, "boards": ", ".join(map(str, sorted(current)))})
    for board, pair in sorted(boards.items()):
        for number in pair:
            if number is not None and number not in entries:
                raise DomainError(_("Board %(board)s: there is no player with pairing number %(number)s.")
                                  % {"board": board, "number": number})
    refuse_unplayable(rnd.number, boards, names)
    check = check_hand_round(tournament, rnd.number, boards, names)
    if not check.differs and boards == current:
        return check
    by_entry: dict[int, tuple[Entry, Entry | None]] = {
        b: (entries[w], entries[bl] if bl is not None else None) for b, (w, bl) in boards.items()}
    services.round_set_boards(round=rnd, boards=by_entry, confirmed=confirmed, user=user)
    return check
