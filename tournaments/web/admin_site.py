"""The admin site: Django's, whose index also links the control room of each of the arbiter's tournaments
(the view reads them; the template only shows them)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.template.response import TemplateResponse

from tournaments.permissions import managed_tournaments

CONTROL_ROOMS_SHOWN = 10


class DamierAdminSite(admin.AdminSite):
    def index(self, request: HttpRequest, extra_context: dict[str, Any] | None = None) -> TemplateResponse:
        tournaments = list(managed_tournaments(request.user).order_by("-start_date", "name")[:CONTROL_ROOMS_SHOWN])
        return super().index(request, {"arbiter_tournaments": tournaments, **(extra_context or {})})
