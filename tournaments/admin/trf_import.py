"""Admin: a Swiss tournament from a TRF file, in two steps (VCL4THP Q47-Q56).

First the file is reviewed and nothing is written: its TRF version, every adjustment and default, and
every imported round replayed against the pairing rules. Then "Import" creates the tournament; a round
that breaks the rules, or is not the engine's pairing, must be ticked (a level-3 confirmation) and is
recorded as a conformance event.
The file's text rides in the form between the steps, so nothing the arbiter chose is lost.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin import warnings
from tournaments.conformance import events
from tournaments.errors import DomainError
from tournaments.exchange.trf_import import ReviewedFile, TrfImportError, decode_trf, import_reviewed, review_trf
from tournaments.exchange.trf_review_text import adjustment_text, round_text, summary_text, version_text

MAX_BYTES = 20 * 1024 * 1024


class TrfImportForm(forms.Form):
    file = forms.FileField(label=_("TRF file"), required=False,
                           help_text=_("TRF-2006, TRF-2016 or TRF-2026, with or without the XX and BB lines of "
                                       "JaVaFo and bbpPairings."))
    name = forms.CharField(label=_("Name"), required=False, max_length=200,
                           help_text=_("Default: the file's 012 line."))
    slug = forms.SlugField(label=_("Slug"), required=False, max_length=100,
                           help_text=_("Default: made from the name."))
    rounds = forms.IntegerField(label=_("Number of rounds"), required=False, min_value=1, max_value=99,
                                help_text=_("Needed when the file has no 142 or XXR line; it replaces theirs "
                                            "otherwise."))


def import_trf_view(model_admin: Any, request: HttpRequest) -> HttpResponse:
    if not model_admin.has_add_permission(request):
        raise PermissionDenied
    form = TrfImportForm(request.POST or None, request.FILES or None)
    text = request.POST.get("text", "") if request.method == "POST" else ""
    reviewed: ReviewedFile | None = None
    ticked = set(request.POST.getlist("confirm_round"))
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        if upload is not None:
            raw = upload.read(MAX_BYTES + 1)
            if len(raw) > MAX_BYTES:
                form.add_error("file", gettext("The file is larger than 20 MB: not a TRF file."))
            try:
                text = decode_trf(raw)
            except TrfImportError as exc:
                form.add_error("file", gettext("Nothing imported: %(error)s") % {"error": exc})
                text = ""
            ticked = set()  # a new file: nothing of it is confirmed yet
        if not text.strip() and not form.errors:
            form.add_error("file", gettext("Choose a TRF file."))
        if not form.errors:
            try:
                reviewed = review_trf(text, rounds=form.cleaned_data["rounds"])
            except TrfImportError as exc:
                form.add_error("file", gettext("Nothing imported: %(error)s") % {"error": exc})
        if reviewed is not None and "import" in request.POST and upload is None:
            needed = {str(r.round) for r in reviewed.review.rounds_to_confirm}
            confirmed = [str(w.code) for w in reviewed.review.warnings()] if needed <= ticked else []
            try:
                result = import_reviewed(reviewed, slug=form.cleaned_data["slug"] or None,
                                         name=form.cleaned_data["name"] or None, confirmed=confirmed,
                                         user=request.user)
            except events.NeedsConfirmation:
                form.add_error(None, gettext("Tick each round you accept although it breaks the pairing rules or "
                                             "is not Damier's pairing, or cancel the import."))
            except DomainError as exc:
                form.add_error(None, gettext("Nothing imported: %(error)s") % {"error": exc})
            else:
                t = result.tournament
                messages.success(request, gettext(
                    "%(name)s imported: %(players)s players, %(rounds)s round(s).")
                    % {"name": t.name, "players": result.players_created + result.players_matched,
                       "rounds": result.rounds})
                return redirect(reverse("admin:tournaments_tournament_change", args=[t.pk]))
    context = {
        **model_admin.admin_site.each_context(request), "opts": model_admin.model._meta, "form": form,
        "title": gettext("Import a tournament from a TRF file"), "text": text if reviewed else "",
        "review": _review_context(reviewed, ticked) if reviewed else None,
    }
    return render(request, "admin/tournaments/tournament/import_trf.html", context)


def _review_context(reviewed: ReviewedFile, ticked: set[str]) -> dict[str, Any]:
    review = reviewed.review
    return {
        "version": version_text(review),
        "adjustments": [adjustment_text(a) for a in review.adjustments],
        "summary": summary_text(review),
        "rounds": [{"number": r.round, "broken": r.broken, "lines": round_text(r)} for r in review.rounds_to_confirm],
        # One box per round (its number is what the box sends): the one warning screen of the admin.
        "warnings": warnings.block(None, [r.warning() for r in review.rounds_to_confirm], field="confirm_round",
                                   keys=[str(r.round) for r in review.rounds_to_confirm], ticked=ticked,
                                   block_id="trf-confirm"),
    }
