""""Enter players": one field, a player a line, at keyboard speed.

Typing an FMJD id or the first letters of a name offers the register's players and the rows of the
tournament's rating lists (tournaments.players.search); Enter adds the highlighted one (the first by
default) through tournaments.players.enter, and the field is empty again with the cursor in it. A person found
nowhere is typed in the same row (surname, given name, federation, rating, title) and made a register record.

The script (static/damier/enter-players.js) asks the search endpoint as the arbiter types and posts each add
asking for JSON; without it, the field is a form: its answer lists the candidates as buttons, each a POST,
and every answer is a page. The rounds' state the page was read at travels with each add (enter.entry_version).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments.errors import DomainError, StaleEditError
from tournaments.models import Entry, Tournament
from tournaments.models.register import Title
from tournaments.players import enter, numbering, roster
from tournaments.players.search import Candidate, candidates, list_label, tournament_lists

# "<", ">" and "&" as JSON escapes: a name is data, never markup, wherever the answer ends up.
_JSON_ESCAPES = {ord("<"): "\\u003C", ord(">"): "\\u003E", ord("&"): "\\u0026"}


class NewPlayerForm(forms.Form):
    """A person in no list: what the row asks for. The model's own checks (federation, title, rating) run
    when he is saved, and their words come back to the field they name."""

    surname = forms.CharField(label=gettext_lazy("Surname"), max_length=100)
    given_name = forms.CharField(label=gettext_lazy("Given name"), max_length=100, required=False)
    federation = forms.CharField(label=gettext_lazy("Federation"), max_length=3, required=False,
                                 help_text=gettext_lazy("three capital letters, e.g. FRA"))
    rating = forms.IntegerField(label=gettext_lazy("Rating"), min_value=0, max_value=3000, required=False)
    title = forms.ChoiceField(label=gettext_lazy("Title"), required=False,
                              choices=[("", "–")] + [(t.value, t.value) for t in Title])

    def clean_federation(self) -> str:
        return str(self.cleaned_data["federation"]).strip().upper()


def split_name(text: str) -> dict[str, str]:
    """The typed text as a name: "Surname, Given" at the comma; without one, the first word is the surname
    (the search is typed surname first)."""
    text = " ".join(text.split())
    if "," in text:
        surname, given = (part.strip() for part in text.split(",", 1))
    else:
        surname, _sep, given = text.partition(" ")
    return {"surname": surname, "given_name": given}


def entry_line(entry: Entry) -> dict[str, Any]:
    return {"number": entry.pairing_number, "name": entry.player.full_name, "title": entry.title,
            "rating": entry.rating, "federation": entry.player.federation}


def candidate_data(c: Candidate) -> dict[str, Any]:
    return {"key": c.key, "name": c.name, "native": c.native_name, "fmjd_id": c.fmjd_id,
            "federation": c.federation, "title": c.title, "rating": c.rating, "club": c.club,
            "entered": c.entered, "source": c.source or _("register")}


def json_answer(data: dict[str, Any], status: int = 200) -> HttpResponse:
    body = json.dumps(data, ensure_ascii=False).translate(_JSON_ESCAPES)
    return HttpResponse(body, status=status, content_type="application/json; charset=utf-8")


def wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


class EnterPlayersMixin:
    """Adds the "Enter players" screen and its search endpoint to TournamentAdmin."""

    admin_site: Any
    model: type[Tournament]

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("<int:pk>/enter-players/", view(self.enter_players_view),
                 name="tournaments_tournament_enter_players"),
            path("<int:pk>/enter-players/search/", view(self.enter_players_search),
                 name="tournaments_tournament_enter_search"),
            *super().get_urls(),  # type: ignore[misc]
        ]

    def enter_players_search(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]  # ControlRoomMixin's scoping
        query = request.GET.get("q", "")[:100]
        found = candidates(query, tournament=tournament)
        return json_answer({"query": query, "candidates": [candidate_data(c) for c in found]})

    def enter_players_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]
        if tournament.is_team:
            # A team competition's players are entered on its teams' rosters, each in his team.
            messages.info(request, _("%(tournament)s is a team competition: its players are added to the rosters "
                                     "of its teams.") % {"tournament": tournament})
            return HttpResponseRedirect(reverse("admin:tournaments_teamcompetition_teams",
                                                args=[tournament.team_competition.pk]))
        if request.method == "POST":
            return self._add(request, tournament)
        query = request.GET.get("q", "")[:100]
        new_form = NewPlayerForm(initial=split_name(query)) if "new" in request.GET else None
        return self._page(request, tournament, query=query, new_form=new_form)

    def _add(self, request: HttpRequest, tournament: Tournament) -> HttpResponse:
        posted = request.POST
        read_at = posted.get("version", "")
        query = posted.get("q", "")[:100]
        new_form = NewPlayerForm(posted) if posted.get("action") == "new" else None
        late = numbering.is_late(tournament)
        error = ""
        try:
            if new_form is not None:
                if not new_form.is_valid():
                    raise ValidationError(_("Correct the fields marked below."))
                entry = enter.entry_add_new_player(tournament=tournament, values=new_form.cleaned_data,
                                                   read_at=read_at, user=request.user)
            else:
                entry = enter.entry_add_found(tournament=tournament, key=posted.get("key", ""), read_at=read_at,
                                              user=request.user)
        except ValidationError as exc:
            if new_form is not None and hasattr(exc, "error_dict"):
                for name, errors in exc.error_dict.items():
                    new_form.add_error(name if name in new_form.fields else None, errors)
            error = str(exc.messages[0]) if not hasattr(exc, "error_dict") else _("Correct the fields marked below.")
        except StaleEditError as exc:
            error = str(exc)
        except DomainError as exc:
            error = str(exc)
        else:
            said = _("Added: %(player)s, no. %(number)s.") % {"player": entry.player.full_name,
                                                               "number": entry.pairing_number}
            if late:
                said = roster.late_entry_message(entry)
            if wants_json(request):
                return json_answer({"ok": True, "said": said, "version": enter.entry_version(tournament),
                                    **self._entries(tournament)})
            messages.success(request, said)
            return HttpResponseRedirect(reverse("admin:tournaments_tournament_enter_players", args=[tournament.pk]))
        version = enter.entry_version(tournament)
        if wants_json(request):
            fields = {name: [str(m) for m in errs] for name, errs in new_form.errors.items()} if new_form else {}
            return json_answer({"ok": False, "error": error, "fields": fields, "version": version}, status=400)
        return self._page(request, tournament, query=query, new_form=new_form, error=error, version=version,
                          status=400)

    def _entries(self, tournament: Tournament) -> dict[str, Any]:
        entries = list(tournament.entries.select_related("player").order_by("-pk"))
        return {"count": len(entries), "entries": [entry_line(e) for e in entries],
                "heading": ngettext("%(n)s player entered", "%(n)s players entered", len(entries))
                % {"n": len(entries)}}

    def _page(self, request: HttpRequest, tournament: Tournament, *, query: str = "", new_form: Any = None,
              error: str = "", version: str | None = None, status: int = 200) -> HttpResponse:
        found = candidates(query, tournament=tournament) if query.strip() and new_form is None else []
        entries = self._entries(tournament)
        closed = tournament.is_round_robin and tournament.rounds.exists()
        context = {
            **self.admin_site.each_context(request), "opts": self.model._meta, "tournament": tournament,
            "title": _("Enter players: %(tournament)s") % {"tournament": tournament},
            "control": reverse("admin:tournaments_tournament_control", args=[tournament.pk]),
            "version": version or enter.entry_version(tournament), "query": query, "error": error,
            "candidates": [candidate_data(c) for c in found], "searched": bool(query.strip()),
            "new_form": new_form or NewPlayerForm(), "new_shown": new_form is not None,
            "closed": roster.round_robin_closed() % {"tournament": tournament} if closed else "",
            "late": numbering.is_late(tournament), "lists": self._lists_words(tournament),
            **entries,
            "search_url": reverse("admin:tournaments_tournament_enter_search", args=[tournament.pk]),
            "words": {"entered": _("already entered"), "new": _("New player: %(text)s"),
                      "already": _("%(player)s is already entered: nothing to add."),
                      "none": _("Nobody in the register or the list."), "register": _("register"),
                      "failed": _("The server did not answer: nothing was entered. Try again."),
                      "found": _("%(n)s found; ↑ ↓ to choose, Enter to add.")},
        }
        return render(request, "admin/tournaments/tournament/enter_players.html", context, status=status)

    def _lists_words(self, tournament: Tournament) -> str:
        lists = tournament_lists(tournament)
        if not lists:
            return str(_("No rating list is imported: the search finds the register's players only."))
        return _("The search reads the register and the list %(lists)s.") % {
            "lists": ", ".join(list_label(lst) for lst in lists)}

