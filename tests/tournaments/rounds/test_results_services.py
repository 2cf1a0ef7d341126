"""The unusual results through the services: recorded, refused, confirmed, recorded as events, and followed
by the standings, the engine and the TRF."""

from __future__ import annotations

import pytest

from tournaments import selectors
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError
from tournaments.exchange.trf_import import import_trf
from tournaments.models import Game, System, Tournament
from tournaments.players import roster
from tournaments.players.requested_byes import bye_request
from tournaments.ranking import final_standings
from tournaments.results import Result
from tournaments.rounds import pairing_bridge, postponed, services

pytestmark = pytest.mark.django_db


def _swiss(make_tournament, n: int = 6, rounds: int = 3):  # type: ignore[no-untyped-def]
    return make_tournament(n, system=System.SWISS, slug=f"s{n}", rounds_total=rounds)


def _pair(t):  # type: ignore[no-untyped-def]
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    return rnd


def _board(rnd, board: int) -> Game:  # type: ignore[no-untyped-def]
    return rnd.games.select_related("white", "black").get(board=board)


def _points(t) -> dict[int, int]:  # type: ignore[no-untyped-def]
    return {r.player.pairing_number: r.points for r in selectors.standings(t)}


def _codes(t) -> list[str]:  # type: ignore[no-untyped-def]
    return [e.code for e in t.conformance_events.all()]


def test_a_ruling_and_a_requested_bye_worth_a_draw_are_followed_by_standings_and_trf(make_tournament):  # type: ignore[no-untyped-def]
    """What the lead's browser test does: a 1-0 ruling and a 1-point requested bye."""
    t = _swiss(make_tournament, 5)
    rnd = _pair(t)  # 5 players: boards 1-2 games, board 3 the bye
    b1 = _board(rnd, 1)
    services.game_record_result(game=b1, result="1-0")
    services.game_record_result(game=_board(rnd, 2), result="2-0")
    services.game_record_result(game=_board(rnd, 3), result="bye")
    services.round_complete(round=rnd)
    later = t.entries.get(pairing_number=_board(rnd, 2).black.pairing_number)
    bye_request(entry=later, round_number=2, points=1)
    rnd2 = _pair(t)
    excused = rnd2.games.get(white=later, black__isnull=True)
    assert excused.result == Result.EXCUSED_DRAW
    for game in rnd2.games.filter(result=""):
        services.game_record_result(game=game, result="1-1" if game.black_id else "bye")
    after1 = {r.player.pairing_number: r.points for r in selectors.standings(t, after_round=1)}
    assert after1[b1.white.pairing_number] == 1 and after1[b1.black.pairing_number] == 0
    assert after1[later.pairing_number] == 0 and _points(t)[later.pairing_number] == 1  # the bye worth a draw
    request = pairing_bridge.pairing_request(t, list(t.entries.select_related("player")), 3)
    hist = {p.id: p.history for p in request.players}
    assert hist[b1.white.pairing_number][0].played and hist[b1.white.pairing_number][0].points == 1
    assert hist[later.pairing_number][1].requested and hist[later.pairing_number][1].points == 1
    trf = pairing_bridge.export_trf(t, next_round=3)
    lines = {int(x[4:8]): x for x in trf.splitlines() if x.startswith("001")}
    assert f"{b1.black.pairing_number:4d} w =" in lines[b1.white.pairing_number]
    assert f"{b1.white.pairing_number:4d} b 0" in lines[b1.black.pairing_number]
    assert lines[later.pairing_number].endswith("0000 - H")


def test_requested_byes_the_checklist_levels(make_tournament):  # type: ignore[no-untyped-def]
    t = _swiss(make_tournament, 6, rounds=5)
    a, b, c = (t.entries.get(pairing_number=n) for n in (1, 2, 3))
    bye_request(entry=a, round_number=1, points=1)  # the first bye worth a draw: no warning
    with pytest.raises(events.NeedsConfirmation) as asked:  # the second one: level 3 (Q174)
        bye_request(entry=a, round_number=3, points=1)
    assert [w.code for w in asked.value.warnings] == [Code.HALF_POINT_BYE]
    bye_request(entry=a, round_number=3, points=1, confirmed=["half-point-bye"])
    assert _codes(t) == ["half-point-bye"]
    bye_request(entry=b, round_number=2, points=2)  # worth a win: a notice (Q178), recorded, ### (Q179)
    assert _codes(t) == ["half-point-bye", "full-point-bye"]
    assert any(line.startswith("### full-point-bye @ Round 2: player=2. ") for line in events.trf_lines(t))
    c.no_half_bye = True  # Q175-176: a player the regulations exclude
    c.save()
    with pytest.raises(DomainError, match="may not have a requested bye worth a draw"):
        bye_request(entry=c, round_number=2, points=1)
    for wrong in (3, -1):
        with pytest.raises(DomainError, match="0, 1 or 2 points"):
            bye_request(entry=c, round_number=2, points=wrong)
    rnd = _pair(t)
    assert rnd.games.get(white=a, black__isnull=True).result == Result.EXCUSED_DRAW
    with pytest.raises(DomainError, match="not paired yet"):
        bye_request(entry=b, round_number=1, points=0)


def test_a_requested_bye_changed_on_the_round_page_asks_the_same(make_tournament):  # type: ignore[no-untyped-def]
    t = _swiss(make_tournament, 6)
    a = t.entries.get(pairing_number=4)
    a.excused_rounds = [1, 2]
    a.save()
    rnd = _pair(t)
    board = rnd.games.get(white=a, black__isnull=True)
    assert board.result == Result.EXCUSED
    services.game_record_result(game=board, result="excused-1")
    for game in rnd.games.filter(result=""):
        services.game_record_result(game=game, result="1-1")
    services.round_complete(round=rnd)
    rnd2 = _pair(t)
    board2 = rnd2.games.get(white=a, black__isnull=True)
    with pytest.raises(events.NeedsConfirmation):
        services.game_record_result(game=board2, result="excused-1")
    services.game_record_result(game=board2, result="excused-1", confirmed=["half-point-bye"])
    services.game_record_result(game=board2, result="excused-2")  # a notice: recorded, not asked
    assert _codes(t) == ["half-point-bye", "full-point-bye"]


def test_what_cannot_be_is_refused(make_tournament):  # type: ignore[no-untyped-def]
    t = _swiss(make_tournament, 5)
    rnd = _pair(t)
    game, bye = _board(rnd, 1), _board(rnd, 3)
    for wrong in ("excused-1", "excused-2", "bye"):
        with pytest.raises(DomainError, match="not a result for a game between two players"):
            services.game_record_result(game=game, result=wrong)
    for wrong in ("1-0", "0-0", "postponed", "2-0U"):
        with pytest.raises(DomainError, match="not a result for a bye"):
            services.game_record_result(game=bye, result=wrong)
    for wrong in ("1-1F", "2-1", "1F-0F", "2-2"):
        with pytest.raises(DomainError, match="Unknown result"):
            services.game_record_result(game=game, result=wrong)


def test_a_postponed_game_counts_as_a_draw_until_its_result_is_in(make_tournament):  # type: ignore[no-untyped-def]
    t = _swiss(make_tournament, 6, rounds=2)
    rnd = _pair(t)
    first = _board(rnd, 1)
    services.game_record_result(game=first, result="postponed")
    for board in (2, 3):
        services.game_record_result(game=_board(rnd, board), result="2-0")
    services.round_complete(round=rnd)  # Q158: it pairs with the game open
    assert _points(t)[first.white.pairing_number] == 1  # Q167: provisionally a draw, never another score
    trf = pairing_bridge.export_trf(t)
    assert f"{first.black.pairing_number:4d} w ?" in trf and f"{first.white.pairing_number:4d} b ?" in trf  # Q164
    rnd2 = _pair(t)  # Q168: a notice, recorded
    assert _codes(t) == ["paired-with-postponed"]
    for game in rnd2.games.all():
        services.game_record_result(game=game, result="2-0")
    services.round_complete(round=rnd2)
    state = final_standings.final_state(t)
    assert not state.final and state.open_postponed == (postponed.game_value(first),)  # Q161
    with pytest.raises(DomainError, match="No final TRF file yet: the postponed game R1 B1"):  # Q169
        pairing_bridge.export_trf(t)
    with pytest.raises(DomainError, match="No final standings yet"):
        final_standings.ties_draw_lots(tournament=t)
    # Q162-163: entered later, in a completed round, without a reason; not a draw asks first
    first.refresh_from_db()
    before = _points(t)[first.white.pairing_number]
    with pytest.raises(events.NeedsConfirmation):
        services.game_record_result(game=first, result="2-0")
    services.game_record_result(game=first, result="2-0", confirmed=["postponed-not-draw"])
    assert _codes(t) == ["paired-with-postponed", "postponed-not-draw"]
    assert _points(t)[first.white.pairing_number] == before + 1  # the draw counted for now becomes a win
    assert final_standings.final_state(t).final
    assert "?" not in pairing_bridge.export_trf(t).replace("???", "")


def test_a_postponed_game_played_as_a_draw_asks_nothing(make_tournament):  # type: ignore[no-untyped-def]
    t = _swiss(make_tournament, 4, rounds=1)
    rnd = _pair(t)
    services.game_record_result(game=_board(rnd, 1), result="postponed")
    services.game_record_result(game=_board(rnd, 2), result="0-2")
    services.round_complete(round=rnd)
    services.game_record_result(game=_board(rnd, 1), result="1-1")
    assert _codes(t) == []


def test_an_expelled_player_is_not_paired_nor_ranked_but_his_games_count(make_tournament):  # type: ignore[no-untyped-def]
    t = _swiss(make_tournament, 6)
    rnd = _pair(t)
    game = _board(rnd, 1)
    services.game_record_result(game=game, result="0-2")  # the expelled player (black) won
    for board in (2, 3):
        services.game_record_result(game=_board(rnd, board), result="1-1")
    services.round_complete(round=rnd)
    expelled = t.entries.get(pk=game.black_id)
    before = {r.player.pairing_number: r.tiebreaks for r in selectors.standings(t)}
    roster.entry_expel(entry=expelled)
    assert t.entries.get(pk=expelled.pk).is_expelled
    rows = selectors.standings(t)
    assert [r.expelled for r in rows][-1] and rows[-1].rank is None  # listed last, unranked
    data = selectors.tournament_data(t)
    lines = selectors.standing_lines(t, data, None)
    assert expelled.pk not in {ln.player.entry_id for ln in lines}  # Q198: left out of the standings
    assert {r.player.pairing_number: r.tiebreaks for r in rows} == before  # his games count for the others
    cross = selectors.crosstable(t, public_only=False, data=data)
    assert any(ln.standing.player.entry_id == expelled.pk for ln in cross.lines)
    rnd2 = _pair(t)  # Q197: not paired
    assert not rnd2.games.filter(white=expelled).exists() and not rnd2.games.filter(black=expelled).exists()
    with pytest.raises(DomainError, match="already expelled"):
        roster.entry_expel(entry=expelled)


def _tied_final(make_tournament):  # type: ignore[no-untyped-def]
    """Four players, one round, two draws: everyone on 1 point, no tie-break separates them."""
    t = _swiss(make_tournament, 4, rounds=1)
    t.tiebreaks = ["wins"]
    t.save()
    rnd = _pair(t)
    for game in rnd.games.all():
        services.game_record_result(game=game, result="1-1")
    return t, rnd


def test_standings_are_provisional_until_the_last_round_is_completed(make_tournament):  # type: ignore[no-untyped-def]
    t, rnd = _tied_final(make_tournament)
    state = final_standings.final_state(t)
    assert not state.final and "not completed" in final_standings.status_text(state)
    with pytest.raises(DomainError, match="once the last round is completed"):
        final_standings.ties_draw_lots(tournament=t)
    services.round_complete(round=rnd)
    assert final_standings.final_state(t).final


def test_lots_are_drawn_once_recorded_and_the_same_when_drawn_again(make_tournament):  # type: ignore[no-untyped-def]
    t, rnd = _tied_final(make_tournament)
    services.round_complete(round=rnd)
    assert [r.rank for r in selectors.standings(t)] == [1, 1, 1, 1]  # Q203: shared until decided
    with pytest.raises(events.NeedsConfirmation):
        final_standings.ties_draw_lots(tournament=t)
    seed = final_standings.ties_draw_lots(tournament=t, confirmed=["lots-drawn"])
    t.refresh_from_db()
    order = [r.player.pairing_number for r in selectors.standings(t)]
    assert [r.rank for r in selectors.standings(t)] == [1, 2, 3, 4]
    assert final_standings.ties_draw_lots(tournament=t, confirmed=["lots-drawn"]) == seed  # Q206
    t.refresh_from_db()
    assert [r.player.pairing_number for r in selectors.standings(t)] == order
    assert _codes(t) == ["lots-drawn"] and t.conformance_events.get().values["seed"] == seed
    assert t.in_conformance


def test_lots_are_drawn_with_the_seed_the_question_showed(make_tournament):  # type: ignore[no-untyped-def]
    t, rnd = _tied_final(make_tournament)
    services.round_complete(round=rnd)
    with pytest.raises(events.NeedsConfirmation) as asked:
        final_standings.ties_draw_lots(tournament=t)
    shown = asked.value.warnings[0].values
    other = {**shown, "groups": ["9=8"]}  # a question about other ties: asked again, whatever was ticked
    with pytest.raises(events.NeedsConfirmation):
        final_standings.ties_draw_lots(tournament=t, confirmed=["lots-drawn"], shown=other)
    assert final_standings.ties_draw_lots(tournament=t, confirmed=["lots-drawn"], shown=shown) == shown["seed"]
    t.refresh_from_db()
    assert t.lots_seed == shown["seed"] and t.conformance_events.get().values == shown


def test_tied_players_ordered_by_hand(make_tournament):  # type: ignore[no-untyped-def]
    t, rnd = _tied_final(make_tournament)
    services.round_complete(round=rnd)
    with pytest.raises(DomainError, match="every player of a shared place"):
        final_standings.ties_order_by_hand(tournament=t, order=[3, 1], confirmed=["ranked-by-hand"])
    with pytest.raises(DomainError, match="named twice"):
        final_standings.ties_order_by_hand(tournament=t, order=[3, 3, 1, 2], confirmed=["ranked-by-hand"])
    with pytest.raises(events.NeedsConfirmation):
        final_standings.ties_order_by_hand(tournament=t, order=[3, 1, 4, 2])
    final_standings.ties_order_by_hand(tournament=t, order=[3, 1, 4, 2], confirmed=["ranked-by-hand"])
    t.refresh_from_db()
    rows = selectors.standings(t)
    assert [(r.rank, r.player.pairing_number) for r in rows] == [(1, 3), (2, 1), (3, 4), (4, 2)]
    assert _codes(t) == ["ranked-by-hand"] and t.in_conformance  # level 3: confirmed, recorded


def _line(number: int, name: str, points: str, *cells: str) -> str:
    head = f"001 {number:4d}      {name:<33} {2100 - 100 * number:4d} NED {'':>11} {'':<10} {points:>4} {number:4d}  "
    return head + "  ".join(cells)


# R1: 1-2 a 1-0 ruling, 3-4 2-0, 5 the bye; R2: 3-1 0-2 not rated, 2 a bye worth a draw, 4-5 a draw not rated;
# R3: 2-4 postponed, 5-3 0-0 by ruling, 1 a bye worth a win; round 4 to pair: 3 asked for a bye worth a draw
TRF = "\n".join([
    "012 Odd results", "XXR 4",
    _line(1, "Alpha, A", "5.0", "   2 w =", "   3 b W", "0000 - F"),
    _line(2, "Beta, B", "2.0", "   1 b 0", "0000 - H", "   4 w ?"),
    _line(3, "Gamma, C", "2.0", "   4 w 1", "   1 w L", "   5 b 0", "0000 - H"),
    _line(4, "Delta, D", "2.0", "   3 b 0", "   5 w D", "   2 b ?"),
    _line(5, "Eps, E", "3.0", "0000 - U", "   4 b D", "   3 w 0"),
]) + "\n"


def test_a_trf_with_every_kind_imports_and_exports_the_same_codes(make_tournament):  # type: ignore[no-untyped-def]
    result = import_trf(TRF, confirmed=["import-not-engine-pairing"])  # hand-made rounds, not the engine's
    t = result.tournament
    assert result.rounds == 3
    kinds = {(g.round.number, g.white.pairing_number): g.result for g in Game.objects.filter(round__tournament=t)
             .select_related("round", "white")}
    assert kinds[(1, 1)] == Result.WHITE_RULED and kinds[(2, 3)] == Result.BLACK_WINS_UNRATED
    assert kinds[(2, 4)] == Result.DRAW_UNRATED and kinds[(2, 2)] == Result.EXCUSED_DRAW
    assert kinds[(3, 2)] == Result.POSTPONED and kinds[(3, 5)] == Result.BOTH_LOSE
    assert kinds[(3, 1)] == Result.EXCUSED_WIN
    entry = t.entries.get(pairing_number=3)
    assert entry.bye_points == {"4": 1} and 4 in entry.excused_rounds
    out = pairing_bridge.export_trf(t, next_round=4)
    lines = {int(x[4:8]): x for x in out.splitlines() if x.startswith("001")}
    for number in range(1, 6):
        assert lines[number][91:] == TRF.splitlines()[1 + number][91:], number
    assert {n: float(lines[n][80:84]) for n in lines} == {1: 5.0, 2: 2.0, 3: 2.0, 4: 2.0, 5: 3.0}
    assert _points(t) == {1: 5, 2: 2, 3: 2, 4: 2, 5: 3}


def test_the_json_transfer_keeps_the_new_results_and_fields(make_tournament):  # type: ignore[no-untyped-def]
    from tournaments.exchange.transfer import export_tournament, import_tournament

    t, rnd = _tied_final(make_tournament)
    services.game_record_result(game=_board(rnd, 1), result="postponed")
    services.round_complete(round=rnd)
    services.game_record_result(game=_board(rnd, 1), result="1-1")
    seed = final_standings.ties_draw_lots(tournament=t, confirmed=["lots-drawn"])
    entry = t.entries.get(pairing_number=2)
    entry.no_half_bye, entry.bye_points, entry.excused_rounds = True, {"1": 1}, [1]  # a bye's round is excused
    # bye_points: a service's field, set here directly
    entry.save(update_fields=["no_half_bye", "bye_points", "excused_rounds"])
    roster.entry_expel(entry=t.entries.get(pairing_number=4), after_round=1)
    doc = export_tournament(Tournament.objects.get(pk=t.pk))
    copy = import_tournament(doc, replace=True).tournament
    assert copy.lots_seed == seed and copy.conformance_left_round is None
    assert Game.objects.filter(round__tournament=copy, result="1-1").count() == 2
    again = copy.entries.get(pairing_number=2)
    assert again.no_half_bye and again.bye_points == {"1": 1}
    assert copy.entries.get(pairing_number=4).is_expelled


def test_an_unknown_result_symbol_is_imported_as_unknown(make_tournament):  # type: ignore[no-untyped-def]
    """Checklist 166: a symbol no TRF defines becomes a postponed game ('?') on both sides, and is said."""
    lines = TRF.splitlines()
    lines[3] = lines[3][:98] + "X" + lines[3][99:]  # player 2 (line 4), round 1: "   1 b X"
    result = import_trf("\n".join(lines) + "\n", slug="unknown", confirmed=["import-not-engine-pairing"])
    assert result.unknown == ("line 4, round 1: 'X'",)
    assert "read as a postponed game" in result.as_text()
    game = Game.objects.get(round__tournament=result.tournament, round__number=1, white__pairing_number=1)
    assert game.result == Result.POSTPONED


def test_an_external_tie_break_value_typed_by_the_arbiter_ranks(make_tournament):  # type: ignore[no-untyped-def]
    """Checklist 207: a value computed outside Damier, typed per player, ranks at its place in the list."""
    t, rnd = _tied_final(make_tournament)
    t.tiebreaks = ["wins", "external"]
    t.save()
    services.round_complete(round=rnd)
    for number, value in ((1, 5), (2, 9), (3, 7)):
        t.entries.filter(pairing_number=number).update(external_tiebreak=value)
    rows = selectors.standings(t)
    assert [(r.rank, r.player.pairing_number, r.tiebreaks["external"]) for r in rows] == [
        (1, 2, 9), (2, 3, 7), (3, 1, 5), (4, 4, None)]
