"""An unconfirmed report is in no export and on no public page: they all read Game.result only.

Each export and page is taken before and after two players report board 1 (a result and a game that the
moves confirm), the page cache off so that nothing is answered from a copy made before; the texts must be
the same, and neither the reported game's moves nor a code appear anywhere."""

from __future__ import annotations

import io
import re
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tests.tournaments.boards.test_board_reports import WIN, code_of, hall, send  # noqa: F401
from tournaments.exchange.transfer import dumps, export_tournament
from tournaments.models import BoardReport, Game
from tournaments.rounds import pairing_bridge
from tournaments.sheets import export_pdn

pytestmark = pytest.mark.django_db

_STAMPS = re.compile(rb'"exported_at": "[^"]*"')


def readable(body: bytes) -> bytes:
    """A PDF as its text (its stamps of time and identity differ at every print), anything else as it is."""
    if not body.startswith(b"%PDF"):
        return _STAMPS.sub(b"", body)
    from pypdf import PdfReader

    return "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(body)).pages).encode()


def ok(client: Client, url: str) -> bytes:
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content


def everything(t: Any, rnd: Any, arbiter_client: Client) -> dict[str, bytes]:
    slug, n = t.slug, rnd.number
    game = Game.objects.filter(round=rnd, board=1).get()
    public = Client()
    pages = {name: ok(public, url) for name, url in {
        "tournament": reverse("tournaments:tournament", args=[slug]),
        "round": reverse("tournaments:round", args=[slug, n]),
        "standings": reverse("tournaments:standings", args=[slug]),
        "crosstable": reverse("tournaments:crosstable", args=[slug]),
        "player": reverse("tournaments:player", args=[slug, game.white.pairing_number]),
        "game": reverse("tournaments:game", args=[slug, game.pk]),
        "games.pdn": reverse("tournaments:games_pdn", args=[slug]),
        "round games.pdn": reverse("tournaments:round_games_pdn", args=[slug, n]),
        "pairings.pdf": reverse("tournaments:pairings_pdf", args=[slug, n]),
        "standings.pdf": reverse("tournaments:standings_pdf", args=[slug]),
        "crosstable.pdf": reverse("tournaments:crosstable_pdf", args=[slug]),
        "boards.pdf": reverse("tournaments:boards_pdf", args=[slug, n]),
    }.items()}
    for name in ("slips_pdf", "scoresheets_pdf"):
        pages[name] = ok(arbiter_client, reverse(f"tournaments:{name}", args=[slug, n]))
    pages["trf"] = pairing_bridge.export_trf(t).encode()
    pages["pdn (all rounds)"] = export_pdn(t, public_only=False).encode()
    pages["json"] = dumps(export_tournament(t)).encode()
    return {name: readable(body) for name, body in pages.items()}


def test_an_unconfirmed_report_is_in_no_export_and_no_public_page(hall: dict[str, Any], arbiter: Any,  # noqa: F811
                                                                   settings: Any) -> None:
    settings.DAMIER_PAGE_CACHE = False
    t, rnd, g = hall["t"], hall["round"], hall["games"]
    arbiter_client = Client()
    arbiter_client.force_login(arbiter)
    before = everything(t, rnd, arbiter_client)
    send(g[1], "w", "2-0", pdn=WIN.encode())
    send(g[1], "b", "2-0", moves="28x19")
    assert BoardReport.objects.count() == 2 and Game.objects.get(pk=g[1].pk).result == ""
    after = everything(t, rnd, arbiter_client)
    changed = [name for name in before if before[name] != after[name]]
    assert changed == [], f"a report shows in: {changed}"
    token = code_of(g[1].white).token.encode()
    leaks = [name for name, body in after.items() if b"28x19" in body or token in body]
    assert leaks == []
