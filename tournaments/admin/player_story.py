"""One screen for a player's whole story in a tournament: entry, rounds, byes and absences, withdrawal,
results, corrections and history (tournaments.players.story reads it)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.conformance.words import describe
from tournaments.players.story import story

# The fields a change names, in the reader's language.
FIELD_LABELS = {
    "pairing_number": gettext_lazy("pairing number"), "player_id": gettext_lazy("player"),
    "status": gettext_lazy("status"), "withdrawn_after_round": gettext_lazy("withdrawn after round"),
    "expelled_after_round": gettext_lazy("expelled after round"),
    "excused_rounds": gettext_lazy("rounds of the requested byes"),
    "bye_points": gettext_lazy("points of the requested byes"), "rating": gettext_lazy("FMJD rating"),
    "national_rating": gettext_lazy("national rating"), "result": gettext_lazy("result"),
    "white_id": gettext_lazy("White"), "black_id": gettext_lazy("Black"),
}


class PlayerStoryMixin:
    """The entry's admin gets /<pk>/story/ (URL name tournaments_entry_story)."""

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view  # type: ignore[attr-defined]
        return [path("<int:pk>/story/", view(self.story_view), name="tournaments_entry_story"),
                *super().get_urls()]  # type: ignore[misc]

    def story_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        entry = get_object_or_404(self.get_queryset(request).select_related("tournament", "player"),  # type: ignore[attr-defined]
                                  pk=pk)
        if not self.has_view_permission(request, entry):  # type: ignore[attr-defined]
            raise PermissionDenied
        told = story(entry)
        return render(request, "admin/tournaments/entry/story.html", {
            **self.admin_site.each_context(request),  # type: ignore[attr-defined]
            "opts": self.model._meta,  # type: ignore[attr-defined]
            "title": _("%(player)s in %(tournament)s") % {"player": entry, "tournament": entry.tournament},
            "entry": entry, "story": told, "tournament": entry.tournament,
            "changes": [(c, describe(c.event) if c.event is not None else "",
                         [(FIELD_LABELS.get(name, name), old, new) for name, old, new in c.fields])
                        for c in told.changes],
        })
