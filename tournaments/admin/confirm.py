"""Asking the arbiter to confirm a conformance warning without losing what he typed.

A service raises `events.NeedsConfirmation` (levels 3 and 4) or `events.Refused` (level 5). Where the page is
a Django form, the form catches it (`ask`), the form comes back invalid with every typed value kept, and the
page shows `block(...)`: each warning with its level in words, what it means, and a checkbox named
`confirmed` carrying its code. The resubmission passes the ticked codes (`confirmed_codes`) to the service.
Where there is no form to come back to (an admin action, a button), `ask_confirmation` shows a page that
posts back every value it was given, with the same checkboxes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments.conformance import events
from tournaments.conformance.policy import Level, Warning
from tournaments.conformance.words import describe, level_name

FIELD = "confirmed"  # the checkboxes' name, one value per confirmed code


def confirmed_codes(data: Any) -> frozenset[str]:
    """The codes the arbiter ticked, from a POST (QueryDict) or a plain mapping."""
    if data is None:
        return frozenset()
    if hasattr(data, "getlist"):
        return frozenset(v for v in data.getlist(FIELD) if v)
    value = data.get(FIELD) if isinstance(data, Mapping) else None
    return frozenset(value if isinstance(value, (list, tuple, set, frozenset)) else [value] if value else [])


def consequence(level: int) -> str:
    if level == Level.LEAVE:
        return _("Confirming takes the tournament out of the conformance mode for good: every page of the "
                 "tournament will say so, the event is kept in its history and written in its TRF. It cannot "
                 "be undone.")
    if level == Level.CONFIRM:
        return _("Confirming keeps this as an event in the tournament's history and in its TRF; it does not "
                 "change the tournament's conformance mode.")
    if level == Level.REFUSE:
        return _("This is refused: nothing was saved.")
    return _("For your information; nothing to confirm.")


@dataclass(frozen=True)
class Shown:
    """One checkbox: a code, its level and the words of every warning of that code."""

    code: str
    level: int
    level_words: str
    texts: list[str]
    consequence: str
    leaves: bool


def shown(warnings: Iterable[Warning]) -> list[Shown]:
    """The warnings grouped by code (the confirmation is per code), the gravest first."""
    by_code: dict[str, list[Warning]] = {}
    for w in warnings:
        by_code.setdefault(str(w.code), []).append(w)
    rows = [Shown(code, int(ws[0].level), level_name(ws[0].level), [describe(w) for w in ws],
                  consequence(ws[0].level), ws[0].level is Level.LEAVE) for code, ws in by_code.items()]
    return sorted(rows, key=lambda r: -r.level)


def block(request: HttpRequest | None, warnings: Iterable[Warning], *, ticked: Iterable[str] = ()) -> SafeString:
    """The warnings and their checkboxes, to put inside the form that will be posted again."""
    rows = shown(warnings)
    if not rows:
        return SafeString("")
    return SafeString(render_to_string("admin/tournaments/confirm_warnings.html", {
        "warnings": rows, "ticked": set(ticked), "field": FIELD}, request))


def ask(form: forms.BaseForm | forms.BaseFormSet, warnings: list[Warning], *, field: str | None = None) -> bool:
    """In a form's or formset's clean(): True when every warning is confirmed (or a notice). Otherwise the form
    becomes invalid, keeps the warnings in `form.confirmation_warnings` for the page, and a refusal is an error
    on `field`."""
    try:
        events.require(warnings, confirmed=confirmed_codes(form.data))
    except events.Refused as exc:
        _add_error(form, field, str(exc))
        return False
    except events.NeedsConfirmation as exc:
        pending = list(getattr(form, "confirmation_warnings", []))
        form.confirmation_warnings = pending + exc.warnings  # type: ignore[union-attr]
        _add_error(form, None, pending_message())
        return False
    return True


def pending_message() -> str:
    """The form error that stands for the warnings waiting (a page's error summary links it to #dm-confirm)."""
    return _("Confirm the warnings shown at the top of the page (tick each one), then save again; nothing was "
             "saved yet.")


def _add_error(form: Any, field: str | None, message: str) -> None:
    if isinstance(form, forms.BaseFormSet):
        raise forms.ValidationError(message)
    form.add_error(field, message)


def pending(*forms_: Any) -> list[Warning]:
    """Every warning the given forms and formsets are waiting on."""
    return [w for f in forms_ if f is not None for w in getattr(f, "confirmation_warnings", [])]


def ask_confirmation(request: HttpRequest, warnings: list[Warning], *, title: str, action: str = "",
                     keep: Any = None, button: str = "", cancel_url: str = "",
                     context: dict[str, Any] | None = None) -> HttpResponse:
    """A page asking to confirm `warnings`, posting back to `action` (default: the same URL) every value of
    `keep` (default: the request's POST) and the ticked codes."""
    data = request.POST if keep is None else keep
    hidden: list[tuple[str, str]] = []
    items = data.lists() if hasattr(data, "lists") else ((k, v if isinstance(v, list) else [v])
                                                         for k, v in data.items())
    for name, values in items:
        if name in ("csrfmiddlewaretoken", FIELD):
            continue
        hidden.extend((name, str(v)) for v in values)
    return render(request, "admin/tournaments/confirm_page.html", {
        **(context or {}), "title": title, "action": action or request.get_full_path(), "hidden": hidden,
        "warnings_block": block(request, warnings), "button": button or _("Confirm"), "cancel_url": cancel_url,
    })
