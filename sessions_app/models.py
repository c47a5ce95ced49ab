"""The session store's tables (DESIGN.md §2).

Nodes are never deleted or rewritten (R2, R7): `Node.parent` is PROTECT and nothing outside
`sessions_app.store` creates nodes. Field names that appear in DESIGN.md are a contract.
"""

from __future__ import annotations

from typing import Any

from django.db import models
from django.db.models import Q


def _dict() -> dict[str, Any]:
    return {}


def _list() -> list[Any]:
    return []


class Session(models.Model):
    SOURCES = [("native", "native"), ("pi", "pi"), ("claude", "Claude Code")]

    title = models.CharField(max_length=300, blank=True, default="")
    source = models.CharField(max_length=16, choices=SOURCES, default="native")
    active_node = models.ForeignKey(
        "Node", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    metadata = models.JSONField(default=_dict, blank=True)
    model_profile = models.CharField(max_length=64, default="main")
    context_window = models.PositiveIntegerField(null=True, blank=True)
    workspace = models.CharField(max_length=1000, blank=True, default="")
    # Next Node.seq; bumped in the same UPDATE that moves the active node.
    next_seq = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-updated_at", "-id"]

    def __str__(self) -> str:
        return self.title or f"Session {self.pk}"


class Agent(models.Model):
    ROLES = [(r, r) for r in ("main", "orchestrator", "sub", "worker", "fork")]

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="agents")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    definition_name = models.CharField(max_length=200)
    role = models.CharField(max_length=16, choices=ROLES, default="main")
    mode = models.CharField(max_length=64, blank=True, default="default")
    model_profile = models.CharField(max_length=64, default="main")
    metadata = models.JSONField(default=_dict, blank=True)
    hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.definition_name} ({self.role})"


class Run(models.Model):
    TRIGGERS = [(t, t) for t in ("user", "auto", "manual", "recovery")]
    STATUSES = [(s, s) for s in ("running", "completed", "failed", "stale", "cancelled")]
    END_REASONS = [
        (r, r)
        for r in ("completed", "max_turns", "prompt_too_long", "error", "aborted", "stale", "cancelled")
    ]

    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="runs")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="runs")
    trigger = models.CharField(max_length=16, choices=TRIGGERS, default="user")
    status = models.CharField(max_length=16, choices=STATUSES, default="running")
    end_reason = models.CharField(max_length=32, choices=END_REASONS, null=True, blank=True)
    model = models.CharField(max_length=200, blank=True, default="")
    input_tokens = models.PositiveBigIntegerField(default=0)
    output_tokens = models.PositiveBigIntegerField(default=0)
    cache_read_tokens = models.PositiveBigIntegerField(default=0)
    cache_write_tokens = models.PositiveBigIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Run {self.pk} ({self.trigger}, {self.status})"


class Node(models.Model):
    KINDS = [
        (k, k)
        for k in (
            "message",
            "compaction",
            "branch_summary",
            "custom_message",
            "model_change",
            "thinking_level_change",
            "label",
            "custom",
            "session_info",
        )
    ]
    ROLES = [(r, r) for r in ("user", "assistant", "tool_result", "bash_execution", "custom")]

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="nodes")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="children"
    )
    key = models.CharField(max_length=64)
    kind = models.CharField(max_length=32, choices=KINDS)
    role = models.CharField(max_length=32, choices=ROLES, null=True, blank=True)
    content = models.JSONField(default=_list, blank=True)  # content blocks
    data = models.JSONField(default=_dict, blank=True)  # kind/role specific fields
    usage = models.JSONField(null=True, blank=True)  # provider usage (assistant)
    stop_reason = models.CharField(max_length=32, null=True, blank=True)
    run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="nodes")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="nodes")
    token_estimate = models.PositiveIntegerField(default=0)
    seq = models.PositiveBigIntegerField()
    depth = models.PositiveIntegerField()
    # Nearest compaction at or above this node. Lets the store start a context load at the
    # latest compaction's first kept node without reading the history above it.
    last_compaction = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    timestamp = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "key"], name="node_key_unique_in_session"),
        ]
        indexes = [models.Index(fields=["session", "seq"], name="node_session_seq")]

    def __str__(self) -> str:
        return f"{self.key} {self.kind}{'/' + self.role if self.role else ''}"


class CompactionEntry(models.Model):
    REASONS = [(r, r) for r in ("threshold", "manual", "recovery", "overflow", "idle", "imported")]

    node = models.OneToOneField(Node, on_delete=models.PROTECT, related_name="compaction")
    summary = models.TextField()
    first_kept_node = models.ForeignKey(Node, on_delete=models.PROTECT, related_name="+")
    tokens_before = models.PositiveBigIntegerField()
    tokens_after = models.PositiveBigIntegerField(null=True, blank=True)
    details = models.JSONField(default=_dict, blank=True)
    reason = models.CharField(max_length=16, choices=REASONS, default="threshold")
    from_hook = models.BooleanField(default=False)
    fork_agent = models.ForeignKey(
        Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="compactions"
    )
    fork_run = models.ForeignKey(
        Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="compactions"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "compaction entries"

    def __str__(self) -> str:
        return f"Compaction {self.node.key}"


class CompactionTask(models.Model):
    """The `compact_pending` record: one pending/running task per session at most."""

    ACTIVE_STATUSES = ("pending", "running")
    STATUSES = [(s, s) for s in ("pending", "running", "completed", "failed", "stale", "cancelled")]
    TRIGGERS = [(t, t) for t in ("auto", "manual", "recovery")]

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="compaction_tasks")
    trigger_node = models.ForeignKey(Node, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    trigger = models.CharField(max_length=16, choices=TRIGGERS, default="auto")
    reason = models.CharField(max_length=16, choices=CompactionEntry.REASONS, default="threshold")
    status = models.CharField(max_length=16, choices=STATUSES, default="pending")
    instructions = models.TextField(blank=True, default="")
    attempts = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    owner = models.CharField(max_length=200, blank=True, default="")  # process that runs it
    fork_agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    fork_run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    compaction = models.ForeignKey(
        CompactionEntry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=Q(status__in=("pending", "running")),
                name="one_active_compaction_task_per_session",
            )
        ]

    def __str__(self) -> str:
        return f"CompactionTask {self.pk} ({self.status})"


class Event(models.Model):
    # Nullable: a refused agent-definition override can happen outside any session.
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.CASCADE, related_name="events"
    )
    run = models.ForeignKey(Run, null=True, blank=True, on_delete=models.CASCADE, related_name="events")
    agent = models.ForeignKey(Agent, null=True, blank=True, on_delete=models.CASCADE, related_name="events")
    type = models.CharField(max_length=64, db_index=True)
    payload = models.JSONField(default=_dict, blank=True)
    timestamp = models.DateTimeField(auto_now_add=True)

    class Meta:
        indexes = [models.Index(fields=["session", "id"], name="event_session_id")]

    def __str__(self) -> str:
        return f"{self.type} @ {self.timestamp:%H:%M:%S}"


class Artifact(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="artifacts")
    node = models.ForeignKey(Node, null=True, blank=True, on_delete=models.SET_NULL, related_name="artifacts")
    path = models.CharField(max_length=1000)  # relative to settings.ARTIFACT_ROOT
    size = models.PositiveBigIntegerField()
    sha256 = models.CharField(max_length=64)
    mime = models.CharField(max_length=200, default="text/plain")
    summary = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.path


class Task(models.Model):
    """One node of a session's task DAG (the `task.*` tools). `dependencies` must be done first."""

    STATUSES = [(s, s) for s in ("pending", "in_progress", "done", "blocked", "cancelled")]

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tasks")
    title = models.CharField(max_length=300)
    description = models.TextField(blank=True, default="")
    status = models.CharField(max_length=16, choices=STATUSES, default="pending")
    created_by = models.ForeignKey(
        Agent, null=True, blank=True, on_delete=models.SET_NULL, related_name="created_tasks"
    )
    dependencies = models.ManyToManyField("self", symmetrical=False, blank=True, related_name="dependents")
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Task {self.pk}: {self.title} ({self.status})"
