"""The control room's report to the federation: whether it can be made yet, and the rating-change preview
page (a table per player under the system the arbiter chooses: FMJD, KNDB or FFJD)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments.errors import DomainError
from tournaments.federation import rating_systems, rows, words
from tournaments.federation.preview import preview_rows
from tournaments.models import Tournament
from tournaments.ranking import final_standings


def control_room_lines(tournament: Tournament) -> dict[str, Any]:
    """The control room's links to the report, once the tournament is final; before, why not yet."""
    state = final_standings.final_state(tournament)
    if not state.final:
        return {"report_ready": False,
                "report_waits": _("The report to the federation is made once the last round is completed.")}
    return {"report_ready": True,
            "report_file_url": reverse("tournaments:report_file", args=[tournament.slug]),
            "report_pdf_url": reverse("tournaments:report_pdf", args=[tournament.slug]),
            "rating_preview_url": reverse("admin:tournaments_tournament_rating_preview", args=[tournament.pk])}


def preview_context(tournament: Tournament, system_code: str | None) -> dict[str, Any]:
    system = rating_systems.SYSTEMS.get(system_code or "", rating_systems.FMJD)
    try:
        report = rows.read_report(tournament)
    except DomainError as exc:
        return {"refused": str(exc), "systems": list(rating_systems.SYSTEMS.values()), "system": system}
    lines = []
    for row, shown in preview_rows(report, system):
        why = "" if shown.status == rating_systems.COMPLETE else words.missing_text(shown.reasons)
        lines.append({"row": row, "preview": shown, "own": row.national_rating
                      if system.rating == rating_systems.NATIONAL_RATING else row.rating, "why": why})
    # Every row of a system whose text was not found says the same: said once above the table.
    shared = words.missing_text(system.missing) if not system.complete else ""
    return {"systems": list(rating_systems.SYSTEMS.values()), "system": system, "lines": lines,
            "shared_reason": shared, "report_file_url": reverse("tournaments:report_file", args=[tournament.slug]),
            "report_pdf_url": reverse("tournaments:report_pdf", args=[tournament.slug])}
