"""The shape of every JSON field a tournament export carries, and what a set of rounds must be.

A JSON field is free to the database; its readers are not: the pairing log, the sheet page, the TRF
writer and the standings read keys and types without asking. So an import checks each such field against
the shape its writer gives it (the writers: tournaments.rounds.pairing_bridge.pairing_record, the sheet's replay
report in tournaments.sheets.verdict, tournaments.players.requested_byes, tournaments.conformance.events), and
what no field says alone: the rounds are 1..n, every one before the last completed (services.round_pair
pairs only after the round before is completed, and a completed round reopens only while it is the last).
History records keep whatever shape they were written with: only current objects are read by pages.
"""

from __future__ import annotations

from typing import Any

from rules.numbers import number_or_none

ROUND = {"type": "integer", "minimum": 1, "maximum": 32767}
NUMBER = {"type": "integer", "minimum": 0, "maximum": 100_000}  # a pairing number, a count, a score
NUMBERS = {"type": "array", "items": NUMBER, "maxItems": 100_000}
TEXT = {"type": "string", "maxLength": 2_000}
MAYBE_TEXT = {"type": ["string", "null"], "maxLength": 2_000}
MAYBE_NUMBER = {"type": ["integer", "null"], "minimum": 0, "maximum": 1_000_000}
SCALAR = {"type": ["string", "integer", "number", "boolean", "null"], "maxLength": 2_000}


def _object(properties: dict[str, Any], required: tuple[str, ...] = (), *, closed: bool = True,
            null: bool = False, max_properties: int = 100) -> dict[str, Any]:
    # "null" in the type rather than anyOf: an error inside then keeps its own path in the message.
    return {"type": ["object", "null"] if null else "object", "properties": properties, "required": list(required),
            "additionalProperties": not closed, "maxProperties": max_properties}


_BRACKET = _object({
    "score": NUMBER, "residents": NUMBERS, "moved_down": NUMBERS, "downfloaters": NUMBERS, "upfloaters": NUMBERS,
    "pairs": {"type": "array", "maxItems": 50_000,
              "items": {"type": "array", "prefixItems": [NUMBER, NUMBER], "items": False, "minItems": 2}},
    "unmet": {"type": "array", "maxItems": 100,
              "items": {"type": "array", "prefixItems": [{"type": "string", "maxLength": 8}, NUMBER], "items": False,
                        "minItems": 2}},
    "completion_search": {"type": "boolean"},
}, ("score", "residents", "moved_down", "pairs", "downfloaters", "upfloaters", "unmet"))

_BYE_REPORT = _object({"player": NUMBER, "score": NUMBER, "lowest_score": NUMBER, "passed_over": NUMBERS,
                       "c9": {"type": "boolean"}, "played": NUMBER},
                      ("player", "score", "lowest_score", "passed_over", "c9", "played"), null=True)

PAIRING_RECORD = _object({
    "round": ROUND, "paired": NUMBER, "withdrawn": NUMBERS, "excused": NUMBERS,
    "names": {"type": "object", "propertyNames": {"pattern": "^[1-9][0-9]{0,5}$"},
              "additionalProperties": {"type": "string", "maxLength": 400}, "maxProperties": 100_000},
    "bye_points": {"enum": [0, 1, 2]},
    "brackets": {"type": "array", "items": _BRACKET, "maxItems": 100_000},
    "bye_report": _BYE_REPORT,
    "colours": {"type": "array", "maxItems": 50_000,
                "items": _object({"white": NUMBER, "black": NUMBER, "rule": {"enum": ["E1", "E2", "E3", "E4", "E5"]}},
                                 ("white", "black", "rule"))},
}, ("round", "paired", "withdrawn", "excused", "names", "bye_points", "brackets", "bye_report", "colours"), null=True)

_ISSUE = _object({"ply": MAYBE_NUMBER, "move_number": MAYBE_NUMBER, "move": MAYBE_TEXT, "article": MAYBE_TEXT,
                  "severity": TEXT, "message": TEXT, "line": MAYBE_NUMBER, "column": MAYBE_NUMBER,
                  "side": {"enum": ["white", "black", None]}, "stands": MAYBE_TEXT, "code": TEXT,
                  "values": {"type": "object", "additionalProperties": SCALAR, "maxProperties": 20}})
_SIDE_COUNT = _object({"men": NUMBER, "kings": NUMBER})

SHEET_REPORT = _object({
    "replay": _object({
        "status": TEXT, "headers": {"type": "object", "additionalProperties": TEXT, "maxProperties": 200},
        "unreadable": _object({"text": TEXT, "line": MAYBE_NUMBER, "column": MAYBE_NUMBER, "message": TEXT},
                              closed=False, null=True),
        "plies": NUMBER, "sheet_plies": MAYBE_NUMBER, "last_move": MAYBE_NUMBER, "last_side": MAYBE_TEXT,
        "board_result": MAYBE_TEXT, "board_move": MAYBE_NUMBER, "board_side": MAYBE_TEXT, "board_article": MAYBE_TEXT,
        "board_ply": MAYBE_NUMBER,
        "material": _object({"white": _SIDE_COUNT, "black": _SIDE_COUNT}, null=True),
        "issues": {"type": "array", "items": _ISSUE, "maxItems": 10_000},
    }, closed=False),
    "irregular": {"type": "array", "items": _ISSUE, "maxItems": 10_000},
    "status": TEXT, "flags": {"type": "array", "items": TEXT, "maxItems": 20}, "recorded": TEXT,
    "sheet_result": TEXT, "early_draw": _object({"moves": NUMBER, "limit": NUMBER}, ("moves", "limit"), null=True),
    "refused": {"type": "boolean"}, "replayed_at": TEXT, "summary": TEXT, "assigned": {"type": "boolean"},
})

# Whatever a breach's values hold, each is one word, number or list of them (events.trf_lines and words).
EVENT_VALUES = {"type": "object", "maxProperties": 50, "propertyNames": {"maxLength": 40},
                "additionalProperties": {"anyOf": [SCALAR, {"type": "array", "items": SCALAR, "maxItems": 1_000}]}}

# The schema of each JSON field, by model and field name; a JSON field missing here is refused by a test.
JSON_FIELDS: dict[tuple[str, str], dict[str, Any]] = {
    ("Tournament", "tiebreaks"): {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 20},
    ("Tournament", "hand_order"): {"type": "array", "items": {"type": "integer", "minimum": 1}, "maxItems": 100_000,
                                   "uniqueItems": True},
    ("Entry", "excused_rounds"): {"type": "array", "items": ROUND, "maxItems": 1_000, "uniqueItems": True},
    # A requested bye worth a draw or a win: {"round": 1 or 2}.
    ("Entry", "bye_points"): {"type": "object", "propertyNames": {"pattern": "^[1-9][0-9]{0,4}$"},
                              "additionalProperties": {"enum": [1, 2]}, "maxProperties": 1_000},
    ("Round", "pairing_record"): PAIRING_RECORD,
    ("Round", "manual_edit_confirmed"): {"type": "array", "items": TEXT, "maxItems": 10_000},
    ("GameSheet", "report"): SHEET_REPORT,
    ("ConformanceEvent", "values"): EVENT_VALUES,
}


def json_field_schema(model_name: str, field_name: str, historical: bool) -> dict[str, Any]:
    return {} if historical else JSON_FIELDS[(model_name, field_name)]


def meaning(doc: dict[str, Any]) -> list[str]:
    """What the shapes allow but a tournament cannot hold: rounds with a gap or a round left open under a
    later one, a requested bye outside the excused rounds, an excused round past the tournament's last."""
    errors: list[str] = []
    rounds = sorted(((r.get("number"), i, r.get("status")) for i, r in enumerate(doc.get("rounds", []))
                     if isinstance(r.get("number"), int)), key=lambda x: x[0])
    for expected, (number, i, status) in enumerate(rounds, start=1):
        if number != expected:
            errors.append(f"$.rounds[{i}].number: round {number} is in the file twice." if number < expected else
                          f"$.rounds[{i}].number: {number}, but round {expected} is not in the file (rounds are "
                          f"numbered 1, 2, 3… without a gap).")
            break
        if number < len(rounds) and status != "completed":
            errors.append(f"$.rounds[{i}].status: round {number} is {status!r} under round {len(rounds)}: every "
                          f"round before the last is completed.")
    tournament = doc.get("tournament", {})
    total = tournament.get("rounds_total") if tournament.get("system") == "swiss" else None
    for i, e in enumerate(doc.get("entries", [])):
        excused = e.get("excused_rounds", [])
        if isinstance(total, int) and isinstance(excused, list) and any(isinstance(n, int) and n > total
                                                                        for n in excused):
            errors.append(f"$.entries[{i}].excused_rounds: a round past the last ({total}).")
        byes = e.get("bye_points", {})
        if isinstance(byes, dict) and isinstance(excused, list):
            outside = sorted(n for k in byes if (n := number_or_none(k)) is not None and n not in excused)
            if outside:
                errors.append(f"$.entries[{i}].bye_points: round(s) {', '.join(map(str, outside))} are not in "
                              "excused_rounds "
                              f"(a requested bye is an excused round).")
    return errors
