"""Public pages (no login) and the PDFs; `scoresheets_pdf` is for the tournament's arbiters only."""

from django.urls import path

from tournaments import sheet_views, views

app_name = "tournaments"

urlpatterns = [
    path("", views.tournament_list, name="list"),
    path("tiebreaks/", views.tiebreak_help, name="tiebreaks"),
    path("t/<slug:slug>/", views.tournament_detail, name="tournament"),
    path("t/<slug:slug>/tiebreaks/", views.tiebreak_help, name="tournament_tiebreaks"),
    path("t/<slug:slug>/standings/", views.standings, name="standings"),
    path("t/<slug:slug>/standings.pdf", views.standings_pdf, name="standings_pdf"),
    path("t/<slug:slug>/crosstable/", views.crosstable, name="crosstable"),
    path("t/<slug:slug>/crosstable.pdf", views.crosstable_pdf, name="crosstable_pdf"),
    path("t/<slug:slug>/round/<int:number>/", views.round_detail, name="round"),
    path("t/<slug:slug>/round/<int:number>/pairings.pdf", views.pairings_pdf, name="pairings_pdf"),
    path("t/<slug:slug>/round/<int:number>/boards.pdf", views.boards_pdf, name="boards_pdf"),
    path("t/<slug:slug>/round/<int:number>/scoresheets.pdf", views.scoresheets_pdf, name="scoresheets_pdf"),
    path("t/<slug:slug>/player/<int:number>/", views.player_detail, name="player"),
    path("t/<slug:slug>/game/<int:game_id>/", views.game_detail, name="game"),
    path("t/<slug:slug>/games.pdn", sheet_views.tournament_pdn, name="games_pdn"),
    path("t/<slug:slug>/round/<int:number>/games.pdn", sheet_views.round_pdn, name="round_games_pdn"),
]
