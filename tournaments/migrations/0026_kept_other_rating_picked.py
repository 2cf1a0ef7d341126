from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0025_results_from_the_boards"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="other_rating_picked",
            field=models.BooleanField(default=False, editable=False, verbose_name="rating of the other list picked"),
        ),
        migrations.AddField(
            model_name="historicalentry",
            name="other_rating_picked",
            field=models.BooleanField(default=False, editable=False, verbose_name="rating of the other list picked"),
        ),
    ]
