import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0017_node_context_edits")]

    operations = [
        migrations.CreateModel(
            name="CallGroups",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("per", models.PositiveBigIntegerField()),
                ("groups", models.PositiveIntegerField()),
                ("points", models.TextField()),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="sessions_app.session"
                    ),
                ),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("session", "per"), name="call_groups_per_session")],
            },
        ),
    ]
