"""Team competitions: a league or a cup of teams, its rosters, its matches and their line-ups.

A team competition is a Tournament of the system "team": every player lined up has an Entry in it, and
every board of a match is an ordinary Game of the tournament's round (board number (table - 1) × boards
+ board), so results are entered with the same keys, game sheets are replayed, and the individual scores
go to the rating report as in any tournament. What is a team's alone (the roster, the line-up per match,
a whole-match forfeit, how a drawn cup match was decided) is held here; the rules of the competition are
the values `tournaments.teams.settings.TeamSettings` reads.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from simple_history.models import HistoricalRecords

from .register import ONE_LINE, federation_validator


class CompetitionKind(models.TextChoices):
    LEAGUE = "league", _("League (round robin)")
    CUP = "cup", _("Cup (knock-out)")


class LineupRule(models.TextChoices):
    """How a line-up's boards may be filled from the roster (a setting: the texts differ and the KNDB's
    own rule was not found; docs/research/team-competitions.md)."""

    FREE = "free", _("Any order (players of the roster on any board)")
    ROSTER_ORDER = "roster_order", _("In roster order (a player never below one listed after him)")


class TeamCompetition(models.Model):
    """The rules of a team competition, kept with its tournament (tournaments.teams.settings as fields)."""

    tournament = models.OneToOneField("tournaments.Tournament", on_delete=models.CASCADE,
                                      related_name="team_competition", verbose_name=_("tournament"))
    kind = models.CharField(_("kind"), max_length=10, choices=CompetitionKind.choices, default=CompetitionKind.LEAGUE)
    boards = models.PositiveSmallIntegerField(_("boards per match"), default=8,
                                              validators=[MinValueValidator(1), MaxValueValidator(20)])
    home_and_away = models.BooleanField(_("home and away (each pair meets twice)"), default=False)
    match_win = models.SmallIntegerField(_("match points for a won match"), default=2)
    match_draw = models.SmallIntegerField(_("match points for a drawn match"), default=1)
    match_loss = models.SmallIntegerField(_("match points for a lost match"), default=0)
    order = models.JSONField(_("ranking order"), default=list, blank=True,
                             help_text=_("The criteria in order: match points, board points, mutual match, "
                                         "Sonneborn-Berger for teams, matches won."))
    forfeit_board_points = models.PositiveSmallIntegerField(
        _("board points per board for a whole-match forfeit"), default=2, validators=[MaxValueValidator(2)])
    forfeit_deduction = models.PositiveSmallIntegerField(
        _("match points deducted from a team that forfeits a match"), default=0)
    colours = models.CharField(_("colours per board"), max_length=24, default="first_white_on_odd",
                               choices=[("first_white_on_odd", _("Home team White on boards 1, 3, 5…")),
                                        ("first_white_on_even", _("Home team White on boards 2, 4, 6…"))])
    cup_tie = models.JSONField(_("a drawn cup match is decided by"), default=list, blank=True)
    barrage_time_control = models.CharField(_("time control of a barrage"), max_length=100, blank=True,
                                            validators=ONE_LINE)
    lineup_rule = models.CharField(_("line-up rule"), max_length=20, choices=LineupRule.choices,
                                   default=LineupRule.FREE)
    one_team_per_player = models.BooleanField(
        _("a player plays for one team only"), default=True,
        help_text=_("Once he has played for a team of the competition, he is refused in another team's line-up."))
    licence_required = models.BooleanField(
        _("a licence number is required"), default=False,
        help_text=_("A roster member without a licence number is refused in a line-up."))
    version = models.PositiveIntegerField(default=1, editable=False)
    history = HistoricalRecords()

    class Meta:
        verbose_name = _("team competition")
        verbose_name_plural = _("team competitions")
        constraints = [
            models.CheckConstraint(condition=Q(boards__gte=1) & Q(boards__lte=20), name="team_competition_boards"),
            models.CheckConstraint(condition=Q(forfeit_board_points__lte=2), name="team_forfeit_board_points"),
        ]

    def __str__(self) -> str:
        return str(self.tournament)


class Team(models.Model):
    """A team of the competition, with its seed (its number in the schedule: the Berger table's, the
    fixed table's or the cup bracket's)."""

    competition = models.ForeignKey(TeamCompetition, on_delete=models.CASCADE, related_name="teams",
                                    verbose_name=_("competition"))
    name = models.CharField(_("name"), max_length=100, validators=ONE_LINE)
    club = models.CharField(_("club"), max_length=100, blank=True, validators=ONE_LINE)
    federation = models.CharField(_("federation"), max_length=3, blank=True, validators=[federation_validator])
    captain = models.ForeignKey("tournaments.Player", on_delete=models.SET_NULL, null=True, blank=True,
                                related_name="teams_captained", verbose_name=_("captain"))
    seed = models.PositiveSmallIntegerField(_("number"), validators=[MinValueValidator(1)])
    # The captain's link to give the line-ups without an account; empty while none is issued.
    captain_token = models.CharField(_("captain's code"), max_length=64, blank=True, editable=False)
    version = models.PositiveIntegerField(default=1, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["competition", "seed"]
        verbose_name = _("team")
        verbose_name_plural = _("teams")
        constraints = [
            models.UniqueConstraint(fields=["competition", "name"], name="team_name_unique"),
            models.UniqueConstraint(fields=["competition", "seed"], name="team_seed_unique"),
            models.UniqueConstraint(fields=["captain_token"], condition=~Q(captain_token=""),
                                    name="team_captain_token_unique"),
        ]

    def __str__(self) -> str:
        return self.name


# The team rows hold each other, the entries and the games by RESTRICT: none of them goes alone (a team with
# matches, an entry on a roster, a game on a board), and all go together when the whole competition is
# deleted by its tournament (PROTECT would refuse even that). What was played is kept by the deletion guard
# (tournaments.rounds.deletion), in words.


class RosterMember(models.Model):
    """A player of a team's roster, in its order; the reserves come after the regular players. The entry is
    the player's in the competition's tournament (one per player, whichever teams he is listed in)."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="roster", verbose_name=_("team"))
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.RESTRICT, related_name="roster_places",
                              verbose_name=_("player"))
    position = models.PositiveSmallIntegerField(_("place in the roster"), validators=[MinValueValidator(1)])
    reserve = models.BooleanField(_("reserve"), default=False)
    licence = models.CharField(_("licence number"), max_length=30, blank=True, validators=ONE_LINE)
    history = HistoricalRecords()

    class Meta:
        ordering = ["team", "position"]
        verbose_name = _("roster member")
        verbose_name_plural = _("roster members")
        constraints = [
            models.UniqueConstraint(fields=["team", "entry"], name="roster_player_once"),
            models.UniqueConstraint(fields=["team", "position"], name="roster_position_once"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.position}. {self.entry.player}"


class MatchForfeit(models.TextChoices):
    """A whole-match forfeit: which team did not play the match at all (tournaments.teams.scoring.Forfeit)."""

    NONE = "none", _("Played")
    HOME = "home", _("Home team did not play")
    AWAY = "away", _("Away team did not play")
    BOTH = "both", _("Neither team played")


class Match(models.Model):
    """A match of a round between two teams, at its table of the round; `away` is empty for a cup bye.
    A barrage is a match of its own (`barrage_of`) played after a drawn cup match."""

    competition = models.ForeignKey(TeamCompetition, on_delete=models.CASCADE, related_name="matches",
                                    verbose_name=_("competition"))
    round_number = models.PositiveSmallIntegerField(_("round"), validators=[MinValueValidator(1)])
    table = models.PositiveSmallIntegerField(_("match number"), validators=[MinValueValidator(1)])
    home = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="home_matches", verbose_name=_("home team"))
    away = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="away_matches", null=True, blank=True,
                             verbose_name=_("away team"), help_text=_("Empty for a bye in a cup."))
    forfeit = models.CharField(_("whole-match forfeit"), max_length=4, choices=MatchForfeit.choices,
                               default=MatchForfeit.NONE)
    barrage_of = models.OneToOneField("self", on_delete=models.RESTRICT, null=True, blank=True,
                                      related_name="barrage", verbose_name=_("barrage of"))
    # A drawn cup match: the step of the rule that decided it (tournaments.teams.scoring.CupReason) and,
    # for lots, the seed drawn when the arbiter drew them, so that the draw can be repeated and checked.
    decided_by = models.CharField(_("decided by"), max_length=20, blank=True, editable=False)
    winner = models.ForeignKey(Team, on_delete=models.RESTRICT, related_name="+", null=True, blank=True,
                               editable=False, verbose_name=_("goes through"))
    lots_seed = models.PositiveBigIntegerField(_("seed of the drawing of lots"), null=True, blank=True, editable=False)
    version = models.PositiveIntegerField(default=1, editable=False)
    history = HistoricalRecords()

    class Meta:
        ordering = ["competition", "round_number", "table"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(fields=["competition", "round_number", "table"], name="match_table_once"),
            models.CheckConstraint(condition=~Q(home=models.F("away")), name="match_distinct_teams"),
        ]

    def __str__(self) -> str:
        away = self.away.name if self.away_id and self.away else _("bye")
        return f"R{self.round_number}.{self.table} {self.home} – {away}"


class MatchBoard(models.Model):
    """One board of a match's line-up: the home and the away player (empty when a team leaves the board
    unfilled: the other side wins it by forfeit), and the Game once the round is published."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="boards", verbose_name=_("match"))
    number = models.PositiveSmallIntegerField(_("board"), validators=[MinValueValidator(1)])
    home_entry = models.ForeignKey("tournaments.Entry", on_delete=models.RESTRICT, null=True, blank=True,
                                   related_name="+", verbose_name=_("home player"))
    away_entry = models.ForeignKey("tournaments.Entry", on_delete=models.RESTRICT, null=True, blank=True,
                                   related_name="+", verbose_name=_("away player"))
    game = models.OneToOneField("tournaments.Game", on_delete=models.RESTRICT, null=True, blank=True,
                                related_name="match_board", verbose_name=_("game"))
    history = HistoricalRecords()

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("board of a match")
        verbose_name_plural = _("boards of matches")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="match_board_once"),
            models.CheckConstraint(condition=Q(home_entry__isnull=True) | Q(away_entry__isnull=True)
                                   | ~Q(home_entry=models.F("away_entry")), name="match_board_distinct_players"),
        ]

    def __str__(self) -> str:
        return f"{self.match} board {self.number}"
