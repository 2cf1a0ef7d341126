"""What a list's columns may mean, and the meaning guessed from a header.

A header is read as the players' CSV reads it (`exchange.player_import.header_name`: English, French,
Dutch and Russian spreadsheet names), then by the names rating lists add: FMJD's `.DRA` columns (`nr_ew`,
`last_n`, `first_n`, `country`, `wtitle`), national ids (KNDB's "bondsnummer", FFJD's "licence"), sex
and the name in its own script. The arbiter confirms or changes every guess before anything is read.
"""

from __future__ import annotations

import re

from tournaments import selectors
from tournaments.exchange.player_import import header_name

IGNORE = ""
# The row fields a column may fill (RatingListRow's), women_title only read into `title` (rows.py).
FIELDS = ("fmjd_id", "national_id", "surname", "given_name", "native_name", "federation", "title",
          "women_title", "rating", "sex", "birth_year", "club")

# Headers read after header_name's, written as `_key` folds them.
EXTRA_ALIASES = {
    # FMJD's .DRA list (docs/research/federation-texts.md, 1a); `wrating` and `nick` are left unread.
    "nr ew": "fmjd_id", "last n": "surname", "first n": "given_name", "country": "federation",
    "wtitle": "women_title", "title": "title", "rating": "rating",
    # national ids: no KNDB or FFJD list text was found; these are the words their members' cards use
    "national id": "national_id", "kndb nr": "national_id", "kndb nummer": "national_id",
    "kndb id": "national_id", "bondsnummer": "national_id", "bondsnr": "national_id",
    "relatienummer": "national_id", "lidnummer": "national_id", "licence": "national_id",
    "licence ffjd": "national_id", "n licence": "national_id", "no licence": "national_id",
    "numero de licence": "national_id", "id national": "national_id", "ffjd": "national_id",
    "ffjd id": "national_id", "kndb": "national_id", "номер": "national_id",
    # the national federation's rating is the list's rating
    "national rating": "rating", "nationale rating": "rating", "kndb rating": "rating",
    "classement national": "rating", "elo national": "rating", "ffjd rating": "rating",
    "classement ffjd": "rating", "национальный рейтинг": "rating",
    # sex
    "sex": "sex", "gender": "sex", "sexe": "sex", "geslacht": "sex", "пол": "sex",
    # the name in its own script
    "native name": "native_name", "name in own script": "native_name", "nom natif": "native_name",
    "nom dans son ecriture": "native_name", "eigen schrift": "native_name", "naam eigen schrift": "native_name",
    "имя на родном языке": "native_name", "родное имя": "native_name",
    # women's title
    "women title": "women_title", "titre feminin": "women_title", "vrouwentitel": "women_title",
    "женское звание": "women_title",
}
# What header_name names that a list row calls otherwise.
_FROM_PLAYER_CSV = {"national_rating": "rating"}


def _key(text: str) -> str:
    return selectors.folded(re.sub(r"[\s_.\-°#:/()]+", " ", text.strip().lower()).strip())


def guess(header: str) -> str:
    """The field a header names, or IGNORE when none is known."""
    key = _key(header)
    if key in EXTRA_ALIASES:
        return EXTRA_ALIASES[key]
    name = _FROM_PLAYER_CSV.get(header_name(header), header_name(header))
    return name if name in FIELDS else IGNORE


def guess_all(headers: list[str]) -> list[str]:
    """A field per column; a field named by two headers is guessed for the first only."""
    out: list[str] = []
    for header in headers:
        field = guess(header)
        out.append(IGNORE if field in out else field)
    return out
