"""A TRF round trip keeps what happened (VCL4THP Q45 and Q217): a tournament that left the conformance mode is
still outside it once its TRF is imported, with every event its `###` lines carry, and the copy writes the
same file."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command

from tests.tournaments.play import play_swiss_round
from tournaments.exchange.trf_events import read_conformance
from tournaments.exchange.trf_import import import_trf, review_trf
from tournaments.exchange.trf_review_text import review_text
from tournaments.models import ConformanceEvent, System, Tournament
from tournaments.rounds import pairing_bridge, under_way

pytestmark = pytest.mark.django_db


def _events(t: Tournament) -> list[tuple[str, int, int, dict, bool]]:
    return [(e.code, e.round_number, e.level, e.values, e.left_mode)
            for e in ConformanceEvent.objects.filter(tournament=t).order_by("id")]


@pytest.fixture
def left(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(7, system=System.SWISS, slug="trf7", rounds_total=5)
    play_swiss_round(t)
    play_swiss_round(t)
    t = Tournament.objects.get(pk=t.pk)
    t.rounds_total = 6
    under_way.tournament_save(tournament=t, confirmed={"rounds-changed"})
    return Tournament.objects.get(pk=t.pk)


def test_a_tournament_that_left_the_mode_is_imported_outside_it_with_its_events(left, tmp_path: Path,
                                                                                capsys) -> None:
    text = pairing_bridge.export_trf(left)
    assert "### conformance mode left @ Round 2" in text
    src = tmp_path / "left.trf"
    src.write_text(text, encoding="utf-8")
    call_command("import_trf", str(src), "--slug", "copy")
    out = capsys.readouterr().out
    assert "the tournament left the conformance mode (round 2); the import keeps it outside the mode" in out
    assert "1 conformance event(s) read" in out
    copy = Tournament.objects.get(slug="copy")
    assert not copy.in_conformance and copy.conformance_left_round == 2
    assert _events(copy) == _events(left)
    assert _events(copy)[0][:3] == ("rounds-changed", 2, 4) and _events(copy)[0][4] is True
    assert pairing_bridge.export_trf(copy) == text  # and the copy's file says the same


def test_the_line_alone_or_a_leaving_event_alone_keeps_the_tournament_outside(left) -> None:
    text = pairing_bridge.export_trf(left)
    only_line = "\n".join(x for x in text.splitlines() if not x.startswith("### rounds-changed")) + "\n"
    only_event = "\n".join(x for x in text.splitlines() if not x.startswith("### conformance mode")) + "\n"
    assert import_trf(only_line, slug="a").tournament.conformance_left_round == 2
    assert import_trf(only_event, slug="b").tournament.conformance_left_round == 2
    plain = "\n".join(x for x in text.splitlines() if not x.startswith("###")) + "\n"
    assert import_trf(plain, slug="c").tournament.in_conformance


def test_values_come_back_as_numbers_lists_and_text() -> None:
    found = read_conformance(
        "012 X\n### conformance mode left @ before Round 1\n"
        "### manual-pairing @ Round 3: engine=1-2,3-4 pairing=1-3 round=3\n"
        "### rematch @ Round 3: numbers=4,7 pair=Smith, John – Doe, Jane\n"
        "### late-entry @ Round 2: number=9 player=de Vries, Jan\n"
        "### system-changed @ Round 2: new=swiss old=round_robin round=2\n"  # a refusal: never an event
        "### rating tie-breaks: unrated=drop ratings=first long-event=no\n"  # a setting, not an event
        "### SSS NNNN\n")
    assert found.left_round == 0 and found.left_line == 2
    assert [(e.code, e.round, e.values) for e in found.events] == [
        ("manual-pairing", 3, {"engine": ["1-2", "3-4"], "pairing": ["1-3"], "round": 3}),
        ("rematch", 3, {"numbers": [4, 7], "pair": "Smith, John – Doe, Jane"}),
        ("late-entry", 2, {"number": 9, "player": "de Vries, Jan"}),
    ]


def test_a_confirmed_import_round_is_not_recorded_twice_on_a_second_round_trip(tmp_path: Path) -> None:
    from tests.tournaments.exchange.test_trf_review import REMATCH

    both = ["import-broke-rules", "import-not-engine-pairing"]  # every level-3 question an import asks
    first = import_trf(REMATCH, slug="one", confirmed=both).tournament
    text = pairing_bridge.export_trf(first)
    assert "### import-broke-rules @ Round 3" in text and "### import-not-engine-pairing @ Round 1" in text
    reviewed = review_trf(text)
    assert "2 conformance event(s) read" in review_text(reviewed.review)
    second = import_trf(text, slug="two", confirmed=both).tournament
    assert _events(second) == _events(first) and second.in_conformance


def test_a_round_no_tournament_has_is_refused_naming_the_line() -> None:
    """A forged ### line must not reach the database's small integer: the message names it."""
    from tests.tournaments.exchange.test_trf_review import TRF16
    from tournaments.exchange.trf_import import TrfImportError

    forged = TRF16.replace("XXR", "### rounds-changed @ Round 40000: new=6 old=5\nXXR", 1)
    with pytest.raises(TrfImportError, match=r"line \d+ \(###\): round 40000 is not a round of this \d+-round"):
        review_trf(forged)


def test_the_rating_tie_break_settings_and_later_ratings_come_back(make_tournament) -> None:
    """Q208-Q216's settings travel as ### lines too: the copy ranks its players as the original does."""
    from tournaments import selectors
    from tournaments.models import EntryRating

    t = make_tournament(6, system=System.SWISS, slug="long", rounds_total=3,
                        tiebreaks=["average_rating", "sonneborn_berger"])
    play_swiss_round(t)
    play_swiss_round(t)
    t.long_event, t.tiebreak_rating_round, t.unrated_method, t.unrated_rating = True, 2, "fixed", 1800
    t.save()
    EntryRating.objects.create(entry=t.entries.get(pairing_number=4), from_round=2, rating=2000)
    text = pairing_bridge.export_trf(t)
    assert "### rating tie-breaks: unrated=fixed 1800 ratings=round 2 long-event=yes" in text
    reviewed = review_trf(text)
    assert "the rating tie-breaks' settings and 1 later rating(s) read" in review_text(reviewed.review)
    copy = import_trf(text, slug="copy").tournament
    copy.refresh_from_db()
    assert (copy.long_event, copy.tiebreak_rating_round, copy.unrated_method, copy.unrated_rating) == (
        True, 2, "fixed", 1800)
    assert list(EntryRating.objects.filter(entry__tournament=copy).values_list(
        "entry__pairing_number", "from_round", "rating")) == [(4, 2, 2000)]
    rows = [(r.player.pairing_number, r.tiebreaks) for r in selectors.standings(t)]
    assert [(r.player.pairing_number, r.tiebreaks) for r in selectors.standings(copy)] == rows
    assert pairing_bridge.export_trf(copy) == text


def test_a_rating_line_that_does_not_read_is_refused_naming_it(left) -> None:
    from tournaments.exchange.trf_import import TrfImportError

    text = pairing_bridge.export_trf(left).replace("XXR", "### later rating: player=2 from-round=one\nXXR", 1)
    with pytest.raises(TrfImportError, match=r"line \d+ \(###\): 'later rating: player=2 from-round=one'"):
        review_trf(text)
