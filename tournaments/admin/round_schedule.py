"""The round schedule on the arbiter's pages: filled in one step from the control room, corrected row by
row on the tournament page (tournaments.rounds.schedule)."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import selectors
from tournaments.admin.base import ScopedInline, run_service
from tournaments.models import ScheduledRound, Tournament
from tournaments.rounds import schedule
from tournaments.words import day_text


class ScheduleInline(ScopedInline):
    model = ScheduledRound
    extra = 0
    fields = ("number", "date", "start_time")
    verbose_name_plural = gettext_lazy("round schedule (date and start time of each round)")


class ScheduleFillForm(forms.Form):
    first_date = forms.DateField(label=gettext_lazy("Round 1 on"), widget=forms.DateInput(attrs={"type": "date"}))
    start_times = forms.CharField(
        label=gettext_lazy("Start times of a playing day"), max_length=40, initial="14:00",
        help_text=gettext_lazy("One time for one round a day (14:00), two for two (10:00, 15:00)."))
    rest_days = forms.IntegerField(label=gettext_lazy("Days off between playing days"), min_value=0, max_value=30,
                                   initial=0)

    def clean_start_times(self) -> list[datetime.time]:
        times = []
        for item in self.cleaned_data["start_times"].replace(";", ",").split(","):
            text = item.strip().replace("h", ":").replace(".", ":")
            try:
                times.append(datetime.datetime.strptime(text, "%H:%M").time())
            except ValueError:
                raise forms.ValidationError(_("“%(text)s” is not a time: write it as 14:00.")
                                            % {"text": item.strip()}) from None
        return times


def schedule_context(tournament: Tournament, form: ScheduleFillForm | None = None) -> dict[str, Any]:
    """What the control room shows of the schedule: its rows, how many rounds are not planned, the form."""
    rows = list(tournament.schedule.all())
    missing = max(0, selectors.rounds_total(tournament) - len(rows))
    start = tournament.start_date or datetime.date.today()
    return {"schedule_rows": rows, "schedule_missing": missing,
            "schedule_form": form or ScheduleFillForm(initial={"first_date": start})}


class ScheduleMixin:
    """The tournament's admin gets /<pk>/schedule/fill/ (URL name tournaments_tournament_schedule_fill)."""

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view  # type: ignore[attr-defined]
        return [path("<int:pk>/schedule/fill/", view(self.schedule_fill_view),
                     name="tournaments_tournament_schedule_fill"), *super().get_urls()]  # type: ignore[misc]

    def save_formset(self, request: HttpRequest, form: Any, formset: Any, change: bool) -> Any:
        if formset.model is not ScheduledRound:
            return super().save_formset(request, form, formset, change)  # type: ignore[misc]
        save = formset.save(commit=False)
        moved = schedule.schedule_save(tournament=form.instance, save=save, delete=list(formset.deleted_objects))
        for rnd in moved:
            messages.info(request, _("Round %(n)s, already paired, moves with the schedule to %(day)s.")
                          % {"n": rnd.number, "day": day_text(rnd.date)})
        return None

    def schedule_fill_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        tournament = self._tournament(request, pk)  # type: ignore[attr-defined]
        back = reverse("admin:tournaments_tournament_control", args=[pk])
        if request.method != "POST":
            return HttpResponseRedirect(back)
        form = ScheduleFillForm(request.POST)
        if not form.is_valid():
            for field, errors in form.errors.items():
                label = form.fields[field].label if field in form.fields else ""
                messages.error(request, f"{label}: {' '.join(errors)}" if label else " ".join(errors))
            return self.control_view(request, pk, schedule_form=form)  # type: ignore[attr-defined,no-any-return]
        data = form.cleaned_data
        run_service(request, lambda: schedule.schedule_fill(
            tournament=tournament, first_date=data["first_date"], start_times=data["start_times"],
            rest_days=data["rest_days"]), _("The round schedule is filled in; correct any round on the "
                                            "tournament page."))
        return HttpResponseRedirect(back)
