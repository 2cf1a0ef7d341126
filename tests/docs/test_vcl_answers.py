"""The tests behind the answers docs/conformance/vcl4thp.json gives for the questions of no other branch:
deployment, the English interface, the manual apart, an imported tournament's mode, offline use."""

from __future__ import annotations

import os
import random
import re
import socket
import subprocess
import sys
from pathlib import Path

import polib
import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.tournaments.conftest import arbiter, make_players, make_tournament  # noqa: F401  (fixtures)
from tournaments.models import System, Tournament
from tournaments.rounds import pairing_bridge, services

ROOT = Path(__file__).resolve().parent.parent.parent
LOCAL_HOSTS = {"localhost", "127.0.0.1", "::1", None}


@pytest.fixture
def offline(monkeypatch):  # type: ignore[no-untyped-def]
    """No name outside this machine can be looked up or reached: the database on 127.0.0.1 still can."""
    real = socket.getaddrinfo

    def local_only(host, *args, **kwargs):  # type: ignore[no-untyped-def]
        if host not in LOCAL_HOSTS:
            raise OSError(f"offline test: {host} is not reachable")
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", local_only)


def _play_rounds(t: Tournament, n: int) -> None:
    rng = random.Random(5)
    for _ in range(n):
        rnd = services.round_pair(tournament=t)
        services.round_publish(round=rnd)
        for g in rnd.games.filter(result=""):
            services.game_record_result(game=g, result=rng.choice(["2-0", "1-1", "0-2"]))
        services.round_complete(round=rnd)


def test_q1_q2_self_hosted_on_linux_with_sqlite() -> None:
    """Q1-Q5: a Linux web application; with nothing configured it keeps its data in a SQLite file."""
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DJANGO_SETTINGS_MODULE")}
    out = subprocess.run(
        [sys.executable, "-c", "import django, os; os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'; "
         "django.setup(); from django.conf import settings; d = settings.DATABASES['default']; "
         "print(d['ENGINE'], d['NAME'])"],
        cwd=ROOT, env=env, capture_output=True, text=True, check=True).stdout.split()
    assert out == ["django.db.backends.sqlite3", str(ROOT / "db.sqlite3")]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    demo = makefile.split("\ndemo:", 1)[1].split("\n\n", 1)[0]
    assert "migrate" in demo and "load_demo" in demo and "runserver" in demo


def test_q7_q8_english_without_a_preference(db) -> None:  # type: ignore[no-untyped-def]
    page = Client().get(reverse("tournaments:list"))
    assert page.status_code == 200 and page["Content-Language"] == "en"
    assert re.search(r'<html[^>]* lang="en"', page.content.decode())
    admin_login = Client().get(reverse("admin:login"))
    assert admin_login["Content-Language"] == "en" and "Log in" in admin_login.content.decode()


def _translations() -> set[str]:
    """Every French, Dutch and Russian sentence of the catalogues that is not also the English one."""
    found: set[str] = set()
    for lang in ("fr", "nl", "ru"):
        for e in polib.pofile(str(ROOT / "locale" / lang / "LC_MESSAGES" / "django.po")):
            for text in ([e.msgstr] if not e.msgid_plural else list(e.msgstr_plural.values())):
                if text and text != e.msgid and len(text) >= 12 and " " in text and "%" not in text and "{" not in text:
                    found.add(text)
    return found


def test_q10_no_other_language_in_the_english_pages(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    t = make_tournament(6, system=System.SWISS, slug="en", rounds_total=3)
    _play_rounds(t, 1)
    staff = Client()
    staff.force_login(arbiter)
    public = Client()
    pages = [public.get(reverse("tournaments:list")), public.get(reverse("tournaments:tournament", args=["en"])),
             public.get(reverse("tournaments:standings", args=["en"])),
             public.get(reverse("tournaments:round", args=["en", 1])),
             public.get(reverse("tournaments:tiebreaks")),
             staff.get(reverse("admin:index")), staff.get(reverse("admin:tournaments_tournament_control", args=[t.pk])),
             staff.get(reverse("admin:tournaments_round_change", args=[t.rounds.get().pk])),
             staff.get(reverse("manual_chapter", args=["results"]))]
    foreign = _translations()
    assert len(foreign) > 300  # the catalogues were read
    for page in pages:
        assert page.status_code == 200
        html = page.content.decode()
        # The language switch names each language in itself, on purpose; it is no interface text.
        html = re.sub(r'<form class="dm-lang".*?</form>', "", html, flags=re.DOTALL)
        leaks = sorted(text for text in foreign if text in html)
        assert not leaks, (page.wsgi_request.path, leaks[:5])


def test_q13_the_manual_is_readable_apart() -> None:
    contents = (ROOT / "docs" / "manual" / "README.md").read_text(encoding="utf-8")
    chapters = sorted(p.name for p in (ROOT / "docs" / "manual").glob("[0-9][0-9]-*.md"))
    assert len(chapters) >= 13
    for name in chapters:
        assert f"]({name})" in contents, name
    assert "docs/manual/README.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_q56_an_imported_tournament_is_in_the_mode(make_tournament, tmp_path: Path) -> None:  # noqa: F811
    t = make_tournament(8, system=System.SWISS, slug="orig", rounds_total=5)
    _play_rounds(t, 2)
    source = tmp_path / "t.trf"
    source.write_text(pairing_bridge.export_trf(t), encoding="utf-8")
    call_command("import_trf", str(source), "--slug", "copy")
    copy = Tournament.objects.get(slug="copy")
    assert copy.rounds.count() == 2
    assert copy.conformance_left_round is None and copy.in_conformance


def test_q223_q224_usable_offline(make_tournament, offline) -> None:  # type: ignore[no-untyped-def]  # noqa: F811
    """No page loads anything from another site, and the pages work with no network at all."""
    # A link a reader may follow elsewhere is fine offline; what a page loads by itself is not.
    remote = re.compile(r"""<(?:script|img|iframe|source|video|audio|embed)\b[^>]*\ssrc\s*=\s*["']\s*(?:https?:)?//"""
                        r"""|<link\b[^>]*\shref\s*=\s*["']\s*(?:https?:)?//"""
                        r"""|url\(\s*["']?\s*(?:https?:)?//|@import\s+["']?(?:https?:)?//""",  # CSS
                        re.IGNORECASE)
    for folder, patterns in ((ROOT / "templates", ("*.html",)), (ROOT / "static", ("*.css", "*.js"))):
        for pattern in patterns:
            for path in folder.rglob(pattern):
                text = path.read_text(encoding="utf-8", errors="replace")
                assert not remote.search(text), f"{path.relative_to(ROOT)} loads something from another site"
    with pytest.raises(OSError):
        socket.getaddrinfo("example.org", 443)
    t = make_tournament(6, system=System.SWISS, slug="off", rounds_total=3)
    _play_rounds(t, 1)
    c = Client()
    for url in (reverse("tournaments:standings", args=["off"]), reverse("tournaments:crosstable", args=["off"]),
                reverse("tournaments:round", args=["off", 1])):
        assert c.get(url).status_code == 200, url


def test_q225_checker_and_generator_run_offline(offline, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """The generator writes a tournament and the checker finds it correct (exit 0), with no network."""
    from tournaments.verification.__main__ import main

    out = tmp_path / "generated.trf"
    assert main(["-g", str(out), "--players", "12", "--rounds", "4", "--seed", "7"]) == 0
    assert out.stat().st_size > 0
    assert main(["--dutch", str(out), "-c"]) == 0
