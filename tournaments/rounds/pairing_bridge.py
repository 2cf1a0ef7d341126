"""Bridge between a Swiss tournament in the database and the pure Dutch engine (tournaments.pairing): the
engine's request built from the models, its pairing turned into the games of a new round (NewGame), its
checker run on a round as it stands (check_round, broken_criteria) and its findings in words.

The engine sees players by pairing number (so TRF exports and the engine's explanations use the
numbers the arbiter sees on the pairing sheets) and histories built from the recorded results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import asdict
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import ratings, selectors
from tournaments.conformance import events as conformance_events
from tournaments.errors import DomainError
from tournaments.models import Entry, ForbiddenPair, Game, Round, TiebreakConvention, Tournament, numbered
from tournaments.pairing import Pairing, PairingRequest, PlayedRound, PointSystem, SwissPlayer, pair_dutch
from tournaments.pairing.checker import check_pairing
from tournaments.pairing.model import Board as EngineBoard
from tournaments.pairing.model import ByeReport, CheckReport, PairingResult
from tournaments.pairing.trf import TrfDetails, write_trf
from tournaments.players import period_ratings
from tournaments.players.requested_byes import bye_result
from tournaments.results import Result
from tournaments.verification.file_check import tiebreak_codes

#: A game a new round will hold: White, Black (None for a bye or an excused player), and the result the
#: pairing itself gives (a bye, an excused round), else None.
NewGame = tuple[Entry, Entry | None, Result | None]


def point_system(tournament: Tournament) -> PointSystem:
    # The free round of an odd round robin is worth nothing (every player has one); in a TRF it is the
    # pairing-allocated bye (U) with 162 P 0.0, so a reader of the file scores it as Damier does.
    return PointSystem(bye=0 if tournament.is_round_robin else tournament.bye_points)


def pairing_request(tournament: Tournament, entries: list[Entry], number: int) -> PairingRequest:
    """The engine's view of the tournament before round `number` (rounds 1..number-1 count)."""
    points = point_system(tournament)
    games = (
        Game.objects.filter(round__tournament=tournament, round__number__lt=number)
        .select_related("round")
        .order_by("round__number", "board")
    )
    by_entry: dict[int, dict[int, PlayedRound]] = defaultdict(dict)
    number_of = {e.pk: e.pairing_number for e in entries}
    for g in games:
        result = g.parsed_result
        if result is None:
            raise DomainError(_("Round %(round)s, board %(board)s has no result: the engine cannot pair round "
                                "%(next)s without it.") % {"round": g.round.number, "board": g.board, "next": number})
        white_opp = number_of.get(g.black_id) if g.black_id else None
        by_entry[g.white_id][g.round.number] = PlayedRound.from_result(
            result, as_white=True, opponent=white_opp, points=points)
        if g.black_id:
            by_entry[g.black_id][g.round.number] = PlayedRound.from_result(
                result, as_white=False, opponent=number_of[g.white_id], points=points)
    standing_key = _standing_keys(tournament, number) if tournament.swiss_order == "standing" else {}
    players = []
    for e in entries:
        history = tuple(by_entry[e.pk].get(r, PlayedRound.absent()) for r in range(1, number))
        gone = e.gone_before(number)  # withdrawn or expelled: not paired
        players.append(SwissPlayer(
            id=e.pairing_number, pairing_number=e.pairing_number,
            rating=ratings.tournament_rating(e, tournament.rating_method) or 0,
            name=e.player.full_name, history=history, withdrawn=gone,
            excused=number in (e.excused_rounds or []) and not gone,
            standing_key=standing_key.get(e.pk, ()),
        ))
    forbidden = PairingRequest.forbid(
        (f.first.pairing_number, f.second.pairing_number)
        for f in ForbiddenPair.objects.filter(tournament=tournament).select_related("first", "second")
    )
    return PairingRequest(
        players=tuple(players), round=number, total_rounds=tournament.rounds_total or number,
        points=points, order="standing" if tournament.swiss_order == "standing" else "rating",
        forbidden_pairs=forbidden, initial_colour="b" if tournament.first_colour == "b" else "w",
    )


def _standing_keys(tournament: Tournament, number: int) -> dict[int, tuple[int, ...]]:
    """FMJD "Swiss Solkoff": within a score group, the current standing with the tie-breaks decides."""
    rows = selectors.standings(tournament, after_round=number - 1)
    return {row.player.id: (index,) for index, row in enumerate(rows)}


def pair_next_round(tournament: Tournament, entries: list[Entry],
                    number: int) -> tuple[list[NewGame], dict[str, Any]]:
    """The round's boards (bye and excused players last) and the engine's decisions as data
    (`pairing_record`), worded for each reader by `pairing_log`."""
    request = pairing_request(tournament, entries, number)
    result = pair_dutch(request)
    by_number = {e.pairing_number: e for e in entries}
    if result.unpaired:
        raise DomainError(_("Round %(round)s cannot be paired without breaking an absolute criterion (no rematch, "
                            "no second bye, colours) for %(players)s; pair it by hand.")
                          % {"round": number, "players": _who(_names(by_number), result.unpaired)})
    boards: list[NewGame] = [(by_number[b.white], by_number[b.black], None) for b in result.boards]
    if result.bye is not None:
        boards.append((by_number[result.bye], None, Result.BYE))
    # a requested bye: 0, or the draw's or the win's points the arbiter granted (tournaments.players.requested_byes)
    boards += [(by_number[x], None, bye_result(by_number[x], number)) for x in result.excused]
    withdrawn = tuple(p.id for p in request.players if p.withdrawn)
    return boards, pairing_record(result, by_number, withdrawn, bye_points=tournament.bye_points)


def _names(by_number: dict[int, Entry]) -> dict[str, str]:
    return {str(n): numbered(n, e.player.full_name) for n, e in by_number.items()}


def _who(names: dict[str, str], ids: Iterable[int]) -> str:
    return "; ".join(names.get(str(n), str(n)) for n in ids)


def _points(n: int) -> str:
    return ngettext("%(n)d point", "%(n)d points", n) % {"n": n}


def pairing_record(result: PairingResult, by_number: dict[int, Entry], withdrawn: tuple[int, ...],
                   *, bye_points: int) -> dict[str, Any]:
    """The engine's decisions as JSON data, kept with the round (Round.pairing_record): the log is worded
    when it is read, in the reader's language, not in the language of the arbiter who paired the round.
    The players' names are kept as they were at pairing time, as on the printed pairings."""
    expl = result.explanation
    return {
        "round": expl.round,
        "paired": 2 * len(result.boards) + (result.bye is not None),
        "withdrawn": list(withdrawn),
        "excused": list(result.excused),
        "names": _names(by_number),
        "bye_points": bye_points,
        "brackets": [asdict(b) for b in expl.brackets],
        "bye_report": asdict(expl.bye_report) if expl.bye_report is not None else None,
        "colours": [asdict(c) for c in expl.colours],
    }


def round_pairing_log(rnd: Round) -> str:
    """How the round was paired, in the active language; a round paired before the decisions were kept
    as data (or imported from a JSON transfer) shows the words it was paired with."""
    return pairing_log(rnd.pairing_record) if rnd.pairing_record else rnd.pairing_explanation


def pairing_log(record: dict[str, Any]) -> str:
    """The engine's decisions in the arbiter's words, in the active language: score groups, who
    floated, who got the bye and why, which colour rule gave each colour. The FIDE criterion
    (C.04.3, 2025 numbering) follows each decision in brackets for whoever wants to check it."""
    names = record["names"]
    out = [_("Round %(round)d: Dutch system (FIDE C.04.3), %(count)d players paired.")
           % {"round": record["round"], "count": record["paired"]}]
    if record["withdrawn"]:
        out.append(_("Withdrawn, not paired: %(players)s.") % {"players": _who(names, record["withdrawn"])})
    if record["excused"]:
        out.append(_("Bye asked for in advance (0 points), not paired: %(players)s.")
                   % {"players": _who(names, record["excused"])})
    bye = record["bye_report"]["player"] if record["bye_report"] else None
    brackets = record["brackets"]
    for index, b in enumerate(brackets):
        out.append("")
        out.append(ngettext("Score group %(score)s, %(count)d player: %(players)s.",
                            "Score group %(score)s, %(count)d players: %(players)s.", len(b["residents"]))
                   % {"score": _points(b["score"]), "count": len(b["residents"]),
                      "players": _who(names, b["residents"])})
        if b["moved_down"]:
            out.append("  " + _("Come down from a higher group: %(players)s.")
                       % {"players": _who(names, b["moved_down"])})
        if b["pairs"]:
            out.append("  " + _("Pairs: %(pairs)s.") % {"pairs": ", ".join(f"{x} – {y}" for x, y in b["pairs"])})
        if b["upfloaters"]:
            out.append("  " + _("Play against a player with more points (upfloat): %(players)s.")
                       % {"players": _who(names, b["upfloaters"])})
        last = index == len(brackets) - 1
        floaters = [f for f in b["downfloaters"] if f != bye or not last]
        if floaters:
            out.append("  " + _("Could not be paired in this group, go down to the next one (downfloat): "
                                "%(players)s.") % {"players": _who(names, floaters)})
        for code, n in b["unmet"]:
            words = _unmet_words(code, n)
            if words:
                out.append("  " + words)
        if b.get("completion_search"):
            out.append("  " + _("This group was paired looking at the rest of the round, so that every other "
                                "player can still be paired (C4)."))
    if record["bye_report"] is not None:
        out.append("")
        out.extend(_bye_words(ByeReport(**{k: tuple(v) if isinstance(v, list) else v
                                           for k, v in record["bye_report"].items()}),
                              names, record["bye_points"]))
    if record["colours"]:
        out.append("")
        out.append(_("Colours:"))
        for i, c in enumerate(record["colours"], start=1):
            out.append("  " + _("Board %(board)d: %(white)s white, %(black)s black: %(why)s")
                       % {"board": i, "white": _who(names, [c["white"]]), "black": _who(names, [c["black"]]),
                          "why": _colour_words(c["rule"])})
    return "\n".join(out)


def _unmet_words(code: str, n: int) -> str:
    """A quality criterion the group could not meet for everyone, and for how many players."""
    words = {
        "C10": ngettext("%(n)d topscorer or opponent gets a colour difference beyond 2 (C10).",
                        "%(n)d topscorers or opponents get a colour difference beyond 2 (C10).", n),
        "C11": ngettext("%(n)d topscorer or opponent gets the same colour a third time in a row (C11).",
                        "%(n)d topscorers or opponents get the same colour a third time in a row (C11).", n),
        "C12": ngettext("%(n)d player does not get the colour he prefers (C12).",
                        "%(n)d players do not get the colour they prefer (C12).", n),
        "C13": ngettext("%(n)d player does not get a colour he strongly prefers (C13).",
                        "%(n)d players do not get a colour they strongly prefer (C13).", n),
        "C14": ngettext("%(n)d player floats down again, as in the last round (C14).",
                        "%(n)d players float down again, as in the last round (C14).", n),
        "C15": ngettext("%(n)d player floats up again, as in the last round (C15).",
                        "%(n)d players float up again, as in the last round (C15).", n),
        "C16": ngettext("%(n)d player floats down again, as two rounds ago (C16).",
                        "%(n)d players float down again, as two rounds ago (C16).", n),
        "C17": ngettext("%(n)d player floats up again, as two rounds ago (C17).",
                        "%(n)d players float up again, as two rounds ago (C17).", n),
    }.get(code)
    return words % {"n": n} if words else ""


def _colour_words(rule: str) -> str:
    return {
        "E1": _("each gets the colour he is due (E.1)."),
        "E2": _("both are due the same colour; the stronger preference wins (E.2)."),
        "E3": _("both are due the same colour, equally strongly; colours alternate from the last round in which "
                "they had different colours (E.3)."),
        "E4": _("both are due the same colour and always had the same colours; the higher ranked player gets "
                "his (E.4)."),
        "E5": _("neither has played a game yet; the higher ranked player's pairing number and the first-round "
                "colour decide (E.5)."),
    }[rule]


def _bye_words(bye: ByeReport, names: dict[str, str], bye_points: int) -> list[str]:
    out = [_("Pairing-allocated bye (%(points)s): %(player)s.")
           % {"points": _points(bye_points), "player": _who(names, [bye.player])}]
    if bye.score == bye.lowest_score:
        out.append("  " + _("He has the lowest score of the round (%(score)s) among the players who can "
                            "receive it (C5).") % {"score": _points(bye.score)})
    else:
        out.append("  " + _("%(score)s is the lowest score whose player can receive it while every other "
                            "player can still be paired (C5).") % {"score": _points(bye.score)})
    if bye.passed_over:
        out.append("  " + _("Not eligible, having already had a bye or a win without playing: %(players)s (C2).")
                   % {"players": _who(names, bye.passed_over)})
    if bye.c9:
        out.append("  " + _("Of the players of his score, he has played the most games: %(games)d (C9).")
                   % {"games": bye.played})
    return out


def check_round(tournament: Tournament, number: int) -> CheckReport:
    """The absolute criteria on the round as it stands (after an arbiter's manual change)."""
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    request = pairing_request(tournament, entries, number)
    games = Game.objects.filter(round__tournament=tournament, round__number=number).select_related("white", "black")
    boards, bye = [], None
    for g in games:
        if g.black_id is None:
            if g.result == Result.BYE:
                bye = g.white.pairing_number
            continue
        boards.append(EngineBoard(g.white.pairing_number, g.black.pairing_number))
    return check_pairing(request, Pairing(tuple(boards), bye))


def export_trf(tournament: Tournament, *, next_round: int | None = None) -> str:
    """TRF(x) of the tournament before round `next_round` (default: the round after the last completed
    one), for bbpPairings or JaVaFo to pair that round: players withdrawn or excused for it are marked
    in its column, so they pair exactly the players Damier would."""
    entries = list(tournament.entries.select_related("player").order_by("pairing_number"))
    completed = tournament.rounds.filter(status="completed").count()
    number = next_round or completed + 1
    total = selectors.rounds_total(tournament, len(entries)) or number
    if number > total:
        from tournaments.rounds.postponed import final_words, refuse_final

        refuse_final(tournament, final_words()["trf"])  # the final file: every result in
    request = pairing_request(tournament, entries, number)
    details = {
        e.pairing_number: TrfDetails(title=e.title, federation=e.player.federation,
                                     player_id=e.player.fmjd_id, birth_year=e.player.birth_year)
        for e in entries
    }
    text = write_trf(
        request.players, total_rounds=total, points=request.points,
        name=tournament.name, forbidden=request.forbidden_pairs, next_round=number, details=details,
        initial_colour=request.initial_colour, tiebreaks=tiebreak_codes(tournament.tiebreaks),
        ranks=_ranks(tournament, number - 1),
        excused_codes={e.pairing_number: "H" if points == 1 else "F" for e in entries
                       for r, points in (e.bye_points or {}).items() if int(r) == number and points in (1, 2)},
        header=trf_header(tournament, entries),
        round_dates={r.number: f"{r.date:%y/%m/%d}" for r in tournament.rounds.exclude(date=None)},
    )
    # The conformance events, then the tie-breaks' settings when they differ from the default (the rating
    # ones: Q208-Q216), as ### comment lines.
    return with_comments(text, conformance_events.trf_lines(tournament) + period_ratings.trf_lines(tournament)
                         + convention_trf_lines(tournament))


def convention_trf_lines(tournament: Tournament) -> list[str]:
    """FIDE C.07's convention for unplayed rounds as a ### line: TRF-16 has no record for it, and a reader of
    the file needs it to recompute the values. FMJD's reading, the default, writes nothing."""
    if tournament.tiebreak_convention == TiebreakConvention.FMJD:
        return []
    return [f"### tie-break convention: {tournament.tiebreak_convention} (FIDE Tie-Break Regulations C.07, "
            "2024 edition: unplayed rounds against a dummy opponent)"]


_TRF_TYPE = {"swiss": "Individual: Swiss-System (Dutch)", "round_robin": "Individual: Round robin",
             "double_round_robin": "Individual: Double round robin"}


def rr_type_code(tournament: Tournament) -> str:
    """TRF-2026's record 192 for a round robin (the Tournament-Type Code Table, as cited in the manual):
    Berger tables played once, twice, or twice with the last two rounds of the first cycle reversed."""
    if tournament.system != "double_round_robin":
        return "BERGER_ROUNDROBIN"
    return "FIDE_DOUBLEROUNDROBIN" if tournament.rr_reverse_last_two else "BERGER_DOUBLEROUNDROBIN"


def trf_header(tournament: Tournament, entries: list[Entry]) -> list[tuple[str, str]]:
    """TRF-16's header records that say what the tournament was (checklist Q217: the final file holds
    everything): place, dates, rated players, type, arbiters (chief, then each deputy), time control.
    The type is in English whatever the arbiter's language: it is read by programs. An arbiter without
    a full name is left out, as on the public pages: a login name is half of what a password guess needs."""
    header = [("022", tournament.venue)] if tournament.venue else []
    header += [(code, f"{day:%Y/%m/%d}") for code, day in (("042", tournament.start_date),
                                                            ("052", tournament.end_date)) if day]
    header.append(("072", str(sum(1 for e in entries if ratings.tournament_rating(
        e, tournament.rating_method)))))
    header.append(("092", _TRF_TYPE.get(tournament.system, tournament.system)))
    if tournament.is_round_robin:
        header.append(("192", rr_type_code(tournament)))
    chief = tournament.chief_arbiter.get_full_name().strip() if tournament.chief_arbiter else ""
    if chief:
        header.append(("102", chief))
    deputies = (u.get_full_name().strip() for u in tournament.deputy_arbiters.order_by("last_name", "username"))
    header += [("112", name) for name in deputies if name]
    if tournament.time_control:
        header.append(("122", tournament.time_control))
    return header


def with_comments(text: str, comments: list[str]) -> str:
    """The TRF with `###` comment lines (the conformance events) after its header lines, before
    the first player record, where programs reading TRF skip them."""
    if not comments:
        return text
    lines = text.splitlines()
    at = next((i for i, line in enumerate(lines) if line.startswith("001")), len(lines))
    return "\n".join([*lines[:at], *comments, *lines[at:]]) + "\n"


def _ranks(tournament: Tournament, after_round: int) -> dict[int, int] | None:
    """The standings after the file's last round, as columns 86-89 give them (a shared place by
    pairing number), so `python -m tournaments.verification -c` checks them against record 202."""
    if after_round < 1:
        return None
    rows = selectors.standings(tournament, after_round=after_round)
    ordered = sorted(rows, key=lambda r: (r.rank is None, r.rank or 0, r.player.pairing_number))
    return {r.player.pairing_number: i + 1 for i, r in enumerate(ordered)}


def broken_criteria(rnd: Round) -> list[Any]:
    """The checker's violations of the round's pairing as it stands; a round robin follows the Berger
    tables and has none to check, nor has a team round (its boards are the matches' line-ups)."""
    if rnd.tournament.is_round_robin or rnd.tournament.is_team:
        return []
    return list(check_round(rnd.tournament, rnd.number).violations)


def violation_words(tournament: Tournament, violations: Iterable[Any]) -> list[str]:
    """The checker's violations (codes and pairing numbers) in the reader's language, players by name."""
    names = {e.pairing_number: str(e) for e in tournament.entries.select_related("player")}
    words = []
    for v in violations:
        who = _(" and ").join(names.get(n, str(n)) for n in v.players)
        template = _VIOLATION_WORDS.get(v.criterion)
        if v.criterion == "C3 colour":
            template = (_COLOUR_DIFFERENCE if "beyond 2" in v.detail else _COLOUR_RUN)
        words.append(str(template) % {"players": who} if template else f"{v.criterion}: {v.detail}")
    return words


_VIOLATION_WORDS = {
    "C1 rematch": gettext_lazy("Rematch: %(players)s have already played each other."),
    "forbidden pair": gettext_lazy("Forbidden pair: %(players)s may not meet."),
    "C2 second bye": gettext_lazy("Second bye: %(players)s already had a bye or a win without playing."),
    "C.04.1 bye": gettext_lazy("A bye for %(players)s although the number of players is even."),
    "paired twice": gettext_lazy("%(players)s is paired twice."),
    "not paired": gettext_lazy("Not paired: %(players)s."),
    "not to be paired": gettext_lazy("%(players)s is paired but withdrawn or excused this round."),
    "unknown player": gettext_lazy("%(players)s is not a player of the tournament."),
    "paired with self": gettext_lazy("%(players)s is paired with himself."),
}
_COLOUR_DIFFERENCE = gettext_lazy("Colours: %(players)s would have a colour difference beyond 2.")
_COLOUR_RUN = gettext_lazy("Colours: %(players)s would get the same colour three times running.")


def round_violations(rnd: Round) -> list[str]:
    """The absolute criteria the round's pairing breaks as it stands (a forbidden pair, a rematch, the
    colour limits), in words."""
    return violation_words(rnd.tournament, broken_criteria(rnd))
