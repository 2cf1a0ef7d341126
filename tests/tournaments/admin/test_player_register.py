"""The player's page and list: national ids, folded search (list and the entries' player search), the merge
action with its preview, and Django's own delete pages around merged records."""

from __future__ import annotations

import datetime
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round
from tournaments.models import Entry, NationalId, Player, PlayerMerge, System, Tournament
from tournaments.players import roster
from tournaments.players.merge import fingerprint

pytestmark = pytest.mark.django_db

LIST = "admin:tournaments_player_changelist"


@pytest.fixture
def root() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("root", email=None, password=None))
    return client


@pytest.fixture
def register(db: None) -> dict[str, Player]:
    players = {
        "sorensen": Player.objects.create(surname="Sørensen", given_name="Ivar", fmjd_id=123, federation="NED"),
        "twin": Player.objects.create(surname="Sorensen", given_name="I.", club="DC Den Haag"),
        "shvartsman": Player.objects.create(surname="Шварцман", given_name="Лев", native_name="Шварцман Лев"),
        "other": Player.objects.create(surname="Baba", given_name="Ndiaga", federation="SEN"),
    }
    NationalId.objects.create(player=players["twin"], body="KNDB", number="4711")
    return players


def _found(client: Client, term: str) -> set[str]:
    page = client.get(reverse(LIST), {"q": term})
    assert page.status_code == 200
    return {p.surname for p in page.context["cl"].result_list}


def test_the_list_finds_folded_names_and_national_ids(root, register) -> None:  # type: ignore[no-untyped-def]
    assert _found(root, "sorensen") == {"Sørensen", "Sorensen"}
    assert _found(root, "shvartsman") == {"Шварцман"}
    assert _found(root, "ivar sorensen") == {"Sørensen"}
    assert _found(root, "4711") == {"Sorensen"}
    assert _found(root, "kndb 4711") == {"Sorensen"}
    assert _found(root, "baba") == {"Baba"}  # Django's own search still answers
    page = root.get(reverse(LIST)).content.decode()
    assert "KNDB 4711" in page


def test_the_entries_player_search_folds_too(root, register, make_tournament) -> None:  # type: ignore[no-untyped-def]
    make_tournament(2, slug="t")
    answer = root.get(reverse("admin:autocomplete"), {"term": "sorensen", "app_label": "tournaments",
                                                      "model_name": "entry", "field_name": "player"})
    assert answer.status_code == 200
    names = {r["text"] for r in json.loads(answer.content)["results"]}
    assert names == {"Sørensen, Ivar", "Sorensen, I."}
    answer = root.get(reverse("admin:autocomplete"), {"term": "shvartsman", "app_label": "tournaments",
                                                      "model_name": "entry", "field_name": "player"})
    assert {r["text"] for r in json.loads(answer.content)["results"]} == {"Шварцман, Лев"}


def _inline(player: Player, rows: list[tuple[str, str]], **fields: str) -> dict[str, str]:
    data = {"surname": player.surname, "given_name": player.given_name, "native_name": "", "sex": "",
            "federation": player.federation, "title": "", "club": player.club, "_save": "Save",
            "national_ids-TOTAL_FORMS": str(len(rows)), "national_ids-INITIAL_FORMS": "0", **fields}
    for i, (body, number) in enumerate(rows):
        data[f"national_ids-{i}-body"], data[f"national_ids-{i}-number"] = body, number
    return data


def test_national_ids_on_the_players_page(root, register) -> None:  # type: ignore[no-untyped-def]
    player = register["sorensen"]
    url = reverse("admin:tournaments_player_change", args=[player.pk])
    page = root.post(url, _inline(player, [("kndb", "4711")]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "KNDB id 4711 already belongs to Sorensen, I." in text
    page = root.post(url, _inline(player, [("FFJD", "1"), ("FFJD", "2")]))
    assert "FFJD: a player has one id with a body" in page.content.decode()
    page = root.post(url, _inline(player, [("K N", "1")]))
    assert "Capital letters, digits" in page.content.decode()
    assert root.post(url, _inline(player, [("ffjd", " 8812 ")], native_name="Сёренсен", sex="M")).status_code == 302
    player.refresh_from_db()
    assert (player.native_name, player.sex) == ("Сёренсен", "M")
    assert list(player.national_ids.values_list("body", "number")) == [("FFJD", "8812")]
    assert _found(root, "8812") == {"Sørensen"}
    page = root.post(url, _inline(player, [], title="GM"))
    assert "title" in page.content.decode() and "not one of the available choices" in page.content.decode()


def _merge_page(client: Client, kept: Player, other: Player) -> str:
    return reverse("admin:tournaments_player_merge", args=[kept.pk, other.pk])


def test_the_merge_action_leads_to_a_preview_and_merges(root, register, arbiter) -> None:  # type: ignore[no-untyped-def]
    known, twin = register["sorensen"], register["twin"]
    done = Tournament.objects.create(name="Spring cup", slug="spring", system=System.ROUND_ROBIN,
                                     chief_arbiter=arbiter, start_date=datetime.date(2026, 3, 1))
    for p in (twin, register["other"]):
        roster.entry_add(tournament=done, player=p)
    play_round(done)
    one = root.post(reverse(LIST), {"action": "merge_records", "_selected_action": [str(known.pk)]}, follow=True)
    assert "Select exactly two records" in one.content.decode()
    answer = root.post(reverse(LIST), {"action": "merge_records", "_selected_action": [str(known.pk), str(twin.pk)]})
    assert answer.status_code == 302 and answer["Location"] == _merge_page(root, known, twin)  # FMJD's record kept
    page = root.get(answer["Location"]).content.decode()
    assert "Spring cup" in page and "KNDB 4711" in page and "DC Den Haag" in page
    assert "<th>FMJD id</th>" in page and "Fmjd" not in page  # the field's name as written, not re-cased
    assert re.search(r'name="choose_club" value="other" checked', page)  # the kept record has no club
    version = re.search(r'name="version" value="([0-9a-f]+)"', page).group(1)
    merged = root.post(answer["Location"], {"version": version, "confirm": "1", "choose_given_name": "other",
                                            "choose_club": "kept"}, follow=True)
    assert "merged into Sørensen, I.: one record now" in merged.content.decode()
    assert not Player.objects.filter(pk=twin.pk).exists()
    known.refresh_from_db()
    assert (known.given_name, known.club, known.fmjd_id) == ("I.", "", 123)
    assert Entry.objects.get(tournament=done, player=known).pairing_number == 1
    assert "records merged into this one" in merged.content.decode().lower()  # on the kept player's page
    moved = Entry.objects.get(tournament=done, player=known)
    story = root.get(reverse("admin:tournaments_entry_story", args=[moved.pk]))
    assert story.status_code == 200 and f"merged into #{known.pk}" in story.content.decode()
    history = root.get(reverse("admin:tournaments_player_history", args=[known.pk])).content.decode()
    assert f"merged with #{twin.pk} Sorensen, I." in history
    # The merge is there to read, never to change or delete.
    merge = PlayerMerge.objects.get()
    assert root.get(reverse("admin:tournaments_playermerge_change", args=[merge.pk])).status_code == 200
    assert root.get(reverse("admin:tournaments_playermerge_add")).status_code == 403
    assert root.post(reverse("admin:tournaments_playermerge_delete", args=[merge.pk]), {"post": "yes"}).status_code \
        == 403
    assert PlayerMerge.objects.count() == 1
    # Django's own delete page and bulk action: the kept record is held by its merge, nothing is deleted.
    page = root.post(reverse("admin:tournaments_player_delete", args=[known.pk]), {"post": "yes"})
    assert Player.objects.filter(pk=known.pk).exists()
    page = root.post(reverse(LIST), {"action": "delete_selected", "_selected_action": [str(known.pk)],
                                     "post": "yes"})
    assert Player.objects.filter(pk=known.pk).exists() and PlayerMerge.objects.count() == 1


def test_a_stale_preview_is_refused_and_the_choices_kept(root, register) -> None:  # type: ignore[no-untyped-def]
    known, twin = register["sorensen"], register["twin"]
    url = _merge_page(root, known, twin)
    version = fingerprint(known, twin)
    NationalId.objects.create(player=twin, body="FFJD", number="99")  # another arbiter, meanwhile
    page = root.post(url, {"version": version, "confirm": "1", "choose_club": "kept"})
    text = page.content.decode()
    assert page.status_code == 200
    assert "changed since this preview was drawn" in text
    assert re.search(r'name="choose_club" value="kept" checked', text)  # what the arbiter chose, kept
    assert "FFJD 99" in text  # the records as they are now
    assert Player.objects.filter(pk=twin.pk).exists()
    page = root.post(url, {"confirm": "1"})  # a form without its version is stale too
    assert "changed since this preview was drawn" in page.content.decode()


def test_a_record_with_itself_and_two_fmjd_ids_are_refused_on_the_preview(root, register) -> None:  # type: ignore[no-untyped-def]
    known = register["sorensen"]
    page = root.get(_merge_page(root, known, known)).content.decode()
    assert "cannot be merged with itself" in page and 'name="confirm" value="Merge the two records" disabled' in page
    refused = root.post(_merge_page(root, known, known), {"version": fingerprint(known, known), "confirm": "1"})
    assert "cannot be merged with itself" in refused.content.decode()
    assert Player.objects.filter(pk=known.pk).exists()
    other = register["other"]
    Player.objects.filter(pk=other.pk).update(fmjd_id=456)
    page = root.get(_merge_page(root, known, other)).content.decode()
    assert "two FMJD ids are two persons" in page
    assert root.get(reverse("admin:tournaments_player_merge", args=["x", "1"])).status_code == 404


def test_a_players_page_opened_before_a_merge_does_not_undo_it(root, register) -> None:  # type: ignore[no-untyped-def]
    from tests.tournaments.test_permissions import scrape_form
    from tournaments.players.merge import players_merge

    typed, known = register["twin"], register["sorensen"]
    url = reverse("admin:tournaments_player_change", args=[typed.pk])
    data = scrape_form(root, url, club="DC Rotterdam", _save="Save")  # another arbiter's page, still open
    players_merge(kept=typed, other=known)  # the kept record takes the FMJD id and the federation
    page = root.post(url, data)
    text = page.content.decode()
    assert page.status_code == 200 and "changed since this page was opened" in text
    assert "FMJD id: 123" in text
    typed.refresh_from_db()
    assert (typed.fmjd_id, typed.federation, typed.club) == (123, "NED", "DC Den Haag")
    again = re.search(r'name="read_at" value="(\d+)"', text).group(1)
    assert root.post(url, {**data, "read_at": again}).status_code == 302  # saved again, knowingly
    typed.refresh_from_db()
    assert typed.club == "DC Rotterdam"


def test_a_value_typed_into_a_field_fixed_meanwhile_is_named_as_the_form_names_it(register) -> None:  # type: ignore[no-untyped-def]
    """The refusal names the field by its label as written ("FMJD id"), not re-cased ("Fmjd id")."""
    from tournaments.admin.players import PlayerForm, refuse_typed_into_fixed

    class Checked(PlayerForm):  # as PlayerAdmin.get_form builds it for a player with fixed fields
        def clean(self):  # type: ignore[no-untyped-def]
            cleaned = super().clean()
            refuse_typed_into_fixed(self, {"fmjd_id"})
            return cleaned

    player = register["sorensen"]
    form = Checked({"surname": player.surname, "fmjd_id": "999"}, instance=player)
    assert not form.is_valid()
    errors = " ".join(form.non_field_errors())
    assert errors.startswith("FMJD id: 999 not saved."), errors
