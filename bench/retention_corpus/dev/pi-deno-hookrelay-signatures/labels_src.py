# ruff: noqa: E501
"""Labels for pi-deno-hookrelay-signatures, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "hookrelay (Deno service on Deno Deploy): GitHub webhook signatures, delivery de-duplication in Deno KV, event filter, Slack 429 retries",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout4 test split",
    "voice": "Japanese-flavoured English (very polite, articles and plurals dropped), constraints in parentheses, one question that catches a flaw",
    "toolchain": "Deno 2.1.4 (deno check, deno test with leak detection, deno lint, deno coverage, deno task), jsr:@std (assert, encoding, testing), Deno KV, Deno Deploy",
}
COMPACTIONS = [
    ("Duplicates are ignored now.", 900),
    ("Coverage: 92.3% of lines", 1500),
]
FACTS = [
    f("d01", "request", "must", "Please add check of GitHub signature", "Verify GitHub's X-Hub-Signature-256 (HMAC SHA-256); wrong or missing signature -> 401 and nothing forwarded to Slack.", [r"signature|X-Hub-Signature-256|HMAC", r"\b401\b"], "done"),
    f("d02", "value", "should", "Secret come from env GITHUB_WEBHOOK_SECRET", "The webhook secret comes from env GITHUB_WEBHOOK_SECRET.", [r"GITHUB_WEBHOOK_SECRET"]),
    f("d03", "constraint", "must", "only jsr:@std packages please", "Only jsr:@std packages, no npm: packages (the security team checks every dependency).", [r"jsr|@std", r"\bnpm\b|only"]),
    f("d04", "constraint", "must", "compare signature in constant time", "Compare the signature in constant time (not ===).", [r"constant[- ]time|timing[- ]safe"]),
    f("d05", "decision", "should", "compares in constant time, so there is no hand-written compare", "Use Web Crypto crypto.subtle.verify for the HMAC check: constant time, built in, no dependency.", [r"crypto\.subtle\.verify|subtle\.verify|Web ?Crypto", r"constant|compar|timing"]),
    f("d06", "error", "should", "accepts GitHub's documented example ... FAILED (6ms)", "The test with GitHub's documented example signature failed (Actual false, Expected true).", [r"documented example|GitHub.?s (documented )?example|verify_test", r"fail|false|AssertionError"], "fixed"),
    f("d07", "fix", "should", "My hex loop slices at `i` instead of `2 * i`", "Cause: the hand-written hex decoding loop sliced at i instead of 2*i (overlapping pairs); replaced by decodeHex from jsr:@std/encoding 1.0.5.", [r"decodeHex|@std/encoding"]),
    f("d08", "error", "should", "TS2345 [ERROR]: Argument of type 'string | null'", "deno check TS2345: headers.get() returns string | null; verifySignature now takes string | null and rejects null.", [r"TS2345|string \| null|\bnull\b", r"header|verifySignature|not assignable"], "fixed"),
    f("d09", "error", "should", "NotCapable: Requires env access to \"SLACK_WEBHOOK_URL\"", "deno task dev failed with NotCapable: requires env access to SLACK_WEBHOOK_URL.", [r"NotCapable|allow-env|env access", r"SLACK_WEBHOOK_URL|\bdev\b|permission"], "fixed"),
    f("d10", "value", "should", "`deno task dev` now has narrow permissions", "deno task dev runs with --allow-env=SLACK_WEBHOOK_URL,GITHUB_WEBHOOK_SECRET and --allow-net=0.0.0.0:8787,hooks.slack.com (port 8787).", [r"allow-net|allow-env|permission", r"8787|hooks\.slack\.com|GITHUB_WEBHOOK_SECRET"]),
    f("d11", "value", "nice", "deno 2.1.4 (stable, release", "Deno 2.1.4 (TypeScript 5.6.2).", [r"2\.1\.4", r"deno"]),
    f("d12", "request", "must", "Please remember delivery id and ignore duplicate", "Ignore duplicate deliveries (GitHub retries) by remembering the X-GitHub-Delivery id in Deno KV.", [r"X-GitHub-Delivery|delivery id|dedup|duplicate", r"\bKV\b"], "done"),
    f("d13", "constraint", "must", "keep id only 10 minutes", "Keep delivery ids only 10 minutes (expireIn); KV must not grow forever.", [r"10 ?min|expireIn|600", r"\bKV\b|\bids?\b|deliver|expir|keep"]),
    f("d14", "constraint", "must", "keep it Deno Deploy compatible (no file write", "Stay Deno Deploy compatible: no file writes, no subprocess.", [r"Deploy", r"file|subprocess|compat"]),
    f("d15", "error", "should", "A Deno KV connection was opened during the test", "dedupe test failed Deno's leak check (KV connection not closed); kv.close() in a finally.", [r"leak|kv\.close|not closed", r"\bKV\b"], "fixed"),
    f("d16", "decision", "should", "Duplicates are ignored now.", "firstDelivery() uses an atomic check-and-set (versionstamp null) so parallel retries cannot both pass; the signature is checked first so unsigned requests cannot fill KV.", [r"atomic|versionstamp|check-and-set", r"duplicate|retr|parallel|KV"]),
    f("d17", "decision", "should", "A duplicate gets 200", "A duplicate delivery is answered 200 \"duplicate\" (not an error, so GitHub stops retrying).", [r"duplicate", r"\b200\b"]),
    f("d18", "error", "nice", "Property 'openKv' does not exist on type 'typeof Deno'", "deno check: Deno.openKv is unstable (TS2339); \"unstable\": [\"kv\"] added to deno.json.", [r"openKv|unstable", r"\bkv\b|deno\.json|unstable"], "fixed"),
    f("d19", "error", "should", "error[no-explicit-any]: `any` type is not allowed", "deno lint (red in CI for a long time): no-explicit-any in relay.ts and two no-non-null-assertion in main.ts.", [r"no-explicit-any|no-non-null-assertion|\bany\b|non-null", r"lint|relay|main"], "fixed"),
    f("d20", "fix", "should", "deno lint is clean (7 files)", "requireEnv() replaces the ! on env vars (fails at startup with the name), a GitHubPayload type replaces any.", [r"requireEnv|GitHubPayload"]),
    f("d21", "request", "must", "Please forward only push, pull_request and release", "Relay only push, pull_request and release (release shows the tag); every other event, ping included, gets 204 and no Slack message.", [r"\bpush\b", r"pull_request", r"release", r"204|ignor|only"], "done"),
    f("d22", "value", "should", "Order in main.ts: signature (401)", "Request order in main.ts: signature (401) -> duplicate (200) -> event filter (204) -> Slack.", [r"\b401\b", r"\b204\b"]),
    f("d23", "error", "nice", "'msg' is possibly 'null'.", "TS18047 'msg' is possibly null after the event filter; main.ts returns 204 when msg is null.", [r"possibly .?null|TS18047", r"\bmsg\b|204"], "fixed"),
    f("d24", "value", "should", "Coverage: 92.3% of lines", "Coverage 92.3% lines / 83.3% branches (relay.ts 81.8% lines); main.ts is not covered by any test.", [r"92\.3|83\.3|81\.8", r"cover|lines?|branch"]),
    f("d25", "request", "must", "Could you retry when Slack return 429?", "Retry the Slack post on 429 using its Retry-After header (seconds); messages were lost when 20 pushes came together.", [r"\b429\b", r"retr|Retry-After"], "done"),
    f("d26", "constraint", "must", "don't wait more than 5 seconds total", "Never wait more than 5 s in total (Deploy and GitHub timeouts; GitHub waits 10 s for an answer).", [r"5 ?s(ec|econds)?\b|5000|five seconds", r"wait|total|timeout|retr"]),
    f("d27", "decision", "should", "Slack 429 is retried now (src/slack.ts)", "postToSlack: up to 3 attempts; if the next wait would pass 5 s it gives up and hookrelay answers 502 so GitHub marks the delivery failed.", [r"\b502\b|3 attempts|three attempts", r"Slack|give up|gives up|retr"]),
    f("d28", "error", "should", "A response body was created during the test, but not consumed", "Leak check: postToSlack did not consume response bodies; every response body is now cancelled (res.body?.cancel()).", [r"body|leak", r"cancel|consum"], "fixed"),
    f("d29", "finding", "must", "if we answer 502, GitHub redeliver with same X-GitHub-Delivery id?", "A redelivery after a 502 keeps the same X-GitHub-Delivery id, so the dedupe would have swallowed it.", [r"redeliver", r"same|dedup|duplicate|X-GitHub-Delivery"]),
    f("d30", "fix", "must", "When Slack fails, the delivery id is deleted from KV before the 502", "When Slack fails, forgetDelivery() deletes the id from KV before answering 502, so GitHub's redelivery is relayed.", [r"forgetDelivery|delet|forget", r"\b502\b|Slack fail|redeliver"]),
    f("d31", "value", "nice", "Add jsr:@std/testing@1.0.6", "@std/testing 1.0.6 added (test only, for stub of fetch).", [r"@std/testing", r"1\.0\.6|stub|test"]),
    f("d32", "constraint", "must", "I will deploy by myself with deployctl", "Do not deploy: the user deploys herself with deployctl tomorrow morning.", [r"deploy", r"don.?t|\bnot\b|myself|herself|user|tomorrow|deployctl"], "open"),
    f("d33", "request", "should", "next week maybe we add Discord forwarding", "Discord forwarding maybe next week; not started.", [r"discord", r"next week|later|not (now|started|yet)|open"], "open"),
    f("d34", "value", "should", "Committed e93b40d", "Committed e93b40d, nothing deployed.", [r"e93b40d"]),
    f("d35", "finding", "must", "Before you deploy with deployctl", "Before deploying, GITHUB_WEBHOOK_SECRET must be set in the hookrelay-prod Deploy project (same value as in GitHub), or requireEnv stops the service at startup; not in the README.", [r"GITHUB_WEBHOOK_SECRET|secret", r"Deploy|hookrelay-prod|\bset\b|startup"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
