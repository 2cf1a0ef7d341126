"""The demo's pages, read in French, Dutch and Russian, hold no English sentence.

Two nets: (1) no msgid of several words of the English catalogue appears verbatim in the page's text
(a template or view string that is not translated, or translated too late, e.g. at import time);
(2) no run of four or more English words that the English page also shows (words made by the pure
modules — result labels, withdrawal notes, the pairing log, the sheet verdicts — which never reach a
catalogue). The players', clubs' and tournament's own names are the users' text and are left out.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import polib
import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournaments import services
from tournaments.management.commands.load_demo import ARBITER_USERNAME, SLUG
from tournaments.models import GameSheet, Player, Tournament

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = re.compile(r"%\([a-z_]+\)[0-9]*[sdX]|\{[a-z_]+\}|%%")
TAGS = re.compile(r"<(script|style)\b.*?</\1>|<[^>]+>", re.S)
# Words that are the same in English and the other languages, or proper names of systems and rules.
SAME = {"Solkoff", "Sonneborn-Berger", "FMJD", "KNDB", "FIDE", "PDN", "PDF", "CSV", "TRF", "JSON", "Damier"}


def english_sentences() -> list[str]:
    po = polib.pofile(str(ROOT / "locale" / "fr" / "LC_MESSAGES" / "django.po"))
    out: set[str] = set()
    for e in po:
        for msg in (e.msgid, e.msgid_plural):
            for piece in PLACEHOLDER.split(msg):
                piece = piece.strip(" .,:;()–-")
                words = [w for w in re.findall(r"[A-Za-z][A-Za-z'’-]*", piece) if w not in SAME]
                if len(words) >= 3:
                    out.add(re.sub(r"\s+", " ", piece))
    return sorted(out, key=len, reverse=True)


def text_of(body: str) -> str:
    text = html.unescape(TAGS.sub("\n", body))
    return re.sub(r"[ \t]+", " ", text)


def english_runs(text: str) -> set[str]:
    """Runs of 4+ Latin words (the kind of words an English sentence is made of)."""
    return {m.group(0) for m in re.finditer(r"[A-Za-z][a-z'’]*(?:[ ,]+[A-Za-z][a-z'’]*){2,}", text)}


@pytest.fixture
def demo(db) -> dict[str, str]:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    t = Tournament.objects.get(slug=SLUG)
    rnd = t.rounds.order_by("number").first()
    irregular = GameSheet.objects.get(game__round__tournament=t, status="irregular").game
    # A withdrawal, so the 5.9 notes (made by the pure standings module) are on the pages too.
    services.entry_withdraw(entry=t.entries.get(pairing_number=10))
    return {
        "list": reverse("tournaments:list"),
        "tournament": reverse("tournaments:tournament", args=[SLUG]),
        "standings": reverse("tournaments:standings", args=[SLUG]),
        "crosstable": reverse("tournaments:crosstable", args=[SLUG]),
        "round": reverse("tournaments:round", args=[SLUG, 1]),
        "player": reverse("tournaments:player", args=[SLUG, 1]),
        "withdrawn player": reverse("tournaments:player", args=[SLUG, 10]),
        "game": reverse("tournaments:game", args=[SLUG, irregular.pk]),
        "tiebreaks": reverse("tournaments:tournament_tiebreaks", args=[SLUG]),
        "admin round": reverse("admin:tournaments_round_change", args=[rnd.pk]),
        "admin last round": reverse("admin:tournaments_round_change", args=[t.rounds.order_by("number").last().pk]),
        "admin control room": reverse("admin:tournaments_tournament_control", args=[t.pk]),
        "admin tournament": reverse("admin:tournaments_tournament_change", args=[t.pk]),
        "admin sheet": reverse("admin:tournaments_game_sheet", args=[irregular.pk]),
    }


def users_text() -> set[str]:
    t = Tournament.objects.get(slug=SLUG)
    words = {t.name, t.venue, t.time_control}
    for p in Player.objects.all():
        words |= {p.surname, p.given_name, p.club}
    return {w for w in words if w}


def get(client: Client, url: str, lang: str) -> str:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200, (url, response.status_code)
    assert response.headers.get("Content-Language") == lang, url
    return text_of(response.content.decode())


@pytest.mark.parametrize("lang", ["fr", "nl", "ru"])
def test_no_english_on_the_main_pages(demo: dict[str, str], lang: str) -> None:
    client = Client()
    client.force_login(get_user_model().objects.get(username=ARBITER_USERNAME))
    sentences = english_sentences()
    ours = users_text()
    found: list[str] = []
    for name, url in demo.items():
        text = get(client, url, lang)
        for user_text in ours:
            text = text.replace(user_text, " ")
        for sentence in sentences:
            if sentence in text:
                found.append(f"{name}: catalogue sentence left in English: {sentence!r}")
                text = text.replace(sentence, " ")
        english = english_runs(get(client, url, "en"))
        for run in sorted(english_runs(text) & english):
            if not set(re.findall(r"[A-Za-z]+", run)) <= SAME:
                found.append(f"{name}: English words also on the English page: {run!r}")
    assert not found, f"{len(found)} English text(s) in the {lang} pages:\n" + "\n".join(found)
