"""The public pages' cache: every kind of write moves the tournament's version in its own
transaction, the next read shows it, unchanged pages answer 304, and nothing private is ever shared.

Runs against the configured cache: files in a temporary folder by default, Redis when DAMIER_CACHE_URL is
set (CI starts one), on SQLite or PostgreSQL (DATABASE_URL).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import reverse
from simple_history.utils import bulk_create_with_history

from tests.tournaments.play import play_round
from tournaments.models import ForbiddenPair, Game, Player, Round, RoundStatus, System, Tournament
from tournaments.players import roster
from tournaments.rounds import deletion, services
from tournaments.sheets import sheet_upload
from tournaments.web import public_cache

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _page_cache(page_cache: None) -> None:
    """The page cache on, in a folder of this test's (or the Redis of DAMIER_CACHE_URL)."""


def version(t: Tournament) -> tuple[int, Any]:
    return tuple(Tournament.objects.filter(pk=t.pk).values_list("cache_version", "cache_changed_at").get())


def get(client: Client, url: str, **headers: str) -> Any:
    return client.get(url, headers=headers)


# --- The version ---------------------------------------------------------------------------------------


def _sheet(t: Tournament) -> None:
    game = Game.objects.filter(round__tournament=t, black__isnull=False).order_by("pk").first()
    sheet_upload(game=game, data="1. 32-28 19-23 2. 28x19 14x23 2-0\n")


def _correction(t: Tournament) -> None:
    rnd = t.rounds.get(number=1)
    services.round_reopen(round=rnd)
    game = rnd.games.filter(black__isnull=False).first()
    services.game_record_result(game=game, result="0-2")


def _bulk_games(t: Tournament) -> None:
    rnd = Round.objects.create(tournament=t, number=2)  # moves it too: the bulk part alone is checked below
    entries = list(t.entries.all())
    bulk_create_with_history([Game(round=rnd, board=1, white=entries[0], black=entries[1])], Game)


WRITES: dict[str, Callable[[Tournament], Any]] = {
    "result": lambda t: services.game_record_result(
        game=Game.objects.filter(round__tournament=t, round__number=2, black__isnull=False).first(), result="2-0"),
    "pairing": lambda t: services.round_pair(tournament=t),
    "publish": lambda t: services.round_publish(round=services.round_pair(tournament=t)),
    "completion": lambda t: services.round_complete(round=t.rounds.get(number=2)),
    "reopen (unpublish a completed round)": lambda t: services.round_reopen(round=t.rounds.get(number=1)),
    "round back to draft (queryset update)": lambda t: Round.objects.filter(tournament=t, number=2).update(
        status=RoundStatus.DRAFT),
    "delete a draft round": lambda t: services.round_delete_draft(round=services.round_pair(tournament=t)),
    "withdrawal": lambda t: roster.entry_withdraw(entry=t.entries.first(), after_round=1),
    "entry": lambda t: roster.entry_add(tournament=t, player=Player.objects.create(surname="Newcomer")),
    "player edit": lambda t: Player.objects.filter(pk=t.entries.first().player_id).update(rating=1234),
    "player save": lambda t: _save(t.entries.first().player, surname="Renamed"),
    "sheet": _sheet,
    "correction": _correction,
    "tournament settings": lambda t: _save(t, name="Renamed open"),
    "unpublish the tournament": lambda t: _save(t, public=False),
    "forbidden pair": lambda t: ForbiddenPair.objects.create(tournament=t, first=t.entries.all()[0],
                                                             second=t.entries.all()[1]),
    "deputy arbiter": lambda t: t.deputy_arbiters.add(get_user_model().objects.create_user("deputy")),
    "arbiter's name": lambda t: _save(t.chief_arbiter, first_name="Renée"),
    "bulk update of games": lambda t: Game.objects.bulk_update(
        [_set(g, result="") for g in Game.objects.filter(round__tournament=t, round__number=1)], ["result"]),
    "bulk create with history": _bulk_games,
}


def _save(obj: Any, **values: Any) -> Any:
    for k, v in values.items():
        setattr(obj, k, v)
    obj.save()
    return obj


def _set(obj: Any, **values: Any) -> Any:
    for k, v in values.items():
        setattr(obj, k, v)
    return obj


@pytest.fixture
def two_rounds(make_tournament: Any) -> Tournament:
    """Round 1 completed, round 2 published with no results (round 2 removed where a write needs it)."""
    t = make_tournament(4, system=System.SWISS, rounds_total=5)
    play_round(t)
    play_round(t, complete=False)
    Game.objects.filter(round__tournament=t, round__number=2, black__isnull=False).update(result="")
    return t


@pytest.mark.parametrize("kind", list(WRITES))
def test_every_kind_of_write_moves_the_version(two_rounds: Tournament, kind: str) -> None:
    t = two_rounds
    # Set up what the write needs (each of these moves the version too, before `before` is read).
    if kind in {"pairing", "publish", "delete a draft round", "bulk create with history", "correction",
                "reopen (unpublish a completed round)"}:
        with deletion.allowed():  # the test's own set-up
            t.rounds.filter(number=2).delete()
    if kind == "completion":
        Game.objects.filter(round__tournament=t, round__number=2, result="").update(result="1-1")
    before = version(t)
    WRITES[kind](t)
    after = version(t)
    assert after[0] > before[0] and after[1] >= before[1], kind


def test_bulk_create_alone_moves_the_version(two_rounds: Tournament) -> None:
    t = two_rounds
    rnd = t.rounds.get(number=2)
    e = list(t.entries.all())
    with deletion.allowed():  # the test's own set-up
        Game.objects.filter(round=rnd).delete()
    before = version(t)
    Game.objects.bulk_create([Game(round=rnd, board=1, white=e[0], black=e[1])])
    assert version(t)[0] > before[0]


def test_the_version_moves_in_the_writing_transaction(two_rounds: Tournament) -> None:
    """A failed write leaves it where it was; a stale instance saved later never moves it back."""
    t = two_rounds
    before = version(t)
    with pytest.raises(RuntimeError), transaction.atomic():
        Player.objects.filter(entries__tournament=t).update(rating=1)
        raise RuntimeError
    assert version(t) == before
    stale = Tournament.objects.get(pk=t.pk)
    services.game_record_result(game=t.rounds.get(number=2).games.filter(black__isnull=False).first(),
                                result="2-0")
    moved = version(t)
    stale.name = "Stale copy"
    stale.save()
    assert version(t)[0] == moved[0] + 1


def test_another_tournament_is_untouched(make_tournament: Any) -> None:
    a, b = make_tournament(4, slug="a"), make_tournament(4, slug="b")
    before = version(b)
    play_round(a)
    assert version(b) == before


# --- Reads after writes -----------------------------------------------------------------------------------


def test_a_result_shows_on_the_next_read_of_every_page(published_round: Any) -> None:
    t, rnd, _ = published_round
    anon = Client()
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    urls = [reverse("tournaments:round", args=[t.slug, rnd.number]),
            reverse("tournaments:standings", args=[t.slug]),
            reverse("tournaments:game", args=[t.slug, game.pk]),
            reverse("tournaments:player", args=[t.slug, game.white.pairing_number])]
    for url in urls:
        assert get(anon, url)["X-Damier-Cache"] == "miss"
        assert get(anon, url)["X-Damier-Cache"] == "hit"
    first = {url: get(anon, url).content for url in urls}
    services.game_record_result(game=game, result="2-0")
    for url in urls:
        response = get(anon, url)
        assert response["X-Damier-Cache"] == "miss", url
        assert response.content != first[url], url
    assert "2-0" in get(anon, urls[0]).content.decode()


def test_each_process_keeps_the_pages_it_served_and_a_write_still_shows_at_once(published_round: Any) -> None:
    """The process's own memory answers a page the shared cache has lost (its key names the version, so the
    copy is exact); a result saved since is a new version, a new key: the next read renders it."""
    from django.core.cache import caches

    t, rnd, _ = published_round
    anon = Client()
    url = reverse("tournaments:round", args=[t.slug, rnd.number])
    assert get(anon, url)["X-Damier-Cache"] == "miss"
    cache.clear()  # the shared cache (files or Redis) loses it, or another server never had it
    assert get(anon, url)["X-Damier-Cache"] == "hit"
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    services.game_record_result(game=game, result="0-2")
    response = get(anon, url)
    assert response["X-Damier-Cache"] == "miss" and "0-2" in response.content.decode()
    caches["pages-local"].clear()  # a process that never served it: the shared cache has it
    assert get(anon, url)["X-Damier-Cache"] == "hit"


@pytest.mark.parametrize("write, url_name, shown", [
    (lambda t: _save(t, name="Grand Prix of Dakar"), "tournament", "Grand Prix of Dakar"),
    (lambda t: _save(t.entries.first().player, surname="Zyxwvutsrq"), "standings", "Zyxwvutsrq"),
    (lambda t: roster.entry_add(tournament=t, player=Player.objects.create(surname="Latecomer")),
     "standings", "Latecomer"),
    (lambda t: roster.entry_withdraw(entry=t.entries.get(pairing_number=2), after_round=1), "standings",
     "withdrawn"),
])
def test_the_next_read_shows_the_write(make_tournament: Any, write: Any, url_name: str, shown: str) -> None:
    t = make_tournament(4, system=System.SWISS, rounds_total=5)
    play_round(t)
    anon = Client()
    url = reverse(f"tournaments:{url_name}", args=[t.slug])
    assert shown not in get(anon, url).content.decode()
    assert get(anon, url)["X-Damier-Cache"] == "hit"
    write(Tournament.objects.get(pk=t.pk))
    assert shown in get(anon, url).content.decode()


def test_a_sheet_shows_on_the_game_page_and_in_the_pdn(published_round: Any) -> None:
    t, rnd, _ = published_round
    anon = Client()
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    page = reverse("tournaments:game", args=[t.slug, game.pk])
    pdn = reverse("tournaments:round_games_pdn", args=[t.slug, rnd.number])
    assert "32-28" not in get(anon, page).content.decode() + get(anon, pdn).content.decode()
    sheet_upload(game=game, data="1. 32-28 19-23 2. 28x19 14x23 2-0\n")
    assert "32-28" in get(anon, page).content.decode()
    assert "32-28" in get(anon, pdn).content.decode()


def test_pdfs_are_cached_and_follow_the_results(published_round: Any) -> None:
    t, rnd, _ = published_round
    anon = Client()
    url = reverse("tournaments:pairings_pdf", args=[t.slug, rnd.number])
    first = get(anon, url)
    assert first["Content-Type"] == "application/pdf" and first["X-Damier-Cache"] == "miss"
    again = get(anon, url)
    assert again["X-Damier-Cache"] == "hit" and again.content == first.content
    assert again["Content-Disposition"] == first["Content-Disposition"]
    services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="2-0")
    assert get(anon, url)["X-Damier-Cache"] == "miss"


def test_each_language_is_its_own_page(published_round: Any) -> None:
    t, _, _ = published_round
    anon = Client()
    url = reverse("tournaments:standings", args=[t.slug])
    fr = get(anon, url, accept_language="fr")
    en = get(anon, url, accept_language="en")
    assert fr["Content-Language"] == "fr" and en["Content-Language"] == "en"
    assert fr["ETag"] != en["ETag"] and fr.content != en.content
    assert get(anon, url, accept_language="fr").content == fr.content
    assert "Accept-Language" in fr["Vary"] and "Cookie" in fr["Vary"]


def test_the_tournament_list_follows_publication(make_tournament: Any) -> None:
    t = make_tournament(4)
    anon = Client()
    assert t.name in get(anon, "/").content.decode()
    assert get(anon, "/")["X-Damier-Cache"] == "hit"
    _save(t, public=False)
    assert t.name not in get(anon, "/").content.decode()


# --- HTTP caching ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("url_name", ["standings", "crosstable_pdf", "games_pdn", "tournament"])
def test_304_when_nothing_changed_and_200_after_a_write(published_round: Any, url_name: str) -> None:
    t, rnd, _ = published_round
    anon = Client()
    url = reverse(f"tournaments:{url_name}", args=[t.slug])
    first = get(anon, url)
    etag = first["ETag"]
    assert first.status_code == 200 and etag.startswith('W/"')
    assert first["Cache-Control"] == "public, no-cache" or "s-maxage" in first["Cache-Control"]
    not_modified = get(anon, url, if_none_match=etag)
    assert not_modified.status_code == 304 and not_modified.content == b""
    assert not_modified["ETag"] == etag
    services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="2-0")
    changed = get(anon, url, if_none_match=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_if_modified_since_alone(published_round: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """Last-Modified is sent once its second is over (two saves in one second would share it)."""
    t, rnd, _ = published_round
    anon = Client()
    url = reverse("tournaments:standings", args=[t.slug])
    monkeypatch.setattr(public_cache.time, "time", lambda: time.time_ns() / 1e9 + 10)
    last_modified = get(anon, url)["Last-Modified"]
    assert get(anon, url, if_modified_since=last_modified).status_code == 304
    changed_at = Tournament.objects.get(pk=t.pk).cache_changed_at
    services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="2-0")
    if int(Tournament.objects.get(pk=t.pk).cache_changed_at.timestamp()) > int(changed_at.timestamp()):
        assert get(anon, url, if_modified_since=last_modified).status_code == 200


def test_without_the_time_margin_no_last_modified(published_round: Any) -> None:
    t, _, _ = published_round
    response = get(Client(), reverse("tournaments:standings", args=[t.slug]))
    assert "Last-Modified" not in response  # the save was less than 2 s ago


def test_public_pages_set_no_cookie_and_need_no_session(published_round: Any) -> None:
    t, rnd, _ = published_round
    anon = Client()
    for url in [reverse("tournaments:list"), reverse("tournaments:standings", args=[t.slug]),
                reverse("tournaments:round", args=[t.slug, rnd.number])]:
        response = get(anon, url)
        assert response.status_code == 200 and not response.cookies, url
    assert not anon.cookies


def test_the_language_switch_works_without_a_token(published_round: Any) -> None:
    t, _, _ = published_round
    anon = Client(enforce_csrf_checks=True)
    url = reverse("tournaments:standings", args=[t.slug])
    response = anon.post(reverse("set_language"), {"language": "fr", "next": url})
    assert response.status_code == 302 and response["Location"] == url
    assert get(anon, url)["Content-Language"] == "fr"


# --- Never shared -----------------------------------------------------------------------------------------


def test_a_signed_in_user_is_never_served_from_or_stored_in_the_cache(published_round: Any) -> None:
    t, rnd, arbiter_client = published_round
    url = reverse("tournaments:round", args=[t.slug, rnd.number])
    anon = Client()
    assert get(anon, url)["X-Damier-Cache"] == "miss"
    private = get(arbiter_client, url)
    assert private.status_code == 200 and "X-Damier-Cache" not in private and "ETag" not in private
    assert "private" in private["Cache-Control"] and "no-store" in private["Cache-Control"]
    services.game_record_result(game=rnd.games.filter(black__isnull=False).first(), result="2-0")
    assert "X-Damier-Cache" not in get(arbiter_client, url)
    # The arbiter's render was not stored: the next reader renders his own.
    assert get(anon, url)["X-Damier-Cache"] == "miss"


def test_a_draft_round_is_never_served_from_the_cache(published_round: Any) -> None:
    t, rnd, arbiter_client = published_round
    url = reverse("tournaments:round", args=[t.slug, rnd.number])
    pdf = reverse("tournaments:pairings_pdf", args=[t.slug, rnd.number])
    anon = Client()
    assert get(anon, url).status_code == 200 and get(anon, pdf).status_code == 200
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.DRAFT)
    assert get(anon, url).status_code == 404
    assert get(anon, pdf).status_code == 404
    get(arbiter_client, url)
    assert get(anon, url).status_code == 404
    Round.objects.filter(pk=rnd.pk).update(status=RoundStatus.PUBLISHED)
    assert get(anon, url).status_code == 200


def test_a_tournament_that_is_not_public_is_never_served_from_the_cache(published_round: Any) -> None:
    t, rnd, arbiter_client = published_round
    urls = [reverse("tournaments:standings", args=[t.slug]), reverse("tournaments:games_pdn", args=[t.slug]),
            reverse("tournaments:round", args=[t.slug, rnd.number])]
    anon = Client()
    etags = {url: get(anon, url)["ETag"] for url in urls}
    _save(t, public=False)
    for url in urls:
        assert get(anon, url).status_code == 404, url
        assert get(anon, url, if_none_match=etags[url]).status_code == 404, url
    private = get(arbiter_client, urls[0])
    assert "no-store" in private.get("Cache-Control", "") or private.status_code == 404


def test_unknown_query_parameters_are_answered_but_not_stored(published_round: Any) -> None:
    t, _, _ = published_round
    anon = Client()
    url = reverse("tournaments:standings", args=[t.slug])
    response = get(anon, url + "?utm=x")
    assert response.status_code == 200 and "X-Damier-Cache" not in response
    assert get(anon, url + "?round=1")["X-Damier-Cache"] == "miss"


# --- Live pages ---------------------------------------------------------------------------------------------


def test_pages_of_a_round_in_progress_update_themselves(published_round: Any) -> None:
    t, rnd, _ = published_round
    anon = Client()
    live = ["round", "standings", "crosstable"]
    for name in live:
        args = [t.slug, rnd.number] if name == "round" else [t.slug]
        html = get(anon, reverse(f"tournaments:{name}", args=args)).content.decode()
        assert 'id="live"' in html and "damier/live.js" in html and 'role="status"' in html, name
    assert 'id="live"' not in get(anon, reverse("tournaments:tournament", args=[t.slug])).content.decode()
    for g in rnd.games.filter(result=""):
        services.game_record_result(game=g, result="1-1")
    services.round_complete(round=rnd)
    html = get(anon, reverse("tournaments:round", args=[t.slug, rnd.number])).content.decode()
    assert 'id="live"' not in html


def test_the_cache_backend_is_the_configured_one() -> None:
    backend = settings.CACHES["default"]["BACKEND"]
    if os.environ.get("DAMIER_CACHE_URL"):
        assert backend.endswith("RedisCache")
        cache.set("damier:probe", 1)
        assert cache.get("damier:probe") == 1  # a real server answers
    else:
        assert backend.endswith("FileBasedCache")


# --- A real Redis server, whatever DAMIER_CACHE_URL says ---------------------------------------------------


@pytest.fixture(scope="module")
def redis_url() -> Iterator[str]:
    """A throwaway redis-server on 127.0.0.1 (Debian's), or a clean skip when it is not installed."""
    import shutil
    import socket
    import subprocess

    exe = shutil.which("redis-server")
    if exe is None:
        pytest.skip("redis-server not installed (apt-get install redis-server)")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([exe, "--bind", "127.0.0.1", "--port", str(port), "--save", "", "--appendonly", "no"],
                            stdout=subprocess.DEVNULL)
    try:
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.05)
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_with_redis_the_next_read_shows_the_write_and_private_pages_stay_out(
        published_round: Any, redis_url: str, settings: Any) -> None:
    # Redis alone, without each process's memory of its pages: the two readers share nothing else.
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": redis_url}}
    cache.clear()
    t, rnd, arbiter_client = published_round
    anon, other_server = Client(), Client()  # two readers; the cache is the only thing they share
    url = reverse("tournaments:round", args=[t.slug, rnd.number])
    first = get(anon, url)
    assert first["X-Damier-Cache"] == "miss"
    assert get(other_server, url)["X-Damier-Cache"] == "hit"
    assert get(other_server, url, if_none_match=first["ETag"]).status_code == 304
    game = rnd.games.filter(black__isnull=False).order_by("board").first()
    services.game_record_result(game=game, result="0-2")
    fresh = get(other_server, url, if_none_match=first["ETag"])
    assert fresh.status_code == 200 and "0-2" in fresh.content.decode()
    assert "X-Damier-Cache" not in get(arbiter_client, url)
    assert get(anon, url)["X-Damier-Cache"] == "hit"  # the page other_server stored, not the arbiter's
