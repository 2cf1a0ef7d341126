"""Public pages, PDFs and PDN exports served from Django's cache and answered with 304 when unchanged.

Applied in tournaments/web/urls.py around the unchanged views. Every answer is keyed on the tournament's
cache version (tournaments/web/cache_version.py: moved by the database in the same transaction as any write
a page shows), the language, the page and its query, so a reader never gets a page older than the last
saved result: the version is read on every request (one indexed query) and a new version is a new key.

Never shared:
- anything for a signed-in user (arbiters may see drafts): rendered fresh, `Cache-Control: private,
  no-store`, never stored;
- a tournament that is not public, a missing page or a draft round: the view answers (404) and nothing
  is stored, since only a 200 for a tournament that is public at the time of the request is kept;
- a response that sets a cookie, or a page with a query parameter the view does not read.
A page is stored only when the version did not move while it was rendered, so a stored page is exactly
the state its key names (the render's queries cannot mix two versions).
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import logging
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.db.models import Count, Max, Sum
from django.http import HttpRequest, HttpResponse
from django.middleware.gzip import GZipMiddleware, re_accepts_gzip
from django.utils import timezone
from django.utils.cache import (
    add_never_cache_headers,
    get_conditional_response,
    patch_cache_control,
    patch_vary_headers,
)
from django.utils.dateparse import parse_datetime
from django.utils.http import http_date
from django.utils.text import compress_string
from django.utils.translation import get_language

from tournaments.models import Tournament

View = Callable[..., HttpResponse]
KEPT_HEADERS = ("Content-Type", "Content-Disposition")
# Pages are keyed by version, so an old one is never served; this only frees the memory of old versions.
TIMEOUT = 24 * 3600
# Longest wait for a page another request is rendering; the slowest page (a 200-player crosstable PDF)
# renders in about a second on a loaded server.
RENDER_WAIT = 5.0


@dataclass(frozen=True)
class Stamp:
    """What identifies one state of the data a page shows."""

    scope: str  # "t<id>" or "site"
    version: str
    changed_at: datetime.datetime | None


def tournament_stamp(slug: str) -> Stamp | None:
    """The public tournament's version, or None (not public, or no such tournament).

    Asked on every request, so one plain indexed SELECT: building it through the ORM cost more than
    the rest of a cache hit."""
    with connection.cursor() as cursor:
        cursor.execute(_STAMP_SQL, [slug, True])
        row = cursor.fetchone()
    if row is None:
        return None
    pk, version, changed_at = row
    if isinstance(changed_at, str):  # SQLite hands back the stored text
        changed_at = parse_datetime(changed_at)
    if changed_at is not None and timezone.is_naive(changed_at):
        changed_at = changed_at.replace(tzinfo=datetime.UTC)
    # The time too: a database recreated from scratch (tests, the demo) restarts the counters.
    stamp_time = changed_at.timestamp() if changed_at is not None else 0.0
    return Stamp(f"t{pk}", f"{version}.{stamp_time:.6f}", changed_at)


def skip_health_check() -> None:
    """Skip the `SELECT 1` that CONN_HEALTH_CHECKS sends before a request's first query: here that query
    is the page's only one, so checking first would double the crowd's database round trips. A dead
    connection shows as a DatabaseError on the query itself, and the caller then closes it and hands the
    request to the full stack, which connects anew. Every other request keeps the check."""
    if connection.connection is not None:
        connection.health_check_done = True  # type: ignore[attr-defined]


_T = Tournament._meta
_STAMP_SQL = (f"SELECT {_T.pk.column}, cache_version, cache_changed_at FROM {_T.db_table} "  # type: ignore[union-attr]
              f"WHERE {_T.get_field('slug').column} = %s AND {_T.get_field('public').column} = %s")


def site_stamp() -> Stamp:
    """The tournament list: any tournament's change, a new or a deleted one, and the day (ongoing/upcoming).

    Its time never goes backwards: deleting the tournament changed last would bring the newest
    `cache_changed_at` back to an older one, and a reader asking "changed since?" with the newer date would
    be told "no" about a list that lost a line. So it is the latest of the tournaments' changes, of the
    tournaments' history (a deletion is recorded there, by the admin's pages and actions alike), and of the
    day's start (the list moves tournaments between ongoing and upcoming at midnight)."""
    agg = Tournament.objects.aggregate(n=Count("pk"), v=Sum("cache_version"), at=Max("cache_changed_at"),
                                       top=Max("pk"))
    recorded = Tournament.history.aggregate(at=Max("history_date"))["at"]
    today = timezone.localdate()
    midnight = timezone.make_aware(datetime.datetime.combine(today, datetime.time()))
    at = max(moment for moment in (agg["at"], recorded, midnight) if moment is not None)
    version = f"{agg['n']}.{agg['v'] or 0}.{agg['top'] or 0}.{at.timestamp():.6f}.{today.isoformat()}"
    return Stamp("site", version, at)


@functools.cache
def build() -> str:
    """The code and templates that render the pages, as a digest of their contents (equal on every server
    of a deploy, whatever the files' dates): pages of the previous deploy are never served by the next."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(settings.BASE_DIR)
    for folder, pattern in (("templates", "**/*.html"), ("tournaments", "**/*.py"), ("rules", "**/*.py"),
                            ("locale", "**/*.mo")):
        for path in sorted((root / folder).glob(pattern)):
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


def _private(request: HttpRequest) -> bool:
    # Lazy: with no session cookie this costs no query.
    return bool(getattr(request, "user", None) and request.user.is_authenticated)


def page_cache_enabled() -> bool:
    return bool(getattr(settings, "DAMIER_PAGE_CACHE", True))


def _cache() -> Any:
    return caches[getattr(settings, "DAMIER_PAGE_CACHE_ALIAS", "default")]


LOCAL = "pages-local"
log = logging.getLogger(__name__)
# After the shared cache failed, it is left alone this long before it is asked again: a Redis that is down
# or unreachable would otherwise cost every request a refused connection or a timeout.
RETRY_AFTER = 5.0


class _SharedCache:
    """The shared cache (Redis, or files) as the pages use it: a speed-up, never a condition. Any error of
    it counts as a miss (the page is rendered and served), is logged once when the cache goes away and once
    when it answers again, and keeps the cache unasked for RETRY_AFTER seconds."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._down_until: float | None = None

    def call(self, what: str, default: Any, *args: Any) -> Any:
        down_until = self._down_until
        if down_until is not None and time.monotonic() < down_until:
            return default
        try:
            value = getattr(_cache(), what)(*args)
        except Exception as exc:  # noqa: BLE001 - whatever the backend raises (ConnectionError, OSError, timeouts)
            with self._lock:
                first = self._down_until is None
                self._down_until = time.monotonic() + RETRY_AFTER
            if first:
                log.error("The page cache does not answer (%s: %s): pages are rendered for every reader until "
                          "it does.", type(exc).__name__, exc)
            return default
        if down_until is not None:
            with self._lock:
                back, self._down_until = self._down_until is not None, None
            if back:
                log.warning("The page cache answers again.")
        return value

    def forget(self) -> None:
        """Ask the cache again at once (a cache brought back by hand, or the next test of a suite)."""
        with self._lock:
            self._down_until = None


shared = _SharedCache()


def cache_get(key: str) -> Any:
    return shared.call("get", None, key)


def cache_set(key: str, value: Any, timeout: float = TIMEOUT) -> None:
    shared.call("set", None, key, value, timeout)


def _stored(key: str) -> Stored | None:
    """The stored page: from this process's memory when it served it lately (settings: "pages-local"; the key
    names the version, so the copy is exact), else from the shared cache, then kept in memory too."""
    local = caches[LOCAL] if LOCAL in settings.CACHES else None
    stored = local.get(key) if local is not None else None
    if stored is None:
        stored = cache_get(key)
        if stored is not None and local is not None:
            local.set(key, stored)
    return stored


def _store(key: str, stored: Stored) -> None:
    cache_set(key, stored, TIMEOUT)
    if LOCAL in settings.CACHES:
        caches[LOCAL].set(key, stored)


def _query_key(request: HttpRequest, params: Iterable[str]) -> str | None:
    """The page's query in a canonical form, or None if it holds anything the view does not read
    (such a request is answered but not stored: random parameters must not fill the cache)."""
    # `lang` (a shared link's language, set by tournaments.web.language before this runs) is part of the key
    # through the active language; keeping it in the query keeps the stored page one per link.
    allowed = set(params) | {"lang"}
    if any(name not in allowed for name in request.GET):
        return None
    return "&".join(f"{k}={v}" for k in sorted(request.GET) for v in request.GET.getlist(k))


def _page(request: HttpRequest, query: str | None) -> str:
    """The page a request asks for: its path and query (canonical when the view reads all of it)."""
    return f"{request.path}?{request.META.get('QUERY_STRING', '') if query is None else query}"


def _etag(stamp: Stamp, language: str, page: str) -> str:
    """The page's own tag: two pages of one tournament never share one, so a tag cannot be answered with a
    304 for another page (a missing one included)."""
    digest = hashlib.blake2b(f"{build()}|{stamp.scope}|{stamp.version}|{language}|{page}".encode(),
                             digest_size=12).hexdigest()
    return f'W/"{digest}"'


def _not_modified(request: HttpRequest, etag: str, stamp: Stamp) -> HttpResponse | None:
    response = get_conditional_response(request, etag=etag, last_modified=last_modified(stamp))
    if response is not None:
        _public_headers(response, etag, stamp)
    return response


def last_modified(stamp: Stamp) -> int | None:
    """Whole seconds, as HTTP has them, and only once that second is over: two saves within one second
    would otherwise share a Last-Modified, and a cache asking with If-Modified-Since alone would get a
    304 for the older page. While the second lasts the ETag alone identifies the page."""
    if stamp.changed_at is None:
        return None
    seconds = int(stamp.changed_at.timestamp())
    # One second more for the clocks of the database and the application servers to differ.
    return seconds if time.time() >= seconds + 2 else None


def _public_headers(response: HttpResponse, etag: str, stamp: Stamp) -> None:
    response.headers["ETag"] = etag
    seconds = last_modified(stamp)
    if seconds is not None:
        response.headers["Last-Modified"] = http_date(seconds)
    # no-cache: a browser, proxy or CDN may keep the page but asks again each time (a 304 when unchanged),
    # so nobody is shown a page older than the last saved result. DAMIER_CDN_SECONDS > 0 lets a shared
    # cache serve that many seconds without asking, a federation's trade of freshness for load.
    cdn = int(getattr(settings, "DAMIER_CDN_SECONDS", 0))
    if cdn > 0:
        patch_cache_control(response, public=True, max_age=0, s_maxage=cdn, must_revalidate=True)
    else:
        patch_cache_control(response, public=True, no_cache=True)
    # The language comes from the Accept-Language header or the django_language cookie.
    patch_vary_headers(response, ("Accept-Language", "Cookie"))


Stored = tuple[int, bytes, list[tuple[str, str]], bytes | None]  # status, body, headers, gzipped body


def _pack(response: HttpResponse) -> Stored:
    """The page, and its gzipped body once and for all: compressing it again for every phone of the crowd
    (PublicGZipMiddleware) costs more than serving it. None when gzip would not make it shorter."""
    content = response.content
    gzipped = None
    if len(content) >= 200:
        gzipped = compress_string(content, max_random_bytes=GZipMiddleware.max_random_bytes)
        if len(gzipped) >= len(content):
            gzipped = None
    return response.status_code, content, [(h, response[h]) for h in KEPT_HEADERS if h in response], gzipped


def _unpack(stored: Stored, request: HttpRequest) -> HttpResponse:
    status, content, headers, gzipped = stored
    accepts_gzip = gzipped is not None and re_accepts_gzip.search(request.META.get("HTTP_ACCEPT_ENCODING", ""))
    response = HttpResponse(gzipped if accepts_gzip else content, status=status)
    for name, value in headers:
        response[name] = value
    if len(content) >= 200:
        # As PublicGZipMiddleware marks every page it could compress, which skips one already encoded.
        patch_vary_headers(response, ("Accept-Encoding",))
    if accepts_gzip:
        response.headers["Content-Encoding"] = "gzip"
        response.headers["Content-Length"] = str(len(response.content))
    return response


@dataclass
class _Lookup:
    """What a request for a public page found before any view ran."""

    stamp: Stamp
    etag: str
    key: str | None  # where the page is stored, None when it must not be (unknown query, cache off)
    answer: HttpResponse | None  # a 304 or the stored page; None: the view must render it


def look_up(request: HttpRequest, slug: str | None, params: tuple[str, ...], scope: str) -> _Lookup | None:
    """For an anonymous reader in the active language; None when the page is not public (or absent).

    A 304 is answered here only for a page stored for this version, so one that exists: whether a page
    exists (a round, a player, a game of the tournament) is the view's to say, and a request for a missing
    one must get its 404 whatever tag or date it sends. Otherwise the view renders it, then the condition
    is checked (cached_public)."""
    stamp = site_stamp() if scope == "site" else tournament_stamp(slug or "")
    if stamp is None:
        return None
    language = get_language() or settings.LANGUAGE_CODE
    query = _query_key(request, params)
    page = _page(request, query)
    etag = _etag(stamp, language, page)
    if not page_cache_enabled() or query is None:
        return _Lookup(stamp, etag, None, None)
    digest = hashlib.blake2b(page.encode(), digest_size=16).hexdigest()
    key = f"damier:page:{build()}:{stamp.scope}:{stamp.version}:{language}:{digest}"
    stored = _stored(key)
    if stored is None:
        return _Lookup(stamp, etag, key, None)
    answer = _not_modified(request, etag, stamp) or _hit(stored, request, etag, stamp)
    return _Lookup(stamp, etag, key, answer)


def _hit(stored: Stored, request: HttpRequest, etag: str, stamp: Stamp) -> HttpResponse:
    response = _unpack(stored, request)
    _public_headers(response, etag, stamp)
    response.headers["X-Damier-Cache"] = "hit"
    return response


def _claim_render(key: str | None) -> bool | None:
    """After a save the whole crowd misses the same page at once; one request renders it while the others
    wait for it (a 200-player crosstable rendered fifty times over would stall every server).
    True: this request renders it; False: another does; None: not stored at all."""
    if key is None:
        return None
    # A cache that does not answer: no other request can be waited for, so this one renders.
    return bool(shared.call("add", True, f"{key}:rendering", 1, RENDER_WAIT))


def _wait_for(found: _Lookup, request: HttpRequest) -> HttpResponse | None:
    """The page another request is rendering, once stored; None when that render ended without storing it
    (an error, or the version moved on meanwhile) or after RENDER_WAIT seconds: this request renders it."""
    deadline = time.monotonic() + RENDER_WAIT
    while time.monotonic() < deadline:
        time.sleep(0.02)
        stored = _stored(found.key)
        if stored is not None:
            return _not_modified(request, found.etag, found.stamp) or _hit(stored, request, found.etag, found.stamp)
        if not shared.call("has_key", False, f"{found.key}:rendering"):
            return None
    return None


def _never_kept(view: View) -> View:
    """No browser or proxy keeps the page either: reopened, it is rendered anew with the time of now. Its
    script asks with the tag it holds (If-None-Match), and gets a 304 while nothing changed."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        response.headers["Cache-Control"] = "no-store"
        return response

    return wrapper


def cached_public(view: View, *, params: Iterable[str] = (), scope: str = "tournament", store: bool = True) -> View:
    """Wrap a public view (GET by slug, or the site-wide list with scope="site"). store=False: a page that
    holds the time of its render (a hall screen's clock) is rendered for every request, never kept, and
    still answered with a 304 while the tournament's version is the reader's."""
    params = tuple(params)

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return view(request, *args, **kwargs)
        if _private(request):
            response = view(request, *args, **kwargs)
            add_never_cache_headers(response)
            return response
        found = getattr(request, "damier_lookup", None) or look_up(request, kwargs.get("slug"), params, scope)
        if found is not None and not store:
            found = _Lookup(found.stamp, found.etag, None, None)
        if found is None:
            # Not public (or absent): the view says so; nothing is stored or marked shareable.
            response = view(request, *args, **kwargs)
            add_never_cache_headers(response)
            return response
        if found.answer is not None:
            return found.answer
        if not store:
            # Whether the reader's copy is this version's, for the view to answer once it knows the page
            # exists, before rendering it (a hall screen asks every few seconds).
            stamp, etag = found.stamp, found.etag
            request.damier_not_modified = lambda: _not_modified(request, etag, stamp)  # type: ignore[attr-defined]
        rendering = _claim_render(found.key)
        if rendering is False:
            waited = _wait_for(found, request)
            if waited is not None:
                return waited
        try:
            response = view(request, *args, **kwargs)
            if response.status_code != 200 or response.cookies or response.streaming:
                add_never_cache_headers(response)
                return response
            if found.key is not None:
                again = site_stamp() if scope == "site" else tournament_stamp(kwargs["slug"])
                if again == found.stamp:
                    _store(found.key, _pack(response))
                    response.headers["X-Damier-Cache"] = "miss"
        finally:
            if rendering is True:
                shared.call("delete", None, f"{found.key}:rendering")
        # The page exists and the reader's copy is this version's: only now may he be told so.
        not_modified = _not_modified(request, found.etag, found.stamp)
        if not_modified is not None:
            return not_modified
        _public_headers(response, found.etag, found.stamp)
        return response

    # Read by StoredPageMiddleware (tournaments/web/stored_pages.py), which answers from the cache before
    # the session, authentication and form layers run.
    if not store:
        return transaction.non_atomic_requests(_never_kept(wrapper))
    wrapper.damier_public = (params, scope)  # type: ignore[attr-defined]
    # Reads only: no transaction round trips for the crowd (ATOMIC_REQUESTS is on for the admin's writes).
    return transaction.non_atomic_requests(wrapper)

