"""The tournament export format as a JSON Schema, and every check of a document before import writes.

Why jsonschema (pinned in requirements.txt) and not hand-written checks: the format is data, the schema
says it in one place, and the validator reports EVERY error with its path in the file ($.games[3].result),
where hand-written checks stop at the first. The schema is generated from the models' fields, so a new
field cannot be forgotten. What a schema cannot say (a bye with two players, a withdrawal after a round
the file does not have, a reference to a key that is missing) is checked here too, all at once.
"""

from __future__ import annotations

import json
import math
from typing import Any

from django.conf import settings
from django.db import models
from jsonschema import Draft202012Validator

from rules.numbers import number_or_none
from tournaments.exchange.transfer_json import json_field_schema, meaning
from tournaments.results import SINGLE_PLAYER_RESULTS, Result
from tournaments.validators import first_control_character

MAX_DEPTH = 24  # the deepest real document (a replay report) is about 6 levels
MAX_ERRORS = 200  # enough to fix a file; the rest is counted
QUOTE_MAX = 80  # of a value quoted in an error: enough to find it in the file, never the whole of a huge one
LINE_MAX = 400  # of one error line, whatever it quotes
TEXT_MAX = 200_000  # a round's pairing explanation, a summary: far above any real one


class DocumentErrors(Exception):
    def __init__(self, errors: list[str]) -> None:
        super().__init__("\n".join(errors))
        self.errors = errors


def short(value: Any) -> str:
    """A value as an error quotes it: its repr, cut to QUOTE_MAX characters with an ellipsis."""
    text = repr(value[:QUOTE_MAX + 1] if isinstance(value, (str, list)) else value)
    return text if len(text) <= QUOTE_MAX else text[:QUOTE_MAX] + "…"


def cut(line: str) -> str:
    """One error line, cut to LINE_MAX characters: a message may quote a value of the file by itself."""
    return line if len(line) <= LINE_MAX else line[:LINE_MAX] + "…"


def _schema_error(e: Any) -> str:
    # jsonschema's messages start with the whole value ("'AAAA…' is too long"): quote it short instead.
    message, whole = e.message, repr(e.instance)
    if len(whole) > QUOTE_MAX and whole in message:
        message = message.replace(whole, short(e.instance), 1)
    return cut(f"{_path(e.absolute_path)}: {message}")


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number this format accepts")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text} is too large a number")
    return value


def parse(text: str | bytes) -> Any:
    """json.loads without NaN, Infinity or numbers that overflow, and without unbounded nesting."""
    value = json.loads(text, parse_constant=_refuse_constant, parse_float=_finite)
    _check_depth(value)
    return value


def _check_depth(value: Any) -> None:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
        if isinstance(item, dict):
            stack += [(v, depth + 1) for v in item.values()]
        elif isinstance(item, list):
            stack += [(v, depth + 1) for v in item]


def _field_schema(f: models.Field[Any, Any], historical: bool) -> dict[str, Any]:
    from django.contrib.auth import get_user_model

    if f.is_relation:
        if f.related_model is get_user_model():
            return {"type": ["string", "null"], "minLength": 1, "maxLength": 150}
        return {"type": ["integer", "null"] if f.null or historical else "integer", "minimum": 1}
    nullable = f.null or historical
    if isinstance(f, models.JSONField):
        return json_field_schema(f.model.__name__, f.name, historical)
    if isinstance(f, models.BooleanField):
        return {"type": "boolean"}
    if isinstance(f, (models.IntegerField,)):
        low, high = (0, 2**31 - 1) if isinstance(f, models.PositiveIntegerField) else (-(2**31), 2**31 - 1)
        if isinstance(f, models.PositiveSmallIntegerField):
            high = 32767
        if isinstance(f, models.BigIntegerField):  # a seed of a drawing of lots (numbering, ties)
            low, high = (0 if isinstance(f, models.PositiveBigIntegerField) else -(2**63)), 2**63 - 1
        return {"type": ["integer", "null"] if nullable else "integer", "minimum": low, "maximum": high}
    if isinstance(f, (models.DateTimeField, models.DateField, models.TimeField)):
        return {"type": ["string", "null"] if nullable else "string", "maxLength": 40}
    if isinstance(f, models.TextField):
        limit = settings.DAMIER_PDN_MAX_BYTES if f.name == "text" else TEXT_MAX
        return {"type": "string", "maxLength": limit}
    schema: dict[str, Any] = {"type": ["string", "null"] if nullable else "string"}
    if f.max_length:
        schema["maxLength"] = f.max_length
    if f.choices:
        schema["enum"] = [c for c, _label in f.flatchoices] + ([None] if nullable else [])
        if f.blank:
            schema["enum"].append("")
    return schema


def _record_schema(model: type[models.Model], fields: list[models.Field[Any, Any]], historical: bool,
                   extra: dict[str, Any]) -> dict[str, Any]:
    props = {"key": {"type": "integer", "minimum": 1, "maximum": 2**31 - 1}, **extra}
    props.update({f.name: _field_schema(f, historical) for f in fields})
    if historical:
        props.update({"history_date": {"type": "string", "maxLength": 40},
                      "history_type": {"enum": ["+", "~", "-"]},
                      "history_change_reason": {"type": ["string", "null"], "maxLength": 100},
                      "history_user": {"type": ["string", "null"], "minLength": 1, "maxLength": 150}})
    required = ["key", "history_date", "history_type"] if historical else ["key"]
    return {"type": "object", "properties": props, "required": required, "additionalProperties": False}


# A rating list named by what identifies it on every site (tournaments.models.RatingList's unique fields).
LIST_IDENTITY = {"type": ["object", "null"], "additionalProperties": False,
                 "required": ["source", "kind", "published_on"],
                 "properties": {"source": {"type": "string", "minLength": 1, "maxLength": 20},
                                "kind": {"enum": ["fmjd", "national"]},
                                "published_on": {"type": "string", "format": "date", "maxLength": 10}}}


def document_schema(parts: list[tuple[str, type[models.Model]]], fields_of: Any, history_parts: set[str],
                    format_name: str, version: int) -> dict[str, Any]:
    deputies = {"deputy_arbiters": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 150},
                                    "maxItems": 100},
                "fmjd_list": LIST_IDENTITY, "national_list": LIST_IDENTITY}
    props: dict[str, Any] = {"format": {"const": format_name}, "version": {"const": version}}
    history: dict[str, Any] = {}
    for name, model in parts:
        extra = deputies if name == "tournament" else {}
        record = _record_schema(model, fields_of(model), False, extra)
        props[name] = record if name == "tournament" else {"type": "array", "items": record, "maxItems": 100_000}
        if name in history_parts:
            history[name] = {"type": "array", "items": _record_schema(model, fields_of(model), True, {}),
                             "maxItems": 1_000_000}
    props["history"] = {"type": "object", "properties": history, "additionalProperties": False}
    return {"type": "object", "properties": props, "required": ["format", "version", "tournament"],
            "additionalProperties": False}


def _path(parts: Any) -> str:
    out = "$"
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else f".{p}"
    return out


def check(doc: Any, schema: dict[str, Any]) -> None:
    """Every error of the document, each with its path; nothing is written when there is one."""
    found = sorted(Draft202012Validator(schema).iter_errors(doc), key=lambda e: list(map(str, e.path)))
    # Worded only as far as shown: a message quotes its value, which may be megabytes long.
    errors: list[str] = [_schema_error(e) for e in found[:MAX_ERRORS]] + [""] * max(0, len(found) - MAX_ERRORS)
    errors += _nul(doc)
    if not errors:  # the checks of meaning read the shape the schema guarantees
        errors = _meaning(doc)
    if errors:
        shown = [cut(line) for line in errors[:MAX_ERRORS]]
        if len(errors) > MAX_ERRORS:
            shown.append(f"… and {len(errors) - MAX_ERRORS} more error(s).")
        raise DocumentErrors(shown)


def _meaning(doc: dict[str, Any]) -> list[str]:
    """What the shape allows but a tournament cannot hold."""
    errors: list[str] = []
    keys = {name: {r["key"] for r in doc.get(name, [])} for name in ("players", "entries", "rounds", "games")}
    rounds = [r.get("number") for r in doc.get("rounds", [])]
    last_round = max([n for n in rounds if isinstance(n, int)], default=0)
    single = {r.value for r in SINGLE_PLAYER_RESULTS}
    known = {r.value for r in Result} | {""}
    for i, g in enumerate(doc.get("games", [])):
        where = f"$.games[{i}]"
        result = g.get("result", "")
        if g.get("black") is not None and result in single:
            errors.append(f"{where}.result: {short(result)} is for a player alone, but the game has two players.")
        if g.get("black") is None and result not in single | {""}:
            errors.append(f"{where}.result: {short(result)} needs two players, but black is empty (a bye).")
        if result not in known:
            errors.append(f"{where}.result: {short(result)} is not a result.")
        for side in ("white", "black"):
            if g.get(side) is not None and g[side] not in keys["entries"]:
                errors.append(f"{where}.{side}: no entry with key {short(g[side])} in the file.")
        if g.get("round") not in keys["rounds"]:
            errors.append(f"{where}.round: no round with key {short(g.get('round'))} in the file.")
    for i, e in enumerate(doc.get("entries", [])):
        where = f"$.entries[{i}]"
        after = e.get("withdrawn_after_round")
        if after is not None and after > last_round:
            errors.append(f"{where}.withdrawn_after_round: {after}, but the file has {last_round} round(s).")
        excused = e.get("excused_rounds", [])
        if not isinstance(excused, list) or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 1
                                                    for n in excused):
            errors.append(f"{where}.excused_rounds: a list of round numbers, e.g. [3, 5].")
        byes = e.get("bye_points", {})
        if not isinstance(byes, dict) or not all(
                number_or_none(r, low=1) is not None and points in (0, 1, 2) and not isinstance(points, bool)
                for r, points in byes.items()):
            errors.append(f"{where}.bye_points: each requested bye as its round number and points, e.g. "
                          '{"3": 1}.')
        if e.get("player") not in keys["players"]:
            errors.append(f"{where}.player: no player with key {short(e.get('player'))} in the file.")
    for i, p in enumerate(doc.get("players", [])):
        for name in ("surname", "given_name", "club"):
            found = first_control_character(p.get(name) or "")
            if found:
                errors.append(f"$.players[{i}].{name}: control character U+{ord(found[1]):04X} at position "
                              f"{found[0]}.")
    return errors + meaning(doc)


def _nul(doc: Any) -> list[str]:
    """PostgreSQL cannot store U+0000 in text: every string holding one is named."""
    errors = []
    stack: list[tuple[Any, list[Any]]] = [(doc, [])]
    while stack:
        item, path = stack.pop()
        if isinstance(item, str) and "\x00" in item:
            errors.append(f"{_path(path)}: contains a NUL character (U+0000).")
        elif isinstance(item, dict):
            stack += [(v, [*path, k]) for k, v in item.items()]
            errors += [f"{_path(path)}: a key contains a NUL character (U+0000)." for k in item if "\x00" in k]
        elif isinstance(item, list):
            stack += [(v, [*path, i]) for i, v in enumerate(item)]
    return sorted(errors)
