"""A tournament prints its PDFs in its own language (Tournament.pdf_language), else in the reader's."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from pypdf import PdfReader

from tournaments.management.commands.load_demo import SLUG
from tournaments.models import Tournament


def pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


@pytest.fixture
def demo(db) -> Tournament:
    call_command("load_demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    return Tournament.objects.get(slug=SLUG)


def test_pdfs_follow_the_reader_by_default(demo: Tournament) -> None:
    response = Client().get(reverse("tournaments:crosstable_pdf", args=[SLUG]), HTTP_ACCEPT_LANGUAGE="nl")
    assert response.headers["Content-Language"] == "nl"
    assert "Kruistabel" in pdf_text(response.content)


@pytest.mark.parametrize("name", ["crosstable_pdf", "standings_pdf"])
def test_tournament_language_wins_for_its_pdfs(demo: Tournament, name: str) -> None:
    Tournament.objects.filter(pk=demo.pk).update(pdf_language="ru")
    response = Client().get(reverse(f"tournaments:{name}", args=[SLUG]), HTTP_ACCEPT_LANGUAGE="fr")
    text = pdf_text(response.content)
    assert response.headers["Content-Language"] == "ru"
    assert "идёт 9-й тур" in text and "Коваленко" in text, text[:300]
    # The page itself stays in the reader's language.
    page = Client().get(reverse("tournaments:standings", args=[SLUG]), HTTP_ACCEPT_LANGUAGE="fr")
    assert page.headers["Content-Language"] == "fr"


def test_round_pdfs_in_the_tournament_language(demo: Tournament) -> None:
    Tournament.objects.filter(pk=demo.pk).update(pdf_language="nl")
    text = pdf_text(Client().get(reverse("tournaments:pairings_pdf", args=[SLUG, 1])).content)
    assert "Indeling ronde 1" in text
