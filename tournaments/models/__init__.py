"""The tournament domain: Player, Tournament, Entry, Round, Game.

Writes go through tournaments.rounds.services, reads through tournaments.selectors; the models hold data,
constraints and small derived properties only.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from tournaments.ratings import clean_rating_settings
from tournaments.results import Result
from tournaments.words import RESULT_LABELS

from .boards import BoardCode, BoardReport, CodeAttempt, ReportStatus  # noqa: F401  (the app's models)
from .hall import CheckIn, HallScreen  # noqa: F401  (the hall's models are the app's models)
from .register import (  # noqa: F401  (the register's models are the app's models)
    ONE_LINE,
    NationalId,
    Player,
    PlayerMerge,
    RatingKind,
    RatingList,
    RatingListRow,
    Sex,
    Title,
    federation_validator,
    search_key,
)
from .teams import (  # noqa: F401  (the team competitions' models are the app's models)
    CompetitionKind,
    LineupRule,
    Match,
    MatchBoard,
    MatchForfeit,
    RosterMember,
    Team,
    TeamCompetition,
)


class System(models.TextChoices):
    ROUND_ROBIN = "round_robin", _("Round robin")
    DOUBLE_ROUND_ROBIN = "double_round_robin", _("Double round robin")
    SWISS = "swiss", _("Swiss")
    TEAM = "team", _("Team competition")


class SwissOrder(models.TextChoices):
    RATING = "rating", _("By pairing number (Swiss on rating)")
    STANDING = "standing", _("By current standing (Swiss Solkoff)")


class Numbering(models.TextChoices):
    AUTO = "auto", _("By rating, automatically until round 1 is paired")
    MANUAL = "manual", _("By hand")
    LOT = "lot", _("Drawn by lot")


class RatingMethod(models.TextChoices):
    """How a tournament reads a player's rating: one list first and the other when he is
    not on it, the higher of the two, or one list alone (the other left out)."""

    FMJD = "fmjd", _("FMJD rating (the national rating when there is none)")
    NATIONAL = "national", _("National rating (the FMJD rating when there is none)")
    HIGHER = "higher", _("The higher of the FMJD and national ratings")
    FMJD_ONLY = "fmjd_only", _("FMJD rating only (unrated without one)")
    NATIONAL_ONLY = "national_only", _("National rating only (unrated without one)")


class TieOrder(models.TextChoices):
    """Equal ratings: title first, then this criterion, announced before round 1."""

    ALPHABETICAL = "alphabetical", _("Alphabetical order")
    FMJD_ID = "fmjd_id", _("FMJD id, smallest first")
    OLDEST = "oldest", _("Age, oldest first")
    YOUNGEST = "youngest", _("Age, youngest first")


class FirstColour(models.TextChoices):
    WHITE = "w", _("White")
    BLACK = "b", _("Black")


class UnratedMethod(models.TextChoices):
    # The values are tournaments.standings.unrated's methods.
    DROP = "drop", _("left out (default)")
    FIXED = "fixed", _("a fixed rating, typed below")
    LOWEST = "lowest", _("the lowest rating in the field")
    AVERAGE = "average", _("the average of the rated players")


class TiebreakConvention(models.TextChoices):
    # The values are tournaments.standings.fide_c07's conventions.
    FMJD = "fmjd", _("FMJD: a bye is an opponent scoring 0, a forfeit counts like a game")
    FIDE_C07 = "fide_c07", _("FIDE C.07 (2024): an unplayed round is a game against a dummy opponent")


class Tournament(models.Model):
    name = models.CharField(_("name"), max_length=200, validators=ONE_LINE)
    slug = models.SlugField(_("slug"), max_length=80, unique=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True, validators=ONE_LINE)
    start_date = models.DateField(_("start date"), null=True, blank=True)
    end_date = models.DateField(_("end date"), null=True, blank=True)
    system = models.CharField(_("system"), max_length=20, choices=System.choices, default=System.ROUND_ROBIN)
    rounds_total = models.PositiveSmallIntegerField(
        _("number of rounds"),
        null=True,
        blank=True,
        help_text=_("Swiss: required. Round robin: left empty, it follows from the number of players."),
    )
    time_control = models.CharField(_("time control"), max_length=100, blank=True, validators=ONE_LINE)
    chief_arbiter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("chief arbiter"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="chief_of",
    )
    deputy_arbiters = models.ManyToManyField(
        settings.AUTH_USER_MODEL, verbose_name=_("deputy arbiters"), blank=True, related_name="deputy_of"
    )
    # A bye is worth a game score, never more than a win (the checklist's Q81/Q83 read for 2/1/0).
    bye_points = models.PositiveSmallIntegerField(
        _("points for a bye"), default=2, choices=[(2, "2"), (1, "1"), (0, "0")],
        validators=[MaxValueValidator(2)],
        help_text=_("A game score: 2 (a win), 1 (a draw) or 0."))
    tiebreaks = models.JSONField(
        _("tie-break order"),
        default=list,
        blank=True,
        help_text=_("Ordered list of tie-break names from the registry."),
    )
    tiebreak_convention = models.CharField(
        _("unplayed rounds in the tie-breaks"), max_length=10, choices=TiebreakConvention.choices,
        default=TiebreakConvention.FMJD,
        help_text=_("How Solkoff (Buchholz), its truncated and median forms, Sonneborn-Berger and the number of "
                    "wins count a bye, a forfeit or an absence: as the FMJD Annexes 4.2 read it, or as FIDE's "
                    "Tie-Break Regulations (C.07) do. The other tie-breaks are the same in both."))
    swiss_order = models.CharField(
        _("order within a score group"), max_length=10, choices=SwissOrder.choices, default=SwissOrder.RATING
    )
    first_colour = models.CharField(
        _("first-round colour"), max_length=1, choices=FirstColour.choices, default=FirstColour.WHITE,
        help_text=_("Swiss: the colour of the first player in the ranking in round 1 (drawn by lot); the Dutch "
                    "system allocates later colours from it when nothing else decides."),
    )
    public = models.BooleanField(_("public"), default=False)
    # Numbers and ratings, round robin: tournaments/ratings.py, numbering.py.
    rating_method = models.CharField(
        _("tournament rating"), max_length=14, choices=RatingMethod.choices, default=RatingMethod.FMJD,
        help_text=_("The rating that orders the pairing numbers, counts in the rating tie-breaks and is shown "
                    "on the pages, the PDFs and the TRF."))
    tie_order = models.CharField(
        _("equal ratings"), max_length=12, choices=TieOrder.choices, default=TieOrder.ALPHABETICAL,
        help_text=_("Players with the same rating are ordered by title (GMI, GMIF, MI, MIF, MF, MFF, CMI, CMIF), "
                    "then by this criterion, announced before round 1."))
    rr_reverse_last_two = models.BooleanField(
        _("reverse the last two rounds of the first cycle"), default=True,
        help_text=_("Double round robin: play the last two rounds of the first cycle in reverse order, as the "
                    "Berger tables recommend, so that nobody plays the same colour three times in a row "
                    "between the cycles. Fixed once round 1 is paired."))
    # Wall sheets and score sheets are printed for a hall: in the federation's language, whoever prints them.
    pdf_language = models.CharField(
        _("language of the PDFs"), max_length=8, blank=True, default="",
        choices=[("", _("the reader's language")), ("en", "English"), ("fr", "Français"), ("nl", "Nederlands"),
                 ("ru", "Русский")],
        help_text=_("Pairings, score sheets, standings and crosstable print in this language; empty: in the "
                    "language of whoever opens them."),
    )
    # How the pairing numbers were set; changed by the numbering step (services) or, for MANUAL, by an
    # arbiter editing a number by hand. Not in the form: the control room is where it is chosen.
    numbering = models.CharField(_("pairing numbers"), max_length=10, choices=Numbering.choices,
                                 default=Numbering.AUTO, editable=False)
    # The seed of the drawing of lots (round robin), kept so the draw can be shown and replayed.
    numbering_seed = models.PositiveBigIntegerField(_("seed of the draw"), null=True, blank=True, editable=False)
    # Moved forward by database triggers (tournaments/web/cache_version.py) in the same transaction as every
    # write a public page shows; the page caches and ETags are keyed on it. The application never writes
    # them: a stale instance saved later cannot move them back (the trigger counts from the stored value).
    cache_version = models.PositiveBigIntegerField(default=1, editable=False)
    cache_changed_at = models.DateTimeField(default=timezone.now, editable=False)
    # The conformance mode (tournaments/conformance): None while the tournament is in it; once a level-4
    # breach is confirmed, the round under way then (0: before round 1). Never cleared: the mode is not
    # re-entered, so a page can say for good that the tournament left it.
    conformance_left_round = models.PositiveSmallIntegerField(
        _("left the conformance mode at round"), null=True, blank=True, editable=False)
    # Final standings: ties the tie-breaks cannot separate are drawn by lot from this
    # seed, drawn once and kept, so a repeated drawing gives the same order; or ordered by hand (entry ids,
    # best first, of the tied players), e.g. after a play-off. Set by tournaments.ranking.final_standings only.
    lots_seed = models.PositiveBigIntegerField(_("seed of the drawing of lots for ties"), null=True, blank=True,
                                               editable=False)
    hand_order = models.JSONField(_("tied players ordered by hand"), default=list, blank=True, editable=False)
    # Rating-based tie-breaks in long events and for unrated players (VCL4THP Q208-Q216; period_ratings.py).
    unrated_method = models.CharField(
        _("unrated players in rating tie-breaks"), max_length=10, choices=UnratedMethod.choices,
        default=UnratedMethod.DROP,
        help_text=_("How an unrated opponent counts in the average opponents' rating. FMJD rules say nothing; "
                    "FIDE C.07 Art. 10 leaves them out unless the regulations give them a rating."))
    unrated_rating = models.PositiveSmallIntegerField(
        _("rating given to unrated players"), null=True, blank=True, validators=[MaxValueValidator(3000)],
        help_text=_("Only with “a fixed rating”."))
    long_event = models.BooleanField(
        _("lasts more than 30 days"), default=False,
        help_text=_("Players may then hold later ratings, each from a round on (on each entry's page)."))
    tiebreak_rating_round = models.PositiveSmallIntegerField(
        _("ratings of round"), null=True, blank=True,
        help_text=_("The rating tie-breaks use the ratings players held in this round. Empty: each player's "
                    "first rating (FIDE C.07 Art. 10)."))
    tiebreak_rating_per_round = models.BooleanField(
        _("rating of each game's round"), default=False,
        help_text=_("Each opponent counts at the rating he held in the round the game was played."))
    # The lists the tournament is rated on, chosen before round 1: each entry keeps the values its player
    # has on them (tournaments/players/, the entry's rating and title), whatever list is imported later.
    fmjd_list = models.ForeignKey(
        RatingList, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        limit_choices_to={"kind": RatingKind.FMJD}, verbose_name=_("FMJD rating list"),
        help_text=_("The list whose FMJD ratings and titles the entries keep; empty: the register's."))
    national_list = models.ForeignKey(
        RatingList, on_delete=models.PROTECT, null=True, blank=True, related_name="+",
        limit_choices_to={"kind": RatingKind.NATIONAL}, verbose_name=_("national rating list"),
        help_text=_("The list whose national ratings the entries keep; empty: the register's."))
    # Check-in before a round (tournaments/hall/): switched on per tournament; open for one round at a time,
    # with a short code shown in the hall that a player types to check in from his phone.
    checkin_enabled = models.BooleanField(
        _("check-in before each round"), default=False,
        help_text=_("Players are marked present before a round; pairing then asks what the absentees get."))
    checkin_round = models.PositiveSmallIntegerField(_("check-in open for round"), null=True, blank=True,
                                                     editable=False)
    checkin_code = models.CharField(_("check-in code shown in the hall"), max_length=12, blank=True,
                                    editable=False)
    history = HistoricalRecords(excluded_fields=["cache_version", "cache_changed_at"])

    class Meta:
        ordering = ["-start_date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=Q(end_date__isnull=True) | Q(start_date__isnull=True)
                | Q(end_date__gte=models.F("start_date")),
                name="tournament_dates_ordered",
            ),
            models.CheckConstraint(condition=Q(bye_points__lte=2), name="tournament_bye_points_game_score"),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def in_conformance(self) -> bool:
        return self.conformance_left_round is None

    @property
    def is_team(self) -> bool:
        """A team competition: its rounds are made of matches (tournaments.competitions), never paired."""
        return self.system == System.TEAM

    @property
    def is_round_robin(self) -> bool:
        return self.system in (System.ROUND_ROBIN, System.DOUBLE_ROUND_ROBIN)

    def clean(self) -> None:
        """The checks of the values alone; the rules that read the stored row and its rounds (what round 1
        fixes, a round robin's tie-breaks) are tournaments.rounds.settings_rules, asked by every path that
        changes the settings."""
        from tournaments.standings import TIEBREAKS

        if not isinstance(self.tiebreaks, list) or not all(isinstance(t, str) for t in self.tiebreaks):
            raise ValidationError({"tiebreaks": _("A list of tie-break names.")})
        unknown = [t for t in self.tiebreaks if t not in TIEBREAKS]
        if unknown:
            raise ValidationError(
                {"tiebreaks": _("Unknown tie-break(s): %(unknown)s. Known: %(known)s.")
                 % {"unknown": ", ".join(unknown), "known": ", ".join(TIEBREAKS)}}
            )
        if len(set(self.tiebreaks)) != len(self.tiebreaks):
            raise ValidationError({"tiebreaks": _("A tie-break is listed twice.")})
        if self.system == System.SWISS and not self.rounds_total:
            raise ValidationError({"rounds_total": _("A Swiss tournament needs its number of rounds.")})
        clean_rating_settings(self)

    def is_arbiter(self, user: object) -> bool:
        """Chief or deputy arbiter of this tournament, or a superuser."""
        if not getattr(user, "is_authenticated", False):
            return False
        if getattr(user, "is_superuser", False):
            return True
        user_id = getattr(user, "pk", None)
        return self.chief_arbiter_id == user_id or self.deputy_arbiters.filter(pk=user_id).exists()


def numbered(number: int | str, name: str) -> str:
    """A player named with his pairing number, "12. Dupont, Jean": str(entry), and the one format of the
    pages and messages that name a player by number and name without an Entry at hand."""
    return f"{number}. {name}"


class EntryStatus(models.TextChoices):
    ACTIVE = "active", _("Active")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    EXPELLED = "expelled", _("Expelled")  # competition rules 2.6: not paired, not ranked; his games count


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries",
                                   verbose_name=_("tournament"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries", verbose_name=_("player"))
    pairing_number = models.PositiveSmallIntegerField(_("pairing number"))
    status = models.CharField(_("status"), max_length=10, choices=EntryStatus.choices, default=EntryStatus.ACTIVE)
    withdrawn_after_round = models.PositiveSmallIntegerField(_("withdrawn after round"), null=True, blank=True)
    # The player's ratings as this tournament holds them: copied from the player when he is entered, and
    # changed after only by the arbiter taking a later list on (tournaments/players/numbering.py), never once the
    # tournament is finished. Every reader of the tournament (numbers, pairing, tie-breaks, pages, PDFs,
    # TRF, JSON) reads these, so a new rating list changes nothing already played behind the record.
    rating = models.PositiveIntegerField(_("FMJD rating"), null=True, blank=True, editable=False,
                                         validators=[MaxValueValidator(3000)])
    national_rating = models.PositiveIntegerField(_("national rating"), null=True, blank=True, editable=False,
                                                  validators=[MaxValueValidator(3000)])
    # The title as the tournament's list (or the register, without a list) gave it at entry: the titles
    # order equal ratings and are printed, so they are kept like the ratings.
    title = models.CharField(_("title"), max_length=4, choices=Title.choices, blank=True, editable=False)
    # A player with no rating on the list a tournament reads alone (“FMJD rating only”, “national rating
    # only”) but one on the other list: the arbiter may pick that one for him, and the tournament then
    # reads it (tournaments/players/rating_lists.py records who did). The kept ratings stay each its list's.
    other_rating_picked = models.BooleanField(_("rating of the other list picked"), default=False,
                                              editable=False)
    excused_rounds = models.JSONField(
        _("excused rounds"),
        default=list,
        blank=True,
        help_text=_("Swiss: rounds the player asked to sit out (a zero-point bye), e.g. [3, 5]."),
    )
    # A requested bye the arbiter grants a draw's or a win's points: {"round": 1 or 2}; its round is in
    # excused_rounds too. Set by tournaments.players.requested_byes, which asks the checklist's confirmations.
    bye_points = models.JSONField(_("points of the requested byes"), default=dict, blank=True, editable=False)
    no_half_bye = models.BooleanField(
        _("no bye worth a draw"), default=False,
        help_text=_("The regulations do not let this player have a requested bye worth a draw."))
    expelled_after_round = models.PositiveSmallIntegerField(_("expelled after round"), null=True, blank=True,
                                                            editable=False)
    external_tiebreak = models.IntegerField(
        _("external tie-break value"), null=True, blank=True,
        help_text=_("Only for the tie-break “External value”: a value computed outside Damier; higher is better."))
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "pairing_number"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="entry_player_once"),
            models.UniqueConstraint(fields=["tournament", "pairing_number"], name="entry_pairing_number_unique"),
            models.CheckConstraint(condition=Q(pairing_number__gte=1), name="entry_pairing_number_positive"),
        ]

    def __str__(self) -> str:
        return numbered(self.pairing_number, self.player.full_name)

    # What only the services change (withdrawal, expulsion, requested byes, taking note of a rating): a save
    # of the whole entry (its change form) writes them as they stand, never as a page read earlier had them.
    STATE_FIELDS = ("status", "withdrawn_after_round", "expelled_after_round", "bye_points", "rating",
                    "national_rating", "title", "other_rating_picked")

    def save(self, *args: Any, numbering_step: bool = False, **kwargs: Any) -> None:
        """numbering_step: the numbering services renumber the field (they check under the same lock when
        numbers may change); any other save that changes a number is a hand edit."""
        # A new entry takes the player's ratings unless its creator gave them (a file carries the ratings
        # the tournament was run on; ratings_given marks "unrated here" for a player rated today).
        if (self._state.adding and self.player_id is not None and self.rating is None
                and self.national_rating is None and not getattr(self, "ratings_given", False)):
            self.take_ratings(self.player)
        if self.pk is None or self._state.adding:
            super().save(*args, **kwargs)
            return
        # The tournament's row first, as every writer takes it (the pairing holds it while it pairs): the
        # checks below then see round 1 if it is paired, and nothing can pair it between check and write.
        with transaction.atomic():
            from tournaments.locks import check_entry_change

            stored = check_entry_change(self, numbering_step=numbering_step)
            if stored is not None and kwargs.get("update_fields") is None:
                for name in self.STATE_FIELDS:
                    setattr(self, name, stored[name])
            # An arbiter who changes a number on a form numbers by hand: the tournament stops numbering by
            # rating on its own, so his numbers are never silently replaced when round 1 is paired.
            if stored is not None and stored["pairing_number"] != self.pairing_number and not numbering_step:
                Tournament.objects.filter(pk=self.tournament_id).exclude(numbering=Numbering.MANUAL).update(
                    numbering=Numbering.MANUAL)
            if stored is not None and stored["player_id"] != self.player_id:
                # another player in the entry (before any game): his ratings, not the one he replaces
                self.take_ratings(self.player)
                if kwargs.get("update_fields") is not None:
                    kwargs["update_fields"] = {*kwargs["update_fields"], "rating", "national_rating", "title"}
            super().save(*args, **kwargs)

    def take_ratings(self, player: Player, lists: dict[str, int | None] | None = None) -> None:
        """The player's ratings and title on the tournament's rating lists, or as the register has them now
        where it has chosen none (no rating for a player known to be unrated). `lists`: the tournament's
        lists read once by a writer entering many players (ratings.tournament_lists)."""
        from tournaments.ratings import kept_values

        self.rating, self.national_rating, self.title = kept_values(self.tournament_id, player, lists)

    @property
    def is_withdrawn(self) -> bool:
        return self.status == EntryStatus.WITHDRAWN

    @property
    def is_expelled(self) -> bool:
        return self.status == EntryStatus.EXPELLED

    def gone_before(self, number: int) -> bool:
        """Not to be paired in round `number`: withdrawn or expelled after an earlier round."""
        if self.is_expelled:
            return (self.expelled_after_round or 0) < number
        return self.is_withdrawn and (self.withdrawn_after_round or 0) < number


class ScheduledRound(models.Model):
    """A round's planned date and start time, set once with the tournament: printed on the pairings, the
    boards list and every score sheet, shown on the public pages, and the date a round takes when it is
    paired (the round's own date may then be moved, for a round played on another day)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="schedule",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"))
    start_time = models.TimeField(_("start time"), null=True, blank=True)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("round of the schedule")
        verbose_name_plural = _("round schedule")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="scheduled_round_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="scheduled_round_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – {self.number}"


class ForbiddenPair(models.Model):
    """Two players the Swiss pairing must keep apart (same club, same family), set by the arbiter."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs",
                                   verbose_name=_("tournament"))
    first = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("player"))
    second = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+", verbose_name=_("may not meet"))
    reason = models.CharField(_("reason"), max_length=120, blank=True, validators=ONE_LINE)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("forbidden pair")
        verbose_name_plural = _("forbidden pairs")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "first", "second"], name="forbidden_pair_once"),
            models.CheckConstraint(condition=~Q(first=models.F("second")), name="forbidden_pair_distinct"),
        ]

    def __str__(self) -> str:
        return f"{self.first.player} / {self.second.player}"

    def clean(self) -> None:
        # The form may have left a side unset (an invalid choice): compare ids, never touch a missing relation.
        ids = [i for i in (self.first_id, self.second_id) if i is not None]
        if ids and Entry.objects.filter(pk__in=ids).exclude(tournament_id=self.tournament_id).exists():
            raise ValidationError(_("Both players must be entered in this tournament."))


class RoundStatus(models.TextChoices):
    DRAFT = "draft", _("Draft")
    PUBLISHED = "published", _("Published")
    COMPLETED = "completed", _("Completed")


class Round(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds",
                                   verbose_name=_("tournament"))
    number = models.PositiveSmallIntegerField(_("round"))
    date = models.DateField(_("date"), null=True, blank=True)
    status = models.CharField(_("status"), max_length=10, choices=RoundStatus.choices, default=RoundStatus.DRAFT)
    pairing_explanation = models.TextField(_("how the round was paired"), blank=True)
    # The engine's decisions as data (tournaments.rounds.pairing_bridge.pairing_record), worded for each reader in his
    # language; pairing_explanation keeps the words of the pairing arbiter (older rounds, JSON transfer).
    pairing_record = models.JSONField(_("pairing decisions"), null=True, blank=True, editable=False)
    # Optimistic concurrency, as Game.version: every change of the round bumps it, and a change made on
    # the version read before another arbiter's is refused rather than silently undoing his.
    version = models.PositiveIntegerField(default=1, editable=False)
    # The manual pairing phase (tournaments/rounds/manual_pairing.py): open from "Edit the
    # pairing" to "Validate"; the breaches confirmed while it is open (warning keys) wait for validation.
    manual_edit_started_at = models.DateTimeField(_("pairing edited by hand since"), null=True, blank=True,
                                                  editable=False)
    manual_edit_started_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("pairing edited by"),
                                               null=True, blank=True, editable=False, on_delete=models.SET_NULL,
                                               related_name="+")
    manual_edit_confirmed = models.JSONField(_("breaches confirmed while editing"), default=list, blank=True,
                                             editable=False)
    # The round clock the hall screens show: when the arbiter said "start the clocks", and who.
    clock_started_at = models.DateTimeField(_("clocks started at"), null=True, blank=True, editable=False)
    clock_started_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("clocks started by"),
                                         null=True, blank=True, editable=False, on_delete=models.SET_NULL,
                                         related_name="+")
    history = HistoricalRecords()

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
        ]

    def __str__(self) -> str:
        return str(_("%(tournament)s – round %(n)s") % {"tournament": self.tournament, "n": self.number})

    @property
    def is_public(self) -> bool:
        return self.status != RoundStatus.DRAFT

    # What only the services change, each after checking the version the arbiter read (services._lock_round).
    STATE_FIELDS = ("tournament", "number", "status", "pairing_explanation", "version", "manual_edit_started_at",
                    "manual_edit_started_by", "manual_edit_confirmed")

    def save(self, *args: Any, **kwargs: Any) -> None:
        # A save of the whole round (its change form, read before another arbiter completed or published
        # it) would write the state it read and silently undo his. So such a save takes the row lock, reads
        # the state as it now stands and writes only the other fields (the date); the state changes
        # through the services alone. The history then records the true state.
        if self.pk is not None and not self._state.adding and kwargs.get("update_fields") is None:
            with transaction.atomic():
                # The tournament's row first, as every writer takes it (tournaments/locks.py).
                list(Tournament.objects.select_for_update().filter(pk=self.tournament_id).values_list("pk", flat=True))
                current = (Round.objects.select_for_update().filter(pk=self.pk)
                           .values("tournament_id", "number", "status", "pairing_explanation", "version",
                                   "manual_edit_started_at", "manual_edit_started_by_id", "manual_edit_confirmed")
                           .first())
                if current is not None:
                    for name, value in current.items():
                        setattr(self, name, value)
                    kwargs["update_fields"] = [f.name for f in self._meta.concrete_fields
                                               if not f.primary_key and f.name not in self.STATE_FIELDS]
                super().save(*args, **kwargs)
            return
        super().save(*args, **kwargs)


# The labels in the reader's language (the admin's result filter and select): the one table of tournaments.words.
RESULT_CHOICES = [(r.value, RESULT_LABELS[r]) for r in Result]


class Game(models.Model):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="games", verbose_name=_("round"))
    board = models.PositiveSmallIntegerField(_("board"))
    white = models.ForeignKey(Entry, on_delete=models.PROTECT, related_name="games_as_white", verbose_name=_("white"))
    black = models.ForeignKey(
        Entry,
        on_delete=models.PROTECT,
        related_name="games_as_black",
        null=True,
        blank=True,
        verbose_name=_("black"),
        help_text=_("Empty for a bye."),
    )
    result = models.CharField(_("result"), max_length=12, choices=RESULT_CHOICES, blank=True)
    # A correction for the rating report only (C.04.2 4.3): a result found wrong after later
    # rounds were paired on it. Pairing, standings and the public pages keep `result`; the TRF notes this one
    # in a ### line (the RATING_CORRECTION event).
    rating_result = models.CharField(_("result for the rating report"), max_length=12, choices=RESULT_CHOICES,
                                     blank=True, editable=False)
    # Optimistic concurrency: every save through the services bumps it; a save made on a stale
    # version is refused instead of silently overwriting another arbiter's result.
    version = models.PositiveIntegerField(default=1, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["round", "board"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["round", "board"], name="game_board_unique"),
            models.CheckConstraint(condition=~Q(white=models.F("black")), name="game_distinct_players"),
        ]

    def __str__(self) -> str:
        try:
            black = self.black.player if self.black_id and self.black else _("bye")
            return f"R{self.round.number} B{self.board}: {self.white.player} – {black}"
        except models.ObjectDoesNotExist:  # a history record of a game whose round is deleted
            return str(_("Game %(pk)s of a deleted round, board %(board)s") % {"pk": self.pk, "board": self.board})

    @property
    def parsed_result(self) -> Result | None:
        """The stored result code as a Result (the one place it is parsed); None while there is none."""
        return Result(self.result) if self.result else None

    @property
    def has_sheet(self) -> bool:
        """Whether a game sheet is stored for the game (reading `game.sheet` raises when there is none)."""
        try:
            self.sheet  # noqa: B018
        except models.ObjectDoesNotExist:
            return False
        return True

    @property
    def is_bye(self) -> bool:
        return self.black_id is None


class SheetStatus(models.TextChoices):
    VERIFIED = "verified", _("Verified")
    NOT_VERIFIABLE = "not_verifiable", _("Not verifiable from the sheet")
    IRREGULAR = "irregular", _("Irregular")
    MISMATCH = "mismatch", _("Result mismatch")


class GameSheet(models.Model):
    """A player's game sheet (PDN) for one game, kept exactly as uploaded so it can be replayed again."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="sheet", verbose_name=_("game"))
    text = models.TextField(_("PDN text"))
    source_name = models.CharField(_("file name"), max_length=255, blank=True)
    encoding = models.CharField(_("encoding"), max_length=40, blank=True)
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    report = models.JSONField(_("replay report"), default=dict, blank=True)
    status = models.CharField(_("status"), max_length=20, choices=SheetStatus.choices)
    sheet_result = models.CharField(_("result on the sheet"), max_length=12, blank=True)
    summary = models.CharField(_("summary"), max_length=300, blank=True)
    # Irregular, mismatch or flagged (an early draw): stored so "needs a look" is one indexed filter.
    needs_look = models.BooleanField(_("needs a look"), default=False, db_index=True)
    # The arbiter's ruling: the status he accepted (or the one a result he recorded from the sheet gave).
    # Only a ruled sheet shows its verdict on the public pages; a new upload clears it.
    ruling = models.CharField(_("ruling"), max_length=20, choices=SheetStatus.choices, blank=True)
    ruled_at = models.DateTimeField(_("ruled at"), null=True, blank=True)
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Raised by every change of the sheet (upload, replay, ruling): a ruling made on a page showing an
    # older sheet is refused.
    version = models.PositiveIntegerField(default=1, editable=False)
    # The replayed line for the public game page (tournaments.sheets.line), kept so that a page view never
    # replays the sheet; rebuilt when missing or made by an older engine. Not in the history: it is
    # derived from `text`, which is.
    line = models.JSONField(_("replayed line"), null=True, blank=True, editable=False)
    history = HistoricalRecords(excluded_fields=["line"])

    class Meta:
        verbose_name = _("game sheet")
        verbose_name_plural = _("game sheets")

    def __str__(self) -> str:
        return str(_("sheet of %(board)s") % {"board": self.game})


class ConformanceEvent(models.Model):
    """A breach of the competition rules the arbiter confirmed (or a notice he was given), kept for good:
    on the tournament's pages, in its history and as a `###` line of its TRF. `code` and `values` are data
    (tournaments/conformance/policy.py); the words are made when it is shown, in the reader's language."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="conformance_events",
                                   verbose_name=_("tournament"))
    round_number = models.PositiveSmallIntegerField(_("round"), default=0)
    code = models.CharField(_("what happened"), max_length=40)
    level = models.PositiveSmallIntegerField(_("warning level"))
    values = models.JSONField(_("details"), default=dict, blank=True)
    left_mode = models.BooleanField(_("left the conformance mode"), default=False)
    created_at = models.DateTimeField(_("when"), default=timezone.now)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, verbose_name=_("by"), null=True, blank=True,
                                   on_delete=models.SET_NULL, related_name="+")

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("conformance event")
        verbose_name_plural = _("conformance events")

    def __str__(self) -> str:
        return f"{self.code} @ round {self.round_number}"


class EntryRating(models.Model):
    """A later rating of a player in a long event, held from a round on (VCL4THP Q212-Q213); his first
    rating is the entry's tournament rating."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="later_ratings",
                              verbose_name=_("entry"))
    from_round = models.PositiveSmallIntegerField(_("from round"), validators=[MinValueValidator(2)])
    rating = models.PositiveSmallIntegerField(_("rating"), validators=[MaxValueValidator(3000)])
    history = HistoricalRecords()  # a rating changed mid-event moves the tie-breaks: keep who did it

    class Meta:
        ordering = ["entry", "from_round"]
        verbose_name = _("later rating")
        verbose_name_plural = _("later ratings")
        constraints = [
            models.UniqueConstraint(fields=["entry", "from_round"], name="entry_rating_round_once"),
            models.CheckConstraint(condition=Q(from_round__gte=2), name="entry_rating_from_round_2"),
        ]

    def __str__(self) -> str:
        return f"{self.entry}: {self.rating} ({self.from_round})"
