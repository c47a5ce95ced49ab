from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0016_watch_resume")]

    operations = [
        migrations.AddIndex(
            model_name="node",
            index=models.Index(
                condition=models.Q(("kind", "context_edit")),
                fields=["session", "seq"],
                name="node_context_edits",
            ),
        ),
    ]
