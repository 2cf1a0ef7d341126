"""The import review in words, for the `import_trf` command (English, as every management command's
output; the codes and values stay in tournaments.exchange.trf_review)."""

from __future__ import annotations

from typing import Any

from tournaments.exchange.trf_review import SKIPPED_MEANING, Adjustment, Review, RoundCheck

_ADJUSTMENTS: dict[str, str] = {
    "rounds-overridden": "number of rounds: the file says {file}, --rounds gives {option}; {option} is used",
    "rounds-from-option": "number of rounds: not in the file (no 142 or XXR); {rounds} from --rounds",
    "initial-colour-inferred": "initial colour: not in the file (no 152 or XXC); inferred from round 1 as "
                               "bbpPairings does: {colour}",
    "points-default": "point values: not in the file (no 162 or BBx); draughts {win}/{draw}/{loss}, "
                      "pairing-allocated bye {bye}",
    "points-halves-doubled": "point values: chess 1/0.5/0 read as draughts 2/1/0 (every score doubled)",
    "bye-points-default": "pairing-allocated bye: its points are not in the file (no 162 P or BBU); worth a "
                          "win ({bye})",
    "162-absence-as-zero-point-bye": "line {line} (162): A (absence) read as the value of a bye asked for in "
                                     "advance and of a forfeit loss",
    "162-unknown-result-dropped": "line {line} (162): X (unknown result) dropped: Damier has no such result",
    "240-bye-read": "line {line} (240): player {player} has a bye asked for in advance ({kind}) in round {round}",
    "240-bye-ignored": "line {line} (240): the bye ({kind}) of player {player} in round {round} is not the one "
                       "his 001 record gives; the 001 record is used",
    "name-missing": "tournament name: no 012 record; --name or 'Imported tournament' is used",
    "record-missing": "record {record} missing: {meaning}",
    "date-missing": "record {record} missing: the tournament's {what} date is left blank",
    "date-unreadable": "line {line} ({record}): date {text!r} not read (YYYY/MM/DD or YY/MM/DD); left blank",
    "round-dates-missing": "round dates: none in the file for round(s) {rounds}; left blank",
    "record-skipped": "record {record} not read ({count} line(s), line {first}): {meaning}",
    "points-column-differs": "line {line}, player {player}: points column {written}, the results make "
                             "{results}; the results are used",
    "points-column-missing": "points column blank for player(s) {players}: the points come from the results",
    "old-style-bye": "round {round}, player {player}: '0000 - +' (TRF-2006 style) read as the "
                     "pairing-allocated bye",
    "forfeit-without-colours": "round {round}, forfeit {pair} written without colours: the lower number "
                               "is entered as White",
    "absent-next-round-withdrawn": "player {player}: absent from the next round ('0000 - -'); entered as "
                                   "withdrawn after round {after_round}",
    "rating-missing": "no rating for player(s) {players}: entered unrated",
    "player-known": "player {player}: FMJD id {fmjd_id} is already {name} (rating {rating}) in Damier; that "
                    "player is used, the file's name and rating are not applied",
    "title-dropped": "player {player}: title {title!r} is not an FMJD title; left blank",
}
_MISSING = {"192": "the type of tournament; a Swiss paired by the FMJD rules (Dutch system) is assumed",
            "202": "the tie-break list (202 or 212); the tournament gets Damier's default list"}
_CRITERIA = {
    "C1 rematch": "rematch", "forbidden pair": "forbidden pair", "C2 second bye": "second bye (or a bye after "
    "a win without playing)", "C.04.1 bye": "a bye with an even number of players", "C3 colour": "colours",
    "paired twice": "paired twice", "not paired": "left out of the round", "not to be paired": "paired although "
    "withdrawn or absent", "unknown player": "not a player of the file", "paired with self": "paired with himself",
}


def adjustment_text(a: Adjustment) -> str:
    values: dict[str, Any] = {k: (", ".join(map(str, v)) if isinstance(v, list) else v) for k, v in a.values.items()}
    if a.code == "record-missing":
        values["meaning"] = _MISSING.get(str(a.values.get("record")), "")
    elif a.code == "record-skipped":
        values["meaning"] = SKIPPED_MEANING.get(str(a.values.get("record")), "not a record type Damier knows")
        values["first"] = a.values["lines"][0] if a.values.get("lines") else "?"
    elif a.code == "date-missing":
        values["what"] = "start" if a.values.get("record") == "042" else "end"
    template = _ADJUSTMENTS.get(a.code)
    if template is None:
        return f"{a.code}: {values}"
    try:
        return template.format(**values)
    except (KeyError, IndexError):
        return f"{a.code}: {values}"


def round_text(r: RoundCheck) -> list[str]:
    lines = []
    if r.broken:
        lines.append(f"  round {r.round}: BREAKS THE PAIRING RULES on board(s) {', '.join(r.broken_pairs())}")
        for v in r.violations:
            who = " and ".join(str(p) for p in v.players)
            lines.append(f"    - {_CRITERIA.get(v.criterion, v.criterion)}: {who} ({v.detail})")
    if r.engine_failed:
        lines.append(f"  round {r.round}: the engine could not pair this round ({r.engine_failed}); its "
                     "pairing was checked against the absolute criteria only")
    elif r.differs:
        lines.append(f"  round {r.round}: keeps the rules but differs from Damier's pairing "
                     f"(information, not recorded): file {_pairs(r.only_file)}; Damier {_pairs(r.only_engine)}")
    return lines


def _pairs(pairs: tuple[tuple[int, int | None], ...]) -> str:
    return ", ".join(f"{w}-{b}" if b is not None else f"bye {w}" for w, b in pairs) or "-"


def review_text(review: Review) -> str:
    v = review.version
    ext = {"XX": "JaVaFo TRF(x) XX lines", "BB": "bbpPairings BB lines"}
    version = f"TRF-{v.year}" + ("" if v.certain else " (or TRF-2006: the same records; read the same way)")
    if v.evidence:
        version += f", from {', '.join(v.evidence)}"
    if v.extensions:
        version += f"; extensions: {', '.join(ext[x] for x in v.extensions)}"
    out = [f"File: {version}."]
    if review.adjustments:
        out.append(f"Adjustments and defaults ({len(review.adjustments)}):")
        out += [f"  - {adjustment_text(a)}" for a in review.adjustments]
    else:
        out.append("Adjustments and defaults: none.")
    checked = len(review.rounds)
    broken = review.broken_rounds
    differ = sum(1 for r in review.rounds if r.differs and not r.broken)
    out.append(f"Pairing rules: {checked} imported round(s) replayed; {len(broken)} break(s) the rules, "
               f"{differ} other(s) differ from Damier's pairing.")
    for r in review.rounds:
        out += round_text(r)
    return "\n".join(out) + "\n"
