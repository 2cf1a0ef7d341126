"""Results from the boards: codes, reports, the board's state, the arbiter's confirmation, the lockout."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournaments.boards import codes, confirm, reports, words
from tournaments.boards.reports import AGREED, DISPUTED, SINGLE, Sent
from tournaments.errors import DomainError
from tournaments.models import BoardCode, BoardReport, CodeAttempt, Game, ReportStatus, RoundStatus
from tournaments.rounds import services

pytestmark = pytest.mark.django_db

WIN = '[FEN "W:W28:B23"]\n1. 28x19 2-0\n'  # Black has no piece left: the board shows 2-0 (art. 7.2.3)
TYPED = "32-28 19-23 28x19 14x23"


@pytest.fixture
def hall(make_tournament: Any) -> dict[str, Any]:
    """Eight players, round 1 published, codes issued."""
    t = make_tournament(8, slug="hall")
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    codes.codes_issue(tournament=t)
    games = {g.board: g for g in rnd.games.select_related("white", "black")}
    return {"t": t, "round": rnd, "games": games}


def code_of(entry: Any) -> BoardCode:
    found = codes.live_code(entry)
    assert found is not None
    return found


def send(game: Game, side: str, result: str, **extra: Any) -> BoardReport:
    entry = game.white if side == "w" else game.black
    return reports.report_submit(code=code_of(entry), sent=Sent(result=result, **extra), address="10.0.0.1")


def test_codes_are_long_random_and_one_live_per_entry(hall: dict[str, Any]) -> None:
    t = hall["t"]
    tokens = list(BoardCode.objects.filter(entry__tournament=t).values_list("token", flat=True))
    assert len(tokens) == 8 == len(set(tokens)) and all(len(tok) >= 32 for tok in tokens)
    assert codes.codes_issue(tournament=t) == 0  # issuing again keeps them


def test_states_single_agreed_disputed(hall: dict[str, Any]) -> None:
    g1, g2, g3 = hall["games"][1], hall["games"][2], hall["games"][3]
    send(g1, "w", "2-0")
    send(g2, "w", "1-1")
    send(g2, "b", "1-1")
    send(g3, "w", "2-0")
    send(g3, "b", "0-2")
    states = reports.states_of([g1, g2, g3, hall["games"][4]])
    assert (states[g1.pk].state, states[g1.pk].side) == (SINGLE, "w")
    assert (states[g2.pk].state, states[g2.pk].result) == (AGREED, "1-1")
    assert states[g3.pk].state == DISPUTED
    assert states[hall["games"][4].pk].state == "none"
    assert words.state_words(states[g1.pk]) == "reported by White: 2-0"
    # A report never becomes the result by itself.
    assert not Game.objects.filter(pk__in=[g1.pk, g2.pk, g3.pk]).exclude(result="").exists()


def test_board_3_code_cannot_report_board_4(hall: dict[str, Any]) -> None:
    g3, g4 = hall["games"][3], hall["games"][4]
    with pytest.raises(DomainError, match="only your own board"):
        reports.report_submit(code=code_of(g3.white), sent=Sent(result="2-0", game_id=g4.pk), address="1.2.3.4")
    assert not BoardReport.objects.exists()
    # Through the page: a forged POST naming board 4 is refused, nothing stored.
    client = Client()
    url = reverse("tournaments:board_report", args=["hall", code_of(g3.white).token])
    response = client.post(url, {"result": "2-0", "game": g4.pk})
    assert response.status_code == 400 and not BoardReport.objects.exists()
    # Without the forged id the code reports its own board: board 3.
    assert client.post(url, {"result": "2-0"}).status_code == 200
    assert list(BoardReport.objects.values_list("game__board", flat=True)) == [3]


def test_the_replay_verdict_is_stored_as_codes(hall: dict[str, Any]) -> None:
    g1 = hall["games"][1]
    confirmed = send(g1, "w", "2-0", pdn=WIN.encode(), pdn_name="g.pdn")
    assert confirmed.verdict["code"] == "confirms" and confirmed.verdict["board_result"] == "2-0"
    assert words.verdict_words(confirmed.verdict, "2-0") == "the moves confirm 2-0"
    contradicted = send(g1, "b", "0-2", pdn=WIN.encode())
    assert contradicted.verdict["code"] == "contradicts"
    typed = send(g1, "b", "1-1", moves=TYPED)
    assert typed.verdict["code"] == "not_over" and typed.moves == TYPED
    illegal = send(g1, "w", "2-0", moves="32-28 19-23 28-22")
    assert illegal.verdict["code"] == "illegal" and illegal.verdict["move"] == 2 and illegal.verdict["side"] == "white"
    assert words.verdict_words(illegal.verdict, "2-0").startswith("illegal move: move 2, White")


def test_the_one_button_confirms_only_agreed_boards_whose_moves_confirm(hall: dict[str, Any], arbiter: Any) -> None:
    g = hall["games"]
    send(g[1], "w", "2-0", pdn=WIN.encode())
    send(g[1], "b", "2-0")
    send(g[2], "w", "1-1")  # agreed without a game: waits for the arbiter's key
    send(g[2], "b", "1-1")
    send(g[3], "w", "2-0", pdn=WIN.encode())  # a game, but one side only
    done = confirm.round_confirm_agreed(round=hall["round"], user=arbiter)
    assert [x.board for x in done] == [1]
    assert Game.objects.get(pk=g[1].pk).result == "2-0"
    assert not Game.objects.filter(pk__in=[g[2].pk, g[3].pk]).exclude(result="").exists()
    assert set(BoardReport.objects.filter(game=g[1]).values_list("status", flat=True)) == {ReportStatus.CONFIRMED}
    assert Game.history.filter(id=g[1].pk).first().history_change_reason  # the history says why


def test_a_ruling_on_a_disputed_board_overrules_and_confirms(hall: dict[str, Any]) -> None:
    g3 = hall["games"][3]
    white, black = send(g3, "w", "2-0"), send(g3, "b", "1-1")
    services.game_record_result(game=g3, result="1-1")
    confirm.round_settle(hall["round"])
    white.refresh_from_db()
    black.refresh_from_db()
    assert (white.status, black.status) == (ReportStatus.OVERRULED, ReportStatus.CONFIRMED)


def test_a_confirmed_result_is_not_moved_by_a_later_report(hall: dict[str, Any]) -> None:
    g1 = hall["games"][1]
    services.game_record_result(game=g1, result="2-0")
    late = send(g1, "b", "0-2", pdn=WIN.encode())
    g1.refresh_from_db()
    assert late.status == ReportStatus.LATE and g1.result == "2-0"
    confirm.round_settle(hall["round"])
    confirm.round_confirm_agreed(round=hall["round"])
    late.refresh_from_db()
    g1.refresh_from_db()
    assert late.status == ReportStatus.LATE and g1.result == "2-0"
    assert reports.states_of([g1])[g1.pk].late == [late]


def test_a_report_for_a_draft_round_is_refused(hall: dict[str, Any]) -> None:
    t, rnd = hall["t"], hall["round"]
    for game in rnd.games.all():
        services.game_record_result(game=game, result="1-1")
    services.round_complete(round=rnd)
    g1 = hall["games"][1]
    with pytest.raises(DomainError, match="Round 1 is completed"):
        send(g1, "w", "2-0")
    draft = services.round_pair(tournament=t)
    assert draft.status == RoundStatus.DRAFT
    with pytest.raises(DomainError, match="Round 2 is not published yet"):
        send(g1, "w", "2-0")
    # A forged POST naming a game of the draft round, while a round is published, is refused too.
    assert not BoardReport.objects.exists()
    page = Client().get(reverse("tournaments:board_report", args=["hall", code_of(g1.white).token]))
    assert "Round 2 is not published yet" in page.content.decode()


def test_revoked_code_and_another_tournaments_code_are_wrong_codes(hall: dict[str, Any], make_tournament: Any) -> None:
    t = hall["t"]
    old = code_of(hall["games"][1].white)
    new = codes.code_revoke(code=old)
    assert new.token != old.token
    with pytest.raises(codes.WrongCode):
        codes.code_check(tournament=t, token=old.token, address="5.5.5.5")
    assert codes.code_check(tournament=t, token=new.token, address="5.5.5.5") == new
    other = make_tournament(2, slug="other")
    with pytest.raises(codes.WrongCode):
        codes.code_check(tournament=other, token=new.token, address="5.5.5.5")
    assert CodeAttempt.objects.get(address_hash=codes.address_hash("5.5.5.5")).failures == 2


def test_1000_wrong_codes_are_locked_out(hall: dict[str, Any], settings: Any) -> None:
    t = hall["t"]
    now = timezone.now()
    limit = codes.failure_limit()
    outcomes = []
    for i in range(1000):
        try:
            codes.code_check(tournament=t, token=f"guess-{i}", address="6.6.6.6",
                             now=now + datetime.timedelta(milliseconds=i))
        except codes.LockedOut:
            outcomes.append("locked")
        except codes.WrongCode:
            outcomes.append("wrong")
    # Counted up to the limit, then locked: every later guess is refused without even being looked up.
    assert outcomes[:limit - 1] == ["wrong"] * (limit - 1) and set(outcomes[limit - 1:]) == {"locked"}
    good = code_of(hall["games"][1].white).token
    with pytest.raises(codes.LockedOut, match="Too many wrong codes"):
        codes.code_check(tournament=t, token=good, address="6.6.6.6", now=now + datetime.timedelta(seconds=2))
    # Another address is not locked; and the lock ends after the cool-off.
    assert codes.code_check(tournament=t, token=good, address="7.7.7.7", now=now)
    later = now + codes.cooloff() + datetime.timedelta(seconds=5)
    assert codes.code_check(tournament=t, token=good, address="6.6.6.6", now=later)
    # Through the page: 429 with the words.
    response = Client(REMOTE_ADDR="6.6.6.6").get(reverse("tournaments:board_report", args=["hall", good]))
    assert response.status_code == 429 and "Too many wrong codes" in response.content.decode()


def test_the_page_is_never_cached_and_csrf_protected(hall: dict[str, Any]) -> None:
    g1 = hall["games"][1]
    url = reverse("tournaments:board_report", args=["hall", code_of(g1.white).token])
    page = Client().get(url)
    assert page.status_code == 200
    assert "no-store" in page["Cache-Control"] and "private" in page["Cache-Control"]
    assert page["Referrer-Policy"] == "same-origin" and "noindex" in page["X-Robots-Tag"]
    body = page.content.decode()
    assert "Round 1, board 1: you play White against" in body and "csrfmiddlewaretoken" in body
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(url, {"result": "2-0"}).status_code == 403 and not BoardReport.objects.exists()
    wrong = Client().get(reverse("tournaments:board_report", args=["hall", "nope"]))
    assert wrong.status_code == 403 and "no-store" in wrong["Cache-Control"]


def test_a_report_is_stored_with_time_code_and_hashed_address(hall: dict[str, Any]) -> None:
    g2 = hall["games"][2]
    url = reverse("tournaments:board_report", args=["hall", code_of(g2.black).token])
    response = Client(REMOTE_ADDR="192.0.2.7").post(url, {"result": "0-2", "moves": TYPED})
    assert response.status_code == 200 and "Received" in response.content.decode()
    report = BoardReport.objects.get()
    assert (report.game_id, report.side, report.result, report.moves) == (g2.pk, "b", "0-2", TYPED)
    assert report.code == code_of(g2.black) and report.received_at is not None
    assert report.address_hash == codes.address_hash("192.0.2.7") and "192.0.2.7" not in report.address_hash
    assert len(report.address_hash) == 64


def test_a_pdn_file_sent_from_the_page_is_replayed(hall: dict[str, Any]) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    g1 = hall["games"][1]
    url = reverse("tournaments:board_report", args=["hall", code_of(g1.white).token])
    response = Client().post(url, {"result": "2-0", "pdn": SimpleUploadedFile("game.pdn", WIN.encode())})
    assert response.status_code == 200 and "the moves confirm 2-0" in response.content.decode()
    report = BoardReport.objects.get()
    assert report.verdict["code"] == "confirms" and report.moves == WIN
    # A file that is no PDN is refused with the reason, what was chosen kept, nothing stored.
    bad = Client().post(url, {"result": "1-1", "moves": TYPED, "pdn": SimpleUploadedFile("x.pdn", b"\x00\x01")})
    body = bad.content.decode()
    assert bad.status_code == 400 and BoardReport.objects.count() == 1
    assert TYPED in body and 'value="1-1" required checked' in body


def test_a_wrong_code_learns_nothing_of_the_tournament(make_tournament: Any) -> None:
    from tournaments.models import Tournament

    Tournament.objects.filter(pk=make_tournament(2, slug="secret").pk).update(public=False)
    page = Client().get(reverse("tournaments:board_report", args=["secret", "guess"]))
    assert page.status_code == 403 and "Test secret" not in page.content.decode()
