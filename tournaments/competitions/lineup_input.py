"""A line-up as it is typed: per board, a roster place number or the start of a name.

Read the way an arbiter fills a match from a team's list: "3" is the player at place 3 of the team's
roster, "van d" the one player whose name starts so (surname or "given name surname", in any case and
without accents), an empty box an unfilled board. What cannot be read is named board by board and
nothing is saved; what was typed is given back as it was.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from tournaments.models import Entry, MatchBoard, RosterMember, Team

MAX_TYPED = 60  # a box holds a number or the start of a name: a longer value is no player


@dataclass(frozen=True)
class RosterLine:
    """A roster member as the line-up boxes read it."""

    position: int
    name: str  # "Surname, Given"
    entry: Entry
    reserve: bool


@dataclass
class Read:
    """What a team's typed boxes gave: the entries board by board (None for an unfilled board), and the
    boxes that could not be read, by board number."""

    entries: list[Entry | None] = field(default_factory=list)
    errors: dict[int, str] = field(default_factory=dict)


def fold(text: str) -> str:
    """Lower case without accents or extra spaces: "Évé  VAN" -> "eve van"."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def roster_lines(team: Team) -> list[RosterLine]:
    members = RosterMember.objects.filter(team=team).select_related("entry__player").order_by("position")
    return [RosterLine(m.position, m.entry.player.full_name, m.entry, m.reserve) for m in members]


def _names(line: RosterLine) -> tuple[str, ...]:
    player = line.entry.player
    given, surname = fold(player.given_name or ""), fold(player.surname or "")
    return tuple(n for n in (surname, f"{given} {surname}".strip(), fold(line.name)) if n)


def find(typed: str, lines: Sequence[RosterLine]) -> tuple[RosterLine | None, str]:
    """The roster line a box names, or None and the reason ("" for an empty box)."""
    text = typed.strip()
    if not text:
        return None, ""
    if len(text) > MAX_TYPED:
        return None, _("“%(typed)s…” is too long for a place number or a name.") % {"typed": text[:20]}
    if text.isdigit() and text.isascii():
        place = int(text)
        found = next((line for line in lines if line.position == place), None)
        if found is None:
            return None, _("the roster has no place %(place)s.") % {"place": place}
        return found, ""
    wanted = fold(text)
    fits = [line for line in lines if any(n.startswith(wanted) for n in _names(line))]
    if len(fits) == 1:
        return fits[0], ""
    if not fits:
        return None, _("no player of the roster has a name starting with “%(typed)s”.") % {"typed": text}
    return None, _("“%(typed)s” fits %(players)s: type more of the name, or the place number.") % {
        "typed": text, "players": ", ".join(f"{line.position}. {line.name}" for line in fits[:5])}


def read(typed: Sequence[str], lines: Sequence[RosterLine]) -> Read:
    """Every box of a team's line-up, board 1 first."""
    out = Read()
    for number, text in enumerate(typed, start=1):
        line, why = find(text, lines)
        out.entries.append(line.entry if line is not None else None)
        if why:
            out.errors[number] = _("Board %(board)s: %(why)s") % {"board": number, "why": why}
    return out


def typed_from(post: Mapping[str, str], side: str, boards: int, prefix: str = "") -> list[str]:
    """The boxes of one side as posted: `<prefix><side>-<board>`; a missing box is empty."""
    return [str(post.get(f"{prefix}{side}-{n}", "") or "")[:MAX_TYPED + 1] for n in range(1, boards + 1)]


def stored_typed(boards: Sequence[MatchBoard], side: str, lines: Sequence[RosterLine], count: int) -> list[str]:
    """The stored line-up of a side as its boxes show it: each player's place number in the roster (his
    name when he is no longer on it)."""
    place = {line.entry.pk: str(line.position) for line in lines}
    by_number = {b.number: b for b in boards}
    out: list[str] = []
    for n in range(1, count + 1):
        board = by_number.get(n)
        entry_id = getattr(board, f"{side}_entry_id", None) if board is not None else None
        if entry_id is None:
            out.append("")
        else:
            entry = getattr(board, f"{side}_entry")
            out.append(place.get(entry_id, str(entry.player)))
    return out


def names_of(typed: Sequence[str], lines: Sequence[RosterLine]) -> list[str]:
    """The player each box names, as the page shows it beside the box ("" when it names none)."""
    return [(found.name if (found := find(text, lines)[0]) is not None else "") for text in typed]
