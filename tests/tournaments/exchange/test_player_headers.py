"""The player CSV's header in the arbiter's language: French, Dutch and Russian spreadsheets import as they are."""

from __future__ import annotations

import pytest

from tournaments.errors import DomainError
from tournaments.exchange.player_import import header_name, players_import_csv
from tournaments.models import Player

FILES = {
    "fr": "Nom;Prénom;N° FMJD;Fédération;Titre;Classement;Classement national;Club;Année de naissance\n"
          "Lefèvre;Émile;1001;FRA;MI;2301;2250;Damier Lyonnais;1990\n",
    "nl": "Achternaam,Voornaam,FMJD-nummer,Bond,Titel,FMJD-rating,KNDB-rating,Vereniging,Geboortejaar\n"
          "van den Heuvel,Anne,1002,NED,MF,2210,2190,DC Utrecht,1995\n",
    "ru": "Фамилия,Имя,FMJD ID,Федерация,Звание,Рейтинг,Национальный рейтинг,Клуб,Год рождения\n"
          "Шварцман,Алексей,1003,RUS,GMI,2400,2380,Москва,1983\n",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", FILES)
def test_a_header_in_the_arbiters_language(language: str) -> None:
    report = players_import_csv(data=FILES[language].encode("utf-8"), source=f"{language}.csv")
    assert report.ok, report.lines
    player = Player.objects.get()
    assert (player.fmjd_id, player.rating, player.national_rating, player.birth_year) == (
        1000 + list(FILES).index(language) + 1, [2301, 2210, 2400][list(FILES).index(language)],
        [2250, 2190, 2380][list(FILES).index(language)], [1990, 1995, 1983][list(FILES).index(language)])
    assert player.club and player.title and player.given_name and player.federation


def test_headers_are_folded_before_they_are_read() -> None:
    assert header_name("  PRÉNOM ") == "given_name"
    assert header_name("given_name") == "given_name" and header_name("Given Name") == "given_name"
    assert header_name("national-rating") == "national_rating"
    assert header_name("Год  рождения") == "birth_year"
    assert header_name("Colonne Inconnue") == "colonne inconnue"


@pytest.mark.django_db
def test_an_unknown_header_is_still_named() -> None:
    with pytest.raises(DomainError, match="unknown column\\(s\\): colonne inconnue"):
        players_import_csv(data=b"Nom;Colonne inconnue\nDupont;x\n", source="x.csv")
