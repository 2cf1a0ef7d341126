"""`{% manual_url %}`: the manual's chapter for the admin page being shown (templates/admin/base_site.html).

A page whose chapter depends on what it shows (the round page: a draft or a round taking results) names it
in its context as `manual_chapter`; the others are found by their URL name."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from tournaments.admin.manual import manual_url_for_page

register = template.Library()


@register.simple_tag(takes_context=True)
def manual_url(context: dict[str, Any]) -> str:
    if chapter := context.get("manual_chapter"):
        return reverse("manual_chapter", args=[chapter])
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    return manual_url_for_page(getattr(match, "url_name", None))
