"""What a TRF import is about to do, worked out before anything is written (VCL4THP Q47-Q56).

An arbiter moving a tournament from another program must know three things before Damier keeps it:

- which TRF the file is (2006, 2016 or 2026, with the JaVaFo / bbpPairings `XX?` and `BB?` extensions
  if any), found from the record types present (`detect_version`);
- every adjustment the import makes and every default it uses where the file is silent (a missing
  number of rounds, initial colour or point system, a points column the results contradict, a round
  without a date, a record type Damier does not read, ...): `Review.adjustments`, as codes and values;
- whether each imported round keeps the pairing rules (`replay`): the round is paired again by the
  engine from the state before it and compared with the file's pairs, colours and bye; the file's own
  pairing is checked against the absolute criteria (a rematch, a forbidden pair, a second bye, the
  colour limits, a player paired twice or left out). A round that breaks one stops the import until the
  arbiter confirms (level 3); it is then recorded as a conformance event, so the TRF export carries it
  as a `###` line. A round that keeps them but is not the engine's pairing (or that the engine could not
  pair to compare) is treated like a round paired by hand in Damier (checklist Q55, Q68-Q69): it stops
  the import until confirmed (level 3) and is recorded with the file's and the engine's pairs. The
  played rounds then stand on the record as they are, never silently.

TRF-2006 and TRF-2016 share the `001` record (the same columns) and the `012`-`122` header records;
TRF-2016 added `132` (the round dates) and the `U` code for the pairing-allocated bye, which TRF-2006
files wrote as a full-point bye without opponent (`0000 - +` here; an `F` stays a bye asked for in
advance, as in every version). TRF-2026 keeps all of it and adds `142`-`362`, `240`-`330`, national
rating records and `###` comments. So one reader serves all three, and the differences are listed.

Pure of the database except `player_matches` (which players of the file Damier already knows).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any

from rules.numbers import number_or_none
from tournaments.conformance.policy import Code, Warning
from tournaments.pairing.checker import absolute_violations, check_pairing
from tournaments.pairing.model import Board, Pairing, Violation
from tournaments.pairing.roundrobin import berger_rounds
from tournaments.pairing.trf import TrfError, TrfFile, cell_points, request_from_trf, trf_lines

# Header records of TRF-2016 (and TRF-2006 but 132) that Damier reads, or reads elsewhere.
_READ = {"001", "012", "022", "122", "XXR", "XXC", "XXP", "BBW", "BBD", "BBL", "BBZ", "BBU", "BBF", "162", "142", "152",
         "202", "092", "192",
         "042", "052", "132", "240"}
# Records only TRF-2026 has (besides ### comments and national rating records).
_TRF26 = {"142", "152", "162", "172", "182", "192", "202", "212", "222", "240", "250", "260", "299", "300",
          "310", "320", "330", "352", "362", "801", "802"}
_TRF16_HEADERS = {"012", "022", "032", "042", "052", "062", "072", "082", "092", "102", "112", "122", "013"}
# What a record Damier does not read means for the tournament it builds (the words: trf_review_text).
SKIPPED_KIND = {
    **dict.fromkeys(("032", "062", "072", "082", "102", "112", "172", "182", "222", "DAT", "NRS"),
                    "informative"),
    "092": "system", "192": "system", "202": "tiebreaks", "212": "tiebreaks", "250": "acceleration",
    "XXA": "acceleration", "260": "forbidden-by-round", "299": "extra-points", "XXS": "points-javafo",
    "XXZ": "absent-javafo",
    **dict.fromkeys(("013", "310", "320", "330", "300", "352", "362", "801", "802"), "team"),
}


@dataclass(frozen=True)
class Adjustment:
    """One thing the import changed or assumed: a stable code and the values that say what."""

    code: str
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Version:
    year: int  # 2006, 2016 or 2026
    certain: bool  # False: nothing in the file tells 2006 from 2016 (the same records), 2016 assumed
    evidence: tuple[str, ...]  # the record types or codes that decided
    extensions: tuple[str, ...]  # "XX" (JaVaFo TRF(x)), "BB" (bbpPairings TRF(bx))


@dataclass(frozen=True)
class RoundCheck:
    """One imported round against the pairing rules and against the engine's pairing of it."""

    round: int
    boards: tuple[tuple[int, int], ...]  # the file's pairs, White first
    bye: int | None
    violations: tuple[Violation, ...]
    only_file: tuple[tuple[int, int | None], ...] = ()  # (white, black) or (bye, None)
    only_engine: tuple[tuple[int, int | None], ...] = ()
    engine_failed: str = ""  # the engine could not pair the round (why, as the exception's class)

    @property
    def broken(self) -> bool:
        return bool(self.violations)

    @property
    def differs(self) -> bool:
        return bool(self.only_file or self.only_engine)

    def broken_pairs(self) -> list[str]:
        """The file's boards (or bye) a violation names, as 'white-black' / 'bye:n'."""
        named = {p for v in self.violations for p in v.players}
        out = [f"{w}-{b}" for w, b in self.boards if w in named or b in named]
        if self.bye is not None and self.bye in named:
            out.append(f"bye:{self.bye}")
        return out

    @property
    def to_confirm(self) -> bool:
        """The round stands on the record only once the arbiter confirms it: it breaks the rules, is not
        the engine's pairing, or could not be compared with it."""
        return self.broken or self.differs or bool(self.engine_failed)

    def warning(self) -> Warning:
        if self.broken:
            criteria = sorted({criterion_code(v.criterion) for v in self.violations})
            return Warning(Code.IMPORT_BROKE_RULES,
                           {"round": self.round, "pairs": self.broken_pairs(), "criteria": criteria})
        return Warning(Code.IMPORT_NOT_ENGINE_PAIRING, {
            "round": self.round, "file": _pairs(self.only_file) if not self.engine_failed else
            _pairs(tuple((w, b) for w, b in self.boards) + (((self.bye, None),) if self.bye else ())),
            "engine": "not-possible" if self.engine_failed else _pairs(self.only_engine)})


def _pairs(pairs: tuple[tuple[int, int | None], ...]) -> list[str]:
    """Pairs as data for an event: 'white-black', 'bye:n'."""
    return [f"{w}-{b}" if b is not None else f"bye:{w}" for w, b in pairs] or ["-"]


def criterion_code(criterion: str) -> str:
    return re.sub(r"[^a-z0-9.]+", "-", criterion.lower()).strip("-")


@dataclass
class Dates:
    start: date | None = None
    end: date | None = None
    rounds: dict[int, date] = field(default_factory=dict)


@dataclass
class Review:
    version: Version
    adjustments: list[Adjustment] = field(default_factory=list)
    rounds: list[RoundCheck] = field(default_factory=list)
    dates: Dates = field(default_factory=Dates)  # 042, 052 and 132, as far as they could be read
    tiebreaks: list[str] | None = None  # Damier's names for the 202 list; None: Damier's default list
    system: str = "swiss"  # the tournament's System value, from 192 / 092
    rr_reverse_last_two: bool = False  # a double round robin's first cycle ends with its last two rounds reversed

    def add(self, code: str, **values: Any) -> None:
        self.adjustments.append(Adjustment(code, values))

    def warnings(self) -> list[Warning]:
        """Level-3 warnings: one per imported round that breaks the pairing rules or is not the engine's."""
        return [r.warning() for r in self.rounds if r.to_confirm]

    @property
    def broken_rounds(self) -> list[RoundCheck]:
        return [r for r in self.rounds if r.broken]

    @property
    def rounds_to_confirm(self) -> list[RoundCheck]:
        return [r for r in self.rounds if r.to_confirm]


def system_of(text: str) -> tuple[str, bool]:
    """(Damier's System value, the last two rounds of the first cycle reversed) for a 192 or 092 text: TRF-2026's
    Tournament-Type Code Table names the round robins BERGER_ROUNDROBIN (= FIDE_ROUNDROBIN), BERGER_
    DOUBLEROUNDROBIN (the table twice), FIDE_DOUBLEROUNDROBIN (the first cycle with its last two rounds
    reversed, then the table) and CUSTOM_ROUNDROBIN; an older file says it in words in 092."""
    upper = text.upper().replace(" ", "").replace("-", "")
    if "ROBIN" not in upper and "BERGER" not in upper:
        return "swiss", False
    if "DOUBLE" not in upper:
        return "round_robin", False
    return "double_round_robin", upper.startswith("FIDE")


def detect_version(text: str) -> Version:
    """The TRF version from the record types present (see the module's docstring)."""
    codes = _record_codes(text)
    extensions = tuple(x for x, present in (("XX", any(c.startswith("XX") for c in codes)),
                                            ("BB", any(c.startswith("BB") for c in codes))) if present)
    new = sorted(codes & _TRF26) + (["###"] if "###" in codes else []) + sorted(
        c for c in codes if _is_national(c))
    if new:
        return Version(2026, True, tuple(new), extensions)
    cells = _cell_codes(text)
    if "132" in codes or "U" in cells:
        return Version(2016, True, tuple(x for x in ("132", "U") if x in codes or x in cells), extensions)
    if "+" in cells:  # a win without opponent: the pairing-allocated bye as TRF-2006 files wrote it
        return Version(2006, True, ("0000 - +",), extensions)
    return Version(2016, False, (), extensions)


def _record_codes(text: str) -> set[str]:
    return {line[:3] for line in trf_lines(text) if line[:3].strip()}


def _is_national(code: str) -> bool:
    return len(code) == 3 and code.isalpha() and code.isupper() and not code.startswith(("XX", "BB")) \
        and code not in ("DAT",)


def _cell_codes(text: str) -> set[str]:
    """Result codes of the byes (cells without opponent) in the 001 records."""
    found = set()
    for line in trf_lines(text):
        if line.startswith("001"):
            for pos in range(91, len(line), 10):
                cell = line[pos:pos + 8].ljust(8)
                if cell[:4].strip() in ("", "0000") and cell[7].strip():
                    found.add(cell[7].upper())
    return found


def normalise(text: str, review: Review) -> str:
    """The text as parse_trf reads it: TRF-2026's 162 codes A (absence) and X (unknown result) are not
    in the parser's table; A is the zero-point bye's value (and a forfeit loss's, which is 0 here
    anyway), X has no result in Damier and is dropped. Each change is an adjustment."""
    out = []
    for number, line in enumerate(trf_lines(text), start=1):
        if line.startswith("162"):
            chars = list(line)
            for pos in range(5, len(line.rstrip()), 9):
                if chars[pos] == "A":
                    chars[pos] = "Z"
                    review.add("162-absence-as-zero-point-bye", line=number)
                elif chars[pos] == "X":
                    chars[pos:pos + 9] = list(" " * len(chars[pos:pos + 9]))
                    review.add("162-unknown-result-dropped", line=number)
            line = "".join(chars).rstrip()
        out.append(line)
    return "\n".join(out) + "\n"


def review_header(text: str, trf: TrfFile, review: Review, *, rounds_option: int | None) -> None:
    """Read what parse_trf leaves (142, 152), then list the defaults used and the records skipped.
    Mutates `trf` where a default replaces what the file does not say."""
    lines = trf_lines(text)
    first: dict[str, tuple[int, str]] = {}
    skipped: dict[str, list[int]] = defaultdict(list)
    for number, line in enumerate(lines, start=1):
        code = line[:3]
        if not code.strip() or code == "###":
            continue
        first.setdefault(code, (number, line[4:].strip()))
        if code not in _READ:
            skipped["NRS" if _is_national(code) and code not in SKIPPED_KIND else code].append(number)
    has_xxr = "XXR" in first
    file_rounds = None
    if has_xxr:
        file_rounds = trf.total_rounds
    elif "142" in first:
        value = first["142"][1].split()[0] if first["142"][1] else ""
        file_rounds = number_or_none(value, high=9999)
        if file_rounds is None:
            raise TrfError(f"line {first['142'][0]} (142): number of rounds {value[:20]!r} is not a whole number")
        trf.total_rounds = file_rounds
    if rounds_option:
        if file_rounds and file_rounds != rounds_option:
            review.add("rounds-overridden", file=file_rounds, option=rounds_option)
        elif not file_rounds:
            review.add("rounds-from-option", rounds=rounds_option)
        trf.total_rounds = rounds_option
    elif not file_rounds and system_of(trf.system)[0] != "swiss" and len(trf.players) >= 2:
        # a round robin's number of rounds is its Berger table's (FIDE C.05 Annex 1)
        trf.total_rounds = berger_rounds(len(trf.players), system_of(trf.system)[0] == "double_round_robin")
        review.add("rounds-from-table", rounds=trf.total_rounds)
    elif not file_rounds:
        raise TrfError("the file has no 142 or XXR (number of rounds) line: give the number of rounds (--rounds)")
    if "XXC" not in first:
        if "152" in first and first["152"][1].upper() in ("W", "B"):
            trf.initial_colour = "w" if first["152"][1].upper() == "W" else "b"
        else:
            review.add("initial-colour-inferred", colour=trf.initial_colour)
    if not any(c in first for c in ("162", "BBW", "BBD", "BBL", "BBZ", "BBU")):
        review.add("points-default", win=2, draw=1, loss=0, bye=trf.points.bye)
    elif trf.scale == 2:
        review.add("points-halves-doubled")
    elif "BBU" not in first and not _162_has(first, "P"):
        review.add("bye-points-default", bye=trf.points.bye)
    if "012" not in first:
        review.add("name-missing")
    if "192" not in first and system_of(trf.system)[0] == "swiss":  # what TRF-2026 says and TRF-2016 cannot
        review.add("record-missing", record="192")
    if "202" not in first and "212" not in first:  # two ways of giving the tie-breaks
        review.add("record-missing", record="202")
    _tiebreaks(trf, review)
    _byes_240(lines, trf, review)
    _old_style_f_byes(trf, review)
    _columns_not_kept(lines, trf, review)
    _dates(first, lines, trf, review)
    for code, numbers in sorted(skipped.items()):
        if code == "212" and review.tiebreaks is not None:
            continue  # 202 gave the tie-breaks; 212 is the same list with PTS
        review.add("record-skipped", record=code, lines=numbers[:10], count=len(numbers))


def _tiebreaks(trf: TrfFile, review: Review) -> None:
    """The 202 list in Damier's names (FIDE's codes where a draughts tie-break is the same, Damier's own
    names otherwise: tournaments.verification.file_check); a code Damier does not compute leaves the
    default list, and says so."""
    from tournaments.standings import TIEBREAKS
    from tournaments.verification.file_check import TIEBREAK_CODES, tiebreak_names

    if not trf.tiebreaks:
        return
    unknown = [c for c in trf.tiebreaks if c.upper() != "PTS" and TIEBREAK_CODES.get(c.upper(), c.lower())
               not in TIEBREAKS]
    if unknown:
        review.add("tiebreaks-not-read", codes=unknown)
        return
    review.tiebreaks = tiebreak_names(trf.tiebreaks)
    review.add("tiebreaks-read", codes=list(trf.tiebreaks))


def _columns_not_kept(lines: list[str], trf: TrfFile, review: Review) -> None:
    """001 columns Damier does not keep: the sex (10), the birth date beyond its year (70-79), the rank
    (86-89: Damier ranks by its own tie-breaks)."""
    sex = birth = ranked = 0
    for p in trf.players:
        raw = lines[p.line - 1] if 0 < p.line <= len(lines) else ""
        sex += bool(raw[9:10].strip())
        birth += len(raw[69:79].strip()) > 4
        ranked += bool(raw[85:89].strip())
    if sex:
        review.add("sex-not-kept", players=sex)
    if birth:
        review.add("birth-date-year-only", players=birth)
    if ranked:
        review.add("rank-column-not-read", players=ranked)


def _old_style_f_byes(trf: TrfFile, review: Review) -> None:
    """Before TRF-2016's `U`, programs wrote the pairing-allocated bye as a full-point bye (`0000 - F`;
    bbpPairings and JaVaFo then give the same player a second bye). In a plain file (not TRF-2026, no XX
    or BB lines: files from pairing engines and from Damier, which write `U`, have them) without any `U`,
    the one `F` of a played round is read as the pairing-allocated bye, and listed."""
    if review.version.year == 2026 or review.version.extensions:
        return
    if any(c[0] == 0 and c[2] == "U" for p in trf.players for c in p.cells.values()):
        return
    last = trf.rounds_in_file
    by_round: dict[int, list[int]] = defaultdict(list)
    for p in trf.players:
        for rnd, (opp, _, code) in p.cells.items():
            if opp == 0 and code == "F" and rnd <= last:
                by_round[rnd].append(p.number)
    for rnd, numbers in sorted(by_round.items()):
        if len(numbers) == 1:
            player = next(p for p in trf.players if p.number == numbers[0])
            player.cells[rnd] = (0, "-", "U")
            review.add("old-style-bye-f", round=rnd, player=numbers[0])


def _byes_240(lines: list[str], trf: TrfFile, review: Review) -> None:
    """TRF-2026 `240 T RRR IIII IIII ...`: byes asked for in advance (F, H, Z). The 001 round cells say the
    same for played rounds; for the round to pair only 240 may say it (in-tournament exchange). A bye is
    written into the player's cell when the cell is empty; a cell that says otherwise wins, and is listed."""
    by_number = {p.number: p for p in trf.players}
    for number, line in enumerate(lines, start=1):
        if not line.startswith("240"):
            continue
        kind, rnd_text = line[4:5].upper(), line[6:9].strip()
        rnd = number_or_none(rnd_text)
        if kind not in ("F", "H", "Z") or rnd is None:
            raise TrfError(f"line {number} (240): expected '240 T RRR IIII ...' with T one of F H Z "
                           "(columns 5 and 7-9)")
        for id_text in line[9:].split():  # columns 11-14, 16-19, ...; read by spaces, as writers differ
            rank = number_or_none(id_text)
            player = by_number.get(rank) if rank is not None else None
            if player is None:
                raise TrfError(f"line {number} (240): {id_text[:20]!r} is not a starting rank of the file")
            cell = player.cells.get(rnd)
            if cell is None:
                player.cells[rnd] = (0, "-", kind)
                review.add("240-bye-read", line=number, round=rnd, player=player.number, kind=kind)
            elif cell != (0, "-", kind):
                review.add("240-bye-ignored", line=number, round=rnd, player=player.number, kind=kind)


def _162_has(first: dict[str, tuple[int, str]], letter: str) -> bool:
    return "162" in first and f" {letter}" in f" {first['162'][1]}"


def _dates(first: dict[str, tuple[int, str]], lines: list[str], trf: TrfFile, review: Review) -> None:
    dates = Dates()
    for code, attr in (("042", "start"), ("052", "end")):
        if code not in first:
            review.add("date-missing", record=code)
            continue
        value = _date(first[code][1])
        if value is None:
            review.add("date-unreadable", record=code, line=first[code][0], text=first[code][1][:20])
        setattr(dates, attr, value)
    if dates.start and dates.end and dates.end < dates.start:
        review.add("date-unreadable", record="052", line=first["052"][0], text=first["052"][1][:20])
        dates.end = None
    played = range(1, trf.rounds_in_file + 1)
    if "132" in first:
        line = lines[first["132"][0] - 1]
        for rnd in played:
            text = line[91 + 10 * (rnd - 1):99 + 10 * (rnd - 1)].strip()
            value = _date(text, short=True) if text else None
            if value is not None:
                dates.rounds[rnd] = value
            elif text:
                review.add("date-unreadable", record="132", line=first["132"][0], text=text, round=rnd)
    missing = [r for r in played if r not in dates.rounds]
    if missing:
        review.add("round-dates-missing", rounds=missing)
    review.dates = dates


def _date(text: str, *, short: bool = False) -> date | None:
    m = re.fullmatch(r"([0-9]{2}|[0-9]{4})[/.-]([0-9]{1,2})[/.-]([0-9]{1,2})", text.strip())
    if not m:
        return None
    year = int(m[1]) + (2000 if len(m[1]) == 2 else 0)
    try:
        return date(year, int(m[2]), int(m[3]))
    except ValueError:
        return None


def review_players(trf: TrfFile, review: Review) -> None:
    """The player columns the import changes or drops, and the points column against the results."""
    last = trf.rounds_in_file
    unrated, blank_points = [], []
    for p in sorted(trf.players, key=lambda q: q.number):
        if not p.rating:
            unrated.append(p.number)
        if not p.points_text:
            blank_points.append(p.number)
        else:
            made = sum(cell_points(c, trf.points) for r, c in p.cells.items() if r <= last)
            ahead = p.cells.get(last + 1)
            options = {made} | ({made + cell_points(ahead, trf.points)} if ahead else set())
            try:
                written = round(float(p.points_text) * trf.scale)
            except ValueError:
                written = None
            if written not in options:
                review.add("points-column-differs", player=p.number, line=p.line, written=p.points_text,
                           results=f"{made / trf.scale:.1f}")
                p.points_text = ""  # the results decide; check_trf then reads no column
        for rnd, (opp, colour, code) in sorted(p.cells.items()):
            if opp == 0 and code == "+":
                review.add("old-style-bye", round=rnd, player=p.number)
            if opp and code in "+-" and colour == "-" and p.number < opp:
                review.add("forfeit-without-colours", round=rnd, pair=f"{p.number}-{opp}")
        ahead = p.cells.get(last + 1)
        if ahead is not None and ahead[0] == 0 and ahead[2] == "-":
            review.add("absent-next-round-withdrawn", player=p.number, after_round=last)
    if unrated:
        review.add("rating-missing", players=unrated)
    if blank_points:
        review.add("points-column-missing", players=blank_points)


def review_known_players(trf: TrfFile, review: Review) -> None:
    """Players of the file Damier already knows by FMJD id: the existing player is used, the file's
    name, rating and title are not applied to it. Titles Damier does not know are dropped."""
    from tournaments.models import Player, Title

    ids = {p.details.player_id: p for p in trf.players if p.details.player_id is not None}
    known = {pl.fmjd_id: pl for pl in Player.objects.filter(fmjd_id__in=list(ids))}
    for pid, p in sorted(ids.items(), key=lambda kv: kv[1].number):
        if pid in known and (known[pid].rating or 0, known[pid].full_name) != (p.rating or 0, p.name):
            review.add("player-known", player=p.number, fmjd_id=pid, name=known[pid].full_name,
                       rating=known[pid].rating or 0)
    for p in sorted(trf.players, key=lambda q: q.number):
        if p.details.title and p.details.title.upper() not in Title.values and p.details.player_id not in known:
            review.add("title-dropped", player=p.number, title=p.details.title)


def replay(trf: TrfFile) -> list[RoundCheck]:
    """Every round of the file, paired again from the state before it and checked (see the docstring)."""
    return [replay_round(trf, rnd) for rnd in range(1, trf.rounds_in_file + 1)]


def replay_round(trf: TrfFile, rnd: int) -> RoundCheck:
    req = request_from_trf(trf, rnd)
    cells = {p.number: p.cells.get(rnd) for p in trf.players}
    players = []
    for sp in req.players:
        cell = cells[sp.id]
        if cell is None:  # a blank cell is equivalent to Z: the player was not in the round
            sp = replace(sp, excused=True)
        elif cell[0] == 0 and cell[2] in ("U", "+"):  # the pairing-allocated bye: in the round
            sp = replace(sp, excused=False, withdrawn=False)
        elif cell[0] != 0:  # paired (a forfeit included), whatever the file said of him before
            sp = replace(sp, excused=False, withdrawn=False)
        players.append(sp)
    req = replace(req, players=tuple(players))
    boards: list[tuple[int, int]] = []
    unknown_colours: set[tuple[int, int]] = set()
    bye = None
    for number, cell in sorted(cells.items()):
        if cell is None:
            continue
        opp, colour, code = cell
        if opp == 0:
            if code in ("U", "+"):
                bye = number
            continue
        if number > opp:
            continue
        theirs = cells.get(opp)
        if colour == "b" or (theirs is not None and theirs[1] == "w"):
            boards.append((opp, number))
        else:
            boards.append((number, opp))
            if colour not in ("w", "b"):
                unknown_colours.add((number, opp))
    engine_failed = ""
    try:
        report = check_pairing(req, Pairing(tuple(Board(w, b) for w, b in boards), bye))
    except Exception as exc:  # the engine's failure is reported, never taken for a pass
        engine_failed = type(exc).__name__
        violations = tuple(absolute_violations(req, Pairing(tuple(Board(w, b) for w, b in boards), bye)))
        return RoundCheck(rnd, tuple(boards), bye, _without_forfeit_colours(violations, unknown_colours),
                          engine_failed=engine_failed)
    only_file, only_engine = set(report.only_proposed), set(report.only_engine)
    for w, b in unknown_colours:  # a forfeit without colours matches the engine's pair either way round
        if (b, w) in only_engine and (w, b) in only_file:
            only_file.discard((w, b))
            only_engine.discard((b, w))
    return RoundCheck(rnd, tuple(boards), bye, _without_forfeit_colours(report.violations, unknown_colours),
                      tuple(sorted(only_file, key=str)), tuple(sorted(only_engine, key=str)))


def _without_forfeit_colours(violations: tuple[Violation, ...] | list[Violation],
                             unknown: set[tuple[int, int]]) -> tuple[Violation, ...]:
    """A colour violation on a forfeit written without colours is the reading's, not the file's."""
    blind = {p for pair in unknown for p in pair}
    return tuple(v for v in violations if not (v.criterion == "C3 colour" and set(v.players) <= blind))
