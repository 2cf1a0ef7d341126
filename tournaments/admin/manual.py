"""The arbiter's manual inside the admin: the Markdown chapters of docs/manual, rendered for staff.

The chapters are files `NN-slug.md` (NN gives the order, the first `# ` line the title); the same files
are the manual readers find in the repository, so their links to each other are `NN-slug.md` and are
turned into admin addresses here. Rendering is markdown-it-py in its CommonMark mode with raw HTML
switched off: any HTML in a chapter is shown as text, and its link check refuses javascript:, vbscript:,
file: and data: addresses. The chapters are the project's own files, but a page that marks HTML as safe
must not depend on every future edit of a Markdown file being careful.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib import admin
from django.http import Http404, HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from markdown_it import MarkdownIt

MANUAL_DIR = Path(settings.BASE_DIR) / "docs" / "manual"
_FILE = re.compile(r"^(\d\d)-([a-z0-9-]+)\.md$")
# Notes for whoever maintains the manual (e.g. `<!-- pending: branch results -->`): not for the reader.
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)

# The admin page an arbiter is on (its URL name) -> the chapter that explains it. Pages not listed
# open the manual's contents. Prefixes keep add/change/changelist/history of one model together.
PAGE_CHAPTERS: tuple[tuple[str, str], ...] = (
    ("tournaments_tournament_control", "pairing"),
    ("tournaments_tournament_step", "pairing"),
    ("tournaments_tournament_schedule", "getting-started"),
    ("tournaments_tournament_checkin", "hall"),
    ("tournaments_tournament_standings", "tiebreaks"),
    ("tournaments_tournament_import_trf", "trf"),
    ("tournaments_tournament_enter_players", "register-and-rating-lists"),
    ("tournaments_tournament_rating_preview", "register-and-rating-lists"),
    ("tournaments_tournament_numbers", "players"),
    ("tournaments_tournament_team_round", "team-competitions"),
    ("tournaments_tournament", "getting-started"),
    ("tournaments_round_codes", "results-from-the-boards"),
    ("tournaments_round_confirm_agreed", "results-from-the-boards"),
    ("tournaments_round_sheets", "game-sheets"),
    ("tournaments_round_pdn", "game-sheets"),
    ("tournaments_round", "pairing"),
    ("tournaments_game_sheet", "game-sheets"),
    ("tournaments_game", "results"),
    ("tournaments_entry", "withdrawals"),
    ("tournaments_player_merge", "register-and-rating-lists"),
    ("tournaments_playermerge", "register-and-rating-lists"),
    ("tournaments_ratinglist", "register-and-rating-lists"),
    ("tournaments_player", "players"),
    ("tournaments_forbiddenpair", "byes"),
    ("tournaments_conformanceevent", "conformance"),
    ("tournaments_teamcompetition", "team-competitions"),
    ("tournaments_team", "team-competitions"),
    ("tournaments_rostermember", "team-competitions"),
    ("tournaments_hallscreen", "hall"),
)


@dataclass(frozen=True)
class Chapter:
    number: int
    slug: str
    title: str
    path: Path

    @property
    def url(self) -> str:
        return reverse("manual_chapter", args=[self.slug])


def chapters() -> list[Chapter]:
    """The chapters in their order; a file without a `# ` title is named by its slug."""
    found = []
    for path in sorted(MANUAL_DIR.glob("*.md")):
        match = _FILE.match(path.name)
        if not match:
            continue  # README.md: the repository's contents page, not a chapter
        title = next((line[2:].strip() for line in path.read_text(encoding="utf-8").splitlines()
                      if line.startswith("# ")), match.group(2))
        found.append(Chapter(int(match.group(1)), match.group(2), title, path))
    return found


def chapter_for_page(url_name: str | None) -> str | None:
    """The slug of the chapter for an admin page, or None (the contents)."""
    if not url_name:
        return None
    return next((slug for prefix, slug in PAGE_CHAPTERS if url_name.startswith(prefix)), None)


def manual_url_for_page(url_name: str | None) -> str:
    """The link every admin page carries; no file is read for it (tests check each mapped chapter exists)."""
    slug = chapter_for_page(url_name)
    return reverse("manual_chapter", args=[slug]) if slug else reverse("manual")


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    slugs = {f"{c.number:02d}-{c.slug}.md": c.slug for c in chapters()}

    def link_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        # `03-tiebreaks.md#byes` in the repository is /admin/manual/tiebreaks/#byes here.
        href = tokens[idx].attrGet("href") or ""
        target, _sep, anchor = href.partition("#")
        if target in slugs:
            url = reverse("manual_chapter", args=[slugs[target]])
            tokens[idx].attrSet("href", url + (f"#{anchor}" if anchor else ""))
        return str(renderer.renderToken(tokens, idx, options, env))

    def table_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        # A wide table scrolls inside its own box on a phone; the box takes the focus so a keyboard can scroll it.
        label = _numbered(env, "table", _("Table"))
        return (f'<div class="dm-manual-table" tabindex="0" role="region" aria-label="{label}">'
                + renderer.renderToken(tokens, idx, options, env))

    def table_close(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        return renderer.renderToken(tokens, idx, options, env) + "</div>"

    def scrolling_code(rule: str) -> Any:
        # A long line of an example scrolls inside its own box on a phone; the box takes the focus, as a table's.
        default = md.renderer.rules[rule]

        def render(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
            label = _numbered(env, "example", _("Example"))
            return (f'<div class="dm-manual-code" tabindex="0" role="region" aria-label="{label}">'
                    + default(tokens, idx, options, env) + "</div>")
        return render

    def heading_open(renderer: Any, tokens: Any, idx: int, options: Any, env: Any) -> str:
        # Headings get an id from their words, so a chapter's contents and other chapters can link to them.
        words = tokens[idx + 1].content if idx + 1 < len(tokens) else ""
        tokens[idx].attrSet("id", anchor_of(words))
        return renderer.renderToken(tokens, idx, options, env)

    # Each rule is bound to the renderer (markdown-it-py calls it with the renderer first).
    md.add_render_rule("link_open", link_open)
    md.add_render_rule("table_open", table_open)
    md.add_render_rule("table_close", table_close)
    md.add_render_rule("heading_open", heading_open)
    for rule in ("fence", "code_block"):
        md.add_render_rule(rule, scrolling_code(rule))
    return md


def _numbered(env: dict[str, int], kind: str, word: str) -> str:
    # Each scrolling box is a landmark; landmarks of one page need names of their own ("Table 1", "Table 2").
    env[kind] = env.get(kind, 0) + 1
    return f"{word} {env[kind]}"


def anchor_of(words: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"\s", "-", re.sub(r"[^\w\s-]", "", words.strip().lower()))


@functools.lru_cache(maxsize=64)
def _render(path: Path, mtime: float, language: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The chapter's HTML and its sections (anchor, heading); cached until the file changes.

    The language is part of the key: the boxes' names are in the reader's language.
    """
    source = _COMMENT.sub("", path.read_text(encoding="utf-8"))
    md = _markdown()
    tokens = md.parse(source)
    sections = tuple((anchor_of(tokens[i + 1].content), tokens[i + 1].content)
                     for i, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h2")
    # The first `# ` line is the page's title, shown by the admin's own <h1>.
    body = md.renderer.render(tokens, md.options, {})
    body = re.sub(r"^<h1[^>]*>.*?</h1>\n?", "", body, count=1, flags=re.DOTALL)
    return body, sections


def render(chapter: Chapter) -> tuple[SafeString, tuple[tuple[str, str], ...]]:
    body, sections = _render(chapter.path, chapter.path.stat().st_mtime, get_language() or "")
    # Safe: markdown-it escaped every character of the source that is not Markdown (raw HTML is off).
    return mark_safe(body), sections  # noqa: S308


def index(request: HttpRequest) -> HttpResponse:
    context = {**admin.site.each_context(request), "title": _("Arbiter's manual"), "chapters": chapters()}
    return TemplateResponse(request, "admin/manual/index.html", context)


def chapter(request: HttpRequest, slug: str) -> HttpResponse:
    all_chapters = chapters()
    position = next((i for i, c in enumerate(all_chapters) if c.slug == slug), None)
    if position is None:
        raise Http404(_("No chapter of the manual is called “%(slug)s”.") % {"slug": slug})
    current = all_chapters[position]
    body, sections = render(current)
    context = {
        **admin.site.each_context(request),
        "title": current.title,
        "chapter": current,
        "body": body,
        "sections": sections,
        "previous": all_chapters[position - 1] if position > 0 else None,
        "next": all_chapters[position + 1] if position + 1 < len(all_chapters) else None,
    }
    return TemplateResponse(request, "admin/manual/chapter.html", context)
