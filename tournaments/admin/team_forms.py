"""The forms of a team competition's set-up: its rules (the new competition's page and the settings page),
a team. Every default is a setting whose source is said in its help (docs/research/team-competitions.md):
the arbiter sets each from his own competition's regulations."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.core.validators import validate_slug
from django.utils.translation import gettext_lazy as _

from tournaments.admin.base import SafeAutocompleteSelect
from tournaments.competitions import changes
from tournaments.models import Team, TeamCompetition
from tournaments.teams.settings import Criterion, CupTie

CRITERIA = [
    (Criterion.MATCH_POINTS.value, _("match points")),
    (Criterion.BOARD_POINTS.value, _("board points")),
    (Criterion.MUTUAL.value, _("mutual match")),
    (Criterion.SB_TEAMS.value, _("Sonneborn-Berger for teams")),
    (Criterion.WINS.value, _("matches won")),
]
CUP_STEPS = [
    (CupTie.BOARD_COUNT.value, _("board count (the lower sum of the boards won goes through)")),
    (CupTie.ELIMINATE_LOWEST.value, _("the lowest board eliminated, again and again")),
    (CupTie.BARRAGE.value, _("a barrage at the time control below")),
    (CupTie.LOTS.value, _("lots")),
]
ORDER_SLOTS, TIE_SLOTS = len(CRITERIA), len(CUP_STEPS)

SOURCES = _("Every default below is a setting, not a federation's rule unless its text is named: set each from "
            "your competition's regulations (the texts found are in docs/research/team-competitions.md).")
HELP = {
    "kind": _("A league is a round robin (KNDB national competition; the LRAJD interclubs: \"chaque équipe doit "
              "rencontrer toutes les autres\"); a cup is a knock-out (FFJD Coupe de France, art. 1: \"élimination "
              "directe et successive\")."),
    "boards": _("Default 8: the KNDB played eights in every class in 2020-21 and tens in 2019-20 (press); the "
                "FFJD Coupe and the LRAJD interclubs play 4 (\"quatre joueurs\"); IDF-64: 3 (men), 2 (women). "
                "Fixed once a round is published."),
    "home_and_away": _("Each pair meets twice, home and away swapped. No text was found that says so for the KNDB; "
                       "the LRAJD table has each pair once."),
    "match_win": _("2 for a win, 1 for a draw, 0 for a loss: the KNDB's published standings (13 points from 10 "
                   "matches). A match is won on board points (2 a won game, 1 a draw: FMJD)."),
    "order": _("Default match points, then board points: KNDB SWR art. 36.1 ranks on match points, and board "
               "points decide between teams equal on them in the published standings; IDF-64 ranks on board "
               "points alone. The KNDB's next criterion (36.3 b) was not found whole."),
    "forfeit_board_points": _("Default 2 on every board: the FMJD forfeit (2F-0F). No KNDB or FFJD text on a "
                              "forfeited match was found."),
    "forfeit_deduction": _("Default 0. The KNDB may deduct \"twee wedstrijdpunten\" for leaving the programme "
                           "without leave (Wedstrijdvoorwaarden 2016-2017, art. 1): not found as the automatic "
                           "penalty of a forfeited match; set 2 if your regulations say so."),
    "colours": _("Default: the home team White on boards 1, 3, 5…. No KNDB, FFJD or FIDE team text on the "
                 "colours per board was found. Fixed once a round is published."),
    "cup_tie": _("Default board count, then lots. The FFJD Coupe's rule for a drawn match was not found; board "
                 "count and the elimination of the lowest board are the Olympiad rules as olimpbase.org describes "
                 "them. Lots can only be the last step. Fixed once a drawn match was decided by it."),
    "barrage_time_control": _("When a barrage is a step: its time control (the PLDB plays a decider \"met "
                              "verkort speeltempo\")."),
    "lineup_rule": _("Default any order: the FFJD Coupe (\"dans n'importe quel ordre\", press 2025) and IDF-64 "
                     "(\"boards in a team are not assigned\"). The KNDB's own rule was not found."),
    "one_team_per_player": _("FFJD Coupe art. 3: a team that lines up a player licensed in another club of the "
                             "Coupe loses the match."),
    "licence_required": _("FFJD Coupe art. 3: \"Une équipe alignant un joueur non licencié, perd le match par "
                          "irrégularité.\""),
}
RULE_FIELDS = ["kind", "boards", "home_and_away", "match_win", "match_draw", "match_loss", "forfeit_board_points",
               "forfeit_deduction", "colours", "barrage_time_control", "lineup_rule", "one_team_per_player",
               "licence_required"]


class RulesForm(forms.ModelForm):
    """The rules as fields; the ranking order and the cup's tie rule as ordered menus."""

    seen_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = TeamCompetition
        fields = RULE_FIELDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        order = list(self.instance.order or []) if self.instance.pk else list(changes_default("order"))
        tie = list(self.instance.cup_tie or []) if self.instance.pk else list(changes_default("cup_tie"))
        for i in range(ORDER_SLOTS):
            self.fields[f"order_{i + 1}"] = forms.ChoiceField(
                label=_("Ranking: criterion %(n)s") % {"n": i + 1}, required=i == 0,
                choices=[("", "—"), *CRITERIA], initial=order[i] if i < len(order) else "")
        for i in range(TIE_SLOTS):
            self.fields[f"tie_{i + 1}"] = forms.ChoiceField(
                label=_("Drawn cup match: step %(n)s") % {"n": i + 1}, required=False,
                choices=[("", "—"), *CUP_STEPS], initial=tie[i] if i < len(tie) else "")
        for name, words in HELP.items():
            target = {"order": "order_1", "cup_tie": "tie_1"}.get(name, name)
            self.fields[target].help_text = words
        if self.instance.pk:
            self.fields["seen_version"].initial = self.instance.version

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        data["order"] = [v for i in range(ORDER_SLOTS) if (v := data.get(f"order_{i + 1}"))]
        data["cup_tie"] = [v for i in range(TIE_SLOTS) if (v := data.get(f"tie_{i + 1}"))]
        merged = {name: data.get(name, getattr(self.instance, name)) for name in changes.RULES}
        for name, words in changes.rules_problems(merged).items():
            target = {"order": "order_1", "cup_tie": "tie_1"}.get(name, name)
            self.add_error(target if target in self.fields else None, words)
        return data

    def rules(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in changes.RULES}


def changes_default(name: str) -> list[str]:
    from tournaments.competitions.setup import DEFAULT_CUP_TIE, DEFAULT_ORDER

    return DEFAULT_ORDER if name == "order" else DEFAULT_CUP_TIE


class CompetitionCreateForm(RulesForm):
    """A new team competition: its tournament's name, address and dates, and its rules."""

    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.CharField(label=_("Address (slug)"), max_length=50, validators=[validate_slug],
                           help_text=_("The public pages' address: letters, digits and hyphens."))
    start_date = forms.DateField(label=_("Start date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))
    end_date = forms.DateField(label=_("End date"), required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        start, end = data.get("start_date"), data.get("end_date")
        if start and end and end < start:
            self.add_error("end_date", _("The end date comes before the start date."))
        return data


class TeamForm(forms.ModelForm):
    """A team's name, club, federation and captain (from the register, by name or FMJD id)."""

    seen_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = Team
        fields = ["name", "club", "federation", "captain"]
        widgets = {"captain": SafeAutocompleteSelect(Team._meta.get_field("captain"), admin.site)}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["federation"].help_text = _("three capital letters, e.g. FRA")
        if self.instance.pk:
            self.fields["seen_version"].initial = self.instance.version

    def clean_federation(self) -> str:
        return str(self.cleaned_data.get("federation") or "").strip().upper()

    def validate_unique(self) -> None:
        # The services check the name within the competition, under its lock.
        pass
