"""Game sheets at archive scale: `rules replay --summary` over the corpus and generated files,
and the arbiter's round upload preview and the public game page on large inputs.

    .venv/bin/python bench/sheets.py                  # 2,000 generated games + the shared corpus
    .venv/bin/python bench/sheets.py --games 20000 --preview 80000 --sheet-kb 900

Generated files (written to a throwaway folder, never the repository): random legal games in FMJD
numbers, the same games in alphanumeric notation with GameType A0, with PlayOK's GameType
"20,W,10,10,N1,0", and unreadable 8x8 games. Each file is replayed by `python -m rules replay
--summary` in a child process (the command an archive checker runs); its lines are printed as they come.

--preview N builds a round of 100 boards in a throwaway SQLite database and times the upload preview
of a file of N games (most of them matching nobody), through the admin page, and the public game page
of a sheet of about --sheet-kb kilobytes (a long game repeated in one sheet's comments and variations,
as real annotated sheets are), before and after the line is kept with the sheet.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rules import Board  # noqa: E402
from rules.pdn.gametype import square_number  # noqa: E402
from rules.pdn.writer import game_from_board, write_game  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "pdn"
_ALPHA = {square_number(f"{f}{r}"): f"{f}{r}" for f in "abcdefghij" for r in range(1, 11)}


def random_game(rng: random.Random, max_plies: int = 160) -> tuple[Board, str]:
    board = Board()
    while board.outcome() is None and len(board.move_stack) < max_plies:
        board.push(rng.choice(board.legal_moves()))
    outcome = board.outcome()
    return board, outcome.result() if outcome is not None else rng.choice(["2-0", "1-1", "0-2"])


def alphanumeric(text: str) -> str:
    """The movetext of a numeric game rewritten a1-j10 (tags and result untouched)."""
    head, _, moves = text.partition("\n\n")

    def move(m: re.Match[str]) -> str:
        if m.group(0) in ("2-0", "0-2", "1-1", "0-0"):
            return m.group(0)
        return re.sub(r"\d+", lambda n: _ALPHA[int(n.group(0))], m.group(0))

    moves = re.sub(r"\b\d{1,2}(?:[-x]\d{1,2})+\b", move, moves)
    return f"{head}\n[GameType \"20,W,10,10,A0,0\"]\n\n{moves}"


def generate(folder: Path, games: int, seed: int = 1) -> list[Path]:
    rng = random.Random(seed)
    kinds: dict[str, list[str]] = {"numeric": [], "alphanumeric": [], "playok": [], "eight_by_eight": []}
    for i in range(games):
        board, result = random_game(rng)
        text = write_game(game_from_board(board, {"Event": "bench", "White": f"W{i}", "Black": f"B{i}"}, result))
        kinds["numeric"].append(text)
        if i % 4 == 1:
            kinds["alphanumeric"].append(alphanumeric(text))
        if i % 4 == 2:
            kinds["playok"].append(text.replace("\n\n", '\n[GameType "20,W,10,10,N1,0"]\n\n', 1))
        if i % 20 == 3:
            kinds["eight_by_eight"].append(f'[White "W{i}"]\n[Black "B{i}"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 2-0\n')
    paths = []
    for name, texts in kinds.items():
        path = folder / f"generated_{name}.pdn"
        path.write_text("\n".join(texts), encoding="utf-8")
        paths.append(path)
    return paths


def summary(paths: list[Path]) -> None:
    command = [sys.executable, "-m", "rules", "replay", "--summary", *map(str, paths)]
    print("$ python -m rules replay --summary " + " ".join(p.name for p in paths))
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False)
    print(done.stdout.rstrip())
    if done.returncode == 2:
        print(done.stderr.rstrip(), file=sys.stderr)


def preview_and_page(games: int, sheet_kb: int) -> None:
    folder = tempfile.mkdtemp(prefix="damier-bench-sheets-")
    os.environ["DATABASE_URL"] = f"sqlite:///{folder}/bench.sqlite3"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("DAMIER_AXES_ENABLED", "0")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    settings.DAMIER_PDN_MAX_BYTES = 64 * 1024 * 1024
    try:
        _time_preview(games)
        _time_game_page(sheet_kb)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _round(boards: int = 100) -> Any:
    from django.contrib.auth import get_user_model

    from tournaments.models import Entry, Game, Player, Round, RoundStatus, Tournament

    arbiter = get_user_model().objects.create_superuser("bench", password="bench-pass-1")
    t = Tournament.objects.create(name="Bench", slug="bench", public=True, chief_arbiter=arbiter)
    players = Player.objects.bulk_create(Player(surname=f"Speler{i:03}", given_name="Jan") for i in range(boards * 2))
    entries = Entry.objects.bulk_create(Entry(tournament=t, player=p, pairing_number=i + 1)
                                        for i, p in enumerate(players))
    rnd = Round.objects.create(tournament=t, number=1, status=RoundStatus.PUBLISHED)
    Game.objects.bulk_create(Game(round=rnd, board=b + 1, white=entries[2 * b], black=entries[2 * b + 1],
                                  result="2-0") for b in range(boards))
    return t, rnd, arbiter


def _time_preview(games: int) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client
    from django.urls import reverse

    t, rnd, arbiter = _round()
    texts = [f'[Round "1"]\n[White "Speler{2 * b:03}, Jan"]\n[Black "Speler{2 * b + 1:03}, Jan"]\n\n'
             "1. 32-28 19-23 2-0\n" for b in range(100)]
    texts += [f'[Round "1"]\n[White "Other{i}, A"]\n[Black "Other{i}, B"] 1. 32-28 *\n' for i in range(games - 100)]
    data = "\n".join(texts).encode()
    client = Client()
    client.force_login(arbiter)
    url = reverse("admin:tournaments_round_sheets", args=[rnd.pk])
    started, cpu = time.perf_counter(), time.process_time()
    response = client.post(url, {"file": SimpleUploadedFile("big.pdn", data)})
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert response.status_code == 200, response.status_code
    # CPU time beside the wall clock: other work on a shared machine inflates the wall clock only.
    print(f"round upload preview: {games:,} games ({len(data) / 1e6:.1f} MB): {seconds:.2f} s (CPU {cpu:.2f} s), "
          f"page {len(response.content) / 1e6:.2f} MB")


def _time_game_page(sheet_kb: int) -> None:
    from django.test import Client

    from tournaments.models import Game, GameSheet
    from tournaments.sheets import sheet_upload

    game = Game.objects.select_related("white__player", "black__player", "round").get(board=1)
    board, result = random_game(random.Random(5), max_plies=200)
    text = write_game(game_from_board(board, {"White": "Speler000, Jan", "Black": "Speler001, Jan", "Round": "1"},
                                      result))
    head, _, moves = text.partition("\n\n")
    filler = "{" + "annotation " * 90 + "}\n"
    copies = max(1, sheet_kb * 1024 // len(filler))
    sheet_text = head + "\n\n" + filler * copies + moves
    started = time.perf_counter()
    sheet_upload(game=game, data=sheet_text, replace=True)
    stored = time.perf_counter() - started
    client = Client()
    url = f"/t/bench/game/{game.pk}/"
    times = []
    for _ in range(5):
        t0 = time.process_time()
        response = client.get(url)
        times.append(time.process_time() - t0)
        assert response.status_code == 200
    GameSheet.objects.filter(game=game).update(line=None)  # a sheet stored before the line was kept
    t0 = time.process_time()
    client.get(url)
    first = time.process_time() - t0
    print(f"public game page, {len(sheet_text) / 1024:.0f} KB sheet of {len(board.move_stack)} plies: stored in "
          f"{stored:.2f} s; page best {min(times) * 1000:.0f} ms CPU; without a kept line (first view, then kept) "
          f"{first * 1000:.0f} ms CPU")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2000, help="games to generate")
    parser.add_argument("--preview", type=int, default=0, help="games in the round upload file to time (0: skip)")
    parser.add_argument("--sheet-kb", type=int, default=900)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="damier-bench-pdn-"))
    try:
        started = time.perf_counter()
        generated = generate(folder, args.games)
        print(f"generated {args.games} games in {time.perf_counter() - started:.1f} s ({folder})")
        corpus = sorted(CORPUS.rglob("*.pdn")) if CORPUS.is_dir() else []
        summary(corpus + generated)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if args.preview:
        preview_and_page(args.preview, args.sheet_kb)


if __name__ == "__main__":
    main()
