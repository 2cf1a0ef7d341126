"""The role matrix for rating lists: who imports (any arbiter, for the players that are his to change) and
who deletes (the administrator, or the arbiter who imported the list). The world is test_permissions'."""

from __future__ import annotations

import datetime
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tests.tournaments.test_permissions import ARBITERS, ROLES, SUPERUSER, World, action, refused, world
from tournaments.models import Player, RatingList

__all__ = ["world"]  # the fixture, imported so pytest finds it here
IMPORT = "admin:tournaments_ratinglist_import"


def _import(w: World, role: str, player: Player) -> int:
    """Upload, preview and import a one-row list as `role`: the last step's status."""
    client = w.client(role)
    text = f'"nr_ew","last_n","rating"\n"{player.fmjd_id}","{player.surname}","1999"\n'
    step = client.post(reverse(IMPORT), {"file": SimpleUploadedFile("V261001.DRA", text.encode()), "kind": "fmjd"})
    if step.status_code != 200:
        return step.status_code
    html = step.content.decode()
    posted = {name: re.search(rf'name="{name}" value="([^"]*)"', html).group(1)  # type: ignore[union-attr]
              for name in ("token", "file_name", "source", "published_on")}
    posted |= {"kind": "fmjd", "col_0": "fmjd_id", "col_1": "surname", "col_2": "rating", "import": "1"}
    return client.post(reverse(IMPORT), posted).status_code


@pytest.mark.parametrize("role", ROLES)
def test_importing_a_list_that_moves_a_player_of_a(world: World, role: str) -> None:
    player = world.entry(1).player
    before = player.rating
    status = _import(world, role, player)
    player.refresh_from_db()
    assert status < 500
    if role in ARBITERS:
        assert player.rating == 1999 and RatingList.objects.count() == 1
    else:
        assert player.rating == before and not RatingList.objects.exists()
        assert refused(status, role), status


@pytest.mark.parametrize("role", ROLES)
def test_deleting_a_list(world: World, role: str) -> None:
    rating_list = RatingList.objects.create(source="CLUB", kind="fmjd", published_on=datetime.date(2026, 1, 1))
    url, data = action(RatingList, "delete_selected", lambda w: [rating_list], post="yes")(world)
    response = world.client(role).post(url, data)
    assert response.status_code < 500
    assert RatingList.objects.exists() == (role not in SUPERUSER)


def test_the_arbiter_who_imported_a_list_may_delete_it(world: World) -> None:
    chief = world.users["chief"]
    mine = RatingList.objects.create(source="CLUB", kind="fmjd", published_on=datetime.date(2026, 1, 1),
                                     imported_by=chief)
    theirs = RatingList.objects.create(source="CLUB", kind="fmjd", published_on=datetime.date(2026, 2, 1))
    client = world.client("chief")
    for rating_list in (mine, theirs):
        url, data = action(RatingList, "delete_selected", lambda w, x=rating_list: [x], post="yes")(world)
        client.post(url, data)
    assert list(RatingList.objects.all()) == [theirs]
