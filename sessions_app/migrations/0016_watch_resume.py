from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0015_call_cost")]

    operations = [
        migrations.AddField(
            model_name="watchedfile",
            name="resume",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
