"""Round robins have a TRF too (VCL4THP Q217): single and double round robins export their TRF-2026 file
(192, 202, the ### lines) and import it back; the checker reads it and says why it does not replay it."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.conformance import events
from tournaments.exchange.trf_import import TrfImportError, import_trf, review_trf
from tournaments.exchange.trf_review_text import review_text
from tournaments.models import ConformanceEvent, Game, System, Tournament
from tournaments.players import roster
from tournaments.rounds import pairing_bridge, under_way
from tournaments.verification.__main__ import main as pairing_main

pytestmark = pytest.mark.django_db


def _games(t: Tournament) -> set[tuple[int, int, int | None, str]]:
    return {(g.round.number, g.white.pairing_number, g.black.pairing_number if g.black else None, g.result)
            for g in Game.objects.filter(round__tournament=t).select_related("round", "white", "black")}


@pytest.fixture
def rr5(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    """A single round robin of five (a free round each), finished, that left the conformance mode."""
    t = make_tournament(5, system=System.ROUND_ROBIN, slug="rr5", tiebreaks=["sonneborn_berger", "wins"])
    for results in ({1: "2-0"}, {2: "0-2"}, {1: "0-2", 2: "2-0"}):
        play_round(t, results)
    t = Tournament.objects.get(pk=t.pk)
    t.tiebreaks = ["wins", "sonneborn_berger"]
    under_way.tournament_save(tournament=t, confirmed={"tiebreaks-changed"})
    play_round(t, {1: "2-0"})
    play_round(t)
    return Tournament.objects.get(pk=t.pk)


def test_a_round_robin_exports_its_trf_2026_file(rr5, client: Client, arbiter) -> None:
    text = pairing_bridge.export_trf(rr5)
    lines = text.splitlines()
    assert "092 Individual: Round robin" in lines and "192 BERGER_ROUNDROBIN" in lines
    assert "202 WIN SB" in lines and "XXR 5" in lines
    assert "162  W 2.0    D 1.0    L 0.0    Z 0.0    P 0.0" in lines  # the free round is worth nothing
    assert "### conformance mode left @ Round 3" in lines
    assert any(x.startswith("### tiebreaks-changed @ Round 3") for x in lines)
    assert sum(x.count("0000 - U") for x in lines) == 5  # each player's free round
    client.force_login(arbiter)
    response = client.post(reverse("admin:tournaments_tournament_changelist"),
                           {"action": "export_trf", "_selected_action": [rr5.pk]})
    assert response.status_code == 200 and response["Content-Disposition"] == 'attachment; filename="rr5.trf"'
    assert response.content.decode() == text


def test_the_command_exports_a_round_robin(rr5, capsys) -> None:
    call_command("export_trf", "rr5")
    assert "192 BERGER_ROUNDROBIN" in capsys.readouterr().out


def test_a_round_robin_comes_back_from_its_trf(rr5, tmp_path: Path, capsys) -> None:
    text = pairing_bridge.export_trf(rr5)
    src = tmp_path / "rr5.trf"
    src.write_text(text, encoding="utf-8")
    call_command("import_trf", str(src), "--slug", "copy")
    out = capsys.readouterr().out
    assert "Tie-breaks (202): WIN, SB, kept as the tournament's tie-break order." in out
    assert "5 imported round(s) replayed; 0 break(s) the rules, 0 other(s) differ" in out
    copy = Tournament.objects.get(slug="copy")
    assert copy.system == System.ROUND_ROBIN and copy.tiebreaks == ["wins", "sonneborn_berger"]
    assert copy.conformance_left_round == 3 and ConformanceEvent.objects.filter(tournament=copy).count() == 1
    assert _boards(copy) == _boards(rr5)  # board by board, in the table's order
    assert pairing_bridge.export_trf(copy) == text


def test_a_double_round_robin_half_played_comes_back_and_goes_on_by_the_table(make_tournament) -> None:
    for reversed_, code in ((True, "FIDE_DOUBLEROUNDROBIN"), (False, "BERGER_DOUBLEROUNDROBIN")):
        t = make_tournament(4, system=System.DOUBLE_ROUND_ROBIN, slug=f"d{code}", rr_reverse_last_two=reversed_,
                            tiebreaks=["sonneborn_berger"])
        for _ in range(4):
            play_round(t, {1: "2-0"})
        text = pairing_bridge.export_trf(t)
        assert f"192 {code}" in text.splitlines() and "XXR 6" in text.splitlines()
        copy = import_trf(text, slug=f"c{code}".lower()).tournament
        assert copy.system == System.DOUBLE_ROUND_ROBIN and copy.rr_reverse_last_two is reversed_
        assert _games(copy) == _games(t)
        assert pairing_bridge.export_trf(copy) == text
        for tournament in (t, copy):  # both pair round 5 from the same table
            play_round(tournament, {1: "2-0"})
        assert _games(copy) == _games(t)


def _rr_file(rounds: list[list[tuple[int, int]]], n: int = 4, system: str = "BERGER_ROUNDROBIN") -> str:
    """A round robin of n players, White winning every game of the given rounds."""
    cells: dict[int, list[str]] = {p: [] for p in range(1, n + 1)}
    for boards in rounds:
        for w, b in boards:
            cells[w].append(f"{b:4d} w 1")
            cells[b].append(f"{w:4d} b 0")
    lines = ["012 Hand RR", f"192 {system}", f"XXR {n - 1}"]
    for p in range(1, n + 1):
        lines.append((f"001 {p:4d}      {f'P{p}, X':<33} 2000 {'':3} {'':11} {'':10} {'':>4} {p:4d}  "
                      + "  ".join(cells[p])).rstrip())
    return "\n".join(lines) + "\n"


TABLE4 = [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]  # FIDE C.05 Annex 1, four players


def test_a_round_robin_round_off_the_table_is_listed_one_breaking_its_rules_confirmed() -> None:
    assert not review_trf(_rr_file(TABLE4)).review.rounds[0].differs
    swapped = review_trf(_rr_file([TABLE4[1], TABLE4[0], TABLE4[2]])).review
    assert not swapped.broken_rounds and [r.round for r in swapped.rounds if r.differs] == [1, 2]
    text = review_text(swapped)
    assert "Round 1 keeps the rules but" in text
    repeat = _rr_file([TABLE4[0], [(1, 4), (3, 2)], TABLE4[2]])  # 1-4 meet again in round 2; 4 Black thrice
    review = review_trf(repeat).review
    assert [r.round for r in review.broken_rounds] == [2, 3]
    assert "a pair meeting twice in one cycle of the round robin: players 1, 4" in review_text(review)
    assert "the same colour three times in a row: players 4" in review_text(review)
    with pytest.raises(events.NeedsConfirmation):
        import_trf(repeat, slug="rep")
    t = import_trf(repeat, slug="rep", confirmed=["import-broke-rules", "import-not-engine-pairing"]).tournament
    assert t.system == System.ROUND_ROBIN and t.in_conformance
    assert [e.round_number for e in ConformanceEvent.objects.filter(tournament=t, code="import-broke-rules")] == [2, 3]


def test_a_round_robin_file_that_damier_could_not_carry_on_is_refused_naming_why(rr5) -> None:
    text = pairing_bridge.export_trf(rr5)
    with pytest.raises(TrfImportError, match=r"a round robin of 5 players has 5 rounds \(the Berger table, FIDE "
                                             r"C.05 Annex 1\); the file \(142 / XXR\) says 6"):
        review_trf(text.replace("XXR 5", "XXR 6"))
    with pytest.raises(TrfImportError, match=r"a round robin needs the starting ranks 1 to 4 without gaps"):
        review_trf(_rr_file(TABLE4).replace("001    4 ", "001    7 ").replace("   4 w", "   7 w")
                   .replace("   4 b", "   7 b"))


def test_the_checker_reads_a_round_robin_and_says_why_it_does_not_replay_it(rr5, tmp_path: Path, capsys) -> None:
    src = tmp_path / "rr5.trf"
    src.write_text(pairing_bridge.export_trf(rr5), encoding="utf-8")
    assert pairing_main(["--dutch", str(src), "-c"]) == 2
    err = capsys.readouterr().err
    assert "round robins are not paired by the Dutch rules" in err and "BERGER_ROUNDROBIN" in err


def test_review_text_names_a_round_robin_without_the_swiss_default(rr5) -> None:
    text = review_text(review_trf(pairing_bridge.export_trf(rr5)).review)
    assert "Swiss paired by the FMJD rules" not in text


def test_a_withdrawal_comes_back_with_the_games_not_played(make_tournament) -> None:
    t = make_tournament(5, system=System.ROUND_ROBIN, slug="rrw", tiebreaks=["sonneborn_berger"])
    play_round(t, {1: "2-0"})
    play_round(t, {1: "2F-0F"})
    roster.entry_withdraw(entry=t.entries.get(pairing_number=5), after_round=2)
    for _ in range(3):
        play_round(t)
    text = pairing_bridge.export_trf(t)
    copy = import_trf(text, slug="copy").tournament
    gone = copy.entries.get(pairing_number=5)
    assert gone.is_withdrawn and gone.withdrawn_after_round == 2
    assert _boards(copy) == _boards(t)  # boards, results and games not played, in the table's order
    assert pairing_bridge.export_trf(copy) == text


def _boards(t: Tournament) -> list[tuple[int, int, int, int | None, str]]:
    games = Game.objects.filter(round__tournament=t).select_related("round", "white", "black")
    return sorted((g.round.number, g.board, g.white.pairing_number, g.black.pairing_number if g.black else None,
                   g.result) for g in games)


def test_the_admin_imports_a_round_robin_after_its_review(rr5, client: Client, arbiter) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(arbiter)
    url = reverse("admin:tournaments_tournament_import_trf")
    upload = SimpleUploadedFile("rr5.trf", pairing_bridge.export_trf(rr5).encode("cp1252"))
    page = client.post(url, {"file": upload, "slug": "rr-copy", "review": "1"}).content.decode()
    assert "Review (nothing written yet)" in page and "conformance event(s) read" in page
    response = client.post(url, {"text": pairing_bridge.export_trf(rr5), "slug": "rr-copy", "import": "1"})
    copy = Tournament.objects.get(slug="rr-copy")
    assert response.status_code == 302 and copy.system == System.ROUND_ROBIN and not copy.in_conformance


def test_a_round_robin_too_big_to_check_is_refused_before_its_table_is_made() -> None:
    """9,999 players claiming a round robin would make a Berger table of 50 million boards in the request."""
    lines = ["012 Huge", "192 BERGER_ROUNDROBIN", "XXR 1001"]
    lines += [f"001 {k:4d}      {f'P{k}, X':<33} 2000" for k in range(1, 1002)]
    with pytest.raises(TrfImportError, match=r"a round robin of 1001 players: Damier imports round robins of up to "
                                             r"1,000 players"):
        review_trf("\n".join(lines) + "\n")


def test_a_trf16_round_robin_without_a_number_of_rounds_takes_the_tables() -> None:
    """Older writers say 'Round robin' in 092 and give no 142 / XXR: the Berger table knows the rounds."""
    text = _rr_file(TABLE4).replace("192 BERGER_ROUNDROBIN", "092 Round Robin").replace("XXR 3\n", "")
    reviewed = review_trf(text)
    assert reviewed.review.system == System.ROUND_ROBIN and reviewed.trf.total_rounds == 3
    assert "Number of rounds: not in the file (no 142 or XXR); 3, the round robin's Berger table." in review_text(
        reviewed.review)
    t = import_trf(text, slug="old-rr").tournament
    assert t.system == System.ROUND_ROBIN and t.rounds.count() == 3


def test_a_round_robin_with_tie_breaks_meaningless_there_is_refused_at_the_review() -> None:
    text = _rr_file(TABLE4).replace("XXR 3", "XXR 3\n202 BH SB")
    with pytest.raises(TrfImportError, match=r"202: solkoff mean nothing in a round robin"):
        review_trf(text)
