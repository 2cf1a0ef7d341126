"""English and French: the switch on every page, FMJD's French words, and a complete, compiled catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.tournaments.play import play_round
from tournaments.models import Game

PO = Path(settings.BASE_DIR) / "locale" / "fr" / "LC_MESSAGES" / "django.po"


def po_entries(path: Path) -> list[tuple[str, list[str], bool]]:
    """(msgid, msgstrs, fuzzy) for each entry but the header; enough of the PO format for our files."""
    out = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        ids = re.search(r'^msgid ((?:".*"\n?)+)', block + "\n", re.M)
        if not ids:
            continue
        msgid = "".join(re.findall(r'^"(.*)"$', ids.group(1), re.M))
        if not msgid or re.search(r"^msgctxt ", block, re.M):
            continue  # the header; a message with a context (pgettext) is checked by tests/test_translations.py
        strs = ["".join(re.findall(r'^"(.*)"$', m, re.M))
                for m in re.findall(r'^msgstr(?:\[\d\])? ((?:".*"\n?)+)', block + "\n", re.M)]
        out.append((msgid, strs, "#, fuzzy" in block or ", fuzzy" in block))
    return out


def test_french_catalogue_is_complete_and_compiled() -> None:
    entries = po_entries(PO)
    assert len(entries) > 100
    assert not [m for m, _, fuzzy in entries if fuzzy], "fuzzy entries are not compiled"
    assert not [m for m, strs, _ in entries if not all(strs)], "untranslated entries"
    # The .mo in the repository is compiled from this .po: every message comes back translated.
    with translation.override("fr"):
        for msgid, strs, _ in entries:
            if "%" in msgid or "\\" in msgid:
                continue
            assert translation.gettext(msgid) == strs[0], msgid


@pytest.fixture
def tournament(make_tournament):  # type: ignore[no-untyped-def]
    t = make_tournament(5, tiebreaks=["solkoff", "wins"])
    play_round(t, {1: "2-0"})
    return t


@pytest.mark.django_db
def test_language_switch_on_every_page(client: Client, tournament) -> None:  # type: ignore[no-untyped-def]
    game = Game.objects.filter(round__tournament=tournament).exclude(black=None).first()
    assert game is not None
    urls = [reverse("tournaments:list")] + [
        reverse(f"tournaments:{name}", args=[tournament.slug, *extra]) for name, extra in [
            ("tournament", []), ("standings", []), ("crosstable", []), ("round", [1]), ("player", [1]),
            ("game", [game.pk])]]
    for url in urls:
        html = client.get(url).content.decode()
        assert f'action="{reverse("set_language")}"' in html, url
        assert 'value="fr"' in html and 'value="en"' in html, url


@pytest.mark.django_db
def test_french_pages_use_fmjd_words(client: Client, tournament) -> None:  # type: ignore[no-untyped-def]
    url = reverse("tournaments:standings", args=[tournament.slug])
    response = client.post(reverse("set_language"), {"language": "fr", "next": url}, follow=True)
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Classement après la ronde 1" in html
    for word in (">Rang</th>", ">Joueur</th>", ">Victoires</th>", ">Tableau</a>", ">Tournoi</a>"):
        assert word in html, word
    page = client.get(reverse("tournaments:tournament", args=[tournament.slug])).content.decode()
    assert "Toutes rondes, 5 rondes" in page and "Cadence" not in page  # no time control set
    cross = client.get(reverse("tournaments:crosstable", args=[tournament.slug])).content.decode()
    assert "Tableau après la ronde 1" in cross and "2 gain, 1 nulle, 0 perte" in cross
    rnd = client.get(reverse("tournaments:round", args=[tournament.slug, 1])).content.decode()
    assert ">Blancs</th>" in rnd and ">Noirs</th>" in rnd and ">Exempt<" in rnd
    pdf = client.get(reverse("tournaments:standings_pdf", args=[tournament.slug]))
    assert pdf.status_code == 200
    english = client.post(reverse("set_language"), {"language": "en", "next": url}, follow=True)
    assert "Standings after round 1" in english.content.decode()
