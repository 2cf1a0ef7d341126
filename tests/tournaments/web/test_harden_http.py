"""Login lockout per username AND client address behind a proxy; uploads cut at the limit."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse


def _login(client: Client, ip: str, password: str) -> int:
    return client.post(reverse("admin:login"), {"username": "chief", "password": password},
                       HTTP_X_FORWARDED_FOR=f"6.6.6.6, {ip}", REMOTE_ADDR="10.0.0.1").status_code


@pytest.mark.django_db
def test_a_stranger_behind_the_proxy_cannot_lock_the_arbiter_out(settings) -> None:  # type: ignore[no-untyped-def]
    settings.AXES_ENABLED, settings.AXES_FAILURE_LIMIT = True, 3
    settings.DAMIER_CLIENT_IP_HEADER = "X-Forwarded-For"
    get_user_model().objects.create_user("chief", password="pw-chief-123", is_staff=True)
    stranger = Client()
    for _ in range(5):
        _login(stranger, "203.0.113.9", "wrong")
    assert _login(stranger, "203.0.113.9", "pw-chief-123") != 302  # the stranger's address is locked
    assert _login(Client(), "198.51.100.7", "pw-chief-123") == 302  # the arbiter, same proxy, logs in


@pytest.mark.django_db
def test_an_oversized_upload_is_cut_while_it_arrives(published_round, settings) -> None:  # type: ignore[no-untyped-def]
    settings.DAMIER_UPLOAD_MAX_BYTES = 1000
    _, _, client = published_round
    response = client.post(reverse("admin:tournaments_player_import"),
                           {"file": SimpleUploadedFile("big.csv", b"surname\n" + b"x\n" * 5000, "text/csv")})
    assert response.status_code == 200
    texts = [str(m) for m in response.context["messages"]]
    assert any("over the upload limit of 1000 bytes" in m for m in texts), texts
