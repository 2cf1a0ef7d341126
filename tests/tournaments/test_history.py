"""Every change of a result, a pairing, an entry's status or a sheet is recorded (who, when, before, after)
and shown to the arbiters on the round and game pages."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.admin.test_admin import round_post_data
from tests.tournaments.play import play_round
from tournaments import sheets
from tournaments.models import Entry, Game, GameSheet, Round
from tournaments.players import roster
from tournaments.rounds import services


def changes(model: type, pk: int) -> list[tuple[str, str | None]]:
    return [(h.history_type, h.history_user.username if h.history_user else None)
            for h in model.history.filter(id=pk).order_by("history_date", "history_id")]  # type: ignore[attr-defined]


def test_a_result_entered_in_the_admin_records_who_when_before_after(published_round, arbiter) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = published_round
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    client.post(url, round_post_data(rnd, {1: "2-0"}))
    client.post(url, round_post_data(rnd, {1: "1-1"}))
    game = rnd.games.get(board=1)
    records = list(game.history.order_by("history_date", "history_id"))
    assert [(r.result, r.history_user) for r in records[-2:]] == [("2-0", arbiter), ("1-1", arbiter)]
    last = records[-1]
    delta = last.diff_against(last.prev_record)
    assert [(c.field, c.old, c.new) for c in delta.changes if c.field == "result"] == [("result", "2-0", "1-1")]
    assert last.history_date >= records[-2].history_date


def test_round_status_changes_and_a_deleted_draft_are_recorded(published_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd, _ = published_round
    for game in rnd.games.all():
        services.game_record_result(game=game, result="1-1")
    services.round_complete(round=rnd)
    services.round_reopen(round=rnd)
    statuses = [h.status for h in Round.history.filter(id=rnd.pk).order_by("history_date", "history_id")]  # type: ignore[attr-defined]
    assert statuses == ["draft", "published", "completed", "published"]
    services.round_complete(round=rnd)
    draft = services.round_pair(tournament=t)
    game_ids = list(draft.games.values_list("pk", flat=True))
    services.round_delete_draft(round=draft)
    assert changes(Round, draft.pk)[-1][0] == "-"
    assert all(changes(Game, pk)[-1][0] == "-" for pk in game_ids)


def test_a_withdrawal_records_the_entry_and_the_games_it_cancels(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    play_round(t)
    rnd = services.round_pair(tournament=t)
    entry = t.entries.get(pairing_number=1)
    roster.entry_withdraw(entry=entry, after_round=1)
    statuses = [h.status for h in Entry.history.filter(id=entry.pk).order_by("history_date", "history_id")]  # type: ignore[attr-defined]
    assert statuses == ["active", "withdrawn"]
    game = rnd.games.filter(white=entry).first() or rnd.games.get(black=entry)
    assert [h.result for h in game.history.order_by("history_date", "history_id")][-1] == "not played"


def test_a_manual_change_of_a_draft_pairing_is_recorded(make_tournament, arbiter) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    g1, g2 = rnd.games.order_by("board")
    # a round robin's round made by hand: confirmed, as the round robin's guard asks (rr_guard)
    services.round_set_boards(round=rnd, boards={1: (g1.white, g2.white), 2: (g1.black, g2.black)},
                              confirmed=["schedule-by-hand", "rematch", "colour-breach"])
    last = Game.history.filter(id=g1.pk).latest("history_date")  # type: ignore[attr-defined]
    assert (last.white_id, last.black_id) == (g1.white_id, g2.white_id)
    delta = last.diff_against(last.prev_record) if last.prev_record else None
    assert delta is None or "black" in {c.field for c in delta.changes}


def test_the_pairing_of_a_round_is_recorded(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    for game in rnd.games.all():
        assert changes(Game, game.pk)[:1] == [("+", None)]


def test_a_sheet_upload_is_recorded_with_its_uploader(published_round, arbiter) -> None:  # type: ignore[no-untyped-def]
    t, rnd, _ = published_round
    game = rnd.games.select_related("white__player", "black__player", "round").get(board=1)
    text = (f'[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n[Round "1"]\n'
            f'[Result "2-0"]\n\n1. 32-28 19-23 2-0\n')
    sheet = sheets.sheet_upload(game=game, data=text, source_name="b1.pdn", user=arbiter)
    record = GameSheet.history.get(id=sheet.pk)  # type: ignore[attr-defined]
    assert (record.history_type, record.source_name, record.uploaded_by_id) == ("+", "b1.pdn", arbiter.pk)


def test_the_round_and_game_pages_show_the_history(published_round, arbiter) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = published_round
    deputy = get_user_model().objects.create_user("deputy", is_staff=True)
    t.deputy_arbiters.add(deputy)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    client.post(url, round_post_data(rnd, {1: "2-0"}))
    other = Client()
    other.force_login(deputy)
    other.post(url, round_post_data(rnd, {1: "0-2"}))
    page = client.get(url).content.decode()
    assert "Change history" in page
    assert "result: – → 2-0" in page and "result: 2-0 → 0-2" in page
    assert page.index("result: 2-0 → 0-2") < page.index("result: – → 2-0")  # newest first
    assert "deputy" in page and "chief" in page
    assert "status: Draft → Published" in page
    game = rnd.games.get(board=1)
    game_page = client.get(reverse("admin:tournaments_game_change", args=[game.pk])).content.decode()
    assert "result: 2-0 → 0-2" in game_page and "deputy" in game_page
    history_page = client.get(reverse("admin:tournaments_game_history", args=[game.pk]))
    assert history_page.status_code == 200 and "0-2" in history_page.content.decode()
