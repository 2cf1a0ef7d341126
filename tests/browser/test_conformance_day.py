"""The conformance mode as one arbiter's afternoon, in chromium, in French on a 390-px phone: after
round 2 of an 8-player Swiss he raises the number of rounds (level 4: the warning, the re-check, the event in
the history and the TRF), pairs round 3 by hand with a rematch (the warning, then the engine's pairing beside
his at validation), publishes it, records a 1-0 ruling, grants a requested bye worth a draw for round 4, pairs
round 4; the public standings and the TRF export follow every step. Screenshots: artifacts/screenshots/vcl-day-*."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser import axe
from tests.browser.screens import phone_in_french, shot

pytestmark = pytest.mark.browser

NAMES = ["Dupont", "Martin", "Bernard", "Thomas", "Petit", "Robert", "Richard", "Durand"]  # conftest swiss8


def _axe(page: Any, name: str) -> None:
    if axe.AXE_JS.exists():  # installed by `npm ci` in tests/browser (.ci/run)
        axe.assert_accessible(page, name)


def _tick_all(page: Any, selector: str) -> None:
    for box in page.locator(selector).all():
        box.focus()
        page.keyboard.press("Space")  # by keyboard, as on the other confirmation pages
        assert box.is_checked()


def _trf(page: Any, base: str, pk: int) -> str:
    page.goto(f"{base}/admin/tournaments/tournament/")
    page.locator(f"input[name=_selected_action][value='{pk}']").check()
    page.select_option("select[name=action]", "export_trf")
    with page.expect_download() as download:
        page.locator("button[name=index]").click()
    return Path(download.value.path()).read_text(encoding="utf-8")


def _player_line(trf: str, number: int) -> str:
    return next(line for line in trf.splitlines() if line.startswith("001") and int(line[4:8]) == number)


def _public_points(page: Any, base: str, slug: str) -> dict[str, str]:
    """Player's surname -> the points the public standings page shows him with."""
    page.goto(f"{base}/t/{slug}/standings/")
    points: dict[str, str] = {}
    for row in page.locator("table tbody tr").all():
        text = row.inner_text()
        for name in NAMES:
            if name in text:
                points[name] = row.locator("td.pts").inner_text().strip()
    return points


def _hand_pairing(t: Any) -> list[tuple[int, int]]:
    """Round 1's board 1 again (the rematch), colours to the one who had White less; the six others paired
    with players they have not met, by the same colour rule."""
    from tournaments.models import Game

    met: set[frozenset[int]] = set()
    whites: dict[int, int] = {e.pairing_number: 0 for e in t.entries.all()}
    for g in Game.objects.filter(round__tournament=t, black__isnull=False).select_related("white", "black"):
        met.add(frozenset((g.white.pairing_number, g.black.pairing_number)))
        whites[g.white.pairing_number] += 1
    first = Game.objects.select_related("white", "black").get(round__tournament=t, round__number=1, board=1)
    rematch = (first.white.pairing_number, first.black.pairing_number)

    def coloured(x: int, y: int) -> tuple[int, int]:
        return (x, y) if whites[x] <= whites[y] else (y, x)

    def pair(rest: list[int]) -> list[tuple[int, int]] | None:
        if not rest:
            return []
        head, others = rest[0], rest[1:]
        for other in others:
            if frozenset((head, other)) in met:
                continue
            tail = pair([n for n in others if n != other])
            if tail is not None:
                return [coloured(head, other), *tail]
        return None

    others = pair(sorted(n for n in whites if n not in rematch))
    assert others is not None, "eight players after two rounds always have a pairing without another rematch"
    return [coloured(*rematch), *others]


def test_the_checklists_scenario_in_one_afternoon_on_a_french_phone(swiss8: dict[str, Any],
                                                                     browser: Any) -> None:
    from tournaments.models import ConformanceEvent, Entry, Game, Round, RoundStatus

    base, t = swiss8["url"], swiss8["tournament"]
    context, page = phone_in_french(browser, base)
    before = _public_points(page, base, t.slug)

    # 1. Seven rounds instead of five, after round 2: level 4, confirmed; the re-check said; the event kept.
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/change/")
    page.fill("#id_rounds_total", "7")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    assert "Niveau 4" in page.locator("#dm-confirm").inner_text()
    assert page.input_value("#id_rounds_total") == "7"
    _tick_all(page, "#dm-confirm input[type=checkbox]")
    with page.expect_navigation():
        page.click("input[name=_continue]")
    assert "Nouvelle vérification" in page.locator(".messagelist").inner_text()
    shot(page, "vcl-day-1-rounds-changed-phone-fr")
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/history/")
    assert "7" in page.locator("#dm-events").inner_text()

    # 2. Round 3 paired by the engine, then changed by hand: round 1's first board again.
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    assert "Apparier la ronde 3" in page.locator("#dc-next").inner_text()
    with page.expect_navigation():
        page.click("#dc-next")
    with page.expect_navigation():
        page.get_by_role("button", name="Modifier à la main l'appariement de la ronde 3").click()
    wanted = _hand_pairing(t)
    pk = {e.pairing_number: str(e.pk) for e in t.entries.all()}
    for i, (white, black) in enumerate(wanted, start=1):
        page.get_by_label(f"Damier {i}, Blancs").select_option(pk[white])
        page.get_by_label(f"Damier {i}, Noirs").select_option(pk[black])
    with page.expect_navigation():
        page.click("#mp-save")
    assert "se sont déjà rencontrés" in page.locator("#dm-confirm").inner_text()
    assert page.get_by_label("Damier 1, Blancs").input_value() == pk[wanted[0][0]]  # what he chose stays chosen
    shot(page, "vcl-day-2-rematch-warning-phone-fr")
    _axe(page, "manual pairing with a rematch (phone, fr)")
    _tick_all(page, "#dm-confirm input[type=checkbox]")
    with page.expect_navigation():
        page.click("#mp-confirm")
    with page.expect_navigation():
        page.click("#mp-validate")
    assert "différent" in page.locator("#mp-compare").inner_text()
    shot(page, "vcl-day-3-engine-beside-hand-phone-fr")
    _tick_all(page, "#dm-confirm input[type=checkbox]")
    with page.expect_navigation():
        page.click("#mp-validate-confirm")
    assert "Publier la ronde 3" in page.locator("#dc-next").inner_text()
    with page.expect_navigation():
        page.click("#dc-next")
    if page.locator("#dc-confirm").count():  # the rematch breaks an absolute criterion: asked once more
        with page.expect_navigation():
            page.click("#dc-confirm")
    rnd3 = Round.objects.get(tournament=t, number=3)
    assert rnd3.status == RoundStatus.PUBLISHED
    assert [(g.white.pairing_number, g.black.pairing_number)
            for g in rnd3.games.select_related("white", "black").order_by("board")] == wanted

    # 3. Round 3's results: a 1-0 ruling on the rematch's board, White wins elsewhere.
    page.goto(f"{base}/admin/tournaments/round/{rnd3.pk}/change/")
    page.locator("select[name=games-0-result]").select_option("1-0")
    for i in range(1, len(wanted)):
        page.locator(f"select[name=games-{i}-result]").select_option("2-0")
    with page.expect_navigation():
        page.click("#dm-save")
    if page.locator("#dm-confirm input[type=checkbox]").count():
        _tick_all(page, "#dm-confirm input[type=checkbox]")
        with page.expect_navigation():
            page.click("#dm-save")
    assert Game.objects.get(round=rnd3, board=1).result == "1-0"
    shot(page, "vcl-day-4-ruling-saved-phone-fr")
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    if "Clore la ronde 3" in page.locator("#dc-next").inner_text():
        with page.expect_navigation():
            page.click("#dc-next")

    after3 = _public_points(page, base, t.slug)
    by_number = {e.pairing_number: e.player.surname for e in t.entries.select_related("player")}
    ruled_white, ruled_black = by_number[wanted[0][0]], by_number[wanted[0][1]]
    assert int(after3[ruled_white]) == int(before[ruled_white]) + 1  # a ruling 1-0: a draw's points
    assert int(after3[ruled_black]) == int(before[ruled_black])
    shot(page, "vcl-day-5-standings-after-ruling-phone-fr")

    # 4. A requested bye worth a draw for round 4, granted from the entries list, then round 4 paired.
    sitter = Entry.objects.get(tournament=t, pairing_number=wanted[1][1])
    page.goto(f"{base}/admin/tournaments/entry/?tournament__id__exact={t.pk}")
    page.locator(f"input[name=_selected_action][value='{sitter.pk}']").check()
    page.select_option("select[name=action]", "grant_bye")
    with page.expect_navigation():
        page.locator("button[name=index]").click()
    assert page.input_value("#id_round_number") == "4"
    page.select_option("#id_points", "1")
    shot(page, "vcl-day-6-requested-bye-phone-fr")
    _axe(page, "grant a requested bye (phone, fr)")
    with page.expect_navigation():
        page.click("input[name=apply]")
    if page.locator("input[name=confirm]").count():
        _tick_all(page, "input[name=confirm]")
        with page.expect_navigation():
            page.click("input[name=apply]")
    assert "ronde 4" in page.locator(".messagelist").inner_text()
    page.goto(f"{base}/admin/tournaments/tournament/{t.pk}/control/")
    assert "Apparier la ronde 4" in page.locator("#dc-next").inner_text()
    with page.expect_navigation():
        page.click("#dc-next")
    with page.expect_navigation():
        page.click("#dc-next")  # publish
    bye = Game.objects.get(round__tournament=t, round__number=4, white=sitter, black__isnull=True)
    assert bye.result == "excused-1"
    after4 = _public_points(page, base, t.slug)
    name = sitter.player.surname
    assert int(after4[name]) == int(after3[name]) + 1
    shot(page, "vcl-day-7-standings-with-bye-phone-fr")
    _axe(page, "public standings after the requested bye (phone, fr)")

    # 5. The TRF follows: the events' ### lines, the ruling (= / 0) and the bye worth a draw (H).
    trf = _trf(page, base, t.pk)
    lines = trf.splitlines()
    assert any(line.startswith("### rounds-changed @ Round 2:") and "new=7 old=5" in line for line in lines), trf
    assert any(line.startswith("### rematch @ Round 3:") for line in lines), trf
    assert any(line.startswith("### manual-pairing @ Round 3: engine=") for line in lines), trf
    white_line, black_line = _player_line(trf, wanted[0][0]), _player_line(trf, wanted[0][1])
    # round r's cell (TRF-16): columns 92 + 10(r-1) to 101 + 10(r-1), opponent, colour, result
    assert white_line[111:121].split() == [str(wanted[0][1]), "w", "="], white_line
    assert black_line[111:121].split() == [str(wanted[0][0]), "b", "0"], black_line
    assert _player_line(trf, sitter.pairing_number)[121:131].split() == ["0000", "-", "H"]
    codes = set(ConformanceEvent.objects.filter(tournament=t).values_list("code", flat=True))
    assert {"rounds-changed", "rematch", "manual-pairing"} <= codes, codes
    context.close()
