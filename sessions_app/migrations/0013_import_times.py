"""Event and run times can be given (issue 32): an imported record's event keeps the record's
time, an imported turn's run its first record's time; what the runtime writes still gets now.
Only the Python-side default changes; the columns stay as they are."""

import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("sessions_app", "0012_task_carries_the_job"),
    ]

    operations = [
        migrations.AlterField(
            model_name="event",
            name="timestamp",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.AlterField(
            model_name="run",
            name="started_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
    ]
