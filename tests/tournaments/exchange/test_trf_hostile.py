"""What a stranger's TRF file or an open postponed game does to the TRF pages and commands: a message that
names the line, never a 500 or a traceback; the text decoded as the game sheets are (Windows-1252, not
Latin-1) and cut into records at line feeds only."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse

from tournaments.exchange.trf_import import TrfImportError, decode_trf, import_trf
from tournaments.models import Player, System, Tournament
from tournaments.pairing.trf import parse_trf
from tournaments.rounds import services

IMPORT = "admin:tournaments_tournament_import_trf"


def _line(n: int, name: str, cells: list[str]) -> str:
    head = f"001 {n:4d}      {name:<33} 2000 {'':3} {'':11} {'':10} {'':>4} {n:4d}  "
    return (head + "  ".join(cells)).rstrip()


def _file(names: tuple[str, str, str, str] = ("One, A", "Two, B", "Three, C", "Four, D"), *, extra: str = "",
          sep: str = "\n") -> str:
    return sep.join([
        "012 Hostile Open", "XXR 3", "XXC white1", *([extra] if extra else []),
        _line(1, names[0], ["   3 w 1"]), _line(2, names[1], ["   4 b 1"]),
        _line(3, names[2], ["   1 b 0"]), _line(4, names[3], ["   2 w 0"]),
    ]) + sep


@pytest.fixture
def client(arbiter) -> Client:  # type: ignore[no-untyped-def]
    c = Client()
    c.force_login(arbiter)
    return c


# --- a player kept apart from himself --------------------------------------------------------------


def test_xxp_naming_one_player_twice_is_an_error_naming_the_line(db: None, tmp_path: Path, client: Client) -> None:
    text = _file(extra="XXP 1 1")
    with pytest.raises(TrfImportError, match=r"line 4 \(XXP\): pairing number 1 is listed twice"):
        import_trf(text)
    src = tmp_path / "self.trf"
    src.write_text(text, encoding="utf-8")
    with pytest.raises(CommandError, match=r"nothing imported: line 4 \(XXP\): pairing number 1 is listed twice"):
        call_command("import_trf", str(src))
    page = client.post(reverse(IMPORT), {"file": SimpleUploadedFile("self.trf", text.encode()), "review": "1"})
    assert page.status_code == 200
    assert "Nothing imported: line 4 (XXP): pairing number 1 is listed twice" in page.content.decode()
    assert not Tournament.objects.exists() and not Player.objects.exists()


# --- the text: Windows-1252, records at line feeds ---------------------------------------------------


def test_windows_1252_names_are_read_as_windows_1252(db: None, tmp_path: Path) -> None:
    text = _file(("Šimek, Žofie", "Œuvre, A", "Two, B", "Four, D"))
    src = tmp_path / "cp1252.trf"
    src.write_bytes(text.encode("cp1252"))
    call_command("import_trf", str(src), "--slug", "cp")
    names = set(Player.objects.values_list("surname", "given_name"))
    assert {("Šimek", "Žofie"), ("Œuvre", "A")} <= names  # Latin-1 made them control characters and refused them


def test_bytes_windows_1252_leaves_undefined_are_refused_not_replaced(db: None, client: Client) -> None:
    raw = _file().encode("cp1252").replace(b"One", b"On\x81")
    with pytest.raises(TrfImportError, match=r"neither UTF-8 nor Windows-1252 \(byte 0x81 at offset"):
        decode_trf(raw)
    page = client.post(reverse(IMPORT), {"file": SimpleUploadedFile("x.trf", raw), "review": "1"}).content.decode()
    assert "Nothing imported: the file is neither UTF-8 nor Windows-1252 (byte 0x81" in page
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("char", ["\u0085", "\x0b", "\x0c", "\u2028", "\x1c", "\u2029"])
def test_a_name_holding_a_line_separator_does_not_split_the_record(char: str) -> None:
    trf = parse_trf(_file((f"One{char}Name, A", "Two, B", "Three, C", "Four, D")))
    assert [p.number for p in trf.players] == [1, 2, 3, 4]
    assert trf.players[0].cells == {1: (3, "w", "1")} and trf.players[0].name.startswith("One")


@pytest.mark.parametrize("sep", ["\n", "\r\n", "\r"])
def test_records_end_at_lf_crlf_or_cr(sep: str) -> None:
    trf = parse_trf(_file(sep=sep))
    assert trf.name == "Hostile Open" and [p.name for p in trf.players][1] == "Two, B"
    assert trf.players[3].cells == {1: (2, "w", "0")}


def test_a_name_holding_a_control_character_is_refused_naming_its_own_line(db: None, tmp_path: Path) -> None:
    """The record stays whole, so the player's own check decides and names the record's line (4)."""
    src = tmp_path / "nel.trf"
    src.write_bytes(_file(("One\u0085Name, A", "Two, B", "Three, C", "Four, D")).encode())
    with pytest.raises(CommandError, match=r"nothing imported: line 4: surname: Control characters .* U\+0085 at "
                                           r"position 4"):
        call_command("import_trf", str(src), "--slug", "nel")
    assert not Tournament.objects.exists()


# --- the export while a postponed game is open --------------------------------------------------------


def test_the_admin_export_says_why_not_while_a_postponed_game_is_open(make_tournament, client: Client) -> None:
    t = make_tournament(6, system=System.SWISS, slug="pp", rounds_total=1)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    games = list(rnd.games.order_by("board"))
    services.game_record_result(game=games[0], result="postponed")
    for g in games[1:]:
        services.game_record_result(game=g, result="2-0")
    services.round_complete(round=rnd)
    url = reverse("admin:tournaments_tournament_changelist")
    response = client.post(url, {"action": "export_trf", "_selected_action": [t.pk]}, follow=True)
    assert response.status_code == 200
    page = response.content.decode()
    assert "No final TRF file yet: the postponed game R1 B1 1-4 has no result." in page
    with pytest.raises(CommandError, match="No final TRF file yet"):
        call_command("export_trf", "pp")


# --- thousands of players ------------------------------------------------------------------------------


def _players_file(n: int, ids: dict[int, int] | None = None) -> str:
    lines = ["012 Big Open", "XXR 9", "XXC white1"]
    for k in range(1, n + 1):
        pid = (ids or {}).get(k, "")
        lines.append(f"001 {k:4d}      {f'Player{k:05d}, Given':<33} {2400 - k % 900:4d} NED {pid:>11} {'':10} "
                     f"{'0.0':>4} {k:4d}")
    return "\n".join(lines) + "\n"


def test_the_players_are_written_in_bulk_not_one_query_each(db: None, django_assert_max_num_queries) -> None:
    """8,000 players took 34 s on SQLite, 51 s on PostgreSQL (seven queries each); 9.5 s and 15 s written in
    bulk (manage.py import_trf of a file without rounds). The starting rank has four digits, so no TRF holds
    more than 9,999."""
    text = _players_file(300)
    with django_assert_max_num_queries(60):
        result = import_trf(text, slug="big")
    assert result.players_created == 300
    t = Tournament.objects.get(slug="big")
    assert t.entries.count() == 300 and t.entries.filter(rating__isnull=True).count() == 0
    assert t.entries.get(pairing_number=7).player.history.count() == 1  # the history is written too
    assert t.entries.get(pairing_number=7).history.count() == 1


def test_one_player_id_on_two_lines_is_refused_naming_both(db: None) -> None:
    with pytest.raises(TrfImportError, match=r"line 6: player id \(columns 58-68\) 4711 is already the id of line 4"):
        import_trf(_players_file(4, ids={1: 4711, 3: 4711}))
    assert not Tournament.objects.exists() and not Player.objects.exists()


# --- the ### lines' round numbers ----------------------------------------------------------------------


@pytest.mark.parametrize("line", [
    "### conformance mode left @ Round " + "9" * 5000,
    "### rounds-changed @ Round " + "9" * 5000 + ": new=4 old=3",
])
def test_a_round_number_too_long_for_python_in_a_hash_line_is_refused_naming_it(db: None, client: Client,
                                                                                 line: str) -> None:
    text = _file(extra=line)
    with pytest.raises(TrfImportError, match=r"line 4 \(###\): round 9999999999"):
        import_trf(text)
    page = client.post(reverse(IMPORT), {"file": SimpleUploadedFile("long.trf", text.encode()), "review": "1"})
    assert page.status_code == 200  # int() refuses more than 4,300 digits: it was a 500
    assert "Nothing imported: line 4 (###): round 9999999999" in page.content.decode()
    assert not Tournament.objects.exists()


def test_a_round_in_other_digits_in_a_hash_line_is_not_read_as_a_round(db: None) -> None:
    # '٣' is a digit to Python's \d and int(): the ### lines are read from ASCII digits, as their values are
    result = import_trf(_file(extra="### conformance mode left @ Round ٣"))
    assert result.tournament.conformance_left_round is None


@pytest.mark.parametrize("values", ["engine=5 pairing=7", "engine=not-possible pairing=3-1,4-2"])
def test_an_imported_manual_pairing_event_with_bare_numbers_shows_on_the_round_page(db: None, admin_client: Client,
                                                                                    values: str) -> None:
    # A list key read back holds numbers where a stranger's file wrote bare numbers (Damier writes "3-1"):
    # the round page joined them as text (a TypeError, a 500) or spelt a word out letter by letter.
    result = import_trf(_file(extra=f"### manual-pairing @ Round 1: {values}"), slug="bare")
    rnd = result.tournament.rounds.get(number=1)
    page = admin_client.get(reverse("admin:tournaments_round_change", args=[rnd.pk]))
    assert page.status_code == 200
    text = page.content.decode()
    assert "Engine: 5. This round: 7." in text if values.startswith("engine=5") else \
        "Engine: not-possible. This round: 3-1, 4-2." in text


def test_an_imported_postponed_notice_with_a_bare_number_lets_its_round_be_paired(db: None,
                                                                                  admin_client: Client) -> None:
    # The control room says the round's 'paired with a postponed game' notice after pairing it: an imported
    # one holding a number made the pairing step a 500, and the round could not be paired from there.
    result = import_trf(_file(extra="### paired-with-postponed @ Round 2: games=7"), slug="notice")
    t = result.tournament
    page = admin_client.post(reverse("admin:tournaments_tournament_step", args=[t.pk]),
                             {"step": "pair", "round": 2, "version": 0}, follow=True)
    assert page.status_code == 200 and t.rounds.filter(number=2).exists()
    assert "7" in page.content.decode()


def test_two_later_ratings_of_one_player_from_one_round_are_refused_naming_both_lines(db: None,
                                                                                       client: Client) -> None:
    text = _file(extra="### later rating: player=1 from-round=3 rating=1500\n"
                       "### later rating: player=1 from-round=3 rating=1600")
    with pytest.raises(TrfImportError, match=r"line 5 \(###\): player 1's rating from round 3 is already given on "
                                             r"line 4"):
        import_trf(text)  # the entry's ratings hold one per round: it was an IntegrityError (a 500)
    page = client.post(reverse(IMPORT), {"file": SimpleUploadedFile("twice.trf", text.encode()), "review": "1",
                                         "slug": "twice"})
    page = client.post(reverse(IMPORT), {"text": text, "slug": "twice", "import": "1"})
    assert page.status_code == 200 and "line 5 (###): player 1&#x27;s rating from round 3" in page.content.decode()
    assert not Tournament.objects.exists()
