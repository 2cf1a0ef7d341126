"""`python -m tournaments.verification -g OUT.trf`: the generator's options, and the drawing of every
option left unset.

Without --seed a fresh seed comes from the operating system's random source on every run; it is
printed and written in the file (record 012 and a ### line), and the options left unset are drawn
from it, so `--seed S` with the same options given writes the same file again. Each rate left unset
is off in half of the runs and otherwise drawn from a modest range (RANGES), so files with and
without each feature both come out.
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
from dataclasses import fields, replace
from pathlib import Path

from rules.numbers import NumberError, number_or_none, parse_number
from tournaments.verification.generator import GenSettings, generate, tournament_trf

# option -> (GenSettings field, low, high): a rate drawn uniformly in [low, high], or 0 half the time
RANGES: dict[str, tuple[str, float, float]] = {
    "forfeit_rate": ("forfeit_rate", 0.005, 0.05),
    "double_forfeit_rate": ("double_forfeit_rate", 0.002, 0.02),
    "zero_bye_rate": ("excuse_rate", 0.005, 0.03),
    "half_bye_rate": ("half_bye_rate", 0.005, 0.03),
    "full_bye_rate": ("full_bye_rate", 0.002, 0.015),
    "unusual_rate": ("unusual_rate", 0.002, 0.02),
    "withdraw_rate": ("withdraw_rate", 0.005, 0.02),
    "late_rate": ("late_rate", 0.02, 0.1),
    "unrated_rate": ("unrated_rate", 0.02, 0.15),
}
_HELP = {
    "forfeit_rate": "share of games lost by forfeit (2F-0F)",
    "double_forfeit_rate": "share of games forfeited by both (0F-0F)",
    "zero_bye_rate": "per player and round: a bye asked for in advance worth 0 (Z)",
    "half_bye_rate": "per player and round: a bye asked for in advance worth a draw, 1 point (H)",
    "full_bye_rate": "per player and round: a bye asked for in advance worth a win, 2 points (F)",
    "unusual_rate": "share of games with an arbiter's ruling 1-0, 0-1 or 0-0",
    "withdraw_rate": "per player and round from round 2: withdraws for good",
    "late_rate": "share of players who enter in round 2 or 3",
    "unrated_rate": "share of players without a rating",
}
# tie-break lists drawn when --tiebreaks is not given: the Swiss presets and short lists of the rest
_SWISS_TIEBREAKS = ("solkoff", "solkoff_median", "solkoff_short_truncated", "solkoff_full_truncated",
                    "solkoff_plus", "sonneborn_berger", "wins", "mutual_result", "average_rating")


def add_generator_options(ap: argparse.ArgumentParser) -> None:
    g = ap.add_argument_group("generator (-g); every option left unset is drawn from the seed")
    g.add_argument("--players", type=int, help="number of players (drawn: 8-150)")
    g.add_argument("--rounds", type=int, help="number of rounds (drawn: 5-11, fewer than the players)")
    g.add_argument("--seed", type=int, help="repeat a run (default: a fresh seed from the system, printed)")
    g.add_argument("--draw-rate", type=float, metavar="RATE", help="share of draws between equal ratings, "
                   "fewer where the table leaves less room (drawn: 0.10-0.60)")
    for opt in RANGES:
        g.add_argument("--" + opt.replace("_", "-"), type=float, metavar="RATE", help=_HELP[opt])
    g.add_argument("--ratings", help="ratings, comma-separated, best first (0 = unrated); missing ones drawn")
    g.add_argument("--rating-range", metavar="LOW-HIGH", help="ratings drawn in this range (drawn: low "
                   "900-2300, high low+200 to 2700)")
    g.add_argument("--rating-step", type=int, metavar="N", help="the top of --rating-range, then N lower for "
                   "each next player")
    g.add_argument("--tiebreaks", metavar="CODES", dest="tiebreaks",
                   help="tie-break list (202 codes or Damier names, comma-separated): -g writes it "
                   "(drawn when unset), -c checks the ranks with it instead of the file's 202 record")


def run_generator(ap: argparse.ArgumentParser, args: argparse.Namespace) -> int:
    try:
        settings = settings_from_args(args)
    except ValueError as exc:
        ap.error(str(exc))
    t = generate(settings)
    if args.g == "-":  # as -p: "-" is the standard output, never a file of that name
        sys.stdout.write(tournament_trf(t))
    else:
        Path(args.g).write_text(tournament_trf(t), encoding="utf-8")
    print(f"seed {settings.seed}", file=sys.stderr)
    stuck = [(rec.request.round, rec.result.unpaired) for rec in t.rounds if rec.result.unpaired]
    for rnd, ids in stuck:
        print(f"round {rnd}: no legal pairing for {' '.join(map(str, ids))} (too many rounds for the field?)",
              file=sys.stderr)
    return 1 if stuck else 0


def settings_from_args(args: argparse.Namespace) -> GenSettings:
    """The settings of one run: what was given, the rest drawn from the seed (a fresh one if none)."""
    from tournaments.verification.file_check import tiebreak_names

    seed = args.seed if args.seed is not None else secrets.randbits(31)
    rng = random.Random(f"settings {seed}")
    given: dict[str, object] = {}
    if args.rounds is not None and args.rounds < 1:
        raise ValueError("--rounds must be 1 or more")
    if args.players is not None and args.players < 2:
        raise ValueError("--players must be 2 or more")
    rounds = args.rounds if args.rounds is not None else None
    players = args.players if args.players is not None else rng.randint(max(8, (rounds or 5) + 3), 150)
    if rounds is None:
        rounds = rng.randint(5, max(5, min(11, players - 3)))
    draw_rate = args.draw_rate if args.draw_rate is not None else round(rng.uniform(0.1, 0.6), 3)
    rates = {}
    for opt, (name, low, high) in RANGES.items():
        value = getattr(args, opt)
        if value is None:
            value = 0.0 if rng.random() < 0.5 else round(rng.uniform(low, high), 4)
        rates[name] = value
    for name, value in [("draw_rate", draw_rate), *rates.items()]:
        if not 0 <= value <= 1:
            raise ValueError(f"--{name.replace('_', '-')} {value}: a rate is between 0 and 1")
    if args.rating_range:
        low, _, high = args.rating_range.partition("-")
        bounds = number_or_none(low.strip(), high=9999), number_or_none(high.strip(), high=9999)
        if bounds[0] is None or bounds[1] is None or bounds[0] > bounds[1]:
            raise ValueError(f"--rating-range {args.rating_range[:40]!r}: write LOW-HIGH, e.g. 1400-2300")
        rating_range = (bounds[0], bounds[1])
    else:
        low_r = rng.randint(900, 2300)
        rating_range = (low_r, rng.randint(low_r + 200, 2700))
    ratings: tuple[int, ...] = ()
    if args.ratings:
        try:
            # every item a number, spaces around it allowed as around the range's bounds: an empty item
            # between commas is a slip, not a rating to draw
            ratings = tuple(parse_number(x.strip(), low=-(10**9), high=10**9, signed=True)
                            for x in args.ratings.split(","))
        except NumberError:
            raise ValueError(f"--ratings {args.ratings[:40]!r}: whole numbers, comma-separated") from None
        if any(r < 0 or r > 9999 for r in ratings):
            raise ValueError("--ratings: each rating is between 0 and 9999 (4 columns of the TRF)")
    if args.rating_step is not None and args.rating_step < 0:
        raise ValueError("--rating-step must be 0 or more")
    if args.tiebreaks:
        tiebreaks = tuple(tiebreak_names(args.tiebreaks.replace(",", " ").split()))
    else:
        from tournaments.standings import PRESETS

        swiss = [p.tiebreaks for p in PRESETS.values() if "swiss" in p.systems]
        tiebreaks = rng.choice(swiss) if rng.random() < 0.5 else tuple(rng.sample(_SWISS_TIEBREAKS, rng.randint(1, 3)))
    given.update(
        players=players, rounds=rounds, draw_rate=draw_rate, **rates, ratings=ratings, rating_range=rating_range,
        rating_step=args.rating_step or 0, tiebreaks=tiebreaks, seed=seed, results="table",
    )
    settings = GenSettings(**given)  # type: ignore[arg-type]
    shown = {f.name: getattr(settings, f.name) for f in fields(settings) if f.name not in ("points", "comments")}
    text = " ".join(f"{k}={_show(v)}" for k, v in shown.items())
    return replace(settings, comments=(f"generated by python -m tournaments.verification -g --seed {seed}", text))


def _show(value: object) -> str:
    if isinstance(value, tuple):
        return ",".join(map(str, value)) or "-"
    return str(value)
