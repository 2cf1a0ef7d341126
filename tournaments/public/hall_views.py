"""A hall screen's page: full screen for a television or a projector, no site chrome, reached by its token.

The values come from tournaments.hall.screens; the words are made here, in the language of the link
(`?lang=fr`), else the tournament's print language (its hall's), else the reader's. The page carries the
server's time of the render, from which the round clock ticks in the browser (static/damier/hall.js):
so neither the page cache nor a browser keeps it, which would serve an old time (web/urls.py), but it
has the tournament's ETag, and the screen asks for it every few seconds with that tag and gets a 304
while nothing changed.
"""

from __future__ import annotations

import datetime
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from tournaments.hall import qr, screens
from tournaments.permissions import can_manage
from tournaments.public.notation import bye_words

MARK = "\x00"


def elapsed_text(seconds: float, *, seconds_too: bool = False) -> str:
    """'1:23' (hours and minutes), as a hall clock reads; '1:23:07' on the clock's own panel."""
    whole = max(0, int(seconds))
    minutes = whole // 60
    text = f"{minutes // 60}:{minutes % 60:02d}"
    return f"{text}:{whole % 60:02d}" if seconds_too else text


def clock_line(clock: screens.Clock | None, now: datetime.datetime) -> SafeString | str:
    """'Round 5 – started 14:02 – 1:23 elapsed', the elapsed part kept ticking by the page's script."""
    if clock is None:
        return ""
    text = _("Round %(n)s – started %(time)s – %(elapsed)s elapsed") % {
        "n": clock.round, "time": timezone.localtime(clock.started_at).strftime("%H:%M"), "elapsed": MARK}
    before, _mark, after = text.partition(MARK)
    return format_html('{}<span class="elapsed" data-format="hm">{}</span>{}', before,
                       elapsed_text((now - clock.started_at).total_seconds()), after)


def panel_title(panel: screens.Panel, view: screens.ScreenView) -> str:
    n = view.round.number if view.round is not None else 0
    screen = view.screen
    if panel.kind == "pairings":
        title = _("Round %(n)s – pairings") % {"n": n}
        if screen.boards_from is not None or screen.boards_to is not None:
            first = panel.boards[0].number if panel.boards else screen.boards_from
            last = panel.boards[-1].number if panel.boards else screen.boards_to
            title += " · " + _("boards %(first)s–%(last)s") % {"first": first, "last": last}
        return title
    if panel.kind == "find":
        return _("Round %(n)s – find your board") % {"n": n}
    if panel.kind == "standings":
        return _("Standings")
    if panel.kind == "clock":
        return _("Round %(n)s") % {"n": n}
    if panel.kind == "message":
        return _("Message")
    return view.tournament.name


def hall_screen(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    screen = screens.screen_by_token(slug, token)
    # A private tournament's screen shows only to its arbiters (a signed-in screen), as its other pages.
    if screen is None or not (screen.tournament.public or can_manage(request.user, screen.tournament)):
        raise Http404("No such screen.")
    # Unchanged since the screen's last look (tournaments.web.public_cache): a 304 without a render.
    unchanged = getattr(request, "damier_not_modified", None)
    answer = unchanged() if unchanged is not None else None
    if answer is not None:
        return answer
    language = None if request.GET.get("lang") else screen.tournament.pdf_language
    with translation.override(language or translation.get_language()):
        return _page(request, screen)


def _page(request: HttpRequest, screen: Any) -> HttpResponse:
    view = screens.screen_view(screen)
    tournament = view.tournament
    now = timezone.now()
    live = None
    if tournament.public:
        path = (reverse("tournaments:round", args=[tournament.slug, view.round.number]) if view.round is not None
                else reverse("tournaments:tournament", args=[tournament.slug]))
        live = qr.absolute(path, request)
    panels = [{"panel": p, "title": panel_title(p, view),
               "find": [[(line, bye_words(line.result, view.bye_points) if line.result is not None else "")
                         for line in column] for column in p.find]}
              for p in view.panels]
    return render(request, "tournaments/hall_screen.html", {
        "view": view, "screen": screen, "tournament": tournament, "panels": panels,
        "clock": view.clock, "clock_line": clock_line(view.clock, now), "now": now,
        "elapsed_hms": elapsed_text((now - view.clock.started_at).total_seconds(), seconds_too=True)
        if view.clock else "",
        "live_url": live, "live_display": live.split("://", 1)[-1] if live else "",
        "qr": qr.svg(live, label=_("QR code of the live results: %(url)s") % {"url": live}) if live else "",
        "row_vh": screens.row_text_vh(screen.lines_per_page),
        "milliseconds": screen.seconds_per_page * 1000,
    })
