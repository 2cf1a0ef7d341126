"""What the arbiter changes for the hall: a screen's settings, and the round clock ("start the clocks")."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import locks
from tournaments.errors import DomainError, StaleEditError
from tournaments.hall.screens import SHOWS
from tournaments.models import HallScreen, Round, RoundStatus


def new_token() -> str:
    """A screen's public address: unguessable, so only who was given the link shows the screen."""
    return secrets.token_urlsafe(12).replace("_", "x").replace("-", "y").lower()


def clean_shows(text: str) -> list[str]:
    """'pairings, find, clock' -> the list, in order; DomainError naming the word not known."""
    words = [w.strip().lower() for w in text.replace(";", ",").split(",") if w.strip()]
    for word in words:
        if word not in SHOWS:
            raise DomainError(_("“%(word)s” is not something a screen shows: write some of %(known)s, in the "
                                "order to show them.") % {"word": word, "known": ", ".join(SHOWS)})
    if len(set(words)) != len(words):
        raise DomainError(_("Each thing a screen shows is named once."))
    return words


@transaction.atomic
def screen_save(*, screen: HallScreen, expected_version: int | None) -> HallScreen:
    """A screen's settings, saved unless someone saved them since `expected_version` was read."""
    if screen.boards_from is not None and screen.boards_to is not None and screen.boards_from > screen.boards_to:
        raise DomainError(_("Board %(first)s comes after board %(last)s: the range is empty.")
                          % {"first": screen.boards_from, "last": screen.boards_to})
    locks.lock_tournament(screen.tournament_id)
    if screen.pk is None:
        screen.token = screen.token or new_token()
        screen.version = 1
        screen.save()
        return screen
    stored = HallScreen.objects.select_for_update().filter(pk=screen.pk).first()
    if stored is None:
        raise StaleEditError(_("This screen no longer exists: someone else deleted it."))
    if expected_version is not None and stored.version != expected_version:
        raise StaleEditError(_("Screen “%(name)s” was changed by someone else since you opened it: nothing was "
                               "saved; open it again.") % {"name": stored.name})
    screen.version = stored.version + 1
    screen.save()
    return screen


@transaction.atomic
def clocks_start(*, round: Round, expected_version: int | None, user: object, restart: bool = False) -> Round:
    """'Start the clocks': the round's clock starts now, once. Pressed again (a second arbiter, an old page)
    it is refused, since moving a running clock changes every screen; `restart` moves it on purpose
    (the clocks were stopped and started again). Kept in the round's history with who pressed it."""
    locks.lock_tournament_of_round(round.pk)
    rnd = Round.objects.select_for_update(of=("self",)).filter(pk=round.pk).first()
    if rnd is None:
        raise StaleEditError(_("Round %(n)s no longer exists: someone else deleted it.") % {"n": round.number})
    if expected_version is not None and rnd.version != expected_version:
        raise StaleEditError(_("Round %(n)s was changed by someone else since you read it: nothing was done; "
                               "look at it again.") % {"n": rnd.number})
    if rnd.status != RoundStatus.PUBLISHED:
        raise DomainError(_("The clocks of round %(n)s cannot be started: it is not published, or already "
                            "completed.") % {"n": rnd.number})
    if rnd.clock_started_at is not None and not restart:
        raise DomainError(_("The clocks of round %(n)s were already started at %(time)s.")
                          % {"n": rnd.number, "time": timezone.localtime(rnd.clock_started_at).strftime("%H:%M")})
    rnd.clock_started_at = timezone.now()
    rnd.clock_started_by = user if getattr(user, "pk", None) else None  # type: ignore[assignment]
    rnd.version += 1
    rnd._change_reason = "clocks restarted" if restart else "clocks started"  # type: ignore[attr-defined]
    if rnd.clock_started_by is not None:
        rnd._history_user = user  # type: ignore[attr-defined]
    rnd.save(update_fields=["clock_started_at", "clock_started_by", "version"])
    return rnd
