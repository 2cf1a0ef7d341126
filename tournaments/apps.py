from django.apps import AppConfig
from django.db.models.signals import post_migrate
from django.utils.translation import gettext_lazy as _


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        from tournaments.rounds import deletion
        from tournaments.web import cache_version

        # After every migrate (and test database creation): the triggers that move the page-cache version.
        post_migrate.connect(cache_version.on_post_migrate, sender=self, dispatch_uid="damier-cache-triggers")
        # Nothing that holds a result, a pairing or a sheet of a paired round is deleted, whatever the path.
        deletion.connect()
