"""Prepare a fresh database for server processes, in a process of its own (the database is not
the test run's: tests/multiprocess/throwaway_postgres.py).

    DATABASE_URL=… python -m tests.multiprocess.seed TASKS

migrates, creates the staff user `operator` (password `pw-123456`) and a login session for it,
and TASKS sessions each with one pending compaction task (nobody runs a pending task by itself:
a test makes it look orphaned when it wants the sweeper to recover it). Prints one JSON object:
{"cookie": …, "tasks": [task ids]}.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass

PASSWORD = "pw-123456"


@dataclass(frozen=True)
class Seed:
    cookie: str  # the operator's session key
    tasks: list[int]  # one pending compaction task per session


def seeded(env: Mapping[str, str], tasks: int = 0) -> Seed:
    """Run the seed in a subprocess with `env` (a server's environment); what it printed."""
    from tests.multiprocess.servers import ROOT

    cmd = [sys.executable, "-m", "tests.multiprocess.seed", str(tasks)]
    done = subprocess.run(cmd, cwd=ROOT, env=dict(env), capture_output=True, text=True, timeout=120)
    if done.returncode != 0:
        raise RuntimeError(f"seeding failed:\n{done.stdout}{done.stderr}")
    printed = json.loads(done.stdout.strip().splitlines()[-1])
    return Seed(cookie=str(printed["cookie"]), tasks=[int(t) for t in printed["tasks"]])


def make_orphan(url: str, task_id: int) -> None:
    """What a process killed in the middle of a compaction leaves: the task running, its owner
    gone ten minutes ago (the sweeper's to recover; also bench/db_restart.py)."""
    import psycopg

    with psycopg.connect(url, autocommit=True) as db:
        db.execute(
            "UPDATE sessions_app_compactiontask SET status = 'running', owner = 'crashed-host:1',"
            " attempts = 1, started_at = now() - interval '10 minutes',"
            " heartbeat_at = now() - interval '10 minutes' WHERE id = %s",
            [task_id],
        )


def seed(tasks: int) -> dict[str, object]:
    from django.contrib.auth.models import User
    from django.core.management import call_command

    from sessions_app.runtime import compact_fork
    from tests.multiprocess.servers import login_cookie
    from tests.runtime.test_compaction_fork import build_session

    call_command("migrate", verbosity=0, interactive=False)
    user = User.objects.create_user("operator", password=PASSWORD, is_staff=True)
    ids = [compact_fork.CompactionJob.request(build_session(), trigger="auto").task.pk for _ in range(tasks)]
    return {"cookie": login_cookie(user), "tasks": ids}


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dashboard.settings")
    import django

    django.setup()
    print(json.dumps(seed(int(sys.argv[1]) if len(sys.argv) > 1 else 0)))
