"""WSGI entry point (gunicorn config.wsgi)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_wsgi_application()

from tournaments.web.kept_answers import KeptAnswers  # noqa: E402  (its models load once Django is set up)

# A stored public page asked again in the same words is answered before Django builds a request.
application = KeptAnswers(django_application)
