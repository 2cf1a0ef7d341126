"""'Start the clocks' in the control room, and the hall screens' admin page."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.models import HallScreen, Round


def _step(client: Client, t, rnd: Round, step: str, **extra: str):  # type: ignore[no-untyped-def]
    return client.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                       {"step": step, "round": rnd.number, "version": rnd.version, **extra}, follow=True)


def test_start_the_clocks_from_the_control_room_once(published_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = published_round
    rnd.refresh_from_db()  # as the control room reads it, after the publication
    page = client.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert 'id="dc-clocks"' in page
    answer = _step(client, t, rnd, "clocks").content.decode()
    rnd.refresh_from_db()
    assert rnd.clock_started_at is not None and "started at" in answer
    at = rnd.clock_started_at
    page = client.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert 'id="dc-clocks"' not in page and 'id="dc-clocks-again"' in page
    # The old page's button, pressed again: its version is stale, nothing moves.
    stale = Round.objects.get(pk=rnd.pk)
    stale.version -= 1
    _step(client, t, stale, "clocks")
    rnd.refresh_from_db()
    assert rnd.clock_started_at == at
    # Again on purpose: asked first, then done.
    asked = _step(client, t, rnd, "clocks_restart").content.decode()
    assert 'id="dc-confirm"' in asked
    rnd.refresh_from_db()
    assert rnd.clock_started_at == at
    _step(client, t, rnd, "clocks_restart", confirmed="1")
    rnd.refresh_from_db()
    assert rnd.clock_started_at > at
    assert [h.history_change_reason for h in rnd.history.all()[:2]] == ["clocks restarted", "clocks started"]


def test_another_tournaments_arbiter_cannot_start_the_clocks(published_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd, _client = published_round
    rnd.refresh_from_db()
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    client = Client()
    client.force_login(other)
    response = client.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                           {"step": "clocks", "round": rnd.number, "version": rnd.version})
    assert response.status_code in (403, 404)
    rnd.refresh_from_db()
    assert rnd.clock_started_at is None


def test_hall_screens_admin_add_edit_scoped_and_stale(published_round) -> None:  # type: ignore[no-untyped-def]
    t, _rnd, client = published_round
    add = reverse("admin:tournaments_hallscreen_add")
    response = client.post(add, {"tournament": t.pk, "name": "Screen A", "shows_text": "pairings, find, clock",
                                  "boards_from": 1, "boards_to": 50, "message": "", "seconds_per_page": 15,
                                  "lines_per_page": 12})
    assert response.status_code == 302, response.content.decode()[:2000]
    screen = HallScreen.objects.get(name="Screen A")
    assert screen.shows == ["pairings", "find", "clock"] and len(screen.token) >= 12
    change = reverse("admin:tournaments_hallscreen_change", args=[screen.pk])
    page = client.get(change).content.decode()
    assert reverse("tournaments:hall_screen", args=[t.slug, screen.token]) in page
    data = {"tournament": t.pk, "name": "Screen A", "shows_text": "find, pairings", "boards_from": 1,
            "boards_to": 50, "message": "Hello", "seconds_per_page": 15, "lines_per_page": 12, "seen_version": 1}
    assert client.post(change, data).status_code == 302
    stale = client.post(change, {**data, "message": "Stale"})  # still says version 1
    assert stale.status_code == 200 and "changed by someone else" in stale.content.decode()
    assert "Stale" in stale.content.decode()  # what was typed is kept
    screen.refresh_from_db()
    assert screen.message == "Hello" and screen.shows == ["find", "pairings"]
    bad = client.post(change, {**data, "seen_version": 2, "shows_text": "pairings, scores"})
    assert bad.status_code == 200 and "not something a screen shows" in bad.content.decode()
    other = get_user_model().objects.create_user("other", password="pw-other-123", is_staff=True)
    stranger = Client()
    stranger.force_login(other)
    assert stranger.get(change).status_code in (302, 403, 404)
    assert "Screen A" not in stranger.get(reverse("admin:tournaments_hallscreen_changelist")).content.decode()
