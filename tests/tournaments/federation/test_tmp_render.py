import pytest
from django.contrib.auth import get_user_model
from tournaments.federation import rows
from tournaments.federation.report_pdf import report_pdf
pytestmark = pytest.mark.django_db
def test_render(round_robin10, swiss30):
    deputy = get_user_model().objects.create_user("dep", first_name="Boris", last_name="Deputy", is_staff=True)
    swiss30.deputy_arbiters.add(deputy)
    open("/tmp/report-swiss.pdf", "wb").write(report_pdf(rows.read_report(swiss30)))
    open("/tmp/report-rr.pdf", "wb").write(report_pdf(rows.read_report(round_robin10)))
