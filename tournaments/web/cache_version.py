"""The per-tournament version every public page and its cache are keyed on, moved by database triggers.

Why triggers and not model signals: a signal misses QuerySet.update(), bulk_create (round pairing uses
bulk_create_with_history), bulk_update, raw SQL and a future service that forgets to call it, and a stale
Tournament instance saved later would write its old version back. A row trigger runs inside the very
statement that changes the row, so the version moves in the same transaction as the write, whatever code
made it; the tournament's own trigger counts from the stored value, never from what the application wrote.

Installed (idempotently) after every `migrate`, and rebuilt there, because SQLite drops the triggers of a
table that a later migration remakes. The SQL is generated from the models' metadata so a renamed column
follows. What moves the version: any insert, update or delete of a tournament's entries, rounds, games,
game sheets, forbidden pairs, round schedule and hall screens, a team competition's teams, rosters,
matches and line-ups, its deputy arbiters, any change of the
tournament itself, a change of a player entered in it, and a change of an arbiter's name (shown on the tournament page).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connections
from django.db.models import Model

from tournaments.models import (
    ConformanceEvent,
    Entry,
    EntryRating,
    ForbiddenPair,
    Game,
    GameSheet,
    HallScreen,
    Match,
    MatchBoard,
    Player,
    RosterMember,
    Round,
    ScheduledRound,
    Team,
    TeamCompetition,
    Tournament,
)

PREFIX = "damier_cache"


@dataclass(frozen=True)
class Watch:
    """A table whose rows belong to tournaments: `select` maps the row (NEW or OLD) to tournament ids."""

    name: str
    table: str
    select: str  # SQL with {row} for NEW/OLD, returning tournament ids
    events: tuple[str, ...] = ("INSERT", "UPDATE", "DELETE")
    columns: tuple[str, ...] = ()  # UPDATE OF these columns only (empty: any column)


def _t(model: type[Model]) -> str:
    return model._meta.db_table


def _c(model: type[Model], field: str) -> str:
    return model._meta.get_field(field).column  # type: ignore[union-attr]


def watches() -> list[Watch]:
    T, R, G, E = _t(Tournament), _t(Round), _t(Game), _t(Entry)
    user = get_user_model()
    deputies = Tournament._meta.get_field("deputy_arbiters").remote_field.through  # type: ignore[union-attr]
    dep_t = deputies._meta.get_field("tournament").column
    dep_u = deputies._meta.get_field(user._meta.model_name).column
    r_t, g_r, gs_g = _c(Round, "tournament"), _c(Game, "round"), _c(GameSheet, "game")
    game_to_t = f"SELECT {r_t} FROM {R} WHERE id = {{row}}.{g_r}"
    TC, TM, MT = _t(TeamCompetition), _t(Team), _t(Match)
    tc_t, tm_c = _c(TeamCompetition, "tournament"), _c(Team, "competition")
    names = tuple(_c(user, f) for f in ("first_name", "last_name", user.USERNAME_FIELD)
                  if f in {x.name for x in user._meta.fields})
    return [
        Watch("entry", E, f"SELECT {{row}}.{_c(Entry, 'tournament')}"),
        Watch("round", R, f"SELECT {{row}}.{r_t}"),
        Watch("forbidden", _t(ForbiddenPair), f"SELECT {{row}}.{_c(ForbiddenPair, 'tournament')}"),
        Watch("schedule", _t(ScheduledRound), f"SELECT {{row}}.{_c(ScheduledRound, 'tournament')}"),
        Watch("conformance", _t(ConformanceEvent), f"SELECT {{row}}.{_c(ConformanceEvent, 'tournament')}"),
        Watch("deputy", deputies._meta.db_table, f"SELECT {{row}}.{dep_t}"),
        # A hall screen's settings: its page is answered with the tournament's tag.
        Watch("hall_screen", _t(HallScreen), f"SELECT {{row}}.{_c(HallScreen, 'tournament')}"),
        # A later rating (long events) moves the rating tie-breaks of the standings.
        Watch("entry_rating", _t(EntryRating), f"SELECT {_c(Entry, 'tournament')} FROM {E} "
                                               f"WHERE id = {{row}}.{_c(EntryRating, 'entry')}"),
        Watch("game", G, game_to_t),
        # A team competition's rules, teams, rosters, matches and line-ups: its pages show every one.
        Watch("team_competition", TC, f"SELECT {{row}}.{tc_t}"),
        Watch("team", TM, f"SELECT {tc_t} FROM {TC} WHERE id = {{row}}.{tm_c}"),
        Watch("roster", _t(RosterMember), f"SELECT {tc_t} FROM {TC} JOIN {TM} ON {TM}.{tm_c} = {TC}.id "
                                          f"WHERE {TM}.id = {{row}}.{_c(RosterMember, 'team')}"),
        Watch("match", MT, f"SELECT {tc_t} FROM {TC} WHERE id = {{row}}.{_c(Match, 'competition')}"),
        Watch("match_board", _t(MatchBoard), f"SELECT {tc_t} FROM {TC} JOIN {MT} ON {MT}.{_c(Match, 'competition')} "
                                             f"= {TC}.id WHERE {MT}.id = {{row}}.{_c(MatchBoard, 'match')}"),
        Watch("sheet", _t(GameSheet),
              f"SELECT {R}.{r_t} FROM {R} JOIN {G} ON {G}.{g_r} = {R}.id WHERE {G}.id = {{row}}.{gs_g}"),
        # A player row is shared by tournaments: every tournament he is entered in shows his name and rating.
        Watch("player", _t(Player), f"SELECT {_c(Entry, 'tournament')} FROM {E} "
                                    f"WHERE {_c(Entry, 'player')} = {{row}}.id", events=("UPDATE",)),
        Watch("arbiter", user._meta.db_table,
              f"SELECT id FROM {T} WHERE {_c(Tournament, 'chief_arbiter')} = {{row}}.id "
              f"UNION SELECT {dep_t} FROM {deputies._meta.db_table} WHERE {dep_u} = {{row}}.id",
              events=("UPDATE",), columns=names),
    ]


def _bump(ids_sql: str) -> str:
    # The tournament's own trigger does the counting; this only touches the row.
    return f"UPDATE {_t(Tournament)} SET cache_version = cache_version + 1 WHERE id IN ({ids_sql})"


def sqlite_statements() -> list[str]:
    T = _t(Tournament)
    out = [
        f"DROP TRIGGER IF EXISTS {PREFIX}_tournament",
        # AFTER UPDATE: SQLite cannot assign NEW. recursive_triggers is off, so this does not fire itself.
        f"CREATE TRIGGER {PREFIX}_tournament AFTER UPDATE ON {T} FOR EACH ROW BEGIN "
        f"UPDATE {T} SET cache_version = OLD.cache_version + 1, "
        f"cache_changed_at = strftime('%Y-%m-%d %H:%M:%f', 'now') WHERE id = NEW.id; END",
    ]
    for w in watches():
        for event in w.events:
            name = f"{PREFIX}_{w.name}_{event.lower()}"
            rows = {"INSERT": ["NEW"], "DELETE": ["OLD"], "UPDATE": ["OLD", "NEW"]}[event]
            of = f" OF {', '.join(w.columns)}" if event == "UPDATE" and w.columns else ""
            ids = " UNION ".join(w.select.format(row=r) for r in rows)
            out += [f"DROP TRIGGER IF EXISTS {name}",
                    f"CREATE TRIGGER {name} AFTER {event}{of} ON {w.table} FOR EACH ROW BEGIN {_bump(ids)}; END"]
    return out


def postgresql_statements() -> list[str]:
    T = _t(Tournament)
    out = [
        f"CREATE OR REPLACE FUNCTION {PREFIX}_tournament() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        f"NEW.cache_version := OLD.cache_version + 1; NEW.cache_changed_at := clock_timestamp(); "
        f"RETURN NEW; END $$",
        f"DROP TRIGGER IF EXISTS {PREFIX}_tournament ON {T}",
        f"CREATE TRIGGER {PREFIX}_tournament BEFORE UPDATE ON {T} FOR EACH ROW "
        f"EXECUTE FUNCTION {PREFIX}_tournament()",
    ]
    for w in watches():
        name = f"{PREFIX}_{w.name}"
        # OLD is NULL on INSERT and NEW on DELETE (PostgreSQL 11+): the NULL side selects nothing.
        ids = f"{w.select.format(row='OLD')} UNION {w.select.format(row='NEW')}"
        events = " OR ".join(f"UPDATE OF {', '.join(w.columns)}" if e == "UPDATE" and w.columns else e
                             for e in w.events)
        out += [
            f"CREATE OR REPLACE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"{_bump(ids)}; RETURN NULL; END $$",
            f"DROP TRIGGER IF EXISTS {name} ON {w.table}",
            f"CREATE TRIGGER {name} AFTER {events} ON {w.table} FOR EACH ROW EXECUTE FUNCTION {name}()",
        ]
    return out


def install(using: str = "default") -> None:
    """Create or replace the triggers, then move every version forward: the code that renders the pages
    may have changed with this migrate (a deploy), so no page cached before it may be served again."""
    connection = connections[using]
    statements = {"sqlite": sqlite_statements, "postgresql": postgresql_statements}.get(connection.vendor)
    if statements is None:
        raise NotImplementedError(f"Damier's cache triggers support SQLite and PostgreSQL, not {connection.vendor}")
    with connection.cursor() as cursor:
        for sql in statements():
            cursor.execute(sql)
        cursor.execute(f"UPDATE {_t(Tournament)} SET cache_version = cache_version + 1")


def on_post_migrate(sender: Any, using: str = "default", plan: Any = None, **kwargs: Any) -> None:
    if Tournament._meta.db_table in connections[using].introspection.table_names():
        install(using)
