import json
import pytest
from sessions_app import store
from sessions_app.compaction import CompactionSettings, Preparation, make_payload, prepare
from sessions_app.store.audits import current_audit
from sessions_app.models import Session

pytestmark = pytest.mark.django_db

def t(x): return [{"type": "text", "text": x}]

def test_x():
    s = Session.objects.create(title="planted")
    n = store.append(s, None, kind="message", role="user", content=t(
        "Rename the settings loader. Never edit the generated migrations by hand. "
        "Always keep the legacy command line flag working for old scripts. "
        "Do not paste <script>alert(1)</script> into any template."))
    a = store.append(s, n.key, kind="message", role="assistant", content=t("On it."))
    u2 = store.append(s, a.key, kind="message", role="user", content=t("Thanks. Now look at the tests please, they are slow and flaky today and I want them fast."))
    a2 = store.append(s, u2.key, kind="message", role="assistant", content=t("Looking at the tests now. " * 20))
    path = store.context_path_entries(s)
    settings = CompactionSettings(keep_recent_tokens=40)
    plan = prepare(path, settings)
    print(plan)
    summary = "## Constraints\n- Always keep the legacy command line flag working for old scripts.\n"
    e = store.append_compaction(s, s.active_node_id, make_payload(plan, summary), reason="manual", settings=settings)
    print(json.dumps(current_audit(e), indent=1))
