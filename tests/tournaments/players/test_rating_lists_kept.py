"""A tournament rated on its chosen lists: each entry keeps the rating and title its list gave it, whatever
list is imported later (VCL4THP Q116, Q137, Q143); a running tournament moves to a later list only through
the compare-a-list step, ticked entry by entry (Q144); the other list's rating is picked per player (Q129)."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.exceptions import ValidationError

from tests.tournaments.play import play_swiss_round
from tournaments import ratings, selectors
from tournaments.admin.tournaments import TournamentForm
from tournaments.conformance.events import NeedsConfirmation
from tournaments.errors import DomainError, StaleEditError
from tournaments.models import (
    Entry,
    NationalId,
    Player,
    RatingKind,
    RatingList,
    RatingListRow,
    RatingMethod,
    System,
    Tournament,
)
from tournaments.players import numbering, rating_lists, roster
from tournaments.rounds import pairing_bridge, settings_rules, under_way

pytestmark = pytest.mark.django_db

MARCH, JUNE = datetime.date(2026, 3, 1), datetime.date(2026, 6, 1)


def make_list(day: datetime.date, values: dict[Player, tuple[int | None, str]], *, kind: str = RatingKind.FMJD,
              source: str = "FMJD", by_record: bool = True) -> RatingList:
    """A list published on `day` giving each player (rating, title); by_record: rows matched to the
    register's records, else found by the player's id alone."""
    rating_list = RatingList.objects.create(source=source, kind=kind, published_on=day, row_count=len(values))
    for line, (player, (rating, title)) in enumerate(values.items(), start=1):
        national = (player.national_ids.filter(body=source).values_list("number", flat=True).first() or "")
        RatingListRow.objects.create(rating_list=rating_list, line=line, player=player if by_record else None,
                                     fmjd_id=player.fmjd_id if kind == RatingKind.FMJD else None,
                                     national_id=national, surname=player.surname, title=title, rating=rating)
    return rating_list


def import_into_register(rating_list: RatingList) -> None:
    """What importing the list does to the register (the import service is another module's): each matched
    player takes the list's rating and title."""
    for row in rating_list.rows.exclude(player=None):
        player = row.player
        if rating_list.kind == RatingKind.FMJD:
            player.rating, player.title = row.rating, row.title
        else:
            player.national_rating = row.rating
        player.rating_source = f"{rating_list} ({rating_list.published_on})"
        player.save()


def players(n: int) -> list[Player]:
    """Register records whose own values are neither list's: the entries must read the list's."""
    return [Player.objects.create(surname=f"P{i}", given_name="T", fmjd_id=700 + i, rating=1000 + i, title="")
            for i in range(1, n + 1)]


def kept(t: Tournament) -> list[tuple[int | None, int | None, str]]:
    return [(e.rating, e.national_rating, e.title) for e in Entry.objects.filter(tournament=t).order_by("player_id")]


def _swiss(arbiter, slug: str, field: list[Player], rating_list: RatingList | None, **kwargs: object) -> Tournament:  # type: ignore[no-untyped-def]
    t = Tournament.objects.create(name=slug, slug=slug, system=System.SWISS, rounds_total=kwargs.pop("rounds", 3),
                                  chief_arbiter=arbiter, start_date=datetime.date(2026, 4, 10),
                                  fmjd_list=rating_list, **kwargs)
    for p in field:
        roster.entry_add(tournament=t, player=p)
    return t


def test_a_list_imported_at_two_dates_and_a_tournament_on_the_first_keeps_its_values(arbiter) -> None:  # type: ignore[no-untyped-def]
    field = players(4)
    march = make_list(MARCH, {field[0]: (2300, "MI"), field[1]: (2200, ""), field[2]: (2100, "MF")})
    t = _swiss(arbiter, "march", field, march)
    # Each entry took its list's values, not the register's; a player not on the list has no rating from it.
    assert kept(t) == [(2300, None, "MI"), (2200, None, ""), (2100, None, "MF"), (None, None, "")]
    june = make_list(JUNE, {field[0]: (2350, "GMI"), field[1]: (2150, "MF"), field[2]: (2100, "MF"),
                            field[3]: (1900, "")})
    import_into_register(march)
    import_into_register(june)
    assert Player.objects.get(pk=field[0].pk).title == "GMI"
    assert kept(t) == [(2300, None, "MI"), (2200, None, ""), (2100, None, "MF"), (None, None, "")]
    t.refresh_from_db()
    assert t.fmjd_list == march
    # "Rating changed since entry": the entries against the register as it now stands.
    assert [(c.entry.player_id, c.at_entry, c.now) for c in ratings.rating_changes(t)] == [
        (field[0].pk, 2300, 2350), (field[1].pk, 2200, 2150), (field[3].pk, None, 1900)]
    # A later entry in the same tournament still reads March's list.
    late = Player.objects.create(surname="Late", fmjd_id=799, rating=2500, title="GMI")
    RatingListRow.objects.create(rating_list=march, line=9, fmjd_id=799, surname="Late", rating=1800, title="")
    entry = roster.entry_add(tournament=t, player=late)
    assert (entry.rating, entry.title) == (1800, "")  # found by his FMJD id: the row was not matched to him


def test_a_national_list_gives_the_national_rating_by_national_id(arbiter) -> None:  # type: ignore[no-untyped-def]
    field = players(2)
    NationalId.objects.create(player=field[0], body="KNDB", number="123")
    kndb = make_list(MARCH, {field[0]: (1750, "")}, kind=RatingKind.NATIONAL, source="KNDB", by_record=False)
    t = Tournament.objects.create(name="n", slug="n", system=System.SWISS, rounds_total=3, chief_arbiter=arbiter,
                                  national_list=kndb, rating_method=RatingMethod.NATIONAL)
    for p in field:
        roster.entry_add(tournament=t, player=p)
    # The FMJD rating is the register's (no FMJD list chosen); the national one is the KNDB list's.
    assert kept(t) == [(1001, 1750, ""), (1002, None, "")]


def test_pairing_numbers_by_rating_follow_the_kept_values(arbiter) -> None:  # type: ignore[no-untyped-def]
    field = players(4)  # the register orders them P4, P3, P2, P1
    march = make_list(MARCH, {field[0]: (2000, ""), field[1]: (2100, "MF"), field[2]: (2100, "GMI"),
                              field[3]: (1500, "")})
    t = _swiss(arbiter, "numbers", field, march)
    import_into_register(make_list(JUNE, {p: (3000 - 100 * i, "") for i, p in enumerate(reversed(field))}))
    roster.entries_number_by_rating(tournament=t)
    order = [e.player.surname for e in t.entries.select_related("player").order_by("pairing_number")]
    assert order == ["P3", "P2", "P1", "P4"]  # 2100 GMI, 2100 MF (the list's titles), 2000, 1500


def _finished(arbiter) -> tuple[Tournament, list[Player], RatingList]:  # type: ignore[no-untyped-def]
    field = players(6)
    march = make_list(MARCH, {p: (2000 + 50 * i, "MF" if i % 2 else "") for i, p in enumerate(field)})
    t = _swiss(arbiter, "done", field, march, tiebreaks=["average_rating", "solkoff"])
    for _ in range(3):
        play_swiss_round(t)
    t = Tournament.objects.get(pk=t.pk)
    assert ratings.is_finished(t)
    return t, field, march


def _record(t: Tournament) -> tuple[str, list[tuple[int, dict[str, object]]]]:
    t = Tournament.objects.get(pk=t.pk)
    return (pairing_bridge.export_trf(t, next_round=3),
            [(row.player.pairing_number, dict(row.tiebreaks)) for row in selectors.standings(t)])


def test_a_finished_tournament_s_trf_and_tie_breaks_stay_after_a_new_list(arbiter, chief) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    from tests.tournaments.test_permissions import scrape_form

    t, field, march = _finished(arbiter)
    before = _record(t)
    assert " MF " in before[0] and "2250" in before[0]
    june = make_list(JUNE, {p: (2600 - 50 * i, "GMI") for i, p in enumerate(field)})
    import_into_register(march)
    import_into_register(june)
    assert _record(t) == before
    # The settings form: the field is read-only, and a stale page posting it is refused.
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    assert 'name="fmjd_list"' not in chief.get(url).content.decode()
    stale = Tournament.objects.get(pk=t.pk)
    stale.fmjd_list = june
    with pytest.raises(ValidationError, match="cannot change on the settings once round 1 is paired"):
        settings_rules.check_settings(stale)
    data = scrape_form(chief, url)
    data["fmjd_list"] = str(june.pk)
    chief.post(url, data)
    # The save service.
    with pytest.raises(DomainError, match="cannot change on the settings once round 1 is paired"):
        under_way.tournament_save(tournament=stale)
    # The compare-a-list step and the old take-note step.
    with pytest.raises(DomainError, match="is finished"):
        rating_lists.list_change(tournament=t, rating_list=june, chosen=[], confirmed=["rating-list-changed"])
    with pytest.raises(DomainError, match="is finished"):
        numbering.ratings_take_note(tournament=t)
    assert Tournament.objects.get(pk=t.pk).fmjd_list == march
    assert _record(t) == before


def test_the_json_transfer_carries_the_list_and_the_kept_titles(arbiter) -> None:  # type: ignore[no-untyped-def]
    from tournaments.exchange.transfer import dumps, export_tournament, import_tournament, loads

    t, field, march = _finished(arbiter)
    before = _record(t)
    june = make_list(JUNE, {p: (2600, "GMI") for p in field})
    import_into_register(june)
    doc = loads(dumps(export_tournament(t)))
    assert doc["tournament"]["fmjd_list"] == {"source": "FMJD", "kind": "fmjd", "published_on": "2026-03-01"}
    assert sorted(e["title"] for e in doc["entries"]) == ["", "", "", "MF", "MF", "MF"]
    # A file naming another list (edited by hand, or from a site where the tournament was rated otherwise)
    # changes no kept value: the entries carry theirs.
    doc["tournament"]["fmjd_list"] = {"source": "FMJD", "kind": "fmjd", "published_on": "2026-06-01"}
    import_tournament(doc, replace=True)
    t = Tournament.objects.get(slug="done")
    assert t.fmjd_list == june
    assert _record(t) == before
    # A list this site does not hold: the tournament keeps its values and names no list.
    doc["tournament"]["fmjd_list"] = {"source": "FFJD", "kind": "fmjd", "published_on": "2020-01-01"}
    import_tournament(doc, replace=True)
    t = Tournament.objects.get(slug="done")
    assert t.fmjd_list is None and _record(t) == before


def test_choosing_the_list_before_round_1_makes_every_entry_take_its_values(arbiter, chief) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    from tests.tournaments.test_permissions import scrape_form

    field = players(3)
    march = make_list(MARCH, {field[0]: (2300, "MI"), field[1]: (2200, "")})
    june = make_list(JUNE, {field[0]: (2400, "GMI"), field[2]: (2000, "MF")})
    t = _swiss(arbiter, "choose", field, None)
    assert kept(t) == [(1001, None, ""), (1002, None, ""), (1003, None, "")]  # no list: the register's
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    page = chief.get(url).content.decode()
    # Offered newest first, the list valid at the start (April 10th: March's) chosen by default.
    assert page.index("FMJD 2026-06-01 (2 players)") < page.index("FMJD 2026-03-01 (2 players)")
    assert f'<option value="{march.pk}" selected>' in page
    response = chief.post(url, scrape_form(chief, url))
    assert response.status_code == 302
    assert kept(t) == [(2300, None, "MI"), (2200, None, ""), (None, None, "")]
    t.refresh_from_db()
    t.fmjd_list = june
    under_way.tournament_save(tournament=t)
    assert kept(t) == [(2400, None, "GMI"), (None, None, ""), (2000, None, "MF")]
    t.fmjd_list = None
    under_way.tournament_save(tournament=t)
    assert kept(t) == [(1001, None, ""), (1002, None, ""), (1003, None, "")]


def test_a_running_tournament_s_list_is_refused_by_every_settings_path(arbiter, chief) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    from tests.tournaments.test_permissions import scrape_form

    field = players(4)
    march = make_list(MARCH, {p: (2000 + i, "") for i, p in enumerate(field)})
    june = make_list(JUNE, {p: (2100 + i, "MF") for i, p in enumerate(field)})
    t = _swiss(arbiter, "running", field, march, rounds=5)
    url = reverse("admin:tournaments_tournament_change", args=[t.pk])
    assert 'name="fmjd_list"' in chief.get(url).content.decode()
    play_swiss_round(t)
    # The page no longer offers the field; a post naming it changes nothing.
    assert 'name="fmjd_list"' not in chief.get(url).content.decode()
    data = scrape_form(chief, url)
    data["fmjd_list"] = str(june.pk)
    assert chief.post(url, data).status_code == 302
    # The form itself (a page read before round 1 was paired) asks the settings' rules.
    form = TournamentForm(data={**data, "fmjd_list": str(june.pk)}, instance=Tournament.objects.get(pk=t.pk))
    assert not form.is_valid()
    assert "The rating list cannot change on the settings once round 1 is paired" in str(form.errors["fmjd_list"])
    t = Tournament.objects.get(pk=t.pk)
    t.fmjd_list = june
    with pytest.raises(DomainError, match="cannot change on the settings"):
        under_way.tournament_save(tournament=t)
    with pytest.raises(DomainError, match="Round 1 of running is paired"):
        rating_lists.entries_retake(t)
    t = Tournament.objects.get(pk=t.pk)
    assert t.fmjd_list == march and {e[0] for e in kept(t)} == {2000, 2001, 2002, 2003}


def test_the_compare_a_list_step_takes_only_the_ticked_entries(arbiter) -> None:  # type: ignore[no-untyped-def]
    field = players(4)
    march = make_list(MARCH, {field[0]: (2300, "MI"), field[1]: (2200, ""), field[2]: (2100, ""),
                              field[3]: (2000, "")})
    june = make_list(JUNE, {field[0]: (2350, "GMI"), field[1]: (2200, ""), field[2]: (2150, ""),
                            field[3]: (1950, "")})
    earlier = make_list(datetime.date(2026, 1, 1), {p: (1000, "") for p in field})
    t = _swiss(arbiter, "step", field, march, rounds=5, tiebreaks=["average_rating"])
    with pytest.raises(DomainError, match="Round 1 is not paired yet"):
        rating_lists.list_change(tournament=t, rating_list=june, chosen=[])
    play_swiss_round(t)
    with pytest.raises(DomainError, match="is not later than the tournament's list"):
        rating_lists.list_change(tournament=t, rating_list=earlier, chosen=[])
    changes = rating_lists.list_comparison(t, june)
    by_player = {c.entry.player_id: c for c in changes}
    assert sorted((c.entry.player_id, c.old_rating, c.new_rating, c.old_title, c.new_title) for c in changes) == [
        (field[0].pk, 2300, 2350, "MI", "GMI"), (field[2].pk, 2100, 2150, "", ""), (field[3].pk, 2000, 1950, "", "")]
    chosen = [by_player[field[0].pk].token, by_player[field[3].pk].token]
    signature = rating_lists.comparison_signature(changes)
    with pytest.raises(NeedsConfirmation):
        rating_lists.list_change(tournament=t, rating_list=june, chosen=chosen, expected=signature)
    assert Tournament.objects.get(pk=t.pk).fmjd_list == march
    with pytest.raises(StaleEditError):
        rating_lists.list_change(tournament=t, rating_list=june, chosen=chosen, expected="0" * 16,
                                 confirmed=["rating-list-changed"])
    taken = rating_lists.list_change(tournament=t, rating_list=june, chosen=chosen, expected=signature,
                                     confirmed=["rating-list-changed"], user=arbiter)
    assert [c.entry.player_id for c in taken] == [field[0].pk, field[3].pk]
    assert kept(t) == [(2350, None, "GMI"), (2200, None, ""), (2100, None, ""), (1950, None, "")]
    t = Tournament.objects.get(pk=t.pk)
    assert t.fmjd_list == june
    event = t.conformance_events.get(code="rating-list-changed")
    assert event.level == 3 and event.created_by == arbiter
    assert event.values["old"] == "FMJD 2026-03-01" and event.values["new"] == "FMJD 2026-06-01"
    assert event.values["taken"] == 2 and len(event.values["changes"]) == 2
    assert Entry.history.filter(player_id=field[0].pk, rating=2350).get().history_user == arbiter
    assert "### " in pairing_bridge.export_trf(t) and "rating-list-changed" in pairing_bridge.export_trf(t)


def test_the_other_list_s_rating_is_picked_for_a_player_without_one(arbiter) -> None:  # type: ignore[no-untyped-def]
    field = players(3)
    NationalId.objects.create(player=field[2], body="KNDB", number="9")
    fmjd = make_list(MARCH, {field[0]: (2300, ""), field[1]: (2200, "")})
    kndb = make_list(MARCH, {field[2]: (1700, "")}, kind=RatingKind.NATIONAL, source="KNDB")
    t = Tournament.objects.create(name="pick", slug="pick", system=System.SWISS, rounds_total=5,
                                  chief_arbiter=arbiter, fmjd_list=fmjd, national_list=kndb,
                                  rating_method=RatingMethod.FMJD_ONLY)
    for p in field:
        roster.entry_add(tournament=t, player=p)
    entry = t.entries.get(player=field[2])
    entry.tournament = t
    assert (entry.rating, entry.national_rating, ratings.entry_rating(entry)) == (None, 1700, None)
    assert rating_lists.can_pick(entry, t.rating_method)
    other = t.entries.get(player=field[0])
    with pytest.raises(DomainError, match="nothing to pick"):
        rating_lists.other_rating_pick(tournament=t, entry=other)
    import_into_register(fmjd)
    import_into_register(kndb)
    Player.objects.filter(pk=field[2].pk).update(rating=None)  # not on FMJD's list: the register has none
    assert ratings.rating_changes(t) == []
    picked = rating_lists.other_rating_pick(tournament=t, entry=entry, user=arbiter)
    assert ratings.rating_changes(t) == []  # the register read as the entry is: his pick included
    assert ratings.entry_rating(picked) == 1700
    assert (picked.rating, picked.national_rating) == (None, 1700)  # each list's rating stays its own
    event = t.conformance_events.get(code="other-rating-picked")
    assert event.values == {"player": "P3, T", "rating": 1700} and event.created_by == arbiter
    roster.entries_number_by_rating(tournament=t)
    assert [e.player_id for e in t.entries.order_by("pairing_number")] == [field[0].pk, field[1].pk, field[2].pk]
    with pytest.raises(DomainError, match="nothing to pick"):
        rating_lists.other_rating_pick(tournament=t, entry=entry)


def _pdf_text(data: bytes) -> str:
    import io

    from pypdf import PdfReader

    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def test_prints_trf_and_pages_show_the_entry_s_title_not_the_register_s(arbiter, chief) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    from tournaments.rounds import services
    from tournaments.sheets.export import export_pdn

    field = players(4)
    march = make_list(MARCH, {p: (2000 + 10 * i, "CMI") for i, p in enumerate(field)})
    t = _swiss(arbiter, "titles", field, march, public=True)
    Player.objects.filter(pk__in=[p.pk for p in field]).update(title="GMI")  # the register moved on
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    trf = pairing_bridge.export_trf(t)
    assert [line[10:13] for line in trf.splitlines() if line.startswith("001")] == ["CMI"] * 4
    assert {selectors.player_line(e).title for e in t.entries.select_related("player", "tournament")} == {"CMI"}
    pages = [chief.get(reverse("tournaments:rank_list", args=[t.slug])).content.decode(),
             chief.get(reverse("tournaments:player", args=[t.slug, 1])).content.decode(),
             chief.get(reverse("admin:tournaments_tournament_numbers", args=[t.pk])).content.decode()]
    for name in ("starting_list_pdf", "pairings_pdf", "boards_pdf", "scoresheets_pdf", "slips_pdf"):
        args = [t.slug] if name == "starting_list_pdf" else [t.slug, 1]
        response = chief.get(reverse(f"tournaments:{name}", args=args))
        assert response.status_code == 200, name
        pages.append(_pdf_text(b"".join(response)))
    for text in pages:
        # as a word: a page's random CSRF token may hold the three letters
        assert re.search(r"\bCMI\b", text) and not re.search(r"\bGMI\b", text)
    change_page = chief.get(reverse("admin:tournaments_tournament_change", args=[t.pk])).content.decode()
    assert re.findall(r'class="field-title">\s*<p>[^<]*\((\w+)\)</p>', change_page) == ["CMI"] * 4  # the entries inline
    assert "[WhiteTitle \"CMI\"]" in export_pdn(t)


def test_the_compare_step_and_the_pick_on_the_pairing_numbers_page(arbiter, chief) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    field = players(4)
    march = make_list(MARCH, {field[0]: (2300, "MI"), field[1]: (2200, ""), field[2]: (2100, "")})
    june = make_list(JUNE, {field[0]: (2350, "GMI"), field[1]: (2250, ""), field[2]: (2100, "")})
    NationalId.objects.create(player=field[3], body="KNDB", number="4")
    kndb = make_list(MARCH, {field[3]: (1800, "")}, kind=RatingKind.NATIONAL, source="KNDB")
    t = _swiss(arbiter, "page", field, march, rounds=5, national_list=kndb, rating_method=RatingMethod.FMJD_ONLY)
    url = reverse("admin:tournaments_tournament_numbers", args=[t.pk])
    page = chief.get(url).content.decode()
    assert "Before round 1 the lists are chosen on the tournament" in page
    assert 'id="dn-compare-list"' not in page
    play_swiss_round(t)
    page = chief.get(url).content.decode()
    assert f'<option value="{june.pk}">FMJD 2026-06-01' in page and f'<option value="{march.pk}">FMJD' not in page
    page = chief.post(url, {"action": "compare_list", "rating_list": june.pk}).content.decode()
    assert page.count('name="take"') == 2 and "2300 → 2350" in page and "MI → GMI" in page
    token = str(t.entries.get(player=field[1]).pk)
    signature = rating_lists.comparison_signature(rating_lists.list_comparison(t, june))
    asked = chief.post(url, {"action": "change_list", "rating_list": june.pk, "signature": signature,
                             "take": [token]}).content.decode()
    assert 'value="rating-list-changed"' in asked and f'value="{token}" id="dn-take-{token}" checked' in asked
    assert Tournament.objects.get(pk=t.pk).fmjd_list == march
    done = chief.post(url, {"action": "change_list", "rating_list": june.pk, "signature": signature,
                            "take": [token], "confirmed": ["rating-list-changed"]})
    assert done.status_code == 302
    assert kept(t)[:2] == [(2300, None, "MI"), (2250, None, "")]
    assert Tournament.objects.get(pk=t.pk).fmjd_list == june
    # Q129: the fourth player has no FMJD rating on the list the tournament reads alone, but a KNDB one.
    page = chief.get(url).content.decode()
    assert "Pick his rating of 1800 from the other list" in page
    entry = t.entries.get(player=field[3])
    assert chief.post(url, {"action": "pick_other", "entry": entry.pk}).status_code == 302
    entry = Entry.objects.select_related("tournament").get(pk=entry.pk)
    assert entry.other_rating_picked and ratings.entry_rating(entry) == 1800
    assert "Pick his rating" not in chief.get(url).content.decode()


def test_the_control_room_says_a_rating_changed_since_the_entry_of_a_list_tournament(arbiter, chief) -> None:  # type: ignore[no-untyped-def]
    from django.urls import reverse

    field = players(4)
    march = make_list(MARCH, {p: (2000 + i, "") for i, p in enumerate(field)})
    import_into_register(march)  # the register reads March's list: nothing differs from the entries
    t = _swiss(arbiter, "notice", field, march, rounds=5)
    play_swiss_round(t)
    url = reverse("admin:tournaments_tournament_control", args=[t.pk])
    assert 'id="dc-rating-notice"' not in chief.get(url).content.decode()
    import_into_register(make_list(JUNE, {field[0]: (2222, "")}))
    page = chief.get(url).content.decode()
    assert 'id="dc-rating-notice"' in page and "P1, T 2000 → 2222" in page
    assert kept(t)[0] == (2000, None, "")
