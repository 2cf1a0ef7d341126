"""Importing players from CSV: a report line per CSV line, and nothing imported when any line is bad.

Every error of a line is reported (all of them, not the first); the import is in bulk, and a file of
more than MAX_LINES lines is refused before anything is read into the database.

Columns (header row required, names case-insensitive, order free): surname (required), given_name,
fmjd_id, federation, title, rating, national_rating, club, birth_year, native_name (the name in its own
script), sex, and the national ids kndb_id and ffjd_id, or the same in French, Dutch or Russian as
spreadsheets name them (ALIASES: "Nom", "Prénom", "Voornaam", "Фамилия", "KNDB nr", "bondsnummer",
"licence FFJD"…). A title is read whatever its case and dots ("g.m.i." is GMI); sex as M or F, or the
French H/F, the Dutch M/V and the Russian М/Ж (SEXES). A player whose FMJD id is already known is updated
(rating lists are re-imported every period), and so is one found by a national id of the line; any other
is created. Decoding:
UTF-8 (with or without BOM), else Windows-1252, which is what spreadsheets on Windows export.
"""

from __future__ import annotations

import csv
import datetime
import io
import re
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Max, Q
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy
from simple_history.utils import bulk_create_with_history, bulk_update_with_history

from rules.numbers import TOO_LARGE, TOO_SMALL, NumberError, parse_number
from tournaments import selectors
from tournaments.errors import DomainError
from tournaments.models import Entry, NationalId, Player, Sex, Title, Tournament, search_key
from tournaments.players import numbering, requested_byes
from tournaments.players.roster import late_entry_message, round_robin_closed
from tournaments.ratings import tournament_lists
from tournaments.validators import describe_control

COLUMNS = ("surname", "given_name", "fmjd_id", "federation", "title", "rating", "national_rating", "club",
           "birth_year", "native_name", "sex", "kndb_id", "ffjd_id")
# The national-id columns, and the body each id is kept under (NationalId.body).
NATIONAL_IDS = {"kndb_id": "KNDB", "ffjd_id": "FFJD"}
# What a sex cell may say: M or F, the French H(omme)/F(emme), the Dutch M(an)/V(rouw), the Russian М/Ж.
SEXES = {"m": Sex.MALE, "f": Sex.FEMALE, "male": Sex.MALE, "female": Sex.FEMALE, "h": Sex.MALE,
         "homme": Sex.MALE, "femme": Sex.FEMALE, "man": Sex.MALE, "v": Sex.FEMALE, "vrouw": Sex.FEMALE,
         "м": Sex.MALE, "ж": Sex.FEMALE, "муж": Sex.MALE, "жен": Sex.FEMALE, "мужской": Sex.MALE,
         "женский": Sex.FEMALE}
# The headers spreadsheets carry, in English, French, Dutch and Russian, as `header_name` reads them: lower
# case, accents folded (Latin scripts only), spaces, underscores, hyphens and dots as one space.
ALIASES = {
    # English
    "given name": "given_name", "firstname": "given_name", "first name": "given_name", "fmjd id": "fmjd_id",
    "fmjd": "fmjd_id", "national rating": "national_rating", "birth year": "birth_year", "name": "surname",
    "last name": "surname", "lastname": "surname", "fed": "federation",
    # French
    "nom": "surname", "nom de famille": "surname", "prenom": "given_name", "id fmjd": "fmjd_id",
    "no fmjd": "fmjd_id", "n fmjd": "fmjd_id", "numero fmjd": "fmjd_id", "identifiant fmjd": "fmjd_id",
    "licence fmjd": "fmjd_id", "federation": "federation", "fede": "federation", "titre": "title",
    "classement": "rating", "classement fmjd": "rating", "elo": "rating", "elo fmjd": "rating",
    "classement national": "national_rating", "elo national": "national_rating", "club": "club",
    "annee de naissance": "birth_year", "naissance": "birth_year",
    # Dutch
    "achternaam": "surname", "naam": "surname", "voornaam": "given_name", "fmjd nummer": "fmjd_id",
    "fmjd nr": "fmjd_id", "bond": "federation", "federatie": "federation", "land": "federation",
    "titel": "title", "fmjd rating": "rating", "nationale rating": "national_rating",
    "kndb rating": "national_rating", "vereniging": "club", "geboortejaar": "birth_year",
    # Russian
    "фамилия": "surname", "имя": "given_name", "id фмжд": "fmjd_id", "федерация": "federation",
    "страна": "federation", "звание": "title", "титул": "title", "рейтинг": "rating",
    "рейтинг фмжд": "rating", "национальный рейтинг": "national_rating", "клуб": "club",
    "год рождения": "birth_year",
    # The name in its own script, sex and national ids
    "native name": "native_name", "name in own script": "native_name", "nom d origine": "native_name",
    "naam in eigen schrift": "native_name", "фио": "native_name", "sex": "sex", "gender": "sex",
    "sexe": "sex", "geslacht": "sex", "пол": "sex",
    "kndb": "kndb_id", "kndb nr": "kndb_id", "kndb nummer": "kndb_id", "kndb id": "kndb_id",
    "bondsnummer": "kndb_id", "kndb bondsnummer": "kndb_id", "ffjd": "ffjd_id", "licence ffjd": "ffjd_id",
    "ffjd licence": "ffjd_id", "id ffjd": "ffjd_id", "n licence ffjd": "ffjd_id", "no licence ffjd": "ffjd_id",
    "numero de licence ffjd": "ffjd_id", "numero licence ffjd": "ffjd_id",
}


def header_name(text: str) -> str:
    """A header as ALIASES and COLUMNS are written: the column it names, or the header itself, folded."""
    words = re.sub(r"[\s_.\-°#:]+", " ", text.strip().lower()).strip()
    folded = selectors.folded(words)
    canonical = {name.replace("_", " "): name for name in COLUMNS}
    for form in (words, folded):
        if form in ALIASES or form in canonical:
            return ALIASES.get(form) or canonical[form]
    return text.strip().lower()


MAX_BYTES = 5 * 1024 * 1024
# A request must end well within the server's timeout (gunicorn: 30 s): 10,000 lines take about 8 s here
# (bench/csv_import.py). The FMJD rating list is smaller; a larger file is a mistake or an attack.
MAX_LINES = 10_000
CHUNK = 500  # ids per query (SQLite allows 999 variables) and objects per bulk insert


@dataclass
class ImportLine:
    line: int
    status: str  # "created", "updated", "valid" (not imported because of other lines), "error"
    message: str  # in the language active during the import (the arbiter's, or English on the command line)

    @property
    def status_label(self) -> str:
        """The status in the reader's language, for the admin's report."""
        return str(_STATUS_LABELS.get(self.status, self.status))


_STATUS_LABELS = {"created": pgettext_lazy("CSV line", "created"), "updated": pgettext_lazy("CSV line", "updated"),
                  "valid": pgettext_lazy("CSV line", "valid"), "error": pgettext_lazy("CSV line", "error")}


@dataclass
class ImportReport:
    source: str
    encoding: str = ""
    lines: list[ImportLine] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return bool(self.lines) and not any(line.status == "error" for line in self.lines)

    @property
    def errors(self) -> list[ImportLine]:
        return [line for line in self.lines if line.status == "error"]

    def as_text(self) -> str:
        out = [f"{self.source} ({self.encoding}):"]
        out += [f"  line {x.line}: {x.status}: {x.message}" for x in self.lines]
        if self.ok:
            out.append(f"{len(self.lines)} line(s) imported.")
        else:
            out.append(f"Nothing imported: {len(self.errors)} bad line(s).")
        return "\n".join(out)


def decode(data: bytes) -> tuple[str, str]:
    if data.startswith(b"\xef\xbb\xbf"):
        return data[3:].decode("utf-8"), "UTF-8 (BOM)"
    try:
        return data.decode("utf-8"), "UTF-8"
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="strict"), "Windows-1252"


def _int(value: str, name: str, lo: int, hi: int, errors: list[str]) -> int | None:
    if value == "":
        return None
    try:
        return parse_number(value, low=lo, high=hi, signed=True)
    except NumberError as exc:
        if exc.code in (TOO_SMALL, TOO_LARGE):
            errors.append(_("%(column)s %(value)s is out of range (%(low)s–%(high)s)")
                          % {"column": name, "value": int(value), "low": lo, "high": hi})
        else:
            errors.append(_("%(column)s “%(value)s” is not a whole number") % {"column": name, "value": value[:40]})
        return None


TEXT_LIMITS = {"surname": 100, "given_name": 100, "club": 120, "native_name": 200, "kndb_id": 30, "ffjd_id": 30}


def _player_fields(row: dict[str, str]) -> tuple[dict[str, object], list[str]]:
    """The player's fields, and every error of the line (each naming its column)."""
    errors: list[str] = []
    for name, limit in TEXT_LIMITS.items():
        value = row.get(name, "")
        problem = describe_control(value)
        if problem:
            errors.append(_("%(column)s holds %(problem)s") % {"column": name, "problem": problem})
        if len(value) > limit:
            errors.append(_("%(column)s is %(length)s characters long (at most %(limit)s)")
                          % {"column": name, "length": len(value), "limit": limit})
    if not row.get("surname", ""):
        errors.append(_("%(column)s is empty") % {"column": "surname"})
    typed_title = row.get("title", "")
    title = "".join(c for c in typed_title.upper() if c not in ". ")  # "g.m.i.", "M F"
    if title and title not in Title.values:
        errors.append(_("%(column)s “%(value)s” is unknown (expected one of %(expected)s)")
                      % {"column": "title", "value": typed_title[:40], "expected": ", ".join(Title.values)})
    federation = row.get("federation", "").upper()
    if federation and not (len(federation) == 3 and federation.isalpha() and federation.isascii()):
        errors.append(_("%(column)s “%(value)s” is not three letters") % {"column": "federation", "value": federation})
    fields: dict[str, object] = {
        "surname": row.get("surname", ""),
        "given_name": row.get("given_name", ""),
        "fmjd_id": _int(row.get("fmjd_id", ""), "fmjd_id", 1, 2**31 - 1, errors),
        "federation": federation,
        "title": title,
        "rating": _int(row.get("rating", ""), "rating", 0, 3000, errors),
        "club": row.get("club", ""),
        "birth_year": _int(row.get("birth_year", ""), "birth_year", 1880, 2100, errors),
    }
    if "national_rating" in row:  # an FMJD list without the column leaves the national ratings alone
        fields["national_rating"] = _int(row["national_rating"], "national_rating", 0, 3000, errors)
    if "native_name" in row:  # likewise: a list in Latin letters keeps the names in their own script
        fields["native_name"] = row["native_name"]
    if "sex" in row:
        sex = row["sex"]
        fields["sex"] = SEXES.get(sex.lower().rstrip("."), "") if sex else ""
        if sex and not fields["sex"]:
            errors.append(_("%(column)s “%(value)s” is unknown (expected M or F; also H/F, M/V, М/Ж)")
                          % {"column": "sex", "value": sex[:40]})
    ids = {NATIONAL_IDS[name]: row[name] for name in NATIONAL_IDS if row.get(name)}
    if ids:
        fields["national_ids"] = ids
    return fields, errors


def _rows(reader: object, source: str) -> list[tuple[int, list[str]]]:
    """The lines after the header, refused as a whole past MAX_LINES (counted before anything is parsed)."""
    rows: list[tuple[int, list[str]]] = []
    try:
        for line_no, raw in enumerate(reader, start=2):  # type: ignore[call-overload]
            if len(rows) >= MAX_LINES:
                raise DomainError(_("%(file)s: more than %(max)s player lines; nothing imported. Split the file, or "
                                    "import only the players of your tournaments.")
                                  % {"file": source, "max": MAX_LINES})
            rows.append((line_no, raw))
    except csv.Error as exc:
        raise DomainError(_("%(file)s: unreadable CSV (%(why)s).") % {"file": source, "why": exc}) from None
    return rows


def players_import_csv(*, data: bytes, source: str = "CSV", tournament: Tournament | None = None) -> ImportReport:
    """Validate every line first; write only when all are good, in one transaction."""
    report = ImportReport(source=source)
    if len(data) > MAX_BYTES:
        raise DomainError(_("%(file)s: %(size)s bytes is over the limit of %(limit)s bytes for a player list.")
                          % {"file": source, "size": len(data), "limit": MAX_BYTES})
    try:
        text, report.encoding = decode(data)
    except UnicodeDecodeError as exc:
        raise DomainError(_("%(file)s: not a text file in UTF-8 or Windows-1252 (byte %(position)s).")
                          % {"file": source, "position": exc.start}) from None
    if "\x00" in text:
        raise DomainError(_("%(file)s: not a CSV text file (it contains NUL bytes).") % {"file": source})
    try:
        dialect = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel  # type: ignore[assignment]
    # newline="": the csv module splits the records itself, at CR LF, LF or a lone CR (an old Mac file).
    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        raise DomainError(_("%(file)s: the file is empty; expected a header line naming the columns.")
                          % {"file": source}) from None
    names = [header_name(h) for h in header]
    unknown = [h for h in names if h and h not in COLUMNS]
    if "surname" not in names or unknown:
        values = {"file": source, "columns": ", ".join(COLUMNS), "unknown": ", ".join(unknown)}
        if unknown:
            raise DomainError(_("%(file)s, line 1: the header must name the columns (%(columns)s; surname required); "
                                "unknown column(s): %(unknown)s.") % values)
        raise DomainError(_("%(file)s, line 1: the header must name the columns (%(columns)s; surname required).")
                          % values)
    parsed: list[tuple[int, dict[str, object]]] = []
    seen_ids: dict[int, int] = {}
    seen_national: dict[tuple[str, str], int] = {}
    for line_no, raw in _rows(reader, source):
        if not any(cell.strip() for cell in raw):
            continue
        errors = ([_("%(n)s fields, the header has %(header)s") % {"n": len(raw), "header": len(names)}]
                  if len(raw) > len(names) else [])
        row = {name: cell.strip() for name, cell in zip(names, raw, strict=False) if name}
        fields, field_errors = _player_fields(row)
        errors += field_errors
        fmjd_id = fields["fmjd_id"]
        if isinstance(fmjd_id, int):
            if fmjd_id in seen_ids:
                errors.append(_("FMJD id %(id)s already on line %(line)s") % {"id": fmjd_id, "line": seen_ids[fmjd_id]})
            else:
                seen_ids[fmjd_id] = line_no
        for body, number in fields.get("national_ids", {}).items():  # type: ignore[attr-defined]
            if (body, number) in seen_national:
                errors.append(_("%(body)s id %(number)s already on line %(line)s")
                              % {"body": body, "number": number, "line": seen_national[body, number]})
            else:
                seen_national[body, number] = line_no
        if errors:
            report.lines.append(ImportLine(line_no, "error", "; ".join(errors)))
        else:
            parsed.append((line_no, fields))
    if not parsed and not report.lines:
        raise DomainError(_("%(file)s: no player lines after the header.") % {"file": source})
    if report.errors:
        report.lines += [ImportLine(n, "valid", _("%(surname)s: valid, not imported") % {"surname": f["surname"]})
                         for n, f in parsed]
        report.lines.sort(key=lambda x: x.line)
        return report
    written = ImportReport(source=source, encoding=report.encoding)
    try:
        with transaction.atomic():
            _write(parsed, written, tournament)
    except _LineError as exc:
        report.lines.append(ImportLine(exc.line, "error", exc.message))
        return report
    return written


class _LineError(Exception):
    def __init__(self, line: int, message: str) -> None:
        super().__init__(message)
        self.line, self.message = line, message


def _existing(ids: list[int]) -> dict[int, Player]:
    found: dict[int, Player] = {}
    for i in range(0, len(ids), CHUNK):
        found.update({p.fmjd_id: p for p in Player.objects.filter(fmjd_id__in=ids[i:i + CHUNK]) if p.fmjd_id})
    return found


def _take(player: Player, values: dict[str, object], stamp: str, line_no: int) -> None:
    """The line's values on the player, checked by the model's own validators (no save: written in bulk)."""
    for key, value in values.items():
        setattr(player, key, value)
    if values.get("rating") is not None or values.get("national_rating") is not None:
        player.rating_source = stamp  # VCL4THP 134: the list each rating came from
    try:
        player.full_clean(validate_unique=False, validate_constraints=False)
        player.folded = search_key(player.surname, player.given_name, player.native_name)  # no save()
    except ValidationError as exc:
        raise _LineError(line_no, "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())) from None


def _id_holders(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], Player]:
    """The players who hold these national ids already, by (body, number)."""
    found: dict[tuple[str, str], Player] = {}
    numbers = sorted({number for _, number in pairs})
    wanted = set(pairs)
    for i in range(0, len(numbers), CHUNK):
        for nid in NationalId.objects.filter(number__in=numbers[i:i + CHUNK]).select_related("player"):
            if (nid.body, nid.number) in wanted:
                found[nid.body, nid.number] = nid.player
    return found


def _match(line_no: int, fmjd_id: object, ids: dict[str, str], known: dict[int, Player],
           holders: dict[tuple[str, str], Player]) -> Player | None:
    """The register's player a line names: by FMJD id, else by a national id; a line whose ids name two
    different players, or a national id held by a player with another FMJD id, is an error of that line."""
    player = known.get(fmjd_id) if isinstance(fmjd_id, int) else None
    for body, number in ids.items():
        holder = holders.get((body, number))
        if holder is None:
            continue
        if player is None and (fmjd_id is None or holder.fmjd_id in (None, fmjd_id)):
            player = holder
        elif player is None or holder.pk != player.pk:
            raise _LineError(line_no, _("%(body)s id %(number)s belongs to %(holder)s, not to the player of this "
                                        "line (FMJD id %(id)s); correct the line, or merge the records first")
                             % {"body": body, "number": number, "holder": holder, "id": fmjd_id or "–"})
    return player


def _national_ids(lines: list[tuple[int, Player, dict[str, str]]]) -> None:
    """The lines' national ids, added to their players (now saved); a player who has another id with the
    same body is an error of the line: an id is not silently replaced."""
    have = {(nid.player_id, nid.body): nid.number for nid in
            NationalId.objects.filter(player_id__in=[p.pk for _, p, _ids in lines])}
    new = []
    for line_no, player, ids in lines:
        for body, number in ids.items():
            held = have.get((player.pk, body))
            if held is None:
                nid = NationalId(player=player, body=body, number=number)
                try:
                    nid.full_clean(exclude=["player"], validate_unique=False, validate_constraints=False)
                except ValidationError as exc:
                    raise _LineError(line_no, "; ".join(" ".join(v) for v in exc.message_dict.values())) from None
                new.append(nid)
            elif held != number:
                raise _LineError(line_no, _("%(player)s already has %(body)s id %(held)s; this line gives %(number)s")
                                 % {"player": player, "body": body, "held": held, "number": number})
    bulk_create_with_history(new, NationalId, batch_size=CHUNK)


def _write(parsed: list[tuple[int, dict[str, object]]], report: ImportReport, tournament: Tournament | None) -> None:
    """In bulk: one query per CHUNK ids to find the known players, bulk inserts and updates (with their
    history records), then the entries. The model's own validators still see every player."""
    known = _existing([f["fmjd_id"] for _, f in parsed if isinstance(f["fmjd_id"], int)])  # type: ignore[misc]
    holders = _id_holders([pair for _, f in parsed for pair in f.get("national_ids", {}).items()])  # type: ignore[attr-defined]
    stamp = f"{report.source[:140]} ({datetime.date.today().isoformat()})"
    created: list[tuple[int, Player]] = []
    updated: list[tuple[int, Player]] = []
    unchanged: list[tuple[int, Player]] = []
    new_ids: list[tuple[int, Player, dict[str, str]]] = []
    matched: dict[int, int] = {}  # player id -> the line that named him
    for line_no, fields in parsed:
        ids: dict[str, str] = fields.get("national_ids", {})  # type: ignore[assignment]
        player = _match(line_no, fields["fmjd_id"], ids, known, holders)
        if player is not None:
            if player.pk in matched:
                raise _LineError(line_no, _("%(player)s is already the player of line %(line)s")
                                 % {"player": player, "line": matched[player.pk]})
            matched[player.pk] = line_no
        numeric = {"fmjd_id", "rating", "national_rating", "birth_year"}
        values = {k: v if v is not None else (None if k in numeric else "")
                  for k, v in fields.items() if k != "national_ids"}
        if player is not None and values["fmjd_id"] is None:
            values.pop("fmjd_id")  # found by a national id: a list without FMJD ids keeps his
        if player is not None and all(getattr(player, k) == v for k, v in values.items()):
            unchanged.append((line_no, player))  # a rating list re-imported: most lines change nothing
        else:
            (updated if player else created).append((line_no, player := player or Player()))
            _take(player, values, stamp, line_no)
        if ids:
            new_ids.append((line_no, player, ids))
    # The tournaments first, by id (tournaments/locks.py): the one the players go into and every one an updated
    # player plays in (his update moves their cache versions), as a player's page and the pairing take them.
    held = Entry.objects.filter(player_id__in=[p.pk for _, p in updated]).values_list("tournament_id", flat=True)
    list(Tournament.objects.select_for_update().filter(Q(pk__in=held) | Q(pk=getattr(tournament, "pk", None)))
         .order_by("pk").values_list("pk", flat=True))
    # A player found by a national id may take his FMJD id from the line: fmjd_id is written too.
    columns = [f for f in COLUMNS if f not in NATIONAL_IDS] + ["rating_source", "folded"]
    # bulk_update writes one CASE per column and row: small batches keep each statement cheap.
    bulk_update_with_history([p for _, p in updated], Player, columns, batch_size=100)
    bulk_create_with_history([p for _, p in created], Player, batch_size=CHUNK)
    _national_ids(new_ids)
    late_words: dict[int, str] = {}  # a late entry's number, the numbers it moved, its missed rounds
    entered = _enter(tournament, [p for _, p in created + updated + unchanged], late_words) \
        if tournament is not None else {}
    for status, group in (("created", created), ("updated", updated), ("updated", unchanged)):
        for line_no, player in group:
            message = str(player)
            if tournament is not None:
                number = entered.get(player.pk)
                message = (late_words.get(player.pk) or _("%(player)s, entered with pairing number %(number)s")
                           % {"player": message, "number": number} if number else
                           _("%(player)s (already entered in %(tournament)s)")
                           % {"player": message, "tournament": tournament})
            report.lines.append(ImportLine(line_no, status, message))
    report.lines.sort(key=lambda x: x.line)


def _enter(tournament: Tournament, players: list[Player], late_words: dict[int, str]) -> dict[int, int]:
    """Enter the players not yet entered, numbered after the last pairing number: the rules of
    roster.entry_add, checked once for the whole list (the tournament row locked meanwhile)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.is_round_robin and tournament.rounds.exists():
        raise DomainError(round_robin_closed() % {"tournament": tournament})
    already = set(Entry.objects.filter(tournament=tournament).values_list("player_id", flat=True))
    if numbering.is_late(tournament):
        # Late entries: each gets the number his rating earns, one at a time.
        placed: dict[int, int] = {}
        for player in players:
            if player.pk in already:
                continue
            already.add(player.pk)
            entry = Entry.objects.create(tournament=tournament, player=player,
                                         pairing_number=numbering.place_late_entry(tournament, player, None))
            numbering.record_late_entry(tournament, entry)
            requested_byes.record_missed_rounds(entry)
            placed[player.pk] = entry.pairing_number
            late_words[player.pk] = late_entry_message(entry)  # said now: a later line may move him again
        return placed
    number = tournament.entries.aggregate(m=Max("pairing_number"))["m"] or 0
    entries = []
    lists = tournament_lists(tournament.pk)
    for player in players:
        if player.pk in already:
            continue
        already.add(player.pk)
        number += 1
        if number > numbering.MAX_PAIRING_NUMBER:
            raise DomainError(numbering.number_too_big(number))
        entry = Entry(tournament=tournament, player=player, pairing_number=number)
        entry.take_ratings(player, lists)  # bulk_create does not call save(): the ratings he is entered with
        entries.append(entry)
    bulk_create_with_history(entries, Entry, batch_size=CHUNK)
    return {e.player_id: e.pairing_number for e in entries}
