"""Players' codes: one long random token per entry, revocable, and wrong codes locked out per address.

A code is a capability: whoever holds it reports that entry's board, so it is long (192 random bits),
never reused, and a wrong one is counted against the hashed address that sent it. The lockout mirrors the
site's login policy (django-axes: AXES_FAILURE_LIMIT failures, locked AXES_COOLOFF_TIME), so a hall
behind one address is treated as a login form would treat it.
"""

from __future__ import annotations

import datetime
import secrets

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.crypto import salted_hmac
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.models import BoardCode, CodeAttempt, Entry, Tournament

TOKEN_BYTES = 24  # 32 characters of URL-safe base64


class WrongCode(DomainError):
    """A code that is not a live code of this tournament (unknown, revoked, or another tournament's)."""


class LockedOut(DomainError):
    """Too many wrong codes from this address: refused until `until`."""

    def __init__(self, message: str, until: datetime.datetime) -> None:
        super().__init__(message)
        self.until = until


def failure_limit() -> int:
    return int(getattr(settings, "DAMIER_BOARD_CODE_FAILURE_LIMIT", getattr(settings, "AXES_FAILURE_LIMIT", 5)))


def cooloff() -> datetime.timedelta:
    value = getattr(settings, "AXES_COOLOFF_TIME", datetime.timedelta(minutes=15))
    return value if isinstance(value, datetime.timedelta) else datetime.timedelta(hours=float(value))


def address_hash(address: str) -> str:
    """sha256 HMAC of the client's address with the server's secret: the same address gives the same hash,
    and the stored hash does not give the address back."""
    return salted_hmac("damier.boards.address", address or "", algorithm="sha256").hexdigest()


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def live_code(entry: Entry) -> BoardCode | None:
    return BoardCode.objects.filter(entry=entry, revoked_at__isnull=True).first()


@transaction.atomic
def codes_issue(*, tournament: Tournament) -> int:
    """A live code for every entry of the tournament that has none; the existing ones are kept.
    Returns how many were issued."""
    have = set(BoardCode.objects.filter(entry__tournament=tournament, revoked_at__isnull=True)
               .values_list("entry_id", flat=True))
    missing = [e for e in tournament.entries.all() if e.pk not in have]
    for entry in missing:
        # A concurrent issue for the same entry meets the one-live-code constraint: that code stands.
        try:
            with transaction.atomic():
                BoardCode.objects.create(entry=entry, token=new_token())
        except IntegrityError:
            continue
    return len(missing)


@transaction.atomic
def code_revoke(*, code: BoardCode, now: datetime.datetime | None = None) -> BoardCode:
    """Revoke a live code and issue the entry a new one; the old one is refused from now on (a wrong code)."""
    locked = BoardCode.objects.select_for_update().get(pk=code.pk)
    if locked.revoked_at is not None:
        raise DomainError(_("This code was already revoked on %(when)s.")
                          % {"when": timezone.localtime(locked.revoked_at).strftime("%Y-%m-%d %H:%M")})
    locked.revoked_at = now or timezone.now()
    locked.save(update_fields=["revoked_at"])
    return BoardCode.objects.create(entry_id=locked.entry_id, token=new_token())


def _locked_until(hashed: str, now: datetime.datetime) -> datetime.datetime | None:
    until = CodeAttempt.objects.filter(address_hash=hashed).values_list("locked_until", flat=True).first()
    return until if until is not None and until > now else None


def _locked_error(until: datetime.datetime) -> LockedOut:
    return LockedOut(_("Too many wrong codes from this connection: try again after %(time)s, or ask the arbiter.")
                     % {"time": timezone.localtime(until).strftime("%H:%M")}, until)


def record_failure(hashed: str, now: datetime.datetime) -> CodeAttempt:
    """Count one wrong code for the address; lock it out at the limit. Its own transaction, so the count
    stands even though the request that made it is refused."""
    with transaction.atomic():
        attempt, _created = CodeAttempt.objects.get_or_create(
            address_hash=hashed, defaults={"failures": 0, "last_failure_at": now})
        attempt = CodeAttempt.objects.select_for_update().get(pk=attempt.pk)
        if attempt.last_failure_at < now - cooloff() and not (attempt.locked_until and attempt.locked_until > now):
            attempt.failures = 0  # the window is over: older wrong codes are forgotten, as axes does
        CodeAttempt.objects.filter(pk=attempt.pk).update(failures=F("failures") + 1)
        attempt.refresh_from_db()
        attempt.last_failure_at = now
        if attempt.failures >= failure_limit():
            attempt.locked_until = now + cooloff()
        attempt.save(update_fields=["last_failure_at", "locked_until"])
        return attempt


def code_check(*, tournament: Tournament, token: str, address: str = "", hashed: str = "",
               now: datetime.datetime | None = None) -> BoardCode:
    """The live code `token` of this tournament, or WrongCode (counted) / LockedOut. A revoked code and
    another tournament's code are wrong codes; a locked-out address is refused even with a right code."""
    now = now or timezone.now()
    hashed = hashed or address_hash(address)
    until = _locked_until(hashed, now)
    if until is not None:
        raise _locked_error(until)
    code = (BoardCode.objects.select_related("entry__player", "entry__tournament")
            .filter(token=token, revoked_at__isnull=True, entry__tournament=tournament).first()
            if 0 < len(token or "") <= 64 else None)
    if code is None:
        attempt = record_failure(hashed, now)
        if attempt.locked_until is not None and attempt.locked_until > now:
            raise _locked_error(attempt.locked_until)
        # No tournament's name in the answer: a private tournament's stays unknown to whoever guesses codes.
        raise WrongCode(_("This code is not valid: check the address on your score sheet, or ask the arbiter for a "
                          "new code."))
    return code
