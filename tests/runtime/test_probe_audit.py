"""The probe check beside the audit (runtime/probe_audit.py, docs/compaction.md rule R7): the
real anthropic SDK asks the fake server over HTTP one batched question per fact, the graded
answers are stored on the compaction, and the compaction page shows them next to the lexical
verdicts with the number of disagreements. A reply in the wrong format or a failed call is a
stored, shown failure; the offline provider is never asked."""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from sessions_app.llm.offline import OfflineProvider
from sessions_app.models import CompactionEntry, Session
from sessions_app.retention import probes
from sessions_app.runtime import compact_fork
from sessions_app.runtime.probe_audit import probe_compaction
from sessions_app.store.audits import audit_written, probe_inputs
from tests.fake_anthropic import ErrorReply, FakeAnthropic, RecordedRequest, Reply, text_reply
from tests.runtime.test_compaction_fork import anthropic, build_session

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

CONSTRAINT = "Never change the public API of src/parser.py."


async def compacted(fake: FakeAnthropic) -> tuple[Session, int]:
    """A session compacted by the extractive summarizer (no model call), its audit written."""
    session = await sync_to_async(build_session)(
        10, opening=f"{CONSTRAINT} ", compaction={"strategy": "extractive"}
    )
    outcome = await compact_fork.compact(session, provider=anthropic(fake))
    assert outcome.status == "completed" and outcome.compaction_id is not None
    await sync_to_async(audit_written)(outcome.compaction_id)
    return session, outcome.compaction_id


def answering(right: set[int]) -> Any:
    """A fake-server handler that answers the questions it is sent: the blanked piece for the
    numbers in `right` (worked out from the same facts), UNKNOWN for the rest."""

    def handle(request: RecordedRequest) -> Reply:
        prompt = request.body["messages"][0]["content"][0]["text"]
        answers = []
        for line in prompt.split("<questions>\n")[1].split("\n</questions>")[0].splitlines():
            n = int(line.split(".", 1)[0])
            answers.append({"n": n, "answer": "RIGHT" if n in right else "UNKNOWN", "quote": ""})
        return text_reply(json.dumps(answers))

    return handle


def page(compaction_id: int) -> str:
    client = Client()
    client.force_login(User.objects.create_user("reader", password="pw-reader-123"))
    return client.get(reverse("sessions_app:compaction_detail", args=[compaction_id])).content.decode()


async def test_answers_are_graded_stored_beside_the_audit_and_shown(fake_anthropic: FakeAnthropic) -> None:
    _, cid = await compacted(fake_anthropic)
    inputs = await sync_to_async(probe_inputs)(cid)
    assert inputs is not None and inputs.facts
    asked = probes.probes(inputs.facts)
    expected = {p.number: p.expected for p in asked}
    # The model answers the first question right and knows nothing of the others.
    right = {next(n for n, e in expected.items() if e is not None)}

    def handle(request: RecordedRequest) -> Reply:
        reply: Reply = answering(right)(request)
        body = json.loads(reply.content[0]["text"])
        for item in body:
            if item["answer"] == "RIGHT":
                item["answer"] = expected[item["n"]]
        return text_reply(json.dumps(body))

    fake_anthropic.handler = handle
    stored = await probe_compaction(cid, anthropic(fake_anthropic, "claude-probe-1"))
    [request] = fake_anthropic.message_requests
    assert request.system_text == probes.SYSTEM
    sent = request.body["messages"][0]["content"][0]["text"]
    assert sent.startswith("<context>\n") and "## Goal" in sent  # the summary is in the context
    entry = await CompactionEntry.objects.aget(pk=cid)
    assert entry.probe == stored and stored is not None and stored["status"] == "ok"
    assert stored["model"] == "claude-probe-1" and stored["total"] == len(asked)
    assert stored["kept"] == 1 and stored["lost"] == len(asked) - 1
    # Each fact the lexical audit found kept but the model could not answer is a disagreement.
    verdict = {(f["kind"], f["text"]): f["verdict"] for f in stored["facts"]}
    disagree = sum(1 for key, kept in inputs.lexical.items() if kept != (verdict[key] == "kept"))
    assert stored["disagreements"] == disagree > 0
    html = await sync_to_async(page)(cid)
    assert f'id="audit-probe-disagreements">{disagree}<' in html
    assert "probe: kept" in html and "probe: lost" in html and "disagrees" in html


@pytest.mark.parametrize(
    ("reply", "says"),
    [
        (text_reply("All facts are there, I think."), "not in the format asked for: the reply is not JSON"),
        (ErrorReply(400, "invalid_request_error", "prompt rejected"), "the model call failed"),
    ],
    ids=["malformed", "provider-error"],
)
async def test_a_failed_probe_check_is_stored_and_shown_never_raised(
    fake_anthropic: FakeAnthropic, reply: Reply | ErrorReply, says: str
) -> None:
    _, cid = await compacted(fake_anthropic)
    fake_anthropic.queue(reply)
    stored = await probe_compaction(cid, anthropic(fake_anthropic))
    assert stored is not None and stored["status"] == "failed"
    assert stored["error"].startswith("probe check failed: ") and says in stored["error"]
    html = await sync_to_async(page)(cid)
    assert 'id="audit-probe-failed"' in html and "probe check failed: " in html
    assert 'id="audit-retention"' in html  # the lexical audit is shown as ever


async def test_the_offline_provider_is_never_asked(fake_anthropic: FakeAnthropic) -> None:
    _, cid = await compacted(fake_anthropic)
    assert await probe_compaction(cid, OfflineProvider()) is None
    assert (await CompactionEntry.objects.aget(pk=cid)).probe is None


async def test_after_a_compaction_when_switched_on(fake_anthropic: FakeAnthropic, settings: Any) -> None:
    settings.CUTPOINT_PROBE_AUDIT = True
    session = await sync_to_async(build_session)(10, compaction={"strategy": "extractive"})
    fake_anthropic.handler = answering(set())
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="manual")).task
    outcome = await compact_fork.CompactionJob.resume(task.pk).run(
        provider=anthropic(fake_anthropic), audit="after"
    )
    assert outcome.compaction_id is not None
    entry = await CompactionEntry.objects.aget(pk=outcome.compaction_id)
    assert entry.audit is not None and entry.probe is not None and entry.probe["status"] == "ok"
    assert entry.probe["kept"] == 0 and len(fake_anthropic.message_requests) == 1
    settings.CUTPOINT_PROBE_AUDIT = False
    session = await sync_to_async(build_session)(10, compaction={"strategy": "extractive"})
    task = (await sync_to_async(compact_fork.CompactionJob.request)(session, trigger="manual")).task
    outcome = await compact_fork.CompactionJob.resume(task.pk).run(
        provider=anthropic(fake_anthropic), audit="after"
    )
    assert outcome.compaction_id is not None
    entry = await CompactionEntry.objects.aget(pk=outcome.compaction_id)
    assert entry.audit is not None and entry.probe is None and len(fake_anthropic.message_requests) == 1
