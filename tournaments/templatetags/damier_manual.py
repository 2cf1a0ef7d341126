"""`{% manual_url %}`: the manual's chapter for the admin page being shown (templates/admin/base_site.html)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.admin.manual import manual_url_for_page

register = template.Library()


@register.simple_tag(takes_context=True)
def manual_url(context: dict[str, Any]) -> str:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    return manual_url_for_page(getattr(match, "url_name", None))
