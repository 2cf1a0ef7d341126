# Each entry holds its own ratings: a later list of the players' ratings no longer changes a tournament
# behind its record. Existing entries take their players' ratings as they stand now, which is what every
# page, standings table and file of theirs showed until this migration: nothing shown changes.

import django.core.validators
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def ratings_from_players(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    Player = apps.get_model("tournaments", "Player")
    rated = Player.objects.filter(pk=OuterRef("player_id"), unrated=False)
    Entry.objects.update(rating=Subquery(rated.values("rating")[:1]),
                         national_rating=Subquery(rated.values("national_rating")[:1]))


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0019_longevents'),
    ]

    operations = [
        migrations.AddField(
            model_name='entry',
            name='national_rating',
            field=models.PositiveIntegerField(blank=True, editable=False, null=True, validators=[django.core.validators.MaxValueValidator(3000)], verbose_name='national rating'),
        ),
        migrations.AddField(
            model_name='entry',
            name='rating',
            field=models.PositiveIntegerField(blank=True, editable=False, null=True, validators=[django.core.validators.MaxValueValidator(3000)], verbose_name='FMJD rating'),
        ),
        migrations.AddField(
            model_name='historicalentry',
            name='national_rating',
            field=models.PositiveIntegerField(blank=True, editable=False, null=True, validators=[django.core.validators.MaxValueValidator(3000)], verbose_name='national rating'),
        ),
        migrations.AddField(
            model_name='historicalentry',
            name='rating',
            field=models.PositiveIntegerField(blank=True, editable=False, null=True, validators=[django.core.validators.MaxValueValidator(3000)], verbose_name='FMJD rating'),
        ),
        migrations.RunPython(ratings_from_players, migrations.RunPython.noop),
        migrations.RemoveField(
            model_name='entry',
            name='rating_at_entry',
        ),
        migrations.RemoveField(
            model_name='historicalentry',
            name='rating_at_entry',
        ),
    ]
