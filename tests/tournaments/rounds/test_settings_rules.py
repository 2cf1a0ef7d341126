"""The rules a tournament's settings obey that read the stored row (tournaments.rounds.settings_rules) refuse
on every path that changes the settings: the admin's form, the service that saves them, the JSON and TRF
imports. The model keeps only the checks of the values alone."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round, play_swiss_round
from tests.tournaments.test_permissions import scrape_form
from tournaments.errors import DomainError
from tournaments.exchange.transfer import TransferError, export_tournament, import_tournament
from tournaments.exchange.trf_import import TrfImportError, import_trf
from tournaments.models import RatingMethod, System, Tournament
from tournaments.rounds import pairing_bridge, under_way
from tournaments.rounds.settings_rules import check_settings, settings_refusals

MEANINGLESS = "mean nothing in a round robin"


def _edited(t: Tournament, **values: object) -> Tournament:
    t = Tournament.objects.get(pk=t.pk)
    for name, value in values.items():
        setattr(t, name, value)
    return t


def _post(chief: Client, t: Tournament, **overrides: object) -> str:
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    response = chief.post(url, scrape_form(chief, url, _save="Save", **overrides))
    assert response.status_code == 200, "the form was accepted"
    return response.content.decode()


@pytest.fixture
def swiss_paired(make_tournament) -> Tournament:  # type: ignore[no-untyped-def]
    t = make_tournament(6, system=System.SWISS, slug="sw", rounds_total=5)
    play_swiss_round(t)
    play_swiss_round(t)
    return Tournament.objects.get(pk=t.pk)


def test_the_model_no_longer_reads_its_row(swiss_paired, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    t = _edited(swiss_paired, system=System.ROUND_ROBIN, rating_method=RatingMethod.HIGHER)
    with django_assert_num_queries(0):
        t.full_clean(exclude=["chief_arbiter"], validate_unique=False, validate_constraints=False)  # an FK reads
    assert set(settings_refusals(t)) == {"system"}  # the decisive refusal alone


# --- What round 1 fixes: the form and the service --------------------------------------------------


def test_the_form_refuses_a_setting_round_1_fixed(swiss_paired, chief) -> None:  # type: ignore[no-untyped-def]
    page = _post(chief, swiss_paired, rating_method=RatingMethod.HIGHER, first_colour="b")
    assert "The tournament rating cannot change once round 1 is paired" in page
    assert "The first-round colour was drawn before round 1" in page
    swiss_paired.refresh_from_db()
    assert (swiss_paired.rating_method, swiss_paired.first_colour) == (RatingMethod.FMJD, "w")


def test_the_form_refuses_fewer_rounds_than_are_paired(swiss_paired, chief) -> None:  # type: ignore[no-untyped-def]
    page = _post(chief, swiss_paired, rounds_total=1)
    assert "2 rounds are already paired: the number of rounds cannot be smaller." in page
    assert Tournament.objects.get(pk=swiss_paired.pk).rounds_total == 5


def test_the_service_refuses_a_setting_round_1_fixed(swiss_paired) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(DomainError, match="order of equal ratings was announced before round 1"):
        under_way.tournament_save(tournament=_edited(swiss_paired, tie_order="oldest"))
    with pytest.raises(DomainError, match="the number of rounds cannot be smaller"):
        under_way.tournament_save(tournament=_edited(swiss_paired, rounds_total=1), confirmed={"rounds-changed"})
    swiss_paired.refresh_from_db()
    assert (swiss_paired.tie_order, swiss_paired.rounds_total) == ("alphabetical", 5)


def test_the_service_refuses_a_round_robin_schedule_changed(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.DOUBLE_ROUND_ROBIN, slug="drr")
    play_round(t)
    with pytest.raises(DomainError, match="schedule of a round robin is fixed"):
        under_way.tournament_save(tournament=_edited(t, rr_reverse_last_two=False))
    assert Tournament.objects.get(pk=t.pk).rr_reverse_last_two


# --- A round robin's tie-breaks: every path ----------------------------------------------------------


def test_the_form_refuses_meaningless_round_robin_tiebreaks(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="rr")
    page = _post(chief, t, tiebreaks_0="custom", tiebreaks_1="wins", tiebreaks_2="solkoff", tiebreaks_3="")
    assert MEANINGLESS in page
    assert "solkoff" not in Tournament.objects.get(pk=t.pk).tiebreaks


def test_the_service_refuses_meaningless_round_robin_tiebreaks(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="rr")
    with pytest.raises(DomainError, match=MEANINGLESS):
        under_way.tournament_save(tournament=_edited(t, tiebreaks=["wins", "solkoff"]))
    assert "solkoff" not in Tournament.objects.get(pk=t.pk).tiebreaks
    new = Tournament(name="New", slug="new", system=System.ROUND_ROBIN, tiebreaks=["average_rating"])
    with pytest.raises(DomainError, match=MEANINGLESS):
        under_way.tournament_save(tournament=new)
    assert not Tournament.objects.filter(slug="new").exists()


def test_a_kept_list_passes_every_path_until_it_changes(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="kept")
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=["solkoff"])
    under_way.tournament_save(tournament=_edited(t, name="Renamed"))  # the list as stored: kept
    assert Tournament.objects.get(pk=t.pk).name == "Renamed"
    with pytest.raises(ValidationError):
        check_settings(_edited(t, system=System.DOUBLE_ROUND_ROBIN))  # another system: no longer kept


def test_the_json_import_refuses_meaningless_round_robin_tiebreaks(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="rr-json")
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=["solkoff"])  # stored before the rule
    doc = export_tournament(Tournament.objects.get(pk=t.pk))
    with pytest.raises(TransferError, match=MEANINGLESS):
        import_tournament(doc, replace=True)
    assert Tournament.objects.get(pk=t.pk).tiebreaks == ["solkoff"]  # nothing replaced


def test_the_trf_import_refuses_meaningless_round_robin_tiebreaks(make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, slug="rr-trf")
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=["sonneborn_berger", "solkoff"])
    text = pairing_bridge.export_trf(Tournament.objects.get(pk=t.pk))
    with pytest.raises(TrfImportError, match=MEANINGLESS):
        import_trf(text, slug="rr-trf-again")
    assert not Tournament.objects.filter(slug="rr-trf-again").exists()
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=["sonneborn_berger", "wins"])
    assert import_trf(pairing_bridge.export_trf(Tournament.objects.get(pk=t.pk)), slug="ok").tournament.pk
