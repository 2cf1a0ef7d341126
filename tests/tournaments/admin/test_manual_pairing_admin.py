"""The manual pairing phase in the admin: start, edit, confirm, validate, pair by hand."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round, play_swiss_round
from tests.tournaments.warning_screen import assert_one_screen
from tournaments.conformance import events
from tournaments.conformance.policy import Level
from tournaments.models import Round, System
from tournaments.rounds import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_of(arbiter):  # type: ignore[no-untyped-def]
    c = Client()
    c.force_login(arbiter)
    return c


@pytest.fixture
def six(make_tournament):  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="six", rounds_total=5)
    first = play_swiss_round(t)
    return t, first, services.round_pair(tournament=t)


def step(client, t, name, rnd):  # type: ignore[no-untyped-def]
    return client.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                       {"step": name, "round": rnd.number, "version": rnd.version})


def form(rnd: Round, boards: list[tuple[int, int]], bye: int | None = None, **extra: object) -> dict[str, object]:
    """The page's form as the arbiter posts it: entry ids by board."""
    by_number = {e.pairing_number: e.pk for e in rnd.tournament.entries.all()}
    data: dict[str, object] = {"action": "save", "version": Round.objects.get(pk=rnd.pk).version,
                               "rows": len(boards), "bye": by_number[bye] if bye else ""}
    for i, (w, b) in enumerate(boards, start=1):
        data[f"board-{i}-white"] = by_number[w]
        data[f"board-{i}-black"] = by_number[b]
    data.update(extra)
    return data


def rematch_boards(first: Round) -> list[tuple[int, int]]:
    """Round 1's first board again (colours reversed), the other four paired so that colours alternate."""
    games = list(first.games.select_related("white", "black").order_by("board"))
    had_white = {g.white.pairing_number for g in games}
    a, b = games[0].white.pairing_number, games[0].black.pairing_number
    others = [n for n in range(1, 7) if n not in (a, b)]

    def board(x: int, y: int) -> tuple[int, int]:
        return (y, x) if x in had_white else (x, y)

    return [board(a, b), board(others[0], others[3]), board(others[1], others[2])]


def test_from_the_control_room_to_a_validated_pairing_with_a_rematch(six, client_of) -> None:
    t, first, rnd = six
    control = client_of.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert "Edit the pairing of round 2 by hand" in control
    response = step(client_of, t, "edit", rnd)
    url = reverse("admin:tournaments_round_pairing", args=[rnd.pk])
    assert response.status_code == 302 and response["Location"] == url
    page = client_of.get(url).content.decode()
    assert 'id="mp-banner"' in page and 'aria-label="Board 1, White"' in page and "Swap colours" in page
    # The control room's next step is now the phase, and publishing is refused.
    control = client_of.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert "Continue editing the pairing of round 2" in control
    rnd.refresh_from_db()
    refused = client_of.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                             {"step": "publish", "round": 2, "version": rnd.version}, follow=True)
    assert "validate the pairing before publishing" in refused.content.decode()

    boards = rematch_boards(first)
    before = list(rnd.games.values_list("board", "white_id", "black_id"))
    response = client_of.post(url, form(rnd, boards))
    text = response.content.decode()
    assert response.status_code == 409
    assert "have already played each other" in text and "Level 3: confirmation" in text
    assert_one_screen(response, Level.CONFIRM)
    a, b = boards[0]
    assert f'value="rematch:{min(a, b)}-{max(a, b)}"' in text
    # What the arbiter chose is still selected; nothing was written.
    white_pk = t.entries.get(pairing_number=a).pk
    assert f'<option value="{white_pk}" selected>' in text
    assert list(rnd.games.values_list("board", "white_id", "black_id")) == before

    response = client_of.post(url, form(rnd, boards, confirm=[f"rematch:{min(a, b)}-{max(a, b)}"]))
    assert response.status_code == 302
    assert rnd.games.get(board=1).white.pairing_number == a

    response = client_of.post(url, {"action": "validate", "version": Round.objects.get(pk=rnd.pk).version})
    text = assert_one_screen(response, Level.CONFIRM)
    assert response.status_code == 409
    assert 'id="mp-compare"' in text and "(differs)" in text and 'value="manual-pairing"' in text
    assert "Engine&#x27;s pairing" in text or "Engine's pairing" in text
    response = client_of.post(url, {"action": "validate", "version": Round.objects.get(pk=rnd.pk).version,
                                    "confirm": "manual-pairing"}, follow=True)
    assert "It differs from the engine" in response.content.decode()
    assert list(t.conformance_events.values_list("code", flat=True)) == ["rematch", "manual-pairing"]
    assert any(line.startswith("### manual-pairing @ Round 2") for line in events.trf_lines(t))
    exported = client_of.post(reverse("admin:tournaments_tournament_changelist"),
                              {"action": "export_trf", "_selected_action": [t.pk]}).content.decode()
    lines = exported.splitlines()
    comment = next(i for i, line in enumerate(lines) if line.startswith("### manual-pairing @ Round 2: engine="))
    assert comment < next(i for i, line in enumerate(lines) if line.startswith("001"))
    assert f"### rematch @ Round 2: numbers={a},{b}" in exported
    control = client_of.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert "Publish round 2" in control


def test_a_validation_without_difference_records_nothing(six, client_of) -> None:
    t, _first, rnd = six
    step(client_of, t, "edit", rnd)
    url = reverse("admin:tournaments_round_pairing", args=[rnd.pk])
    response = client_of.post(url, {"action": "validate", "version": Round.objects.get(pk=rnd.pk).version},
                              follow=True)
    assert "It is the engine&#x27;s own pairing" in response.content.decode() or \
        "It is the engine's own pairing" in response.content.decode()
    assert not t.conformance_events.exists()
    assert Round.objects.get(pk=rnd.pk).manual_edit_started_at is None


def test_swap_colours_keeps_the_other_changes_and_a_half_board_is_refused_with_the_typing_kept(six, client_of) -> None:
    t, _first, rnd = six
    step(client_of, t, "edit", rnd)
    url = reverse("admin:tournaments_round_pairing", args=[rnd.pk])
    current = [(g.white.pairing_number, g.black.pairing_number) for g in rnd.games.order_by("board")]
    response = client_of.post(url, form(rnd, current, swap="2", confirm=["colour-breach", "both-wrong-colour"]))
    assert response.status_code == 302 and response["Location"].endswith("#board-2")
    g = rnd.games.get(board=2)
    assert (g.white.pairing_number, g.black.pairing_number) == current[1][::-1]
    data = form(rnd, current)
    data["board-3-black"] = ""
    response = client_of.post(url, data)
    assert response.status_code == 400
    assert "Board 3: choose both players" in response.content.decode()


def test_a_stale_page_is_refused(six, client_of) -> None:
    t, first, rnd = six
    step(client_of, t, "edit", rnd)
    url = reverse("admin:tournaments_round_pairing", args=[rnd.pk])
    data = form(rnd, rematch_boards(first), confirm=["rematch"])
    data["version"] = 1
    response = client_of.post(url, data, follow=True)
    assert "changed by someone else" in response.content.decode()


def test_a_round_the_engine_cannot_pair_is_offered_by_hand(make_tournament, client_of) -> None:
    t = make_tournament(3, system=System.SWISS, slug="three", rounds_total=4)
    for _ in range(3):
        play_round(t)
    response = client_of.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                              {"step": "pair", "round": 4, "version": 0})
    by_hand = reverse("admin:tournaments_round_by_hand", args=[t.pk])
    assert response.status_code == 302 and response["Location"] == by_hand
    page = client_of.get(by_hand)
    assert page.status_code == 200 and 'value="engine-cannot-pair"' in page.content.decode()
    assert_one_screen(page, Level.CONFIRM)
    refused = client_of.post(by_hand, {"round": 4})
    assert refused.status_code == 409 and not t.rounds.filter(number=4).exists()
    response = client_of.post(by_hand, {"round": 4, "confirm": "engine-cannot-pair"})
    rnd = t.rounds.get(number=4)
    assert response["Location"] == reverse("admin:tournaments_round_pairing", args=[rnd.pk])
    page = client_of.get(response["Location"]).content.decode()
    assert 'name="bye"' in page and "Not paired yet:" in page


def test_only_the_tournaments_arbiters_reach_the_page(six) -> None:
    _t, _first, rnd = six
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    c = Client()
    c.force_login(other)
    assert c.get(reverse("admin:tournaments_round_pairing", args=[rnd.pk])).status_code in (403, 404)


def test_an_edit_on_the_round_page_opens_the_phase(six, client_of) -> None:
    """The round page's own selects (a draft's boards) are part of the phase: the first edit opens it,
    and the round is published only after the validation."""
    t, _first, rnd = six
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = client_of.get(url).content.decode()
    assert f'href="{reverse("admin:tournaments_round_pairing", args=[rnd.pk])}"' in page
    games = list(rnd.games.order_by("board"))
    data = {"date": "", "games-TOTAL_FORMS": str(len(games)), "games-INITIAL_FORMS": str(len(games)),
            "games-MIN_NUM_FORMS": "0", "games-MAX_NUM_FORMS": "1000", "_continue": "1"}
    for i, g in enumerate(games):
        white, black = (g.black_id, g.white_id) if i == 0 else (g.white_id, g.black_id)
        data.update({f"games-{i}-id": str(g.pk), f"games-{i}-round": str(rnd.pk), f"games-{i}-white": str(white),
                     f"games-{i}-black": str(black or ""), f"games-{i}-result": g.result,
                     f"games-{i}-loaded_version": str(g.version)})
    client_of.post(url, data, follow=True)
    rnd.refresh_from_db()
    assert rnd.manual_edit_started_at is not None
    assert "Pairing being edited by hand." in client_of.get(url).content.decode()
    with pytest.raises(Exception, match="validate the pairing before publishing"):
        services.round_publish(round=rnd)


def test_the_round_page_says_the_pairing_was_changed_by_hand(six, client_of) -> None:
    t, first, rnd = six
    from tournaments.rounds import manual_pairing as mp

    mp.manual_edit_start(round=rnd)
    entries = {e.pairing_number: e for e in t.entries.all()}
    boards = [(entries[w], entries[b]) for w, b in rematch_boards(first)]
    mp.manual_edit_save(round=rnd, boards=boards, confirmed=["rematch"])
    mp.manual_edit_validate(round=rnd, confirmed=["manual-pairing"])
    page = client_of.get(reverse("admin:tournaments_round_change", args=[rnd.pk])).content.decode()
    a, b = rematch_boards(first)[0]
    assert "Paired by hand, validated with differences" in page and f"{a}-{b}" in page
    assert "The engine&#x27;s pairing:" in page or "The engine's pairing:" in page
