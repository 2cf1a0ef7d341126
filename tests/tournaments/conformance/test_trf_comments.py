"""The TRF export carries the conformance events as ### lines after its header, and bbpPairings
still reads such a file: it pairs the next round exactly as from the same file without them.

bbpPairings is not a dependency: DAMIER_BBPPAIRINGS names its binary, else /tmp/bbp/bbpPairings.exe when it
exists; without one the bbpPairings test is skipped."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.tournaments.play import play_swiss_round
from tournaments.models import System, Tournament
from tournaments.rounds import pairing_bridge, under_way

pytestmark = pytest.mark.django_db
BBP = os.environ.get("DAMIER_BBPPAIRINGS") or ("/tmp/bbp/bbpPairings.exe" if Path(
    "/tmp/bbp/bbpPairings.exe").is_file() else "")


@pytest.fixture
def left(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(7, system=System.SWISS, slug="trf7", rounds_total=5)
    play_swiss_round(t)
    play_swiss_round(t)
    t = Tournament.objects.get(pk=t.pk)
    t.rounds_total = 6
    under_way.tournament_save(tournament=t, confirmed={"rounds-changed"})
    return Tournament.objects.get(pk=t.pk)


def test_the_comment_lines_sit_between_the_header_and_the_players(left) -> None:  # type: ignore[no-untyped-def]
    lines = pairing_bridge.export_trf(left).splitlines()
    comments = [i for i, line in enumerate(lines) if line.startswith("###")]
    players = [i for i, line in enumerate(lines) if line.startswith("001")]
    assert len(comments) == 2 and max(comments) < min(players)
    assert lines[comments[0]] == "### conformance mode left @ Round 2"
    assert lines[comments[1]].startswith("### rounds-changed @ Round 2: ") and "new=6 old=5" in lines[comments[1]]
    assert lines[0].startswith("012 ")


@pytest.mark.skipif(not BBP, reason="no bbpPairings binary (DAMIER_BBPPAIRINGS or /tmp/bbp/bbpPairings.exe)")
def test_bbppairings_reads_a_file_with_comment_lines(left, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    with_comments = pairing_bridge.export_trf(left)
    without = "".join(line for line in with_comments.splitlines(keepends=True) if not line.startswith("###"))
    assert with_comments != without
    out = []
    for name, text in (("with", with_comments), ("without", without)):
        src, pairs = tmp_path / f"{name}.trf", tmp_path / f"{name}.txt"
        src.write_text(text, encoding="utf-8")
        done = subprocess.run([BBP, "--dutch", str(src), "-p", str(pairs)], capture_output=True, text=True,
                              check=False)
        assert done.returncode == 0, f"bbpPairings refused the file: {done.stdout} {done.stderr}\n{text}"
        out.append(pairs.read_text())
    assert out[0] == out[1] and len(out[0].split()) > 2
