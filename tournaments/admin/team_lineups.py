"""The line-up screen of a team round: every match of the round, each team's boards typed by keyboard.

A box per board takes a roster place number or the start of a name; Tab goes down a team's boards and
on to the other team's, Enter saves the match (both line-ups and the whole-match forfeit, one decision,
checked against the version the page was read at). A refused match comes back as it was typed with its
problems beside it, as `competitions.lineups.lineup_set` names them; the other matches show what is
stored. After a save the cursor is on the next match still waiting for a line-up. The round is
published from here (its boards become the round's games, and the round page takes the results) and
taken back to draft while no result is in.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext as _

from rules.numbers import number_or_none
from tournaments.admin.base import run_service
from tournaments.boards import codes as board_codes
from tournaments.competitions import captains, lineup_input, lineups, match_entry, setup
from tournaments.errors import StaleEditError
from tournaments.models import Match, MatchForfeit, Round, RoundStatus, Team, TeamCompetition, Tournament


@dataclass
class Box:
    number: int
    name: str  # the input's name: m<match>-<side>-<board>
    typed: str
    player: str  # whom the box names now
    error: str = ""
    autofocus: bool = False


@dataclass
class Side:
    side: str
    team: Team
    legend: str
    boxes: list[Box]
    roster: list[lineup_input.RosterLine]
    problem: str = ""

    @property
    def roster_json(self) -> str:
        return json.dumps([[line.position, line.name] for line in self.roster], ensure_ascii=False)


@dataclass
class Card:
    match: Match
    version: int
    sides: list[Side]
    forfeit: str
    problems: list[str] = field(default_factory=list)
    locked: bool = False  # the round is published: the line-ups are fixed
    waiting: bool = False  # a team has no line-up yet

    @property
    def key(self) -> int:
        return self.match.table

    @property
    def has_problems(self) -> bool:
        return bool(self.problems) or any(s.problem or any(b.error for b in s.boxes) for s in self.sides)


def publish_team_round(rnd: Round, version: int | None, user: Any) -> Round:
    """"Publish" of a team round from the control room or the rounds' list: its games come from the
    line-ups (competitions.lineups.round_publish), never from an empty draft; checked against the round's
    version the page was read at."""
    competition = competition_of(rnd.tournament)
    setup.locked_competition(competition)  # the tournament's lock first: the version read below stands
    stored = Round.objects.filter(pk=rnd.pk).values_list("version", flat=True).first()
    if stored is None or (version is not None and stored != version):
        raise StaleEditError(_("Round %(n)s was changed by someone else since you read it: nothing was done; look "
                               "at it again.") % {"n": rnd.number})
    return lineups.round_publish(competition=competition, number=rnd.number, user=user)


def competition_of(tournament: Tournament) -> TeamCompetition:
    competition = TeamCompetition.objects.filter(tournament=tournament).select_related("tournament").first()
    if competition is None:
        raise Http404("Not a team competition.")
    return competition


def cards(competition: TeamCompetition, number: int, posted: Any = None, refused: dict[int, dict[str, str]] | None
          = None, box_errors: dict[int, dict[str, dict[int, str]]] | None = None) -> list[Card]:
    """Every match of the round as the screen shows it; a refused match (posted) as it was typed."""
    refused = refused or {}
    box_errors = box_errors or {}
    rnd = competition.tournament.rounds.filter(number=number).first()
    locked = rnd is not None and rnd.status != RoundStatus.DRAFT
    matches = (competition.matches.filter(round_number=number).select_related("home", "away")
               .prefetch_related("boards__home_entry__player", "boards__away_entry__player").order_by("table"))
    out: list[Card] = []
    for match in matches:
        again = posted is not None and match.pk in refused
        sides: list[Side] = []
        for side, team in ((lineups.HOME, match.home), (lineups.AWAY, match.away)):
            if team is None:
                continue
            roster = lineup_input.roster_lines(team)
            boards = list(match.boards.all())
            typed = (lineup_input.typed_from(posted, side, competition.boards, prefix=f"m{match.pk}-") if again
                     else lineup_input.stored_typed(boards, side, roster, competition.boards))
            names = lineup_input.names_of(typed, roster)
            errors = box_errors.get(match.pk, {}).get(side, {})
            legend = (_("%(team)s (home)") if side == lineups.HOME else _("%(team)s (away)")) % {"team": team}
            sides.append(Side(side, team, legend, [
                Box(n, f"m{match.pk}-{side}-{n}", typed[n - 1], names[n - 1], errors.get(n, ""))
                for n in range(1, competition.boards + 1)], roster, refused.get(match.pk, {}).get(side, "")))
        forfeit = (posted.get(f"m{match.pk}-forfeit", match.forfeit) if again else match.forfeit)
        version = number_or_none(posted.get(f"m{match.pk}-version")) if again else match.version
        stored_empty = any(not any(getattr(b, f"{s}_entry_id") for b in match.boards.all())
                           for s in (lineups.HOME, lineups.AWAY))
        out.append(Card(match, version if version is not None else match.version, sides, forfeit,
                        [refused[match.pk]["match"]] if "match" in refused.get(match.pk, {}) else [], locked,
                        match.away_id is not None and match.forfeit == MatchForfeit.NONE and stored_empty))
    return out


def place_cursor(found: list[Card], after: int | None) -> None:
    """The cursor on the first box of the first match after `after` still waiting for a line-up (the first
    such match from the top when none follows); a refused match takes it first."""
    if not found or found[0].locked:
        return
    refused = next((c for c in found if c.has_problems), None)
    target = refused or next((c for c in found if c.waiting and (after is None or c.key > after)), None) or next(
        (c for c in found if c.waiting), None)
    if target is not None and target.sides:
        for side in target.sides:
            box = next((b for b in side.boxes if b.error), None)
            if box is not None:
                box.autofocus = True
                return
        target.sides[0].boxes[0].autofocus = True


class TeamRoundsMixin:
    """Adds the line-up screen of a team round to TournamentAdmin."""

    admin_site: Any
    model: type[Tournament]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [path("<int:pk>/team-round/<int:number>/", view(self.team_round_view),
                     name="tournaments_tournament_team_round"),
                path("<int:pk>/team-round/", view(self.team_round_next_view),
                     name="tournaments_tournament_team_round_next"),
                *super().get_urls()]  # type: ignore[misc]

    def team_round_next_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """The line-ups of the first round not yet published (the last round once all are)."""
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]
        competition = competition_of(tournament)
        numbers = sorted(set(competition.matches.values_list("round_number", flat=True))) or [1]
        published = set(tournament.rounds.exclude(status=RoundStatus.DRAFT).values_list("number", flat=True))
        number = next((n for n in numbers if n not in published), numbers[-1])
        return HttpResponseRedirect(reverse("admin:tournaments_tournament_team_round", args=[tournament.pk, number]))

    def team_round_view(self, request: HttpRequest, pk: int, number: int) -> HttpResponse:
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]  # ControlRoomMixin's scoping
        competition = competition_of(tournament)
        last = max(competition.matches.values_list("round_number", flat=True), default=0)
        if not 1 <= number <= max(last, 1):
            raise Http404("No such round.")
        here = reverse("admin:tournaments_tournament_team_round", args=[tournament.pk, number])
        refused: dict[int, dict[str, str]] = {}
        box_errors: dict[int, dict[str, dict[int, str]]] = {}
        posted = request.POST.copy() if request.method == "POST" else None  # a stale save puts the new version in
        status = 200
        if posted is not None:
            action = posted.get("action", "")
            if action in ("publish", "unpublish"):
                return self._round_step(request, competition, number, action, here)
            if action in ("issue", "revoke"):
                self._captain_step(request, competition, action)
                return HttpResponseRedirect(here + "#dm-captains")
            match = competition.matches.filter(pk=number_or_none(posted.get("match")), round_number=number).first()
            if match is None:
                messages.error(request, _("This match is not one of round %(n)s (the page is out of date): nothing "
                                          "was saved.") % {"n": number})
                return HttpResponseRedirect(here)
            saved = self._save_match(request, competition, match, posted, refused, box_errors)
            if saved:
                # No fragment: a browser skips autofocus when the address names an element.
                return HttpResponseRedirect(f"{here}?after={match.table}")
            status = 400
        rnd = tournament.rounds.filter(number=number).first()
        found = cards(competition, number, posted, refused, box_errors)
        place_cursor(found, number_or_none(request.GET.get("after")))
        competition.refresh_from_db()
        response = render(request, "admin/tournaments/tournament/team_round.html", {
            **self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
            "title": _("Round %(n)s line-ups: %(competition)s") % {"n": number, "competition": competition},
            "competition": competition, "number": number, "cards": found, "round": rnd,
            "published": rnd is not None and rnd.status != RoundStatus.DRAFT,
            "rounds": list(range(1, last + 1)), "forfeits": MatchForfeit.choices,
            "control": reverse("admin:tournaments_tournament_control", args=[tournament.pk]),
            "results_url": reverse("admin:tournaments_round_change", args=[rnd.pk]) if rnd is not None else "",
            "cup_url": reverse("admin:tournaments_tournament_team_cup", args=[tournament.pk, number])
            if competition.kind == "cup" and last else "",
            "waiting": sum(1 for c in found if c.waiting), "captains": captain_links(request, competition),
            "cursor_in_a_match": any(b.autofocus for c in found for side in c.sides for b in side.boxes),
            "is_nav_sidebar_enabled": False,
        }, status=status)
        return response

    def _save_match(self, request: HttpRequest, competition: TeamCompetition, match: Match, posted: Any,
                    refused: dict[int, dict[str, str]], box_errors: dict[int, dict[str, dict[int, str]]]) -> bool:
        entries: dict[str, list[Any]] = {}
        for side, team in ((lineups.HOME, match.home), (lineups.AWAY, match.away)):
            if team is None:
                continue
            read = lineup_input.read(lineup_input.typed_from(posted, side, competition.boards,
                                                             prefix=f"m{match.pk}-"),
                                     lineup_input.roster_lines(team))
            entries[side] = read.entries
            if read.errors:
                box_errors.setdefault(match.pk, {})[side] = read.errors
                refused.setdefault(match.pk, {})  # said beside each box, not again above them
        if match.pk in refused:
            messages.error(request, _("%(match)s: nothing was saved; the boxes marked below cannot be read.")
                           % {"match": match})
            return False
        forfeit = posted.get(f"m{match.pk}-forfeit", MatchForfeit.NONE)
        try:
            ran = run_service(request, lambda: match_entry.match_save(
                match=match, entries=entries, forfeit=forfeit,
                expected_version=number_or_none(posted.get(f"m{match.pk}-version")), user=request.user),
                passes=(match_entry.LineupRefused, StaleEditError))
        except match_entry.LineupRefused as exc:
            refused[match.pk] = exc.by_side
            messages.error(request, _("%(match)s: nothing was saved; its problems are named below.") % {"match": match})
            return False
        except StaleEditError as exc:
            refused[match.pk] = {"match": str(exc) + " " + _("What you typed is kept here: save again to record it "
                                                             "over theirs.")}
            # The arbiter has now seen that it changed: the next save is checked against the new version.
            posted[f"m{match.pk}-version"] = str(Match.objects.get(pk=match.pk).version)
            messages.error(request, str(exc))
            return False
        if ran:
            messages.success(request, _("%(match)s: saved.") % {"match": match})
        return bool(ran)

    def _round_step(self, request: HttpRequest, competition: TeamCompetition, number: int, action: str,
                    here: str) -> HttpResponse:
        version = number_or_none(request.POST.get("version"))
        if action == "publish":
            def publish() -> Any:
                rnd = lineups.round_publish(competition=competition, number=number, expected_version=version,
                                            user=request.user)
                board_codes.codes_issue(tournament=competition.tournament)  # the players' codes, as for any round
                return rnd

            ran = run_service(request, publish, _("Round %(n)s is published: type its results here.") % {"n": number},
                              refused=_("Nothing was done: %(why)s"))
            if ran and ran.value is not None:
                return HttpResponseRedirect(reverse("admin:tournaments_round_change", args=[ran.value.pk]))
            return HttpResponseRedirect(here)

        def unpublish() -> Any:
            setup.locked_competition(competition, version)  # the page's version: a stale page changes nothing
            return lineups.round_unpublish(competition=competition, number=number, user=request.user)

        run_service(request, unpublish, _("Round %(n)s is a draft again: its line-ups can be changed.") % {"n": number},
                    refused=_("Nothing was done: %(why)s"))
        return HttpResponseRedirect(here)

    def _captain_step(self, request: HttpRequest, competition: TeamCompetition, action: str) -> None:
        team = competition.teams.filter(pk=number_or_none(request.POST.get("team"))).first()
        if team is None:
            messages.error(request, _("This team is not one of %(competition)s: nothing was done.")
                           % {"competition": competition})
            return
        version = number_or_none(request.POST.get("version"))
        if action == "issue":
            run_service(request, lambda: captains.token_issue(team=team, user=request.user, expected_version=version),
                        _("%(team)s: a new captain's link is issued; the old one no longer opens.") % {"team": team})
        else:
            run_service(request, lambda: captains.token_revoke(team=team, user=request.user, expected_version=version),
                        _("%(team)s: the captain's link is revoked.") % {"team": team})


def captain_links(request: HttpRequest, competition: TeamCompetition) -> list[tuple[Team, str]]:
    """Each team with its captain's line-up address ("" while none is issued), to give him."""
    return [(team, request.build_absolute_uri(reverse("tournaments:team_lineup", args=[
        competition.tournament.slug, team.captain_token])) if team.captain_token else "")
        for team in competition.teams.order_by("seed")]
