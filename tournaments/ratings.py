"""The tournament rating: which of a player's ratings a tournament reads, the order of
equal ratings, and the checks on ratings (an impossible value, a rating changed since the entry).

The tournament's method reads the FMJD rating or the national rating, each falling back to the other one
when the rating it names is missing, the higher of the two, or one of them alone; the rating it gives
orders the pairing numbers, counts in the rating tie-breaks and is what the pages, the PDFs and the TRF
show. A tournament reads the ratings and title its entry holds, never the player's, which a later list
changes: an entry copies them when the player is entered (kept_values), from the tournament's chosen rating
lists where it has chosen them (their rows are read through the app registry, as tournaments.locks names
the models), from the register where it has not. A later list reaches a running tournament only when the
arbiter takes it on, and a finished one never. Reads only: the writes (taking a later rating or list on)
are in tournaments/players/numbering.py and rating_lists.py.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from django.apps import apps
from django.core.exceptions import ValidationError
from django.db.models import Q
from django.utils.translation import gettext as _

# tournaments.models calls this module (its checks and the rating at entry), so this one does not import it,
# not even for type checking (tests/test_boundaries.py): the models are named by these aliases.
Entry = Player = Tournament = Any

RATING_MIN, RATING_MAX = 0, 3000
# FMJD titles, men's and women's interleaved by the rating each requires (the order of the initial ranking).
TITLE_RANK = {"GMI": 0, "GMIF": 1, "MI": 2, "MIF": 3, "MF": 4, "MFF": 5, "CMI": 6, "CMIF": 7}
NO_TITLE = len(TITLE_RANK)
# The titles an entry may keep from a list (tournaments.models.register.Title; a list's unknown word is not one).
TITLES = frozenset({"GMI", "MI", "MF", "CMI", "CMF", "GMIF", "MIF", "MFF", "CMIF", "CMFF"})


def player_ratings(player: Player) -> tuple[int | None, int | None]:
    """The player's FMJD and national ratings as they stand, as an entry copies them (none when unrated)."""
    if player.unrated:
        return None, None
    return player.rating, player.national_rating


def list_row(rating_list_id: int, player: Player) -> Any:
    """The player's row on a rating list: the row matched to his record, else the row with his id (his FMJD
    id on an FMJD list, his id with the list's source on a national list); None when he is not on it."""
    rows = apps.get_model("tournaments", "RatingListRow")._default_manager.filter(rating_list_id=rating_list_id)
    rating_list = apps.get_model("tournaments", "RatingList")._default_manager.get(pk=rating_list_id)
    by_id = Q(pk__in=[])
    if rating_list.kind == "fmjd" and player.fmjd_id is not None:
        by_id = Q(fmjd_id=player.fmjd_id)
    elif rating_list.kind == "national" and player.pk is not None:
        numbers = apps.get_model("tournaments", "NationalId")._default_manager.filter(
            player_id=player.pk, body=rating_list.source).values_list("number", flat=True)
        by_id = Q(national_id__in=list(numbers)) & ~Q(national_id="")
    if player.pk is not None and (row := rows.filter(player_id=player.pk).order_by("line").first()) is not None:
        return row
    return rows.filter(by_id).filter(player__isnull=True).order_by("line").first() if by_id else None


def tournament_lists(tournament_id: int | None) -> dict[str, int | None]:
    """The tournament's chosen lists as kept_values reads them; a writer entering many players reads them
    once and passes them on."""
    return (apps.get_model("tournaments", "Tournament")._default_manager.filter(pk=tournament_id)
            .values("fmjd_list_id", "national_list_id").first() if tournament_id is not None else None) or {}


def kept_values(tournament_id: int | None, player: Player,
                lists: dict[str, int | None] | None = None) -> tuple[int | None, int | None, str]:
    """The FMJD rating, national rating and title an entry of the player keeps in the tournament: those of
    its lists where it has chosen them (a player not on a chosen list holds no rating from it; his title is
    the register's unless the FMJD list gives one), the register's where it has not. `lists`: the
    tournament's lists read once by the caller (tournament_lists), else read here."""
    fmjd, national = player_ratings(player)
    title = player.title
    if lists is None:
        lists = tournament_lists(tournament_id)
    if lists.get("fmjd_list_id"):
        row = list_row(lists["fmjd_list_id"], player)
        fmjd = row.rating if row is not None else None
        if row is not None and (row.title in TITLES or not row.title):
            title = row.title
    if lists.get("national_list_id"):
        row = list_row(lists["national_list_id"], player)
        national = row.rating if row is not None else None
    return fmjd, national, title


def tournament_rating(holder: Entry | Player, method: str) -> int | None:
    """The rating of an entry (or of a player not entered yet) as the tournament reads it (RatingMethod),
    None for an unrated one."""
    if getattr(holder, "unrated", False):
        return None
    fmjd, national = holder.rating, holder.national_rating
    picked = getattr(holder, "other_rating_picked", False)  # an entry's pick: the other list's rating
    if method == "fmjd_only":
        return national if fmjd is None and picked else fmjd
    if method == "national_only":
        return fmjd if national is None and picked else national
    if method == "national":
        return national if national is not None else fmjd
    if method == "higher":
        known = [r for r in (fmjd, national) if r is not None]
        return max(known) if known else None
    return fmjd if fmjd is not None else national


def entry_rating(entry: Entry) -> int | None:
    """The entry's tournament rating (entry.tournament is cached when the entry came from tournament.entries)."""
    return tournament_rating(entry, entry.tournament.rating_method)


def tie_criterion(player: Player, criterion: str) -> tuple[Any, ...]:
    """The announced criterion for equal ratings and titles; a player without the datum comes after those
    with it, and the name then decides (an order must always be total)."""
    name = (player.surname.lower(), player.given_name.lower())
    if criterion == "fmjd_id":
        return (player.fmjd_id is None, player.fmjd_id or 0, *name)
    if criterion == "oldest":
        return (player.birth_year is None, player.birth_year or 0, *name)
    if criterion == "youngest":
        return (player.birth_year is None, -(player.birth_year or 0), *name)
    return name


def order_key(player: Player, rating: int | None, criterion: str, title: str | None = None) -> tuple[Any, ...]:
    """The initial ranking: tournament rating (highest first, unrated last), then title (the entry's kept
    title; the player's for someone not entered yet), then the announced criterion, then the player's id so
    two namesakes never tie."""
    return (rating is None, -(rating or 0), TITLE_RANK.get(player.title if title is None else title, NO_TITLE),
            *tie_criterion(player, criterion), player.pk or 0)


def entry_order_key(entry: Entry) -> tuple[Any, ...]:
    return order_key(entry.player, entry_rating(entry), entry.tournament.tie_order, entry.title)


def rating_errors(player: Player) -> dict[str, str]:
    """What is impossible in a player's ratings, by field, in words the arbiter can act on."""
    errors: dict[str, str] = {}
    for field in ("rating", "national_rating"):
        value = getattr(player, field)
        if value is None:
            continue
        if not RATING_MIN <= value <= RATING_MAX:
            errors[field] = _("%(value)s is not a possible rating: a draughts rating lies between %(low)s and "
                              "%(high)s. Leave it empty for a player without a rating.") % {
                "value": value, "low": RATING_MIN, "high": RATING_MAX}
        elif player.unrated:
            errors[field] = _("%(player)s is marked as unrated: untick “unrated” to give him a rating of "
                              "%(value)s, or leave the rating empty.") % {"player": player.full_name or "?",
                                                                         "value": value}
    return errors


@dataclass(frozen=True)
class RatingChange:
    entry: Entry
    at_entry: int | None
    now: int | None


def rating_changes(tournament: Tournament) -> list[RatingChange]:
    """Entries whose player now holds another tournament rating than the entry, by pairing number: what
    taking the later ratings on would change. None once the tournament is finished: its ratings stay."""
    if is_finished(tournament):
        return []
    out = []
    method = tournament.rating_method
    for entry in tournament.entries.select_related("player").order_by("pairing_number"):
        player = entry.player
        # The register's ratings read as the entry's are, its pick of the other list's rating included.
        now = tournament_rating(SimpleNamespace(rating=player.rating, national_rating=player.national_rating,
                                                unrated=player.unrated,
                                                other_rating_picked=entry.other_rating_picked), method)
        held = tournament_rating(entry, method)
        if held != now:
            out.append(RatingChange(entry, held, now))
    return out


def last_round(tournament: Tournament) -> int:
    """The number of the tournament's last round (0 when not set)."""
    if tournament.is_round_robin:  # n-1 rounds (n even) or n, twice in a double round robin
        n = tournament.entries.count()
        return (n - 1 if n % 2 == 0 else n) * (2 if tournament.system == "double_round_robin" else 1)
    return tournament.rounds_total or 0


def is_finished(tournament: Tournament) -> bool:
    """The last round is completed: the ratings it was played on are the record and never change."""
    total = last_round(tournament)
    return bool(total) and tournament.rounds.filter(number__gte=total, status="completed").exists()


# The rating tie-break settings (VCL4THP Q208-Q216), read from the tournament's attributes only.
def clean_rating_settings(t: Any) -> None:
    """Tournament.clean's part for these settings: each error names its field."""
    errors: dict[str, Any] = {}
    if t.unrated_method == "fixed" and t.unrated_rating is None:
        errors["unrated_rating"] = _("Type the rating unrated players count at, or choose another method.")
    if t.tiebreak_rating_round is not None or t.tiebreak_rating_per_round:
        field = "tiebreak_rating_round" if t.tiebreak_rating_round is not None else "tiebreak_rating_per_round"
        if not t.long_event:
            errors[field] = _("Players hold several ratings only in a tournament lasting more than 30 days: "
                              "tick “lasts more than 30 days” first, or leave this empty.")
        elif t.tiebreak_rating_round is not None and t.tiebreak_rating_per_round:
            errors["tiebreak_rating_round"] = _(
                "Choose either the ratings of one round or the rating of each game's round, not both.")
        elif t.tiebreak_rating_round is not None and (
                t.tiebreak_rating_round < 1 or (t.rounds_total and t.tiebreak_rating_round > t.rounds_total)):
            errors["tiebreak_rating_round"] = _("Round %(round)s is not a round of this tournament (1 to "
                                                "%(last)s).") % {"round": t.tiebreak_rating_round,
                                                                 "last": t.rounds_total or "?"}
    if errors:
        raise ValidationError(errors)
