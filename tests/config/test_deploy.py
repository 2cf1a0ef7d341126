"""Production settings and login throttling: `check --deploy` clean, a secret key required, lockout after 5 failures."""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import Client, override_settings
from django.urls import reverse

REPO = Path(__file__).resolve().parents[2]


def run_manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DAMIER_"))}
    base["DATABASE_URL"] = "sqlite:///:memory:"
    return subprocess.run([sys.executable, "manage.py", *args], cwd=REPO, env={**base, **env},
                          capture_output=True, text=True, timeout=120)


def test_check_deploy_is_clean_with_production_settings() -> None:
    done = run_manage("check", "--deploy", "--fail-level", "WARNING", DJANGO_DEBUG="0",
                      DJANGO_SECRET_KEY=secrets.token_urlsafe(50), DJANGO_ALLOWED_HOSTS="damier.example")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_production_refuses_to_start_without_a_secret_key() -> None:
    done = run_manage("check", DJANGO_DEBUG="0", DJANGO_ALLOWED_HOSTS="damier.example")
    assert done.returncode != 0
    assert "DJANGO_SECRET_KEY must be set" in done.stderr


def test_production_refuses_to_start_without_allowed_hosts() -> None:
    done = run_manage("check", DJANGO_DEBUG="0", DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    assert done.returncode != 0
    assert "DJANGO_ALLOWED_HOSTS must name" in done.stderr


def test_production_settings_values() -> None:
    code = ("from django.conf import settings as s; print(s.SESSION_COOKIE_SECURE, s.CSRF_COOKIE_SECURE, "
            "s.SECURE_SSL_REDIRECT, s.SECURE_HSTS_SECONDS >= 31536000, s.SECURE_PROXY_SSL_HEADER, s.DEBUG, "
            "s.MIDDLEWARE[-1], s.AUTHENTICATION_BACKENDS[0])")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "DAMIER_"))}
    done = subprocess.run(
        [sys.executable, "-c", f"import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE', "
                               f"'config.settings'); django.setup(); {code}"],
        cwd=REPO, capture_output=True, text=True, timeout=60,
        env={**base, "DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "x" * 60, "DJANGO_ALLOWED_HOSTS": "d.example",
             "DATABASE_URL": "sqlite:///:memory:"},
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True", "True", "('HTTP_X_FORWARDED_PROTO',", "'https')",
                                   "False", "axes.middleware.AxesMiddleware", "axes.backends.AxesStandaloneBackend"]


def test_no_secret_key_committed_in_the_repository() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=REPO, capture_output=True, text=True).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    assert not any(Path(name).name in {".env", "local_settings.py"} for name in tracked)
    settings_text = (REPO / "config" / "settings.py").read_text()
    # The only literal key is the development one, and it says so.
    assert settings_text.count("SECRET_KEY = \"") == 1 and "development-only" in settings_text


def login(client: Client, username: str, password: str) -> int:
    url = reverse("admin:login")
    response = client.post(url, {"username": username, "password": password, "next": "/admin/"},
                           REMOTE_ADDR="10.0.0.7")
    return response.status_code


@pytest.mark.django_db
def test_five_failed_logins_lock_the_account_out_even_with_the_right_password() -> None:
    get_user_model().objects.create_user("arb", password="right-pw-123", is_staff=True)
    c = Client()
    assert [login(c, "arb", f"wrong-{i}") for i in range(4)] == [200] * 4  # the form again, with an error
    assert login(c, "arb", "wrong-5") == 429
    assert login(c, "arb", "right-pw-123") == 429
    # Another username from the same address is not locked: lockout is per username and address.
    get_user_model().objects.create_user("deputy", password="deputy-pw-123", is_staff=True)
    assert login(Client(), "deputy", "deputy-pw-123") == 302


@pytest.mark.django_db
def test_a_success_before_the_limit_resets_the_count() -> None:
    get_user_model().objects.create_user("arb", password="right-pw-123", is_staff=True)
    c = Client()
    for i in range(4):
        login(c, "arb", f"wrong-{i}")
    assert login(c, "arb", "right-pw-123") == 302
    c.logout()
    assert [login(c, "arb", f"wrong-again-{i}") for i in range(4)] == [200] * 4
    assert login(c, "arb", "right-pw-123") == 302


@pytest.mark.django_db
def test_lockout_expires_after_the_cool_off() -> None:
    import datetime

    from axes.models import AccessAttempt

    get_user_model().objects.create_user("arb", password="right-pw-123", is_staff=True)
    c = Client()
    for i in range(5):
        login(c, "arb", f"wrong-{i}")
    assert login(c, "arb", "right-pw-123") == 429
    # Age the attempts past the 15 minutes of cool-off instead of sleeping.
    AccessAttempt.objects.update(attempt_time=datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC))
    assert login(c, "arb", "right-pw-123") == 302


@pytest.mark.django_db
@override_settings(AXES_ENABLED=True)
def test_csrf_is_enforced_on_the_admin_login() -> None:
    c = Client(enforce_csrf_checks=True)
    get_user_model().objects.create_user("arb", password="right-pw-123", is_staff=True)
    response = c.post(reverse("admin:login"), {"username": "arb", "password": "right-pw-123"})
    assert response.status_code == 403
