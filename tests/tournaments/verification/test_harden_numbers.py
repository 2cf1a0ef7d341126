"""Every number a request, a form or a file carries, read by rules.numbers: "²" and "①" (which
`str.isdigit()` takes and `int()` refuses), Arabic-Indic and full-width digits (which `re`'s `\\d` and
`int()` both take), 5,000 digits (past Python's int() limit) and 40 digits (past the database's). Each door
answers a page, a 404 or its form's own message; never a server error.

`DOORS` names every place once; `test_each_door_takes_every_bad_number` runs each on the fixed values (each
door failed on at least one of them before rules.numbers), `test_fuzz_every_door` on random ones. Pages are
driven through Django's test client (the arbiter signed in for the admin, nobody for the public site), files
through their importers. Example counts stay modest: the fuzz takes seconds."""

from __future__ import annotations

import io
import json
import re
import tempfile
from collections.abc import Callable
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.http import HttpResponse
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.numbers import number_or_none
from tests.tournaments.admin.test_admin import round_post_data
from tournaments.exchange.transfer import TransferError, export_tournament, import_tournament, loads
from tournaments.exchange.trf_import import TrfImportError, review_trf
from tournaments.models import Game, GameSheet, Player, Round, SheetStatus, System, Tournament
from tournaments.pairing.trf import TrfError, parse_trf
from tournaments.rounds import services
from tournaments.verification.__main__ import main as pairing_main
from tournaments.verification.generator import GenSettings, generate, tournament_trf

BAD = {"superscript": "²", "circled": "①", "arabic": "١", "arabic2": "١٢", "fullwidth": "１２", "long": "9" * 5000,
       "huge": "9" * 40}
NUMBERISH = st.one_of(
    st.sampled_from(list(BAD.values())),
    st.integers(-(10**40), 10**40).map(str),
    st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=6),
    st.text(st.sampled_from("0123456789²³¹①⑳١٢٣４５ -+.,e"), min_size=1, max_size=12),
    st.integers(4301, 6000).map(lambda n: "7" * n),
)
FUZZ = settings(max_examples=40, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
SHEET = '[Event "Test"]\n[Result "2-0"]\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n'


@dataclass
class World:
    tournament: Tournament
    round: Round
    game: Game  # board 1 of round 1, with a sheet (the game page steps through it)
    draft: Round  # round 1 of a second round robin, still a draft (made by hand)
    swiss: Round  # round 1 of a Swiss, still a draft (its pairing edited by hand)
    arbiter: Client
    public: Client


@pytest.fixture
def world(make_tournament, arbiter) -> World:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    game = rnd.games.select_related("white__player", "black__player").get(board=1)
    GameSheet.objects.create(game=game, text=SHEET, status=SheetStatus.NOT_VERIFIABLE,
                             report={"verdict": "not verifiable from the sheet"})
    draft = services.round_pair(tournament=make_tournament(4, slug="d"))
    swiss = services.round_pair(tournament=make_tournament(4, system=System.SWISS, slug="s", rounds_total=3))
    client = Client()
    client.force_login(arbiter)
    return World(t, rnd, game, draft, swiss, client, Client())


def _trf(value: str, where: str) -> str:
    """The generated file with `value` in one number column or record; a column gets as much as fits."""
    lines = tournament_trf(generate(GenSettings(players=6, rounds=2, seed=3))).splitlines()
    columns = {"start": (4, 8), "rating": (48, 52), "id": (57, 68), "points": (80, 84), "rank": (85, 89),
               "opponent": (91, 95)}
    if where in columns:
        a, b = columns[where]
        i = next(n for n, line in enumerate(lines) if line.startswith("001"))
        lines[i] = lines[i][:a] + value[:b - a].rjust(b - a) + lines[i][b:]
    else:
        lines = [line for line in lines if not line.startswith(("XXR", "142"))]
        lines.append({"XXR": f"XXR {value}", "142": f"142 {value}", "XXP": f"XXP 1 {value}",
                      "240": f"240 H {value[:3]:>3} {value}"}[where])
    return "\n".join(lines) + "\n"


def _pdn(w: World, value: str) -> str:
    g = w.game
    return (f'[Round "{value}"]\n[White "{g.white.player.full_name}"]\n[Black "{g.black.player.full_name}"]\n'
            f'[WhiteFMJDId "{value}"]\n[BlackFMJDId "{g.black.player.fmjd_id}"]\n[FEN "W:W{value},31:B1,19"]\n'
            '[Result "2-0"]\n\n1. 31-26 2-0\n')


def _admin(name: str, *args: Any) -> str:
    return reverse(f"admin:tournaments_{name}", args=args)


# Each door: (what the arbiter or the visitor does, what it may answer). None: any answer but a server error.
Door = Callable[[World, str], HttpResponse | None]


def public_ply(w: World, v: str) -> HttpResponse:
    return w.public.get(reverse("tournaments:game", args=[w.tournament.slug, w.game.pk]), {"ply": v})


def public_round(w: World, v: str) -> HttpResponse:
    for page in ("standings", "crosstable"):
        response = w.public.get(reverse(f"tournaments:{page}", args=[w.tournament.slug]), {"round": v})
        assert response.status_code == 404, (page, response.status_code)  # only a published round's number
    return response


def _ANSWERS_FOR(v: str, *found: int) -> tuple[int, ...]:  # noqa: N802
    """A plain number within range may name a real round, player or game (the fuzz draws small integers too):
    then the page itself may answer; anything else is a 404."""
    if not found:
        found = (200,)
    return (404, *found) if number_or_none(v, high=2**31 - 1) is not None else (404,)


def public_paths(w: World, v: str) -> HttpResponse:
    for tail in ("round/{}/", "player/{}/", "game/{}/", "round/{}/pairings.pdf", "round/{}/games.pdn"):
        response = w.public.get(f"/t/{w.tournament.slug}/" + tail.format(v))
        assert response.status_code in _ANSWERS_FOR(v), (tail, response.status_code)
    return response


def admin_paths(w: World, v: str) -> HttpResponse:
    for path in (f"tournament/{v}/control/", f"tournament/{v}/standings/", f"game/{v}/sheet/", f"round/{v}/change/",
                 f"round/{v}/pairing/", f"tournament/{w.draft.tournament_id}/rounds/{v}/by-hand/",
                 f"player/{v}/change/", f"entry/{v}/history/", f"game/{v}/delete/", f"player/{v}/history/",
                 f"tournament/{w.tournament.pk}/history/{v}/", f"tournament/{v}/history/"):
        response = w.arbiter.get(f"/admin/tournaments/{path}")
        assert response.status_code in (302, 403, 404, *_ANSWERS_FOR(v, 200)), (path, response.status_code)
    return response


def admin_standings(w: World, v: str) -> HttpResponse:
    return w.arbiter.get(_admin("tournament_standings", w.tournament.pk), {"round": v})


def final_ties(w: World, v: str) -> HttpResponse:
    response = w.arbiter.post(_admin("tournament_standings", w.tournament.pk),
                              {"order_by_hand": "1", "tie_order": f"1 {v} 2"})
    assert response.status_code == 200
    return response


def control_step(w: World, v: str) -> HttpResponse:
    response = w.arbiter.post(_admin("tournament_step", w.tournament.pk), {"step": "publish", "round": v,
                                                                            "version": v})
    assert response.status_code == 302
    return response


def manual_pairing(w: World, v: str) -> HttpResponse:
    return w.arbiter.post(_admin("round_pairing", w.swiss.pk), {"action": "save", "version": v, "swap": v,
                                                                 "rows": v, "board-1-white": v, "bye": v})


def rr_by_hand(w: World, v: str) -> HttpResponse:
    return w.arbiter.post(_admin("tournament_rr_hand", w.draft.tournament_id, w.draft.number),
                          {"version": v, "board-1-white": v, "board-1-black": v, "board-2-white": "1"})


def numbers_apply(w: World, v: str) -> HttpResponse:
    player = w.tournament.entries.first().player
    response = w.arbiter.post(_admin("tournament_numbers", w.tournament.pk),
                              {"action": "apply_list", "apply": [f"{player.pk}:rating:{v}", f"{v}:rating:1500"]})
    assert response.status_code in (200, 302)
    return response


def rating_list(w: World, v: str) -> HttpResponse:
    fmjd = w.tournament.entries.first().player.fmjd_id
    data = f"fmjd_id,rating\n{fmjd},{v}\n{v},1500\n".encode()
    response = w.arbiter.post(_admin("tournament_numbers", w.tournament.pk),
                              {"action": "check_list", "list": SimpleUploadedFile("list.csv", data, "text/csv")})
    assert response.status_code == 200
    return response


def sheet_versions(w: World, v: str) -> HttpResponse:
    url = _admin("game_sheet", w.game.pk)
    for data in ({"rule": "1", "sheet_version": v}, {"accept": "1", "version": v}):
        response = w.arbiter.post(url, data)
        assert response.status_code == 302
    return response


def bulk_accept(w: World, v: str) -> HttpResponse:
    return w.arbiter.post(_admin("game_changelist"), {"action": "accept_sheet_result", "confirm_accept": "1",
                                                      "_selected_action": [w.game.pk], f"version-{w.game.pk}": v})


def result_slip(w: World, v: str) -> HttpResponse:
    data = {**round_post_data(w.round, {}), "slip": f"1 2-0, {v} 0-2", "games-0-id": v, f"games-{v}-id": v}
    return w.arbiter.post(_admin("round_change", w.round.pk), data)


def entry_autocomplete(w: World, v: str) -> HttpResponse:
    response = w.arbiter.post(_admin("entry_add"), {"tournament": w.tournament.pk, "player": v})
    assert response.status_code == 200  # the form again, with its message
    return response


def sheet_upload(w: World, v: str) -> HttpResponse:
    response = w.arbiter.post(_admin("game_sheet", w.game.pk), {"text": _pdn(w, v), "replace": "on"})
    assert response.status_code in (200, 302)
    return response


def round_sheets(w: World, v: str) -> HttpResponse:
    """The round's PDN file (Round and FMJD id tags), then the preview's "give game N to board" choices."""
    url = _admin("round_sheets", w.round.pk)
    upload = SimpleUploadedFile("r.pdn", (_pdn(w, v) + "\n" + SHEET.replace("[Event", f'[Round "{v}"]\n[Event'))
                                .encode())
    response = w.arbiter.post(url, {"file": upload, "replace": "on"})
    assert response.status_code == 200
    payload = re.search(r'name="payload" value="([^"]*)"', response.content.decode())
    if payload and payload[1]:
        response = w.arbiter.post(url, {"confirm": "1", "payload": payload[1], f"assign-{v}": "1", "assign-1": v,
                                        "assign-2": v})
        assert response.status_code in (200, 302, 400)  # 400: Django's own, for a 5,000-character field name
    return response


def player_csv(w: World, v: str) -> HttpResponse:
    for column in ("fmjd_id", "rating", "birth_year"):
        row = {"surname": "Zed", "given_name": "Ann", "fmjd_id": "777777", "rating": "1500", "birth_year": "1990",
               column: v}
        data = (",".join(row) + "\n" + ",".join(row.values()) + "\n").encode()
        response = w.arbiter.post(_admin("player_import"), {"file": SimpleUploadedFile("p.csv", data, "text/csv")})
        assert response.status_code == 200
        stored = Player.objects.filter(surname="Zed").exists()
        assert not stored or number_or_none(v) is not None, f"{column} {v[:20]!r} was read as a number"
        Player.objects.filter(surname="Zed").delete()
    return response


TRF_PLACES = ["start", "rating", "id", "points", "rank", "opponent", "XXR", "142", "XXP", "240"]


def trf_page(w: World, v: str) -> HttpResponse:
    for where in TRF_PLACES:
        response = w.arbiter.post(_admin("tournament_import_trf"), {"text": _trf(v, where), "slug": "trf"})
        assert response.status_code == 200, where
    return response


def trf_files(w: World, v: str) -> None:
    for where in TRF_PLACES:
        try:
            parse_trf(_trf(v, where))
        except TrfError as exc:
            assert str(exc).strip()
        try:
            review_trf(_trf(v, where))
        except TrfImportError as exc:
            assert str(exc).strip()


def pairing_cli(w: World, v: str) -> None:
    """`python -m tournaments.verification`: the generator's number options, and a TRF file with `v` in each place."""
    with tempfile.TemporaryDirectory() as folder, redirect_stdout(io.StringIO()), \
            redirect_stderr(io.StringIO()) as err:
        for options in (["--rating-range", f"1-{v}"], ["--rating-range", f"{v}-5"], ["--ratings", f"{v},1500"]):
            try:
                pairing_main(["-g", f"{folder}/g.trf", "--seed", "1", "--players", "9", "--rounds", "3", *options])
            except SystemExit as exc:
                assert exc.code == 2 and ("LOW-HIGH" in err.getvalue() or "whole numbers" in err.getvalue())
            else:
                # spaces around a number are allowed on the command line ("1400 - 2300"), inside it never
                assert number_or_none(v.strip().lstrip("-")) is not None, f"{options} taken"
        for where in TRF_PLACES:
            Path(folder, "in.trf").write_text(_trf(v, where), encoding="utf-8")
            for mode in ("-p", "-c"):
                try:
                    pairing_main(["--dutch", f"{folder}/in.trf", mode])
                except SystemExit as exc:
                    assert exc.code == 2


def json_transfer(w: World, v: str) -> None:
    doc = export_tournament(w.tournament)
    doc["tournament"]["slug"] = "moved"
    doc["entries"][0]["bye_points"] = {v: 1}
    with transaction.atomic():
        try:
            t = import_tournament(loads(json.dumps(doc))).tournament
        except TransferError as exc:
            assert str(exc).strip()
        else:  # taken only when the key is a round number; then every page reading it stands
            assert number_or_none(v, low=1) is not None, "a requested bye's round must be a round number"
            Tournament.objects.filter(pk=t.pk).update(chief_arbiter=w.tournament.chief_arbiter)
            assert w.arbiter.get(_admin("tournament_control", t.pk)).status_code == 200
            assert w.arbiter.get(_admin("round_change", t.rounds.get(number=1).pk)).status_code == 200
            assert w.public.get(reverse("tournaments:standings", args=[t.slug])).status_code == 200
        transaction.set_rollback(True)


DOORS: dict[str, Door] = {f.__name__: f for f in (
    public_ply, public_round, public_paths, admin_paths, admin_standings, final_ties, control_step, manual_pairing,
    rr_by_hand, numbers_apply, rating_list, sheet_versions, bulk_accept, result_slip, entry_autocomplete,
    sheet_upload, round_sheets, player_csv, trf_page, trf_files, pairing_cli, json_transfer)}


def _through(w: World, door: str, value: str) -> None:
    with transaction.atomic():
        response = DOORS[door](w, value)
        assert response is None or response.status_code < 500, response.status_code
        transaction.set_rollback(True)


@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("value", BAD.values(), ids=BAD.keys())
def test_each_door_takes_every_bad_number(world: World, door: str, value: str) -> None:
    _through(world, door, value)


@FUZZ
@given(door=st.sampled_from(sorted(DOORS)), value=NUMBERISH)
def test_fuzz_every_door(world: World, door: str, value: str) -> None:
    _through(world, door, value)


def test_the_generator_refuses_an_empty_rating_between_commas() -> None:
    """A slip of the keyboard (",,1500") is named, never read as one rating fewer."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "tournaments.verification", "-g", "-", "--players", "4",
                           "--rounds", "2", "--ratings", ",,1500"], capture_output=True, text=True, check=False)
    assert done.returncode != 0 and "--ratings" in done.stderr
