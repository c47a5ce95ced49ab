from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("sessions_app", "0010_node_digests"),
    ]

    operations = [
        migrations.AddField(
            model_name="compactionentry",
            name="probe",
            field=models.JSONField(blank=True, null=True),
        ),
    ]
