"""Rating lists: the lists imported (read-only, with their rows) and the import in four steps.

Upload (file, source, kind, date: an FMJD `V<yyMMdd>.DRA` name gives the last three), then the columns'
meanings (guessed from the headers, each one confirmed or changed), then the preview (the first rows as
they will be read, the counts, whether the register moves, every row's errors), then the import. The
uploaded file waits in a private temporary folder between the steps, named by a random token the form
carries with everything typed, so a step refused shows the form again as it was.
"""

from __future__ import annotations

import re
import secrets
import tempfile
import time
from pathlib import Path
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, IntegerField, OuterRef, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _

from tournaments.admin.base import run_service
from tournaments.errors import DomainError
from tournaments.models import RatingKind, RatingList, RatingListRow, Tournament, search_key
from tournaments.permissions import is_staff_arbiter
from tournaments.ratinglists import columns, readers, rows, selectors, words
from tournaments.ratinglists.services import clean_source, import_rating_list

PREVIEW_ROWS = 20
SHOWN_ERRORS = 500
TOKEN = re.compile(r"^[0-9a-f]{32}$")
KEEP_SECONDS = 24 * 3600


def _folder() -> Path:
    folder = Path(tempfile.gettempdir()) / "damier-rating-lists"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


def _stored(request: HttpRequest, token: str) -> Path | None:
    """The file this user uploaded under `token`, if it is still there."""
    if not TOKEN.match(token or ""):
        return None
    found = _folder() / f"{request.user.pk}-{token}"
    return found if found.is_file() else None


def _store(request: HttpRequest, data: bytes) -> str:
    folder = _folder()
    for old in folder.iterdir():  # uploads never imported
        if old.stat().st_mtime < time.time() - KEEP_SECONDS:
            old.unlink(missing_ok=True)
    token = secrets.token_hex(16)
    (folder / f"{request.user.pk}-{token}").write_bytes(data)
    return token


class UploadForm(forms.Form):
    file = forms.FileField(label=_("List file"), required=False,
                           help_text=_("FMJD's list (V<yyMMdd>.DRA), or any CSV or XLSX file with a header row."))
    source = forms.CharField(label=_("Source"), max_length=20, required=False,
                             help_text=_("Who publishes the list: FMJD, KNDB, FFJD, or a club's short name. "
                                         "Default for a .DRA file: FMJD."))
    kind = forms.ChoiceField(label=_("Ratings given"), choices=RatingKind.choices, initial=RatingKind.FMJD)
    published_on = forms.DateField(label=_("Date of the list"), required=False,
                                   help_text=_("Default for a V<yyMMdd>.DRA file: the date its name gives."))
    name = forms.CharField(label=_("Name"), max_length=200, required=False)
    sheet = forms.CharField(label=_("Sheet (XLSX)"), max_length=100, required=False,
                            help_text=_("Default: the first sheet."))
    token = forms.CharField(widget=forms.HiddenInput, required=False)
    file_name = forms.CharField(widget=forms.HiddenInput, required=False)


def _mapping_fields(table: readers.Table, data: Any) -> forms.Form:
    """A menu per column, the header and its first values beside it, the guess chosen unless typed."""
    choices = [(name, words.field_label(name)) for name in (columns.IGNORE, *columns.FIELDS)]
    guessed = columns.guess_all(table.headers)
    form = forms.Form(data)
    for i, header in enumerate(table.headers):
        samples = ", ".join(cells[i] for _, cells in table.rows[:3] if i < len(cells) and cells[i])
        form.fields[f"col_{i}"] = forms.ChoiceField(
            label=header or gettext("column %(n)s") % {"n": i + 1}, choices=choices, required=False,
            initial=guessed[i], help_text=samples[:80])
    return form


def _chosen_mapping(form: forms.Form, table: readers.Table) -> tuple[list[str], list[str]]:
    """The fields chosen, and what is wrong with the choice."""
    mapping = [form.data.get(f"col_{i}", columns.guess_all(table.headers)[i]) for i in range(len(table.headers))]
    mapping = [m if m in columns.FIELDS else columns.IGNORE for m in mapping]
    problems = []
    if "surname" not in mapping:
        problems.append(gettext("Choose the column that holds the surname."))
    for name in columns.FIELDS:
        if mapping.count(name) > 1:
            problems.append(gettext("“%(field)s” is chosen for %(n)s columns; choose it for one.")
                            % {"field": words.field_label(name), "n": mapping.count(name)})
    return mapping, problems


def import_view(model_admin: Any, request: HttpRequest) -> HttpResponse:
    if not is_staff_arbiter(request.user):
        raise PermissionDenied
    form = UploadForm(request.POST or None, request.FILES or None)
    context: dict[str, Any] = {**model_admin.admin_site.each_context(request), "opts": RatingList._meta,
                               "title": gettext("Import a rating list"), "form": form}
    if request.method != "POST" or not form.is_valid():
        return render(request, "admin/tournaments/ratinglist/import.html", context)
    data = form.cleaned_data
    upload = data["file"]
    raw: bytes | None = None
    if upload is not None:  # a new file: its guesses, and the columns chosen anew
        raw = upload.read(readers.MAX_BYTES + 1)
        token, file_name = _store(request, raw), upload.name
        fresh = True
    else:
        token, file_name, fresh = data["token"], data["file_name"], False
        stored = _stored(request, token)
        raw = stored.read_bytes() if stored else None
        if raw is None:
            form.add_error("file", gettext("Choose the list file."))
            return render(request, "admin/tournaments/ratinglist/import.html", context)
    posted = form.data.copy()
    posted.update({"token": token, "file_name": file_name})
    date = data["published_on"] or readers.dra_date(file_name)
    source = data["source"] or ("FMJD" if readers.file_format(file_name) == "dra" else "")
    posted.update({"source": source, "published_on": date.isoformat() if date else ""})
    form = UploadForm(posted)
    form.is_valid()
    context["form"] = form
    try:
        table = readers.read_file(file_name, raw, data["sheet"])
    except readers.ListFileError as exc:
        form.add_error("file", words.file_error_text(exc, file_name))
        return render(request, "admin/tournaments/ratinglist/import.html", context)
    mapping_form = _mapping_fields(table, None if fresh else request.POST)
    context.update(mapping=mapping_form, table=table, file_name=file_name)
    if fresh or "preview" not in request.POST and "import" not in request.POST:
        return render(request, "admin/tournaments/ratinglist/import.html", context)
    mapping, problems = _chosen_mapping(mapping_form, table)
    if not source:
        form.add_error("source", gettext("Type who publishes the list (FMJD, KNDB, FFJD, a club)."))
    else:
        try:
            source = clean_source(source)
        except DomainError as exc:
            form.add_error("source", str(exc))
    if date is None:
        form.add_error("published_on", gettext("Type the date of the list."))
    if problems or form.errors:
        context["problems"] = problems
        return render(request, "admin/tournaments/ratinglist/import.html", context)
    read = rows.read_rows(table, mapping)
    kind = data["kind"]
    if "import" in request.POST:
        leave_out = request.POST.get("leave_out_errors") == "on"
        ran = run_service(request, lambda: import_rating_list(
            read=read, source=source, kind=kind, published_on=date, name=data["name"], file_name=file_name,
            file_format=table.file_format, user=request.user, leave_out_errors=leave_out))
        if ran.ok:
            done = ran.value
            (_stored(request, token) or Path("/nonexistent")).unlink(missing_ok=True)
            messages.success(request, _result_words(done))
            return redirect(reverse("admin:tournaments_ratinglist_change", args=[done.rating_list.pk]))
    context["preview"] = _preview_context(read, selectors.preview(read, source, kind, date), mapping, table)
    return render(request, "admin/tournaments/ratinglist/import.html", context)


def _result_words(done: Any) -> str:
    # Counts after a label, never before a noun: "1 players" is wrong in every language, and no plural form
    # fits four counts in one sentence.
    text = (gettext("%(list)s imported. Rows: %(rows)s; matched to the register: %(matched)s; players updated: "
                    "%(updated)s; rows with errors left out: %(left)s.")
            % {"list": done.rating_list, "rows": done.rows, "matched": done.matched, "updated": done.updated,
               "left": done.left_out})
    if done.newer:
        text += " " + gettext("A newer list (%(date)s) is already imported: the register was not changed.") % {
            "date": done.newer.isoformat()}
    return text


def _preview_context(read: rows.ReadList, preview: selectors.Preview, mapping: list[str],
                     table: readers.Table) -> dict[str, Any]:
    shown = [name for name in columns.FIELDS if name in mapping and name != "women_title"]
    return {
        "counts": preview, "columns": [words.field_label(n) for n in shown],
        "rows": [[r.line, *("" if getattr(r, n) is None else getattr(r, n) for n in shown)]
                 for r in read.rows[:PREVIEW_ROWS]],
        "errors": [words.row_error_text(e) for e in read.errors[:SHOWN_ERRORS]],
        "more_errors": max(0, len(read.errors) - SHOWN_ERRORS),
        "format": {"dra": "FMJD .DRA", "csv": "CSV", "xlsx": "XLSX"}[table.file_format],
        "encoding": table.encoding, "sheet": table.sheet,
    }


def _users_count() -> Any:
    def count(column: str) -> Any:
        return Coalesce(Subquery(Tournament.objects.filter(**{column: OuterRef("pk")}).order_by().values(column)
                                 .annotate(n=Count("pk")).values("n")), Value(0), output_field=IntegerField())
    return count("fmjd_list") + count("national_list")


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ("__str__", "kind", "published_on", "row_count", "imported_at", "imported_by", "used_by")
    list_filter = ("source", "kind")
    search_fields = ("source", "name", "file_name")
    date_hierarchy = "published_on"
    # The rows' link says how many there are: the count alone would be a second "Rows" line.
    fields = ("source", "kind", "published_on", "name", "file_name", "file_format", "rows_link",
              "imported_at", "imported_by", "used_by")
    readonly_fields = fields
    change_list_template = "admin/tournaments/ratinglist/change_list.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[RatingList]:
        return super().get_queryset(request).select_related("imported_by").annotate(users=_users_count())

    @admin.display(description=_("used by tournaments"), ordering="users")
    def used_by(self, obj: RatingList) -> int:
        users = getattr(obj, "users", None)  # annotated by get_queryset
        return users if users is not None else selectors.users_of(obj).count()

    @admin.display(description=_("rows"))
    def rows_link(self, obj: RatingList) -> str:
        url = reverse("admin:tournaments_ratinglistrow_changelist") + f"?rating_list__id__exact={obj.pk}"
        return format_html('<a href="{}" id="list-rows">{}</a>', url,
                           ngettext("%(n)s row", "%(n)s rows", obj.row_count) % {"n": obj.row_count})

    def has_module_permission(self, request: HttpRequest) -> bool:
        return is_staff_arbiter(request.user)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # through the import only

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a list is kept as it was published

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        # the administrator, or the arbiter who imported it; a list a tournament uses is protected anyway
        user = request.user
        if user.is_superuser:
            return True
        return is_staff_arbiter(user) and (obj is None or obj.imported_by_id == user.pk)

    def get_deleted_objects(self, objs: Any, request: HttpRequest) -> Any:
        """A list a tournament reads (PROTECT) is refused on the delete page and by the bulk delete, each
        tournament named with what to do."""
        deleted, counts, perms, protected = super().get_deleted_objects(objs, request)
        if protected:
            protected = [gettext("%(tournament)s reads %(list)s: choose another list for it first.")
                         % {"tournament": t, "list": rl} for rl in objs for t in selectors.users_of(rl)]
        return deleted, counts, perms, protected

    def get_urls(self) -> list[Any]:
        return [path("import/", self.admin_site.admin_view(lambda r: import_view(self, r)),
                     name="tournaments_ratinglist_import"), *super().get_urls()]


@admin.register(RatingListRow)
class RatingListRowAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    """A list's rows, read-only: reached from the list's page (filtered by list), searchable by name or id."""

    list_display = ("line", "surname", "given_name", "native_name", "fmjd_id", "national_id", "federation", "title",
                    "rating", "sex", "birth_year", "club", "player", "rating_list")
    list_filter = ("rating_list", "title")
    search_fields = ("surname", "given_name", "native_name", "national_id", "club", "=fmjd_id")
    list_select_related = ("player", "rating_list")
    list_per_page = 100

    def get_search_results(self, request: HttpRequest, queryset: Any, search_term: str) -> Any:
        # Names as the register's search folds them: "sorensen" finds "Sørensen", "shvartsman" "Шварцман".
        found, distinct = super().get_search_results(request, queryset, search_term)
        if key := search_key(search_term):
            found = found | queryset.filter(folded__contains=key)
        return found, distinct

    def has_module_permission(self, request: HttpRequest) -> bool:
        return False  # reached from a list's page

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_staff_arbiter(request.user)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a list is deleted whole
