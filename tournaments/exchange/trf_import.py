"""A Swiss tournament from a TRF-16 / TRF(x) file, so an arbiter can move a running tournament from
another program (bbpPairings, JaVaFo, Swiss-Manager's TRF export) to Damier.

What is read: the players (name, rating, title, federation, id, birth year) in starting-rank order
as pairing numbers; every round in the file, completed, with its games and results (wins, draws,
forfeits, double forfeits), pairing-allocated byes (U) and zero-point byes asked for in advance (Z);
in the round to pair, zero-point byes (Z) and absences (`0000 - -`: withdrawn); forbidden pairs
(XXP); the number of rounds (XXR), the first-round colour (XXC, else
inferred from round 1 as bbpPairings does) and the bye's points (BBU / 162 P).

Requested byes worth a draw or a win (H, F) become the same requested byes in Damier, games not rated
(W D L), an arbiter's rulings (= against 0, 0 against 0) and postponed games (?) the same results.
A result symbol no TRF defines, in a round where the player has an opponent, is read as unknown: the
game is imported as postponed (TRF "?", both sides), and the import says which (checklist question 166).
What Damier cannot hold is refused, not guessed: a point system other than 2/1/0.
The import is one transaction: any problem imports nothing, and the message names the line and the field.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify
from simple_history.utils import bulk_create_with_history

from rules.numbers import number_or_none
from rules.pdn import DecodeError, decode_pdn
from tournaments.conformance import events
from tournaments.errors import DomainError
from tournaments.exchange import trf_events
from tournaments.exchange.trf_events import FileConformance, read_conformance
from tournaments.exchange.trf_review import (
    Review,
    detect_version,
    normalise,
    replay,
    review_header,
    review_known_players,
    review_players,
    system_of,
)
from tournaments.exchange.trf_roundrobin import review_round_robin, table_order, withdrawn_after
from tournaments.models import (
    Entry,
    EntryStatus,
    ForbiddenPair,
    Game,
    Player,
    Round,
    RoundStatus,
    SwissOrder,
    System,
    Title,
    Tournament,
    search_key,
)
from tournaments.pairing.roundrobin import berger_schedule
from tournaments.pairing.trf import TrfError, TrfFile, TrfPlayer, cell_points, parse_trf, trf_lines
from tournaments.pairing.trf_check import check_trf
from tournaments.ratings import tournament_lists
from tournaments.results import Result
from tournaments.rounds.settings_rules import check_settings

# the result of a game from the white player's cell: (white's code, black's code) -> Result
_GAME = {
    ("1", "0"): Result.WHITE_WINS, ("0", "1"): Result.BLACK_WINS, ("=", "="): Result.DRAW,
    ("+", "-"): Result.WHITE_FORFEIT_WIN, ("-", "+"): Result.BLACK_FORFEIT_WIN, ("-", "-"): Result.DOUBLE_FORFEIT,
    # not rated (W D L), an arbiter's ruling (1-0, 0-1, 0-0 in 2/1/0: chess ½-0 and 0-0), postponed (?)
    ("W", "L"): Result.WHITE_WINS_UNRATED, ("L", "W"): Result.BLACK_WINS_UNRATED, ("D", "D"): Result.DRAW_UNRATED,
    ("=", "0"): Result.WHITE_RULED, ("0", "="): Result.BLACK_RULED, ("0", "0"): Result.BOTH_LOSE,
    ("?", "?"): Result.POSTPONED,
}
_SINGLE = {"U": Result.BYE, "+": Result.BYE, "Z": Result.EXCUSED, "H": Result.EXCUSED_DRAW, "F": Result.EXCUSED_WIN}


class TrfImportError(DomainError):
    """The file cannot become a Damier tournament; the message names the line and the field."""


_DECODE_WORDS = {
    "bad_utf16": "announces UTF-16 (byte order mark) but is not valid UTF-16 (byte {position})",
    "binary": "holds NUL bytes: a binary file, not a TRF text",
    "unknown_encoding": "is neither UTF-8 nor Windows-1252 (byte {byte} at offset {offset})",
}


def decode_trf(raw: bytes) -> str:
    """A TRF file's text, by the game sheets' decoding policy (rules.pdn.decode_pdn, strict): UTF-8 with or
    without its byte order mark, UTF-16 with one, else Windows-1252, the code page of the older writers
    (which Latin-1 is not: it reads š, Ž, Œ as control characters). Bytes none of them reads are refused,
    never replaced: a name is stored as the file spells it or not at all."""
    try:
        text, _encoding = decode_pdn(raw, strict=True)
    except DecodeError as exc:
        raise TrfImportError("the file " + _DECODE_WORDS.get(exc.code, exc.code).format(**exc.values)) from None
    return text


@dataclass(frozen=True)
class TrfImportResult:
    tournament: Tournament
    players_created: int
    players_matched: int
    rounds: int
    games: int
    unknown: tuple[str, ...] = ()  # "line 4, round 2: 'X'": symbols read as unknown (postponed games)

    def as_text(self) -> str:
        t = self.tournament
        text = (
            f"Imported {t.name!r} (slug {t.slug}): {self.players_created + self.players_matched} players "
            f"({self.players_matched} already known by FMJD id), {self.rounds} completed round(s) of "
            f"{t.rounds_total}, {self.games} game(s) and byes.\n"
        )
        return text + "".join(f"Unknown result symbol read as a postponed game (?): {u}\n" for u in self.unknown)


@dataclass(frozen=True)
class ReviewedFile:
    """A file read and reviewed, nothing written yet: what import_reviewed will create."""

    trf: TrfFile
    review: Review
    unknown: tuple[str, ...] = ()  # result symbols no TRF defines, read as postponed games
    conformance: FileConformance = dataclasses.field(default_factory=FileConformance)  # the ### events


def review_trf(text: str, *, rounds: int | None = None) -> ReviewedFile:
    """Read the file, name its TRF version, list every adjustment and default, and replay every round
    against the pairing rules (tournaments.exchange.trf_review). Writes nothing."""
    review = Review(detect_version(text))
    text, unknown, touched = _unknown_as_postponed(text)
    try:
        trf = parse_trf(normalise(text, review))
        review_header(text, trf, review, rounds_option=rounds)
        _refuse_what_damier_cannot_hold(trf)
        for p in trf.players:
            if p.line in touched:
                p.points_text = ""  # what the other program counted for an unknown symbol is not known
        review_players(trf, review)
        check_trf(trf)
    except TrfError as exc:
        raise TrfImportError(str(exc)) from None
    review_known_players(trf, review)
    if system_of(trf.system)[0] == System.SWISS:
        review.rounds = replay(trf)
    else:  # a round robin is not paired by the Dutch rules: its own rules and the Berger table instead
        try:
            review_round_robin(trf, review, rounds_option=rounds)
        except TrfError as exc:
            raise TrfImportError(str(exc)) from None
    try:
        conformance = read_conformance(text)
    except TrfError as exc:
        raise TrfImportError(str(exc)) from None
    last = max(trf.total_rounds, trf.rounds_in_file)
    for line, number in [(e.line, e.round) for e in conformance.events] + (
            [(conformance.left_line, conformance.left_round)] if conformance.left_round is not None else []):
        if number > last:
            raise TrfImportError(f"line {line} (###): round {number} is not a round of this {last}-round tournament")
    if conformance.left_round is not None:
        review.add("conformance-mode-left", round=conformance.left_round, line=conformance.left_line)
    if conformance.events:
        review.add("conformance-events-read", events=len(conformance.events))
    if conformance.ratings is not None:
        review.add("rating-settings-read", later=len(conformance.ratings.later))
    return ReviewedFile(trf, review, tuple(unknown), conformance)


def import_reviewed(reviewed: ReviewedFile, *, slug: str | None = None, name: str | None = None,
                    confirmed: Collection[str] = (), user: Any = None) -> TrfImportResult:
    """Create the tournament, all or nothing. Rounds that break the pairing rules need the arbiter's
    confirmation (events.NeedsConfirmation otherwise); each is then kept as an IMPORT_BROKE_RULES event
    in the same transaction, so the TRF export carries it as a ### line."""
    warnings = reviewed.review.warnings()
    events.require(warnings, confirmed=confirmed)
    with transaction.atomic():
        result = _Importer(reviewed.trf, slug, name, reviewed.review).run()
        if getattr(user, "is_authenticated", False) and not user.is_superuser:
            # the arbiter who imports it runs it (as one who creates a tournament in the admin)
            Tournament.objects.filter(pk=result.tournament.pk).update(chief_arbiter=user)
            result.tournament.chief_arbiter = user
        _keep_dates(result.tournament, reviewed.review)
        try:
            trf_events.keep(result.tournament, reviewed.conformance)
        except TrfError as exc:
            raise TrfImportError(str(exc)) from None
        for w in warnings:
            if reviewed.conformance.has(str(w.code), w.values["round"]):
                continue  # the file carries this round's event already (a Damier file imported again)
            events.record(result.tournament, w.code, values=w.values, user=user, round_number=w.values["round"])
    return dataclasses.replace(result, unknown=reviewed.unknown)


def import_trf(text: str, *, slug: str | None = None, name: str | None = None,
               rounds: int | None = None, confirmed: Collection[str] = ()) -> TrfImportResult:
    """Review then create the tournament, all or nothing."""
    return import_reviewed(review_trf(text, rounds=rounds), slug=slug, name=name, confirmed=confirmed)


def _keep_dates(t: Tournament, review: Review) -> None:
    dates = review.dates
    if dates.start or dates.end:
        Tournament.objects.filter(pk=t.pk).update(start_date=dates.start, end_date=dates.end)
        t.start_date, t.end_date = dates.start, dates.end
    for number, day in dates.rounds.items():
        Round.objects.filter(tournament=t, number=number).update(date=day)


_KNOWN = set("10=+-WDLHFUZ?")




def _unknown_as_postponed(text: str) -> tuple[str, list[str], set[int]]:
    """Rewrite a result symbol no TRF defines, in a cell with an opponent, as '?' on both players' lines;
    returns the text, what was rewritten (in words) and the numbers (1-based) of the lines it touched."""
    lines = trf_lines(text)
    starts = {line[4:8].strip(): i for i, line in enumerate(lines) if line.startswith("001")}
    found: list[str] = []
    marks: set[tuple[int, int]] = set()  # (line index, position of the result symbol)
    for i, line in enumerate(lines):
        if not line.startswith("001"):
            continue
        for rnd, pos in enumerate(range(91, len(line), 10), start=1):
            cell = line[pos:pos + 8].ljust(8)
            opponent, code = cell[0:4].strip(), cell[7]
            rank = number_or_none(opponent)
            if rank and code.upper() not in _KNOWN and code != " ":
                found.append(f"line {i + 1}, round {rnd}: {code!r}")
                marks.add((i, pos + 7))
                other = starts.get(str(rank))
                if other is not None and len(lines[other]) > pos + 7:
                    marks.add((other, pos + 7))
    for i, at in marks:
        lines[i] = lines[i][:at] + "?" + lines[i][at + 1:]
    return "\n".join(lines) + ("\n" if text.endswith("\n") else ""), found, {i + 1 for i, _at in marks}


def _refuse_what_damier_cannot_hold(trf: TrfFile) -> None:
    pts = trf.points
    if (pts.win, pts.draw, pts.loss, pts.excused) != (2, 1, 0, 0):
        raise TrfImportError(
            f"point system win {pts.win / trf.scale:g}, draw {pts.draw / trf.scale:g}, loss "
            f"{pts.loss / trf.scale:g}, zero-point bye {pts.excused / trf.scale:g}: Damier scores 2/1/0 (or "
            "1/½/0, the same) with 0 for a bye asked for in advance")


class _Importer:
    def __init__(self, trf: TrfFile, slug: str | None, name: str | None, review: Review) -> None:
        self.trf = trf
        self.review = review
        self.table = None if review.system == System.SWISS else berger_schedule(
            len(trf.players), double=review.system == System.DOUBLE_ROUND_ROBIN,
            reverse_last_two=review.rr_reverse_last_two)
        self.name = (name or trf.name or "Imported tournament")[:200]
        self.slug = slug or _free_slug(self.name)
        self.last = trf.rounds_in_file
        self.created = self.matched = 0
        self.by_number = {p.number: p for p in trf.players}

    def run(self) -> TrfImportResult:
        if Tournament.objects.filter(slug=self.slug).exists():
            raise TrfImportError(f"a tournament with slug {self.slug!r} already exists: choose another (--slug)")
        # the point system is 2/1/0 once read (chess halves doubled), so the bye is in Damier's points
        swiss = self.review.system == System.SWISS
        # a round robin's rounds and free round are the Berger table's: its number of rounds is not stored
        t = Tournament(name=self.name, slug=self.slug, system=self.review.system,
                       rounds_total=self.trf.total_rounds if swiss else None,
                       bye_points=self.trf.points.bye if swiss else Tournament._meta.get_field("bye_points").default,
                       swiss_order=SwissOrder.RATING, rr_reverse_last_two=self.review.rr_reverse_last_two,
                       first_colour=self.trf.initial_colour, venue=self.trf.place[:200],
                       time_control=self.trf.time_control[:100], tiebreaks=self.review.tiebreaks or [])
        _clean(t, "tournament (012, 022, 092, 122, 192, 202, XXR, BBU)", constraints=True)
        try:
            with transaction.atomic():
                t.save()
        except IntegrityError:  # the slug was free above; another import took it since (its unique index)
            raise TrfImportError(f"a tournament with slug {self.slug!r} was just created by someone else: choose "
                                 "another (--slug)") from None
        entries = self._entries(t)
        for pair in sorted(tuple(sorted(x)) for x in self.trf.forbidden):
            a, b = pair
            if a not in entries or b not in entries:
                raise TrfImportError(f"XXP: {a if a not in entries else b} is not a starting rank of the file")
            ForbiddenPair.objects.create(tournament=t, first=entries[a], second=entries[b], reason="XXP")
        games = sum(self._round(t, number, entries) for number in range(1, self.last + 1))
        return TrfImportResult(t, self.created, self.matched, self.last, games)

    def _entries(self, t: Tournament) -> dict[int, Entry]:
        """Every player and entry, checked one by one (the message names the line), then written in bulk: a
        file of thousands of players must be imported within a request's time."""
        ordered = sorted(self.trf.players, key=lambda q: q.number)
        players = self._players(ordered)
        entries = []
        lists = tournament_lists(t.pk)
        for p in ordered:
            entry = Entry(tournament=t, player=players[p.number], pairing_number=p.number)
            entry.take_ratings(players[p.number], lists)  # what Entry.save does, which a bulk write skips
            ahead = p.cells.get(self.last + 1)
            entry.excused_rounds = sorted(r for r, c in p.cells.items() if c[0] == 0 and c[2] in "ZHF")
            entry.bye_points = {str(r): 1 if c[2] == "H" else 2 for r, c in p.cells.items()
                                if c[0] == 0 and c[2] in "HF" and r > self.last}
            if ahead is not None and ahead[2] == "-":
                entry.status = EntryStatus.WITHDRAWN
                entry.withdrawn_after_round = self.last if self.table is None else withdrawn_after(p.cells, self.last)
            _clean(entry, f"line {p.line}", exclude=["tournament", "player"])
            entries.append(entry)
        # starting ranks are unique (check_trf) and each player is once in the file (_players): the
        # table's constraints hold, so they are not asked one query each
        return {e.pairing_number: e for e in _bulk(entries, Entry)}

    def _players(self, ordered: list[TrfPlayer]) -> dict[int, Player]:
        """Starting rank -> player: the one Damier knows by FMJD id, else a new one."""
        ids = [p.details.player_id for p in ordered if p.details.player_id is not None]
        known = {pl.fmjd_id: pl for pl in Player.objects.filter(fmjd_id__in=ids)}
        first_line: dict[int, int] = {}
        out: dict[int, Player] = {}
        new: list[tuple[int, Player]] = []
        for p in ordered:
            d = p.details
            if d.player_id is not None:
                if d.player_id in first_line:
                    raise TrfImportError(f"line {p.line}: player id (columns 58-68) {d.player_id} is already the "
                                         f"id of line {first_line[d.player_id]}: one player, two starting ranks")
                first_line[d.player_id] = p.line
                if d.player_id in known:
                    out[p.number] = known[d.player_id]
                    self.matched += 1
                    continue
            surname, _, given = p.name.partition(",")
            # Case aside ("gmi" is GMI); an unknown title is listed by the review (title-dropped) and left blank.
            title = d.title.upper() if d.title.upper() in Title.values else ""
            player = Player(surname=surname.strip()[:100] or f"Player {p.number}", given_name=given.strip()[:100],
                            fmjd_id=d.player_id, federation=d.federation, title=title,
                            rating=p.rating or None, birth_year=d.birth_year)
            _clean(player, f"line {p.line}")
            new.append((p.number, player))
        created = _bulk([player for _number, player in new], Player)
        out.update({number: player for (number, _), player in zip(new, created, strict=True)})
        self.created += len(created)
        return out

    def _round(self, t: Tournament, number: int, entries: dict[int, Entry]) -> int:
        rnd = Round.objects.create(tournament=t, number=number, status=RoundStatus.COMPLETED)
        before = {p.number: self._score_before(p, number) for p in self.trf.players}
        pairs: list[tuple[int, int, Result]] = []
        singles: list[tuple[int, Result]] = []
        for p in self.trf.players:
            cell = p.cells.get(number)
            if cell is None:
                continue
            opp, colour, code = cell
            if opp == 0:
                if code in _SINGLE:
                    singles.append((p.number, _SINGLE[code]))
                continue
            if p.number > opp:
                continue  # each game once, from the side with the lower starting rank
            theirs = self.by_number[opp].cells[number]
            if colour == "w" or theirs[1] == "b" or (colour == "-" and theirs[1] == "-"):
                pairs.append((p.number, opp, _GAME[(code, theirs[2])]))  # forfeits without colours: lower first
            else:
                pairs.append((opp, p.number, _GAME[(theirs[2], code)]))
        # boards as C.04.2 orders them: the higher score, the sum of scores, the higher-ranked player
        pairs.sort(key=lambda g: (-max(before[g[0]], before[g[1]]), -(before[g[0]] + before[g[1]]), min(g[:2])))
        singles.sort(key=lambda s: (s[1] != Result.BYE, s[0]))
        boards: list[tuple[int, int | None, Result]] = [*pairs, *((w, None, r) for w, r in singles)]
        if self.table is not None:  # a round robin: the table's order, and its games not played
            gone = {n for n, e in entries.items() if e.gone_before(number)}
            boards = table_order(self.table[number - 1], pairs, singles, gone)
        games = [Game(round=rnd, board=i, white=entries[w], black=entries[b] if b is not None else None,
                      result=r.value) for i, (w, b, r) in enumerate(boards, start=1)]
        bulk_create_with_history(games, Game)
        return len(games)

    def _score_before(self, p: TrfPlayer, rnd: int) -> int:
        return sum(cell_points(c, self.trf.points) for r, c in p.cells.items() if r < rnd)


def _free_slug(name: str) -> str:
    base = (slugify(name) or "trf")[:70]
    slug, n = base, 1
    while Tournament.objects.filter(slug=slug).exists():
        n += 1
        slug = f"{base}-{n}"
    return slug


def _bulk(objs: list[Any], model: Any) -> list[Any]:
    """Write the objects and their history in bulk; a player another arbiter created meanwhile with the same
    FMJD id refuses the whole import, with a message rather than an error page."""
    if model is Player:  # bulk_create does not call save(), which keeps the search key
        for player in objs:
            player.folded = search_key(player.surname, player.given_name, player.native_name)
    try:
        with transaction.atomic():
            return list(bulk_create_with_history(objs, model, batch_size=1000))
    except IntegrityError:
        raise TrfImportError("a player of the file was entered in Damier by someone else while the file was "
                             "being imported: import it again") from None


def _clean(obj: object, where: str, exclude: list[str] | None = None, *, constraints: bool = False) -> None:
    """The fields' own checks (the message names the line); uniqueness, and the table constraints unless
    asked for, are the caller's to keep (each would be a query per object)."""
    try:
        obj.full_clean(exclude=exclude, validate_unique=False,  # type: ignore[attr-defined]
                       validate_constraints=constraints)
        if isinstance(obj, Tournament):
            check_settings(obj)
    except ValidationError as exc:
        detail = "; ".join(f"{field}: {' '.join(msgs)}" for field, msgs in exc.message_dict.items())
        raise TrfImportError(f"{where}: {detail}") from None
