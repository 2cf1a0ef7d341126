from django.contrib import admin
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from tournaments.admin import manual

urlpatterns = [
    # The arbiter's manual (docs/manual), for staff: before admin.site.urls, whose catch-all would take it.
    path("admin/manual/", admin.site.admin_view(manual.index), name="manual"),
    path("admin/manual/<slug:slug>/", admin.site.admin_view(manual.chapter), name="manual_chapter"),
    path("admin/", admin.site.urls),
    # The language switch is on every public page, and those pages are shared by caches: a form token in
    # them would be one reader's, and would set a cookie that forbids sharing. Choosing a language only
    # sets the reader's language cookie (and `next` is checked to stay on this site), so it needs none.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.web.urls")),
]
