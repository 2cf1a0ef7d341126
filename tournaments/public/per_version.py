"""What the player pages compute for a whole tournament, kept in this process for one version of it.

The player page is one page a player: the page cache keeps 200 of them for a 200-player Swiss, and each one's
first visit (a hall full of phones opening their player pages to check in) computed the standings and the
crosstable's cells of the whole tournament for one line of them. Here the cards of every player are computed
once per version and process, and every player page of that version reads its own card from them.

Keyed as the page cache is: the tournament's id, its version and the time of its last change (a database
made anew restarts the counters), as the request read them before any data. Every write a public page shows
moves the version (tournaments/web/cache_version.py), so a card kept for a version is never served for a
later one. A check-in moves nothing (no public page shows who is present): the cards are computed once for
the whole check-in.

The kept values are shared by the threads of the process: frozen dataclasses, read and never changed. When
a crowd asks for a version not kept yet, one request computes it and the others wait for it, rather than
each computing it at once.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any, TypeVar

from tournaments import selectors
from tournaments.models import Tournament

T = TypeVar("T")
# Versions kept: the tournaments being played at once, and the version just before a save.
KEEP = 8

_lock = threading.Lock()
_kept: OrderedDict[tuple[Any, ...], Any] = OrderedDict()
_computing: dict[tuple[Any, ...], threading.Lock] = {}


def version_key(tournament: Tournament) -> tuple[Any, ...]:
    changed = tournament.cache_changed_at
    return tournament.pk, tournament.cache_version, changed.timestamp() if changed is not None else 0.0


def _get(key: tuple[Any, ...]) -> Any:
    with _lock:
        value = _kept.get(key)
        if value is not None:
            _kept.move_to_end(key)
        return value


def kept(name: str, tournament: Tournament, compute: Callable[[], T]) -> T:
    """`compute()` once per (name, tournament version) in this process."""
    key = (name, *version_key(tournament))
    value = _get(key)
    if value is not None:
        return value  # type: ignore[no-any-return]
    with _lock:
        gate = _computing.setdefault(key, threading.Lock())
    try:
        with gate:
            value = _get(key)
            if value is None:
                value = compute()
                with _lock:
                    _kept[key] = value
                    while len(_kept) > KEEP:
                        _kept.popitem(last=False)
    finally:
        with _lock:
            _computing.pop(key, None)
    return value  # type: ignore[no-any-return]


def player_cards(tournament: Tournament) -> dict[int, selectors.PlayerCard]:
    """Every player's public card by pairing number, for the tournament as the request read it."""
    return kept("player_cards", tournament, lambda: selectors.player_cards(tournament, public_only=True))


def forget() -> None:
    """Nothing kept any more (the next test of a suite, whose tournaments reuse ids and versions)."""
    with _lock:
        _kept.clear()
