"""The import review in words, in the reader's language: for the `import_trf` command and the admin's
import page (the codes and values stay in tournaments.exchange.trf_review)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.exchange.trf_review import SKIPPED_KIND, Adjustment, Review, RoundCheck

_ADJUSTMENTS: dict[str, Any] = {
    "rounds-overridden": gettext_lazy(
        "Number of rounds: the file says %(file)s, the import gives %(option)s; %(option)s is used."),
    "rounds-from-option": gettext_lazy(
        "Number of rounds: not in the file (no 142 or XXR); %(rounds)s, as given at the import."),
    "rounds-from-table": gettext_lazy(
        "Number of rounds: not in the file (no 142 or XXR); %(rounds)s, the round robin's Berger table."),
    "initial-colour-inferred": gettext_lazy(
        "Initial colour: not in the file (no 152 or XXC); inferred from round 1 as bbpPairings does: %(colour)s."),
    "points-default": gettext_lazy(
        "Point values: not in the file (no 162 or BBx); draughts %(win)s/%(draw)s/%(loss)s, pairing-allocated bye "
        "%(bye)s."),
    "points-halves-doubled": gettext_lazy(
        "Point values: chess 1/0.5/0 read as draughts 2/1/0 (every score doubled)."),
    "bye-points-default": gettext_lazy(
        "Pairing-allocated bye: its points are not in the file (no 162 P or BBU); worth a win (%(bye)s)."),
    "162-absence-as-zero-point-bye": gettext_lazy(
        "Line %(line)s (162): A (absence) read as the value of a bye asked for in advance and of a forfeit loss."),
    "162-unknown-result-dropped": gettext_lazy(
        "Line %(line)s (162): X (unknown result) dropped: Damier has no such result."),
    "240-bye-read": gettext_lazy(
        "Line %(line)s (240): player %(player)s has a bye asked for in advance (%(kind)s) in round %(round)s."),
    "240-bye-ignored": gettext_lazy(
        "Line %(line)s (240): the bye (%(kind)s) of player %(player)s in round %(round)s is not what the player's "
        "001 record says; the 001 record is used."),
    "name-missing": gettext_lazy(
        "Tournament name: no 012 record; the name given at the import, else 'Imported tournament'."),
    "date-unreadable": gettext_lazy(
        "Line %(line)s (%(record)s): date '%(text)s' not read (YYYY/MM/DD or YY/MM/DD); left blank."),
    "round-dates-missing": gettext_lazy("Round dates: none in the file for round(s) %(rounds)s; left blank."),
    "points-column-differs": gettext_lazy(
        "Line %(line)s, player %(player)s: the points column says %(written)s, the results make %(results)s; the "
        "results are used."),
    "points-column-missing": gettext_lazy(
        "Points column blank for player(s) %(players)s: the points come from the results."),
    "old-style-bye": gettext_lazy(
        "Round %(round)s, player %(player)s: '0000 - +' (TRF-2006 style) read as the pairing-allocated bye."),
    "old-style-bye-f": gettext_lazy(
        "Round %(round)s, player %(player)s: '0000 - F' in a file without 'U' (before TRF-2016) read as the "
        "pairing-allocated bye."),
    "sex-not-kept": gettext_lazy("Sex (column 10) of %(players)s player(s): not kept."),
    "birth-date-year-only": gettext_lazy("Birth date of %(players)s player(s): only the year is kept."),
    "rank-column-not-read": gettext_lazy(
        "Rank column (86-89) of %(players)s player(s): not read; Damier ranks by the tournament's tie-breaks."),
    "forfeit-without-colours": gettext_lazy(
        "Round %(round)s, forfeit %(pair)s written without colours: the lower number is entered as White."),
    "absent-next-round-withdrawn": gettext_lazy(
        "Player %(player)s: absent from the next round ('0000 - -'); entered as withdrawn after round "
        "%(after_round)s."),
    "rating-missing": gettext_lazy("No rating for player(s) %(players)s: entered unrated."),
    "player-known": gettext_lazy(
        "Player %(player)s: FMJD id %(fmjd_id)s is already %(name)s (rating %(rating)s) in Damier; that player is "
        "used, the file's name and rating are not applied."),
    "title-dropped": gettext_lazy("Player %(player)s: title '%(title)s' is not an FMJD title; left blank."),
    "tiebreaks-read": gettext_lazy("Tie-breaks (202): %(codes)s, kept as the tournament's tie-break order."),
    "tiebreaks-not-read": gettext_lazy(
        "Tie-breaks (202): %(codes)s not computed by Damier; the tournament gets Damier's default list."),
    "conformance-mode-left": gettext_lazy(
        "Line %(line)s (###): the tournament left the conformance mode (round %(round)s); the import keeps it "
        "outside the mode."),
    "rating-settings-read": gettext_lazy(
        "### lines: the rating tie-breaks' settings and %(later)s later rating(s) read; the import keeps them."),
    "conformance-events-read": gettext_lazy(
        "### lines: %(events)s conformance event(s) read; the import keeps them in the tournament's history."),
}
_MISSING: dict[str, Any] = {
    "192": gettext_lazy("No 192 record (type of tournament): a Swiss paired by the FMJD rules (Dutch system) is "
                        "assumed."),
    "202": gettext_lazy("No 202 or 212 record (tie-breaks): the tournament gets Damier's default tie-break list."),
    "042": gettext_lazy("No 042 record: the tournament's start date is left blank."),
    "052": gettext_lazy("No 052 record: the tournament's end date is left blank."),
}
_SKIPPED: dict[str, Any] = {
    "informative": gettext_lazy("information only, not kept"),
    "system": gettext_lazy("type of tournament: Damier pairs it as a Swiss by the FMJD rules (Dutch system)"),
    "tiebreaks": gettext_lazy("tie-breaks: the tournament gets Damier's default list"),
    "acceleration": gettext_lazy("acceleration: Damier's Swiss has none, the rounds are paired without it"),
    "forbidden-by-round": gettext_lazy("forbidden pairs for some rounds: not kept, enter them in the tournament"),
    "extra-points": gettext_lazy("points outside the results: not kept"),
    "points-javafo": gettext_lazy("JaVaFo point values: not read, give them as 162 or BBx"),
    "absent-javafo": gettext_lazy("JaVaFo absences for the next round: not read, give them as '0000 - Z'"),
    "team": gettext_lazy("team tournament record: Damier runs individual tournaments"),
}
_UNKNOWN_RECORD = gettext_lazy("not a record type Damier knows")
_SKIPPED_LINE = gettext_lazy("Record %(record)s not read (%(count)s line(s), first on line %(first)s): %(meaning)s.")
_CRITERIA: dict[str, Any] = {
    "C1 rematch": gettext_lazy("rematch"),
    "forbidden pair": gettext_lazy("forbidden pair"),
    "C2 second bye": gettext_lazy("second bye (or a bye after a win without playing)"),
    "C.04.1 bye": gettext_lazy("a bye with an even number of players"),
    "C3 colour": gettext_lazy("colours (three in a row or a difference over 2)"),
    "paired twice": gettext_lazy("paired twice"),
    "not paired": gettext_lazy("left out of the round"),
    "not to be paired": gettext_lazy("paired although withdrawn or absent"),
    "unknown player": gettext_lazy("not a player of the file"),
    "paired with self": gettext_lazy("paired with oneself"),
    "RR repeat": gettext_lazy("a pair meeting twice in one cycle of the round robin"),
    "RR colour": gettext_lazy("the same colour three times in a row"),
}


def _flat(values: dict[str, Any]) -> dict[str, Any]:
    return {k: (", ".join(map(str, v)) if isinstance(v, (list, tuple)) else v) for k, v in values.items()}


def adjustment_text(a: Adjustment) -> str:
    values = _flat(a.values)
    if a.code in ("record-missing", "date-missing"):
        return str(_MISSING.get(str(a.values.get("record")), a.code))
    if a.code == "record-skipped":
        kind = SKIPPED_KIND.get(str(a.values.get("record")))
        values["meaning"] = _SKIPPED[kind] if kind else _UNKNOWN_RECORD
        values["first"] = a.values["lines"][0] if a.values.get("lines") else "?"
        return str(_SKIPPED_LINE) % values
    template = _ADJUSTMENTS.get(a.code)
    try:
        return str(template) % values if template is not None else f"{a.code}: {values}"
    except (KeyError, TypeError, ValueError):
        return f"{a.code}: {values}"


def version_text(review: Review) -> str:
    v = review.version
    ext = {"XX": _("JaVaFo TRF(x) XX lines"), "BB": _("bbpPairings BB lines")}
    text = _("TRF-%(year)s") % {"year": v.year}
    if not v.certain:
        text = _("TRF-2016 (or TRF-2006: nothing in the file tells them apart; both are read the same way)")
    if v.evidence:
        text += " " + _("(from %(records)s)") % {"records": ", ".join(v.evidence)}
    if v.extensions:
        text += "; " + _("extensions: %(list)s") % {"list": ", ".join(ext[x] for x in v.extensions)}
    return text


def violation_text(criterion: str, players: tuple[int, ...]) -> str:
    return _("%(criterion)s: players %(players)s") % {
        "criterion": _CRITERIA.get(criterion, criterion), "players": ", ".join(map(str, players))}


def pairs_text(pairs: tuple[tuple[int, int | None], ...]) -> str:
    return ", ".join(f"{w}-{b}" if b is not None else _("bye %(player)s") % {"player": w} for w, b in pairs) or "-"


def round_text(r: RoundCheck) -> list[str]:
    lines = []
    if r.broken:
        lines.append(_("Round %(round)s breaks the pairing rules on board(s) %(pairs)s:")
                     % {"round": r.round, "pairs": ", ".join(r.broken_pairs())})
        lines += ["  - " + violation_text(v.criterion, v.players) for v in r.violations]
    if r.engine_failed:
        lines.append(_("Round %(round)s: the engine could not pair this round (%(error)s); the file's pairing was "
                       "checked against the absolute criteria only.") % {"round": r.round, "error": r.engine_failed})
    elif r.broken:
        lines.append(_("Damier would pair this round: %(engine)s.") % {"engine": pairs_text(r.only_engine)})
    elif r.differs:
        lines.append(_("Round %(round)s keeps the rules but is not Damier's pairing (to confirm; recorded as a "
                       "conformance event): the file %(file)s; Damier %(engine)s.")
                     % {"round": r.round, "file": pairs_text(r.only_file), "engine": pairs_text(r.only_engine)})
    return lines


def summary_text(review: Review) -> str:
    differ = sum(1 for r in review.rounds if r.differs and not r.broken)
    return _("Pairing rules: %(checked)s imported round(s) replayed; %(broken)s break(s) the rules, %(differ)s "
             "other(s) differ from Damier's pairing.") % {
        "checked": len(review.rounds), "broken": len(review.broken_rounds), "differ": differ}


def review_text(review: Review) -> str:
    """The whole review as plain text (the command's output)."""
    out = [_("File: %(version)s.") % {"version": version_text(review)}]
    if review.adjustments:
        out.append(_("Adjustments and defaults (%(n)s):") % {"n": len(review.adjustments)})
        out += [f"  - {adjustment_text(a)}" for a in review.adjustments]
    else:
        out.append(_("Adjustments and defaults: none."))
    out.append(summary_text(review))
    for r in review.rounds:
        out += ["  " + line for line in round_text(r)]
    return "\n".join(out) + "\n"
