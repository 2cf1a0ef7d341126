"""The register of players across tournaments, and the dated rating lists it is kept by.

A player is one record whatever the tournaments he plays: his FMJD id and national ids (one per
federation or body) find him again, his name is kept in Latin letters and, where it has one, in its own
script. A rating list is one dated publication of one source (FMJD, a national federation, a club): its
rows are kept as published, so that a tournament played on the list of March reads March's values even
after June's list is imported. Importing a list updates the register (the player's current rating and
title); it never changes an entry, which keeps what its tournament's list gave it.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from anyascii import anyascii
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy
from simple_history.models import HistoricalRecords

from tournaments.validators import no_control_characters

ONE_LINE = [no_control_characters]  # names reach TRF/CSV/PDF line by line: never a line break or NUL

federation_validator = RegexValidator(r"^[A-Z]{3}$", _("Federation: three capital letters, e.g. NED, FRA, SEN."))
# A body that keeps its own ids or list: FMJD, KNDB, FFJD, or a club's short name.
body_validator = RegexValidator(r"^[A-Z0-9][A-Z0-9_-]{0,19}$",
                                _("Capital letters, digits, “-” or “_”, e.g. KNDB, FFJD, FMJD."))


def search_key(*names: str) -> str:
    """Names as a search compares them: Latin letters, lower case, no accents, one space between words
    ('Sørensen, Ivar' -> 'sorensen ivar', 'Шварцман' -> 'shvartsman'), the sheets' matching's folding."""
    text = anyascii(unicodedata.normalize("NFKC", " ".join(n for n in names if n))).casefold()
    return " ".join("".join(c if c.isalnum() else " " for c in text).split())


class Title(models.TextChoices):
    """FMJD titles (Annex 10, preamble: GMI, MI, MF and the women's GMIF, MIF, MFF); the candidate
    masters' CMI, CMF and their women's forms are printed by FMJD's own program and lists though not in
    the 2014 Annex 10 text (docs/research/federation-texts.md, 1c)."""

    GMI = "GMI", _("International Grandmaster (GMI)")
    MI = "MI", _("International Master (MI)")
    MF = "MF", _("FMJD Master (MF)")
    CMI = "CMI", _("Candidate International Master (CMI)")
    CMF = "CMF", _("Candidate FMJD Master (CMF)")
    GMIF = "GMIF", _("Women International Grandmaster (GMIF)")
    MIF = "MIF", _("Women International Master (MIF)")
    MFF = "MFF", _("Women FMJD Master (MFF)")
    CMIF = "CMIF", _("Women Candidate International Master (CMIF)")
    CMFF = "CMFF", _("Women Candidate FMJD Master (CMFF)")


class Sex(models.TextChoices):
    MALE = "M", pgettext_lazy("sex", "Male")
    FEMALE = "F", pgettext_lazy("sex", "Female")


class Player(models.Model):
    surname = models.CharField(_("surname"), max_length=100, validators=ONE_LINE)
    given_name = models.CharField(_("given name"), max_length=100, blank=True, validators=ONE_LINE)
    # The name as its own script writes it (Cyrillic, Chinese…), beside the Latin spelling the lists use.
    native_name = models.CharField(_("name in its own script"), max_length=200, blank=True, validators=ONE_LINE)
    sex = models.CharField(_("sex"), max_length=1, choices=Sex.choices, blank=True)
    fmjd_id = models.PositiveIntegerField(_("FMJD id"), null=True, blank=True, unique=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True, validators=[federation_validator])
    title = models.CharField(_("title"), max_length=4, choices=Title.choices, blank=True)
    rating = models.PositiveIntegerField(
        _("rating"), null=True, blank=True, validators=[MaxValueValidator(3000)],
        help_text=_("FMJD rating, 0 to 3000; empty when the player has none."),
    )
    # Ratings: the national federation's rating, and a player known to have no rating
    # at all (a rating typed for him is then a mistake, refused by clean()).
    national_rating = models.PositiveIntegerField(
        _("national rating"), null=True, blank=True, validators=[MaxValueValidator(3000)],
        help_text=_("The national federation's rating, 0 to 3000; empty when the player has none."))
    # Where the ratings came from (VCL4THP 134): the list file and the day it was imported; empty while a
    # rating is present means it was typed by hand (an edit of a rating on the player's page empties it).
    rating_source = models.CharField(_("source of the ratings"), max_length=160, blank=True, editable=False)
    unrated = models.BooleanField(
        _("unrated"), default=False,
        help_text=_("Tick for a player known to have no rating: no rating may then be entered for him."))
    club = models.CharField(_("club"), max_length=120, blank=True, validators=ONE_LINE)
    birth_year = models.PositiveIntegerField(
        _("birth year"), null=True, blank=True, validators=[MinValueValidator(1880), MaxValueValidator(2100)]
    )
    # search_key of the names (Latin, given, own script): what the register's search compares. Kept by
    # save(); a bulk write sets it with search_key itself.
    folded = models.CharField(_("name folded for searching"), max_length=400, blank=True, editable=False,
                              db_index=True)
    # A rating or name changed mid-event is an appeals committee's question.
    history = HistoricalRecords(excluded_fields=["folded"])

    class Meta:
        ordering = ["surname", "given_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.full_name

    @property
    def full_name(self) -> str:
        return f"{self.surname}, {self.given_name}" if self.given_name else self.surname

    def clean(self) -> None:
        from tournaments.ratings import rating_errors

        if errors := rating_errors(self):
            raise ValidationError(errors)

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.folded = search_key(self.surname, self.given_name, self.native_name)
        if kwargs.get("update_fields") is not None:
            kwargs["update_fields"] = {*kwargs["update_fields"], "folded"}
        super().save(*args, **kwargs)


class NationalId(models.Model):
    """A player's id with a national federation or another body (KNDB number, FFJD licence)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="national_ids",
                               verbose_name=_("player"))
    body = models.CharField(_("federation or body"), max_length=20, validators=[body_validator])
    number = models.CharField(_("id"), max_length=30, validators=ONE_LINE)
    history = HistoricalRecords()

    class Meta:
        ordering = ["player", "body"]
        verbose_name = _("national id")
        verbose_name_plural = _("national ids")
        constraints = [
            models.UniqueConstraint(fields=["body", "number"], name="national_id_once_per_body"),
            models.UniqueConstraint(fields=["player", "body"], name="national_id_one_per_player_and_body"),
        ]

    def __str__(self) -> str:
        return f"{self.body} {self.number}"


class PlayerMerge(models.Model):
    """Two records of one person made one: the record kept, and everything the other one held, as it
    stood, so that the merge can be read back (and undone by hand) from the history."""

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges", verbose_name=_("kept record"))
    removed_id = models.PositiveIntegerField(_("id of the removed record"))
    removed = models.JSONField(_("the removed record as it stood"))
    moved = models.JSONField(_("what moved to the kept record"), default=dict)
    merged_at = models.DateTimeField(_("merged at"), default=timezone.now)
    merged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+", verbose_name=_("merged by"))

    class Meta:
        ordering = ["-merged_at"]
        verbose_name = _("merge of two player records")
        verbose_name_plural = _("merges of player records")

    def __str__(self) -> str:
        return f"{self.removed.get('full_name', self.removed_id)} → {self.kept}"


class RatingKind(models.TextChoices):
    """Which of a player's two ratings a list gives."""

    FMJD = "fmjd", _("FMJD rating")
    NATIONAL = "national", _("National rating")


class RatingList(models.Model):
    """One dated publication of one source's ratings, kept as published."""

    source = models.CharField(_("source"), max_length=20, validators=[body_validator],
                              help_text=_("Who publishes the list: FMJD, KNDB, FFJD, or a club's short name."))
    kind = models.CharField(_("ratings given"), max_length=10, choices=RatingKind.choices,
                            default=RatingKind.FMJD)
    published_on = models.DateField(_("date of the list"))
    name = models.CharField(_("name"), max_length=200, blank=True, validators=ONE_LINE)
    file_name = models.CharField(_("file"), max_length=255, blank=True)
    file_format = models.CharField(_("file format"), max_length=20, blank=True)
    imported_at = models.DateTimeField(_("imported at"), default=timezone.now)
    imported_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+", verbose_name=_("imported by"))
    row_count = models.PositiveIntegerField(_("rows"), default=0)

    class Meta:
        ordering = ["source", "-published_on"]
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")
        constraints = [
            models.UniqueConstraint(fields=["source", "kind", "published_on"], name="rating_list_once_per_date"),
        ]

    def __str__(self) -> str:
        return f"{self.source} {self.published_on.isoformat()}"


class RatingListRow(models.Model):
    """One player's line of a list, as the list gives it; `player` is the register's record it was matched
    to (by FMJD id, or by national id for a national list), empty when none matched."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="rows",
                                    verbose_name=_("rating list"))
    line = models.PositiveIntegerField(_("line"))
    player = models.ForeignKey(Player, on_delete=models.SET_NULL, null=True, blank=True,
                               related_name="list_rows", verbose_name=_("player"))
    fmjd_id = models.PositiveIntegerField(_("FMJD id"), null=True, blank=True, db_index=True)
    national_id = models.CharField(_("national id"), max_length=30, blank=True, db_index=True)
    surname = models.CharField(_("surname"), max_length=100)
    given_name = models.CharField(_("given name"), max_length=100, blank=True)
    native_name = models.CharField(_("name in its own script"), max_length=200, blank=True)
    federation = models.CharField(_("federation"), max_length=3, blank=True)
    title = models.CharField(_("title"), max_length=4, blank=True)
    rating = models.PositiveIntegerField(_("rating"), null=True, blank=True)
    sex = models.CharField(_("sex"), max_length=1, blank=True)
    birth_year = models.PositiveIntegerField(_("birth year"), null=True, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    # search_key of the row's names, what a search by name compares.
    folded = models.CharField(_("name folded for searching"), max_length=300, blank=True, db_index=True)

    class Meta:
        ordering = ["rating_list", "line"]
        verbose_name = _("rating list row")
        verbose_name_plural = _("rating list rows")
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "line"], name="rating_list_row_line_once"),
        ]

    def __str__(self) -> str:
        name = f"{self.surname}, {self.given_name}" if self.given_name else self.surname
        return f"{name} ({self.rating if self.rating is not None else '–'})"
