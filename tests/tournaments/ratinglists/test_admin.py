"""The admin's rating lists: upload, columns, preview, import; the list's page and rows; delete refusals."""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournaments.models import Player, RatingList, RatingListRow, Tournament

pytestmark = pytest.mark.django_db

DRA = ('"nr_ew","last_n","first_n","country","title","rating","wtitle","wrating"\n'
       '"15266","Sørensen","Ivar","NED","MI","A 2339","",""\n'
       '"17237","Nimbi","Anna","CMR","","1888","MIF",""\n'
       '"20056","Dupont","Jean","FRA","XYZ","2100","",""\n').encode()
IMPORT = "admin:tournaments_ratinglist_import"


@pytest.fixture
def admin_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_superuser("boss", password="pw-boss-123"))
    return client


def _hidden(html: str, name: str) -> str:
    return re.search(rf'name="{name}" value="([^"]*)"', html).group(1)  # type: ignore[union-attr]


def _upload(client: Client, name: str = "V261001.DRA", data: bytes = DRA, **fields: str):  # type: ignore[no-untyped-def]
    return client.post(reverse(IMPORT), {"file": SimpleUploadedFile(name, data), "kind": "fmjd", "upload": "1",
                                         **fields})


def _next(response, **extra: str) -> dict[str, str]:  # type: ignore[no-untyped-def]
    html = response.content.decode()
    posted = {"token": _hidden(html, "token"), "file_name": _hidden(html, "file_name"),
              "source": _hidden(html, "source"), "published_on": _hidden(html, "published_on"), "kind": "fmjd"}
    for i in range(html.count('name="col_')):
        chosen = re.search(rf'<select name="col_{i}"[^>]*>.*?<option value="([^"]*)" selected', html, re.S)
        posted[f"col_{i}"] = chosen.group(1) if chosen else ""
    return posted | extra


def test_upload_mapping_preview_import(admin_client: Client) -> None:
    known = Player.objects.create(surname="Sørensen", given_name="Ivar", fmjd_id=15266, rating=2000)
    page = admin_client.get(reverse("admin:tournaments_ratinglist_changelist"))
    assert 'id="import-rating-list"' in page.content.decode()
    step = _upload(admin_client)
    html = step.content.decode()
    assert 'id="mapping"' in html and 'value="FMJD"' in html and 'value="2026-10-01"' in html  # from the name
    preview = admin_client.post(reverse(IMPORT), _next(step, preview="1"))
    html = preview.content.decode()
    assert "3 rows" in html and "1 matched to the register" in html and "1 with errors" in html
    assert "line 4, title: “XYZ” is not an FMJD title" in html
    assert 'id="preview-moves"' in html
    refused = admin_client.post(reverse(IMPORT), _next(preview, **{"import": "1"}), follow=True)
    assert "Nothing imported: 1 row has errors" in refused.content.decode()
    assert not RatingList.objects.exists()
    assert 'value="2026-10-01"' in refused.content.decode()  # the form as typed
    done = admin_client.post(reverse(IMPORT), _next(preview, leave_out_errors="on", **{"import": "1"}), follow=True)
    rating_list = RatingList.objects.get()
    assert done.redirect_chain[-1][0] == reverse("admin:tournaments_ratinglist_change", args=[rating_list.pk])
    assert ("Rows: 2; matched to the register: 1; players updated: 1; rows with errors left out: 1."
            in done.content.decode())
    assert 'id="list-rows"' in done.content.decode() and "2 rows</a>" in done.content.decode()
    assert done.content.decode().count("Rows:</label>") == 1  # the link with its count, not a second line
    assert (rating_list.source, rating_list.published_on, rating_list.row_count) == (
        "FMJD", datetime.date(2026, 10, 1), 2)
    known.refresh_from_db()
    assert known.rating == 2339
    rows = admin_client.get(reverse("admin:tournaments_ratinglistrow_changelist"),
                            {"rating_list__id__exact": rating_list.pk, "q": "sorensen"})
    assert "Sørensen" in rows.content.decode() and "Nimbi" not in rows.content.decode()
    listing = admin_client.get(reverse("admin:tournaments_ratinglist_changelist")).content.decode()
    assert "FMJD 2026-10-01" in listing
    older = admin_client.post(reverse(IMPORT), _next(_upload(admin_client, "V260701.DRA"), preview="1"))
    html = older.content.decode()
    assert 'id="preview-newer"' in html and "(2026-10-01) is already imported" in html


def test_a_csv_whose_columns_are_changed_and_a_missing_surname_is_said(admin_client: Client) -> None:
    data = b"Naam;Bondsnr;Punten\nJansen;12345;1432\n"
    step = _upload(admin_client, "kndb.csv", data, source="kndb", published_on="2026-10-01", kind="national")
    posted = _next(step, kind="national", preview="1")
    assert (posted["col_0"], posted["col_1"], posted["col_2"]) == ("surname", "national_id", "")
    posted["col_0"] = ""
    html = admin_client.post(reverse(IMPORT), posted).content.decode()
    assert "Choose the column that holds the surname." in html
    posted |= {"col_0": "surname", "col_2": "rating"}
    html = admin_client.post(reverse(IMPORT), posted).content.decode()
    assert "1 row" in html and "1432" in html
    admin_client.post(reverse(IMPORT), posted | {"import": "1"})
    assert RatingListRow.objects.get().rating == 1432
    again = admin_client.post(reverse(IMPORT), _next(_upload(admin_client, "kndb.csv", data, source="KNDB",
                                                             published_on="2026-10-01"), kind="national",
                                                     col_2="rating", preview="1")).content.decode()
    assert 'id="preview-existing"' in again and 'name="import"' not in again


def test_only_staff_arbiters_import() -> None:
    client = Client()
    client.force_login(get_user_model().objects.create_user("nobody", password="pw-nobody-123"))
    assert client.get(reverse(IMPORT)).status_code == 302  # to the login page
    staff = Client()
    staff.force_login(get_user_model().objects.create_user("arb", password="pw-arb-123", is_staff=True))
    assert staff.get(reverse(IMPORT)).status_code == 200


def _used_list() -> tuple[RatingList, Tournament]:
    rating_list = RatingList.objects.create(source="FMJD", kind="fmjd", published_on=datetime.date(2026, 10, 1))
    t = Tournament.objects.create(name="Open", slug="open", system="swiss", rounds_total=5, fmjd_list=rating_list)
    return rating_list, t


def test_deleting_a_used_list_is_refused_on_the_delete_page(admin_client: Client) -> None:
    rating_list, t = _used_list()
    url = reverse("admin:tournaments_ratinglist_delete", args=[rating_list.pk])
    page = admin_client.get(url)
    assert page.status_code == 200
    assert "Open reads FMJD 2026-10-01: choose another list for it first." in page.content.decode()
    posted = admin_client.post(url, {"post": "yes"})
    assert posted.status_code == 200
    assert RatingList.objects.filter(pk=rating_list.pk).exists()


def test_deleting_a_used_list_is_refused_by_the_bulk_delete(admin_client: Client) -> None:
    rating_list, t = _used_list()
    unused = RatingList.objects.create(source="FMJD", kind="fmjd", published_on=datetime.date(2026, 7, 1))
    response = admin_client.post(reverse("admin:tournaments_ratinglist_changelist"),
                                 {"action": "delete_selected", "_selected_action": [rating_list.pk, unused.pk],
                                  "post": "yes"})
    assert response.status_code == 200
    assert "Open reads FMJD 2026-10-01: choose another list for it first." in response.content.decode()
    assert RatingList.objects.count() == 2
    admin_client.post(reverse("admin:tournaments_ratinglist_changelist"),
                      {"action": "delete_selected", "_selected_action": [unused.pk], "post": "yes"})
    assert list(RatingList.objects.all()) == [rating_list]


def test_after_an_import_the_running_tournaments_control_room_names_the_change(make_tournament, chief) -> None:  # type: ignore[no-untyped-def]
    from tests.tournaments.play import play_swiss_round
    from tournaments.ratinglists import columns, readers, rows
    from tournaments.ratinglists.services import import_rating_list

    t = make_tournament(4, system="swiss", slug="run", rounds_total=3)
    play_swiss_round(t)
    entry = t.entries.order_by("pairing_number").first()
    table = readers.read_dra(f'"nr_ew","last_n","rating"\n"{entry.player.fmjd_id}","{entry.player.surname}","2555"\n'
                             .encode())
    import_rating_list(read=rows.read_rows(table, columns.guess_all(table.headers)), source="FMJD", kind="fmjd",
                       published_on=datetime.date(2026, 10, 1), user=t.chief_arbiter)
    html = chief.get(reverse("admin:tournaments_tournament_control", args=[t.pk])).content.decode()
    notice = html[html.index('id="dc-rating-notice"'):]
    assert f"{entry.player.full_name} {entry.rating} → 2555" in notice[:600]
    entry.refresh_from_db()
    assert entry.rating != 2555  # the entry keeps its value


def test_an_xlsx_list_through_the_admin_with_its_sheet_chosen(admin_client: Client) -> None:
    import io

    from openpyxl import Workbook

    book = Workbook()
    book.active.title = "Notes"
    book.active.append(["nothing here"])
    sheet = book.create_sheet("Lijst")
    sheet.append(["Bondsnummer", "Achternaam", "KNDB rating"])
    sheet.append([12345, "Jansen", 1432])
    sheet.append([12346, "Bakker", "veel"])
    out = io.BytesIO()
    book.save(out)
    wrong = _upload(admin_client, "kndb.xlsx", out.getvalue(), source="KNDB", published_on="2026-10-01",
                    kind="national", sheet="Blad1").content.decode()
    assert "no sheet named “Blad1”; the sheets are Notes, Lijst" in wrong and 'value="KNDB"' in wrong
    step = _upload(admin_client, "kndb.xlsx", out.getvalue(), source="KNDB", published_on="2026-10-01",
                   kind="national", sheet="Lijst")
    posted = _next(step, kind="national", sheet="Lijst", preview="1")
    assert (posted["col_0"], posted["col_1"], posted["col_2"]) == ("national_id", "surname", "rating")
    html = admin_client.post(reverse(IMPORT), posted).content.decode()
    assert "XLSX · Lijst" in html and "line 3, rating: “veel” is not a number" in html
    admin_client.post(reverse(IMPORT), posted | {"import": "1", "leave_out_errors": "on"})
    assert list(RatingListRow.objects.values_list("national_id", "rating")) == [("12345", 1432)]
