"""The hall screens of a tournament: each with its settings (what it shows, in which order; its boards; its
message; how long a panel stays and how many lines it holds) and its public address, to open on the
television. Its own admin page, scoped like every arbiter's page (tournaments.permissions); a save goes
through tournaments.hall.screen_services.screen_save, which refuses settings changed by someone else
meanwhile."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin.base import AsciiIdMixin, _choices, keep_typed_on_refusal, refusing_form
from tournaments.errors import DomainError
from tournaments.hall import screen_services, screens
from tournaments.models import HallScreen
from tournaments.permissions import arbitrated_by, can_manage_or_list, is_staff_arbiter

SHOWN_WORDS = {
    "pairings": _("pairings: the boards, paged"),
    "find": _("find: every player in alphabetical order with board and colour"),
    "standings": _("standings: the leaders"),
    "message": _("message: the text below"),
    "clock": _("clock: the time since the clocks were started"),
}


class HallScreenForm(forms.ModelForm):
    shows_text = forms.CharField(
        label=_("What the screen shows"), max_length=100, initial=", ".join(screens.DEFAULT_SHOWS),
        help_text=_("In the order shown, separated by commas: %(words)s.") % {"words": "; ".join(
            str(w) for w in SHOWN_WORDS.values())})
    seen_version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    class Meta:
        model = HallScreen
        fields = ["tournament", "name", "shows_text", "boards_from", "boards_to", "message", "seconds_per_page",
                  "lines_per_page"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.fields["shows_text"].initial = ", ".join(self.instance.shows or screens.DEFAULT_SHOWS)
            self.fields["seen_version"].initial = self.instance.version
        self.fields["lines_per_page"].help_text = _(
            "Up to 16 lines keep the type readable from 5 m on a 55-inch screen; more make it smaller.")

    def clean_shows_text(self) -> list[str]:
        try:
            return screen_services.clean_shows(self.cleaned_data["shows_text"])
        except DomainError as exc:
            raise forms.ValidationError(str(exc)) from None

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, last = data.get("boards_from"), data.get("boards_to")
        if first is not None and last is not None and first > last:
            self.add_error("boards_to", gettext("Board %(first)s comes after board %(last)s: the range is empty.")
                           % {"first": first, "last": last})
        return data


@admin.register(HallScreen)
class HallScreenAdmin(AsciiIdMixin, admin.ModelAdmin):
    form = HallScreenForm
    list_display = ("name", "tournament", "boards", "public_link")
    list_filter = (("tournament", admin.RelatedOnlyFieldListFilter),)
    readonly_fields = ("public_link", "readable_from")
    fieldsets = [
        (None, {"fields": ["tournament", "name", "public_link"]}),
        (_("What it shows"), {"fields": ["shows_text", "boards_from", "boards_to", "message"]}),
        (_("Pages"), {"fields": ["seconds_per_page", "lines_per_page", "readable_from", "seen_version"]}),
    ]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        qs = super().get_queryset(request).select_related("tournament")
        return qs if request.user.is_superuser else qs.filter(arbitrated_by(request.user, "tournament")).distinct()

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        choices = _choices(db_field, request)
        if choices is not None:
            kwargs.setdefault("queryset", choices)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff_arbiter(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return can_manage_or_list(request.user, obj)

    has_change_permission = has_delete_permission = has_view_permission

    def has_add_permission(self, request: HttpRequest) -> bool:
        return is_staff_arbiter(request.user)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        # A screen is deleted from its own page, whose permission is the screen's tournament's.
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        return refusing_form(request, super().get_form(request, obj, change, **kwargs))

    def changeform_view(self, request: HttpRequest, object_id: str | None = None, form_url: str = "",
                        extra_context: dict[str, Any] | None = None) -> HttpResponse:
        return keep_typed_on_refusal(
            request, lambda: super(HallScreenAdmin, self).changeform_view(request, object_id, form_url,
                                                                          extra_context),
            lambda exc: gettext("Nothing saved: %(why)s") % {"why": exc})

    def save_model(self, request: HttpRequest, obj: HallScreen, form: Any, change: bool) -> None:
        obj.shows = form.cleaned_data["shows_text"]
        seen = form.cleaned_data.get("seen_version") if change else None
        screen_services.screen_save(screen=obj, expected_version=seen)

    @admin.display(description=_("boards"))
    def boards(self, obj: HallScreen) -> str:
        if obj.boards_from is None and obj.boards_to is None:
            return gettext("all")
        return f"{obj.boards_from or 1}–{obj.boards_to or '…'}"

    @admin.display(description=_("public address"))
    def public_link(self, obj: HallScreen) -> str:
        if obj.pk is None:
            return gettext("made when the screen is saved")
        url = reverse("tournaments:hall_screen", args=[obj.tournament.slug, obj.token])
        return format_html('<a href="{}" target="_blank" rel="noopener">{}</a>', url, url)

    @admin.display(description=_("readable from"))
    def readable_from(self, obj: HallScreen) -> str:
        return gettext("about %(m)s m on a 55-inch screen") % {
            "m": screens.readable_from_m(obj.lines_per_page or 12)}
