"""The control room's words before round 1: a round robin is not numbered by rating, and an empty
tournament links the CSV import with itself chosen."""

from __future__ import annotations

from django.urls import reverse

from tournaments.models import System, Tournament


def test_a_round_robin_is_not_said_to_be_numbered_by_rating(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, slug="rr6")
    page = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert "by rating" not in page
    assert "as entered, until they are drawn by lot or kept" in page


def test_a_swiss_says_it_is_numbered_by_rating(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="sw6", rounds_total=5)
    page = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    assert "by rating, automatically until round 1 is paired" in page


def test_an_empty_control_room_links_the_csv_import_with_the_tournament_chosen(arbiter, chief) -> None:  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name="Empty", slug="empty", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=arbiter)
    page = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    link = f'{reverse("admin:tournaments_player_import")}?tournament={t.pk}'
    assert f'href="{link}"' in page
    form = chief.get(link).content.decode()
    assert f'<option value="{t.pk}" selected>' in form


def test_the_import_does_not_preselect_a_tournament_the_user_does_not_run(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    from django.contrib.auth import get_user_model

    other = get_user_model().objects.create_user("other", is_staff=True)
    t = Tournament.objects.create(name="Theirs", slug="theirs", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=other)
    form = chief.get(f'{reverse("admin:tournaments_player_import")}?tournament={t.pk}').content.decode()
    assert "Theirs" not in form
    assert chief.get(f'{reverse("admin:tournaments_player_import")}?tournament=x').status_code == 200


def test_a_swiss_drafts_byes_are_named_by_kind_and_value(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    from tournaments.players import requested_byes
    from tournaments.rounds import services

    t = make_tournament(7, system=System.SWISS, slug="sw7", rounds_total=5)
    requested_byes.bye_request(entry=t.entries.get(pairing_number=2), round_number=1, points=1)
    requested_byes.bye_request(entry=t.entries.get(pairing_number=3), round_number=1, points=0)
    services.round_pair(tournament=t)  # two boards, the pairing bye of the fifth player, the two requested
    page = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    table = page[page.index('class="dc-boards"'):]
    table = table[:table.index("</table>")]
    assert "Requested bye (+1)" in table and "Absent, excused (0)" in table and "Bye (+2)" in table
    assert ">excused<" not in table and ">bye<" not in table
