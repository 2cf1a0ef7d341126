"""django-tables2 tables of the public pages, fed with the plain rows of tournaments.selectors.

Cells are built with format_html from values already loaded: rendering a table never queries.
Sorting by clicking headers is off: a standings table has one order, the rules'.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from tournaments.models import Game
from tournaments.public import notation
from tournaments.public.find_board import row_names
from tournaments.results import Result
from tournaments.selectors import (
    Crosstable,
    PlayerCard,
    PlayerLine,
    StandingLine,
    TournamentListing,
)
from tournaments.words import format_tiebreak, result_text, tiebreak_label, withdrawal_text

STATE_LABELS: dict[str, Any] = {
    "current": _("in progress"), "upcoming": _("upcoming"), "past": _("finished"), "undated": "",
}


def player_html(slug: str, p: PlayerLine | None, *, link: bool = True, bare: bool = False) -> SafeString:
    """The name linked to the player's page, then his title, federation and "wd" (`bare`: the name alone,
    for a table with columns of their own for those)."""
    if p is None:
        return format_html('<span class="muted">{}</span>', _("bye"))
    name = format_html('<a href="{}">{}</a>', reverse("tournaments:player", args=[slug, p.pairing_number]),
                       p.name) if link else p.name
    if bare:
        return format_html("{}{}", name, format_html(' <span class="wd" title="{}">{}</span>', _("withdrawn"),
                                                      _("wd")) if p.withdrawn else "")
    return format_html(
        '{}{}{}{}', name,
        format_html(' <span class="title">{}</span>', p.title) if p.title else "",
        format_html(' <span class="fed">{}</span>', p.federation) if p.federation else "",
        format_html(' <span class="wd" title="{}">{}</span>', _("withdrawn"), _("wd")) if p.withdrawn else "",
    )


# The player's name heads each row of the standings and the crosstable (and stays in view on a phone).
ROW_HEAD = {"td": {"class": "name rowhead"}, "th": {"class": "name"}}
# Columns a phone screen drops (CSS class "opt"): the rest of the row says what matters.
OPTIONAL_NUM = {"td": {"class": "num opt"}, "th": {"class": "opt"}}
OPTIONAL = {"td": {"class": "opt"}, "th": {"class": "opt"}}
# A table that drops its "opt" columns on a phone.
LEAN = {"class": "listing lean"}


def tiebreak_columns(names: Sequence[str]) -> list[tuple[str, tables.Column]]:
    """A column per tie-break, in the tournament's order: on a phone the first one is in view beside the points
    (the rating and the games give way), the later ones a sideways scroll away."""
    return [(f"tb_{name}", ValueColumn(f"tb_{name}", verbose_name=tiebreak_label(name),
                                       attrs={"td": {"class": "num"}})) for name in names]


class ValueColumn(tables.Column):
    """A column reading record[key] (records are dicts here), with an optional renderer."""

    def __init__(self, key: str, render: Callable[[Any], Any] | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("orderable", False)
        kwargs.setdefault("empty_values", ())
        super().__init__(accessor=tables.A(key), **kwargs)
        self._render = render

    def render(self, value: Any) -> Any:
        return self._render(value) if self._render else value


class _Base(tables.Table):
    # Set here rather than in Meta, which django-tables2 does not hand down to subclasses.
    def __init__(self, data: Any, **kwargs: Any) -> None:
        kwargs.setdefault("orderable", False)
        kwargs.setdefault("attrs", {"class": "listing"})
        kwargs.setdefault("template_name", "tournaments/_table.html")
        super().__init__(data, **kwargs)

    def body_html(self) -> SafeString:
        """The <tbody> rows, rendered in one pass over the records.

        django-tables2's BoundRow path resolves attributes and renders every cell through the template
        engine, which costs about 0.1 ms a cell: 200 crosstable rows of 18 columns took most of the
        300 ms budget. Here each column's <td> attributes are computed once and each cell is its
        column's render() of the record's value, escaped like the template would.
        """
        # A column whose cells carry the class "rowhead" names its row: <th scope="row">, so a screen reader
        # says whose line a cell is on when moving across a wide table.
        columns = [(bc.column, bc.accessor, bc.attrs["td"].as_html(),
                    "th" if "rowhead" in str(bc.attrs["td"].get("class", "")).split() else "td")
                   for bc in self.columns]
        out: list[str] = []
        for i, record in enumerate(self.data):
            classes = ["withdrawn"] if record.get("withdrawn") else []
            classes.append("odd" if i % 2 else "even")
            if record.get("found"):
                classes.append("found")
            note = record.get("note")
            title = f' title="{conditional_escape(note)}"' if note else ""
            # A round's boards: an anchor a search jumps to, and the names it filters on (public/find_board.py).
            title += "".join(f' {attr}="{conditional_escape(record[key])}"'
                             for key, attr in (("row_id", "id"), ("names", "data-names")) if record.get(key))
            cells = []
            for column, accessor, td, tag in columns:
                value = accessor.resolve(record)
                rendered = column.render(value) if isinstance(column, ValueColumn) else value
                scope = ' scope="row"' if tag == "th" else ""
                cells.append(f"<{tag}{scope} {td}>{conditional_escape(rendered)}</{tag}>")
            out.append(f'<tr class="{" ".join(classes)}"{title}>{"".join(cells)}</tr>')
        return mark_safe("\n".join(out))  # every cell went through conditional_escape


class TournamentTable(_Base):
    name = ValueColumn("name_html", verbose_name=_("Tournament"))
    venue = ValueColumn("venue", verbose_name=_("Venue"), attrs=OPTIONAL)
    dates = ValueColumn("dates", verbose_name=_("Dates"))
    system = ValueColumn("system", verbose_name=_("System"), attrs=OPTIONAL)
    players = ValueColumn("players", verbose_name=_("Players"), attrs={"td": {"class": "num"}})
    state = ValueColumn("state", verbose_name=_("Status"))

    @classmethod
    def build(cls, listings: Sequence[TournamentListing], dates: Callable[[Any], str],
              statuses: dict[int, str] | None = None) -> TournamentTable:
        """`statuses`: tournament id -> its status read from the rounds (tournaments.ranking.progress); the
        dates alone would call a finished tournament "upcoming"."""
        rows = [{
            "name_html": format_html('<a href="{}">{}</a>',
                                     reverse("tournaments:tournament", args=[ls.tournament.slug]),
                                     ls.tournament.name),
            "venue": ls.tournament.venue, "dates": dates(ls.tournament),
            "system": ls.tournament.get_system_display(), "players": ls.players,
            "state": statuses[ls.tournament.pk] if statuses is not None else STATE_LABELS[ls.state],
        } for ls in listings]
        return cls(rows, row_attrs={"class": lambda record: ""}, attrs=LEAN)


def _standing_record(slug: str, line: StandingLine) -> dict[str, Any]:
    row = line.row
    return {
        "rank": row.rank if row.rank is not None else "–",
        "player": player_html(slug, line.player),
        "rating": line.player.rating or "",
        "points": row.points,
        "played": row.played,
        "withdrawn": row.withdrawn,
        "note": withdrawal_text(row.withdrawal),
        **{f"tb_{name}": format_tiebreak(value) for name, value in row.tiebreaks.items()},
    }


def _row_attrs() -> dict[str, Any]:
    return {
        "class": lambda record: "withdrawn" if record.get("withdrawn") else "",
        "title": lambda record: record.get("note", ""),
    }


class StandingsTable(_Base):
    rank = ValueColumn("rank", verbose_name=_("Rank"), attrs={"td": {"class": "num"}})
    player = ValueColumn("player", verbose_name=_("Player"), attrs=ROW_HEAD)
    rating = ValueColumn("rating", verbose_name=_("Rating"), attrs=OPTIONAL_NUM)
    points = ValueColumn("points", verbose_name=_("Pts"), attrs={"td": {"class": "num pts"}})
    played = ValueColumn("played", verbose_name=_("Games"), attrs=OPTIONAL_NUM)

    @classmethod
    def build(cls, slug: str, lines: Sequence[StandingLine], tiebreaks: Sequence[str]) -> StandingsTable:
        return cls([_standing_record(slug, line) for line in lines], extra_columns=tiebreak_columns(tiebreaks),
                   row_attrs=_row_attrs(), attrs=LEAN)


class CrosstableTable(_Base):
    number = ValueColumn("number", verbose_name="#", attrs={"td": {"class": "num"}})
    rank = ValueColumn("rank", verbose_name=_("Rank"), attrs=OPTIONAL_NUM)
    player = ValueColumn("player", verbose_name=_("Player"), attrs=ROW_HEAD)
    rating = ValueColumn("rating", verbose_name=_("Rating"), attrs=OPTIONAL_NUM)

    @classmethod
    def build(cls, slug: str, table: Crosstable) -> CrosstableTable:
        records = []
        for i, line in enumerate(table.lines, start=1):
            rec = _standing_record(slug, line.standing)
            rec["number"] = i
            for j, cell in enumerate(line.cells):
                text = cell.text if table.round_robin else notation.cell_text(cell)
                rec[f"c{j}"] = format_html('<span title="{}">{}</span>', cell.title, text) if cell.title else text
            records.append(rec)
        cell_class = "cell rr" if table.round_robin else "cell"
        extra: list[tuple[str, tables.Column]] = [
            (f"c{j}", ValueColumn(f"c{j}", verbose_name=head, attrs={"td": {"class": cell_class}}))
            for j, head in enumerate(table.headers)
        ]
        extra.append(("points", ValueColumn("points", verbose_name=_("Pts"),
                                            attrs={"td": {"class": "num pts"}, "th": {"class": "pts"}})))
        extra.extend(tiebreak_columns(table.tiebreaks))
        return cls(records, extra_columns=extra, row_attrs=_row_attrs())


def _result_link(url: str, text: str) -> SafeString:
    """The result, linked to the game; a game without a result yet shows "–", which a screen reader would
    not read, so it also says it in words."""
    if text:
        return format_html('<a class="res" href="{}">{}</a>', url, text)
    return format_html('<a class="res" href="{}"><span aria-hidden="true">–</span><span class="vh">{}</span></a>',
                       url, _("no result yet"))


def played_or_pending(result: str) -> bool:
    """A game page has something to show: a game played over the board, or one still to be played. A forfeit,
    a bye or a game a withdrawal left unplayed has no game page worth opening."""
    return not result or Result(result).is_played


class PairingsTable(_Base):
    board = ValueColumn("board", verbose_name=_("Board"), attrs={"td": {"class": "num board"}})
    white = ValueColumn("white", verbose_name=_("White"), attrs={"td": {"class": "name white"}})
    white_rating = ValueColumn("white_rating", verbose_name=_("Rating"), attrs=OPTIONAL_NUM)
    result = ValueColumn("result", verbose_name=_("Result"), attrs={"td": {"class": "result"}})
    black = ValueColumn("black", verbose_name=_("Black"), attrs={"td": {"class": "name black"}})
    black_rating = ValueColumn("black_rating", verbose_name=_("Rating"), attrs=OPTIONAL_NUM)
    game = ValueColumn("game", verbose_name=_("Game"), attrs={"td": {"class": "link opt"}, "th": {"class": "opt"}})

    @classmethod
    def build(cls, slug: str, games: Sequence[Game], lines: dict[int, PlayerLine],
              bye_points: int = 2, found: frozenset[int] = frozenset()) -> PairingsTable:
        """`found`: the games a name search found, marked on their rows."""
        rows = []
        for g in games:
            black = lines.get(g.black_id) if g.black_id else None
            rows.append({
                "row_id": f"board-{g.board}" if g.black_id else f"bye-{lines[g.white_id].pairing_number}",
                "names": row_names(g), "found": g.pk in found,
                # a player without an opponent sits at no board: his row comes after the boards, unnumbered,
                # as on the printed pairings
                "board": g.board if g.black_id else "",
                "white": player_html(slug, lines[g.white_id]),
                "white_rating": lines[g.white_id].rating or "",
                # The result links to the game page: on a phone the separate "game" column is dropped.
                "result": _result_link(reverse("tournaments:game", args=[slug, g.pk]), result_text(g.result))
                if g.black_id and played_or_pending(g.result) else (
                    notation.bye_words(Result(g.result), bye_points) if g.black_id is None and g.result
                    else result_text(g.result) or "–"),
                # a bye's row says what it is worth in the result column; no "bye" in Black's place
                "black": player_html(slug, black) if g.black_id else "",
                "black_rating": (black.rating or "") if black else "",
                "game": "" if g.black_id is None or not played_or_pending(g.result) else format_html(
                    '<a href="{}">{}</a>', reverse("tournaments:game", args=[slug, g.pk]), _("game")),
            })
        return cls(rows, attrs={"class": "listing boards"})


COLOUR_LABELS: dict[str | None, Any] = {"white": _("White"), "black": _("Black"), None: ""}


class PlayerGamesTable(_Base):
    round = ValueColumn("round", verbose_name=_("Round"), attrs={"td": {"class": "num"}})
    colour = ValueColumn("colour", verbose_name=_("Colour"))
    opponent = ValueColumn("opponent", verbose_name=_("Opponent"), attrs={"td": {"class": "name"}})
    rating = ValueColumn("rating", verbose_name=_("Rating"), attrs=OPTIONAL_NUM)
    result = ValueColumn("result", verbose_name=_("Result"), attrs={"td": {"class": "result"}})
    running = ValueColumn("running", verbose_name=_("Score"), attrs={"td": {"class": "num pts"}})
    game = ValueColumn("game", verbose_name=_("Game"), attrs={"td": {"class": "link opt"}, "th": {"class": "opt"}})

    @classmethod
    def build(cls, slug: str, card: PlayerCard) -> PlayerGamesTable:
        rows = []
        for r in card.rounds:
            rows.append({
                "round": r.round,
                "colour": format_html('<span class="stone {}"></span> <span class="colour-word">{}</span>', r.colour,
                                      COLOUR_LABELS[r.colour]) if r.colour else "",
                # a round without an opponent says what it was in the result column
                "opponent": player_html(slug, r.opponent) if r.opponent is not None else "",
                "rating": (r.opponent.rating or "") if r.opponent else "",
                # linked to the game, as on the round page: on a phone the "game" column is dropped
                "result": _result_link(reverse("tournaments:game", args=[slug, r.game_id]), r.text)
                if r.game_id and r.colour and (r.result is None or r.result.is_played) else notation.round_text(r),
                "running": r.running,
                "game": format_html('<a href="{}">{}</a>', reverse("tournaments:game", args=[slug, r.game_id]),
                                    _("game")) if r.game_id and r.colour and (r.result is None or r.result.is_played)
                else "",
            })
        return cls(rows)
