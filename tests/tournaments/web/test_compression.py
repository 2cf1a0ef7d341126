"""Public pages are sent compressed; the admin never is (BREACH, see tournaments/web/compression.py)."""

from __future__ import annotations

import gzip

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo() -> None:
    import io

    call_command("load_demo", stdout=io.StringIO())


def test_public_pages_are_gzipped_the_admin_never(client: Client, demo: None) -> None:
    plain = client.get("/t/damier-demo-2026/standings/")
    packed = client.get("/t/damier-demo-2026/standings/", HTTP_ACCEPT_ENCODING="gzip")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip" and "Accept-Encoding" in packed["Vary"]
    body = gzip.decompress(packed.content)
    assert len(packed.content) < len(plain.content) / 3
    # Same page but for the CSRF token, masked afresh in every response.
    assert body.split(b"csrfmiddlewaretoken")[0] == plain.content.split(b"csrfmiddlewaretoken")[0]


    # The admin is never compressed: private data, and it echoes the query (?q=).
    assert "Content-Encoding" not in client.get("/admin/login/", HTTP_ACCEPT_ENCODING="gzip")
    client.force_login(get_user_model().objects.get(username="arbiter"))
    for url in ("/admin/", "/admin/tournaments/tournament/?q=demo"):
        response = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert response.status_code == 200, url
        assert "Content-Encoding" not in response, url
    # A public page stays compressed for a logged-in arbiter: it shows him only published data.
    assert client.get("/t/damier-demo-2026/", HTTP_ACCEPT_ENCODING="gzip")["Content-Encoding"] == "gzip"
