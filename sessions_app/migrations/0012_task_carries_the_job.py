"""The task row carries the compaction job (issue 31): the settings override, recorded until now in
the task's `compact_pending` event, and whether the agent may continue after it, recorded until
now under the session's metadata with the pending task and the circuit breaker's count, which are
read from the task rows from now on."""

from typing import Any

from django.db import migrations, models

OLD_KEYS = ("compact_pending", "compact_auto_failures", "auto_continue")
ACTIVE = ("pending", "running")


def forwards(apps: Any, schema_editor: Any) -> None:
    Session = apps.get_model("sessions_app", "Session")
    CompactionTask = apps.get_model("sessions_app", "CompactionTask")
    Event = apps.get_model("sessions_app", "Event")
    # A task still on its way keeps the settings it was requested with, for its retry.
    for task in CompactionTask.objects.filter(status__in=ACTIVE):
        payload = (
            Event.objects.filter(session_id=task.session_id, type="compact_pending", payload__task_id=task.pk)
            .values_list("payload", flat=True)
            .first()
        )
        recorded = payload.get("settings") if isinstance(payload, dict) else None
        if isinstance(recorded, dict):
            CompactionTask.objects.filter(pk=task.pk).update(settings_override=recorded)
    for session in Session.objects.filter(metadata__has_any_keys=list(OLD_KEYS)):
        metadata = dict(session.metadata or {})
        if metadata.get("auto_continue") is False:
            latest = (
                CompactionTask.objects.filter(session_id=session.pk, status="completed").order_by("-pk").first()
            )
            if latest is not None:
                CompactionTask.objects.filter(pk=latest.pk).update(auto_continue=False)
        for key in OLD_KEYS:
            metadata.pop(key, None)
        Session.objects.filter(pk=session.pk).update(metadata=metadata)


class Migration(migrations.Migration):
    dependencies = [
        ("sessions_app", "0011_compaction_probe"),
    ]

    operations = [
        migrations.AddField(
            model_name="compactiontask",
            name="auto_continue",
            field=models.BooleanField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="compactiontask",
            name="settings_override",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(forwards, migrations.RunPython.noop),
    ]
