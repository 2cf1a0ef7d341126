"""A whole tournament as one JSON document, and back: players, entries, forbidden pairs, rounds, games,
results, game sheets with their replay reports, and every history record of them.

The document names objects by keys, not database ids: within each part, objects (current or known
only from history, e.g. a deleted draft round) are numbered 1..n in the order of their ids. The
import gives them new ids in that same order, above every id the database has used for that model,
so an export of the imported tournament is the same document. Users are named by username; players
are matched by FMJD id (or, without one, by identical details) and otherwise created.

The import is one transaction: a bad document imports nothing and the error names the part, the key
and the field at fault. The rounds written are then checked as the TRF import checks a file's
(`imported_rounds`): one that breaks the pairing rules or is not the engine's pairing, and that the
document's own events do not already account for, is imported only once confirmed, and recorded.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, models, transaction
from django.utils.translation import gettext as _

from tournaments.conformance import events
from tournaments.errors import DomainError
from tournaments.exchange import imported_rounds, replace_check
from tournaments.exchange.transfer_schema import DocumentErrors, check, cut, document_schema, parse, short
from tournaments.models import (
    ConformanceEvent,
    Entry,
    EntryRating,
    ForbiddenPair,
    Game,
    GameSheet,
    Player,
    RatingList,
    Round,
    ScheduledRound,
    System,
    Tournament,
    search_key,
)
from tournaments.rounds.settings_rules import check_settings

FORMAT = "damier-tournament"
VERSION = 1
USER = "user"

# Dependency order: a part refers only to parts before it.
PARTS: list[tuple[str, type[models.Model]]] = [
    ("tournament", Tournament), ("players", Player), ("entries", Entry), ("forbidden_pairs", ForbiddenPair),
    ("schedule", ScheduledRound), ("rounds", Round), ("games", Game), ("sheets", GameSheet),
    ("later_ratings", EntryRating),
    # The breaches the arbiter confirmed: a tournament moved to another server keeps them.
    ("conformance_events", ConformanceEvent),
]
PART_OF = {model: name for name, model in PARTS}
# Fields rebuilt from others, never carried: a sheet's replayed line is made again from its text on view.
# A player's search key is made again from his names. The rating lists are this site's register, not the
# tournament's: its entries carry the ratings and titles they kept from them, and the tournament names its
# lists by source, kind and date (LISTS), linked on import to this site's list of that name if it has one.
DERIVED = {(GameSheet, "line"), (Player, "folded"), (Tournament, "fmjd_list"), (Tournament, "national_list")}
# A field missing from an older export takes the model's default, except where the default of new objects is
# not what the older tournament was run on: a double round robin exported before the setting existed was
# paired on the plain second cycle.
LISTS = {"fmjd_list": "fmjd", "national_list": "national"}
LEGACY_DEFAULTS: dict[tuple[type[models.Model], str], Any] = {(Tournament, "rr_reverse_last_two"): False}
HISTORY_FIELDS = ("history_date", "history_change_reason", "history_type", "history_user")


class TransferError(DomainError):
    """The document cannot be imported; the message says where and why, each line cut short: a line may
    quote a value of the file, which may be megabytes long."""

    def __init__(self, message: str) -> None:
        super().__init__("\n".join(cut(line) for line in message.split("\n")))


IMPORTED_NAMES = "Imported names (no login)"


def imported_name(username: str, result: ImportResult | None) -> Any:
    """The account standing for a name read from a file: inactive, no password, in the group IMPORTED_NAMES.
    An existing account of that group is reused (a second import of the same file); a real account with
    the same username is never used: the name gets a suffix instead."""
    from django.contrib.auth.models import Group

    user_model = get_user_model()
    group, _created = Group.objects.get_or_create(name=IMPORTED_NAMES)
    candidate, n = username, 1
    while True:
        user = user_model.objects.filter(**{user_model.USERNAME_FIELD: candidate}).first()
        if user is None:
            user = user_model.objects.create_user(candidate, password=None, is_active=False)
            user.groups.add(group)
            if result is not None:
                result.users_created.append(candidate)
            return user
        if not user.is_active and not user.has_usable_password() and user.groups.filter(pk=group.pk).exists():
            return user
        n += 1
        candidate = f"{username[:140]} (imported{'' if n == 2 else f' {n - 1}'})"


def _has_history(model: type[models.Model]) -> bool:
    # Players are a register shared by every tournament: their history is not this tournament's to carry.
    return hasattr(model, "history") and model is not Player


def _fields(model: type[models.Model]) -> list[models.Field[Any, Any]]:
    """The fields carried in the document: every concrete field but the primary key."""
    return [f for f in model._meta.concrete_fields if not f.primary_key and f.name not in HISTORY_FIELDS
            and f.name != "history_id" and (model, f.name) not in DERIVED
            and f.name not in ("cache_version", "cache_changed_at")]  # this site's own, never exported


def _target(f: models.Field[Any, Any]) -> str:
    related = f.related_model
    if related is get_user_model():
        return USER
    if related in PART_OF:
        return PART_OF[related]  # type: ignore[index]
    raise TransferError(f"{f.model.__name__}.{f.name} refers to {related}, which the export does not carry.")


def _plain(value: Any) -> Any:
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    return value


# --- Export --------------------------------------------------------------------------------------


def _team_refusal(tournament: Any) -> str:
    # The file would carry the tournament of a team competition without its teams, rosters, line-ups and
    # matches (they are not among PARTS): imported, it would be a team tournament with no competition.
    return _("%(tournament)s is a team competition: the JSON transfer does not carry its teams, rosters, "
             "line-ups and matches, and a file without them would import as a broken tournament. Nothing is "
             "exported or imported; its games go out one by one in the TRF export and the federation "
             "report.") % {"tournament": tournament}


def export_tournament(tournament: Tournament) -> dict[str, Any]:
    t = tournament
    if t.is_team:
        raise TransferError(_team_refusal(t))
    current: dict[str, list[models.Model]] = {
        "tournament": [t],
        "entries": list(Entry.objects.filter(tournament=t)),
        "forbidden_pairs": list(ForbiddenPair.objects.filter(tournament=t)),
        "schedule": list(ScheduledRound.objects.filter(tournament=t)),
        "rounds": list(Round.objects.filter(tournament=t)),
        "games": list(Game.objects.filter(round__tournament=t)),
        "sheets": list(GameSheet.objects.filter(game__round__tournament=t)),
        "later_ratings": list(EntryRating.objects.filter(entry__tournament=t)),
        "conformance_events": list(ConformanceEvent.objects.filter(tournament=t)),
    }
    ids: dict[str, set[int]] = {name: {o.pk for o in objs} for name, objs in current.items()}
    history: dict[str, list[Any]] = {}
    # History first finds the objects that no longer exist (a deleted draft round and its games).
    parent = {"tournament": ("id", "tournament"), "entries": ("tournament_id", "tournament"),
              "forbidden_pairs": ("tournament_id", "tournament"), "rounds": ("tournament_id", "tournament"),
              "schedule": ("tournament_id", "tournament"),
              "games": ("round_id", "rounds"),
              "sheets": ("game_id", "games"), "later_ratings": ("entry_id", "entries")}
    for name, model in PARTS:
        if not _has_history(model):
            continue
        column, owner = parent[name]
        known = model.history.filter(**{f"{column}__in": ids[owner]}).values_list("id", flat=True)  # type: ignore[attr-defined]
        ids[name] |= set(known)
        history[name] = list(model.history.filter(id__in=ids[name]).select_related("history_user")  # type: ignore[attr-defined]
                             .order_by("history_date", "history_id"))
    player_ids = {e.player_id for e in current["entries"]} | {h.player_id for h in history["entries"]}
    current["players"] = list(Player.objects.filter(id__in=player_ids))
    ids["players"] = {p.pk for p in current["players"]}
    keys = {name: {pk: n for n, pk in enumerate(sorted(ids[name]), start=1)} for name in ids}

    def record(obj: Any, model: type[models.Model], historical: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"key": keys[PART_OF[model]].get(obj.id if historical else obj.pk)}
        for f in _fields(model):
            if f.is_relation:
                target = _target(f)
                ref = getattr(obj, f.attname)
                if target == USER:
                    out[f.name] = getattr(obj, f.name).get_username() if ref is not None else None
                else:  # a reference outside the tournament (e.g. a moved entry's old one) is not carried
                    out[f.name] = keys[target].get(ref) if ref is not None else None
            else:
                out[f.name] = _plain(f.value_from_object(obj))
        if historical:
            out["history_date"] = obj.history_date.isoformat()
            out["history_type"] = obj.history_type
            out["history_change_reason"] = obj.history_change_reason
            out["history_user"] = obj.history_user.get_username() if obj.history_user else None
        return out

    doc: dict[str, Any] = {"format": FORMAT, "version": VERSION}
    for name, model in PARTS:
        objs = sorted(current[name], key=lambda o: o.pk)
        if name == "tournament":
            doc[name] = record(t, Tournament, False)
            doc[name]["deputy_arbiters"] = sorted(u.get_username() for u in t.deputy_arbiters.all())
            for list_field in LISTS:
                doc[name][list_field] = _list_identity(getattr(t, list_field))
        else:
            doc[name] = [record(o, model, False) for o in objs]
    doc["history"] = {name: [record(h, model, True) for h in history[name]]
                      for name, model in PARTS if name in history}
    return doc


def dumps(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


# --- Import --------------------------------------------------------------------------------------


@dataclass
class ImportResult:
    tournament: Tournament
    players_created: int = 0
    players_matched: list[str] = field(default_factory=list)
    users_created: list[str] = field(default_factory=list)
    recorded: list[Any] = field(default_factory=list)  # the rounds' warnings confirmed and recorded

    def as_text(self) -> str:
        lines = [f"Imported {self.tournament.slug!r}: {self.tournament.entries.count()} entries, "
                 f"{self.tournament.rounds.count()} rounds; {self.players_created} player(s) created, "
                 f"{len(self.players_matched)} matched to existing ones."]
        lines += [f"Recorded: round {w.values['round']} imported although it "
                  + ("breaks the pairing rules." if w.code == "import-broke-rules" else "is not the engine's pairing.")
                  for w in self.recorded]
        if self.users_created:
            lines.append(f"Names of the file kept as accounts that cannot log in (never matched to an existing "
                         f"account; the chief and deputy arbiters too: set them on the tournament's page): "
                         f"{', '.join(self.users_created)}.")
        return "\n".join(lines)


def loads(text: str | bytes) -> dict[str, Any]:
    try:
        doc = parse(text)
    except (ValueError, UnicodeDecodeError) as exc:
        raise TransferError(f"Not a JSON document: {exc}.") from None
    except RecursionError:
        raise TransferError("Not a tournament export: the JSON is nested too deeply.") from None
    if not isinstance(doc, dict):
        raise TransferError("Not a tournament export: the document is not a JSON object.")
    return doc


def schema() -> dict[str, Any]:
    """The format as a JSON Schema, from the models' own fields."""
    return document_schema(PARTS, _fields, {n for n, m in PARTS if _has_history(m)}, FORMAT, VERSION)


@transaction.atomic
def import_tournament(doc: dict[str, Any], *, replace: bool = False, confirmed: Iterable[str] = ()) -> ImportResult:
    """Create the tournament of an export; with replace, an existing tournament with its slug goes first.
    The whole document is checked first: every error is reported (with its path) and nothing is written.
    The rounds are checked once written: events.NeedsConfirmation (nothing kept) until each round that
    breaks the pairing rules or is not the engine's pairing is confirmed; each is then recorded."""
    _check_shape(doc)
    if doc["tournament"].get("system") == System.TEAM:
        raise TransferError(_team_refusal(short(doc["tournament"].get("name") or doc["tournament"].get("slug"))))
    try:
        check(doc, schema())
    except DocumentErrors as exc:
        raise TransferError(f"{len(exc.errors)} error(s) in the file:\n" + "\n".join(exc.errors)) from None
    slug = doc["tournament"].get("slug")
    existing = Tournament.objects.filter(slug=slug).first()
    if existing is not None and existing.is_team:
        raise TransferError(_team_refusal(existing))
    if existing is not None:
        if not replace:
            raise TransferError(f"A tournament with slug {short(slug)} already exists; import with --replace to "
                                "replace it (its results and history are replaced by the file's).")
        if (lost := replace_check.missing_from(doc, existing, export_tournament)) is not None:
            raise TransferError(lost)
        _delete(existing)
    result = _Importer(doc).run()
    warnings = imported_rounds.warnings(result.tournament)
    events.require(warnings, confirmed=list(confirmed))
    for w in warnings:
        events.record(result.tournament, w.code, values=w.values, round_number=w.values["round"])
    result.recorded = warnings
    return result


def _check_shape(doc: dict[str, Any]) -> None:
    if doc.get("format") != FORMAT:
        raise TransferError(f"Not a tournament export: 'format' is {short(doc.get('format'))}, expected {FORMAT!r}.")
    if doc.get("version") != VERSION:
        raise TransferError(f"Export format version {short(doc.get('version'))} is not supported (this is {VERSION}).")
    if not isinstance(doc.get("tournament"), dict):
        raise TransferError("'tournament' must be an object.")
    for name, _model in PARTS[1:]:
        if not isinstance(doc.get(name, []), list) or not all(isinstance(r, dict) for r in doc.get(name, [])):
            raise TransferError(f"'{name}' must be a list of objects.")
    history = doc.get("history", {})
    if not isinstance(history, dict) or not all(isinstance(v, list) and all(isinstance(r, dict) for r in v)
                                                for v in history.values()):
        raise TransferError("'history' must map part names to lists of objects.")
    unknown = set(history) - {name for name, model in PARTS if _has_history(model)}
    if unknown:
        raise TransferError(f"'history' has unknown part(s): {', '.join(sorted(unknown))}.")


def _delete(t: Tournament) -> None:
    # The whole tournament is replaced by the file's own copy of it (--replace, asked for by name), results
    # and history included: not a loss of the record, so tournaments.rounds.deletion lets it through.
    # Games hold entries (PROTECT): rounds (and their games) go first, then the tournament.
    from tournaments.rounds import deletion

    with deletion.allowed():
        Round.objects.filter(tournament=t).delete()
        ForbiddenPair.objects.filter(tournament=t).delete()
        Entry.objects.filter(tournament=t).delete()
        t.delete()


class _Importer:
    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.ids: dict[str, dict[int, int]] = {}  # part -> file key -> new database id
        self.current: dict[str, set[int]] = {}  # part -> keys of objects that exist (not only in history)
        self.users: dict[str, Any] = {}
        self.result: ImportResult | None = None
        self.file_players: dict[Any, dict[str, Any]] | None = None  # by key, read once

    def run(self) -> ImportResult:
        doc = self.doc
        self._players(doc.get("players", []))
        records = {"tournament": [doc["tournament"]], **{n: doc.get(n, []) for n, _m in PARTS[2:]}}
        history = doc.get("history", {})
        for name, model in PARTS:
            if name == "players":
                continue
            current = [self._key(name, r) for r in records[name]]
            if len(set(current)) != len(current):
                raise TransferError(f"{name}: a key is used twice.")
            self.current[name] = set(current)
            keys = set(current) | {self._key(f"history.{name}", r) for r in history.get(name, [])}
            self.ids[name] = self._allocate(model, sorted(keys))
        for name, model in PARTS:
            if name != "players":
                self._create(name, model, records[name])
        _check_constraints([model for _name, model in PARTS])
        tournament = Tournament.objects.get(pk=self.ids["tournament"][doc["tournament"]["key"]])
        deputies = doc["tournament"].get("deputy_arbiters", [])
        if not isinstance(deputies, list) or not all(isinstance(u, str) for u in deputies):
            raise TransferError("tournament.deputy_arbiters: a list of usernames.")
        tournament.deputy_arbiters.set([self._user(u, "tournament.deputy_arbiters") for u in deputies])
        for name, model in PARTS:
            if name in history:
                self._history(name, model, history[name])
        assert self.result is not None
        self.result.tournament = tournament
        return self.result

    def _key(self, where: str, record: dict[str, Any]) -> int:
        key = record.get("key")
        if not isinstance(key, int) or isinstance(key, bool) or key < 1:
            raise TransferError(f"{where}: every object needs a positive integer 'key' (found {short(key)}).")
        return key

    def _allocate(self, model: type[models.Model], keys: list[int]) -> dict[int, int]:
        """New ids in key order, above every id the model or its history ever used."""
        top = model.objects.aggregate(m=models.Max("pk"))["m"] or 0
        if _has_history(model):
            top = max(top, model.history.aggregate(m=models.Max("id"))["m"] or 0)  # type: ignore[attr-defined]
        top = max(top, _sequence_value(model))
        return {key: top + n for n, key in enumerate(keys, start=1)}

    def _user(self, username: Any, where: str) -> Any:
        """A name from the file, as an account that cannot log in and is never an existing person's:
        a file may not put words in a real arbiter's mouth, nor give him (or take away) a tournament."""
        if username is None:
            return None
        if not isinstance(username, str) or not username or len(username) > 150:
            raise TransferError(f"{where}: {short(username)} is not a username.")
        if username not in self.users:
            self.users[username] = imported_name(username, self.result)
        return self.users[username]

    def _values(self, where: str, model: type[models.Model], record: dict[str, Any],
                extra: Iterable[str] = (), historical: bool = False) -> dict[str, Any]:
        fields = {f.name: f for f in _fields(model)}
        unknown = set(record) - set(fields) - {"key", *extra}
        if unknown:
            raise TransferError(f"{where}: unknown field(s) {', '.join(sorted(unknown))}.")
        values: dict[str, Any] = {}
        for name, f in fields.items():
            if name not in record:
                if (model, name) in LEGACY_DEFAULTS:
                    values[name] = LEGACY_DEFAULTS[(model, name)]
                continue  # an older export: the model's default applies
            value = record[name]
            if f.is_relation:
                target = _target(f)
                if target == USER:
                    values[name] = self._user(value, f"{where}.{name}")
                elif value is None:
                    if not f.null and not historical:
                        raise TransferError(f"{where}.{name}: may not be empty.")
                    values[f.attname] = None
                else:
                    known = self.ids.get(target, {}) if historical else self.current.get(target, set())
                    if not isinstance(value, int) or isinstance(value, bool) or value not in known:
                        raise TransferError(f"{where}.{name}: no {target} with key {short(value)} in the file.")
                    values[f.attname] = self.ids[target][value]
            elif isinstance(value, (list, dict)) and not isinstance(f, models.JSONField):
                raise TransferError(f"{where}.{name}: a single value expected, found {type(value).__name__}.")
            elif isinstance(f, models.JSONField):
                values[name] = value
            else:  # the field's own conversion: "12" for a number is fine, "x" is refused by name
                try:
                    values[name] = f.to_python(value)
                except (ValidationError, TypeError, ValueError) as exc:
                    detail = "; ".join(exc.messages) if isinstance(exc, ValidationError) else str(exc)
                    raise TransferError(f"{where}.{name}: {detail}") from None
        return values

    def _players(self, records: list[dict[str, Any]]) -> None:
        self.result = ImportResult(tournament=Tournament())
        self.ids["players"] = {}
        keys = [self._key("players", r) for r in records]
        if len(set(keys)) != len(keys):
            raise TransferError("players: a key is used twice.")
        self.current["players"] = set(keys)
        for record in sorted(records, key=lambda r: self._key("players", r)):
            where = f"players[key {record['key']}]"
            values = self._values(where, Player, record)
            candidate = Player(**values)
            _clean(where, candidate, exclude=[])
            if values.get("fmjd_id") is not None:
                found = Player.objects.filter(fmjd_id=values["fmjd_id"]).first()
            else:
                found = Player.objects.filter(fmjd_id=None, **{k: v for k, v in values.items()
                                                               if k != "fmjd_id"}).order_by("pk").first()
            if found is None:
                try:
                    with transaction.atomic():
                        candidate.save()
                except (IntegrityError, ValueError, TypeError) as exc:
                    raise TransferError(f"{where}: the player cannot be stored ({exc}).") from None
                found = candidate
                self.result.players_created += 1
            else:
                self.result.players_matched.append(str(found))
            self.ids["players"][record["key"]] = found.pk

    def _create(self, name: str, model: type[models.Model], records: list[dict[str, Any]]) -> None:
        objs = []
        late: list[tuple[int, dict[str, Any]]] = []
        extra = ("deputy_arbiters", *LISTS) if name == "tournament" else ()
        for record in records:
            where = f"{name}[key {record.get('key')}]"
            values = self._values(where, model, record, extra)
            if model is Entry and not {"rating", "national_rating"} & set(record):
                values.update(self._ratings_of_file_player(record))
            if model is Entry and "title" not in record:  # an export made before entries kept their title
                values["title"] = self._file_player(record).get("title") or ""
            if model is Tournament:
                values.update({f"{list_field}_id": _list_named(record.get(list_field), kind)
                               for list_field, kind in LISTS.items()})
            obj = model(pk=self.ids[name][record["key"]], **values)
            if model is Player:  # bulk_create does not call save(), which keeps the search key
                obj.folded = search_key(obj.surname, obj.given_name, obj.native_name)
            _clean(where, obj, exclude=[f.name for f in _fields(model) if f.is_relation])
            objs.append(obj)
            # auto_now_add would stamp the import's time: the file's value is written afterwards.
            stamped = {f.name: values[f.name] for f in _fields(model)
                       if getattr(f, "auto_now_add", False) or getattr(f, "auto_now", False)}
            if any(v is not None for v in stamped.values()):
                late.append((obj.pk, stamped))
        try:
            with transaction.atomic():
                model.objects.bulk_create(objs)  # no history record: the file's own history follows
                for pk, stamped in late:
                    model.objects.filter(pk=pk).update(**stamped)
        except IntegrityError as exc:
            raise TransferError(f"{name}: the file breaks a database rule ({exc}).") from None
        except (ValueError, TypeError) as exc:
            raise TransferError(f"{name}: a value has the wrong type ({exc}).") from None
        if objs:
            _bump_sequence(model, max(o.pk for o in objs))

    def _file_player(self, entry: dict[str, Any]) -> dict[str, Any]:
        if self.file_players is None:
            self.file_players = {p.get("key"): p for p in self.doc.get("players", [])}
        return self.file_players.get(entry.get("player"), {})  # type: ignore[no-any-return]

    def _ratings_of_file_player(self, entry: dict[str, Any]) -> dict[str, Any]:
        """An export made before entries held their ratings: the entry takes its player's ratings as the file
        gives them (what the tournament was run on), never those of the player this server matched him to."""
        player = self._file_player(entry)
        if player.get("unrated"):
            return {"rating": None, "national_rating": None}
        return {"rating": player.get("rating"), "national_rating": player.get("national_rating")}

    def _history(self, name: str, model: type[models.Model], records: list[dict[str, Any]]) -> None:
        historical = model.history.model  # type: ignore[attr-defined]
        rows = []
        for i, record in enumerate(records):
            where = f"history.{name}[{i}]"
            values = self._values(where, model, record, extra=HISTORY_FIELDS, historical=True)
            if record.get("history_type") not in ("+", "~", "-"):  # a tuple: the value may be unhashable
                raise TransferError(f"{where}.history_type: expected '+', '~' or '-'.")
            try:
                when = datetime.datetime.fromisoformat(record.get("history_date", ""))
            except (TypeError, ValueError):
                raise TransferError(f"{where}.history_date: not an ISO date and time.") from None
            if when.tzinfo is None:
                raise TransferError(f"{where}.history_date: the time zone is missing.")
            reason = record.get("history_change_reason")
            if reason is not None and not isinstance(reason, str):
                raise TransferError(f"{where}.history_change_reason: text or null.")
            row = historical(id=self.ids[name][self._key(where, record)], history_date=when,
                             history_type=record["history_type"], history_change_reason=reason,
                             history_user=self._user(record.get("history_user"), f"{where}.history_user"),
                             **values)
            _clean(where, row, exclude=[f.name for f in historical._meta.concrete_fields
                                        if f.is_relation or f.name in {"history_id", "id", *HISTORY_FIELDS}])
            rows.append(row)
        try:
            with transaction.atomic():
                historical.objects.bulk_create(rows)
        except (IntegrityError, ValueError, TypeError) as exc:
            raise TransferError(f"history.{name}: a record cannot be stored ({exc}).") from None


def _list_identity(rating_list: RatingList | None) -> dict[str, str] | None:
    if rating_list is None:
        return None
    return {"source": rating_list.source, "kind": rating_list.kind,
            "published_on": rating_list.published_on.isoformat()}


def _list_named(identity: Any, kind: str) -> int | None:
    """This site's list the file names (checked by the schema), None when the file names none or this site
    does not hold it: the entries keep the values the file gives them either way."""
    if not isinstance(identity, dict) or identity.get("kind") != kind:
        return None
    try:
        day = datetime.date.fromisoformat(str(identity.get("published_on")))
    except ValueError:
        return None
    return RatingList.objects.filter(source=identity.get("source"), kind=kind, published_on=day).values_list(
        "pk", flat=True).first()


def _clean(where: str, obj: models.Model, exclude: list[str]) -> None:
    try:
        obj.full_clean(exclude=exclude, validate_unique=False, validate_constraints=False)
        if isinstance(obj, Tournament):
            check_settings(obj)
    except ValidationError as exc:
        detail = "; ".join(f"{k}: {' '.join(v)}" for k, v in exc.message_dict.items())
        raise TransferError(f"{where}: {detail}") from None


def _check_constraints(models_: list[type[models.Model]]) -> None:
    """Foreign keys are checked at commit; check them now, while the error can still name the file."""
    try:
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
        else:
            connection.check_constraints(table_names=[m._meta.db_table for m in models_])
    except IntegrityError as exc:
        raise TransferError(f"The file's references do not hold together: {exc}") from None


def _sequence_value(model: type[models.Model]) -> int:
    """The last id handed out for the model (ids of deleted rows included), where the database says."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT seq FROM sqlite_sequence WHERE name = %s", [table])
            row = cursor.fetchone()
            return int(row[0]) if row else 0
        if connection.vendor == "postgresql":
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, model._meta.pk.column])
            sequence = cursor.fetchone()[0]
            if sequence:
                cursor.execute(f"SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM {sequence}")
                return int(cursor.fetchone()[0])
    return 0


def _bump_sequence(model: type[models.Model], value: int) -> None:
    """Ids were given explicitly: the database's counter must move past them (loaddata does the same)."""
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("UPDATE sqlite_sequence SET seq = MAX(seq, %s) WHERE name = %s", [value, table])
            if cursor.rowcount == 0:
                cursor.execute("INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [table, value])
        elif connection.vendor == "postgresql":
            cursor.execute("SELECT pg_get_serial_sequence(%s, %s)", [table, model._meta.pk.column])
            sequence = cursor.fetchone()[0]
            if sequence:
                cursor.execute("SELECT setval(%s, GREATEST(%s, (SELECT last_value FROM " + sequence + ")))",
                               [sequence, value])
