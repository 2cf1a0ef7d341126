"""What the web server hands Django: the client's address behind a proxy, and uploads cut at the limit; and
what every answer tells the browser it may do (SecurityPolicyMiddleware)."""

from __future__ import annotations

import ipaddress
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest
from django.utils.translation import gettext as _


def client_ip(request: HttpRequest) -> str | None:
    """The client's address for login throttling (django-axes AXES_CLIENT_IP_CALLABLE).

    DAMIER_CLIENT_IP_HEADER names the header the reverse proxy sets (X-Real-IP, X-Forwarded-For). Of a
    list, the last address is taken: it is the one our proxy appended; everything left of it was sent by
    the client and can be forged. Without the setting (no proxy), the connection's own address."""
    header = settings.DAMIER_CLIENT_IP_HEADER
    if header:
        raw = request.META.get("HTTP_" + header.upper().replace("-", "_"), "")
        candidate = raw.split(",")[-1].strip()
        try:
            return str(ipaddress.ip_address(candidate))
        except ValueError:
            pass  # no header (a request that bypassed the proxy): fall back to the socket's address
    return request.META.get("REMOTE_ADDR")


class LimitedUploadHandler(FileUploadHandler):
    """Stops reading a file as soon as it passes DAMIER_UPLOAD_MAX_BYTES: the rest of the body is never
    written to memory or disk, and the page says why the file is missing."""

    def __init__(self, request: Any = None) -> None:
        super().__init__(request)
        self.received = 0

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        limit = settings.DAMIER_UPLOAD_MAX_BYTES
        if self.received > limit:
            if self.request is not None and hasattr(self.request, "_messages"):
                messages.error(self.request, _("%(name)s is over the upload limit of %(limit)s bytes: refused "
                                               "before it was read.") % {"name": self.file_name, "limit": limit})
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


class SecurityPolicyMiddleware:
    """Content-Security-Policy and Permissions-Policy on every answer, the admin's included (settings:
    DAMIER_CSP, DAMIER_PERMISSIONS_POLICY; an empty value sends none).

    The pages' scripts are files of this site (damier/*.js, Django's admin/js/*.js, whose constants ride on
    data- attributes of their <script> tags, and json_script data, which is not run), so scripts come from
    'self' only and an injected inline script or handler does not run. Styles allow inline ones: the admin
    and some of Damier's admin pages carry <style> blocks and style attributes, and a style runs no code.
    Placed next to SecurityMiddleware, above the layers that answer early (static files, stored pages), so
    those answers carry the headers too."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> Any:
        response = self.get_response(request)
        for header, value in (("Content-Security-Policy", settings.DAMIER_CSP),
                              ("Permissions-Policy", settings.DAMIER_PERMISSIONS_POLICY)):
            if value and header not in response:
                response[header] = value
        return response
