"""Results from the boards: a player's code for a tournament, and what players report with it.

A report is what someone at the board says (a result, maybe the game); it never becomes the result by
itself. The arbiter confirms a board (the Game's result, written by the result services), and a report
that comes after, or that disagrees, is kept and flagged, never applied.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class BoardCode(models.Model):
    """An entry's personal code for its tournament: a long random token, printed as a QR code on his
    score sheets; revoked by the arbiter (a new one is then issued), never reused."""

    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="board_codes",
                              verbose_name=_("entry"))
    token = models.CharField(_("code"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("issued at"), default=timezone.now)
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)

    class Meta:
        ordering = ["entry", "-created_at"]
        verbose_name = _("board code")
        verbose_name_plural = _("board codes")
        constraints = [
            models.UniqueConstraint(fields=["entry"], condition=models.Q(revoked_at__isnull=True),
                                    name="board_code_one_live_per_entry"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} ({self.token[:6]}…)"


class ReportStatus(models.TextChoices):
    PENDING = "pending", _("waiting for the arbiter")
    CONFIRMED = "confirmed", pgettext_lazy("a report", "confirmed")
    OVERRULED = "overruled", _("overruled by the arbiter")
    LATE = "late", _("came after the result was confirmed")


class BoardReport(models.Model):
    """What one player reported for his board: the result and, if sent, the game (PDN text or a move list),
    with the replay's verdict; stored whatever it says, with the time and a hash of the address."""

    game = models.ForeignKey("tournaments.Game", on_delete=models.CASCADE, related_name="reports",
                             verbose_name=_("game"))
    code = models.ForeignKey(BoardCode, on_delete=models.PROTECT, related_name="reports", verbose_name=_("code"))
    side = models.CharField(_("reported by"), max_length=1, choices=[("w", _("White")), ("b", _("Black"))])
    result = models.CharField(_("result"), max_length=12)
    moves = models.TextField(_("game"), blank=True)
    verdict = models.JSONField(_("what the replay says"), default=dict, blank=True)
    received_at = models.DateTimeField(_("received at"), default=timezone.now)
    address_hash = models.CharField(_("address (hashed)"), max_length=64, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=ReportStatus.choices,
                              default=ReportStatus.PENDING)

    class Meta:
        ordering = ["game", "received_at"]
        verbose_name = _("board report")
        verbose_name_plural = _("board reports")

    def __str__(self) -> str:
        return f"{self.game} {self.side}: {self.result}"


class CodeAttempt(models.Model):
    """Wrong codes typed from one address: counted and locked out like wrong passwords."""

    address_hash = models.CharField(_("address (hashed)"), max_length=64, unique=True)
    failures = models.PositiveIntegerField(_("wrong codes"), default=0)
    last_failure_at = models.DateTimeField(_("last wrong code at"), default=timezone.now)
    locked_until = models.DateTimeField(_("locked until"), null=True, blank=True)

    class Meta:
        verbose_name = _("wrong code attempts")
        verbose_name_plural = _("wrong code attempts")

    def __str__(self) -> str:
        return f"{self.address_hash[:8]}… ({self.failures})"
