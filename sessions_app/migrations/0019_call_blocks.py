import django.db.models.deletion
from django.db import migrations, models


def backfill(apps, schema_editor):
    """The charts' call blocks of the sessions written before this migration, aggregated the way
    the store keeps them on write (store/call_blocks.py)."""
    from sessions_app.store.call_blocks import MIN_BLOCK, extend_blocks

    Session = apps.get_model("sessions_app", "Session")
    # A session of fewer calls than a block has none (block_size).
    sessions = Session.objects.filter(call_count__gte=MIN_BLOCK).values_list("id", "call_count")
    for sid, calls in sessions.iterator():
        extend_blocks(sid, calls)


class Migration(migrations.Migration):
    dependencies = [("sessions_app", "0018_call_groups")]

    operations = [
        migrations.CreateModel(
            name="CallBlock",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("size", models.PositiveBigIntegerField()),
                ("b", models.PositiveBigIntegerField()),
                ("peak_n", models.PositiveBigIntegerField(null=True)),
                ("peak_tokens", models.PositiveBigIntegerField(default=0)),
                ("failed", models.PositiveBigIntegerField(default=0)),
                ("failed_n", models.PositiveBigIntegerField(null=True)),
                ("recorded", models.PositiveBigIntegerField(default=0)),
                ("windows", models.PositiveBigIntegerField(default=0)),
                ("measured", models.PositiveBigIntegerField(default=0)),
                ("input", models.PositiveBigIntegerField(default=0)),
                ("cache_read", models.PositiveBigIntegerField(default=0)),
                ("cache_write", models.PositiveBigIntegerField(default=0)),
                ("output", models.PositiveBigIntegerField(default=0)),
                ("peak_key", models.CharField(max_length=64, null=True)),
                ("peak_at", models.DateTimeField(null=True)),
                ("peak_count", models.PositiveBigIntegerField(null=True)),
                ("peak_stop", models.CharField(max_length=32, null=True)),
                ("peak_threshold", models.PositiveBigIntegerField(null=True)),
                ("peak_window", models.PositiveBigIntegerField(null=True)),
                ("peak_auto", models.BooleanField(null=True)),
                ("failed_key", models.CharField(max_length=64, null=True)),
                ("failed_at", models.DateTimeField(null=True)),
                ("failed_stop", models.CharField(max_length=32, null=True)),
                ("failed_threshold", models.PositiveBigIntegerField(null=True)),
                ("failed_window", models.PositiveBigIntegerField(null=True)),
                ("failed_auto", models.BooleanField(null=True)),
                (
                    "session",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE, related_name="+", to="sessions_app.session"
                    ),
                ),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("session", "size", "b"), name="call_block_unique")],
            },
        ),
        migrations.DeleteModel(name="CallGroups"),
        migrations.RunPython(backfill, migrations.RunPython.noop),
    ]
