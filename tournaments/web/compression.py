"""Compressed public pages, with BREACH kept out.

BREACH reads a secret out of a compressed HTTPS response by injecting guesses into the same response and
watching its size. It needs three things in one body: compression, a secret, and text the attacker chose.

- Public pages (/, /t/...) hold only published data and no secret: no CSRF token, no cookie; and
  Django's GZipMiddleware pads each response with random bytes (Heal The Breach) besides. They are
  compressed: a game page goes from 31 KB to 6 KB.
- The admin (/admin/...) carries private data (unpublished rounds and pairings, the players' details) and
  echoes what the URL asks (?q= searches, filters): an attacker could make an arbiter's browser send
  guesses and measure. It is never compressed. (The public pages show a logged-in arbiter the same
  published data as anyone, so they are compressed for him too; the arbiter-only score sheets PDF echoes
  nothing from the request.)
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware

ADMIN_PREFIX = "/admin/"  # config/urls.py


class PublicGZipMiddleware(GZipMiddleware):
    def process_response(self, request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
        if request.path.startswith(ADMIN_PREFIX):
            return response
        return super().process_response(request, response)
