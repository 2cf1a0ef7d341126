"""'Find my board' on a phone: the round page's name search, and the player page's first line while a round
is published ("Round 5: board 12, White, against 7. Dupont, Jean").

A row carries the names of its two players as a search compares them: the register's key (accents gone,
every alphabet in Latin letters: 'Шварцман' -> 'shvartsman') and the names as written, only without
accents and case, so a phone that types Cyrillic finds them too. The phone's script
(static/damier/find-board.js) folds what is typed the second way; the server's fallback (?find=, without
script) folds it both ways.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _

from tournaments.models import Entry, Game, Round, RoundStatus, numbered, search_key
from tournaments.public.notation import bye_words
from tournaments.results import Result

LONGEST_QUERY = 60


def plain_key(text: str) -> str:
    """Lower case, accents gone, letters and digits of any alphabet kept, one space between words."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()
    return " ".join("".join(c if c.isalnum() else " " for c in bare).split())


def entry_names(entry: Entry) -> str:
    p = entry.player
    return f"{search_key(p.full_name, p.native_name)} {plain_key(' '.join((p.full_name, p.native_name)))}"


def row_names(game: Game) -> str:
    return " | ".join(entry_names(e) for e in (game.white, game.black) if e is not None)


def matches(names: str, query: str) -> bool:
    """Every word typed is in the names, folded either way ('dup jean', 'шварц', 'emile')."""
    for key in (search_key(query), plain_key(query)):
        words = key.split()
        if words and all(w in names for w in words):
            return True
    return False


@dataclass(frozen=True)
class Found:
    entry: Entry
    game: Game
    colour: str | None  # "white", "black", None without an opponent
    opponent: Entry | None


def find(games: Sequence[Game], query: str) -> list[Found]:
    query = query.strip()[:LONGEST_QUERY]
    out = []
    for g in games:
        sides = [(g.white, "white" if g.black else None, g.black), (g.black, "black", g.white)]
        for entry, colour, opponent in sides:
            if entry is not None and matches(entry_names(entry), query):
                out.append(Found(entry, g, colour, opponent))
    return sorted(out, key=lambda f: (search_key(f.entry.player.full_name), f.entry.pairing_number))


def anchor(found: Found) -> str:
    """The row's id on the round page (public/tables.py PairingsTable)."""
    return f"board-{found.game.board}" if found.game.black_id else f"bye-{found.entry.pairing_number}"


def colour_word(colour: str | None) -> str:
    return {"white": _("White"), "black": _("Black")}.get(colour or "", "")


def where_text(found: Found, bye_points: int) -> str:
    """'Board 12, White, against 7. Dupont, Jean', or a board without an opponent in words."""
    if found.opponent is None:
        return bye_words(found.game.parsed_result or Result.BYE, bye_points)
    return _("board %(board)s, %(colour)s, against %(opponent)s") % {
        "board": found.game.board, "colour": colour_word(found.colour),
        "opponent": numbered(found.opponent.pairing_number, found.opponent.player.full_name)}


def now_playing(rnd: Round, games: Sequence[Game], entry_id: int, bye_points: int) -> str:
    """The player page's first line while `rnd` is published: 'Round 5: board 12, White, against …'."""
    game = next((g for g in games if entry_id in (g.white_id, g.black_id)), None)
    if game is None or rnd.status != RoundStatus.PUBLISHED:
        return ""
    white = game.white_id == entry_id
    found = Found(game.white if white else game.black, game, ("white" if white else "black") if game.black_id
                  else None, game.black if white else game.white)
    return _("Round %(n)s: %(where)s") % {"n": rnd.number, "where": where_text(found, bye_points)}
