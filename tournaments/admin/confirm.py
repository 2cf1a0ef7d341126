"""Asking the arbiter to confirm a conformance warning without losing what he typed.

A service raises `events.NeedsConfirmation` (levels 3 and 4) or `events.Refused` (level 5). Where the page is
a Django form, the form catches it (`ask`), the form comes back invalid with every typed value kept, and the
page shows the one warning screen (`tournaments/admin/warnings.py`, `block`) with a checkbox named
`confirmed` per code. The resubmission passes the ticked codes (`confirmed_codes`) to the service.
Where there is no form to come back to (an admin action, a button), `ask_confirmation` shows a page that
posts back every value it was given, with the same checkboxes.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.admin.warnings import FIELD, block
from tournaments.conformance import events
from tournaments.conformance.policy import Warning


def confirmed_codes(data: Any) -> frozenset[str]:
    """The codes the arbiter ticked, from a POST (QueryDict) or a plain mapping."""
    if data is None:
        return frozenset()
    if hasattr(data, "getlist"):
        return frozenset(v for v in data.getlist(FIELD) if v)
    value = data.get(FIELD) if isinstance(data, Mapping) else None
    return frozenset(value if isinstance(value, (list, tuple, set, frozenset)) else [value] if value else [])


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
