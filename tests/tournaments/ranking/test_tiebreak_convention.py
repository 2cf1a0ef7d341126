"""The tie-break convention of a tournament (FMJD's reading or FIDE C.07): the standings follow it, a change once
round 1 is paired is a level-4 event, and the setting travels in the admin form, the JSON transfer and the TRF."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.play import play_swiss_round
from tests.tournaments.test_permissions import change_url, scrape_form
from tournaments import selectors
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.conformance.words import describe
from tournaments.exchange.transfer import TransferError, dumps, export_tournament, import_tournament, loads
from tournaments.models import ConformanceEvent, Game, System, TiebreakConvention, Tournament
from tournaments.rounds import pairing_bridge, under_way
from tournaments.standings import CONVENTIONS

pytestmark = pytest.mark.django_db


@pytest.fixture
def swiss5(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    """Five players, two rounds played: one pairing-allocated bye (worth 2) a round."""
    t = make_tournament(5, system=System.SWISS, slug="s5", rounds_total=3, tiebreaks=["solkoff", "wins"])
    play_swiss_round(t)
    play_swiss_round(t)
    return Tournament.objects.get(pk=t.pk)


def test_the_model_offers_the_standings_conventions() -> None:
    assert tuple(TiebreakConvention.values) == CONVENTIONS
    assert Tournament().tiebreak_convention == "fmjd"


def test_standings_follow_the_convention(swiss5: Tournament) -> None:
    """No round is voluntary (byes allocated by the pairing, games all played), so C.07 differs from FMJD only for
    a player with a bye: the bye's opponent scores 0 in FMJD's reading (Annex 4.2 a), and is a dummy with the
    player's own score in C.07 (16.4), while the bye worth a win counts as one (7.1)."""
    fmjd = {r.player.id: r for r in selectors.standings(swiss5)}
    Tournament.objects.filter(pk=swiss5.pk).update(tiebreak_convention="fide_c07")
    c07 = {r.player.id: r for r in selectors.standings(Tournament.objects.get(pk=swiss5.pk))}
    byes = {g.white_id for g in Game.objects.filter(round__tournament=swiss5, black=None)}  # entry ids
    assert len(byes) == 2
    for pk, row in c07.items():
        old = fmjd[pk]
        extra = row.points if pk in byes else 0
        assert row.tiebreaks["solkoff"] == old.tiebreaks["solkoff"] + extra  # type: ignore[operator]
        assert row.tiebreaks["wins"] == old.tiebreaks["wins"] + (pk in byes)  # type: ignore[operator]


def test_a_change_once_round_1_is_paired_is_level_4(swiss5: Tournament) -> None:
    t = Tournament.objects.get(pk=swiss5.pk)
    t.tiebreak_convention = "fide_c07"
    with pytest.raises(events.NeedsConfirmation) as asked:
        under_way.tournament_save(tournament=t)
    assert [w.code for w in asked.value.warnings] == [Code.TIEBREAK_CONVENTION_CHANGED]
    assert "from FMJD to FIDE C.07" in str(asked.value)
    assert Tournament.objects.get(pk=swiss5.pk).tiebreak_convention == "fmjd"
    under_way.tournament_save(tournament=t, confirmed={"tiebreak-convention-changed"})
    t = Tournament.objects.get(pk=swiss5.pk)
    assert t.tiebreak_convention == "fide_c07" and not t.in_conformance
    event = ConformanceEvent.objects.get()
    assert event.code == "tiebreak-convention-changed"
    assert describe(event) == "How the tie-breaks count unplayed rounds changed from FMJD to FIDE C.07."


def test_before_round_1_the_convention_changes_freely(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="free", rounds_total=3)
    t.tiebreak_convention = "fide_c07"
    under_way.tournament_save(tournament=t)
    t.refresh_from_db()
    assert t.tiebreak_convention == "fide_c07" and t.in_conformance


def test_the_admin_form_sets_it(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="form", rounds_total=3)
    client = Client()
    client.force_login(arbiter)
    page = client.get(change_url(t)).content.decode()
    assert 'name="tiebreak_convention"' in page and "FIDE C.07 (2024)" in page
    data = scrape_form(client, change_url(t), tiebreak_convention="fide_c07")
    response = client.post(change_url(t), data, follow=True)
    assert response.status_code == 200 and "errornote" not in response.content.decode()
    t.refresh_from_db()
    assert t.tiebreak_convention == "fide_c07"
    data = scrape_form(client, change_url(t), tiebreak_convention="chess", venue="Salle des fêtes")
    html = client.post(change_url(t), data).content.decode()
    assert "errornote" in html and 'value="Salle des fêtes"' in html  # refused, and what was typed is kept
    t.refresh_from_db()
    assert t.tiebreak_convention == "fide_c07"


def test_the_json_transfer_carries_it(swiss5: Tournament) -> None:
    Tournament.objects.filter(pk=swiss5.pk).update(tiebreak_convention="fide_c07")
    doc = export_tournament(Tournament.objects.get(pk=swiss5.pk))
    assert doc["tournament"]["tiebreak_convention"] == "fide_c07"
    assert import_tournament(loads(dumps(doc)), replace=True).tournament.tiebreak_convention == "fide_c07"
    # an export from before the setting existed: FMJD's reading, as every tournament had then
    older = loads(dumps(doc))
    del older["tournament"]["tiebreak_convention"]
    assert import_tournament(older, replace=True).tournament.tiebreak_convention == "fmjd"
    bad = loads(dumps(doc))
    bad["tournament"]["tiebreak_convention"] = "chess"
    with pytest.raises(TransferError, match="tiebreak_convention"):
        import_tournament(bad, replace=True)
    assert Tournament.objects.get(slug=swiss5.slug).tiebreak_convention == "fmjd"  # nothing half-written


def test_the_trf_export_says_it_in_a_comment(swiss5: Tournament) -> None:
    assert "### tie-break convention" not in pairing_bridge.export_trf(swiss5)
    Tournament.objects.filter(pk=swiss5.pk).update(tiebreak_convention="fide_c07")
    text = pairing_bridge.export_trf(Tournament.objects.get(pk=swiss5.pk))
    line = next(x for x in text.splitlines() if x.startswith("### tie-break convention"))
    assert line.startswith("### tie-break convention: fide_c07 (FIDE Tie-Break Regulations C.07, 2024 edition")
    assert text.index(line) < text.index("\n001 ")


def test_the_trf_import_reads_the_convention_back(swiss5: Tournament) -> None:
    from tournaments.exchange.trf_import import TrfImportError, import_trf

    Tournament.objects.filter(pk=swiss5.pk).update(tiebreak_convention="fide_c07")
    text = pairing_bridge.export_trf(Tournament.objects.get(pk=swiss5.pk))
    copy = import_trf(text, slug="copy", confirmed=["import-broke-rules", "import-not-engine-pairing"]).tournament
    assert Tournament.objects.get(pk=copy.pk).tiebreak_convention == "fide_c07"
    assert pairing_bridge.export_trf(copy).count("### tie-break convention: fide_c07") == 1
    with pytest.raises(TrfImportError, match="tie-break convention 'nonsense'"):
        import_trf(text.replace("convention: fide_c07", "convention: nonsense"), slug="bad")


def test_the_public_help_page_explains_the_tournament_s_convention(swiss5: Tournament) -> None:
    from django.urls import reverse

    url = reverse("tournaments:tournament_tiebreaks", args=[swiss5.slug])
    page = Client().get(url).content.decode()
    assert "The sum of the scores of all his opponents (FMJD Annexes 4.2 a)." in page
    assert "dummy" not in page
    Tournament.objects.filter(pk=swiss5.pk).update(tiebreak_convention="fide_c07")
    page = Client().get(url).content.decode()
    assert "Buchholz (FIDE C.07 8.1): the sum of the opponents&#x27; scores; a round without a game" in page
    assert "opponent with the player&#x27;s own final score (FIDE C.07 16.4)." in page
    assert "an opponent scoring 0, so it is the lowest score" not in page  # FMJD's rule for byes is not shown
    general = Client().get(reverse("tournaments:tiebreaks")).content.decode()
    assert "dummy" not in general  # the registry's page stays FMJD's reading
