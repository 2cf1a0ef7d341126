"""One verdict sentence per sheet: board, sheet, recorded result and article, in moves and sides,
never repeated nor contradicted, no status code, in English and French."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import translation

from rules.pdn import read_game
from tournaments.sheets import judge
from tournaments.sheets.words import sentence, status_label

FILES = Path(__file__).parents[2] / "rules" / "pdn_files"
CODES = ("not_verifiable", "unmatched", "mismatch", "irregular", "verified", "ply")


def verdict(text: str, recorded: str) -> str:
    return sentence(judge(read_game(text), recorded).report)


IRREGULAR = '[Result "2-0"]\n1. 32-28 19-23 2. 37-32 14-19 3. 41-37 10-14 4. 46-41 2-0\n'


def test_sentences_for_every_kind_of_sheet() -> None:
    with translation.override("en"):
        cases = {
            "irregular": verdict(IRREGULAR, "2-0"),
            "unreadable": verdict((FILES / "eight_by_eight.pdn").read_text(), "2-0"),
            "resigned, recorded otherwise": verdict('[Result "0-2"]\n1. 32-28 19-23 0-2\n', "2-0"),
            "no result yet": verdict('1. 32-28 19-23 2-0\n', ""),
        }
    assert cases["irregular"] == (
        "Move 2, White: a move while a capture was compulsory (art. 5.4.6); the game is not over on "
        "the board after move 4, White (White 20 men, Black 20 men); the sheet declares 2-0 (White wins) by "
        "resignation or time (art. 7.2.1), which the moves cannot confirm; the same result is recorded.")
    assert cases["unreadable"] == (
        "The sheet cannot be read from line 6: “c3-d4” is not a move of international draughts; the sheet "
        "declares 2-0 (White wins); the same result is recorded.")
    assert cases["resigned, recorded otherwise"].endswith(
        "the sheet declares 0-2 (Black wins) by resignation or time (art. 7.2.1), which the moves cannot "
        "confirm; 2-0 (White wins) is recorded.")
    assert cases["no result yet"].endswith("no result is recorded yet.")
    for text in cases.values():
        words = text.lower()
        assert not any(code in words.split() or f"{code} " in words for code in CODES if code != "irregular"), text
        assert words.count("not verifiable") == 0 and words.count("the sheet declares") == 1, text


def test_french_sentence_and_labels() -> None:
    with translation.override("fr"):
        text = verdict(IRREGULAR, "2-0")
        assert text.startswith("Coup 2, Blancs : un coup joué alors qu’une prise était obligatoire "
                               "(art. 5.4.6)")
        assert "le billet déclare 2-0 (les Blancs gagnent)" in text and "le même résultat est enregistré" in text
        assert status_label("not_verifiable") == "Non vérifiable d'après le billet"
        assert status_label("missing") == "Pas de billet"


@pytest.mark.parametrize("status", ["verified", "not_verifiable", "irregular", "mismatch", "missing"])
def test_no_status_code_is_its_own_label(status: str) -> None:
    with translation.override("en"):
        assert status_label(status) != status and "_" not in status_label(status)


def test_reading_problems_are_worded_from_their_code() -> None:
    """The PDN reader gives a code and values (rules.pdn.problems); the sheet page words them in the reader's
    language, and falls back to the replay's English only for a report stored before codes existed."""
    from django.utils import translation

    from rules.pdn import read_game
    from rules.replay import replay_game
    from tournaments.sheets.words import issue_message

    report = replay_game(read_game('[White "A"]\n[White "B"]\n1. 32-28 @ 19-23 *\n'))
    issues = [i.to_dict() for i in report.issues if i.article == "PDN"]
    assert [i["code"] for i in issues] == ["duplicate_tag", "unreadable_text"]
    with translation.override("fr"):
        assert [issue_message(i) for i in issues] == [
            "balise White donnée deux fois ; la dernière valeur “B” est gardée", "texte illisible “@”"]
    with translation.override("en"):
        assert issue_message(issues[1]) == "unreadable text “@”"
    stored_before = {k: v for k, v in issues[1].items() if k not in ("code", "values")}
    assert issue_message(stored_before) == "unreadable text '@'"
