from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0023_register_and_rating_lists"),
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
