"""A round's file is cut where the PDN reader says each game starts and ends, and text with U+0000
is refused with a message naming where it is."""

from __future__ import annotations

import pytest

from tests.tournaments.sheets.test_sheets import game  # noqa: F401 - the fixture
from tournaments.models import Game, GameSheet
from tournaments.sheets import SheetUploadError, decode_upload, round_import_confirm, round_import_preview


def names(of: Game) -> tuple[str, str]:
    return of.white.player.full_name, of.black.player.full_name


@pytest.mark.django_db
def test_games_sharing_a_line_are_stored_exactly_as_previewed(game: Game) -> None:  # noqa: F811
    other = Game.objects.select_related("white__player", "black__player").get(round=game.round, board=2)
    (w1, b1), (w2, b2) = names(game), names(other)
    # Board 1's game ends "2-0" and board 2's begins on the same line; then two games on one line.
    text = (f'[White "{w1}"]\n[Black "{b1}"]\n\n1. 32-28 19-23 2-0 [White "{w2}"] [Black "{b2}"] 1. 31-27 0-2'
            f' [White "Nobody, A"] [Black "Nobody, B"] 1. 33-29 *\n')
    preview = round_import_preview(round=game.round, data=text, source_name="r1.pdn")
    assert [i.text for i in preview.items] == [
        f'[White "{w1}"]\n[Black "{b1}"]\n\n1. 32-28 19-23 2-0\n',
        f'[White "{w2}"] [Black "{b2}"] 1. 31-27 0-2\n',
        '[White "Nobody, A"] [Black "Nobody, B"] 1. 33-29 *\n']
    assert [i.match.board for i in preview.matched] == [1, 2]
    stored = round_import_confirm(preview=preview)
    assert len(stored) == 2
    assert GameSheet.objects.get(game=game).text == preview.items[0].text
    assert GameSheet.objects.get(game=other).text == preview.items[1].text
    assert GameSheet.objects.get(game=other).sheet_result == "0-2"


def test_utf16_with_nul_is_refused_with_where_it_is() -> None:
    data = '[White "A"]\n1. 32-28\x00 *\n'.encode("utf-16")
    with pytest.raises(SheetUploadError, match=r"U\+0000 \(NUL\) at line 2, column 9 \(utf-16\)"):
        decode_upload(data, "r.pdn")
    with pytest.raises(SheetUploadError, match="U\\+0000"):
        decode_upload("1. 32-28 \x00*", "pasted text")
