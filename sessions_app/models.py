"""The session store's tables (docs/architecture.md, "Data model").

Nodes are never deleted or rewritten (docs/compaction.md, rules S2, S4): `Node.parent` is PROTECT
and nothing outside `sessions_app.store` creates nodes. Field names listed in docs/architecture.md
("Data model") are a contract.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from sessions_app.compaction.vocabulary import (
    ACTIVE_TASK_STATUSES,
    SOURCE_LABELS,
    AgentRole,
    CompactionReason,
    EndReason,
    NodeKind,
    Role,
    RunStatus,
    Source,
    TaskStatus,
    Trigger,
    WorkStatus,
)


def _choices(vocabulary: type[StrEnum], labels: dict[Any, str] | None = None) -> type[models.TextChoices]:
    """Django choices for one of the engine's vocabularies (labels default to the values, which
    keeps the migrations' recorded choices as they were)."""
    members = [(m.name, (m.value, (labels or {}).get(m, m.value))) for m in vocabulary]
    # The functional Enum API: django-stubs types only the class form, hence the ignore.
    return models.TextChoices(vocabulary.__name__, members)  # type: ignore[call-overload]


SourceChoices = _choices(Source, SOURCE_LABELS)
AgentRoleChoices = _choices(AgentRole)
TriggerChoices = _choices(Trigger)
RunStatusChoices = _choices(RunStatus)
EndReasonChoices = _choices(EndReason)
NodeKindChoices = _choices(NodeKind)
RoleChoices = _choices(Role)
CompactionReasonChoices = _choices(CompactionReason)
TaskStatusChoices = _choices(TaskStatus)
WorkStatusChoices = _choices(WorkStatus)
# A compaction task is started by the runtime or an operator, never by a user turn.
TaskTriggerChoices = models.TextChoices(  # type: ignore[call-overload]
    "TaskTrigger", [(t.name, (t.value, t.value)) for t in Trigger if t is not Trigger.USER]
)


def _dict() -> dict[str, Any]:
    return {}


def _list() -> list[Any]:
    return []


class SessionManager(models.Manager["Session"]):
    """Sessions users can see: not one an import is still writing (docs/architecture.md, "Imports")."""

    def get_queryset(self) -> models.QuerySet[Session]:
        return super().get_queryset().filter(importing=False)


class Session(models.Model):
    title = models.CharField(max_length=300, blank=True, default="")
    source = models.CharField(max_length=16, choices=SourceChoices.choices, default=Source.NATIVE)
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
    # True while an SQLite import writes this session in chunks; hidden from `objects` until the
    # import commits, and removed when it fails.
    importing = models.BooleanField(default=False, db_index=True)
    # Counters kept by the store as it writes (docs/architecture.md, "Reading without the whole
    # history"): the list and the header never count rows.
    node_count = models.PositiveBigIntegerField(default=0)
    compaction_count = models.PositiveIntegerField(default=0)
    call_count = models.PositiveBigIntegerField(default=0)
    # The priced calls' total in nano-dollars and how many calls have no price (docs/costs.md):
    # kept with the calls, in the same transaction, so the list sorts on a column.
    cost = models.BigIntegerField(default=0)
    unpriced_calls = models.PositiveBigIntegerField(default=0)
    # The directory the agent worked in (an imported file's cwd): the list groups sessions by it.
    project = models.CharField(max_length=1000, blank=True, default="", db_index=True)

    all_objects = models.Manager()
    objects = SessionManager()

    class Meta:
        ordering = ["-updated_at", "-id"]
        default_manager_name = "objects"
        base_manager_name = "all_objects"

    def __str__(self) -> str:
        return self.title or f"Session {self.pk}"


class Agent(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="agents")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.CASCADE, related_name="children"
    )
    definition_name = models.CharField(max_length=200)
    role = models.CharField(max_length=16, choices=AgentRoleChoices.choices, default=AgentRole.MAIN)
    mode = models.CharField(max_length=64, blank=True, default="default")
    model_profile = models.CharField(max_length=64, default="main")
    metadata = models.JSONField(default=_dict, blank=True)
    hidden = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.definition_name} ({self.role})"


class Run(models.Model):
    agent = models.ForeignKey(Agent, on_delete=models.CASCADE, related_name="runs")
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="runs")
    trigger = models.CharField(max_length=16, choices=TriggerChoices.choices, default=Trigger.USER)
    status = models.CharField(max_length=16, choices=RunStatusChoices.choices, default=RunStatus.RUNNING)
    end_reason = models.CharField(max_length=32, choices=EndReasonChoices.choices, null=True, blank=True)
    model = models.CharField(max_length=200, blank=True, default="")
    input_tokens = models.PositiveBigIntegerField(default=0)
    output_tokens = models.PositiveBigIntegerField(default=0)
    cache_read_tokens = models.PositiveBigIntegerField(default=0)
    cache_write_tokens = models.PositiveBigIntegerField(default=0)
    error = models.TextField(blank=True, default="")
    # An imported turn's run starts at its first record's time (importers/runs.py).
    started_at = models.DateTimeField(default=timezone.now)
    ended_at = models.DateTimeField(null=True, blank=True)
    # An agent-loop run holds its session's one agent slot while it is running (a session runs
    # one agent turn at a time; compact forks do not take the slot). The database enforces it
    # with the partial unique constraint below, across server processes.
    exclusive = models.BooleanField(default=False)
    # The process running it and its last sign of life: the sweeper fails a run whose owner died.
    owner = models.CharField(max_length=200, blank=True, default="")
    heartbeat_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["session"],
                condition=Q(status=RunStatus.RUNNING.value, exclusive=True),
                name="one_running_agent_run_per_session",
            )
        ]

    def __str__(self) -> str:
        return f"Run {self.pk} ({self.trigger}, {self.status})"


class Node(models.Model):
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="nodes")
    parent = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="children"
    )
    key = models.CharField(max_length=64)
    kind = models.CharField(max_length=32, choices=NodeKindChoices.choices)
    role = models.CharField(max_length=32, choices=RoleChoices.choices, null=True, blank=True)
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
    # The chain this node lies on (a Chain's id is its first node's id): lets the tree read any
    # window of a line by (chain, depth) ranges instead of loading the session.
    chain = models.ForeignKey(
        "Chain", null=True, blank=True, db_constraint=False, on_delete=models.DO_NOTHING, related_name="+"
    )
    # The node's digest, what a compaction reads of it, written with it (retention/digest.py):
    # its part of the summarizer's transcript, for a user message the sentences that read as
    # constraints or requests, for an assistant's the files its tool calls read and changed.
    # No `digest_version` (rows from before digests) or an older one means they are worked out
    # from the content when needed.
    transcript = models.TextField(null=True, blank=True)
    readings = models.JSONField(null=True, blank=True)
    file_calls = models.JSONField(null=True, blank=True)
    # The facts a user's or an assistant's message gives on its own, under the audit's version
    # (retention/message_facts.py): the retention audit reads them instead of the message.
    facts = models.JSONField(null=True, blank=True)
    # Nullable with no default, so adding it is an ALTER TABLE, not a copy of the node table.
    digest_version = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["session", "key"], name="node_key_unique_in_session"),
        ]
        indexes = [
            models.Index(fields=["session", "seq"], name="node_session_seq"),
            models.Index(fields=["chain", "depth"], name="node_chain_depth"),
            # A session's context edits (the charts, the timeline) without walking its nodes: they
            # are few, so the index is small and costs a write almost nothing (issue 35).
            models.Index(
                fields=["session", "seq"], name="node_context_edits", condition=Q(kind=NodeKind.CONTEXT_EDIT)
            ),
        ]

    def __str__(self) -> str:
        return f"{self.key} {self.kind}{'/' + self.role if self.role else ''}"


class Chain(models.Model):
    """A run of first children: a node appended under a parent that has no child yet continues the
    parent's chain, any later child starts a new one (docs/architecture.md, "Chains"). Chains
    never split or move, so the store keeps them with one write per append; a session has as many
    chains as roots plus forks, and the tree is laid out from them without reading the nodes."""

    id = models.BigIntegerField(primary_key=True)  # the first node's id
    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="chains")
    parent_node = models.BigIntegerField(null=True, blank=True)  # the fork point; None: a root
    parent_chain = models.BigIntegerField(null=True, blank=True)  # the fork point's chain
    start_depth = models.PositiveIntegerField()
    start_seq = models.PositiveBigIntegerField()
    length = models.PositiveBigIntegerField(default=1)
    compactions = models.PositiveIntegerField(default=0)

    class Meta:
        indexes = [models.Index(fields=["session", "parent_chain"], name="chain_session_parent")]

    def __str__(self) -> str:
        return f"chain {self.pk} ({self.length} nodes from depth {self.start_depth})"


class Call(models.Model):
    """One model call (an assistant node with or without usage), kept as it is written, so the
    token charts read narrow rows instead of every node. `n` counts the session's calls from 1 in
    the order they were written."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="calls")
    node = models.OneToOneField(Node, on_delete=models.CASCADE, related_name="call")
    n = models.PositiveBigIntegerField()
    seq = models.PositiveBigIntegerField()
    timestamp = models.DateTimeField()
    tokens = models.PositiveBigIntegerField(default=0)  # context tokens the call reported (0: none)
    input = models.PositiveBigIntegerField(default=0)
    output = models.PositiveBigIntegerField(default=0)
    cache_read = models.PositiveBigIntegerField(default=0)
    cache_write = models.PositiveBigIntegerField(default=0)
    has_usage = models.BooleanField(default=False)
    stop_reason = models.CharField(max_length=32, blank=True, default="")
    threshold = models.PositiveBigIntegerField(null=True, blank=True)  # as recorded at the call
    window = models.PositiveBigIntegerField(null=True, blank=True)
    auto_compaction = models.BooleanField(null=True, blank=True)
    # The price (docs/costs.md): nano-dollars, NULL when unknown; where it came from and when.
    # db_default: store/calls.py inserts the rows in SQL, then store/call_prices.py fills these.
    provider = models.CharField(max_length=64, blank=True, default="", db_default="")
    model = models.CharField(max_length=200, blank=True, default="", db_default="")
    cost = models.BigIntegerField(null=True, blank=True)
    price_source = models.CharField(max_length=300, blank=True, default="", db_default="")
    priced_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "n"], name="call_n_unique_in_session")]

    def __str__(self) -> str:
        return f"call {self.n} of session {self.session_id}"


class CallBlock(models.Model):
    """A complete block of `size` consecutive calls of a session, aggregated as the token charts
    group calls (store/call_blocks.py): written by the store with the calls themselves, in the
    same transaction, so a chart of a long session combines a few thousand blocks instead of
    aggregating every call, in any process and on the first view (issue 35). Calls are only ever
    appended, so a complete block never changes."""

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="+")
    size = models.PositiveBigIntegerField()  # calls per block: a power of ten
    b = models.PositiveBigIntegerField()  # calls b * size + 1 .. (b + 1) * size
    # The call with the highest context among the measured ones (the first on a tie; tokens
    # clamped as the grouping clamps them), NULL when every call of the block failed.
    peak_n = models.PositiveBigIntegerField(null=True)
    peak_tokens = models.PositiveBigIntegerField(default=0)
    failed = models.PositiveBigIntegerField(default=0)
    failed_n = models.PositiveBigIntegerField(null=True)  # the first failed call
    recorded = models.PositiveBigIntegerField(default=0)  # calls that recorded their threshold
    windows = models.PositiveBigIntegerField(default=0)  # calls that recorded their window
    measured = models.PositiveBigIntegerField(default=0)  # calls that reported usage
    input = models.PositiveBigIntegerField(default=0)  # usage sums over the block's calls
    cache_read = models.PositiveBigIntegerField(default=0)
    cache_write = models.PositiveBigIntegerField(default=0)
    output = models.PositiveBigIntegerField(default=0)
    # The peak call's and the first failed call's own fields, as a point shows them: a view
    # reads the blocks and no call of theirs.
    peak_key = models.CharField(max_length=64, null=True)
    peak_at = models.DateTimeField(null=True)
    peak_count = models.PositiveBigIntegerField(null=True)  # its context tokens, unclamped
    peak_stop = models.CharField(max_length=32, null=True)
    peak_threshold = models.PositiveBigIntegerField(null=True)
    peak_window = models.PositiveBigIntegerField(null=True)
    peak_auto = models.BooleanField(null=True)
    failed_key = models.CharField(max_length=64, null=True)
    failed_at = models.DateTimeField(null=True)
    failed_stop = models.CharField(max_length=32, null=True)
    failed_threshold = models.PositiveBigIntegerField(null=True)  # shown when every call failed
    failed_window = models.PositiveBigIntegerField(null=True)
    failed_auto = models.BooleanField(null=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["session", "size", "b"], name="call_block_unique")]

    def __str__(self) -> str:
        return f"calls {self.b * self.size + 1}-{(self.b + 1) * self.size} of session {self.session_id}"


class CompactionEntry(models.Model):
    node = models.OneToOneField(Node, on_delete=models.PROTECT, related_name="compaction")
    # The node's session, kept here so "the compactions of a session" is one index lookup instead
    # of a walk over the session's nodes (docs/architecture.md, "Reading without the whole history").
    session = models.ForeignKey(
        Session, null=True, blank=True, on_delete=models.CASCADE, related_name="compaction_entries"
    )
    summary = models.TextField()
    first_kept_node = models.ForeignKey(Node, on_delete=models.PROTECT, related_name="+")
    tokens_before = models.PositiveBigIntegerField()
    tokens_after = models.PositiveBigIntegerField(null=True, blank=True)
    details = models.JSONField(default=_dict, blank=True)
    reason = models.CharField(
        max_length=16, choices=CompactionReasonChoices.choices, default=CompactionReason.THRESHOLD
    )
    from_hook = models.BooleanField(default=False)
    # Who wrote the summary: a model id, "extractive", or "" when unknown (imported).
    summarizer = models.CharField(max_length=200, blank=True, default="")
    # The retention audit (retention/audit.py, `Audit.to_dict()`), and kept/total of it; null
    # until computed. docs/compaction.md, "Retention audit".
    audit = models.JSONField(null=True, blank=True)
    retention = models.FloatField(null=True, blank=True)
    # The summary as the model wrote it, when the carry-over guard added to it: the audit computed
    # later checks it too, to show what the model itself dropped (retention/carry_over.py).
    model_summary = models.TextField(null=True, blank=True)
    # The probe check beside the audit: a model's answers to one question per fact, from the
    # context after the compaction alone (retention/probes.py, `summary()` or `failed()`); null
    # until one was made. docs/compaction.md, rule R7.
    probe = models.JSONField(null=True, blank=True)
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
    """One compaction job, from its request to its end: one pending/running task per session at
    most. The session's compaction state is read from these rows (compact_fork/tasks.py)."""

    ACTIVE_STATUSES = ACTIVE_TASK_STATUSES

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="compaction_tasks")
    trigger_node = models.ForeignKey(Node, null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    # The plan's cut, chosen once when the task is requested (docs/architecture.md, "A
    # compaction's data walk"): a fork in another process rebuilds the same plan from it.
    boundary_start_node = models.ForeignKey(
        Node, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    first_kept_node = models.ForeignKey(
        Node, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    turn_start_node = models.ForeignKey(
        Node, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    trigger = models.CharField(max_length=16, choices=TaskTriggerChoices.choices, default=Trigger.AUTO)
    reason = models.CharField(
        max_length=16, choices=CompactionReasonChoices.choices, default=CompactionReason.THRESHOLD
    )
    status = models.CharField(max_length=16, choices=TaskStatusChoices.choices, default=TaskStatus.PENDING)
    instructions = models.TextField(blank=True, default="")
    # The settings an operator chose for this one compaction instead of the session's (a
    # CompactionSettings as a dict; null = the session's): a retry in any process plans with them.
    settings_override = models.JSONField(null=True, blank=True)
    # Set when it completes: False when the context stayed above the progress guard, so the agent
    # does not continue by itself (runtime/compact_fork/apply.py); null until then.
    auto_continue = models.BooleanField(null=True, blank=True)
    # Claims so far, so also the number of the attempt now running: a worker's writes to the task
    # compare-and-set on (running, its attempt), so a worker given up on cannot write (apply.py).
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
                condition=Q(status__in=[s.value for s in ACTIVE_TASK_STATUSES]),
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
    # When it happened: now for what the runtime records, the record's own time for an imported
    # record (not the import time, issue 32), hence a default rather than auto_now_add.
    timestamp = models.DateTimeField(default=timezone.now)

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

    session = models.ForeignKey(Session, on_delete=models.CASCADE, related_name="tasks")
    title = models.CharField(max_length=300)
    description = models.TextField(blank=True, default="")
    status = models.CharField(max_length=16, choices=WorkStatusChoices.choices, default=WorkStatus.PENDING)
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


class ApiToken(models.Model):
    """A per-user token for machine clients (the OTLP receiver at `/v1/traces`), never the session
    cookie. Only the SHA-256 of the secret is stored; `prefix` (its first characters) lets a user
    tell tokens apart. Revoked tokens stay listed with `revoked_at` set."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)  # hex SHA-256 of the whole token
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"


class WatchedFile(models.Model):
    """A session file `cutpoint watch` follows (sessions_app/watch/): the session it fills, how far
    it was read (`position`: bytes of complete lines, written in the same transaction as the nodes
    read from them) and what the file looked like then, to tell growth from a rewrite."""

    path = models.CharField(max_length=1000, unique=True)
    session = models.ForeignKey(Session, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    format = models.CharField(max_length=16, blank=True, default="")
    position = models.PositiveBigIntegerField(default=0)
    head = models.CharField(max_length=64, blank=True, default="")  # sha256 of the first and last 4 KiB read
    inode = models.PositiveBigIntegerField(default=0)
    size = models.PositiveBigIntegerField(default=0)  # the file's size when last read
    mtime_ns = models.BigIntegerField(default=0)
    held = models.BooleanField(default=False)  # the last node waits for the file to settle
    # Where a growing file's next reading resumes (sessions_app/watch/resume.py): a line start a
    # little before `position` and its line number, written with `position`.
    resume = models.JSONField(default=dict, blank=True)
    error = models.TextField(blank=True, default="")  # why it cannot be read ("" : it can)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"watched {self.path}"
