"""The manual pairing phase: start, each change checked, validation against the engine."""

from __future__ import annotations

import pytest

from tests.tournaments.play import play_round, play_swiss_round
from tournaments.conformance import events
from tournaments.conformance.policy import Code
from tournaments.errors import DomainError
from tournaments.models import ForbiddenPair, Game, Round, System
from tournaments.pairing import PairingRequest, PlayedRound, SwissPlayer
from tournaments.rounds import manual_pairing as mp
from tournaments.rounds import pairing_bridge, services

pytestmark = pytest.mark.django_db


def entry(t, number):  # type: ignore[no-untyped-def]
    return t.entries.get(pairing_number=number)


def pairing_of(rnd: Round) -> list[tuple[int, int | None, str]]:
    return [(g.white.pairing_number, g.black.pairing_number if g.black else None, g.result)
            for g in rnd.games.select_related("white", "black").order_by("board")]


def met_in(rnd: Round) -> tuple[int, int]:
    g = rnd.games.filter(black__isnull=False).select_related("white", "black").first()
    return g.white.pairing_number, g.black.pairing_number


@pytest.fixture
def six(make_tournament):  # type: ignore[no-untyped-def]
    """Six players, five rounds: round 1 played, round 2 paired as a draft by the engine."""
    t = make_tournament(6, system=System.SWISS, slug="six", rounds_total=5)
    first = play_swiss_round(t)
    rnd = services.round_pair(tournament=t)
    return t, first, rnd


def rematch_pairing(t, first, rnd):  # type: ignore[no-untyped-def]
    """Round 2 with round 1's first board played again, the four others paired among themselves; each
    board's White is the one who had Black in round 1, so the only breach is the rematch."""
    a, b = met_in(first)
    had_white = set(first.games.values_list("white__pairing_number", flat=True))
    others = [n for n in range(1, 7) if n not in (a, b)]

    def board(x: int, y: int):  # type: ignore[no-untyped-def]
        w, bl = (y, x) if x in had_white else (x, y)
        return entry(t, w), entry(t, bl)

    pairs = [board(a, b), board(others[0], others[3]), board(others[1], others[2])]
    return pairs, (pairs[0][0].pairing_number, pairs[0][1].pairing_number)


def test_the_phase_has_a_start_and_an_end_and_blocks_publishing(six, arbiter) -> None:
    t, _first, rnd = six
    assert not mp.is_editing(rnd)
    rnd = mp.manual_edit_start(round=rnd, expected_version=rnd.version, user=arbiter)
    assert mp.is_editing(rnd) and rnd.manual_edit_started_by == arbiter
    with pytest.raises(DomainError, match="validate the pairing before publishing"):
        services.round_publish(round=rnd)
    with pytest.raises(DomainError, match="validate it before pairing the next round"):
        services.round_pair(tournament=t)
    result = mp.manual_edit_validate(round=rnd, user=arbiter)
    assert not result.comparison.differs and result.recorded == []  # the engine's own pairing: no event
    rnd.refresh_from_db()
    assert not mp.is_editing(rnd) and not t.conformance_events.exists()
    assert services.round_publish(round=rnd).status == "published"
    history = [h.history_change_reason for h in rnd.history.order_by("history_date")]
    assert "manual pairing started" in history and "manual pairing validated" in history


def test_a_rematch_warns_and_nothing_is_written_until_confirmed(six, arbiter) -> None:
    t, first, rnd = six
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    boards, (a, b) = rematch_pairing(t, first, rnd)
    before, version = pairing_of(rnd), Round.objects.get(pk=rnd.pk).version
    with pytest.raises(events.NeedsConfirmation) as exc:
        mp.manual_edit_save(round=rnd, boards=boards, expected_version=version, user=arbiter)
    assert [w.code for w in exc.value.warnings] == [Code.REMATCH]
    assert exc.value.warnings[0].values["numbers"] == [a, b]
    assert "have already played each other" in str(exc.value)
    assert pairing_of(Round.objects.get(pk=rnd.pk)) == before and Round.objects.get(pk=rnd.pk).version == version
    key = f"rematch:{min(a, b)}-{max(a, b)}"
    rnd = mp.manual_edit_save(round=rnd, boards=boards, confirmed=[key], expected_version=version, user=arbiter)
    assert [(w, bl) for w, bl, _r in pairing_of(rnd)] == [(a, b), *[(w.pairing_number, bl.pairing_number)
                                                                      for w, bl in boards[1:]]]
    assert rnd.manual_edit_confirmed == [key]
    # The next change does not ask for the same rematch again.
    swapped = [boards[0], (boards[1][1], boards[1][0]), boards[2]]
    try:
        mp.manual_edit_save(round=rnd, boards=swapped, user=arbiter)
    except events.NeedsConfirmation as again:
        assert Code.REMATCH not in [w.code for w in again.warnings]


def test_validation_compares_with_the_engine_and_records_the_difference(six, arbiter) -> None:
    t, first, rnd = six
    engine_before = pairing_of(rnd)
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    boards, (a, b) = rematch_pairing(t, first, rnd)
    rnd = mp.manual_edit_save(round=rnd, boards=boards, confirmed=["rematch"], user=arbiter)
    with pytest.raises(events.NeedsConfirmation) as exc:
        mp.manual_edit_validate(round=rnd, user=arbiter)
    assert [w.code for w in exc.value.warnings] == [Code.MANUAL_PAIRING]  # the rematch was confirmed already
    assert not t.conformance_events.exists() and mp.is_editing(Round.objects.get(pk=rnd.pk))
    result = mp.manual_edit_validate(round=rnd, confirmed=["manual-pairing"], user=arbiter)
    comparison = result.comparison
    assert comparison.differs
    assert set(comparison.only_engine) == {f"{w}-{bl}" for w, bl, _r in engine_before} - {
        f"{w.pairing_number}-{bl.pairing_number}" for w, bl in boards}
    assert f"{a}-{b}" in comparison.only_round
    codes = list(t.conformance_events.values_list("code", flat=True))
    assert codes == ["rematch", "manual-pairing"]
    line = next(x for x in events.trf_lines(t) if x.startswith("### manual-pairing"))
    assert line.startswith("### manual-pairing @ Round 2: engine=") and f"{a}-{b}" in line.split("pairing=")[1]
    assert not mp.is_editing(Round.objects.get(pk=rnd.pk))
    # The confirmed breaches are not asked a third time when the round is published.
    assert services.round_publish(round=rnd).status == "published"


def test_validation_needs_every_player_and_refuses_withdrawn_ones(six, arbiter) -> None:
    t, _first, rnd = six
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    rnd = mp.manual_edit_save(round=rnd, boards=[(entry(t, 1), entry(t, 4))], user=arbiter,
                              confirmed=["rematch", "colour-breach", "both-wrong-colour"])
    with pytest.raises(DomainError, match="not paired yet: .*2. Player"):
        mp.manual_edit_validate(round=rnd, confirmed=["manual-pairing"])
    with pytest.raises(DomainError, match="Board 2: choose both players"):
        mp.manual_edit_save(round=rnd, boards=[(entry(t, 1), entry(t, 4)), (entry(t, 2), None)])
    with pytest.raises(DomainError, match="placed twice"):
        mp.manual_edit_save(round=rnd, boards=[(entry(t, 1), entry(t, 4)), (entry(t, 2), entry(t, 1))])
    with pytest.raises(DomainError, match="even number of players"):
        mp.manual_edit_save(round=rnd, boards=[(entry(t, 1), entry(t, 4))], bye=entry(t, 2))


def test_a_bye_to_a_player_who_had_one_warns(make_tournament, arbiter) -> None:
    t = make_tournament(5, system=System.SWISS, slug="five", rounds_total=4)
    first = play_swiss_round(t)
    had_bye = first.games.get(black__isnull=True).white.pairing_number
    rnd = mp.manual_edit_start(round=services.round_pair(tournament=t), user=arbiter)
    others = [n for n in range(1, 6) if n != had_bye]
    pairs = [(entry(t, others[0]), entry(t, others[1])), (entry(t, others[2]), entry(t, others[3]))]
    with pytest.raises(events.NeedsConfirmation) as exc:
        mp.manual_edit_save(round=rnd, boards=pairs, bye=entry(t, had_bye), confirmed=["rematch", "colour-breach",
                                                                                        "both-wrong-colour"])
    assert [w.code for w in exc.value.warnings] == [Code.BYE_INELIGIBLE]
    assert exc.value.warnings[0].values["number"] == had_bye


def test_a_forbidden_pair_warns_when_made_and_again_at_validation(six, arbiter) -> None:
    t, _first, rnd = six
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    boards = [(g.white, g.black) for g in rnd.games.filter(black__isnull=False).order_by("board")]
    # Forbid the pair of board 1 with the pair of board 2 crossed: the arbiter then pairs them by hand.
    (a, b), (c, d) = boards[0], boards[1]
    ForbiddenPair.objects.create(tournament=t, first=a, second=d)
    crossed = [(a, d), (c, b), *boards[2:]]
    with pytest.raises(events.NeedsConfirmation) as exc:
        mp.manual_edit_save(round=rnd, boards=crossed, confirmed=["rematch", "colour-breach", "both-wrong-colour"])
    assert [w.code for w in exc.value.warnings] == [Code.FORBIDDEN_PAIR_PAIRED]
    assert "may not meet" in str(exc.value)
    # A forbidden pair already on a board when the phase opened is asked at validation.
    ForbiddenPair.objects.create(tournament=t, first=boards[2][0], second=boards[2][1])
    with pytest.raises(events.NeedsConfirmation) as exc2:
        mp.manual_edit_validate(round=rnd)
    # ... with the difference from the engine, which now pairs that board otherwise.
    assert [w.code for w in exc2.value.warnings] == [Code.FORBIDDEN_PAIR_PAIRED, Code.MANUAL_PAIRING]


def _player(pid: int, colours: str, opponents: list[int] | None = None, points: int = 0) -> SwissPlayer:
    opps = opponents or [100 + i for i in range(len(colours))]
    history = tuple(PlayedRound(opponent=o, colour=c, points=points) for o, c in zip(opps, colours, strict=True))
    return SwissPlayer(id=pid, pairing_number=pid, history=history)


def test_colour_breach_and_both_wrong_colour_follow_the_engines_rules() -> None:
    players = (_player(1, "ww"), _player(2, "bb"), _player(3, "wbw"), _player(4, "bwb"),
               _player(5, "wb"), _player(6, "bw"))
    request = PairingRequest(players=players, round=4, total_rounds=9)
    names = {p.id: f"{p.id}. P{p.id}" for p in players}
    found = mp.breaches(request, mp.Proposed(((1, 2),)), names)  # 1 white a third time, 2 black a third time
    assert {b.key for b in found} == {"colour-breach:1w", "colour-breach:2b", "both-wrong-colour:1-2"}
    assert mp.breaches(request, mp.Proposed(((2, 1),)), names) == []
    # 3 is due black, 4 due white: 3 white and 4 black gives both the colour they are not due.
    both = mp.breaches(request, mp.Proposed(((3, 4),)), names)
    assert [b.key for b in both] == ["both-wrong-colour:3-4"]
    assert both[0].warning.values == {"pair": "3. P3 – 4. P4", "numbers": [3, 4]}
    # 5 is due white (mild), 6 due black: the natural way round is no breach.
    assert mp.breaches(request, mp.Proposed(((5, 6),)), names) == []


def test_a_colour_breach_is_allowed_to_a_topscorer_in_the_last_round() -> None:
    players = (_player(1, "ww", points=2), _player(2, "bb", points=0))
    last = PairingRequest(players=players, round=3, total_rounds=3)
    assert [b.key for b in mp.breaches(last, mp.Proposed(((1, 2),)), {})] == ["both-wrong-colour:1-2"]


def test_a_round_the_engine_cannot_pair_is_created_empty_and_paired_by_hand(make_tournament, arbiter) -> None:
    t = make_tournament(3, system=System.SWISS, slug="three", rounds_total=4)
    for _ in range(3):
        play_round(t)
    with pytest.raises(DomainError, match="cannot be paired"):
        services.round_pair(tournament=t)
    assert mp.engine_cannot_pair(t) == 4
    with pytest.raises(events.NeedsConfirmation, match="cannot pair round 4"):
        mp.round_create_by_hand(tournament=t, expected_number=4, user=arbiter)
    assert not t.rounds.filter(number=4).exists()
    rnd = mp.round_create_by_hand(tournament=t, expected_number=4, confirmed=["engine-cannot-pair"], user=arbiter)
    assert rnd.games.count() == 0 and mp.is_editing(rnd)
    with pytest.raises(events.NeedsConfirmation) as exc:
        mp.manual_edit_save(round=rnd, boards=[(entry(t, 1), entry(t, 2))], bye=entry(t, 3))
    assert {w.code for w in exc.value.warnings} >= {Code.REMATCH, Code.BYE_INELIGIBLE}
    rnd = mp.manual_edit_save(round=rnd, boards=[(entry(t, 1), entry(t, 2))], bye=entry(t, 3),
                              confirmed=[str(w.code) for w in exc.value.warnings])
    assert [(w, b, r) for w, b, r in pairing_of(rnd)] == [(1, 2, ""), (3, None, "bye")]
    result = mp.manual_edit_validate(round=rnd, confirmed=["manual-pairing"], user=arbiter)
    assert result.comparison.engine is None and result.comparison.differs
    lines = events.trf_lines(t)
    assert any(x.startswith("### engine-cannot-pair @ Round 4") for x in lines)
    assert "### manual-pairing @ Round 4: engine=none pairing=1-2,3-0 round=4" in lines


def test_a_hand_edit_reuses_the_rows_and_keeps_excused_players_last(six, arbiter) -> None:
    t, _first, rnd = six
    services.round_delete_draft(round=rnd)
    e6 = entry(t, 6)
    e6.excused_rounds = [2]
    e6.save()
    rnd = services.round_pair(tournament=t)
    ids = set(rnd.games.values_list("pk", flat=True))
    rnd = mp.manual_edit_start(round=rnd, user=arbiter)
    rnd = mp.manual_edit_save(round=rnd, boards=[(entry(t, 2), entry(t, 4))], bye=entry(t, 5),
                              confirmed=["rematch", "colour-breach", "both-wrong-colour", "bye-ineligible"])
    rows = pairing_of(rnd)
    assert rows[-1] == (6, None, "excused") and (5, None, "bye") in rows and rows[0][:2] == (2, 4)
    assert set(rnd.games.values_list("pk", flat=True)) <= ids  # rows reused, one removed
    assert Game.objects.filter(round=rnd).count() == 3


def test_board_order_follows_the_published_rule(make_tournament) -> None:
    """Q187: boards by the higher score of the pair, then the sum of the scores, then the higher player's
    rank (by pairing number, the tournament pairing by rating); the bye last."""
    t = make_tournament(15, system=System.SWISS, slug="order", rounds_total=5)
    checked = 0
    for number in range(1, 6):
        entries = mp.entries_of(t)
        request = pairing_bridge.pairing_request(t, entries, number)
        score = {p.id: p.score for p in request.players}
        rnd = services.round_pair(tournament=t)
        games = list(rnd.games.select_related("white", "black").order_by("board"))
        assert games[-1].black_id is None and all(g.black_id for g in games[:-1])  # the bye last
        keys = []
        for g in games[:-1]:
            w, b = g.white.pairing_number, g.black.pairing_number
            hi = min((w, b), key=lambda n: (-score[n], n))
            keys.append((-max(score[w], score[b]), -(score[w] + score[b]), hi))
        assert keys == sorted(keys), (number, keys)
        checked += len(keys)
        services.round_publish(round=rnd)
        for i, g in enumerate(games):
            if g.result:
                continue
            # Results by board parity and rating spread the scores into real score groups.
            result = "1-1" if i % 3 == 2 else ("2-0" if g.white.player.rating > g.black.player.rating else "0-2")
            services.game_record_result(game=g, result=result)
        services.round_complete(round=rnd)
    assert checked == 35
