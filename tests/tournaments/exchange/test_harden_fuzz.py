"""Hostile text at the entry, player, round, result and upload forms and at the import command.
Never a server error; a refusal leaves nothing stored half-way; what is stored holds no control character.
Run on SQLite by `make test` and on PostgreSQL by .ci/run (NUL is what PostgreSQL cannot store)."""

from __future__ import annotations

import copy
import json
import unicodedata
from typing import Any

from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.test_permissions import scrape_form
from tournaments.conformance.events import NeedsConfirmation
from tournaments.exchange.transfer import TransferError, export_tournament, import_tournament, loads
from tournaments.models import Entry, ForbiddenPair, Game, Player, Round, Tournament


def first_control_character(text: str) -> str | None:
    """Its own check, not the app's: the test must stand on today's code too."""
    return next((c for c in text if unicodedata.category(c) == "Cc" or c in "\u202a\u202b\u202c\u202d\u202e"), None)

FUZZ = settings(max_examples=20, deadline=None,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

NASTY = ["<script>alert(1)</script>", '<img src="/etc/hostname"/>', "Broken <b", "a\nb", "a\r\n001 x", "\t",
         "\x00", "x\x00y", "\u202eevil", "\x1b[31m", "9" * 40, "1e400", "-1", "Infinity", "NaN", "[[[[[[]]]]]]",
         "Коваленко", "علي بن", "王小明", "Ñoño 🎲", "'; DROP TABLE x; --", "{{ 7*7 }}", "%s%n", "ǅ" * 120]
HOSTILE = st.one_of(st.sampled_from(NASTY), st.text(max_size=30),
                    st.text(alphabet=st.characters(codec="utf-8", categories=["Cc", "Cf", "Lo", "So"]),
                            max_size=12))


def _clean_everywhere() -> None:
    """Nothing stored anywhere holds a control character in a name."""
    for surname, given_name, club in Player.objects.values_list("surname", "given_name", "club"):
        assert not any(first_control_character(v) for v in (surname, given_name, club)), (surname, given_name, club)
    for name, venue in Tournament.objects.values_list("name", "venue"):
        assert not first_control_character(name) and not first_control_character(venue)


def _state() -> list[Any]:
    return [list(m.objects.order_by("pk").values()) for m in (Player, Tournament, Entry, Round, Game,
                                                               ForbiddenPair)]


@FUZZ
@given(page=st.sampled_from(["entry", "player", "tournament", "round"]), values=st.lists(HOSTILE, min_size=1,
                                                                                          max_size=3),
       seed=st.randoms(use_true_random=False))
def test_change_forms_take_hostile_text(published_round, page: str, values: list[str], seed: Any) -> None:  # type: ignore[no-untyped-def]
    t, rnd, client = published_round
    obj = {"tournament": t, "round": rnd, "entry": t.entries.first(), "player": t.entries.first().player}[page]
    url = reverse(f"admin:tournaments_{page}_change", args=[obj.pk])
    with transaction.atomic():
        data = scrape_form(client, url)
        names = sorted(k for k in data if not k.endswith(("TOTAL_FORMS", "INITIAL_FORMS", "-id", "_FORMS")))
        for value in values:
            data[seed.choice(names)] = value
        before = _state()
        response = client.post(url, {**data, "_save": "Save"})
        assert response.status_code in (200, 302), response.status_code
        if response.status_code == 200:  # refused: the page says why, and nothing changed
            assert "errornote" in response.content.decode() or "errorlist" in response.content.decode()
            assert _state() == before
        _clean_everywhere()
        transaction.set_rollback(True)


@FUZZ
@given(values=st.lists(HOSTILE, min_size=8, max_size=8))
def test_the_player_add_form_refuses_control_characters(published_round, values: list[str]) -> None:  # type: ignore[no-untyped-def]
    _, _, client = published_round
    fields = ["surname", "given_name", "fmjd_id", "federation", "title", "rating", "club", "birth_year"]
    with transaction.atomic():
        count = Player.objects.count()
        response = client.post(reverse("admin:tournaments_player_add"), dict(zip(fields, values, strict=True)))
        assert response.status_code in (200, 302)
        assert Player.objects.count() in (count, count + 1)
        _clean_everywhere()
        transaction.set_rollback(True)


@FUZZ
@given(cells=st.lists(HOSTILE, min_size=8, max_size=16), encoding=st.sampled_from(["utf-8", "utf-16", "cp1252"]))
def test_the_csv_page_takes_hostile_lines(published_round, cells: list[str], encoding: str) -> None:  # type: ignore[no-untyped-def]
    _, _, client = published_round
    lines = ["surname,given_name,fmjd_id,federation,title,rating,club,birth_year"]
    lines += [",".join('"' + c.replace('"', '""') + '"' for c in cells[i:i + 8]) for i in range(0, len(cells), 8)]
    data = "\n".join(lines).encode(encoding, "replace")
    with transaction.atomic():
        before = _state()
        response = client.post(reverse("admin:tournaments_player_import"),
                               {"file": SimpleUploadedFile("p.csv", data, "text/csv")})
        assert response.status_code == 200
        texts = [str(m) for m in response.context["messages"]]
        if not any("imported from" in m and "Nothing" not in m for m in texts):
            assert _state() == before, texts  # refused: nothing stored half-way
        _clean_everywhere()
        transaction.set_rollback(True)


@FUZZ
@given(value=st.one_of(HOSTILE, st.integers(-(10**30), 10**30), st.floats(), st.none(), st.booleans(),
                       st.recursive(st.none(), lambda c: st.lists(c, max_size=2), max_leaves=40)),
       seed=st.randoms(use_true_random=False))
def test_the_import_takes_hostile_values(published_round, value: Any, seed: Any) -> None:  # type: ignore[no-untyped-def]
    t, _, _ = published_round
    doc = copy.deepcopy(export_tournament(t))
    doc["tournament"]["slug"] = "fuzzed"
    targets = [(part, i, key) for part in ("players", "entries", "rounds", "games") for i, rec in
               enumerate(doc[part]) for key in rec if key != "key"]
    targets += [("tournament", None, key) for key in doc["tournament"] if key != "key"]
    for _ in range(seed.randint(1, 3)):
        part, i, key = seed.choice(targets)
        (doc[part] if i is None else doc[part][i])[key] = value
    text = json.dumps(doc, allow_nan=True)
    with transaction.atomic():
        before = _state()
        users = get_user_model().objects.count()
        try:
            import_tournament(loads(text))
        except (TransferError, NeedsConfirmation) as exc:
            # refused in words, or a question (a value that reseats a round asks the level-3 confirmation)
            assert str(exc).strip()
            assert _state() == before and get_user_model().objects.count() == users
        _clean_everywhere()
        transaction.set_rollback(True)
