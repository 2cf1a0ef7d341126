"""The tournament page's form as a browser posts it, for tests that enter a player on it."""

from __future__ import annotations

from typing import Any

from django.urls import reverse


def late_entry_post(client: Any, tournament: Any, player: Any) -> Any:
    """Post the tournament page with its entries as they stand and one more row for `player`, number left
    empty (his rating gives it); the page after the redirect."""
    url = reverse("admin:tournaments_tournament_change", args=[tournament.pk])
    form = client.get(url).context["adminform"].form
    data = {k: v for k, v in form.initial.items() if v is not None and not isinstance(v, list | dict)}
    data.update({"tiebreaks_0": "standard", "deputy_arbiters": [], "start_date": "2026-01-01",
                 "chief_arbiter": tournament.chief_arbiter_id})
    for inline in ("forbidden_pairs", "conformance_events", "schedule"):
        data.update({f"{inline}-TOTAL_FORMS": 0, f"{inline}-INITIAL_FORMS": 0})
    entries = list(tournament.entries.order_by("pairing_number"))
    data.update({"entries-TOTAL_FORMS": len(entries) + 1, "entries-INITIAL_FORMS": len(entries)})
    for i, e in enumerate(entries):
        data.update({f"entries-{i}-id": e.pk, f"entries-{i}-tournament": tournament.pk})
    data.update({f"entries-{len(entries)}-player": player.pk, f"entries-{len(entries)}-pairing_number": "",
                 f"entries-{len(entries)}-tournament": tournament.pk})
    return client.post(url, data, follow=True)
