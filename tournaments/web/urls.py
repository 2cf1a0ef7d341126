"""Public pages (no login) and the PDFs; `scoresheets_pdf`, `slips_pdf` and the report to the federation
(`report_file`, `report_pdf`) are for the tournament's arbiters only, and every PDF of a private tournament
too (tournaments.printing.views).

The public views are served through tournaments.web.public_cache (shared cache keyed on the tournament's
version, ETag/304); `params` names the query parameters a view reads (others are answered, not stored).
"""

from django.urls import path
from django.views.decorators.cache import never_cache

from tournaments.boards import views as boards
from tournaments.competitions import captain_views
from tournaments.competitions import pages as team_pages
from tournaments.competitions import prints as team_prints
from tournaments.federation import views as federation
from tournaments.printing import views as prints
from tournaments.public import before_round, hall_views, sheet_views, views
from tournaments.web import checkin
from tournaments.web.public_cache import cached_public as cached

app_name = "tournaments"

urlpatterns = [
    path("", cached(views.tournament_list, scope="site"), name="list"),
    path("tiebreaks/", cached(views.tiebreak_help, scope="site"), name="tiebreaks"),
    # A team competition's page is its overview: team standings and every round's matches.
    path("t/<slug:slug>/", cached(team_pages.tournament_page), name="tournament"),
    path("t/<slug:slug>/tiebreaks/", cached(views.tiebreak_help), name="tournament_tiebreaks"),
    path("t/<slug:slug>/standings/", cached(views.standings, params=["round"]), name="standings"),
    path("t/<slug:slug>/standings.pdf", cached(prints.standings_pdf, params=["round"]), name="standings_pdf"),
    path("t/<slug:slug>/crosstable/", cached(views.crosstable, params=["round"]), name="crosstable"),
    path("t/<slug:slug>/crosstable.pdf", cached(prints.crosstable_pdf, params=["round"]), name="crosstable_pdf"),
    path("t/<slug:slug>/rank-list/", cached(before_round.rank_list, params=["order"]), name="rank_list"),
    path("t/<slug:slug>/schedule/", cached(before_round.schedule), name="schedule"),
    path("t/<slug:slug>/round/<int:number>/", cached(views.round_detail), name="round"),
    path("t/<slug:slug>/round/<int:number>/pairings.pdf", cached(prints.pairings_pdf), name="pairings_pdf"),
    path("t/<slug:slug>/round/<int:number>/boards.pdf", cached(prints.boards_pdf), name="boards_pdf"),
    path("t/<slug:slug>/round/<int:number>/scoresheets.pdf", never_cache(prints.scoresheets_pdf),
         name="scoresheets_pdf"),
    path("t/<slug:slug>/round/<int:number>/slips.pdf", never_cache(prints.slips_pdf), name="slips_pdf"),
    path("t/<slug:slug>/starting-list.pdf", cached(prints.starting_list_pdf, params=["order"]),
         name="starting_list_pdf"),
    path("t/<slug:slug>/schedule.pdf", cached(prints.schedule_pdf), name="schedule_pdf"),
    # the report to the federation: arbiters only, never cached (tournaments.federation.views)
    path("t/<slug:slug>/report/fmjd-report.csv", never_cache(federation.report_file), name="report_file"),
    path("t/<slug:slug>/report/report.pdf", never_cache(federation.report_pdf_view), name="report_pdf"),
    # a player's report from his board: his code in the address, never cached (tournaments.boards.views)
    path("t/<slug:slug>/board/<str:token>/", boards.report_page, name="board_report"),
    # a team captain's line-up: his team's code in the address, never cached (competitions.captain_views)
    path("t/<slug:slug>/team/<str:token>/lineup/", captain_views.captain_lineup, name="team_lineup"),
    path("t/<slug:slug>/player/<int:number>/", cached(views.player_detail), name="player"),
    path("t/<slug:slug>/player/<int:number>/checkin/", checkin.player_checkin, name="player_checkin"),
    path("t/<slug:slug>/game/<int:game_id>/", cached(views.game_detail, params=["ply"]), name="game"),
    # A hall screen's page holds the time of its render (the round clock): answered with 304, never stored.
    path("t/<slug:slug>/hall/<slug:token>/", cached(hall_views.hall_screen, store=False), name="hall_screen"),
    # A team competition (tournaments.competitions): its rounds of matches, each match live, the files.
    path("t/<slug:slug>/teams/round/<int:number>/", cached(team_pages.team_round), name="team_round"),
    path("t/<slug:slug>/teams/round/<int:number>/match/<int:table>/", cached(team_pages.team_match),
         name="team_match"),
    path("t/<slug:slug>/teams/round/<int:number>/match/<int:table>/sheet.pdf", cached(team_prints.match_sheet),
         name="team_match_sheet"),
    path("t/<slug:slug>/teams/round/<int:number>/match/<int:table>/games.pdn", cached(team_prints.match_games),
         name="team_match_pdn"),
    path("t/<slug:slug>/teams/crosstable/", cached(team_pages.team_crosstable), name="team_crosstable"),
    path("t/<slug:slug>/teams/players/", cached(team_pages.team_players), name="team_players"),
    path("t/<slug:slug>/teams/standings.pdf", cached(team_prints.standings), name="team_standings_pdf"),
    path("t/<slug:slug>/games.pdn", cached(sheet_views.tournament_pdn), name="games_pdn"),
    path("t/<slug:slug>/round/<int:number>/games.pdn", cached(sheet_views.round_pdn), name="round_games_pdn"),
]
