"""The agent loop end to end: offline scenarios and the real SDK against the fake server."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from asgiref.sync import sync_to_async

from sessions_app import store
from sessions_app.llm.base import Provider, StreamEvent, TextDelta
from sessions_app.llm.offline import OfflineProvider
from sessions_app.llm.profiles import ModelProfile, build_provider
from sessions_app.models import Artifact, CompactionEntry, Event, Node, Run, Session
from sessions_app.runtime.loop import AgentLoop, CompactionHooks
from tests.fake_anthropic import FakeAnthropic, overflow_error, stream_error_reply, text_reply, tool_reply

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

SCENARIO: list[dict[str, Any]] = [
    {
        "text": "Creating the module.",
        "tool_calls": [
            {
                "name": "write",
                "arguments": {"path": "src/calc.py", "content": "def add(a, b):\n    return a + b\n"},
            }
        ],
    },
    {
        "text": "Checking it.",
        "tool_calls": [
            {"name": "read", "arguments": {"path": "src/calc.py"}},
            {"name": "bash", "arguments": {"command": "cat src/calc.py | wc -l"}},
        ],
    },
    {
        "text": "Peeking outside.",
        "tool_calls": [{"name": "read", "arguments": {"path": "../../../etc/hostname"}}],
    },
    {"text": "Done."},
]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


async def new_session(workspace: Path, **kw: Any) -> Session:
    return await Session.objects.acreate(title="loop", workspace=str(workspace), **kw)


def nodes_of(session: Session) -> list[Node]:
    return list(Node.objects.filter(session=session).order_by("seq"))


def anthropic(fake: FakeAnthropic, **kw: Any) -> Provider:
    profile = ModelProfile("main", "anthropic", "claude-test", kw.pop("context_window", 200_000), 4096)
    return build_provider(profile, api_key="test-key", base_url=fake.base_url, max_retries=0, timeout=10)


async def test_offline_scenario_runs_tools_and_records_everything(workspace: Path) -> None:
    session = await new_session(workspace)
    streamed: list[str] = []

    def on_stream(event: StreamEvent) -> None:
        if isinstance(event, TextDelta):
            streamed.append(event.text)

    loop = AgentLoop(session, OfflineProvider(scenario=SCENARIO), on_stream=on_stream)
    outcome = await loop.run_prompt("Write a calc module and test it.")

    assert outcome.end_reason == "completed" and outcome.turns == 4
    assert "".join(streamed) == "Creating the module.Checking it.Peeking outside.Done."
    assert (workspace / "src/calc.py").read_text() == "def add(a, b):\n    return a + b\n"
    nodes = await sync_to_async(nodes_of)(session)
    assert [n.role for n in nodes] == [
        "user", "assistant", "tool_result", "assistant", "tool_result", "tool_result",
        "assistant", "tool_result", "assistant",
    ]  # fmt: skip
    # A single chain: every node's parent is the one before it, and the last is active.
    assert all(b.parent_id == a.pk for a, b in itertools.pairwise(nodes))
    await sync_to_async(session.refresh_from_db)()
    assert session.active_node_id == nodes[-1].pk
    results = [n for n in nodes if n.role == "tool_result"]
    assert [r.data["tool_name"] for r in results] == ["write", "read", "bash", "read"]
    assert results[2].content[0]["text"].startswith("2")
    assert (
        results[3].data["is_error"] is True
        and "outside the session workspace" in results[3].content[0]["text"]
    )
    # Tool results answer the calls they belong to.
    calls = [b["id"] for n in nodes if n.role == "assistant" for b in n.content if b["type"] == "tool_call"]
    assert [r.data["tool_call_id"] for r in results] == calls
    run = await Run.objects.aget(pk=outcome.run_id)
    assert (run.status, run.end_reason, run.trigger) == ("completed", "completed", "user")
    assistants = [n for n in nodes if n.role == "assistant"]
    usages = [n.usage for n in assistants if n.usage is not None]
    assert len(usages) == len(assistants)  # every assistant turn recorded its usage
    assert run.input_tokens == sum(u["input"] for u in usages) > 0
    assert run.output_tokens == sum(u["output"] for u in usages) > 0
    assert all(n.run_id == run.pk for n in nodes)
    types = [
        e async for e in Event.objects.filter(session=session).order_by("id").values_list("type", flat=True)
    ]
    assert types == ["run_started", "run_ended"]


async def test_max_turns_stops_an_endless_tool_loop(workspace: Path) -> None:
    session = await new_session(workspace)
    endless = [
        {"text": f"step {i}", "tool_calls": [{"name": "bash", "arguments": {"command": "true"}}]}
        for i in range(10)
    ]
    outcome = await AgentLoop(session, OfflineProvider(scenario=endless), max_turns=3).run_prompt("go")
    assert outcome.end_reason == "max_turns" and outcome.turns == 3
    nodes = await sync_to_async(nodes_of)(session)
    assert sum(n.role == "assistant" for n in nodes) == 3


async def test_denied_tool_becomes_error_result_and_event(workspace: Path, settings: Any) -> None:
    settings.CUTPOINT_PERMISSION_RULES = [
        {
            "action": "deny",
            "tool": "bash",
            "argument": "command",
            "pattern": "*rm -rf*",
            "reason": "destructive",
        }
    ]
    session = await new_session(workspace)
    (workspace / "keep.txt").write_text("precious")
    scenario: list[dict[str, Any]] = [
        {"text": "cleaning", "tool_calls": [{"name": "bash", "arguments": {"command": "rm -rf ./*"}}]},
        {"text": "ok"},
    ]
    outcome = await AgentLoop(session, OfflineProvider(scenario=scenario)).run_prompt("clean up")
    assert outcome.end_reason == "completed"
    assert (workspace / "keep.txt").read_text() == "precious"
    result = await Node.objects.aget(session=session, role="tool_result")
    assert result.data["is_error"] is True and "destructive" in result.content[0]["text"]
    event = await Event.objects.aget(session=session, type="tool_denied")
    assert event.payload["tool"] == "bash" and event.run_id == outcome.run_id


async def test_large_tool_result_is_stored_as_artifact_linked_to_its_node(
    workspace: Path, settings: Any
) -> None:
    settings.CUTPOINT_ARTIFACT_LIMIT = 500
    settings.ARTIFACT_ROOT = workspace.parent / "artifacts"
    session = await new_session(workspace)
    scenario: list[dict[str, Any]] = [
        {"tool_calls": [{"name": "bash", "arguments": {"command": "seq 1 2000"}}]},
        {"text": "long"},
    ]
    await AgentLoop(session, OfflineProvider(scenario=scenario)).run_prompt("count")
    artifact = await Artifact.objects.select_related("node").aget(session=session)
    assert artifact.node is not None and artifact.node.role == "tool_result"
    assert f"artifact {artifact.pk}" in artifact.node.content[0]["text"]
    assert len(artifact.node.content[0]["text"]) < 2000


async def test_real_sdk_streams_text_and_tool_use(fake_anthropic: FakeAnthropic, workspace: Path) -> None:
    session = await new_session(workspace)
    fake_anthropic.queue(
        tool_reply(
            "write",
            {"path": "notes.md", "content": "hello"},
            text_before="Writing notes.",
            usage={
                "input_tokens": 900,
                "output_tokens": 40,
                "cache_read_input_tokens": 300,
                "cache_creation_input_tokens": 20,
            },
        ),
        text_reply("All written.", usage={"input_tokens": 1000, "output_tokens": 5}),
    )
    deltas: list[str] = []
    provider = anthropic(fake_anthropic)
    loop = AgentLoop(
        session, provider, on_stream=lambda e: deltas.append(e.text) if isinstance(e, TextDelta) else None
    )
    outcome = await loop.run_prompt("take notes")
    await provider.aclose()

    assert outcome.end_reason == "completed" and outcome.text == "All written."
    assert len(deltas) > 2 and "".join(deltas) == "Writing notes.All written."
    assert (workspace / "notes.md").read_text() == "hello"
    first, second = fake_anthropic.message_requests
    assert {t["name"] for t in first.body["tools"]} >= {"read", "write", "edit", "bash"}
    # The second request carries the tool result for the first reply's tool_use id.
    tool_use_id = next(b["id"] for b in second.body["messages"][1]["content"] if b["type"] == "tool_use")
    result_block = second.body["messages"][2]["content"][0]
    assert result_block["type"] == "tool_result" and result_block["tool_use_id"] == tool_use_id
    nodes = await sync_to_async(nodes_of)(session)
    assert nodes[1].usage == {"input": 900, "output": 40, "cache_read": 300, "cache_write": 20, "total": 1260}
    assert nodes[1].stop_reason == "tool_use" and nodes[-1].stop_reason == "stop"
    run = await Run.objects.aget(pk=outcome.run_id)
    assert (run.input_tokens, run.cache_read_tokens, run.cache_write_tokens) == (1900, 300, 20)


async def test_stream_failure_leaves_nothing_half_written(
    fake_anthropic: FakeAnthropic, workspace: Path
) -> None:
    session = await new_session(workspace)
    fake_anthropic.queue(stream_error_reply("This answer will break off mid-way", error_after=2))
    provider = anthropic(fake_anthropic)
    outcome = await AgentLoop(session, provider).run_prompt("hello")
    await provider.aclose()
    assert outcome.end_reason == "error" and "ProviderStreamError" in outcome.error
    nodes = await sync_to_async(nodes_of)(session)
    assert [n.role for n in nodes] == ["user"]  # no partial assistant node
    run = await Run.objects.aget(pk=outcome.run_id)
    assert run.status == "failed" and run.end_reason == "error" and run.ended_at is not None


async def test_overflow_without_compaction_ends_prompt_too_long(
    fake_anthropic: FakeAnthropic, workspace: Path
) -> None:
    session = await new_session(workspace)
    fake_anthropic.queue(overflow_error())
    provider = anthropic(fake_anthropic)
    outcome = await AgentLoop(session, provider).run_prompt("hello")
    await provider.aclose()
    assert outcome.end_reason == "prompt_too_long"
    assert "210000 tokens > 200000" in outcome.error
    assert [n.role for n in await sync_to_async(nodes_of)(session)] == ["user"]


async def test_context_larger_than_window_is_refused_before_calling_the_model(
    fake_anthropic: FakeAnthropic, workspace: Path
) -> None:
    session = await new_session(workspace, context_window=5000)
    provider = anthropic(fake_anthropic)
    outcome = await AgentLoop(session, provider).run_prompt("word " * 6000)
    await provider.aclose()
    assert outcome.end_reason == "prompt_too_long" and "window is 5000" in outcome.error
    assert fake_anthropic.message_requests == []


async def test_seam_gets_one_recovery_chance_on_overflow(
    fake_anthropic: FakeAnthropic, workspace: Path
) -> None:
    calls: list[tuple[int, bool]] = []

    class Recovering(CompactionHooks):
        async def ensure_fits(self, loop: AgentLoop, tokens: int, *, overflow: bool) -> bool:
            calls.append((tokens, overflow))
            return True

    session = await new_session(workspace)
    fake_anthropic.queue(overflow_error(), text_reply("fits now"))
    provider = anthropic(fake_anthropic)
    outcome = await AgentLoop(session, provider, hooks=Recovering()).run_prompt("hello")
    await provider.aclose()
    assert outcome.end_reason == "completed" and outcome.text == "fits now"
    assert calls == [(210000, True)]
    assert len(fake_anthropic.message_requests) == 2


async def test_loop_continues_below_a_compaction_that_landed_on_its_head(workspace: Path) -> None:
    """A background compaction appends after the active node; the loop's next append must go
    below it instead of failing its compare-and-swap."""

    class LandCompaction(CompactionHooks):
        landed: Node | None = None

        async def after_assistant(self, loop: AgentLoop, node: Node) -> None:
            if self.landed is None:
                self.landed = await sync_to_async(self._write)(loop, node)

        def _write(self, loop: AgentLoop, node: Node) -> Node:
            first = Node.objects.filter(session=loop.session).order_by("seq").first()
            assert first is not None
            c = store.append(
                loop.session, node.key, kind="compaction", data={"summary": "S", "first_kept": node.key}
            )
            CompactionEntry.objects.create(node=c, summary="S", first_kept_node=node, tokens_before=10)
            return c

    session = await new_session(workspace)
    hooks = LandCompaction()
    scenario: list[dict[str, Any]] = [
        {"text": "a", "tool_calls": [{"name": "bash", "arguments": {"command": "true"}}]},
        {"text": "b"},
    ]
    outcome = await AgentLoop(session, OfflineProvider(scenario=scenario), hooks=hooks).run_prompt("go")
    assert outcome.end_reason == "completed"
    nodes = await sync_to_async(nodes_of)(session)
    assert [n.kind if n.kind != "message" else n.role for n in nodes] == [
        "user", "assistant", "compaction", "tool_result", "assistant"
    ]  # fmt: skip
    assert hooks.landed is not None and nodes[3].parent_id == hooks.landed.pk


async def test_sub_agent_runs_in_its_own_session_under_a_child_agent(workspace: Path) -> None:
    session = await new_session(workspace)
    scenario: list[dict[str, Any]] = [
        {
            "text": "delegating",
            "tool_calls": [
                {"name": "agent.fork_agent", "arguments": {"definition": "coder", "prompt": "say hi"}}
            ],
        },
        {"text": "sub-agent answered"},  # the child's reply (it shares the scripted provider)
        {"text": "parent done"},
    ]
    outcome = await AgentLoop(session, OfflineProvider(scenario=scenario)).run_prompt("delegate")
    assert outcome.end_reason == "completed" and outcome.text == "parent done"
    result = await Node.objects.aget(session=session, role="tool_result")
    assert "sub-agent answered" in result.content[0]["text"]
    child = await Session.objects.exclude(pk=session.pk).aget()
    agent = await child.agents.select_related("parent").aget()
    assert agent.role == "sub" and agent.parent is not None and agent.parent.session_id == session.pk
    assert child.metadata["parent_session"] == session.pk


def test_scenario_file_json_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENARIO))
    assert OfflineProvider(scenario=str(path)).scenario is not None
