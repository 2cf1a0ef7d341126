"""The arbiter's workplace. Declarative ModelAdmins; every write goes through tournaments.rounds.services.

Who may do what: superusers everything; a staff user may create a tournament (becoming its chief
arbiter) and changes only the tournaments where he is chief or deputy arbiter: every queryset,
object permission and action below is scoped by `tournament_of`.
"""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

admin.site.site_header = _("Damier – tournament arbitration")
admin.site.site_title = _("Damier arbitration")
admin.site.index_title = _("Tournaments, rounds and results")

# Importing the modules registers their ModelAdmins.
from tournaments.admin import (  # noqa: E402, F401
    accounts,
    entries,
    hall_screens,
    players,
    rating_lists,
    rounds,
    team_setup,
    tournaments,
)
