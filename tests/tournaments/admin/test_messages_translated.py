"""The arbiter's refusals and confirmations, met in the admin in French, Dutch and Russian.

Each test provokes a real refusal (or a real success) through the admin page where an arbiter meets it,
with the browser asking for a language, and reads the message on the page: the services, the sheet
upload, the CSV import, the Swiss pairing and the admin's own messages all speak the reader's language.
The English text must be gone as well, so a message worded too early (at import time) is caught too.
"""

from __future__ import annotations

import html
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tests.tournaments.play import play_round, play_swiss_round
from tournaments.models import ForbiddenPair, Player, System
from tournaments.players import roster
from tournaments.rounds import services


def messages_of(response) -> str:  # type: ignore[no-untyped-def]
    """The text of the admin's message list (errors, warnings, successes) on the page."""
    body = response.content.decode()
    found = re.search(r'<ul class="messagelist">(.*?)<!-- Content -->', body, re.S)
    assert found, "no message on the page"
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", found.group(1))))


def post(client: Client, url: str, data: dict[str, object], lang: str):  # type: ignore[no-untyped-def]
    response = client.post(url, data, follow=True, HTTP_ACCEPT_LANGUAGE=lang)
    assert response.status_code == 200
    assert response.headers["Content-Language"] == lang
    return response


@pytest.fixture
def client(arbiter) -> Client:  # type: ignore[no-untyped-def]
    c = Client()
    c.force_login(arbiter)
    return c


# --- Services, through the admin's forms and actions -----------------------------------------------


@pytest.mark.parametrize(("lang", "expected", "twice"), [
    ("fr", "Rien n’a été enregistré : Test t : un tournoi toutes rondes ne peut plus accueillir de nouveau joueur "
           "une fois la ronde 1 appariée.", "Un objet Inscription avec ces champs Tournoi et Joueur existe déjà."),
    ("ru", "Ничего не сохранено: Test t: в круговой турнир нельзя заявить нового участника после жеребьёвки 1-го "
           "тура.", "уже существует."),
])
def test_entering_a_player_late_or_twice(make_tournament, client, lang, expected, twice) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    services.round_pair(tournament=t)
    late = Player.objects.create(surname="Late", given_name="Comer")
    url = reverse("admin:tournaments_entry_add")
    data = {"tournament": t.pk, "player": late.pk, "pairing_number": "5", "status": "active", "excused_rounds": "[]"}
    # The form again, with what was typed and the refusal on it (tournaments.admin.base.keep_typed_on_refusal).
    page = post(client, url, data, lang)
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", page.content.decode())))
    assert expected in text and "cannot take a new player" not in text
    assert page.context["adminform"].form.data["player"] == str(late.pk)
    assert t.entries.count() == 4
    # Entered twice: the form's own check (Django's words, with the model's translated names).
    data["player"] = t.entries.get(pairing_number=1).player_id
    page = html.unescape(client.post(url, data, HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    assert twice in page and "already exists" not in page


@pytest.mark.parametrize(("lang", "expected"), [
    ("fr", "La ronde 1 n’est pas terminée (pas encore de résultat aux damiers 1, 2) : terminez-la avant "
           "d’apparier la ronde 2."),
    ("nl", "Ronde 1 is niet afgesloten (nog geen uitslag op borden 1, 2): sluit haar af voordat u ronde 2 "
           "indeelt."),
])
def test_pairing_a_round_before_the_last_is_completed(make_tournament, client, lang, expected) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, rounds_total=3)
    rnd = services.round_pair(tournament=t)
    services.round_publish(round=rnd)
    response = post(client, reverse("admin:tournaments_tournament_changelist"),
                    {"action": "pair_next_round", "_selected_action": [t.pk]}, lang)
    text = messages_of(response)
    assert expected in text and "not completed" not in text
    assert t.rounds.count() == 1


@pytest.mark.parametrize(("lang", "expected"), [
    ("ru", "Жеребьёвку 2-го тура нельзя провести без нарушения абсолютного критерия"),
    ("fr", "La ronde 2 ne peut pas être appariée sans enfreindre un critère absolu"),
])
def test_a_swiss_round_that_cannot_be_paired(make_tournament, client, lang, expected) -> None:  # type: ignore[no-untyped-def]
    # Two players who met in round 1 cannot meet again: round 2 has no pairing (swiss.py's refusal).
    t = make_tournament(2, system=System.SWISS, rounds_total=3)
    play_round(t)
    response = post(client, reverse("admin:tournaments_tournament_changelist"),
                    {"action": "pair_next_round", "_selected_action": [t.pk]}, lang)
    text = messages_of(response)
    assert expected in text and "1. Player01, Test" in text
    assert "cannot be paired" not in text and t.rounds.count() == 1


@pytest.mark.parametrize(("lang", "expected", "done"), [
    ("ru", "Тур 2 нарушает 1 абсолютный критерий (Запрещённая пара:", "1-й тур уже завершён."),
    ("nl", "Ronde 2 schendt 1 absoluut criterium (Verboden paar:", "Ronde 1 is al afgesloten."),
])
def test_publishing_a_round_that_breaks_a_criterion_and_one_already_published(  # type: ignore[no-untyped-def]
        swiss9, client, lang, expected, done) -> None:
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    board = rnd.games.filter(black__isnull=False).select_related("white", "black").first()
    ForbiddenPair.objects.create(tournament=swiss9, first=board.white, second=board.black)
    url = reverse("admin:tournaments_round_changelist")
    text = messages_of(post(client, url, {"action": "publish", "_selected_action": [rnd.pk]}, lang))
    assert expected in text, text
    assert "absolute criteri" not in text
    services.round_publish(round=rnd, confirmed_violations=True)
    first = swiss9.rounds.get(number=1)
    text = messages_of(post(client, url, {"action": "publish", "_selected_action": [first.pk]}, lang))
    assert done in text and "already" not in text


def test_check_pairing_speaks_dutch(swiss9, client) -> None:  # type: ignore[no-untyped-def]
    rnd = services.round_pair(tournament=swiss9)
    text = messages_of(post(client, reverse("admin:tournaments_round_changelist"),
                            {"action": "check_pairing", "_selected_action": [rnd.pk]}, "nl"))
    assert "de indeling voldoet aan alle absolute criteria en is die van het programma" in text, text


# --- Game sheets ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("lang", "expected"), [
    ("ru", "Ничего не сохранено: board1.pdn: не файл PDN: не найдено ни тегов, ни ходов"),
    ("nl", "Niets opgeslagen: board1.pdn: geen PDN-bestand: geen tag en geen zet gevonden"),
    ("fr", "Rien n’a été enregistré : board1.pdn : pas un fichier PDN : aucune balise et aucun coup trouvés"),
])
def test_a_file_that_is_not_pdn(make_tournament, client, lang, expected) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = play_round(t, complete=False)
    game = rnd.games.get(board=1)
    upload = SimpleUploadedFile("board1.pdn", b"hello world, this is not a game\n")
    text = messages_of(post(client, reverse("admin:tournaments_game_sheet", args=[game.pk]), {"file": upload}, lang))
    assert expected in text, text
    assert "not a PDN file" not in text


@pytest.mark.parametrize(("lang", "expected"), [
    ("ru", "GameType 25 — это русские шашки, а не международные шашки (20); ничего не сохранено."),
    ("fr", "GameType 25 désigne les dames russes, et non le jeu de dames international (20)"),
])
def test_a_sheet_of_another_game(make_tournament, client, lang, expected) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4)
    rnd = play_round(t, complete=False)
    game = rnd.games.get(board=1)
    text = messages_of(post(client, reverse("admin:tournaments_game_sheet", args=[game.pk]),
                            {"text": '[GameType "25"]\n\n1. c3-d4 f6-g5 *\n'}, lang))
    assert expected in text, text


# --- The CSV import ---------------------------------------------------------------------------------


def test_a_refused_csv_line_in_french(arbiter, client) -> None:  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("p.csv", b"surname,rating,federation\nA,2000,NED\nB,abc,NETH\n")
    response = client.post(reverse("admin:tournaments_player_import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE="fr")
    text = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))
    assert "Rien n’a été importé depuis p.csv : 1 ligne erronée, indiquée ci-dessous." in text
    assert "rating « abc » n’est pas un nombre entier" in text
    assert "federation « NETH » ne fait pas trois lettres" in text
    assert "A : valable, non importé" in text and " erreur " in text
    assert "is not a whole number" not in text and "valid, not imported" not in text
    assert not Player.objects.filter(surname__in=["A", "B"]).exists()


def test_a_csv_import_in_dutch(make_tournament, client) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(2, system=System.SWISS, rounds_total=3)
    upload = SimpleUploadedFile("p.csv", b"surname,given_name\nJansen,Piet\nDe Vries,Anna\n")
    response = post(client, reverse("admin:tournaments_player_import"), {"file": upload, "tournament": t.pk}, "nl")
    assert "2 spelersregels geïmporteerd uit p.csv." in messages_of(response)
    page = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())))
    assert "Jansen, Piet, ingeschreven met startnummer 3" in page and "aangemaakt" in page


def test_a_refusal_of_the_whole_csv_file_in_russian(client) -> None:  # type: ignore[no-untyped-def]
    upload = SimpleUploadedFile("p.csv", b"name,colour\nA,red\n")
    response = client.post(reverse("admin:tournaments_player_import"), {"file": upload}, HTTP_ACCEPT_LANGUAGE="ru")
    assert (", строка 1: заголовок должен называть столбцы (surname, given_name, fmjd_id, federation, title, "
            "rating, national_rating, club, birth_year, native_name, sex, kndb_id, ffjd_id; surname обязателен); "
            "неизвестные столбцы: colour.") \
        in messages_of(response)


# --- Withdrawals ------------------------------------------------------------------------------------


def test_a_withdrawal_out_of_range_in_russian(make_tournament, client) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, rounds_total=3)
    entry = t.entries.get(pairing_number=1)
    text = messages_of(post(client, reverse("admin:tournaments_entry_changelist"),
                            {"action": "withdraw", "_selected_action": [entry.pk], "apply": "1",
                             "after_round": "2"}, "ru"))
    assert "Player01, Test: «снят после тура» должно быть от 0 до 0." in text, text


# --- The round's change history ---------------------------------------------------------------------


def test_the_services_reasons_in_the_round_history(swiss9, client, arbiter) -> None:  # type: ignore[no-untyped-def]
    play_swiss_round(swiss9)
    rnd = services.round_pair(tournament=swiss9)
    board = rnd.games.filter(black__isnull=False).select_related("white", "black").first()
    ForbiddenPair.objects.create(tournament=swiss9, first=board.white, second=board.black)
    services.round_publish(round=rnd, confirmed_violations=True, user=arbiter)
    rnd.refresh_from_db()
    services.round_unpublish(round=rnd, expected_version=rnd.version)
    url = reverse("admin:tournaments_round_change", args=[rnd.pk])
    page = html.unescape(client.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode())
    assert "возвращён в черновик" in page
    assert "опубликован с нарушением 1 абсолютного критерия, подтвердил chief: forbidden pair" in page
    assert "taken back to draft" not in page and "published with" not in page


def test_the_services_reasons_on_the_tournament_history_page(make_tournament, client) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, rounds_total=3)
    roster.entries_draw_lots(tournament=t, seed=42)
    page = html.unescape(client.get(reverse("admin:tournaments_tournament_history", args=[t.pk]),
                                    HTTP_ACCEPT_LANGUAGE="nl").content.decode())
    assert "startnummers geloot (zaadgetal 42)" in page
    assert "drawn by lot" not in page


@pytest.mark.parametrize(("lang", "labels"), [
    ("ru", ("0F-0F (неявка обоих)", "Не сыграна", "Свободен")),
    ("nl", ("0F-0F (beiden afwezig)", "Niet gespeeld", "Vrij")),
])
def test_the_result_filter_of_the_game_list(make_tournament, client, lang, labels) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(3)
    play_round(t)
    page = html.unescape(client.get(reverse("admin:tournaments_game_changelist"),
                                    HTTP_ACCEPT_LANGUAGE=lang).content.decode())
    for label in labels:
        assert f'">{label}</a>' in page, label  # a choice of the list filter
    assert "Not played" not in page and "double forfeit" not in page and "Excused (0)" not in page
