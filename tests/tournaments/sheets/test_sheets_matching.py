"""Matching a file's games to a round's pairings (pure): ids, names in any order and accent, reasons."""

from __future__ import annotations

from tournaments.sheets.matching import PairingRef, PlayerRef, SheetHeaders, fold, match_games, name_key

JANSEN = PlayerRef(1, "Jansen", "Gérard", 1001)
DOLFING = PlayerRef(2, "Dolfing", "Martin", 1002)
VRIES = PlayerRef(3, "de Vries", "Jan Ekke", None)
AKKER = PlayerRef(4, "van den Akker", "Jeroen", None)
LONE = PlayerRef(5, "Øvergaard", "Søren", None)
PAIRINGS = [PairingRef(10, 1, JANSEN, DOLFING), PairingRef(11, 2, VRIES, AKKER), PairingRef(12, 3, LONE, None)]


def one(white: str, black: str, rnd: str | None = "1", **tags: str) -> SheetHeaders:
    return SheetHeaders.from_tags(1, {"White": white, "Black": black, **({"Round": rnd} if rnd else {}), **tags})


def test_fold_and_name_key_ignore_accents_case_and_order() -> None:
    assert fold("Lefèvre Øvergaard Łukasz") == "lefevre overgaard lukasz"
    assert name_key("Jansen, Gérard") == name_key("gerard JANSEN") == name_key("Jansen Gerard")
    assert name_key("de Vries, Jan Ekke") == name_key("Jan Ekke de Vries")
    assert name_key("Jansen, G.") != name_key("Jansen, Gerard")


def test_match_by_name_in_either_order_and_by_fmjd_id() -> None:
    games = [one("Gerard Jansen", "Dolfing, Martin"), SheetHeaders.from_tags(2, {
        "White": "J.E. de Vries", "Black": "?", "Round": "1", "WhiteFmjdId": "", "BlackFMJDId": "?"})]
    by_name = match_games(1, PAIRINGS, [games[0]])[0]
    assert (by_name.game_id, by_name.board, by_name.reason) == (10, 1, "by name")
    by_id = match_games(1, PAIRINGS, [one("?", "?", WhiteFMJDId="1001", BlackFmjdId="1002")])[0]
    assert (by_id.game_id, by_id.reason) == (10, "by FMJD id")
    unmatched = match_games(1, PAIRINGS, [games[1]])[0]
    assert not unmatched.matched
    # Initials are a near spelling of the one de Vries of the round; the game still lacks its Black.
    assert unmatched.reason == "Black: no name and no FMJD id"


def test_every_refusal_has_its_reason() -> None:
    cases = {
        "the Round tag says round 2, this is round 1": one("Gerard Jansen", "Martin Dolfing", "2"),
        "Round tag 'final' is not a round number": one("Gerard Jansen", "Martin Dolfing", "final"),
        "colours reversed": one("Martin Dolfing", "Gerard Jansen"),
        "do not play each other in round 1": one("Gerard Jansen", "Jeroen van den Akker"),
        "same player": one("Gerard Jansen", "Jansen, Gérard"),
        "no player with FMJD id 77": one("x", "y", WhiteFMJDId="77", BlackFMJDId="1002"),
        "'Søren Øvergaard' is not a player": one("Søren Øvergaard", "Martin Dolfing"),  # he has the bye
    }
    for reason, headers in cases.items():
        match = match_games(1, PAIRINGS, [headers])[0]
        assert not match.matched, reason
        assert reason in match.reason or (reason == "'Søren Øvergaard' is not a player"
                                          and "do not play each other" in match.reason), (reason, match.reason)


def test_nothing_attached_twice_and_existing_sheets_kept_unless_replace() -> None:
    games = [SheetHeaders.from_tags(i, {"White": "Jansen, Gerard", "Black": "Dolfing, Martin"}) for i in (1, 2)]
    first, second = match_games(1, PAIRINGS, games)
    assert first.matched and first.notes == ["no Round tag: matched on the players alone"]
    assert not second.matched and "already matched by game 1 of this file" in second.reason
    with_sheet = [PairingRef(10, 1, JANSEN, DOLFING, has_sheet=True)]
    kept = match_games(1, with_sheet, games[:1])[0]
    assert not kept.matched and "already has a sheet" in kept.reason
    replaced = match_games(1, with_sheet, games[:1], replace=True)[0]
    assert replaced.matched and "replaces the sheet stored before" in replaced.notes


def test_a_name_two_players_share_needs_the_id() -> None:
    twin = PlayerRef(6, "Jansen", "Gerard", 1006)
    pairings = [PairingRef(10, 1, JANSEN, DOLFING), PairingRef(13, 2, twin, VRIES)]
    match = match_games(1, pairings, [one("Gerard Jansen", "Martin Dolfing")])[0]
    assert not match.matched and "fits 2 players" in match.reason
    by_id = match_games(1, pairings, [one("Gerard Jansen", "Martin Dolfing", WhiteFMJDId="1001")])[0]
    assert by_id.game_id == 10 and by_id.reason == "by name"


UKR = PlayerRef(7, "Ющенко", "Олена", 20011)
GREEK = PlayerRef(8, "Παπαδόπουλος", "Γιώργος", None)
RUS = PlayerRef(9, "Чижов", "Алексей", None)
LATIN = PlayerRef(10, "Lefèvre", "Amélie", None)
WORLD = [PairingRef(20, 1, UKR, GREEK), PairingRef(21, 2, RUS, LATIN)]


def test_a_matching_fmjd_id_wins_with_a_note_when_the_name_differs() -> None:
    spelled = match_games(1, PAIRINGS, [one("Martin Dolfing", "Martin Dolfing", WhiteFMJDId="1001")])[0]
    assert spelled.game_id == 10
    assert spelled.notes == ["FMJD id 1001 is Jansen, Gérard; the sheet spells the name 'Martin Dolfing'"]
    # A refusal: the id matches, the name is the same one in another alphabet: no note for it.
    latin = match_games(1, WORLD, [one("Yushchenko, Olena", "Papadopoulos, Giorgos", WhiteFMJDId="20011")])[0]
    assert latin.game_id == 20
    assert latin.notes == ["'Papadopoulos, Giorgos' read as Παπαδόπουλος, Γιώργος (a near spelling)"]


def test_names_match_across_alphabets_and_transliterations() -> None:
    exact = match_games(1, WORLD, [one("YUSHCHENKO Olena", "Giorgos Papadopoylos")])[0]
    assert exact.game_id == 20 and exact.notes == []
    near = match_games(1, WORLD, [one("Tchizhov, Alexei", "Lefevre Amelie")])[0]
    assert near.game_id == 21
    assert near.notes == ["'Tchizhov, Alexei' read as Чижов, Алексей (a near spelling)"]
    ukrainian = match_games(1, WORLD, [one("Iushchenko Olena", "Papadopoulos Georgios")])[0]
    assert ukrainian.game_id == 20 and len(ukrainian.notes) == 2
    assert not match_games(1, WORLD, [one("Ivanov Petr", "Lefevre Amelie")])[0].matched


def test_a_near_spelling_close_to_two_players_is_not_guessed() -> None:
    twins = [PairingRef(30, 1, PlayerRef(1, "Jansen", "Gerard"), PlayerRef(2, "Janssen", "Gerard")),
             PairingRef(31, 2, PlayerRef(3, "Dolfing", "Martin"), PlayerRef(4, "Vries", "Jan"))]
    match = match_games(1, twins, [one("Jannsen Gerard", "Martin Dolfing")])[0]
    assert not match.matched and "near to more than one player" in match.reason
