"""Django's own admin strings that its Dutch catalogue (Django 5.2) leaves in English.

Listing them here puts them in locale/*/django.po, which Django reads before its own catalogues
(LOCALE_PATHS), so the arbiter in Utrecht gets them in Dutch too. Remove one when Django translates it.
"""

from django.utils.translation import gettext_noop

DJANGO_GAPS = [
    gettext_noop("Change or view list link"),  # admin/app_list.html, a column heading (screen readers read it)
]
