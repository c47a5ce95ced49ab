"""`manage.py compact SESSION_ID [--instructions TEXT] [--recovery]`: run the compact fork now and
stream its summary to the terminal. `--recover-orphans` instead takes back the work a dead process
left running: compaction tasks are retried here (once) or failed, agent runs are failed, and every
task it looked at gets a line saying what was done with it."""

from __future__ import annotations

import asyncio
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app.compaction.vocabulary import TaskStatus, Trigger
from sessions_app.models import CompactionEntry, Session
from sessions_app.runtime import compact_fork
from sessions_app.runtime.compact_fork.orphans import ALIVE, ENDED, GAVE_UP, RETRIED
from sessions_app.runtime.runs import fail_orphaned_runs
from sessions_app.store.audits import current_audit


class Command(BaseCommand):
    help = "Compact a session now through the compact fork."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("session_id", type=int, nargs="?")
        parser.add_argument("--instructions", default="", help="an additional focus for the summary")
        parser.add_argument("--recovery", action="store_true", help="record it as a recovery compaction")
        parser.add_argument(
            "--recover-orphans", action="store_true", help="retry tasks left running by a process that died"
        )

    def handle(
        self, *args: Any, session_id: int | None, instructions: str, recovery: bool, **opts: Any
    ) -> None:
        if opts["recover_orphans"]:
            self._recover_orphans()
            return
        if session_id is None:
            raise CommandError("give a SESSION_ID (or --recover-orphans)")
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            raise CommandError(f"no session with id {session_id}")
        trigger = Trigger.RECOVERY if recovery else Trigger.MANUAL
        try:
            job = compact_fork.CompactionJob.request(session, trigger=trigger, instructions=instructions)
        except compact_fork.CompactionRefused as refused:
            raise CommandError(refused.reason) from refused
        self.stderr.write(f"[compaction task {job.task_id}: {trigger}]")

        def show(part: str, text: str) -> None:
            self.stdout.write(text, ending="")
            self.stdout.flush()

        outcome = asyncio.run(job.run(on_delta=show))
        self.stdout.write("")
        if outcome.status != TaskStatus.COMPLETED:
            raise CommandError(f"compaction {outcome.status}: {outcome.error}")
        for warning in outcome.warnings:
            self.stderr.write(f"warning: {warning}")
        self.stderr.write(
            f"[compaction node {outcome.node_key}: {outcome.tokens_before} → {outcome.tokens_after} tokens]"
        )
        entry = CompactionEntry.objects.filter(
            node__session_id=session.pk, node__key=outcome.node_key
        ).first()
        if entry is not None:
            audit = current_audit(entry) or {}  # computed here: the compaction does not wait for it
            kept = f"{audit.get('kept')}/{audit.get('total')} facts kept" if audit else "not audited"
            self.stderr.write(f"[summarizer: {entry.summarizer or 'unknown'}; retention: {kept}]")

    def _recover_orphans(self) -> None:
        for run in fail_orphaned_runs():
            self.stdout.write(f"run {run.run_id} (session {run.session_id}): {run.error} → failed")
        reports = compact_fork.recover_orphans()
        for report in reports:
            task = f"task {report.task_id}"
            if report.action == RETRIED:
                outcome = asyncio.run(compact_fork.CompactionJob.resume(report.task_id).run())
                detail = f" ({outcome.error})" if outcome.error else ""
                self.stdout.write(f"{task}: retried → {outcome.status}{detail}")
            elif report.action == GAVE_UP:
                self.stdout.write(f"{task}: gave up after {report.attempts} attempts → failed")
            elif report.action == ALIVE:
                self.stdout.write(
                    f"{task}: still running in {report.owner or 'an unknown process'} → left alone"
                )
            elif report.action == ENDED:
                self.stdout.write(f"{task}: ended while being looked at → left alone")
        if not any(r.orphaned for r in reports):
            self.stdout.write("no orphaned compaction tasks")
