"""The arbiter's manual in the admin: every chapter renders, every admin page links to it, and a chapter
that does not exist is a 404."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tournaments.admin import manual
from tournaments.models import Game, System
from tournaments.rounds import services

MANUAL_LINK = re.compile(r'<a href="(/admin/manual/[^"]*)" class="dm-manual-link">Manual</a>')

# The manual's chapters; a renamed file must keep its slug, or the links of the admin break.
REQUIRED = {"getting-started", "players", "tiebreaks", "byes", "pairing", "manual-pairing", "results",
            "withdrawals", "corrections", "conformance", "printing", "trf", "game-sheets",
            "register-and-rating-lists", "results-from-the-boards", "team-competitions", "hall"}


@pytest.fixture
def staff_client(arbiter) -> Client:  # type: ignore[no-untyped-def]
    c = Client()
    c.force_login(arbiter)
    return c


def test_the_chapters_asked_for_are_there_in_order() -> None:
    chapters = manual.chapters()
    assert REQUIRED <= {c.slug for c in chapters}
    assert [c.number for c in chapters] == sorted(c.number for c in chapters)
    assert len({c.number for c in chapters}) == len(chapters)


def test_every_chapter_renders(staff_client) -> None:  # type: ignore[no-untyped-def]
    index = staff_client.get(reverse("manual"))
    assert index.status_code == 200
    for chapter in manual.chapters():
        assert chapter.url in index.content.decode(), chapter.slug
        page = staff_client.get(chapter.url)
        assert page.status_code == 200, chapter.slug
        html = page.content.decode()
        assert f"<h1>{chapter.title}</h1>" in html.replace("&#x27;", "'")
        assert "<article>" in html and "<h2" in html, chapter.slug
        # Notes for maintainers never reach the reader, and no chapter links to a file the admin lacks.
        assert "pending:" not in html and "&lt;!--" not in html, chapter.slug
        assert not re.search(r'href="\d\d-[a-z-]+\.md', html), chapter.slug


def test_links_between_chapters_point_inside_the_admin(staff_client) -> None:  # type: ignore[no-untyped-def]
    html = staff_client.get(reverse("manual_chapter", args=["getting-started"])).content.decode()
    assert f'href="{reverse("manual_chapter", args=["tiebreaks"])}"' in html
    assert 'rel="next"' in html and reverse("manual_chapter", args=["players"]) in html


def test_a_missing_chapter_is_a_404(staff_client) -> None:  # type: ignore[no-untyped-def]
    assert staff_client.get("/admin/manual/no-such-chapter/").status_code == 404
    assert staff_client.get("/admin/manual/README/").status_code == 404


def test_the_manual_is_for_staff_only(db) -> None:  # type: ignore[no-untyped-def]
    anonymous = Client().get(reverse("manual_chapter", args=["pairing"]))
    assert anonymous.status_code == 302 and "/admin/login/" in anonymous["Location"]
    player = get_user_model().objects.create_user("visitor", password="pw-visitor-123")
    c = Client()
    c.force_login(player)
    assert c.get(reverse("manual")).status_code == 302


def test_html_in_a_chapter_is_shown_as_text_and_bad_links_are_not_links(tmp_path, monkeypatch) -> None:
    """The renderer escapes raw HTML and refuses javascript: links whatever a chapter says."""
    monkeypatch.setattr(manual, "MANUAL_DIR", tmp_path)
    (tmp_path / "01-test.md").write_text("# Test\n\n<script>alert(1)</script>\n\n[click](javascript:alert(1))\n\n"
                                         "<!-- pending: a note -->\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    chapter = manual.chapters()[0]
    body, _sections = manual.render(chapter)
    assert "<script>" not in body and "&lt;script&gt;" in body
    assert "javascript:" not in body.split("click")[0] and 'href="javascript' not in body
    assert "a note" not in body
    assert 'role="region"' in body and "<table>" in body


def test_wide_tables_and_examples_scroll_in_named_boxes_a_keyboard_can_reach(tmp_path, monkeypatch) -> None:
    """A phone scrolls a long example line inside its box: axe-core asks that box to take the focus, and
    each box, a landmark, to have a name of its own, in the reader's language."""
    from django.utils import translation

    monkeypatch.setattr(manual, "MANUAL_DIR", tmp_path)
    (tmp_path / "01-test.md").write_text("# Test\n\n| a |\n|---|\n| 1 |\n\n| b |\n|---|\n| 2 |\n\n"
                                         "    ### conformance mode left @ Round 3\n\n```\nfenced\n```\n")
    chapter = manual.chapters()[0]
    with translation.override("en"):
        body, _sections = manual.render(chapter)
    labels = re.findall(r'<div class="dm-manual-(?:table|code)" tabindex="0" role="region" aria-label="([^"]+)">',
                        body)
    assert labels == ["Table 1", "Table 2", "Example 1", "Example 2"]
    assert body.count("<pre>") == 2
    with translation.override("fr"):
        french, _sections = manual.render(chapter)
    assert 'aria-label="Tableau 2"' in french and 'aria-label="Exemple 1"' in french


def _links(client: Client, url: str) -> list[str]:
    page = client.get(url)
    assert page.status_code == 200, (url, page.status_code)
    return MANUAL_LINK.findall(page.content.decode())


def test_every_admin_page_links_to_the_manual_at_its_chapter(staff_client, make_tournament) -> None:  # type: ignore[no-untyped-def]
    t = make_tournament(4, system=System.SWISS, slug="sw", rounds_total=3)
    rnd = services.round_pair(tournament=t)
    game = Game.objects.filter(round=rnd).first()
    entry = t.entries.first()
    chapter = lambda slug: reverse("manual_chapter", args=[slug])  # noqa: E731
    pages = {
        reverse("admin:index"): reverse("manual"),
        reverse("admin:tournaments_tournament_changelist"): chapter("getting-started"),
        reverse("admin:tournaments_tournament_add"): chapter("getting-started"),
        reverse("admin:tournaments_tournament_change", args=[t.pk]): chapter("getting-started"),
        reverse("admin:tournaments_tournament_control", args=[t.pk]): chapter("pairing"),
        reverse("admin:tournaments_tournament_standings", args=[t.pk]): chapter("tiebreaks"),
        reverse("admin:tournaments_round_changelist"): chapter("pairing"),
        reverse("admin:tournaments_round_change", args=[rnd.pk]): chapter("pairing"),  # a draft
        reverse("admin:tournaments_game_changelist"): chapter("results"),
        reverse("admin:tournaments_game_change", args=[game.pk]): chapter("results"),
        reverse("admin:tournaments_entry_changelist"): chapter("withdrawals"),
        reverse("admin:tournaments_entry_change", args=[entry.pk]): chapter("withdrawals"),
        reverse("admin:tournaments_player_changelist"): chapter("players"),
        reverse("admin:tournaments_player_change", args=[entry.player_id]): chapter("players"),
        reverse("admin:tournaments_player_import"): chapter("players"),
        reverse("admin:tournaments_player_merge", args=[entry.player_id, t.entries.last().player_id]):
            chapter("register-and-rating-lists"),
        reverse("admin:tournaments_playermerge_changelist"): chapter("register-and-rating-lists"),
        reverse("admin:tournaments_ratinglist_changelist"): chapter("register-and-rating-lists"),
        reverse("admin:tournaments_ratinglist_import"): chapter("register-and-rating-lists"),
        reverse("admin:tournaments_tournament_enter_players", args=[t.pk]): chapter("register-and-rating-lists"),
        reverse("admin:tournaments_tournament_rating_preview", args=[t.pk]): chapter("register-and-rating-lists"),
        reverse("admin:tournaments_round_codes", args=[rnd.pk]): chapter("results-from-the-boards"),
        reverse("admin:password_change"): reverse("manual"),
        reverse("manual"): reverse("manual"),
        chapter("byes"): reverse("manual"),
    }
    for url, expected in pages.items():
        assert _links(staff_client, url) == [expected], url
    services.round_publish(round=rnd)  # the same page taking results: the results chapter
    assert _links(staff_client, reverse("admin:tournaments_round_change", args=[rnd.pk])) == [chapter("results")]


def test_every_registered_changelist_has_the_link(staff_client, django_user_model) -> None:  # type: ignore[no-untyped-def]
    """Whatever model the admin shows, its list carries the link (a superuser sees them all)."""
    from django.contrib import admin

    boss = django_user_model.objects.create_superuser("boss", password="pw-boss-123")
    c = Client()
    c.force_login(boss)
    for model in admin.site._registry:
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert len(_links(c, url)) == 1, url


def test_each_mapped_chapter_exists() -> None:
    slugs = {c.slug for c in manual.chapters()}
    assert {slug for _prefix, slug in manual.PAGE_CHAPTERS} <= slugs
    assert manual.chapter_for_page("tournaments_round_sheets") == "game-sheets"
    assert manual.chapter_for_page("tournaments_round_change") == "pairing"
    assert manual.chapter_for_page(None) is None


def test_every_tie_break_and_rating_tie_break_setting_is_described() -> None:
    """VCL4THP Q11 (a complete manual): the tie-break chapter names every tie-break of the registry and every
    field of the tournament's and the entry's forms that changes how one counts, by the label the arbiter
    sees, with each choice of how unrated players count."""
    from django.utils import translation

    from tournaments.admin.longevents import RATING_FIELDS
    from tournaments.models import Entry, EntryRating, Tournament, UnratedMethod
    from tournaments.standings import TIEBREAKS
    from tournaments.words import tiebreak_label

    text = " ".join(next(c for c in manual.chapters() if c.slug == "tiebreaks").path.read_text(
        encoding="utf-8").split())
    with translation.override("en"):
        labels = [str(tiebreak_label(name)) for name in TIEBREAKS]
        labels += [str(Tournament._meta.get_field(name).verbose_name) for name in RATING_FIELDS]
        labels += [str(Entry._meta.get_field("external_tiebreak").verbose_name),
                   str(EntryRating._meta.verbose_name_plural).split(" (")[0]]
        labels += [str(label) for _value, label in UnratedMethod.choices]
    missing = [label for label in labels if label.lower() not in text.lower()]
    assert not missing, missing


def test_a_team_competitions_pages_open_its_chapter() -> None:
    for name in ("tournaments_teamcompetition_teams", "tournaments_teamcompetition_team",
                 "tournaments_teamcompetition_add", "tournaments_tournament_team_round",
                 "tournaments_tournament_team_round_next"):
        assert manual.chapter_for_page(name) == "team-competitions", name
