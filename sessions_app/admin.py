"""Admin registration: read-mostly views of the store. Nodes are written only by the store."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from sessions_app import models


class ReadOnlyNodesMixin:
    """The tree is append-only (docs/compaction.md, rules S2, S4): the admin may look, never edit
    or delete."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(models.Session)
class SessionAdmin(admin.ModelAdmin):
    list_display = ("id", "title", "source", "model_profile", "updated_at")
    search_fields = ("title",)
    list_filter = ("source",)
    raw_id_fields = ("active_node",)


@admin.register(models.Agent)
class AgentAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "definition_name", "role", "mode", "hidden")
    list_filter = ("role", "hidden")
    raw_id_fields = ("session", "parent")


@admin.register(models.Run)
class RunAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "agent", "trigger", "status", "end_reason", "started_at")
    list_filter = ("trigger", "status", "end_reason")
    raw_id_fields = ("session", "agent")


@admin.register(models.Node)
class NodeAdmin(ReadOnlyNodesMixin, admin.ModelAdmin):
    list_display = ("id", "session", "key", "kind", "role", "token_estimate", "depth", "timestamp")
    list_filter = ("kind", "role")
    search_fields = ("key",)
    raw_id_fields = ("session", "parent", "run", "agent", "last_compaction")


@admin.register(models.CompactionEntry)
class CompactionEntryAdmin(ReadOnlyNodesMixin, admin.ModelAdmin):
    list_display = ("id", "node", "reason", "tokens_before", "tokens_after", "from_hook", "created_at")
    list_filter = ("reason", "from_hook")
    raw_id_fields = ("node", "first_kept_node", "fork_agent", "fork_run")


@admin.register(models.CompactionTask)
class CompactionTaskAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "trigger", "reason", "status", "attempts", "created_at")
    list_filter = ("status", "trigger")
    raw_id_fields = ("session", "trigger_node", "fork_agent", "fork_run", "compaction")


@admin.register(models.Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "type", "run", "timestamp")
    list_filter = ("type",)
    raw_id_fields = ("session", "run", "agent")


@admin.register(models.Artifact)
class ArtifactAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "path", "size", "mime", "created_at")
    raw_id_fields = ("session", "node")


@admin.register(models.Task)
class TaskAdmin(admin.ModelAdmin):
    list_display = ("id", "session", "title", "status", "created_by", "updated_at")
    list_filter = ("status",)
    search_fields = ("title",)
    raw_id_fields = ("session", "created_by")
    filter_horizontal = ("dependencies",)
