"""The playing hall: who is present before a round, and the screens the hall shows.

A check-in is one entry present for one round, marked by the arbiter or by the player himself from his
phone (with the code shown in the hall). A hall screen is a television or projector's page: what it shows
(pairings, "find your board", standings, a message) and which boards, each screen with its own settings.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from .register import ONE_LINE


class CheckInBy(models.TextChoices):
    ARBITER = "arbiter", _("the arbiter")
    PLAYER = "player", pgettext_lazy("checked in by", "the player")


class CheckIn(models.Model):
    """An entry present for a round. Entry and Round are named by string: this module comes before them."""

    entry = models.ForeignKey("tournaments.Entry", on_delete=models.CASCADE, related_name="checkins",
                              verbose_name=_("entry"))
    round_number = models.PositiveSmallIntegerField(_("round"))
    checked_at = models.DateTimeField(_("checked in at"), default=timezone.now)
    by = models.CharField(_("checked in by"), max_length=10, choices=CheckInBy.choices, default=CheckInBy.ARBITER)
    by_user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="+", verbose_name=_("arbiter"))

    class Meta:
        ordering = ["round_number", "entry"]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")
        constraints = [
            models.UniqueConstraint(fields=["entry", "round_number"], name="checkin_once_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} ({self.round_number})"


class HallScreen(models.Model):
    """One screen of the hall with its own settings; its page is public, reached by its token."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="hall_screens",
                                   verbose_name=_("tournament"))
    name = models.CharField(_("name"), max_length=60, validators=ONE_LINE)
    token = models.SlugField(_("address"), max_length=40, unique=True)
    # What the screen rotates through, in order: "pairings", "find", "standings", "message", "clock".
    shows = models.JSONField(_("what the screen shows"), default=list, blank=True)
    boards_from = models.PositiveSmallIntegerField(_("from board"), null=True, blank=True)
    boards_to = models.PositiveSmallIntegerField(_("to board"), null=True, blank=True)
    message = models.CharField(_("message"), max_length=300, blank=True, validators=ONE_LINE)
    seconds_per_page = models.PositiveSmallIntegerField(
        _("seconds per page"), default=15, validators=[MinValueValidator(3), MaxValueValidator(300)])
    lines_per_page = models.PositiveSmallIntegerField(
        _("lines per page"), default=12, validators=[MinValueValidator(4), MaxValueValidator(60)])
    version = models.PositiveIntegerField(default=1, editable=False)

    class Meta:
        ordering = ["tournament", "name"]
        verbose_name = _("hall screen")
        verbose_name_plural = _("hall screens")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="hall_screen_name_once"),
        ]

    def __str__(self) -> str:
        return self.name
