
"""Write session.jsonl: a synthetic Claude Code transcript (written by hand for the retention corpus).

A Django 5.1 + PostgreSQL project run with docker compose; the user (non-native English) replaces a
boolean column with a status field on a 14M-row table whose production database the team cannot
write to. Held-out (test) session: lives only under /work/heldout/test/. Run: python make_session.py
"""

from __future__ import annotations

import json
import sys
import uuid as uuidlib
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CWD = "/home/ines/work/clinicbook"
SID = "5d0c8e2a-7f41-4b9e-a3c6-18e2f7d90b54"
VERSION = "2.0.37"
MODEL = "claude-sonnet-4-5-20250929"

lines: list[dict] = []
clock = datetime(2025, 11, 24, 13, 5, 12, 400000, tzinfo=UTC)
last_main: str | None = None
counter = 0
context = 14500


def ts(step: float) -> str:
    global clock
    clock += timedelta(seconds=step)
    return clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{clock.microsecond // 1000:03d}Z"


def new_uuid() -> str:
    global counter
    counter += 1
    return str(uuidlib.uuid5(uuidlib.UUID(SID), f"rec-{counter}"))


def base(kind: str, parent: str | None, side: bool = False) -> dict:
    return {
        "parentUuid": parent,
        "isSidechain": side,
        "userType": "external",
        "cwd": CWD,
        "sessionId": SID,
        "version": VERSION,
        "gitBranch": branch,
        "type": kind,
    }


branch = "main"


def usage(out: int) -> dict:
    return {
        "input_tokens": 6,
        "cache_creation_input_tokens": 900,
        "cache_read_input_tokens": context,
        "cache_creation": {"ephemeral_5m_input_tokens": 900, "ephemeral_1h_input_tokens": 0},
        "output_tokens": out,
        "service_tier": "standard",
    }


def user(text: str) -> None:
    global last_main, context
    u = new_uuid()
    r = base("user", last_main) | {"message": {"role": "user", "content": text}, "uuid": u, "timestamp": ts(40)}
    lines.append(r)
    last_main = u
    context += len(text) // 4


def assistant(blocks: list[dict], *, side: bool = False, parent: str | None = None) -> str:
    """One API message written as Claude Code does: a record per content block, same message id."""
    global last_main, context
    mid = "msg_01" + uuidlib.uuid5(uuidlib.UUID(SID), f"m{counter}").hex[:22]
    req = "req_011C" + uuidlib.uuid5(uuidlib.UUID(SID), f"r{counter}").hex[:20]
    p = parent if side else last_main
    out = sum(len(json.dumps(b)) for b in blocks) // 4 + 20
    for b in blocks:
        u = new_uuid()
        msg = {
            "model": MODEL,
            "id": mid,
            "type": "message",
            "role": "assistant",
            "content": [b],
            "stop_reason": "tool_use" if b["type"] == "tool_use" else None,
            "stop_sequence": None,
            "usage": usage(out),
        }
        r = base("assistant", p, side) | {"message": msg, "requestId": req, "uuid": u, "timestamp": ts(3)}
        if side:
            r["agentId"] = "a3f9c2d1"
        lines.append(r)
        p = u
        if not side:
            context += len(json.dumps(b)) // 4
    if not side:
        last_main = p
    return p


def result(tool_id: str, content, extra: dict, *, is_error: bool = False, side: bool = False, parent: str | None = None, step: float = 1.0) -> str:
    global last_main, context
    u = new_uuid()
    block = {"tool_use_id": tool_id, "type": "tool_result", "content": content}
    if is_error:
        block["is_error"] = True
    p = parent if side else last_main
    r = base("user", p, side) | {"message": {"role": "user", "content": [block]}, "uuid": u, "timestamp": ts(step), "toolUseResult": extra}
    if side:
        r["agentId"] = "a3f9c2d1"
    lines.append(r)
    if not side:
        last_main = u
        context += len(json.dumps(content)) // 4
    return u


n_tool = 0


def tool_id() -> str:
    global n_tool
    n_tool += 1
    return "toolu_01" + uuidlib.uuid5(uuidlib.UUID(SID), f"t{n_tool}").hex[:22]


def say(text: str) -> None:
    assistant([{"type": "text", "text": text}])


def call(name: str, args: dict, out: str, *, text: str | None = None, is_error: bool = False, step: float = 1.0, extra: dict | None = None) -> None:
    tid = tool_id()
    blocks: list[dict] = []
    if text:
        blocks.append({"type": "text", "text": text})
    blocks.append({"type": "tool_use", "id": tid, "name": name, "input": args})
    assistant(blocks)
    result(tid, out, extra or {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}, is_error=is_error, step=step)


def bash(cmd: str, desc: str, out: str, *, code: int = 0, text: str | None = None, step: float = 1.0) -> None:
    body = out if code == 0 else f"Exit code {code}\n{out}"
    call("Bash", {"command": cmd, "description": desc}, body, text=text, is_error=code != 0, step=step)


def read(path: str, content: str, *, offset: int = 1, text: str | None = None) -> None:
    numbered = "\n".join(f"{i:>6}\u2192{ln}" for i, ln in enumerate(content.splitlines(), offset))
    args: dict = {"file_path": path}
    if offset != 1:
        args |= {"offset": offset, "limit": len(content.splitlines())}
    call("Read", args, numbered, text=text, extra={"type": "text", "file": {"filePath": path, "numLines": len(content.splitlines()), "startLine": offset, "totalLines": offset + len(content.splitlines()) + 3}})


def write(path: str, content: str, *, text: str | None = None) -> None:
    call("Write", {"file_path": path, "content": content}, f"File created successfully at: {path}", text=text, extra={"type": "create", "filePath": path})


def edit(path: str, old: str, new: str, snippet: str, first_line: int, *, text: str | None = None) -> None:
    numbered = "\n".join(f"{i:>6}\u2192{ln}" for i, ln in enumerate(snippet.splitlines(), first_line))
    out = f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n{numbered}"
    call("Edit", {"file_path": path, "old_string": old, "new_string": new}, out, text=text, extra={"filePath": path, "oldString": old, "newString": new})


def multiedit(path: str, edits: list[tuple[str, str]], *, text: str | None = None) -> None:
    listing = "\n".join(f'{i}. Replaced "{o[:60]}..." with "{n[:60]}..."' for i, (o, n) in enumerate(edits, 1))
    call("MultiEdit", {"file_path": path, "edits": [{"old_string": o, "new_string": n} for o, n in edits]}, f"Applied {len(edits)} edits to {path}:\n{listing}", text=text, extra={"filePath": path})


def todo(items: list[tuple[str, str]]) -> None:
    todos = [{"content": c, "status": s, "activeForm": c[0].upper() + c[1:]} for c, s in items]
    call("TodoWrite", {"todos": todos}, "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable", extra={"oldTodos": [], "newTodos": todos})



# --- the repository as the agent sees it -------------------------------------------------------

MODELS_OLD = '''from django.conf import settings
from django.db import models
from django.utils import timezone

from apps.clinics.models import Clinic, Practitioner
from apps.patients.models import Patient


class AppointmentQuerySet(models.QuerySet):
    def upcoming(self):
        return self.filter(is_cancelled=False, start_at__gte=timezone.now())

    def for_practitioner(self, practitioner):
        return self.filter(practitioner=practitioner)


class Appointment(models.Model):
    clinic = models.ForeignKey(Clinic, on_delete=models.PROTECT, related_name="appointments")
    practitioner = models.ForeignKey(Practitioner, on_delete=models.PROTECT, related_name="appointments")
    patient = models.ForeignKey(Patient, on_delete=models.PROTECT, related_name="appointments")
    start_at = models.DateTimeField()
    duration_min = models.PositiveSmallIntegerField(default=20)
    is_cancelled = models.BooleanField(default=False)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancelled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    objects = AppointmentQuerySet.as_manager()

    class Meta:
        ordering = ["start_at"]
        indexes = [
            models.Index(fields=["practitioner", "start_at"], name="appt_practitioner_start_idx"),
            models.Index(
                fields=["start_at"],
                name="appt_not_cancelled_start_idx",
                condition=models.Q(is_cancelled=False),
            ),
        ]

    def __str__(self):
        return f"{self.patient} @ {self.start_at:%Y-%m-%d %H:%M}"

    def cancel(self, by=None):
        self.is_cancelled = True
        self.cancelled_at = timezone.now()
        self.cancelled_by = by
        self.save(update_fields=["is_cancelled", "cancelled_at", "cancelled_by"])
'''

COMPOSE = '''services:
  db:
    image: postgres:16.4
    environment:
      POSTGRES_DB: clinicbook
      POSTGRES_USER: clinicbook
      POSTGRES_PASSWORD: clinicbook
    ports:
      - "5433:5432"
    volumes:
      - pgdata:/var/lib/postgresql/data
    healthcheck:
      test: ["CMD-SHELL", "pg_isready -U clinicbook"]
      interval: 2s
      retries: 30
  web:
    build: .
    command: python manage.py runserver 0.0.0.0:8000
    env_file: .env.dev
    depends_on:
      db:
        condition: service_healthy
    volumes:
      - .:/app
    ports:
      - "8000:8000"
  worker:
    build: .
    command: celery -A clinicbook worker -l info
    env_file: .env.dev
    depends_on: [db, redis]
  redis:
    image: redis:7.2
volumes:
  pgdata:
'''

REPORT = """Search done for `is_cancelled` (and the column name in SQL, templates, JS and docs). 27 hits in 11 files. Grouped by who owns them:

**Code we own (apps/)**
1. `apps/appointments/models.py`: field, `AppointmentQuerySet.upcoming()` filters `is_cancelled=False`, `cancel()` sets it, partial index `appt_not_cancelled_start_idx` has `condition=Q(is_cancelled=False)`.
2. `apps/appointments/views.py:88,131`: calendar view hides cancelled with `.exclude(is_cancelled=True)`; `cancel_view` calls `appointment.cancel(by=request.user)`.
3. `apps/appointments/templates/appointments/calendar.html:42`: `{% if appt.is_cancelled %}` for the strike-through style.
4. `apps/reminders/tasks.py:19`: Celery task `send_reminders` selects `Appointment.objects.filter(is_cancelled=False, start_at__range=...)`. Runs every 10 minutes (beat schedule in `clinicbook/celery.py`).
5. `apps/api/serializers.py:57`: `AppointmentSerializer.Meta.fields` exposes `is_cancelled` in the public REST API (v1). The mobile app reads it (see `docs/api/v1.md`: "stable, no removals without a v2").
6. `tests/factories.py:33`: `AppointmentFactory.is_cancelled = False`; 9 tests set it directly.

**Owned by other teams**
7. `billing/migrations/0014_appointment_view.py`: creates the DB view `billing_appointment_v` with `SELECT a.id, a.clinic_id, a.start_at, a.is_cancelled, ...` FROM appointments_appointment. Postgres will refuse to drop or retype `is_cancelled` while this view exists (no CASCADE wanted: the billing invoices job reads the view). billing/ CODEOWNERS: @clinicbook/billing.
8. `reports/sql/monthly_noshow.sql:12`: `WHERE NOT a.is_cancelled AND a.checked_in_at IS NULL`; owned by the data team (reports/CODEOWNERS: @clinicbook/data).
9. `docs/ops/metabase.md`: Metabase dashboards "Cancellations per clinic" and "No-show rate" query `appointments_appointment.is_cancelled` directly on the read replica.

**Other notes**
- No raw SQL in apps/ touches the column; all ORM.
- `docs/ops/postgres.md` says prod runs PostgreSQL 11.22 on RDS (local compose uses 16.4), upgrade to 15 planned for Q1.
- Nothing writes `is_cancelled` except `cancel()` and the admin (ModelAdmin with default form in `apps/appointments/admin.py`).

Risky for a drop later: items 5 (public API), 7 (billing view), 8 and 9 (external readers)."""

MIGRATE_ERR_TB = """Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/psycopg/cursor.py", line 97, in execute
    raise ex.with_traceback(None)
psycopg.errors.NotNullViolation: column "status" of relation "appointments_appointment" contains null values

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/app/manage.py", line 22, in <module>
    main()
  File "/app/manage.py", line 18, in main
    execute_from_command_line(sys.argv)
  File "/usr/local/lib/python3.12/site-packages/django/core/management/__init__.py", line 442, in execute_from_command_line
    utility.execute()
  File "/usr/local/lib/python3.12/site-packages/django/core/management/__init__.py", line 436, in execute
    self.fetch_command(subcommand).run_from_argv(self.argv)
  File "/usr/local/lib/python3.12/site-packages/django/core/management/base.py", line 413, in run_from_argv
    self.execute(*args, **cmd_options)
  File "/usr/local/lib/python3.12/site-packages/django/core/management/base.py", line 459, in execute
    output = self.handle(*args, **options)
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/core/management/base.py", line 107, in wrapper
    res = handle_func(*args, **kwargs)
          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/core/management/commands/migrate.py", line 357, in handle
    post_migrate_state = executor.migrate(
                         ^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/migrations/executor.py", line 135, in migrate
    state = self._migrate_all_forwards(
            ^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/migrations/executor.py", line 167, in _migrate_all_forwards
    state = self.apply_migration(
            ^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/migrations/executor.py", line 255, in apply_migration
    state = migration.apply(state, schema_editor)
            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/migrations/migration.py", line 132, in apply
    operation.database_forwards(
  File "/usr/local/lib/python3.12/site-packages/django/db/migrations/operations/fields.py", line 241, in database_forwards
    schema_editor.alter_field(from_model, from_field, to_field)
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/schema.py", line 878, in alter_field
    self._alter_field(
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/postgresql/schema.py", line 307, in _alter_field
    super()._alter_field(
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/schema.py", line 1148, in _alter_field
    self.execute(

  File "/usr/local/lib/python3.12/site-packages/django/db/backends/postgresql/schema.py", line 45, in execute
    return super().execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/schema.py", line 202, in execute
    cursor.execute(sql, params)
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/utils.py", line 79, in execute
    return self._execute_with_wrappers(
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/utils.py", line 92, in _execute_with_wrappers
    return executor(sql, params, many, context)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/utils.py", line 100, in _execute
    with self.db.wrap_database_errors:
         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/utils.py", line 91, in __exit__
    raise dj_exc_value.with_traceback(traceback) from exc_value
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/psycopg/cursor.py", line 97, in execute
    raise ex.with_traceback(None)
django.db.utils.IntegrityError: column "status" of relation "appointments_appointment" contains null values"""

SHOWMIG = """appointments
 [X] 0001_initial
 [X] 0002_appointment_note
 [X] 0003_appointment_duration_min
 [X] 0004_auto_20230212_1044
 [X] 0005_appointment_cancelled_by
 [X] 0006_practitioner_index
 [X] 0007_appointment_cancelled_at
 [X] 0008_alter_appointment_options
 [X] 0009_appointment_clinic
 [X] 0010_backfill_clinic
 [X] 0011_appointment_clinic_not_null
 [X] 0012_auto_20231003_0915
 [X] 0013_appt_not_cancelled_start_idx
 [X] 0014_remove_appointment_legacy_ref
 [X] 0015_alter_appointment_duration_min
 [X] 0016_appointment_created_at
 [X] 0017_alter_appointment_ordering
 [X] 0018_auto_20240418_1620
 [X] 0019_appointment_room
 [X] 0020_remove_appointment_room
 [X] 0021_alter_appointment_patient
 [X] 0022_alter_appointment_practitioner
 [X] 0023_appointment_source
 [X] 0024_remove_appointment_source
 [X] 0025_alter_appointment_note
 [X] 0026_auto_20240911_0802
 [X] 0027_alter_appointment_cancelled_by
 [X] 0028_appointment_checked_in_at
 [X] 0029_alter_appointment_checked_in_at
 [X] 0030_appointment_reminder_sent_at"""

SQL_FILE = """-- clinicbook: Appointment.status (replaces is_cancelled), deploy Thursday 2025-11-27
-- For the DBA team (Piotr). Generated from Django migrations 0031 and 0032 (sqlmigrate) and checked
-- on a copy of the dev database (docker compose, PostgreSQL 16.4; 212,480 rows in 9.8 s).
-- Prod: PostgreSQL 11.22 on RDS, ~14M rows. Run with psql -v ON_ERROR_STOP=1, NOT inside one
-- big transaction: each part below manages its own.

-- ===== Part 1: add the column (migration 0031). Metadata-only, no table rewrite. ==============
SET lock_timeout = '3s';        -- fail fast instead of queueing behind a long query
BEGIN;
ALTER TABLE "appointments_appointment" ADD COLUMN "status" varchar(10) NULL;
COMMIT;
RESET lock_timeout;

-- ===== Part 2: backfill in batches of 5000 rows, one transaction per batch. ====================
-- Safe to re-run: only rows with status IS NULL are touched. The application writes status for
-- new and changed rows from the deploy on (dual write), so the backfill only chases old rows.
DO $$
DECLARE
    batch_size constant int := 5000;
    last_id bigint := 0;
    max_id bigint;
    n int;
    batches int := 0;
BEGIN
    SELECT coalesce(max(id), 0) INTO max_id FROM appointments_appointment;
    WHILE last_id < max_id LOOP
        UPDATE appointments_appointment
           SET status = CASE
                   WHEN is_cancelled THEN 'cancelled'
                   WHEN start_at < now() THEN 'done'
                   ELSE 'booked'
               END
         WHERE id > last_id AND id <= last_id + batch_size AND status IS NULL;
        GET DIAGNOSTICS n = ROW_COUNT;
        last_id := last_id + batch_size;
        batches := batches + 1;
        COMMIT;
        IF batches % 200 = 0 THEN
            RAISE NOTICE 'backfill: up to id % (% batches)', last_id, batches;
        END IF;
    END LOOP;
    RAISE NOTICE 'backfill done: % batches', batches;
END $$;
"""


def tell(m) -> None:
    bash_, read_, say_, user_ = m.bash, m.read, m.say, m.user

    # --- turn 1 --------------------------------------------------------------------------------
    user_(
        "Hello! We need to replace the boolean `is_cancelled` on Appointment by a `status` field "
        "(values: booked / cancelled / no_show / done). The appointments table is big in prod, around 14M rows "
        "(prod DB is read-only for us, the DBA team apply the migrations from a SQL file we send them). "
        "Could we avoid a downtime? And please no raw SQL in the migrations (only Django operations), "
        "the DBAs like to read the sqlmigrate output."
    )
    m.todo([
        ("read the Appointment model and its migrations", "in_progress"),
        ("find every use of is_cancelled", "pending"),
        ("propose a zero-downtime migration plan", "pending"),
    ])
    read_(f"{m.CWD}/apps/appointments/models.py", MODELS_OLD)
    bash_("ls apps/appointments/migrations | tail -5 && git log --oneline -3", "List latest migrations and commits",
          "0027_alter_appointment_cancelled_by.py\n0028_appointment_checked_in_at.py\n0029_alter_appointment_checked_in_at.py\n0030_appointment_reminder_sent_at.py\n__init__.py\nb71c4e2 reminders: store reminder_sent_at (#588)\n0f2d9a1 calendar: week view for practitioners\n6e3a5b7 deps: django 5.1.3")
    read_(f"{m.CWD}/docker-compose.yml", COMPOSE)
    bash_("docker compose up -d db && docker compose ps", "Start the local Postgres",
          "[+] Running 2/2\n \u2714 Network clinicbook_default  Created                                   0.1s\n \u2714 Container clinicbook-db-1    Healthy                                   4.3s\nNAME              IMAGE           COMMAND                  SERVICE   CREATED         STATUS                   PORTS\nclinicbook-db-1   postgres:16.4   \"docker-entrypoint.s\u2026\"   db        5 seconds ago   Up 4 seconds (healthy)   0.0.0.0:5433->5432/tcp")
    bash_("docker compose run --rm web python manage.py showmigrations appointments", "Show applied migrations", SHOWMIG, step=6)
    bash_(
        "docker compose exec db psql -U clinicbook -c '\\d appointments_appointment' -c 'select count(*), count(*) filter (where is_cancelled) as cancelled from appointments_appointment'",
        "Inspect the table and row counts",
        """                                   Table "public.appointments_appointment"
     Column      |           Type           | Collation | Nullable |                 Default
-----------------+--------------------------+-----------+----------+------------------------------------------
 id              | bigint                   |           | not null | generated by default as identity
 start_at        | timestamp with time zone |           | not null |
 duration_min    | smallint                 |           | not null |
 is_cancelled    | boolean                  |           | not null |
 cancelled_at    | timestamp with time zone |           |          |
 note            | text                     |           | not null |
 created_at      | timestamp with time zone |           | not null |
 cancelled_by_id | integer                  |           |          |
 clinic_id       | bigint                   |           | not null |
 patient_id      | bigint                   |           | not null |
 practitioner_id | bigint                   |           | not null |
 checked_in_at   | timestamp with time zone |           |          |
 reminder_sent_at| timestamp with time zone |           |          |
Indexes:
    "appointments_appointment_pkey" PRIMARY KEY, btree (id)
    "appointments_appointment_cancelled_by_id_5a1f0b3e" btree (cancelled_by_id)
    "appointments_appointment_clinic_id_9c2d7e10" btree (clinic_id)
    "appointments_appointment_patient_id_7b7e3c4a" btree (patient_id)
    "appt_not_cancelled_start_idx" btree (start_at) WHERE NOT is_cancelled
    "appt_practitioner_start_idx" btree (practitioner_id, start_at)
Check constraints:
    "appointments_appointment_duration_min_check" CHECK (duration_min >= 0)
Foreign-key constraints:
    "appointments_appointment_clinic_id_9c2d7e10_fk_clinics_clinic_id" FOREIGN KEY (clinic_id) REFERENCES clinics_clinic(id) DEFERRABLE INITIALLY DEFERRED
    "appointments_appointment_patient_id_7b7e3c4a_fk_patients_patient_id" FOREIGN KEY (patient_id) REFERENCES patients_patient(id) DEFERRABLE INITIALLY DEFERRED
    "appointments_appointment_practitioner_id_3e0a9f55_fk_clinics_practitioner_id" FOREIGN KEY (practitioner_id) REFERENCES clinics_practitioner(id) DEFERRABLE INITIALLY DEFERRED
Referenced by:
    TABLE "billing_invoiceline" CONSTRAINT "billing_invoiceline_appointment_id_fk" FOREIGN KEY (appointment_id) REFERENCES appointments_appointment(id) DEFERRABLE INITIALLY DEFERRED

 count  | cancelled
--------+-----------
 212480 |     31077
(1 row)""",
    )
    read_(f"{m.CWD}/docs/deploy/zero-downtime.md", '''# Zero-downtime schema changes

We deploy several times a week without a maintenance window. Production schema changes are
applied by the DBA team from a SQL file (see docs/ops/postgres.md); the application deploy and the
SQL are coordinated in #dba. This page lists what is safe on our production PostgreSQL.

## Safe (metadata only, short lock)
- `ADD COLUMN ... NULL` without a default.
- `ADD COLUMN ... DEFAULT <constant>` (PostgreSQL 11+: no rewrite).
- `DROP COLUMN` (the column is only marked dropped), once no code and no view reads it.
- `ADD CONSTRAINT ... NOT VALID` (CHECK and FOREIGN KEY).
- `CREATE INDEX CONCURRENTLY` / `DROP INDEX CONCURRENTLY` (outside a transaction).

## Needs care
- `VALIDATE CONSTRAINT`: scans the table, SHARE UPDATE EXCLUSIVE lock (reads and writes continue).
- Backfills: in batches, each batch its own transaction; never one UPDATE over a big table.
- Every DDL statement: `SET lock_timeout` (we use 3s) so it cannot queue behind a long query and
  block everything behind itself.

## Not safe on big tables
- `ALTER COLUMN ... TYPE` (rewrite, ACCESS EXCLUSIVE).
- Adding a CHECK or FOREIGN KEY without NOT VALID (validates under ACCESS EXCLUSIVE).
- `CREATE INDEX` without CONCURRENTLY (blocks writes for the whole build).
- `RunPython` data migrations over big tables (one transaction, long row locks).

## Expand / contract
1. Expand: add the new column; the app writes both old and new (dual write).
2. Backfill old rows in batches.
3. Move readers to the new column.
4. Contract: drop the old column in a later release, after every reader (including BI and
   other teams' views) has moved.''')
    # the sub-agent: its own records on a side chain, then its report as the Task result
    tid = m.tool_id()
    prompt = (
        "In the Django repo at /home/ines/work/clinicbook, find every place that reads or writes the "
        "Appointment.is_cancelled column: Python (ORM filters, serializers, admin, tasks), templates, raw SQL "
        "files, DB views created in migrations of any app, docs that mention external readers (BI, Metabase). "
        "For each: file:line, what it does, and which team owns it (CODEOWNERS). Also note the production "
        "PostgreSQL version if the docs say it. Report in under 40 lines, grouped by owner. Do not edit anything."
    )
    m.assistant([
        {"type": "text", "text": "Before planning I want the full list of readers of the column, including ones outside the ORM, since those decide when `is_cancelled` can go. I'll have a sub-agent survey it."},
        {"type": "tool_use", "id": tid, "name": "Task", "input": {"description": "Find all is_cancelled usages", "prompt": prompt, "subagent_type": "general-purpose"}},
    ])
    s0 = m.new_uuid()
    m.lines.append(m.base("user", None, True) | {"message": {"role": "user", "content": prompt}, "uuid": s0, "timestamp": m.ts(1), "agentId": "a3f9c2d1"})
    g1 = m.tool_id()
    p = m.assistant([{"type": "tool_use", "id": g1, "name": "Grep", "input": {"pattern": "is_cancelled", "path": m.CWD, "output_mode": "content", "-n": True}}], side=True, parent=s0)
    p = m.result(g1, "apps/appointments/models.py:11:        return self.filter(is_cancelled=False, start_at__gte=timezone.now())\napps/appointments/models.py:22:    is_cancelled = models.BooleanField(default=False)\napps/appointments/models.py:39:                condition=models.Q(is_cancelled=False),\napps/appointments/models.py:47:        self.is_cancelled = True\napps/appointments/models.py:50:        self.save(update_fields=[\"is_cancelled\", \"cancelled_at\", \"cancelled_by\"])\napps/appointments/views.py:88:        .exclude(is_cancelled=True)\napps/appointments/templates/appointments/calendar.html:42:{% if appt.is_cancelled %}\napps/reminders/tasks.py:19:    qs = Appointment.objects.filter(is_cancelled=False, start_at__range=(start, end))\napps/api/serializers.py:57:            \"is_cancelled\",\nbilling/migrations/0014_appointment_view.py:9:    SELECT a.id, a.clinic_id, a.start_at, a.is_cancelled, a.duration_min\nreports/sql/monthly_noshow.sql:12:  WHERE NOT a.is_cancelled AND a.checked_in_at IS NULL\ndocs/ops/metabase.md:31:- \"Cancellations per clinic\": `appointments_appointment.is_cancelled` grouped by clinic_id\ntests/factories.py:33:    is_cancelled = False", {"mode": "content", "numLines": 13}, side=True, parent=p)
    g2 = m.tool_id()
    p = m.assistant([{"type": "tool_use", "id": g2, "name": "Bash", "input": {"command": "grep -n -i -A2 'postgres' docs/ops/postgres.md | head -20; cat billing/CODEOWNERS reports/CODEOWNERS", "description": "Prod PG version and owners"}}], side=True, parent=p)
    p = m.result(g2, "3:Production: PostgreSQL 11.22 on Amazon RDS (db.r6g.2xlarge), one read replica for Metabase.\n4-Upgrade to PostgreSQL 15 planned for Q1 2026 (ticket OPS-412).\n5-Local development uses the postgres:16.4 image (docker-compose.yml).\n* @clinicbook/billing\n* @clinicbook/data", {"stdout": "", "stderr": "", "interrupted": False, "isImage": False}, side=True, parent=p)
    m.assistant([{"type": "text", "text": REPORT}], side=True, parent=p)
    m.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": prompt, "totalDurationMs": 48211, "totalTokens": 21877, "totalToolUseCount": 9, "content": [{"type": "text", "text": REPORT}]}, step=48)
    say_(
        "Yes, we can do it without downtime, with an expand/contract plan. Proposal:\n\n"
        "1. **0031 (expand)**: add `status varchar(10) NULL` with no default. On PostgreSQL 11 this is metadata-only (no table rewrite), it needs only a very short ACCESS EXCLUSIVE lock; with `lock_timeout` it cannot queue behind long queries.\n"
        "2. **Dual write in the app**: `save()`/`cancel()` keep `status` and `is_cancelled` in sync, so new rows are right from the deploy on.\n"
        "3. **Backfill** the 14M old rows in small batches (not in one statement, not in one transaction).\n"
        "4. **0032**: the check constraint / NOT NULL, after the backfill.\n"
        "5. Switch the readers we own to `status`; keep `is_cancelled` for now.\n\n"
        "Important from the survey: `is_cancelled` cannot be dropped soon anyway. The billing view `billing_appointment_v` selects it (Postgres will refuse the drop), the public API v1 exposes it, `reports/sql/monthly_noshow.sql` (data team) and two Metabase dashboards read it. Prod is **PostgreSQL 11.22** (local is 16.4), which matters for some lock behaviour. OK to keep `is_cancelled` for this release?"
    )

    # --- turn 2 --------------------------------------------------------------------------------
    user_(
        "Yes the plan is good. (we must keep is_cancelled at least until the Metabase dashboards are changed, BI team said two weeks.) "
        "The backfill of 14M rows inside one migration is ok? I think it lock too long."
    )
    say_(
        "Agreed, not in a migration: a `RunPython` backfill would run inside the migration's transaction, holding row locks on all 14M rows until the end. And since the prod DB is read-only for us, a management command is no option either: the DBAs have to run it. So I'll deliver the backfill as plain SQL for them: a `DO` block that updates 5000 rows per batch by id range and `COMMIT`s after each batch (transaction control in `DO` works from PostgreSQL 11, so prod is fine). Re-runnable because it only touches `status IS NULL`.\n\nFirst the model and migration 0031."
    )
    m.multiedit(f"{m.CWD}/apps/appointments/models.py", [
        ("class AppointmentQuerySet(models.QuerySet):", "class AppointmentStatus(models.TextChoices):\n    BOOKED = \"booked\", \"Booked\"\n    CANCELLED = \"cancelled\", \"Cancelled\"\n    NO_SHOW = \"no_show\", \"No show\"\n    DONE = \"done\", \"Done\"\n\n\nclass AppointmentQuerySet(models.QuerySet):"),
        ("    is_cancelled = models.BooleanField(default=False)\n", "    is_cancelled = models.BooleanField(default=False)  # legacy: kept in sync with status until readers move (billing view, Metabase, API v1)\n    # Nullable until the backfill has run in prod; a CHECK constraint then guarantees it (0032).\n    status = models.CharField(max_length=10, choices=AppointmentStatus.choices, null=True, blank=True)\n"),
        ("    def cancel(self, by=None):\n        self.is_cancelled = True\n        self.cancelled_at = timezone.now()\n        self.cancelled_by = by\n        self.save(update_fields=[\"is_cancelled\", \"cancelled_at\", \"cancelled_by\"])", "    def save(self, *args, **kwargs):\n        # Dual write during the migration: status is the truth, is_cancelled follows it.\n        if self.status is None:\n            self.status = AppointmentStatus.CANCELLED if self.is_cancelled else AppointmentStatus.BOOKED\n        self.is_cancelled = self.status == AppointmentStatus.CANCELLED\n        super().save(*args, **kwargs)\n\n    def cancel(self, by=None):\n        self.status = AppointmentStatus.CANCELLED\n        self.cancelled_at = timezone.now()\n        self.cancelled_by = by\n        self.save(update_fields=[\"status\", \"is_cancelled\", \"cancelled_at\", \"cancelled_by\"])"),
    ])
    bash_("docker compose run --rm web python manage.py makemigrations appointments -n appointment_status", "Create migration 0031",
          "Migrations for 'appointments':\n  apps/appointments/migrations/0031_appointment_status.py\n    + Add field status to appointment", step=5)
    read_(f"{m.CWD}/apps/appointments/migrations/0031_appointment_status.py", '''# Generated by Django 5.1.3 on 2025-11-24 13:18

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("appointments", "0030_appointment_reminder_sent_at"),
    ]

    operations = [
        migrations.AddField(
            model_name="appointment",
            name="status",
            field=models.CharField(
                blank=True,
                choices=[("booked", "Booked"), ("cancelled", "Cancelled"), ("no_show", "No show"), ("done", "Done")],
                max_length=10,
                null=True,
            ),
        ),
    ]''')
    bash_("docker compose run --rm web python manage.py sqlmigrate appointments 0031", "SQL of migration 0031",
          'BEGIN;\n--\n-- Add field status to appointment\n--\nALTER TABLE "appointments_appointment" ADD COLUMN "status" varchar(10) NULL;\nCOMMIT;', step=4)
    bash_("docker compose run --rm web pytest -q apps/appointments -p no:cacheprovider", "Run appointment tests",
          """........................F.......F................                                      [100%]
=================================== FAILURES ===================================
____________________ test_csv_import_creates_booked_appointments _____________________

db = None, clinic = <Clinic: Lisboa Centro>, csv_file = PosixPath('/tmp/pytest-of-root/pytest-0/test_csv_import0/import.csv')

    def test_csv_import_creates_booked_appointments(db, clinic, csv_file):
        import_appointments(csv_file, clinic=clinic)
        statuses = set(Appointment.objects.values_list("status", flat=True))
>       assert statuses == {"booked"}
E       AssertionError: assert {None} == {'booked'}
E         Extra items in the left set:
E         None
E         Extra items in the right set:
E         'booked'

apps/appointments/tests/test_importers.py:41: AssertionError
_______________________ test_admin_cancel_selected_action ________________________

admin_client = <django.test.client.Client object at 0x7f1c9a2b4e50>, appointment = <Appointment: Rui Costa @ 2025-12-02 09:20>

    def test_admin_cancel_selected_action(admin_client, appointment):
        admin_client.post(CHANGELIST_URL, {"action": "cancel_selected", "_selected_action": [appointment.pk]})
        appointment.refresh_from_db()
        assert appointment.is_cancelled is True
>       assert appointment.status == "cancelled"
E       AssertionError: assert 'booked' == 'cancelled'
E         - cancelled
E         + booked

apps/appointments/tests/test_admin.py:58: AssertionError
=========================== short test summary info ============================
FAILED apps/appointments/tests/test_importers.py::test_csv_import_creates_booked_appointments - AssertionError: assert {None} == {'booked'}
FAILED apps/appointments/tests/test_admin.py::test_admin_cancel_selected_action - AssertionError: assert 'booked' == 'cancelled'
2 failed, 47 passed in 6.84s""", code=1, step=9)
    say_(
        "Both failures are code paths that bypass `Appointment.save()`, so my dual write never runs there:\n\n- the CSV importer (`apps/appointments/importers.py`) uses `bulk_create`, which does not call `save()`: new rows get `status = NULL`;\n- the admin action \"Cancel selected\" (`apps/appointments/admin.py`) uses `queryset.update(is_cancelled=True, ...)`: `status` stays `booked`.\n\nAny `bulk_create`/`update()` must write both columns until `is_cancelled` is gone. Fixing both call sites."
    )
    read_(f"{m.CWD}/apps/appointments/importers.py", '''"""CSV import of appointments from the old booking tool (clinics migrating to clinicbook)."""

import csv
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from apps.clinics.models import Practitioner
from apps.patients.models import Patient

from .models import Appointment, AppointmentStatus

REQUIRED = ("practitioner_code", "patient_number", "start", "duration")


@dataclass(frozen=True)
class Row:
    practitioner: Practitioner
    patient: Patient
    start_at: datetime
    duration_min: int


class ImportError_(ValueError):
    pass


def _parse(reader, clinic):
    practitioners = {p.code: p for p in Practitioner.objects.filter(clinic=clinic)}
    for n, raw in enumerate(reader, start=2):
        missing = [k for k in REQUIRED if not raw.get(k)]
        if missing:
            raise ImportError_(f"line {n}: missing {', '.join(missing)}")
        patient = Patient.objects.get(clinic=clinic, number=raw["patient_number"])
        start = timezone.make_aware(datetime.fromisoformat(raw["start"]))
        yield Row(practitioners[raw["practitioner_code"]], patient, start, int(raw["duration"]))


@transaction.atomic
def import_appointments(path, clinic):
    with open(path, newline="", encoding="utf-8") as fh:
        rows = list(_parse(csv.DictReader(fh), clinic))
    Appointment.objects.bulk_create(
        [
            Appointment(clinic=clinic, practitioner=row.practitioner, patient=row.patient, start_at=row.start_at)
            for row in rows
        ],
        batch_size=500,
    )
    return len(rows)''')
    read_(f"{m.CWD}/apps/appointments/admin.py", '''from django.contrib import admin
from django.utils import timezone

from .models import Appointment, AppointmentStatus


@admin.register(Appointment)
class AppointmentAdmin(admin.ModelAdmin):
    list_display = ("start_at", "patient", "practitioner", "clinic", "is_cancelled")
    list_filter = ("clinic", "is_cancelled")
    search_fields = ("patient__last_name", "patient__number", "practitioner__code")
    date_hierarchy = "start_at"
    raw_id_fields = ("patient", "practitioner", "cancelled_by")
    actions = ["cancel_selected"]

    @admin.action(description="Cancel selected")
    def cancel_selected(self, request, queryset):
        updated = queryset.update(is_cancelled=True, cancelled_at=timezone.now(), cancelled_by=request.user)
        self.message_user(request, f"{updated} appointments cancelled")''', offset=1)
    m.edit(f"{m.CWD}/apps/appointments/importers.py",
           "            Appointment(clinic=clinic, practitioner=row.practitioner, patient=row.patient, start_at=row.start_at)",
           "            # bulk_create skips Appointment.save(): write both columns here (dual write).\n            Appointment(clinic=clinic, practitioner=row.practitioner, patient=row.patient, start_at=row.start_at,\n                        status=AppointmentStatus.BOOKED, is_cancelled=False)",
           "    Appointment.objects.bulk_create(\n        [\n            # bulk_create skips Appointment.save(): write both columns here (dual write).\n            Appointment(clinic=clinic, practitioner=row.practitioner, patient=row.patient, start_at=row.start_at,\n                        status=AppointmentStatus.BOOKED, is_cancelled=False)\n            for row in rows\n        ],\n        batch_size=500,\n    )", 52)
    m.edit(f"{m.CWD}/apps/appointments/admin.py",
           "        updated = queryset.update(is_cancelled=True, cancelled_at=timezone.now(), cancelled_by=request.user)",
           "        # update() skips Appointment.save(): keep status and is_cancelled in step (dual write).\n        updated = queryset.update(\n            status=AppointmentStatus.CANCELLED, is_cancelled=True, cancelled_at=timezone.now(), cancelled_by=request.user\n        )",
           "    @admin.action(description=\"Cancel selected\")\n    def cancel_selected(self, request, queryset):\n        # update() skips Appointment.save(): keep status and is_cancelled in step (dual write).\n        updated = queryset.update(\n            status=AppointmentStatus.CANCELLED, is_cancelled=True, cancelled_at=timezone.now(), cancelled_by=request.user\n        )\n        self.message_user(request, f\"{updated} appointments cancelled\")", 31)
    bash_("docker compose run --rm web pytest -q apps/appointments -p no:cacheprovider", "Re-run appointment tests",
          ".................................................                                      [100%]\n49 passed in 6.51s", step=9)

    # --- turn 3 --------------------------------------------------------------------------------
    user_(
        "Good. Piotr from DBA team ask: the file must be in deploy/sql/ with the date of deploy, deploy is Thursday 27 November. "
        "He also want the NOT NULL and the check in the same change window if possible. And what about lock_timeout?"
    )
    m.write(f"{m.CWD}/deploy/sql/2025-11-27_appointment_status.sql", SQL_FILE,
            text="Writing the DBA file: part 1 (0031, with `lock_timeout = '3s'` so the ALTER gives up instead of blocking the table behind a long query; Piotr can retry) and part 2 (the batched backfill). The constraint part comes after I have the migration for it.")
    bash_(
        "docker compose exec db createdb -U clinicbook -T clinicbook clinicbook_sqltest && docker compose exec -T db psql -U clinicbook -d clinicbook_sqltest -v ON_ERROR_STOP=1 -c '\\timing on' -f - < deploy/sql/2025-11-27_appointment_status.sql",
        "Try the SQL file on a copy of the dev DB",
        "SET\nBEGIN\nALTER TABLE\nCOMMIT\nRESET\npsql:<stdin>:45: NOTICE:  backfill done: 43 batches\nDO\nTime: 9812.331 ms (00:09.812)",
        step=12,
    )
    bash_(
        "docker compose exec db psql -U clinicbook -d clinicbook_sqltest -c 'select status, count(*) from appointments_appointment group by 1 order by 2 desc'",
        "Check the backfill result",
        "  status   | count\n-----------+--------\n done      | 164318\n cancelled |  31077\n booked    |  17085\n(3 rows)",
    )
    say_(
        "The SQL file works on a copy of the dev DB: 212,480 rows in 43 batches, **9.8 s**; no NULL left (done 164,318 / cancelled 31,077 / booked 17,085). Linear estimate for prod's 14M rows: about 65x, so **~11 minutes** of backfill, with normal traffic continuing (each batch commits).\n\n`no_show` cannot be derived from the old data (it was never stored), so old rows are never `no_show`; only the app will set it from now on.\n\nNow 0032 for NOT NULL + check, with Django operations as you asked."
    )
    write_0032 = '''from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("appointments", "0031_appointment_status")]

    operations = [
        migrations.AddConstraint(
            model_name="appointment",
            constraint=models.CheckConstraint(
                condition=models.Q(status__in=["booked", "cancelled", "no_show", "done"]),
                name="appointment_status_valid",
            ),
        ),
        migrations.AlterField(
            model_name="appointment",
            name="status",
            field=models.CharField(
                max_length=10,
                choices=[("booked", "Booked"), ("cancelled", "Cancelled"), ("no_show", "No show"), ("done", "Done")],
            ),
        ),
    ]
'''
    m.write(f"{m.CWD}/apps/appointments/migrations/0032_appointment_status_not_null.py", write_0032)
    bash_(
        "docker compose run --rm web sh -c 'python manage.py migrate appointments; python manage.py showmigrations appointments | tail -3'",
        "Apply 0031 and 0032 on the dev DB",
        "Operations to perform:\n  Apply all migrations: appointments\nRunning migrations:\n  Applying appointments.0031_appointment_status... OK\n  Applying appointments.0032_appointment_status_not_null..." + MIGRATE_ERR_TB.replace("Traceback", "Traceback", 1) + "\n [X] 0030_appointment_reminder_sent_at\n [X] 0031_appointment_status\n [ ] 0032_appointment_status_not_null",
        step=7,
    )
    bash_("docker compose logs db --no-log-prefix --tail 12", "Postgres log around the failure",
          "2025-11-24 13:31:07.412 UTC [118] LOG:  checkpoint starting: time\n2025-11-24 13:31:09.902 UTC [118] LOG:  checkpoint complete: wrote 25 buffers (0.2%); 0 WAL file(s) added, 0 removed, 0 recycled; write=2.405 s, sync=0.031 s, total=2.491 s\n2025-11-24 13:33:41.220 UTC [201] ERROR:  column \"status\" of relation \"appointments_appointment\" contains null values\n2025-11-24 13:33:41.220 UTC [201] STATEMENT:  ALTER TABLE \"appointments_appointment\" ALTER COLUMN \"status\" SET NOT NULL\n2025-11-24 13:33:41.236 UTC [201] LOG:  duration: 188.604 ms  statement: ALTER TABLE \"appointments_appointment\" ADD CONSTRAINT \"appointment_status_valid\" CHECK (\"status\" IN ('booked', 'cancelled', 'no_show', 'done'))\n2025-11-24 13:33:41.240 UTC [201] LOG:  could not receive data from client: Connection reset by peer")
    say_(
        "0032 failed on the dev DB; the salient line is in the middle of the traceback: `psycopg.errors.NotNullViolation: column \"status\" of relation \"appointments_appointment\" contains null values` (from the `AlterField` to NOT NULL). On dev that is only because the backfill has not run there. But it shows what 0032 would do in prod: Django's `AddConstraint` validates the whole table at once and `SET NOT NULL` scans it too, both under an ACCESS EXCLUSIVE lock, in one transaction: 14M rows scanned with reads and writes blocked. That is the downtime we want to avoid.\n\n"
        "The no-downtime way is `ADD CONSTRAINT ... NOT VALID` (instant) and then `VALIDATE CONSTRAINT` (scans, but with a SHARE UPDATE EXCLUSIVE lock: reads and writes continue). Django's operations cannot emit `NOT VALID`; it needs `RunSQL` (inside `SeparateDatabaseAndState` so Django's model state stays right). Can I use RunSQL for this one migration?"
    )

    # --- turn 4 --------------------------------------------------------------------------------
    user_("ok, RunSQL is fine for this (forget my rule about only Django operations, Piotr prefer the NOT VALID way anyway). Do it like that.")
    write_0032b = '''from django.db import migrations, models

STATUS_CHOICES = [("booked", "Booked"), ("cancelled", "Cancelled"), ("no_show", "No show"), ("done", "Done")]


class Migration(migrations.Migration):
    """NOT NULL + allowed values for status, without a long lock (docs/deploy/zero-downtime.md).

    NOT VALID adds the constraint instantly; VALIDATE scans the table under SHARE UPDATE EXCLUSIVE,
    so reads and writes go on. Run only after the backfill (deploy/sql/2025-11-27_appointment_status.sql).
    """

    dependencies = [("appointments", "0031_appointment_status")]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[
                migrations.RunSQL(
                    sql=[
                        "ALTER TABLE appointments_appointment ADD CONSTRAINT appointment_status_valid "
                        "CHECK (status IS NOT NULL AND status IN ('booked', 'cancelled', 'no_show', 'done')) NOT VALID",
                        "ALTER TABLE appointments_appointment VALIDATE CONSTRAINT appointment_status_valid",
                        "ALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL",
                    ],
                    reverse_sql=[
                        "ALTER TABLE appointments_appointment ALTER COLUMN status DROP NOT NULL",
                        "ALTER TABLE appointments_appointment DROP CONSTRAINT appointment_status_valid",
                    ],
                ),
            ],
            state_operations=[
                migrations.AddConstraint(
                    model_name="appointment",
                    constraint=models.CheckConstraint(
                        condition=models.Q(status__in=[c for c, _ in STATUS_CHOICES]),
                        name="appointment_status_valid",
                    ),
                ),
                migrations.AlterField(
                    model_name="appointment",
                    name="status",
                    field=models.CharField(max_length=10, choices=STATUS_CHOICES),
                ),
            ],
        ),
    ]
'''
    m.write(f"{m.CWD}/apps/appointments/migrations/0032_appointment_status_not_null.py", write_0032b)
    bash_(
        "docker compose exec -T db psql -U clinicbook -d clinicbook -v ON_ERROR_STOP=1 -f - < <(sed -n '/Part 2/,$p' deploy/sql/2025-11-27_appointment_status.sql) && docker compose run --rm web python manage.py migrate appointments",
        "Backfill the dev DB, then apply 0032",
        "psql:<stdin>:30: NOTICE:  backfill done: 43 batches\nDO\nOperations to perform:\n  Apply all migrations: appointments\nRunning migrations:\n  Applying appointments.0032_appointment_status_not_null... OK",
        step=15,
    )
    bash_("docker compose run --rm web python manage.py sqlmigrate appointments 0032", "SQL of migration 0032",
          "BEGIN;\n--\n-- Custom state/database change combination\n--\nALTER TABLE appointments_appointment ADD CONSTRAINT appointment_status_valid CHECK (status IS NOT NULL AND status IN ('booked', 'cancelled', 'no_show', 'done')) NOT VALID;\nALTER TABLE appointments_appointment VALIDATE CONSTRAINT appointment_status_valid;\nALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL;\nCOMMIT;", step=4)
    m.edit(f"{m.CWD}/deploy/sql/2025-11-27_appointment_status.sql",
           "    RAISE NOTICE 'backfill done: % batches', batches;\nEND $$;\n",
           "    RAISE NOTICE 'backfill done: % batches', batches;\nEND $$;\n\n-- ===== Part 3: constraint (migration 0032). Only after part 2 has finished. ===================\n-- NOT VALID is instant; VALIDATE scans under SHARE UPDATE EXCLUSIVE (reads and writes continue).\nSET lock_timeout = '3s';\nALTER TABLE appointments_appointment ADD CONSTRAINT appointment_status_valid\n    CHECK (status IS NOT NULL AND status IN ('booked', 'cancelled', 'no_show', 'done')) NOT VALID;\nRESET lock_timeout;\nALTER TABLE appointments_appointment VALIDATE CONSTRAINT appointment_status_valid;\nSET lock_timeout = '3s';\nALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL;\nRESET lock_timeout;\n",
           "-- ===== Part 3: constraint (migration 0032). Only after part 2 has finished. ===================\n-- NOT VALID is instant; VALIDATE scans under SHARE UPDATE EXCLUSIVE (reads and writes continue).\nSET lock_timeout = '3s';\nALTER TABLE appointments_appointment ADD CONSTRAINT appointment_status_valid\n    CHECK (status IS NOT NULL AND status IN ('booked', 'cancelled', 'no_show', 'done')) NOT VALID;\nRESET lock_timeout;\nALTER TABLE appointments_appointment VALIDATE CONSTRAINT appointment_status_valid;\nSET lock_timeout = '3s';\nALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL;\nRESET lock_timeout;", 46)
    bash_("docker compose run --rm web pytest -q apps/appointments -p no:cacheprovider", "Tests after 0032",
          ".................................................                                      [100%]\n49 passed in 6.73s", step=9)
    say_("0032 is now `RunSQL` inside `SeparateDatabaseAndState` (NOT VALID, then VALIDATE, then SET NOT NULL), applied cleanly on the dev DB after the backfill; the same statements are part 3 of the DBA file, each ALTER guarded with `lock_timeout = '3s'`. 49 tests pass.")

    # --- turn 5 --------------------------------------------------------------------------------
    user_("What about an index for status? the dashboard query filter status='booked' and start_at between two dates. (it must not lock the table of course)")
    bash_(
        "docker compose exec db psql -U clinicbook -c \"explain analyze select id from appointments_appointment where status = 'booked' and start_at between '2025-12-01' and '2025-12-08'\"",
        "Plan of the dashboard query before the index",
        """                                                          QUERY PLAN
------------------------------------------------------------------------------------------------------------------------------
 Gather  (cost=1000.00..6612.41 rows=312 width=8) (actual time=0.412..48.207 rows=2211 loops=1)
   Workers Planned: 2
   Workers Launched: 2
   ->  Parallel Seq Scan on appointments_appointment  (cost=0.00..5581.21 rows=130 width=8) (actual time=3.101..44.810 rows=737 loops=3)
         Filter: ((start_at >= '2025-12-01 00:00:00+00'::timestamp with time zone) AND (start_at <= '2025-12-08 00:00:00+00'::timestamp with time zone) AND ((status)::text = 'booked'::text))
         Rows Removed by Filter: 70090
 Planning Time: 0.188 ms
 Execution Time: 48.322 ms
(8 rows)""",
    )
    m.write(f"{m.CWD}/apps/appointments/migrations/0033_appt_status_start_idx.py", '''from django.contrib.postgres.operations import AddIndexConcurrently
from django.db import migrations, models


class Migration(migrations.Migration):
    # CREATE INDEX CONCURRENTLY cannot run inside a transaction.
    atomic = False

    dependencies = [("appointments", "0032_appointment_status_not_null")]

    operations = [
        AddIndexConcurrently(
            model_name="appointment",
            index=models.Index(fields=["status", "start_at"], name="appt_status_start_idx"),
        ),
    ]
''', text="`AddIndexConcurrently` from `django.contrib.postgres` builds it without blocking writes; the migration must be `atomic = False`.")
    m.edit(f"{m.CWD}/apps/appointments/models.py",
           '            models.Index(fields=["practitioner", "start_at"], name="appt_practitioner_start_idx"),\n',
           '            models.Index(fields=["practitioner", "start_at"], name="appt_practitioner_start_idx"),\n            models.Index(fields=["status", "start_at"], name="appt_status_start_idx"),\n',
           '        indexes = [\n            models.Index(fields=["practitioner", "start_at"], name="appt_practitioner_start_idx"),\n            models.Index(fields=["status", "start_at"], name="appt_status_start_idx"),\n            models.Index(', 36)
    bash_("docker compose run --rm web sh -c 'python manage.py sqlmigrate appointments 0033 && python manage.py migrate appointments'", "SQL of 0033 and apply it",
          '--\n-- Concurrently create index appt_status_start_idx on field(s) status, start_at of model appointment\n--\nCREATE INDEX CONCURRENTLY "appt_status_start_idx" ON "appointments_appointment" ("status", "start_at");\nOperations to perform:\n  Apply all migrations: appointments\nRunning migrations:\n  Applying appointments.0033_appt_status_start_idx... OK', step=6)
    bash_(
        "docker compose exec db psql -U clinicbook -c \"explain analyze select id from appointments_appointment where status = 'booked' and start_at between '2025-12-01' and '2025-12-08'\"",
        "Plan of the dashboard query after the index",
        """                                                                QUERY PLAN
---------------------------------------------------------------------------------------------------------------------------------------------
 Index Scan using appt_status_start_idx on appointments_appointment  (cost=0.42..121.38 rows=312 width=8) (actual time=0.027..0.291 rows=2211 loops=1)
   Index Cond: (((status)::text = 'booked'::text) AND (start_at >= '2025-12-01 00:00:00+00'::timestamp with time zone) AND (start_at <= '2025-12-08 00:00:00+00'::timestamp with time zone))
 Planning Time: 0.241 ms
 Execution Time: 0.336 ms
(4 rows)""",
    )
    m.edit(f"{m.CWD}/deploy/sql/2025-11-27_appointment_status.sql",
           "ALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL;\nRESET lock_timeout;\n",
           "ALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL;\nRESET lock_timeout;\n\n-- ===== Part 4: index (migration 0033). OUTSIDE any transaction (CONCURRENTLY). =============\n-- If it fails it leaves an INVALID index: DROP INDEX CONCURRENTLY appt_status_start_idx; then retry.\nCREATE INDEX CONCURRENTLY \"appt_status_start_idx\" ON \"appointments_appointment\" (\"status\", \"start_at\");\n",
           "-- ===== Part 4: index (migration 0033). OUTSIDE any transaction (CONCURRENTLY). =============\n-- If it fails it leaves an INVALID index: DROP INDEX CONCURRENTLY appt_status_start_idx; then retry.\nCREATE INDEX CONCURRENTLY \"appt_status_start_idx\" ON \"appointments_appointment\" (\"status\", \"start_at\");", 60)
    say_("Index `appt_status_start_idx (status, start_at)` in migration 0033 with `AddIndexConcurrently` (`atomic = False`), added as part 4 of the DBA file. The dashboard query went from a parallel seq scan, **48.3 ms**, to an index scan, **0.34 ms**, on the dev data. Note for Piotr in the file: a failed CONCURRENTLY build leaves an INVALID index to drop before retrying.")

    # --- turn 6 --------------------------------------------------------------------------------
    user_("nice. Now the code: reminders and the other places from the report should read status. (but billing app is owned by other team, don't change billing/ please) Also the API, the mobile app still read is_cancelled?")
    read_(f"{m.CWD}/apps/reminders/tasks.py", '''import logging
from datetime import timedelta

from celery import shared_task
from django.utils import timezone

from apps.appointments.models import Appointment

from .sender import send_sms

log = logging.getLogger(__name__)
WINDOW = timedelta(hours=24)


@shared_task
def send_reminders():
    start = timezone.now() + WINDOW
    end = start + timedelta(minutes=10)
    qs = Appointment.objects.filter(is_cancelled=False, start_at__range=(start, end))
    for appt in qs.select_related("patient").filter(reminder_sent_at__isnull=True):
        send_sms(appt.patient.phone, appt)
        appt.reminder_sent_at = timezone.now()
        appt.save(update_fields=["reminder_sent_at"])
    log.info("reminders sent for %s..%s", start, end)
''')
    m.edit(f"{m.CWD}/apps/reminders/tasks.py",
           "    qs = Appointment.objects.filter(is_cancelled=False, start_at__range=(start, end))",
           "    qs = Appointment.objects.filter(status=AppointmentStatus.BOOKED, start_at__range=(start, end))",
           "    start = timezone.now() + WINDOW\n    end = start + timedelta(minutes=10)\n    qs = Appointment.objects.filter(status=AppointmentStatus.BOOKED, start_at__range=(start, end))", 17)
    m.edit(f"{m.CWD}/apps/reminders/tasks.py",
           "from apps.appointments.models import Appointment\n",
           "from apps.appointments.models import Appointment, AppointmentStatus\n",
           "from apps.appointments.models import Appointment, AppointmentStatus", 7)
    m.multiedit(f"{m.CWD}/apps/appointments/models.py", [
        ("        return self.filter(is_cancelled=False, start_at__gte=timezone.now())", "        return self.filter(status=AppointmentStatus.BOOKED, start_at__gte=timezone.now())"),
    ])
    read_(f"{m.CWD}/apps/appointments/views.py", '''@login_required
def calendar_view(request, clinic_id):
    clinic = get_object_or_404(Clinic, pk=clinic_id, members=request.user)
    week_start = _week_start(request.GET.get("week"))
    week_end = week_start + timedelta(days=7)
    appointments = (
        Appointment.objects.for_practitioner(request.user.practitioner)
        .filter(clinic=clinic, start_at__range=(week_start, week_end))
        .exclude(is_cancelled=True)
        .select_related("patient")
        .order_by("start_at")
    )
    days = _group_by_day(appointments, week_start)
    return render(
        request,
        "appointments/calendar.html",
        {"clinic": clinic, "days": days, "week_start": week_start, "prev": week_start - timedelta(days=7)},
    )


@login_required
@require_POST
def cancel_view(request, pk):
    appointment = get_object_or_404(Appointment, pk=pk, clinic__members=request.user)
    if appointment.start_at < timezone.now():
        messages.error(request, _("Past appointments cannot be cancelled."))
    else:
        appointment.cancel(by=request.user)
        messages.success(request, _("Appointment cancelled."))
    return redirect("appointments:calendar", clinic_id=appointment.clinic_id)''', offset=80)
    m.multiedit(f"{m.CWD}/apps/appointments/views.py", [
        ("        .exclude(is_cancelled=True)", "        .exclude(status=AppointmentStatus.CANCELLED)"),
        ("from .models import Appointment", "from .models import Appointment, AppointmentStatus"),
    ])
    read_(f"{m.CWD}/apps/appointments/templates/appointments/calendar.html", '''{% for day in days %}
  <section class="day">
    <h3>{{ day.date|date:"l j F" }}</h3>
    <ul>
      {% for appt in day.appointments %}
      <li class="appt{% if appt.is_cancelled %} appt--cancelled{% endif %}">
        <time>{{ appt.start_at|time:"H:i" }}</time> {{ appt.patient }}
        {% if not appt.is_cancelled and appt.start_at > now %}
        <form method="post" action="{% url 'appointments:cancel' appt.pk %}">{% csrf_token %}<button>{% translate "Cancel" %}</button></form>
        {% endif %}
      </li>
      {% endfor %}
    </ul>
  </section>
{% endfor %}''', offset=37)
    m.edit(f"{m.CWD}/apps/appointments/templates/appointments/calendar.html",
           "{% if appt.is_cancelled %}", "{% if appt.status == \"cancelled\" %}",
           '<li class="appt{% if appt.status == "cancelled" %} appt--cancelled{% endif %}">', 42)
    read_(f"{m.CWD}/apps/api/serializers.py", '''class AppointmentSerializer(serializers.ModelSerializer):
    patient = PatientSummarySerializer(read_only=True)
    practitioner = serializers.SlugRelatedField(slug_field="public_id", read_only=True)

    class Meta:
        model = Appointment
        fields = [
            "id",
            "start_at",
            "duration_min",
            "is_cancelled",
            "cancelled_at",
            "patient",
            "practitioner",
            "note",
        ]
        read_only_fields = ["is_cancelled", "cancelled_at"]''', offset=48)
    m.multiedit(f"{m.CWD}/apps/api/serializers.py", [
        ('            "is_cancelled",\n', '            "is_cancelled",  # API v1 is stable: kept, derived from status\n            "status",\n'),
        ('        read_only_fields = ["is_cancelled", "cancelled_at"]', '        read_only_fields = ["is_cancelled", "status", "cancelled_at"]'),
    ], text="For the API: v1 is documented as stable (no removals without a v2) and the mobile app reads `is_cancelled`, so I keep it in the payload and add `status` next to it (additive change, allowed in v1).")
    bash_("grep -rn 'is_cancelled' --include='*.py' --include='*.html' --include='*.sql' apps tests billing reports | grep -v migrations", "Remaining is_cancelled usages",
          "apps/appointments/models.py:23:    is_cancelled = models.BooleanField(default=False)  # legacy: kept in sync with status until readers move (billing view, Metabase, API v1)\napps/appointments/models.py:43:                condition=models.Q(is_cancelled=False),\napps/appointments/models.py:60:        self.is_cancelled = self.status == AppointmentStatus.CANCELLED\napps/appointments/models.py:66:        self.is_cancelled = True\napps/api/serializers.py:57:            \"is_cancelled\",  # API v1 is stable: kept, derived from status\napps/api/serializers.py:64:        read_only_fields = [\"is_cancelled\", \"status\", \"cancelled_at\"]\ntests/factories.py:33:    is_cancelled = False\napps/appointments/importers.py:55:                        status=AppointmentStatus.BOOKED, is_cancelled=False)\napps/appointments/admin.py:36:            status=AppointmentStatus.CANCELLED, is_cancelled=True, cancelled_at=timezone.now(), cancelled_by=request.user\nbilling/views.py:112:    qs = BillingAppointment.objects.filter(is_cancelled=False)\nreports/sql/monthly_noshow.sql:12:  WHERE NOT a.is_cancelled AND a.checked_in_at IS NULL")
    bash_("docker compose run --rm web pytest -q -p no:cacheprovider", "Full test suite",
          """........................................................................ [ 33%]
........................................................................ [ 67%]
...........................................F.................... [100%]
=================================== FAILURES ===================================
______________________ test_appointment_payload_shape __________________________

api_client = <rest_framework.test.APIClient object at 0x7f3a2c1e0d10>, appointment = <Appointment: Ana Lima @ 2025-12-03 10:40>

    def test_appointment_payload_shape(api_client, appointment):
        data = api_client.get(f"/api/v1/appointments/{appointment.id}/").json()
>       assert set(data) == EXPECTED_V1_FIELDS
E       AssertionError: assert {'cancelled_a...'status', ...} == {'cancelled_a...'practitioner', ...}
E         Extra items in the left set:
E         'status'
E         Use -v to get more diff

apps/api/tests/test_serializers.py:28: AssertionError
=============================== warnings summary ===============================
apps/appointments/tests/test_importers.py::test_csv_import_rejects_missing_columns
  /usr/local/lib/python3.12/site-packages/django/db/models/fields/__init__.py:1665: RuntimeWarning: DateTimeField Appointment.start_at received a naive datetime (2025-12-01 09:00:00) while time zone support is active.
    warnings.warn(

apps/reminders/tests/test_tasks.py: 6 warnings
  /usr/local/lib/python3.12/site-packages/celery/app/utils.py:203: CDeprecationWarning: 
      The 'CELERY_TIMEZONE' setting is deprecated and scheduled for removal in
      version 6.0.0. Use the timezone instead
    
    alternative=f'Use the {_TO_NEW_KEY[key]} instead')

apps/api/tests/test_throttling.py::test_burst_limit
  /usr/local/lib/python3.12/site-packages/rest_framework/throttling.py:133: DeprecationWarning: datetime.datetime.utcnow() is deprecated and scheduled for removal in a future version. Use timezone-aware objects to represent datetimes in UTC: datetime.datetime.now(datetime.UTC).
    return datetime.utcnow().timestamp()

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED apps/api/tests/test_serializers.py::test_appointment_payload_shape - AssertionError: assert {'cancelled_a...'status', ...} == {'cancelled_a...
1 failed, 207 passed, 8 warnings in 38.92s""", code=1, step=42)
    read_(f"{m.CWD}/apps/api/tests/test_serializers.py", '''EXPECTED_V1_FIELDS = {
    "id",
    "start_at",
    "duration_min",
    "is_cancelled",
    "cancelled_at",
    "patient",
    "practitioner",
    "note",
}
# Adding a field is fine in v1 (docs/api/v1.md); update this set and the changelog together.''', offset=8)
    m.edit(f"{m.CWD}/apps/api/tests/test_serializers.py", '    "note",\n}', '    "note",\n    "status",\n}', 'EXPECTED_V1_FIELDS = {\n    "id",\n    "start_at",\n    "duration_min",\n    "is_cancelled",\n    "cancelled_at",\n    "patient",\n    "practitioner",\n    "note",\n    "status",\n}', 8)
    m.edit(f"{m.CWD}/docs/api/CHANGELOG.md", "## v1 (unreleased)\n", "## v1 (unreleased)\n\n- Appointment: new read-only field `status` (`booked`, `cancelled`, `no_show`, `done`). `is_cancelled` stays and equals `status == \"cancelled\"`.\n",
           "## v1 (unreleased)\n\n- Appointment: new read-only field `status` (`booked`, `cancelled`, `no_show`, `done`). `is_cancelled` stays and equals `status == \"cancelled\"`.", 1)
    bash_("docker compose run --rm web pytest -q -p no:cacheprovider", "Full test suite again",
          "........................................................................ [ 33%]\n........................................................................ [ 67%]\n................................................................ [100%]\n208 passed in 39.41s", step=42)
    say_("Readers we own now use `status`: the reminders Celery task (`status=booked`), `AppointmentQuerySet.upcoming()`, the calendar view and template. API v1 keeps `is_cancelled` (the mobile app reads it) and gains a read-only `status`; the payload-shape test and `docs/api/CHANGELOG.md` updated. Full suite: 208 passed. Left untouched on purpose: `billing/views.py:112` and the billing view (other team), `reports/sql/monthly_noshow.sql` (data team), and the partial index `appt_not_cancelled_start_idx` still on `is_cancelled`.")

    # --- turn 7 --------------------------------------------------------------------------------
    user_("the report SQL (monthly_noshow.sql) belong to the data team, don't edit it. Can you write a note for them and for billing in docs/handover/ please?")
    m.write(f"{m.CWD}/docs/handover/2025-11-appointment-status.md", '''# Appointment.status replaces is_cancelled (deploy 2025-11-27)

From the deploy on 2025-11-27, `appointments_appointment.status` (`booked`, `cancelled`, `no_show`,
`done`) is the source of truth. `is_cancelled` is still written (it always equals
`status = 'cancelled'`) but will be dropped once nobody reads it. Please move off it.

## Data team (@clinicbook/data)
- `reports/sql/monthly_noshow.sql:12` uses `NOT a.is_cancelled AND a.checked_in_at IS NULL`.
  Suggested: `a.status = 'no_show'` for new data; before 2025-11-27 no_show was never stored, keep
  the old rule for older months.

## Billing (@clinicbook/billing)
- The view `billing_appointment_v` (billing/migrations/0014) selects `a.is_cancelled`. PostgreSQL
  will refuse to drop the column while the view exists. Please recreate the view on `status`.
- `billing/views.py:112` filters `is_cancelled=False`.

## BI / Metabase
- Dashboards "Cancellations per clinic" and "No-show rate" query `is_cancelled` (docs/ops/metabase.md).
  BI said about two weeks.

Contact: Ines (appointments).
''')
    say_("Written: `docs/handover/2025-11-appointment-status.md`, with what each team (data, billing, BI/Metabase) must change and why; `monthly_noshow.sql` itself is untouched.")

    # --- turn 8 --------------------------------------------------------------------------------
    user_("Can you prepare also the migration which drop is_cancelled? Not for this release (after Metabase is changed), only on a separate branch.")
    bash_("git stash -u -q && git switch -c appointments-drop-is-cancelled && git stash apply -q && git status -s | head", "Branch for the drop migration",
          "Switched to a new branch 'appointments-drop-is-cancelled'\n M apps/api/serializers.py\n M apps/api/tests/test_serializers.py\n M apps/appointments/models.py\n M apps/appointments/templates/appointments/calendar.html\n M apps/appointments/views.py\n M apps/reminders/tasks.py\n M apps/appointments/admin.py\n M apps/appointments/importers.py\n M docs/api/CHANGELOG.md\n?? apps/appointments/migrations/0031_appointment_status.py\n?? apps/appointments/migrations/0032_appointment_status_not_null.py")
    m.branch = "appointments-drop-is-cancelled"
    m.write(f"{m.CWD}/apps/appointments/migrations/0034_remove_appointment_is_cancelled.py", '''from django.db import migrations


class Migration(migrations.Migration):
    """Contract step: only after Metabase, billing's view and the data team's report moved to status
    (docs/handover/2025-11-appointment-status.md)."""

    dependencies = [("appointments", "0033_appt_status_start_idx")]

    operations = [
        migrations.RemoveIndex(model_name="appointment", name="appt_not_cancelled_start_idx"),
        migrations.RemoveField(model_name="appointment", name="is_cancelled"),
    ]
''')
    bash_(
        "docker compose run --rm web python manage.py migrate appointments 0034",
        "Try the drop migration on the dev DB",
        """Operations to perform:
  Target specific migration: 0034_remove_appointment_is_cancelled, from appointments
Running migrations:
  Applying appointments.0034_remove_appointment_is_cancelled...Traceback (most recent call last):
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/utils.py", line 105, in _execute
    return self.cursor.execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/psycopg/cursor.py", line 97, in execute
    raise ex.with_traceback(None)
psycopg.errors.DependentObjectsStillExist: cannot drop column is_cancelled of table appointments_appointment because other objects depend on it
DETAIL:  view billing_appointment_v depends on column is_cancelled of table appointments_appointment
HINT:  Use DROP ... CASCADE to drop the dependent objects too.

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
  File "/app/manage.py", line 22, in <module>
    main()
  File "/usr/local/lib/python3.12/site-packages/django/db/migrations/executor.py", line 255, in apply_migration
    state = migration.apply(state, schema_editor)
            ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/migrations/operations/fields.py", line 190, in database_forwards
    schema_editor.remove_field(
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/base/schema.py", line 848, in remove_field
    self.execute(sql)
  File "/usr/local/lib/python3.12/site-packages/django/db/backends/postgresql/schema.py", line 45, in execute
    return super().execute(sql, params)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/local/lib/python3.12/site-packages/django/db/utils.py", line 91, in __exit__
    raise dj_exc_value.with_traceback(traceback) from exc_value
django.db.utils.InternalError: cannot drop column is_cancelled of table appointments_appointment because other objects depend on it
DETAIL:  view billing_appointment_v depends on column is_cancelled of table appointments_appointment
HINT:  Use DROP ... CASCADE to drop the dependent objects too.""",
        code=1, step=7,
    )
    bash_("docker compose exec db psql -U clinicbook -c '\\d+ billing_appointment_v'", "Look at the billing view",
          '''                                 View "public.billing_appointment_v"
    Column    |           Type           | Collation | Nullable | Default | Storage | Description
--------------+--------------------------+-----------+----------+---------+---------+-------------
 id           | bigint                   |           |          |         | plain   |
 clinic_id    | bigint                   |           |          |         | plain   |
 start_at     | timestamp with time zone |           |          |         | plain   |
 is_cancelled | boolean                  |           |          |         | plain   |
 duration_min | smallint                 |           |          |         | plain   |
 tariff_code  | character varying(12)    |           |          |         | extended |
View definition:
 SELECT a.id,
    a.clinic_id,
    a.start_at,
    a.is_cancelled,
    a.duration_min,
    t.code AS tariff_code
   FROM appointments_appointment a
     JOIN clinics_practitioner p ON p.id = a.practitioner_id
     JOIN billing_tariff t ON t.id = p.tariff_id;''')
    say_("As the sub-agent found, Postgres refuses: `view billing_appointment_v depends on column is_cancelled`. CASCADE would silently drop billing's view (their invoices job reads it), and billing/ is not ours to change. So 0034 can only run after billing recreates the view on `status`. I'll make that explicit with a dependency on their future migration left as a comment, and commit 0034 on this branch only.")
    m.edit(f"{m.CWD}/apps/appointments/migrations/0034_remove_appointment_is_cancelled.py",
           '    dependencies = [("appointments", "0033_appt_status_start_idx")]',
           '    # BLOCKED: needs billing to recreate billing_appointment_v without is_cancelled first; add\n    # ("billing", "<their migration>") here then. Without it Postgres refuses the drop.\n    dependencies = [("appointments", "0033_appt_status_start_idx")]',
           '    # BLOCKED: needs billing to recreate billing_appointment_v without is_cancelled first; add\n    # ("billing", "<their migration>") here then. Without it Postgres refuses the drop.\n    dependencies = [("appointments", "0033_appt_status_start_idx")]', 8)
    bash_("docker compose run --rm web python manage.py migrate appointments 0033 && git add apps/appointments/migrations/0034_remove_appointment_is_cancelled.py && git commit -q -m 'appointments: drop is_cancelled (blocked on billing view + Metabase)' && git log --oneline -1 && git stash -q && git switch -q main && git stash pop -q && git status -s | wc -l",
          "Commit 0034 on its branch, back to main",
          "Operations to perform:\n  Target specific migration: 0033_appt_status_start_idx, from appointments\nRunning migrations:\n  No migrations to apply.\n3e9b07c appointments: drop is_cancelled (blocked on billing view + Metabase)\n14", step=6)
    m.branch = "main"

    # --- turn 9 --------------------------------------------------------------------------------
    user_("ok so it wait for billing team too. One question: the VALIDATE on 14M rows, it block the writes? and the SET NOT NULL?")
    bash_("sed -n '1,12p' docs/ops/postgres.md", "Prod Postgres facts",
          "# PostgreSQL in production\n\nProduction: PostgreSQL 11.22 on Amazon RDS (db.r6g.2xlarge), one read replica for Metabase.\nUpgrade to PostgreSQL 15 planned for Q1 2026 (ticket OPS-412).\nLocal development uses the postgres:16.4 image (docker-compose.yml).\n\n## Rules for schema changes\n- Every DDL in prod goes through the DBA team (SQL file in deploy/sql/, reviewed in #dba).\n- statement_timeout is 30s for the app role, none for the DBA role.\n- Maintenance window: none. Peak writes 09:00-11:00 CET.")
    say_(
        "- **VALIDATE CONSTRAINT**: no. It takes SHARE UPDATE EXCLUSIVE, which allows reads and writes; it only blocks other DDL and VACUUM on the table while it scans (minutes for 14M rows).\n"
        "- **SET NOT NULL**: yes on *our prod*. Since PostgreSQL 12 it can skip the table scan when a valid `CHECK (status IS NOT NULL)` exists, but prod is **11.22** (docs/ops/postgres.md): there it scans all 14M rows while holding ACCESS EXCLUSIVE, i.e. reads and writes blocked for the whole scan. That is exactly the downtime we want to avoid. My local test on 16.4 could not show it.\n\n"
        "So I'll remove `SET NOT NULL` from 0032 and from the DBA file. The validated CHECK (`status IS NOT NULL AND status IN (...)`) already guarantees no NULL; the real NOT NULL can come after the PG 15 upgrade (OPS-412). Django's model state keeps `null=True` so it matches the DB."
    )
    m.multiedit(f"{m.CWD}/apps/appointments/migrations/0032_appointment_status_not_null.py", [
        ('                        "ALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL",\n', "                        # No SET NOT NULL: on prod's PostgreSQL 11 it scans the table under ACCESS\n                        # EXCLUSIVE. The validated CHECK above already excludes NULL; add the\n                        # NOT NULL after the PG 15 upgrade (OPS-412).\n"),
        ('                        "ALTER TABLE appointments_appointment ALTER COLUMN status DROP NOT NULL",\n', ""),
        ("                    field=models.CharField(max_length=10, choices=STATUS_CHOICES),", "                    field=models.CharField(max_length=10, choices=STATUS_CHOICES, null=True, blank=True),"),
    ])
    m.edit(f"{m.CWD}/deploy/sql/2025-11-27_appointment_status.sql",
           "SET lock_timeout = '3s';\nALTER TABLE appointments_appointment ALTER COLUMN status SET NOT NULL;\nRESET lock_timeout;\n",
           "-- No SET NOT NULL here: on PostgreSQL 11 it scans the whole table under ACCESS EXCLUSIVE.\n-- The validated CHECK excludes NULL already. SET NOT NULL after the PG 15 upgrade (OPS-412).\n",
           "ALTER TABLE appointments_appointment VALIDATE CONSTRAINT appointment_status_valid;\n-- No SET NOT NULL here: on PostgreSQL 11 it scans the whole table under ACCESS EXCLUSIVE.\n-- The validated CHECK excludes NULL already. SET NOT NULL after the PG 15 upgrade (OPS-412).", 53)
    m.edit(f"{m.CWD}/apps/appointments/models.py",
           "    # Nullable until the backfill has run in prod; a CHECK constraint then guarantees it (0032).\n",
           "    # Nullable in the schema: the validated CHECK appointment_status_valid (0032) excludes NULL.\n    # SET NOT NULL waits for the PostgreSQL 15 upgrade (OPS-412): on 11 it locks the table for a scan.\n",
           "    is_cancelled = models.BooleanField(default=False)  # legacy: kept in sync with status until readers move (billing view, Metabase, API v1)\n    # Nullable in the schema: the validated CHECK appointment_status_valid (0032) excludes NULL.\n    # SET NOT NULL waits for the PostgreSQL 15 upgrade (OPS-412): on 11 it locks the table for a scan.\n    status = models.CharField(max_length=10, choices=AppointmentStatus.choices, null=True, blank=True)", 22)
    bash_(
        "docker compose run --rm web sh -c 'python manage.py migrate appointments 0031 && python manage.py migrate appointments && python manage.py makemigrations --check --dry-run && pytest -q -p no:cacheprovider'",
        "Re-apply 0032/0033, check model state, run tests",
        "Operations to perform:\n  Target specific migration: 0031_appointment_status, from appointments\nRunning migrations:\n  Rendering model states... DONE\n  Unapplying appointments.0033_appt_status_start_idx... OK\n  Unapplying appointments.0032_appointment_status_not_null... OK\nOperations to perform:\n  Apply all migrations: appointments\nRunning migrations:\n  Applying appointments.0032_appointment_status_not_null... OK\n  Applying appointments.0033_appt_status_start_idx... OK\nNo changes detected\n........................................................................ [ 33%]\n........................................................................ [ 67%]\n................................................................ [100%]\n208 passed in 40.02s",
        step=55,
    )
    say_("Done: no `SET NOT NULL` anywhere now; 0032 = CHECK NOT VALID + VALIDATE only, model state `null=True` (`makemigrations --check` says no changes), 0032/0033 re-applied cleanly, 208 tests pass.")

    # --- turn 10 -------------------------------------------------------------------------------
    user_("ok thanks. please commit the main work (not the drop branch) and tell me what I send to Piotr")
    bash_("git diff --stat && git diff apps/appointments/models.py", "Review the diff before committing",
          ''' apps/api/serializers.py                                | 5 +++--
 apps/api/tests/test_serializers.py                     | 1 +
 apps/appointments/admin.py                             | 5 ++++-
 apps/appointments/importers.py                         | 4 +++-
 apps/appointments/models.py                            | 27 ++++++++++++++++++++++-----
 apps/appointments/templates/appointments/calendar.html | 2 +-
 apps/appointments/views.py                             | 4 ++--
 apps/reminders/tasks.py                                | 4 ++--
 docs/api/CHANGELOG.md                                  | 2 ++
 9 files changed, 40 insertions(+), 14 deletions(-)
diff --git a/apps/appointments/models.py b/apps/appointments/models.py
index 4c1e2f9..a7d03b6 100644
--- a/apps/appointments/models.py
+++ b/apps/appointments/models.py
@@ -6,9 +6,16 @@ from apps.clinics.models import Clinic, Practitioner
 from apps.patients.models import Patient
 
 
+class AppointmentStatus(models.TextChoices):
+    BOOKED = "booked", "Booked"
+    CANCELLED = "cancelled", "Cancelled"
+    NO_SHOW = "no_show", "No show"
+    DONE = "done", "Done"
+
+
 class AppointmentQuerySet(models.QuerySet):
     def upcoming(self):
-        return self.filter(is_cancelled=False, start_at__gte=timezone.now())
+        return self.filter(status=AppointmentStatus.BOOKED, start_at__gte=timezone.now())
 
     def for_practitioner(self, practitioner):
         return self.filter(practitioner=practitioner)
@@ -20,7 +27,11 @@ class Appointment(models.Model):
     start_at = models.DateTimeField()
     duration_min = models.PositiveSmallIntegerField(default=20)
-    is_cancelled = models.BooleanField(default=False)
+    is_cancelled = models.BooleanField(default=False)  # legacy: kept in sync with status until readers move (billing view, Metabase, API v1)
+    # Nullable in the schema: the validated CHECK appointment_status_valid (0032) excludes NULL.
+    # SET NOT NULL waits for the PostgreSQL 15 upgrade (OPS-412): on 11 it locks the table for a scan.
+    status = models.CharField(max_length=10, choices=AppointmentStatus.choices, null=True, blank=True)
     cancelled_at = models.DateTimeField(null=True, blank=True)
@@ -32,6 +43,7 @@ class Appointment(models.Model):
         indexes = [
             models.Index(fields=["practitioner", "start_at"], name="appt_practitioner_start_idx"),
+            models.Index(fields=["status", "start_at"], name="appt_status_start_idx"),
             models.Index(
                 fields=["start_at"],
                 name="appt_not_cancelled_start_idx",
@@ -43,9 +55,18 @@ class Appointment(models.Model):
     def __str__(self):
         return f"{self.patient} @ {self.start_at:%Y-%m-%d %H:%M}"
 
+    def save(self, *args, **kwargs):
+        # Dual write during the migration: status is the truth, is_cancelled follows it.
+        if self.status is None:
+            self.status = AppointmentStatus.CANCELLED if self.is_cancelled else AppointmentStatus.BOOKED
+        self.is_cancelled = self.status == AppointmentStatus.CANCELLED
+        super().save(*args, **kwargs)
+
     def cancel(self, by=None):
-        self.is_cancelled = True
+        self.status = AppointmentStatus.CANCELLED
+        self.is_cancelled = True
         self.cancelled_at = timezone.now()
         self.cancelled_by = by
-        self.save(update_fields=["is_cancelled", "cancelled_at", "cancelled_by"])
+        self.save(update_fields=["status", "is_cancelled", "cancelled_at", "cancelled_by"])''')
    bash_("git switch -c appointments-status && git add apps tests deploy docs && git commit -q -m 'appointments: status field replaces is_cancelled (expand phase, zero downtime)' && git log --oneline -2 && git show --stat HEAD | tail -16",
          "Commit the expand phase",
          "Switched to a new branch 'appointments-status'\n8a4d2f6 appointments: status field replaces is_cancelled (expand phase, zero downtime)\nb71c4e2 reminders: store reminder_sent_at (#588)\n apps/api/serializers.py                                      |  5 +-\n apps/api/tests/test_serializers.py                           |  1 +\n apps/appointments/migrations/0031_appointment_status.py      | 18 ++++\n apps/appointments/migrations/0032_appointment_status_not_null.py | 49 ++++++++++\n apps/appointments/migrations/0033_appt_status_start_idx.py   | 16 ++++\n apps/appointments/models.py                                  | 27 +++++-\n apps/appointments/templates/appointments/calendar.html       |  2 +-\n apps/appointments/views.py                                   |  4 +-\n apps/reminders/tasks.py                                      |  4 +-\n deploy/sql/2025-11-27_appointment_status.sql                 | 66 +++++++++++++\n docs/api/CHANGELOG.md                                        |  2 +\n docs/handover/2025-11-appointment-status.md                  | 30 +++++\n apps/appointments/admin.py                                   |  5 +-\n apps/appointments/importers.py                               |  4 +-\n 14 files changed, 221 insertions(+), 11 deletions(-)", step=3)
    say_(
        "Committed on branch `appointments-status`: `8a4d2f6` (14 files). The drop migration is separate on `appointments-drop-is-cancelled` (`3e9b07c`), not merged.\n\n"
        "For Piotr: `deploy/sql/2025-11-27_appointment_status.sql`, run with `psql -v ON_ERROR_STOP=1`, in order:\n"
        "1. Part 1: `ADD COLUMN status` (instant, `lock_timeout 3s`: if it times out just retry).\n"
        "2. Part 2: backfill, 5000 rows per batch with COMMIT each; ~11 min for 14M rows by our estimate; re-runnable.\n"
        "3. Part 3: CHECK `NOT VALID` then `VALIDATE` (writes continue). Only after part 2 finished.\n"
        "4. Part 4: `CREATE INDEX CONCURRENTLY` outside a transaction; if it fails, drop the INVALID index and retry.\n\n"
        "The app deploy must go out together with part 1 (dual write), before part 2 starts. Still open after this: Metabase dashboards (BI, ~2 weeks), billing's view, the data team's report, then 0034; and SET NOT NULL after the PG 15 upgrade."
    )

    # --- turn 11 -------------------------------------------------------------------------------
    user_("Perfect. last: is the partial index appt_not_cancelled_start_idx still useful? (don't drop it now, only tell me)")
    bash_(
        "docker compose exec db psql -U clinicbook -c \"select indexrelname, idx_scan, pg_size_pretty(pg_relation_size(indexrelid)) from pg_stat_user_indexes where relname = 'appointments_appointment' order by 1\"",
        "Index usage on the dev DB",
        "          indexrelname              | idx_scan | pg_size_pretty\n------------------------------------+----------+----------------\n appointments_appointment_cancelled_by_id_5a1f0b3e |        0 | 1496 kB\n appointments_appointment_clinic_id_9c2d7e10       |      412 | 1512 kB\n appointments_appointment_patient_id_7b7e3c4a      |     1880 | 4704 kB\n appointments_appointment_pkey                     |    96020 | 4704 kB\n appt_not_cancelled_start_idx                      |     3318 | 3992 kB\n appt_practitioner_start_idx                       |     5201 | 6368 kB\n appt_status_start_idx                             |        9 | 6344 kB\n(7 rows)",
    )
    say_(
        "On dev it was used (3,318 scans) but those came from the old `upcoming()`/reminders queries, which now filter on `status` and will use `appt_status_start_idx` instead. After the deploy, the only reader left would be billing's `is_cancelled=False` filter. So: probably useless after billing moves; in prod check `pg_stat_user_indexes.idx_scan` for it a week after the deploy before dropping (0034 drops it together with the column anyway). Not dropped, as you said."
    )


def main() -> None:
    lines.append({"type": "file-history-snapshot", "messageId": new_uuid(), "snapshot": {"messageId": "x", "trackedFileBackups": {}, "timestamp": ts(0)}, "isSnapshotUpdate": False})
    tell(sys.modules[__name__])
    out = HERE / "session.jsonl"
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")
    print(f"{out}: {len(lines)} records, {n_tool} tool calls")


if __name__ == "__main__":
    main()
