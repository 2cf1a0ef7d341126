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

from tests.tournaments.play import play_swiss_round
from tournaments.management.commands.load_demo import ARBITER_USERNAME, SLUG
from tournaments.models import GameSheet, Player, System, Tournament
from tournaments.players import roster

ROOT = Path(__file__).resolve().parents[3]
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
    roster.entry_withdraw(entry=t.entries.get(pairing_number=10))
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
        found += english_on(client, name, url, lang, sentences, ours)
    assert not found, f"{len(found)} English text(s) in the {lang} pages:\n" + "\n".join(found)


def english_on(client: Client, name: str, url: str, lang: str, sentences: list[str], ours: set[str]) -> list[str]:
    """What of the page, read in `lang`, is still English: catalogue sentences, and runs of English words
    the English page shows too."""
    found = []
    text = get(client, url, lang)
    for user_text in sorted(ours, key=len, reverse=True):  # a whole line before the names in it
        text = text.replace(user_text, " ")
    for sentence in sentences:
        if sentence in text:
            found.append(f"{name}: catalogue sentence left in English: {sentence!r}")
            text = text.replace(sentence, " ")
    english = english_runs(get(client, url, "en"))
    for run in sorted(english_runs(text) & english):
        if not set(re.findall(r"[A-Za-z]+", run)) <= SAME:
            found.append(f"{name}: English words also on the English page: {run!r}")
    return found


@pytest.mark.parametrize("lang", ["fr", "nl", "ru"])
def test_a_swiss_round_and_its_pairing_log(make_tournament, arbiter, lang: str) -> None:
    """The demo is a round robin: a Swiss round, paired from the control room in the arbiter's language, with
    its pairing log (score groups, floaters, the bye, the colours) on the admin round page."""
    t = make_tournament(7, system=System.SWISS, rounds_total=4, slug="swiss")
    play_swiss_round(t)
    client = Client()
    client.force_login(arbiter)
    response = client.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                           {"step": "pair", "round": "2"}, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 302
    rnd = t.rounds.get(number=2)
    log = rnd.pairing_explanation
    assert log and "Dutch system" not in log and "Score group" not in log and "Colours:" not in log, log
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    sentences = english_sentences()
    found = [f"pairing log: catalogue sentence left in English: {s!r}" for s in sentences if s in log]
    # The log is kept as the arbiter who paired read it (the English page shows it so too): checked above by
    # itself, then left out of the page, like the players' names.
    ours = {t.name, *(p.full_name for p in Player.objects.all()), *(line.strip() for line in log.splitlines())}
    found += english_on(client, "admin Swiss round", url, lang, sentences, {x for x in ours if x})
    assert log.splitlines()[0] in html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert not found, f"{len(found)} English text(s) on the {lang} Swiss round page:\n" + "\n".join(found)
