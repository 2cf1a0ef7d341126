"""Random and mutated input at every door: FEN, game sheets (through the upload page), the CSV player import,
the TRF reader, the round page's result form and the tournament import. Never a server error; a refusal
always comes with a message that says what is wrong. Example counts stay modest (two shared cores)."""

from __future__ import annotations

import re
from typing import Any

from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import Board, InvalidFenError
from tests.tournaments.admin.test_admin import round_post_data
from tournaments.errors import DomainError
from tournaments.exchange.player_import import players_import_csv
from tournaments.models import Game, GameSheet, Player
from tournaments.pairing import pair_dutch
from tournaments.pairing.trf import parse_trf, request_from_trf
from tournaments.results import Result
from tournaments.rounds import services
from tournaments.verification.generator import GenSettings, generate, tournament_trf

DJANGO = settings(max_examples=25, deadline=None,
                  suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
PURE = settings(max_examples=150, deadline=None)


@st.composite
def mutated(draw: st.DrawFn, base: str, alphabet: str) -> str:
    """A valid text with a few characters replaced, deleted or inserted."""
    chars = list(base)
    for _ in range(draw(st.integers(1, 6))):
        if not chars:
            break
        pos = draw(st.integers(0, len(chars) - 1))
        op = draw(st.sampled_from(["replace", "delete", "insert"]))
        if op == "delete":
            del chars[pos]
        else:
            c = draw(st.sampled_from(alphabet))
            if op == "replace":
                chars[pos] = c
            else:
                chars.insert(pos, c)
    return "".join(chars)


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


# --- FEN -----------------------------------------------------------------------------------------

FENS = ["B:W28,31,33-50:B1-20", "W:W31-50:B1-20", "W:WK10,31:BK46,5", "B:W:B"]


@PURE
@given(st.one_of(st.text(max_size=60), *(mutated(f, "WBK:,-0123456789 x") for f in FENS)))
def test_fen_is_read_or_refused_with_a_message(text: str) -> None:
    try:
        board = Board(text)
    except InvalidFenError as exc:
        assert str(exc).strip()
        return
    again = Board(board.fen())
    assert again.fen() == board.fen() and again.turn == board.turn


# --- TRF -----------------------------------------------------------------------------------------

TRF = tournament_trf(generate(GenSettings(players=9, rounds=3, seed=1)))


@PURE
@given(st.one_of(mutated(TRF, "0123456789 abwUFHZ+-=.\nX"), st.text(max_size=200)))
def test_trf_is_read_or_refused_with_a_value_error(text: str) -> None:
    try:
        trf = parse_trf(text)
        request = request_from_trf(trf)
    except ValueError as exc:  # the CLI's caller gets one exception type, with the faulty value in it
        assert str(exc).strip()
        return
    result = pair_dutch(request)  # whatever parses can be paired without crashing
    assert set(result.unpaired) <= {p.id for p in request.players}


# --- CSV player import ---------------------------------------------------------------------------

CSV = "surname,given_name,fmjd_id,federation,title,rating,club,birth_year\nBoomstra,Roel,15000,NED,GMI,2400,X,1993\n"


@DJANGO
@given(st.one_of(st.binary(max_size=300), mutated(CSV, ",;\t\"\n0123456789ABCxyz é\x00").map(str.encode)))
def test_csv_import_reports_or_refuses(db: None, data: bytes) -> None:
    try:
        report = players_import_csv(data=data, source="fuzz.csv")
    except DomainError as exc:
        assert str(exc).startswith("fuzz.csv")
        return
    for line in report.errors:
        assert line.message.strip() and line.line >= 2
    assert report.as_text()


@DJANGO
@given(data=st.one_of(st.binary(max_size=300), mutated(CSV, ",;\n0123456789ABCxyz\x00\xff").map(
    lambda s: s.encode("utf-8", "surrogatepass"))))
def test_csv_upload_page_never_fails(published_round, data: bytes) -> None:  # type: ignore[no-untyped-def]
    _, _, client = published_round
    response = client.post(reverse("admin:tournaments_player_import"),
                           {"file": SimpleUploadedFile("../../etc/passwd", data, "text/csv")})
    assert response.status_code == 200
    page = response.content.decode()
    assert messages_of(response) or "errorlist" in page  # imported, refused, or the form says why
    assert not Player.objects.filter(surname__contains="/").exists()


# --- Game sheets through the upload page -----------------------------------------------------------


def sheet(game: Game) -> str:
    return (f'[Round "1"]\n[White "{game.white.player.full_name}"]\n[Black "{game.black.player.full_name}"]\n'
            '[Result "2-0"]\n\n1. 32-28 19-23 2. 28x19 14x23 3. 37-32 2-0\n')


@DJANGO
@given(payload=st.one_of(st.binary(max_size=400), st.text(max_size=200).map(str.encode),
                         st.just(b"mutate")), seed=st.randoms(use_true_random=False))
def test_sheet_upload_page_never_fails(published_round, payload: bytes, seed: Any) -> None:  # type: ignore[no-untyped-def]
    _, rnd, client = published_round
    game = rnd.games.select_related("white__player", "black__player").get(board=1)
    if payload == b"mutate":
        chars = list(sheet(game))
        for _ in range(seed.randint(1, 8)):
            chars[seed.randrange(len(chars))] = seed.choice('[]"{}()x-0123456789 \n;%')
        payload = "".join(chars).encode()
    url = reverse("admin:tournaments_game_sheet", args=[game.pk])
    before = GameSheet.objects.filter(game=game).values_list("text", flat=True).first()
    response = client.post(url, {"file": SimpleUploadedFile("../../../tmp/x.pdn", payload), "replace": "on"},
                           follow=True)
    assert response.status_code == 200
    stored = GameSheet.objects.filter(game=game).first()
    texts = messages_of(response)
    if stored is not None and stored.text != before:
        assert any("Sheet stored" in m for m in texts), texts
        assert "/" not in stored.source_name  # the name the user gave is kept as a name, never a path
    elif stored is not None and any("Sheet stored" in m for m in texts):
        assert stored.text == before  # the same sheet sent again (an earlier example stored it): stored again
    else:
        assert any(m.startswith("Nothing stored") for m in texts) or "errorlist" in response.content.decode(), texts


def test_an_oversized_sheet_is_refused_before_parsing(published_round, settings) -> None:  # type: ignore[no-untyped-def]
    settings.DAMIER_PDN_MAX_BYTES = 1000
    _, rnd, client = published_round
    game = rnd.games.get(board=1)
    response = client.post(reverse("admin:tournaments_game_sheet", args=[game.pk]),
                           {"file": SimpleUploadedFile("big.pdn", b"[Event " + b"x" * 5000 + b"]")}, follow=True)
    assert any("over the limit of 1000 bytes" in m for m in messages_of(response))
    assert not GameSheet.objects.filter(game=game).exists()


# --- The round page's result form ----------------------------------------------------------------

RESULT_VALUES = st.one_of(st.sampled_from([r.value for r in Result] + [""]), st.text(max_size=12))
VERSIONS = st.one_of(st.integers(-3, 5).map(str), st.text(max_size=5), st.just(""))


@DJANGO
@given(results=st.lists(RESULT_VALUES, min_size=2, max_size=2), versions=st.lists(VERSIONS, min_size=2, max_size=2))
def test_round_result_form_never_fails(published_round, results: list[str], versions: list[str]) -> None:  # type: ignore[no-untyped-def]
    _, rnd, client = published_round
    data = round_post_data(rnd, {1: results[0], 2: results[1]})
    data["games-0-loaded_version"], data["games-1-loaded_version"] = versions
    before = dict(rnd.games.values_list("board", "result"))
    response = client.post(reverse("admin:tournaments_round_change", args=[rnd.pk]), data, follow=True)
    assert response.status_code == 200
    after = dict(rnd.games.values_list("board", "result"))
    assert all(v == "" or v in Result._value2member_map_ for v in after.values())
    texts = messages_of(response)
    page = response.content.decode()
    if after != before:
        assert any("was changed successfully" in m for m in texts), texts
    else:
        refused = any(m.startswith("Nothing saved") for m in texts) or "errorlist" in page
        unchanged_post = all(r == b for r, b in zip(results, before.values(), strict=True))
        assert refused or unchanged_post or any("was changed successfully" in m for m in texts), texts


# --- The tournament import -----------------------------------------------------------------------


@DJANGO
@given(seed=st.randoms(use_true_random=False))
def test_a_mutated_export_is_imported_or_refused_by_name(published_round, seed: Any) -> None:  # type: ignore[no-untyped-def]
    from tournaments.exchange.transfer import dumps, export_tournament

    t, _, _ = published_round
    with transaction.atomic():  # every example starts from the same tournament
        _import_mutated(dumps(export_tournament(t)), seed)
        transaction.set_rollback(True)


def _import_mutated(text: str, seed: Any) -> None:
    from tournaments.exchange.transfer import TransferError, import_tournament, loads

    values = list(re.finditer(r'(?<=: )("[^"\n]*"|-?\d+|null|true|false)', text))
    chars = text
    for m in sorted(seed.sample(values, k=min(3, len(values))), key=lambda m: m.start(), reverse=True):
        replacement = seed.choice(['"x"', "-1", "null", "999", '""', "true", "[]", "{}", '"2026-13-45"'])
        chars = chars[:m.start()] + replacement + chars[m.end():]
    try:
        doc = loads(chars)
        import_tournament(doc, replace=True)
    except TransferError as exc:
        assert str(exc).strip()
    except DomainError as exc:  # raised by a service the import calls: still a clear, named refusal
        assert str(exc).strip()


def test_an_oversized_csv_is_refused_without_reading_it_all(published_round, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from tournaments.exchange import player_import

    monkeypatch.setattr(player_import, "MAX_BYTES", 100)
    _, _, client = published_round
    data = CSV.encode() + b"Extra,Player,,NED,,1500,,\n" * 20
    response = client.post(reverse("admin:tournaments_player_import"),
                           {"file": SimpleUploadedFile("big.csv", data, "text/csv")})
    assert any("over the limit of 100 bytes" in m for m in messages_of(response)), messages_of(response)
    assert not Player.objects.filter(surname="Extra").exists()


HOSTILE = '<script>alert("x")</script>'


def test_hostile_names_and_sheets_are_escaped_on_every_page(published_round) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = published_round
    game = rnd.games.select_related("white__player", "black__player", "round").get(board=1)
    Player.objects.filter(pk=game.white.player_id).update(surname=HOSTILE, club=HOSTILE)
    game.white.player.refresh_from_db()
    text = sheet(game).replace('[Round "1"]', f'[Round "1"]\n[Event "{HOSTILE}"]\n[Annotator "{HOSTILE}"]')
    services.game_record_result(game=game, result="2-0")
    client.post(reverse("admin:tournaments_game_sheet", args=[game.pk]), {"text": text, "replace": "on"})
    pages = [reverse(name, args=args) for name, args in [
        ("tournaments:standings", [t.slug]), ("tournaments:crosstable", [t.slug]), ("tournaments:round", [t.slug, 1]),
        ("tournaments:player", [t.slug, game.white.pairing_number]), ("tournaments:game", [t.slug, game.pk]),
        ("admin:tournaments_round_change", [rnd.pk]), ("admin:tournaments_game_change", [game.pk]),
        ("admin:tournaments_game_sheet", [game.pk]), ("admin:tournaments_tournament_standings", [t.pk]),
    ]]
    for url in pages:
        response = client.get(url)
        assert response.status_code == 200, url
        body = response.content.decode()
        assert "<script>alert" not in body, url
        assert "&lt;script&gt;alert" in body or "\\u003Cscript\\u003E" in body, url


JUNK = st.one_of(st.text(max_size=10), st.integers(-5, 10**6).map(str), st.sampled_from(["", "0", "-1", "on",
                                                                                            "2026-02-30", "99999"]))


@DJANGO
@given(page=st.sampled_from(["tournament", "round", "entry", "player"]), seed=st.randoms(use_true_random=False),
       junk=st.lists(JUNK, min_size=1, max_size=4))
def test_admin_change_forms_never_fail_on_junk(published_round, page: str, seed: Any, junk: list[str]) -> None:  # type: ignore[no-untyped-def]
    from tests.tournaments.test_permissions import scrape_form

    t, rnd, client = published_round
    obj = {"tournament": t, "round": rnd, "entry": t.entries.first(), "player": t.entries.first().player}[page]
    url = reverse(f"admin:tournaments_{page}_change", args=[obj.pk])
    with transaction.atomic():  # every example starts from the same objects
        data = scrape_form(client, url)
        names = sorted(k for k in data if not k.endswith(("TOTAL_FORMS", "INITIAL_FORMS", "-id", "_FORMS")))
        for value in junk:
            data[seed.choice(names)] = value
        response = client.post(url, {**data, "_save": "Save"})
        assert response.status_code in (200, 302), response.status_code
        transaction.set_rollback(True)


@DJANGO
@given(value=st.one_of(st.text(max_size=8), st.integers(-10, 10**12).map(str)),
       page=st.sampled_from(["standings", "crosstable", "standings_pdf", "crosstable_pdf", "game", "round"]))
def test_public_pages_never_fail_on_junk_parameters(published_round, value: str, page: str) -> None:  # type: ignore[no-untyped-def]
    t, rnd, _ = published_round
    args: list[object] = [t.slug]
    if page == "game":
        args.append(rnd.games.first().pk)
    elif page == "round":
        args.append(1)
    response = Client().get(reverse(f"tournaments:{page}", args=args), {"round": value, "ply": value})
    assert response.status_code in (200, 404)
