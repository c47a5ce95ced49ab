from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0019_call_blocks")]

    operations = [
        # Nullable with no default: an ALTER TABLE, not a copy of the node table. Rows written
        # before it have none; their facts are found from the message when read.
        migrations.AddField(model_name="node", name="facts", field=models.JSONField(blank=True, null=True)),
    ]
