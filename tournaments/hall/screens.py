"""What a hall screen shows, panel by panel: values only, the words are the page's (public/hall_views.py).

A screen rotates through its `shows` in order, each kind as many panels as it needs:
- "pairings": the boards from `boards_from` to `boards_to` of the round on show, `lines_per_page` a panel;
  the players without an opponent are on "find your board", which lists everybody;
- "find": every player of the round in alphabetical order (accents and alphabets folded: the register's
  search key), with his board, colour and opponent, two columns of `lines_per_page` a panel. All the
  players, whatever the screen's board range: a player does not know which screen holds his board;
- "standings": the first `lines_per_page` after the last round with results (none before any result);
- "message": the screen's message (none when empty);
- "clock": the round clock, once the arbiter started it.
The round on show is the last public round; its clock runs only while it is published. What changes a
screen or the clock is `screen_services`; this module only reads.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass, field

from tournaments import selectors
from tournaments.models import Game, HallScreen, Round, RoundStatus, Tournament, search_key
from tournaments.results import Result

SHOWS = ("pairings", "find", "standings", "message", "clock")
DEFAULT_SHOWS = ["pairings", "find", "clock"]
FIND_COLUMNS = 2


@dataclass(frozen=True)
class Board:
    number: int
    white: selectors.PlayerLine
    black: selectors.PlayerLine
    result: str  # the stored code, "" while the game is played


@dataclass(frozen=True)
class FindLine:
    player: selectors.PlayerLine
    folded: str
    board: int | None  # None: no opponent, no board to find
    colour: str | None  # "white", "black", None without an opponent
    opponent: selectors.PlayerLine | None
    result: Result | None  # a board without an opponent: the bye's kind


@dataclass(frozen=True)
class Panel:
    kind: str  # one of SHOWS, or "waiting" before any round is public
    page: int  # 1-based, within its kind
    pages: int
    boards: list[Board] = field(default_factory=list)
    find: list[list[FindLine]] = field(default_factory=list)  # columns
    standings: list[selectors.StandingLine] = field(default_factory=list)
    message: str = ""


@dataclass(frozen=True)
class Clock:
    round: int
    started_at: datetime.datetime


@dataclass(frozen=True)
class ScreenView:
    screen: HallScreen
    tournament: Tournament
    round: Round | None
    panels: list[Panel]
    clock: Clock | None
    checkin_code: str  # shown while check-in is open, "" otherwise
    bye_points: int


def screen_by_token(slug: str, token: str) -> HallScreen | None:
    return HallScreen.objects.select_related("tournament").filter(token=token, tournament__slug=slug).first()


def round_on_show(tournament: Tournament) -> Round | None:
    """The last public round: the one being played, or the last one played."""
    return tournament.rounds.exclude(status=RoundStatus.DRAFT).order_by("-number").first()


def round_clock(rnd: Round | None) -> Clock | None:
    if rnd is None or rnd.status != RoundStatus.PUBLISHED or rnd.clock_started_at is None:
        return None
    return Clock(rnd.number, rnd.clock_started_at)


def chunks(items: list, size: int) -> list[list]:
    return [items[i:i + size] for i in range(0, len(items), size)]


def in_range(board: int, screen: HallScreen) -> bool:
    return ((screen.boards_from is None or board >= screen.boards_from)
            and (screen.boards_to is None or board <= screen.boards_to))


def boards_of(games: list[Game], lines: dict[int, selectors.PlayerLine], screen: HallScreen) -> list[Board]:
    return [Board(g.board, lines[g.white_id], lines[g.black_id], g.result) for g in games
            if g.black_id is not None and in_range(g.board, screen)]


def find_lines(games: list[Game], lines: dict[int, selectors.PlayerLine]) -> list[FindLine]:
    """Every player of the round, sorted as a reader looks for himself: by the folded name, then as written."""
    out = []
    for g in games:
        if g.black_id is None:
            out.append(FindLine(lines[g.white_id], "", None, None, None, g.parsed_result or Result.BYE))
            continue
        out.append(FindLine(lines[g.white_id], "", g.board, "white", lines[g.black_id], None))
        out.append(FindLine(lines[g.black_id], "", g.board, "black", lines[g.white_id], None))
    folded = [FindLine(x.player, search_key(x.player.name), x.board, x.colour, x.opponent, x.result) for x in out]
    return sorted(folded, key=lambda x: (x.folded, x.player.name, x.player.pairing_number))


def panels_for(screen: HallScreen, *, boards: list[Board], find: list[FindLine],
               standings: list[selectors.StandingLine], clock: Clock | None) -> list[Panel]:
    """The rotation, in the screen's order; a kind with nothing to show has no panel."""
    per = screen.lines_per_page
    out: list[Panel] = []
    for kind in screen.shows or DEFAULT_SHOWS:
        if kind == "pairings" and boards:
            pages = chunks(boards, per)
            out += [Panel("pairings", i, len(pages), boards=page) for i, page in enumerate(pages, start=1)]
        elif kind == "find" and find:
            pages = chunks(find, per * FIND_COLUMNS)
            out += [Panel("find", i, len(pages), find=chunks(page, per)) for i, page in enumerate(pages, start=1)]
        elif kind == "standings" and standings:
            out.append(Panel("standings", 1, 1, standings=standings[:per]))
        elif kind == "message" and screen.message.strip():
            out.append(Panel("message", 1, 1, message=screen.message.strip()))
        elif kind == "clock" and clock is not None:
            out.append(Panel("clock", 1, 1))
    return out or [Panel("waiting", 1, 1, message=screen.message.strip())]


def screen_view(screen: HallScreen) -> ScreenView:
    """What the screen shows now. A handful of queries, whatever the number of players."""
    tournament = screen.tournament
    rnd = round_on_show(tournament)
    clock = round_clock(rnd)
    boards: list[Board] = []
    find: list[FindLine] = []
    standings: list[selectors.StandingLine] = []
    if rnd is not None:
        games = list(selectors.round_games(rnd))
        entries = {e.pk: e for g in games for e in (g.white, g.black) if e is not None}
        lines = {pk: selectors.player_line(e, tournament.rating_method) for pk, e in entries.items()}
        boards = boards_of(games, lines, screen)
        find = find_lines(games, lines)
    if "standings" in (screen.shows or ()):
        data = selectors.tournament_data(tournament, public_only=True)
        if selectors.last_round_with_results(data, None):
            standings = selectors.standing_lines(tournament, data, None)
    code = tournament.checkin_code if tournament.checkin_round is not None else ""
    return ScreenView(screen, tournament, rnd, panels_for(screen, boards=boards, find=find, standings=standings,
                                                          clock=clock), clock, code,
                      selectors.bye_points_for(tournament))


# The type, sized as the wall sheet was (tournaments/printing/standings.py, above WALL_SIZE): a letter is
# just resolved by normal vision when its height subtends 5 arc minutes, and the wall sheet's x-height is
# about 1.4 times that at its reading distance (3.1 mm at 2 m). At 5 m that is 5000 mm x tan(5') x 1.4
# = 10.2 mm of x-height. The smallest screen a hall hangs for 5 m is taken as a 55-inch 16:9 television,
# 685 mm high: 10.2 mm is 1.49 % of its height, and with DejaVu Sans's x-height of 0.547 em the text needs
# 2.72 % of the height (2.72vh: 29 px on 1080 lines, 20 px on 720). The page is sized in vh, so the
# 1280x720 projector and the 1920x1080 television show the same page, only sharper on the second.
READ_AT_MM = 5000
ARC_5_MINUTES = 0.0014544  # tan(5')
WALL_MARGIN = 1.4
SCREEN_HEIGHT_MM = 685
X_HEIGHT_EM = 0.547
ROWS_VH = 76.0  # the part of the height the rows of a panel share
LINE_SPACING = 1.55  # a row's height in ems: the names keep apart from the next row's
LARGEST_VH = 4.2


def smallest_text_vh(distance_mm: float = READ_AT_MM) -> float:
    x_height_mm = distance_mm * ARC_5_MINUTES * WALL_MARGIN
    return round(100 * x_height_mm / SCREEN_HEIGHT_MM / X_HEIGHT_EM, 2)


def row_text_vh(lines_per_page: int) -> float:
    """The rows' type for a screen's lines per page: as large as fits, at most LARGEST_VH."""
    return round(min(LARGEST_VH, ROWS_VH / (lines_per_page + 1) / LINE_SPACING), 2)


def readable_from_m(lines_per_page: int) -> float:
    """How far the rows can be read from on the 55-inch screen, by the same rule."""
    x_height_mm = row_text_vh(lines_per_page) / 100 * SCREEN_HEIGHT_MM * X_HEIGHT_EM
    return round(x_height_mm / (ARC_5_MINUTES * WALL_MARGIN) / 1000, 1)
