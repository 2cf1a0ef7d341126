"""One team's page: its details, its captain's code and its roster, filled from the register by the entry
screen's one field (tournaments.players.search; static/damier/enter-players.js): type an FMJD id or a name,
Enter adds the player at the end of the roster and the cursor stays in the field; a person found nowhere is
typed in the row and made a register record. The roster's table sets each member's licence number and
reserve mark, moves him up or down and removes him (refused once he played), in one form whose save keeps
what was typed. Each post carries the team's version as the page read it."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.template.loader import render_to_string
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from rules.numbers import number_or_none
from tournaments.admin.base import run_service
from tournaments.admin.enter_players import NewPlayerForm, candidate_data, json_answer, split_name, wants_json
from tournaments.competitions import changes
from tournaments.errors import DomainError
from tournaments.models import MatchBoard, RoundStatus, Team, TeamCompetition
from tournaments.players import enter
from tournaments.players.search import candidates


def member_locks(team: Team) -> dict[int, str]:
    """Entry id -> why the member stays on the roster ("played" or "lined up"), in one query."""
    published = set(team.competition.tournament.rounds.exclude(status=RoundStatus.DRAFT)
                    .values_list("number", flat=True))
    locks: dict[int, str] = {}
    for b in MatchBoard.objects.filter(Q(match__home=team) | Q(match__away=team)).values(
            "match__home_id", "home_entry_id", "away_entry_id", "match__round_number", "game_id"):
        entry_id = b["home_entry_id"] if b["match__home_id"] == team.pk else b["away_entry_id"]
        if entry_id is None:
            continue
        played = b["match__round_number"] in published or b["game_id"] is not None
        if played:
            locks[entry_id] = _("played")
        else:
            locks.setdefault(entry_id, _("lined up"))
    return locks


class RosterPagesMixin:
    admin_site: Any
    model: type[TeamCompetition]
    _team: Any
    _competition: Any

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        team = "<int:pk>/team/<int:team_id>/"
        return [
            path(team, view(self.team_view), name="tournaments_teamcompetition_team"),
            path(team + "search/", view(self.team_search_view), name="tournaments_teamcompetition_team_search"),
            path(team + "roster/", view(self.roster_view), name="tournaments_teamcompetition_roster"),
            path(team + "edit/", view(self.team_edit_view),  # type: ignore[attr-defined]
                 name="tournaments_teamcompetition_team_edit"),
            path(team + "code/", view(self.team_code_view),  # type: ignore[attr-defined]
                 name="tournaments_teamcompetition_team_code"),
            path(team + "remove/", view(self.team_remove_view),  # type: ignore[attr-defined]
                 name="tournaments_teamcompetition_team_remove"),
            *super().get_urls(),  # type: ignore[misc]
        ]

    def team_search_view(self, request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
        competition, team = self._team(request, pk, team_id)
        query = request.GET.get("q", "")[:100]
        return json_answer({"query": query, "candidates": self._candidates(competition, team, query)})

    def _candidates(self, competition: TeamCompetition, team: Team, query: str) -> list[dict[str, Any]]:
        listed = set(team.roster.values_list("entry__player_id", flat=True))
        out = []
        for c in candidates(query, tournament=competition.tournament):
            data = candidate_data(c)
            data["entered"] = c.player_id in listed  # "already entered" here means on this team's roster
            out.append(data)
        return out

    def team_view(self, request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
        competition, team = self._team(request, pk, team_id)
        if request.method == "POST":
            return self._add_player(request, competition, team)
        query = request.GET.get("q", "")[:100]
        new_form = NewPlayerForm(initial=split_name(query)) if "new" in request.GET else None
        return self._team_page(request, competition, team, query=query, new_form=new_form)

    def _add_player(self, request: HttpRequest, competition: TeamCompetition, team: Team) -> HttpResponse:
        posted = request.POST
        version = number_or_none(posted.get("version"))
        query = posted.get("q", "")[:100]
        new_form = NewPlayerForm(posted) if posted.get("action") == "new" else None
        error = ""
        try:
            with transaction.atomic():
                if new_form is not None:
                    if not new_form.is_valid():
                        raise ValidationError(_("Correct the fields marked below."))
                    player = enter.new_player(new_form.cleaned_data)
                else:
                    player = enter.player_of_key(competition.tournament, posted.get("key", ""))
                member = changes.roster_member_add(team=team, expected_version=-1 if version is None else version,
                                                   player=player, user=request.user)
        except ValidationError as exc:
            if new_form is not None and hasattr(exc, "error_dict"):
                for name, errors in exc.error_dict.items():
                    new_form.add_error(name if name in new_form.fields else None, errors)
            error = str(exc.messages[0]) if not hasattr(exc, "error_dict") else _("Correct the fields marked below.")
        except DomainError as exc:
            error = str(exc)
        else:
            said = (_("Added: %(player)s, place %(place)s (reserve).") if member.reserve
                    else _("Added: %(player)s, place %(place)s.")) % {"player": player, "place": member.position}
            team.refresh_from_db()
            if wants_json(request):
                return json_answer({"ok": True, "said": said, "version": team.version,
                                    **self._rows(request, competition, team)})
            messages.success(request, said)
            return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_team",
                                                args=[competition.pk, team.pk]))
        team.refresh_from_db()
        if wants_json(request):
            fields = {name: [str(m) for m in errs] for name, errs in new_form.errors.items()} if new_form else {}
            return json_answer({"ok": False, "error": error, "fields": fields, "version": team.version}, status=400)
        return self._team_page(request, competition, team, query=query, new_form=new_form, error=error, status=400)

    def roster_view(self, request: HttpRequest, pk: int, team_id: int) -> HttpResponse:
        """The roster's table: licences and reserve marks saved, then the move or the removal asked."""
        competition, team = self._team(request, pk, team_id)
        page = reverse("admin:tournaments_teamcompetition_team", args=[pk, team_id])
        if request.method != "POST":
            return HttpResponseRedirect(page)
        posted = request.POST
        ids = [n for n in (number_or_none(v) for v in posted.getlist("member")) if n is not None]
        rows = {n: (posted.get(f"licence-{n}", "")[:100], f"reserve-{n}" in posted) for n in ids}
        version = number_or_none(posted.get("version"))
        move, remove = posted.get("move", ""), number_or_none(posted.get("remove"))
        direction, _sep, moved = move.partition(":")
        moved_id = number_or_none(moved)

        def run() -> str:
            changed = changes.roster_update(team=team, expected_version=-1 if version is None else version,
                                            rows=rows, user=request.user)
            # The version was checked by the update, under the competition's lock held to the end.
            if remove is not None:
                name = changes.roster_remove(team=team, expected_version=None, member_id=remove, user=request.user)
                return _("%(player)s is off the roster.") % {"player": name}
            if moved_id is not None and direction in ("up", "down"):
                member = changes.roster_move(team=team, expected_version=None, member_id=moved_id,
                                             up=direction == "up", user=request.user)
                return _("%(player)s is now place %(place)s.") % {"player": member.entry.player,
                                                                  "place": member.position}
            return ngettext("%(n)s line of the roster is saved.", "%(n)s lines of the roster are saved.",
                            changed) % {"n": changed}

        ran = run_service(request, run, lambda said: said, refused=_("Nothing saved: %(why)s"))
        if ran:
            return HttpResponseRedirect(page + "#roster")
        team.refresh_from_db()
        return self._team_page(request, competition, team, typed=rows, status=400)

    def _rows(self, request: HttpRequest, competition: TeamCompetition, team: Team,
              typed: dict[int, tuple[str, bool]] | None = None) -> dict[str, Any]:
        members = list(team.roster.select_related("entry__player").order_by("position"))
        locks = member_locks(team)
        lines = []
        for m in members:
            licence, reserve = (typed or {}).get(m.pk, (m.licence, m.reserve))
            lines.append({"member": m, "player": m.entry.player, "licence": licence, "reserve": reserve,
                          "lock": locks.get(m.entry_id, ""), "first": m is members[0], "last": m is members[-1]})
        regulars = sum(1 for m in members if not m.reserve)
        heading = ngettext("%(n)s player on the roster", "%(n)s players on the roster", len(members)) % {
            "n": len(members)}
        if members:
            heading += " " + _("(%(regulars)s regular, %(reserves)s reserve)") % {
                "regulars": regulars, "reserves": len(members) - regulars}
        html = render_to_string("admin/tournaments/teamcompetition/roster_rows.html",
                                {"lines": lines, "boards": competition.boards}, request=request)
        return {"rows_html": html, "heading": heading, "count": len(members)}

    def _team_page(self, request: HttpRequest, competition: TeamCompetition, team: Team, *, query: str = "",
                   new_form: Any = None, error: str = "", team_form: Any = None,
                   typed: dict[int, tuple[str, bool]] | None = None, status: int = 200) -> HttpResponse:
        from tournaments.admin.team_forms import TeamForm

        found = self._candidates(competition, team, query) if query.strip() and new_form is None else []
        team_form = team_form or TeamForm(instance=team)
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "competition": competition,
            "tournament": competition.tournament, "team": team,
            "title": _("%(team)s: roster") % {"team": team},
            "teams_url": reverse("admin:tournaments_teamcompetition_teams", args=[competition.pk]),
            # The captain opens his page by this address; the code alone opens nothing.
            "captain_link": request.build_absolute_uri(reverse("tournaments:team_lineup", args=[
                competition.tournament.slug, team.captain_token])) if team.captain_token else "",
            # A refused roster save shows what was typed over the roster as it now stands, at today's version:
            # saving it again is the arbiter's choice, made looking at the page.
            "version": team.version,
            "query": query, "error": error,
            "candidates": found, "searched": bool(query.strip()),
            "new_form": new_form or NewPlayerForm(), "new_shown": new_form is not None,
            "team_form": team_form, "media": team_form.media,
            "removable": not competition.matches.filter(Q(home=team) | Q(away=team)).exists(),
            **self._rows(request, competition, team, typed),
            "search_url": reverse("admin:tournaments_teamcompetition_team_search", args=[competition.pk, team.pk]),
            "words": {"entered": _("already on the roster"), "new": _("New player: %(text)s"),
                      "already": _("%(player)s is already on the roster: nothing to add."),
                      "none": _("Nobody in the register or the list."), "register": _("register"),
                      "failed": _("The server did not answer: nothing was added. Try again."),
                      "found": _("%(n)s found; ↑ ↓ to choose, Enter to add.")},
        }
        return render(request, "admin/tournaments/teamcompetition/team.html", context, status=status)
