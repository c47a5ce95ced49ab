"""`manage.py agent …`: list definitions, create sessions, run a turn, or chat interactively.

agent definitions [--all]                 what list_agent_definitions() returns (--all: + hidden)
agent new [--title T] [--workspace DIR]   prints the new session id
agent run SESSION_ID "prompt" [--scenario FILE] [--max-turns N]   (refused while a run of the
                                          session is running: one run per session at a time)
agent chat SESSION_ID [--scenario FILE]   /switch_node KEY, /tree, /context, /compact [instr], /quit
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from sessions_app import store
from sessions_app.compaction.context import context_report
from sessions_app.compaction.vocabulary import EndReason, TaskStatus, Trigger
from sessions_app.llm.base import Completed, Provider, StreamEvent, TextDelta
from sessions_app.models import Node, Session
from sessions_app.runtime import agents as definitions
from sessions_app.runtime import compact_fork
from sessions_app.runtime.auto_compaction import ForkCompaction
from sessions_app.runtime.loop import AgentLoop, RunOutcome
from sessions_app.runtime.providers import provider_for
from sessions_app.runtime.runs import SessionBusy


class Command(BaseCommand):
    help = "Run Cutpoint agents from the terminal."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        defs = sub.add_parser("definitions", help="list agent definitions")
        defs.add_argument("--all", action="store_true", help="debug: include hidden built-ins")
        new = sub.add_parser("new", help="create a session and print its id")
        new.add_argument("--title", default="")
        new.add_argument("--workspace", default="")
        run = sub.add_parser("run", help="run one user turn")
        run.add_argument("session_id", type=int)
        run.add_argument("prompt")
        run.add_argument("--scenario", help="offline provider: JSON list of assistant turns")
        run.add_argument("--max-turns", type=int, default=50)
        chat = sub.add_parser("chat", help="interactive loop")
        chat.add_argument("session_id", type=int)
        chat.add_argument("--scenario")

    def handle(self, *args: Any, action: str, **opts: Any) -> None:
        if action == "definitions":
            self._definitions(show_all=opts["all"])
        elif action == "new":
            self._new(opts["title"], opts["workspace"])
        elif action == "run":
            session = self._session(opts["session_id"])
            provider = self._provider(opts.get("scenario"))
            try:
                outcome = asyncio.run(self._run(session, provider, opts["prompt"], opts["max_turns"]))
            except SessionBusy as busy:
                raise CommandError(f"not run: {busy}") from busy
            self._report(outcome)
            if outcome.end_reason not in (EndReason.COMPLETED, EndReason.MAX_TURNS):
                raise CommandError(
                    f"run {outcome.run_id} ended: {outcome.end_reason} {outcome.error}".strip()
                )
        elif action == "chat":
            self._chat(self._session(opts["session_id"]), self._provider(opts.get("scenario")))

    # --- actions ----------------------------------------------------------------------------

    def _definitions(self, *, show_all: bool) -> None:
        if not show_all:
            for d in definitions.list_agent_definitions():
                self.stdout.write(f"{d.name:<28} {d.source:<8} {d.role:<12}")
            return
        # Debug view: hidden built-ins, shadowed definitions and refused overrides too.
        for row in definitions.list_all_definitions_for_debug():
            role = row.definition.role if row.definition else "-"
            note = (
                f"  ({row.status}{': ' + row.message if row.message else ''})"
                if row.status != "active"
                else ""
            )
            self.stdout.write(f"{row.name:<28} {row.source:<8} {role:<12}{note}")

    def _new(self, title: str, workspace: str) -> None:
        if workspace:
            path = Path(workspace).resolve()
            path.mkdir(parents=True, exist_ok=True)
            workspace = str(path)
        session = Session.objects.create(title=title, workspace=workspace)
        self.stdout.write(str(session.pk))

    def _session(self, session_id: int) -> Session:
        session = Session.objects.filter(pk=session_id).first()
        if session is None:
            raise CommandError(f"no session with id {session_id}")
        return session

    def _provider(self, scenario: str | None) -> Provider:
        if scenario and not Path(scenario).is_file():
            raise CommandError(f"scenario file not found: {scenario}")
        try:
            return provider_for("main", scenario=scenario)
        except (ValueError, OSError) as exc:
            raise CommandError(str(exc)) from exc

    async def _run(
        self, session: Session, provider: Provider, prompt: str, max_turns: int = 50
    ) -> RunOutcome:
        def show(event: StreamEvent) -> None:
            if isinstance(event, TextDelta):
                self.stdout.write(event.text, ending="")
                self.stdout.flush()
            elif isinstance(event, Completed):
                for call in event.message.tool_calls:
                    self.stdout.write(f"\n  → {call.get('name')}({_args(call.get('arguments'))})", ending="")
                self.stdout.write("")

        # The summarizer shares the scripted provider only when it is offline (scenario replies
        # would otherwise be consumed by summaries); a real provider gets its compact profile.
        hooks = ForkCompaction(provider if provider.name == "offline" else None)
        loop = AgentLoop(session, provider, max_turns=max_turns, on_stream=show, hooks=hooks)
        outcome = await loop.run_prompt(prompt)
        for done in await hooks.drain():  # background compactions finish before the process exits
            if isinstance(done, compact_fork.CompactionOutcome):
                self.stderr.write(f"[background compaction: {done.status} {done.node_key or done.error}]")
        return outcome

    def _report(self, outcome: RunOutcome) -> None:
        self.stderr.write(f"[run {outcome.run_id}: {outcome.end_reason}, {outcome.turns} model call(s)]")

    def _chat(self, session: Session, provider: Provider) -> None:
        self.stdout.write(
            f"session {session.pk}. Commands: /switch_node KEY, /tree, /context, /compact, /quit"
        )
        for raw in sys.stdin:
            line = raw.strip()
            if not line:
                continue
            if line in ("/quit", "/exit"):
                break
            if line.startswith("/"):
                self._slash(session, line)
                continue
            try:
                outcome = asyncio.run(self._run(session, provider, line))
            except SessionBusy as busy:
                self.stderr.write(f"not sent: {busy}")
                continue
            self._report(outcome)

    def _slash(self, session: Session, line: str) -> None:
        command, _, arg = line.partition(" ")
        session.refresh_from_db()
        if command == "/switch_node":
            try:
                node = store.switch_active_node(session, arg.strip())
            except store.StoreError as exc:
                self.stderr.write(f"error: {exc}")
                return
            self.stdout.write(f"active node is now {node.key} (pointer moved; nothing summarized)")
        elif command == "/tree":
            self._tree(session)
        elif command == "/context":
            for item in context_report(store.context_path_entries(session)):
                self.stdout.write(f"{item.key:<18} {item.role:<12} {item.tokens:>7}")
        elif command == "/compact":
            try:
                outcome = asyncio.run(
                    compact_fork.compact(session, trigger=Trigger.MANUAL, instructions=arg.strip())
                )
            except compact_fork.CompactionRefused as refused:
                self.stderr.write(f"not compacted: {refused.reason}")
                return
            if outcome.status == TaskStatus.COMPLETED:
                self.stdout.write(
                    f"compacted: node {outcome.node_key}, {outcome.tokens_before} → {outcome.tokens_after}"
                )
            else:
                self.stderr.write(f"compaction {outcome.status}: {outcome.error}")
        else:
            self.stderr.write(f"unknown command {command}")

    def _tree(self, session: Session) -> None:
        active = set(n.pk for n in store.active_path(session))
        rows = (
            Node.objects.filter(session=session)
            .order_by("seq")
            .values_list("pk", "key", "kind", "role", "depth")
        )
        for pk, key, kind, role, depth in rows:
            marker = "*" if pk in active else " "
            self.stdout.write(f"{marker} {'  ' * depth}{key} {kind}{'/' + role if role else ''}")


def _args(arguments: Any, limit: int = 80) -> str:
    text = ", ".join(f"{k}={v!r}" for k, v in (arguments or {}).items())
    return text if len(text) <= limit else text[: limit - 1] + "…"
