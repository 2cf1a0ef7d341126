"""The control room through Django's test client: one round cycle by its steps, the
confirmations, stale pages, the links that lead to it, French."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.models import Entry, ForbiddenPair, Game, Numbering, Round, RoundStatus, System, Tournament
from tournaments.rounds import services


def control(t: Tournament) -> str:
    return reverse("admin:tournaments_tournament_control", args=[t.pk])


def step_url(t: Tournament) -> str:
    return reverse("admin:tournaments_tournament_step", args=[t.pk])


def next_step(page: Any) -> dict[str, Any]:
    step = page.context["step"]
    return {"step": step.name, "round": step.round, "version": step.version}



def text(response: Any) -> str:
    return response.content.decode()


def test_one_round_cycle_by_the_next_step_button(make_tournament, chief) -> None:
    t = make_tournament(6, system=System.SWISS, slug="cycle", rounds_total=3)
    page = chief.get(control(t))
    assert page.status_code == 200
    assert next_step(page) == {"step": "pair", "round": 1, "version": 0}
    assert "Pair round 1" in text(page) and "numbered by rating" in text(page)

    page = chief.post(step_url(t), next_step(page), follow=True)
    assert page.redirect_chain[-1][0] == control(t)  # lands where the next step is: publish, boards shown
    assert "Round 1 is paired as a draft" in text(page) and "Before pairing round 1, the players were numbered" \
        in text(page)
    assert next_step(page)["step"] == "publish"
    assert "Pairing check: no absolute criterion is broken." in text(page)
    rnd = t.rounds.get(number=1)
    assert page.context["room"].draft == rnd and len(page.context["room"].draft_games) == 3

    page = chief.post(step_url(t), next_step(page), follow=True)
    assert page.redirect_chain[-1][0] == reverse("admin:tournaments_round_change", args=[rnd.pk])
    assert "Round 1 is published. Type its results here" in text(page)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED

    page = chief.get(control(t))
    assert next_step(page)["step"] == "results"
    assert "3 results missing: boards 1, 2, 3." in text(page)
    for g in rnd.games.all():
        services.game_record_result(game=g, result="1-1")
    page = chief.get(control(t))
    assert next_step(page) == {"step": "complete", "round": 1, "version": 2}

    page = chief.post(step_url(t), next_step(page), follow=True)
    assert page.redirect_chain[-1][0] == control(t)
    assert "Round 1 is completed. Next: pair round 2." in text(page)
    assert next_step(page) == {"step": "pair", "round": 2, "version": 0}


def test_a_second_click_or_a_stale_page_does_nothing_and_says_so(make_tournament, chief) -> None:
    t = make_tournament(4)
    t.numbering = Numbering.MANUAL
    t.save()
    pair = {"step": "pair", "round": 1, "version": 0}
    chief.post(step_url(t), pair)
    page = chief.post(step_url(t), pair, follow=True)
    assert "Nothing was done: Round 1 is already paired" in text(page)
    assert t.rounds.count() == 1
    rnd = t.rounds.get()
    services.round_publish(round=rnd)  # another arbiter, meanwhile
    page = chief.post(step_url(t), {"step": "publish", "round": 1, "version": 1}, follow=True)
    assert "Round 1 was changed by someone else since you read it (it is now published)" in text(page)
    page = chief.post(step_url(t), {"step": "complete", "round": 1, "version": 1}, follow=True)
    assert "changed by someone else" in text(page)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED
    page = chief.post(step_url(t), {"step": "explode", "round": 1}, follow=True)
    assert "Unknown step" in text(page)
    assert chief.get(step_url(t)).status_code == 302


def test_publishing_a_forbidden_pair_asks_for_a_confirmation_listing_it(make_tournament, chief, arbiter) -> None:
    t = make_tournament(6, system=System.SWISS, slug="fp", rounds_total=3)
    rnd = services.round_pair(tournament=t)
    b1 = rnd.games.get(board=1)
    ForbiddenPair.objects.create(tournament=t, first=b1.white, second=b1.black)
    page = chief.get(control(t))
    assert "Broken absolute criteria" in text(page)
    page = chief.post(step_url(t), next_step(page))
    assert page.status_code == 200 and "Publish round 1 although its pairing breaks the rules?" in text(page)
    violations = page.context["violations"]
    assert len(violations) == 1 and all(v in text(page) for v in violations)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.DRAFT
    page = chief.post(step_url(t), {"step": "publish", "round": 1, "version": rnd.version, "confirmed": "1"})
    assert page.status_code == 302
    published = Round.objects.get(pk=rnd.pk)
    assert published.status == RoundStatus.PUBLISHED
    assert published.history.latest("history_date").history_user == arbiter


def test_taking_a_round_back_is_confirmed_by_name_then_paired_again(make_tournament, chief) -> None:
    t = make_tournament(5, system=System.SWISS, slug="back", rounds_total=3)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    page = chief.get(control(t))
    alt = page.context["alternatives"][0][0]
    assert alt.name == "unpublish" and "Take round 1 back to draft" in text(page)
    data = {"step": alt.name, "round": alt.round, "version": alt.version}
    page = chief.post(step_url(t), data)
    assert page.status_code == 200 and "Round 1 goes back to draft" in text(page) and "Test back: round 1" in \
        text(page)
    assert Round.objects.get(pk=rnd.pk).status == RoundStatus.PUBLISHED  # nothing until confirmed
    page = chief.post(step_url(t), {**data, "confirmed": "1"}, follow=True)
    assert "Round 1 is a draft again" in text(page)
    assert next_step(page)["step"] == "publish"
    again = page.context["alternatives"][0][0]
    assert again.name == "pair_again"
    page = chief.post(step_url(t), {"step": again.name, "round": 1, "version": again.version}, follow=True)
    assert "Round 1 was deleted and paired again" in text(page)
    assert t.rounds.get().pk != rnd.pk


def test_a_round_robin_draws_lots_and_prints_its_schedule(make_tournament, chief) -> None:
    t = make_tournament(5, slug="rr")
    page = chief.get(control(t))
    assert next_step(page)["step"] == "draw" and page.context["alternatives"][0][0].name == "keep"
    page = chief.post(step_url(t), next_step(page), follow=True)
    t.refresh_from_db()
    assert t.numbering == Numbering.LOT and f"seed {t.numbering_seed}" in text(page)
    assert next_step(page)["step"] == "pair"
    schedule = chief.get(reverse("admin:tournaments_tournament_schedule", args=[t.pk]))
    body = text(schedule)
    assert schedule.status_code == 200 and body.count("<caption>Round ") == 5
    first = Entry.objects.get(tournament=t, pairing_number=1)
    assert f"1. {first.player.full_name}" in body and "free" in body


def test_the_control_room_is_linked_from_the_list_the_change_page_and_the_index(make_tournament, chief) -> None:
    t = make_tournament(4)
    url = control(t)
    for page in (reverse("admin:tournaments_tournament_changelist"),
                 reverse("admin:tournaments_tournament_change", args=[t.pk]), reverse("admin:index")):
        assert f'href="{url}"' in text(chief.get(page)), page


def test_the_control_room_lists_rounds_missing_results_and_prints(make_tournament, chief) -> None:
    t = make_tournament(4)
    play_round(t)
    rnd = services.round_publish(round=services.round_pair(tournament=t))
    services.game_record_result(game=rnd.games.get(board=1), result="2-0")
    body = text(chief.get(control(t)))
    assert "1 missing (board 2)" in body and "all in (2 boards)" in body
    assert reverse("tournaments:scoresheets_pdf", args=[t.slug, 2]) in body
    assert reverse("tournaments:pairings_pdf", args=[t.slug, 1]) in body
    assert "Take round 2 back" not in body  # a result is in


def test_the_control_room_in_french(make_tournament, chief) -> None:
    t = make_tournament(4, system=System.SWISS, slug="fr", rounds_total=3)
    body = text(chief.get(control(t), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Apparier la ronde 1" in body and "Prochaine étape" in body


def test_only_this_tournaments_arbiters_reach_it(make_tournament, chief) -> None:
    t = make_tournament(4)
    other = Client()
    other.force_login(get_user_model().objects.create_user("other", is_staff=True))
    assert other.get(control(t)).status_code == 404
    assert other.post(step_url(t), {"step": "pair", "round": 1}).status_code == 404
    assert not t.rounds.exists()


def test_a_superuser_cannot_delete_a_round_with_a_later_one(make_tournament) -> None:
    t = make_tournament(4)
    first = play_round(t)
    services.round_pair(tournament=t)
    root = Client()
    root.force_login(get_user_model().objects.create_superuser("root", email=None, password=None))
    url = reverse("admin:tournaments_round_delete", args=[first.pk])
    page = root.get(url)
    assert "rounds 2 were paired on it; it cannot be deleted" in text(page)
    root.post(url, {"post": "yes"})
    assert Round.objects.filter(pk=first.pk).exists()
    last = t.rounds.get(number=2)
    services.round_publish(round=last)
    services.game_record_result(game=last.games.get(board=1), result="2-0")
    page = root.get(reverse("admin:tournaments_round_delete", args=[last.pk]))
    assert "is published: its pairing and results are kept" in text(page)
    root.post(reverse("admin:tournaments_round_delete", args=[last.pk]), {"post": "yes"})
    assert Game.objects.filter(round=last).count() == 2


def test_the_list_action_that_pairs_links_to_the_control_room(make_tournament, chief) -> None:
    t = make_tournament(4)
    page = chief.post(reverse("admin:tournaments_tournament_changelist"),
                      {"action": "pair_next_round", "_selected_action": [str(t.pk)], "index": "0"}, follow=True)
    assert "next round paired (draft): look at it and publish it in the" in text(page)
    assert f'<a href="{control(t)}">control room</a>' in text(page)
