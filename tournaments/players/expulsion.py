"""Expelling a player (competition rules 2.6, checklist 197-198): he is no longer paired
and takes no place in the standings, while the games he played still count for his opponents.

What the texts say about his games. FMJD, competition rules 2.6 ("Exclusions"): « Tout refus de respecter la
réglementation, d'obéir à l'arbitre, entraine la décision arbitrale d'exclusion de tout fautif. » Nothing
more: the article neither cancels nor changes a game already decided. 5.7 gives the player present 2
points by forfeit when his opponent « est absent, ou qu'il est empêché pour quelque raison que ce soit »,
and 5.9 B keeps a departed Swiss player's results « pour lui et ses adversaires ». FIDE's C.04 has no
article on an expelled player; its Dutch-system text (the older edition's section F) says of a player who
leaves only "Players who withdraw from the tournament will no longer be paired" (F.5), and of a result
found wrong later that it "will only affect pairing yet to be made" (F.7). So an expulsion never changes
a result already given: a game of a later round that has no result yet becomes "not played" (it will
not be played), and every result already entered stands, a forfeit win of an opponent included.
Changing one of them is a correction, made on its round's page (a reason, the checklist's warning, an
event and its ### line: tournaments.rounds.corrections).
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.locks import lock_tournament_of
from tournaments.models import Entry, EntryStatus, Game, RoundStatus
from tournaments.results import Result


@transaction.atomic
def entry_expel(*, entry: Entry, after_round: int | None = None, user: object = None) -> Entry:
    """Competition rules 2.6: the arbiter expels a player. He is not paired after `after_round` (default: the
    last round paired); his games of later rounds that have no result yet become 'not played'; every result
    already given stands (see the module's text); he is left out of the standings, while the games he played
    still count for his opponents."""
    lock_tournament_of(entry)  # the tournament first, as the pairing takes it: never a lock-order circle
    entry = Entry.objects.select_for_update(of=("self",)).select_related("tournament", "player").get(pk=entry.pk)
    if entry.is_expelled:
        raise DomainError(_("%(player)s was already expelled after round %(round)s.")
                          % {"player": entry.player, "round": entry.expelled_after_round})
    last_paired = entry.tournament.rounds.aggregate(m=Max("number"))["m"] or 0
    after_round = last_paired if after_round is None else after_round
    if after_round < 0 or after_round > last_paired:
        raise DomainError(_("%(player)s: “expelled after round” must be between 0 and %(last)s.")
                          % {"player": entry.player, "last": last_paired})
    later = list(Game.objects.filter(Q(white=entry) | Q(black=entry), round__number__gt=after_round)
                 .select_related("round"))
    for game in later:
        if game.parsed_result is not None and game.parsed_result.is_played:
            raise DomainError(_("%(player)s has a result over the board in round %(round)s; he cannot have been "
                                "expelled after round %(after)s.")
                              % {"player": entry.player, "round": game.round.number, "after": after_round})
    for game in later:
        if game.result or game.round.status == RoundStatus.COMPLETED:
            continue  # a result given stands: only a correction changes it
        game.result = Result.NOT_PLAYED.value
        game.version += 1
        game._change_reason = f"not played: expelled after round {after_round}"  # type: ignore[attr-defined]
        if user is not None:
            game._history_user = user  # type: ignore[attr-defined]
        game.save(update_fields=["result", "version"])
    entry.status = EntryStatus.EXPELLED
    entry.expelled_after_round = after_round
    entry._change_reason = f"expelled after round {after_round}"  # type: ignore[attr-defined]
    if user is not None:
        entry._history_user = user  # type: ignore[attr-defined]
    entry.save(update_fields=["status", "expelled_after_round"])
    return entry


def results_kept(entry: Entry) -> list[int]:
    """The rounds after his expulsion in which a result of his stands (a forfeit, a bye): said to the arbiter,
    who corrects one on its round's page if it is wrong."""
    after = entry.expelled_after_round or 0
    return sorted(set(
        Game.objects.filter(Q(white=entry) | Q(black=entry), round__number__gt=after)
        .exclude(result__in=["", Result.NOT_PLAYED.value]).values_list("round__number", flat=True)))
