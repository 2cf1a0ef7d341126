"""The admin site Damier installs in place of Django's (INSTALLED_APPS): the same site, whose index also
lists the arbiter's own tournaments (tournaments.web.admin_site)."""

from django.contrib.admin.apps import AdminConfig


class DamierAdminConfig(AdminConfig):
    default_site = "tournaments.web.admin_site.DamierAdminSite"
