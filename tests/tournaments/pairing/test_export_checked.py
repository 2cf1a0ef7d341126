"""A Swiss tournament run in Damier and exported (manage.py export_trf) passes Damier's own checker:
every round as the engine pairs it, and the ranks in columns 86-89 as its tie-break list (record 202)
gives them (VCL question 21: the checker on our own TRF exports)."""

from __future__ import annotations

import random

from tournaments.models import Round, System, Tournament
from tournaments.pairing.trf import parse_trf
from tournaments.rounds import pairing_bridge, services
from tournaments.verification.file_check import check_file


def _play(rnd: Round, rng: random.Random) -> None:
    services.round_publish(round=rnd)
    for g in rnd.games.all():
        if not g.result:
            services.game_record_result(game=g, result=rng.choice(["2-0", "1-1", "0-2", "2-0", "0-2", "2F-0F"]))
    services.round_complete(round=rnd)


def test_an_exported_tournament_passes_the_checker(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t: Tournament = make_tournament(11, system=System.SWISS, slug="chk", rounds_total=5)
    t.tiebreaks = ["solkoff", "sonneborn_berger", "wins"]
    t.save()
    rng = random.Random(3)
    for _ in range(5):
        _play(services.round_pair(tournament=t), rng)
    text = pairing_bridge.export_trf(t, next_round=6)
    trf = parse_trf(text)
    assert trf.tiebreaks == ("BH", "SB", "WIN")
    report = check_file(trf)
    assert [r.round for r in report.rounds] == [1, 2, 3, 4, 5]
    assert all(r.ok for r in report.rounds)
    assert report.standings_skipped == "" and report.ranks == [] and report.points == []
    assert report.ok
