# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout4 split.

A Japanese developer (polite, articles and plurals dropped, constraints in parentheses) has pi add
GitHub webhook signature checks, delivery de-duplication in Deno KV, an event filter and Slack 429
retries to a small Deno service for Deno Deploy. deno check (TS2345), deno test (assertion diffs,
leak detection), deno lint, deno coverage, permission errors. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/aiko/dev/hookrelay"
s = PiSession(CWD, "2026-04-08T01:15:02", seed="hookrelay-signatures")

DJ = "deno.json"
MAIN = "main.ts"
VER = "src/verify.ts"
VT = "src/verify_test.ts"
REL = "src/relay.ts"
DD = "src/dedupe.ts"
DT = "src/dedupe_test.ts"
RT = "src/relay_test.ts"

s.files.update({
    DJ: """{
  "tasks": {
    "dev": "deno run --watch --allow-net main.ts",
    "test": "deno test"
  },
  "imports": {
    "@std/assert": "jsr:@std/assert@^1.0.8",
    "@std/http": "jsr:@std/http@^1.0.12"
  },
  "deploy": {
    "project": "hookrelay-prod",
    "entrypoint": "main.ts"
  }
}
""",
    MAIN: """import { toSlackMessage } from "./src/relay.ts";

const SLACK_URL = Deno.env.get("SLACK_WEBHOOK_URL")!;

async function handle(req: Request): Promise<Response> {
  if (req.method !== "POST") return new Response("method not allowed", { status: 405 });
  const event = req.headers.get("x-github-event") ?? "unknown";
  const body = await req.text();
  const msg = toSlackMessage(JSON.parse(body), event);
  await fetch(SLACK_URL, { method: "POST", body: JSON.stringify(msg) });
  return new Response("ok");
}

Deno.serve({ port: 8787 }, handle);
""",
    REL: """// Turns a GitHub webhook payload into a Slack message.
export function toSlackMessage(ev: any, event: string) {
  const repo = ev.repository?.full_name ?? "?";
  switch (event) {
    case "push":
      return { text: `:arrow_up: ${ev.pusher?.name} pushed ${ev.commits?.length ?? 0} commit(s) to ${repo}` };
    case "pull_request":
      return { text: `:twisted_rightwards_arrows: PR #${ev.number} ${ev.action} in ${repo}: ${ev.pull_request?.title}` };
    default:
      return { text: `${event} in ${repo}` };
  }
}
""",
})


def test_out(lines: str, summary: str, errors: str = "") -> str:
    return lines + ("\n ERRORS \n\n" + errors if errors else "") + "\n" + summary + "\n"


# ============================================================================================ turn 1
s.user(
    "Hello, thank you always for help. I maintain hookrelay, it is small Deno service: GitHub send webhook to it, and it forward message to our Slack channel. "
    "It runs on Deno Deploy (project hookrelay-prod).\n\n"
    "Problem: now anybody who know the URL can post fake event to Slack. Please add check of GitHub signature (header X-Hub-Signature-256, HMAC SHA-256). "
    "Secret come from env GITHUB_WEBHOOK_SECRET. If signature is wrong or missing, please return 401 and do not forward to Slack.\n\n"
    "Some wishes (only jsr:@std packages please, no npm: packages, our security team check every dependency) (and please compare signature in constant time, I read normal === is not safe for this).",
    pause=0,
)
s.bash("ls -la && deno --version", "total 32\ndrwxr-xr-x 4 aiko aiko 4096 Apr  7 22:10 .\ndrwxr-xr-x 9 aiko aiko 4096 Mar 30 11:02 ..\ndrwxr-xr-x 8 aiko aiko 4096 Apr  7 22:10 .git\n-rw-r--r-- 1 aiko aiko  271 Mar 30 11:02 deno.json\n-rw-r--r-- 1 aiko aiko 1420 Apr  2 09:44 deno.lock\n-rw-r--r-- 1 aiko aiko  512 Apr  2 09:44 main.ts\ndrwxr-xr-x 2 aiko aiko 4096 Apr  2 09:44 src\ndeno 2.1.4 (stable, release, x86_64-unknown-linux-gnu)\nv8 13.0.245.12-rusty\ntypescript 5.6.2\n")
s.reads([DJ, MAIN, REL])
s.bash("ls src && git log --oneline -4", "relay.ts\n7c1e9a2 relay: pull_request title\nb55f018 deno 2\n2f0d6c1 deploy config\n0e8a3b7 initial relay\n")
s.assistant(
    "Plan: a `verifySignature(secret, body, header)` in src/verify.ts using Web Crypto: import the secret as an HMAC SHA-256 key and call `crypto.subtle.verify` with the signature bytes from the header. "
    "`crypto.subtle.verify` compares in constant time, so there is no hand-written compare at all, and Web Crypto is built into Deno (no dependency). main.ts reads the raw body once, verifies it before parsing, and returns 401 without calling Slack when it fails."
)
s.write(VER, """// Verifies GitHub's X-Hub-Signature-256 header (HMAC SHA-256 of the raw body).
const enc = new TextEncoder();

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i, i + 2), 16);
  return out;
}

export async function verifySignature(secret: string, body: string, header: string): Promise<boolean> {
  if (!header.startsWith("sha256=")) return false;
  const hex = header.slice("sha256=".length);
  if (!/^[0-9a-f]{64}$/.test(hex)) return false;
  const key = await crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["verify"]);
  // crypto.subtle.verify compares in constant time
  return crypto.subtle.verify("HMAC", key, hexToBytes(hex), enc.encode(body));
}
""")
s.write(VT, """import { assertEquals } from "@std/assert";
import { verifySignature } from "./verify.ts";

// the example from GitHub's documentation ("Validating webhook deliveries")
Deno.test("accepts GitHub's documented example", async () => {
  const ok = await verifySignature("It's a Secret to Everybody", "Hello, World!",
    "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17");
  assertEquals(ok, true);
});

Deno.test("rejects a tampered body", async () => {
  assertEquals(await verifySignature("It's a Secret to Everybody", "Hello, World?",
    "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"), false);
});

Deno.test("rejects a header without sha256= prefix", async () => {
  assertEquals(await verifySignature("s", "b", "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17"), false);
});
""")
s.bash("deno test src/verify_test.ts", test_out(
    "running 3 tests from ./src/verify_test.ts\naccepts GitHub's documented example ... FAILED (6ms)\nrejects a tampered body ... ok (1ms)\nrejects a header without sha256= prefix ... ok (0ms)\n",
    "FAILED | 2 passed | 1 failed (31ms)\n\nerror: Test failed",
    "accepts GitHub's documented example => ./src/verify_test.ts:5:6\nerror: AssertionError: Values are not equal.\n\n\n    [Diff] Actual / Expected\n\n\n-   false\n+   true\n\n  throw new AssertionError(message);\n        ^\n    at assertEquals (https://jsr.io/@std/assert/1.0.8/equals.ts:64:9)\n    at file:///home/aiko/dev/hookrelay/src/verify_test.ts:8:3\n\n FAILURES \n\naccepts GitHub's documented example => ./src/verify_test.ts:5:6\n"), code=1)
s.bash("deno eval 'const h=\"7571\"; const o=new Uint8Array(2); for (let i=0;i<o.length;i++) o[i]=parseInt(h.slice(i,i+2),16); console.log(o)'", "Uint8Array(2) [ 117, 87 ]\n")
s.assistant("My hex loop slices at `i` instead of `2 * i`, so from the second byte on it reads overlapping pairs (0x57 instead of 0x71 for \"7571\") and the HMAC never matches. Instead of fixing the loop I'll use `decodeHex` from jsr:@std/encoding, which is in the allowed @std family.")
s.bash("deno add jsr:@std/encoding", "Add jsr:@std/encoding@1.0.5\n")
s.files[DJ] = s.files[DJ].replace('    "@std/assert": "jsr:@std/assert@^1.0.8",\n', '    "@std/assert": "jsr:@std/assert@^1.0.8",\n    "@std/encoding": "jsr:@std/encoding@^1.0.5",\n')
s.edit(VER, """const enc = new TextEncoder();

function hexToBytes(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i, i + 2), 16);
  return out;
}
""", """import { decodeHex } from "@std/encoding/hex";

const enc = new TextEncoder();
""")
s.edit(VER, "hexToBytes(hex)", "decodeHex(hex)")
s.bash("deno test src/verify_test.ts", "running 3 tests from ./src/verify_test.ts\naccepts GitHub's documented example ... ok (5ms)\nrejects a tampered body ... ok (1ms)\nrejects a header without sha256= prefix ... ok (0ms)\n\nok | 3 passed | 0 failed (24ms)\n")
s.edit(MAIN, """import { toSlackMessage } from "./src/relay.ts";

const SLACK_URL = Deno.env.get("SLACK_WEBHOOK_URL")!;
""", """import { toSlackMessage } from "./src/relay.ts";
import { verifySignature } from "./src/verify.ts";

const SLACK_URL = Deno.env.get("SLACK_WEBHOOK_URL")!;
const SECRET = Deno.env.get("GITHUB_WEBHOOK_SECRET")!;
""")
s.edit(MAIN, """  const body = await req.text();
  const msg""", """  const body = await req.text();
  const ok = await verifySignature(SECRET, body, req.headers.get("x-hub-signature-256"));
  if (!ok) return new Response("bad signature", { status: 401 });
  const msg""")
s.bash("deno check main.ts", """Check file:///home/aiko/dev/hookrelay/main.ts
error: TS2345 [ERROR]: Argument of type 'string | null' is not assignable to parameter of type 'string'.
  Type 'null' is not assignable to type 'string'.
  const ok = await verifySignature(SECRET, body, req.headers.get("x-hub-signature-256"));
                                                 ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
    at file:///home/aiko/dev/hookrelay/main.ts:11:50
""", code=1)
s.edit(VER, "export async function verifySignature(secret: string, body: string, header: string): Promise<boolean> {\n  if (!header.startsWith(\"sha256=\")) return false;", "export async function verifySignature(secret: string, body: string, header: string | null): Promise<boolean> {\n  if (!header?.startsWith(\"sha256=\")) return false;")
s.edit(VT, """Deno.test("rejects a header without sha256= prefix", async () => {""", """Deno.test("rejects a missing header", async () => {
  assertEquals(await verifySignature("s", "b", null), false);
});

Deno.test("rejects a header without sha256= prefix", async () => {""")
s.bash("deno check main.ts && deno test src/verify_test.ts", "Check file:///home/aiko/dev/hookrelay/main.ts\nrunning 4 tests from ./src/verify_test.ts\naccepts GitHub's documented example ... ok (5ms)\nrejects a tampered body ... ok (1ms)\nrejects a missing header ... ok (0ms)\nrejects a header without sha256= prefix ... ok (0ms)\n\nok | 4 passed | 0 failed (25ms)\n")
s.bash("deno task dev", "Task dev deno run --watch --allow-net main.ts\nWatcher Process started.\nerror: Uncaught (in promise) NotCapable: Requires env access to \"SLACK_WEBHOOK_URL\", run again with the --allow-env flag\nconst SLACK_URL = Deno.env.get(\"SLACK_WEBHOOK_URL\")!;\n                           ^\n    at Object.getEnv [as get] (ext:deno_os/30_os.js:124:16)\n    at file:///home/aiko/dev/hookrelay/main.ts:4:28\nWatcher Process failed. Restarting on file change...\n", code=1)
s.edit(DJ, '    "dev": "deno run --watch --allow-net main.ts",', '    "dev": "deno run --watch --allow-net=0.0.0.0:8787,hooks.slack.com --allow-env=SLACK_WEBHOOK_URL,GITHUB_WEBHOOK_SECRET main.ts",')
s.bash("SLACK_WEBHOOK_URL=http://localhost:9/x GITHUB_WEBHOOK_SECRET=dev timeout 3 deno task dev; echo exit=$?", "Task dev deno run --watch --allow-net=0.0.0.0:8787,hooks.slack.com --allow-env=SLACK_WEBHOOK_URL,GITHUB_WEBHOOK_SECRET main.ts\nWatcher Process started.\nListening on http://0.0.0.0:8787/ (http://localhost:8787/)\nexit=124\n")
s.bash("curl -s -o /dev/null -w '%{http_code}\\n' -X POST -H 'x-github-event: push' -d '{}' localhost:8787/", "401\n")
s.assistant(
    "Done:\n"
    "- src/verify.ts: `verifySignature(secret, body, header)` with Web Crypto HMAC SHA-256 and `crypto.subtle.verify` (constant time, no manual compare). Header must be `sha256=` + 64 hex chars; hex decoded with `decodeHex` from jsr:@std/encoding 1.0.5 (my own loop was wrong).\n"
    "- main.ts verifies the raw body before parsing; wrong or missing signature -> 401, nothing sent to Slack.\n"
    "- `deno task dev` now has narrow permissions: `--allow-env=SLACK_WEBHOOK_URL,GITHUB_WEBHOOK_SECRET` and `--allow-net=0.0.0.0:8787,hooks.slack.com` (it failed with NotCapable for env before).\n"
    "- 4 tests (GitHub's documented example included); an unsigned curl gets 401."
)

# ============================================================================================ turn 2
s.user("Wonderful, thank you very much!")

# ============================================================================================ turn 3
s.user(
    "Next request. GitHub sometimes send same delivery two times (retry), then Slack show duplicate message and people complain. Each delivery has header X-GitHub-Delivery (uuid). "
    "Please remember delivery id and ignore duplicate (use Deno KV, it is available on Deploy) (keep id only 10 minutes, GitHub retry is inside this time, we don't want KV grow forever). "
    "Also please keep it Deno Deploy compatible (no file write, no subprocess)."
)
s.write(DD, """// Remembers GitHub delivery ids for a while so retries are not relayed twice.
const TTL_MS = 10 * 60 * 1000;

/** true when the id was not seen before (and is now remembered) */
export async function firstDelivery(kv: Deno.Kv, id: string): Promise<boolean> {
  const key = ["delivery", id];
  const res = await kv.atomic().check({ key, versionstamp: null }).set(key, Date.now(), { expireIn: TTL_MS }).commit();
  return res.ok;
}
""")
s.write(DT, """import { assertEquals } from "@std/assert";
import { firstDelivery } from "./dedupe.ts";

Deno.test("second delivery with the same id is a duplicate", async () => {
  const kv = await Deno.openKv(":memory:");
  assertEquals(await firstDelivery(kv, "72d3162e-cc78-11e3-81ab-4c9367dc0958"), true);
  assertEquals(await firstDelivery(kv, "72d3162e-cc78-11e3-81ab-4c9367dc0958"), false);
  assertEquals(await firstDelivery(kv, "9e0a8f3c-0b1f-4a55-8b0e-6c1f2d3e4a5b"), true);
});
""")
s.bash("deno test --unstable-kv src/dedupe_test.ts", test_out(
    "running 1 test from ./src/dedupe_test.ts\nsecond delivery with the same id is a duplicate ... FAILED (9ms)\n",
    "FAILED | 0 passed | 1 failed (34ms)\n\nerror: Test failed",
    "second delivery with the same id is a duplicate => ./src/dedupe_test.ts:4:6\nerror: Leaks detected:\n  - A Deno KV connection was opened during the test, but not closed during the test. Close the KV connection using `kv.close()`.\nTo get more details where leaks occurred, run again with the --trace-leaks flag.\n\n FAILURES \n\nsecond delivery with the same id is a duplicate => ./src/dedupe_test.ts:4:6\n"), code=1)
s.assistant("The logic passed; Deno's leak check fails the test because the in-memory KV is never closed. Closing it in a `finally`.")
s.edit(DT, """  const kv = await Deno.openKv(":memory:");
  assertEquals(await firstDelivery(kv, "72d3162e-cc78-11e3-81ab-4c9367dc0958"), true);
  assertEquals(await firstDelivery(kv, "72d3162e-cc78-11e3-81ab-4c9367dc0958"), false);
  assertEquals(await firstDelivery(kv, "9e0a8f3c-0b1f-4a55-8b0e-6c1f2d3e4a5b"), true);
""", """  const kv = await Deno.openKv(":memory:");
  try {
    assertEquals(await firstDelivery(kv, "72d3162e-cc78-11e3-81ab-4c9367dc0958"), true);
    assertEquals(await firstDelivery(kv, "72d3162e-cc78-11e3-81ab-4c9367dc0958"), false);
    assertEquals(await firstDelivery(kv, "9e0a8f3c-0b1f-4a55-8b0e-6c1f2d3e4a5b"), true);
  } finally {
    kv.close();
  }
""")
s.bash("deno test --unstable-kv src/dedupe_test.ts", "running 1 test from ./src/dedupe_test.ts\nsecond delivery with the same id is a duplicate ... ok (7ms)\n\nok | 1 passed | 0 failed (22ms)\n")
s.edit(MAIN, """const SECRET = Deno.env.get("GITHUB_WEBHOOK_SECRET")!;
""", """const SECRET = Deno.env.get("GITHUB_WEBHOOK_SECRET")!;
const kv = await Deno.openKv();
""")
s.edit(MAIN, """  if (!ok) return new Response("bad signature", { status: 401 });
""", """  if (!ok) return new Response("bad signature", { status: 401 });
  const delivery = req.headers.get("x-github-delivery");
  if (delivery && !(await firstDelivery(kv, delivery))) return new Response("duplicate", { status: 200 });
""")
s.edit(MAIN, 'import { verifySignature } from "./src/verify.ts";\n', 'import { verifySignature } from "./src/verify.ts";\nimport { firstDelivery } from "./src/dedupe.ts";\n')
s.bash("deno check main.ts", "Check file:///home/aiko/dev/hookrelay/main.ts\nerror: TS2339 [ERROR]: Property 'openKv' does not exist on type 'typeof Deno'. 'Deno.openKv' is an unstable API. If not, try changing the 'lib' compiler option to include 'deno.unstable' or add a triple-slash directive to the top of your entrypoint (main file): /// <reference lib=\"deno.unstable\" />\nconst kv = await Deno.openKv();\n                      ~~~~~~\n    at file:///home/aiko/dev/hookrelay/main.ts:8:23\n", code=1)
s.edit(DJ, '  "deploy": {', '  "unstable": ["kv"],\n  "deploy": {')
s.bash("deno check main.ts src/*.ts && deno test", "Check file:///home/aiko/dev/hookrelay/main.ts\nCheck file:///home/aiko/dev/hookrelay/src/dedupe.ts\nCheck file:///home/aiko/dev/hookrelay/src/dedupe_test.ts\nCheck file:///home/aiko/dev/hookrelay/src/relay.ts\nCheck file:///home/aiko/dev/hookrelay/src/verify.ts\nCheck file:///home/aiko/dev/hookrelay/src/verify_test.ts\nrunning 1 test from ./src/dedupe_test.ts\nsecond delivery with the same id is a duplicate ... ok (7ms)\nrunning 4 tests from ./src/verify_test.ts\naccepts GitHub's documented example ... ok (5ms)\nrejects a tampered body ... ok (1ms)\nrejects a missing header ... ok (0ms)\nrejects a header without sha256= prefix ... ok (0ms)\n\nok | 5 passed | 0 failed (41ms)\n")
s.assistant(
    "Duplicates are ignored now. `firstDelivery()` stores `[\"delivery\", id]` with an atomic check-and-set (`versionstamp: null` = only if absent) and `expireIn` 10 minutes, so two parallel retries can't both pass and KV does not grow. "
    "A duplicate gets 200 \"duplicate\" (not an error, so GitHub stops retrying). The signature is checked first, so unsigned requests can't fill KV. `\"unstable\": [\"kv\"]` in deno.json (Deno.openKv is still unstable in 2.1; Deploy has it). No file writes, no subprocess."
)

# ============================================================================================ turn 4
s.user("Thank you. Can you run deno lint? Our CI run it and I think it is red since long time.")
s.bash("deno lint", """error[no-explicit-any]: `any` type is not allowed
 --> /home/aiko/dev/hookrelay/src/relay.ts:2:35
  | 
2 | export function toSlackMessage(ev: any, event: string) {
  |                                    ^^^
  = hint: Use a specific type other than `any`

  docs: https://docs.deno.com/lint/rules/no-explicit-any


error[no-non-null-assertion]: do not use non-null assertion
 --> /home/aiko/dev/hookrelay/main.ts:5:19
  | 
5 | const SLACK_URL = Deno.env.get("SLACK_WEBHOOK_URL")!;
  |                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  = hint: Consider using the optional chain operator `?.` instead of non-null assertion operator `!`

  docs: https://docs.deno.com/lint/rules/no-non-null-assertion


error[no-non-null-assertion]: do not use non-null assertion
 --> /home/aiko/dev/hookrelay/main.ts:6:16
  | 
6 | const SECRET = Deno.env.get("GITHUB_WEBHOOK_SECRET")!;
  |                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  = hint: Consider using the optional chain operator `?.` instead of non-null assertion operator `!`

  docs: https://docs.deno.com/lint/rules/no-non-null-assertion


Found 3 problems
Checked 7 files
""", code=1)
s.bash("cat .github/workflows/ci.yml | grep -A3 lint; ls deno.jsonc .deno* 2>/dev/null", "      - run: deno lint\n      - run: deno check main.ts\n      - run: deno test --unstable-kv\n")
s.assistant("CI runs plain `deno lint` with the default rules, so these three have been failing it. I'll fix all three: a `requireEnv()` that throws a clear error at startup instead of `!`, and a small `GitHubPayload` type instead of `any`.")
s.edit(MAIN, """const SLACK_URL = Deno.env.get("SLACK_WEBHOOK_URL")!;
const SECRET = Deno.env.get("GITHUB_WEBHOOK_SECRET")!;
""", """function requireEnv(name: string): string {
  const v = Deno.env.get(name);
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

const SLACK_URL = requireEnv("SLACK_WEBHOOK_URL");
const SECRET = requireEnv("GITHUB_WEBHOOK_SECRET");
""")
s.edit(REL, """// Turns a GitHub webhook payload into a Slack message.
export function toSlackMessage(ev: any, event: string) {""", """// Turns a GitHub webhook payload into a Slack message.
export interface GitHubPayload {
  repository?: { full_name?: string };
  pusher?: { name?: string };
  commits?: unknown[];
  number?: number;
  action?: string;
  pull_request?: { title?: string };
  release?: { tag_name?: string; name?: string };
}

export function toSlackMessage(ev: GitHubPayload, event: string) {""")
s.bash("deno lint && deno check main.ts", "Checked 7 files\nCheck file:///home/aiko/dev/hookrelay/main.ts\n")
s.assistant("deno lint is clean (7 files): `requireEnv()` replaces the two `!` (a missing variable now fails at startup with its name), and `GitHubPayload` replaces `any` in relay.ts.")

# ============================================================================================ turn 5
s.user(
    "Very good. Now about which events. Please forward only push, pull_request and release (other events: ignore and answer 204, no Slack). "
    "For release please show tag name. (ping event from GitHub when we create webhook also should be 204, not error)"
)
s.edit(REL, """    default:
      return { text: `${event} in ${repo}` };
  }
}
""", """    case "release":
      return { text: `:rocket: release ${ev.release?.tag_name} ${ev.action} in ${repo}` };
    default:
      return null;
  }
}

export const RELAYED_EVENTS = new Set(["push", "pull_request", "release"]);
""")
s.edit(MAIN, """  const msg = toSlackMessage(JSON.parse(body), event);
""", """  if (!RELAYED_EVENTS.has(event)) return new Response(null, { status: 204 });
  const msg = toSlackMessage(JSON.parse(body), event);
""")
s.edit(MAIN, 'import { toSlackMessage } from "./src/relay.ts";\n', 'import { RELAYED_EVENTS, toSlackMessage } from "./src/relay.ts";\n')
s.write(RT, """import { assertEquals } from "@std/assert";
import { RELAYED_EVENTS, toSlackMessage } from "./relay.ts";

Deno.test("release shows the tag", () => {
  assertEquals(toSlackMessage({ repository: { full_name: "acme/app" }, action: "published", release: { tag_name: "v2.3.0" } }, "release"),
    { text: ":rocket: release v2.3.0 published in acme/app" });
});

Deno.test("ping and issues are not relayed", () => {
  assertEquals(RELAYED_EVENTS.has("ping"), false);
  assertEquals(RELAYED_EVENTS.has("issues"), false);
});
""")
s.bash("deno test", "running 1 test from ./src/dedupe_test.ts\nsecond delivery with the same id is a duplicate ... ok (7ms)\nrunning 2 tests from ./src/relay_test.ts\nrelease shows the tag ... ok (1ms)\nping and issues are not relayed ... ok (0ms)\nrunning 4 tests from ./src/verify_test.ts\naccepts GitHub's documented example ... ok (5ms)\nrejects a tampered body ... ok (1ms)\nrejects a missing header ... ok (0ms)\nrejects a header without sha256= prefix ... ok (0ms)\n\nok | 7 passed | 0 failed (44ms)\n")
s.bash("deno check main.ts && deno lint", "Check file:///home/aiko/dev/hookrelay/main.ts\nerror: TS2345 [ERROR]: Argument of type '{ text: string; } | null' is not assignable to parameter of type 'BodyInit | null | undefined'.\n  ...\nerror: TS18047 [ERROR]: 'msg' is possibly 'null'.\n  await fetch(SLACK_URL, { method: \"POST\", body: JSON.stringify(msg) });\n                                                                ~~~\n    at file:///home/aiko/dev/hookrelay/main.ts:27:65\n\nFound 2 errors.\n", code=1)
s.assistant("The second error is the real one (msg can be null for unknown events); the first is TypeScript following from it. The filter already returns 204 before that line, but TypeScript can't know; I'll return 204 when msg is null too, which also covers an event added to the set without a case.")
s.edit(MAIN, """  const msg = toSlackMessage(JSON.parse(body), event);
""", """  const msg = toSlackMessage(JSON.parse(body), event);
  if (msg === null) return new Response(null, { status: 204 });
""")
s.bash("deno check main.ts && deno lint && deno test 2>&1 | tail -1", "Check file:///home/aiko/dev/hookrelay/main.ts\nChecked 8 files\nok | 7 passed | 0 failed (43ms)\n")
s.assistant("Only push, pull_request and release go to Slack; everything else, ping included, gets 204 with no Slack call. Release messages show the tag (`:rocket: release v2.3.0 published in acme/app`). Order in main.ts: signature (401) -> duplicate (200) -> event filter (204) -> Slack.")

# ============================================================================================ turn 6
s.user("How much is covered by tests now? My leader ask me.")
s.bash("deno test --coverage=cov >/dev/null && deno coverage cov", """| File           | Branch % | Line % |
| -------------- | -------- | ------ |
| src/dedupe.ts  |    100.0 |  100.0 |
| src/relay.ts   |     66.7 |   81.8 |
| src/verify.ts  |    100.0 |  100.0 |
| All files      |     83.3 |   92.3 |
""")
s.assistant("Coverage: 92.3% of lines and 83.3% of branches over src/ (dedupe.ts and verify.ts 100%, relay.ts 81.8% lines: the push and pull_request texts are not tested). main.ts is not in the report because no test imports it; its handler runs only in `deno task dev`.")

# ============================================================================================ turn 7
s.user("OK thank you. It is enough for him.")

# ============================================================================================ turn 8
s.user(
    "One more problem from yesterday: Slack answered 429 (rate limit) when 20 push came together, and messages were lost. Could you retry when Slack return 429? Slack send Retry-After header in seconds. "
    "(But please don't wait more than 5 seconds total, Deno Deploy and GitHub both have timeout, GitHub wait only 10 seconds for our answer.)"
)
s.write("src/slack.ts", """// Posts to Slack, retrying on 429 with Retry-After, never waiting more than MAX_WAIT_MS in total.
const MAX_WAIT_MS = 5000;
const MAX_ATTEMPTS = 3;

export async function postToSlack(url: string, msg: unknown, sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))): Promise<boolean> {
  let waited = 0;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(msg) });
    if (res.status !== 429) return res.ok;
    const wait = Number(res.headers.get("retry-after") ?? "1") * 1000;
    if (waited + wait > MAX_WAIT_MS) return false;
    await sleep(wait);
    waited += wait;
  }
  return false;
}
""")
s.edit(MAIN, """  await fetch(SLACK_URL, { method: "POST", body: JSON.stringify(msg) });
  return new Response("ok");""", """  const sent = await postToSlack(SLACK_URL, msg);
  return sent ? new Response("ok") : new Response("slack unavailable", { status: 502 });""")
s.edit(MAIN, 'import { firstDelivery } from "./src/dedupe.ts";\n', 'import { firstDelivery } from "./src/dedupe.ts";\nimport { postToSlack } from "./src/slack.ts";\n')
s.bash("deno add jsr:@std/testing", "Add jsr:@std/testing@1.0.6\n")
s.write("src/slack_test.ts", """import { assertEquals } from "@std/assert";
import { stub } from "@std/testing/mock";
import { postToSlack } from "./slack.ts";

function responses(...rs: Response[]) {
  let i = 0;
  return stub(globalThis, "fetch", () => Promise.resolve(rs[i++]));
}

Deno.test("retries after a 429 and succeeds", async () => {
  const waits: number[] = [];
  using _f = responses(new Response(null, { status: 429, headers: { "retry-after": "2" } }), new Response("ok"));
  assertEquals(await postToSlack("https://hooks.slack.com/x", {}, (ms) => { waits.push(ms); return Promise.resolve(); }), true);
  assertEquals(waits, [2000]);
});

Deno.test("gives up when the total wait would pass 5 s", async () => {
  const waits: number[] = [];
  using _f = responses(new Response(null, { status: 429, headers: { "retry-after": "3" } }), new Response(null, { status: 429, headers: { "retry-after": "3" } }));
  assertEquals(await postToSlack("https://hooks.slack.com/x", {}, (ms) => { waits.push(ms); return Promise.resolve(); }), false);
  assertEquals(waits, [3000]);
});
""")
s.bash("deno test src/slack_test.ts", test_out(
    "running 2 tests from ./src/slack_test.ts\nretries after a 429 and succeeds ... FAILED (3ms)\ngives up when the total wait would pass 5 s ... ok (1ms)\n",
    "FAILED | 1 passed | 1 failed (19ms)\n\nerror: Test failed",
    "retries after a 429 and succeeds => ./src/slack_test.ts:10:6\nerror: Leaks detected:\n  - A response body was created during the test, but not consumed during the test. Consume or close the response body `ReadableStream`, e.g `await resp.text()` or `await resp.body.cancel()`.\n\n FAILURES \n\nretries after a 429 and succeeds => ./src/slack_test.ts:10:6\n"), code=1)
s.assistant("Another leak, and a real one this time: `postToSlack` never reads the success response body (`new Response(\"ok\")`), and on Deploy unconsumed bodies keep connections busy. I'll cancel the body of every response it doesn't read.")
s.edit("src/slack.ts", "    if (res.status !== 429) return res.ok;\n", "    await res.body?.cancel();\n    if (res.status !== 429) return res.ok;\n")
s.bash("deno test src/slack_test.ts", "running 2 tests from ./src/slack_test.ts\nretries after a 429 and succeeds ... ok (2ms)\ngives up when the total wait would pass 5 s ... ok (1ms)\n\nok | 2 passed | 0 failed (17ms)\n")
s.bash("deno check main.ts && deno lint && deno test 2>&1 | tail -1", "Check file:///home/aiko/dev/hookrelay/main.ts\nChecked 10 files\nok | 9 passed | 0 failed (58ms)\n")
s.assistant(
    "Slack 429 is retried now (src/slack.ts): up to 3 attempts, waiting `Retry-After` seconds, but never more than 5 s in total; if the next wait would pass 5 s it gives up and hookrelay answers 502, so GitHub (10 s timeout) marks the delivery failed and it can be redelivered from the GitHub UI. "
    "Every response body is cancelled (the leak check caught one). @std/testing 1.0.6 added for `stub` (jsr:@std, test only). 9 tests pass, lint and check clean."
)
s.user("Hmm, if we answer 502, GitHub redeliver with same X-GitHub-Delivery id? Then our dedupe will ignore it!")
s.bash("grep -n 'firstDelivery\\|postToSlack' main.ts", "4:import { firstDelivery } from \"./src/dedupe.ts\";\n5:import { postToSlack } from \"./src/slack.ts\";\n25:  if (delivery && !(await firstDelivery(kv, delivery))) return new Response(\"duplicate\", { status: 200 });\n34:  const sent = await postToSlack(SLACK_URL, msg);\n")
s.assistant("You are right, and redeliveries keep the same X-GitHub-Delivery id, so a manual redelivery after a 502 would be swallowed as a duplicate. I'll forget the id when Slack fails: `forgetDelivery(kv, id)` deletes the key before answering 502.")
s.edit(DD, "/** true when the id was not seen before (and is now remembered) */", "export async function forgetDelivery(kv: Deno.Kv, id: string): Promise<void> {\n  await kv.delete([\"delivery\", id]);\n}\n\n/** true when the id was not seen before (and is now remembered) */")
s.edit(MAIN, """  return sent ? new Response("ok") : new Response("slack unavailable", { status: 502 });""", """  if (sent) return new Response("ok");
  if (delivery) await forgetDelivery(kv, delivery); // a redelivery must not count as duplicate
  return new Response("slack unavailable", { status: 502 });""")
s.edit(MAIN, 'import { firstDelivery } from "./src/dedupe.ts";\n', 'import { firstDelivery, forgetDelivery } from "./src/dedupe.ts";\n')
s.edit(DT, "  } finally {\n    kv.close();\n  }\n});\n", "  } finally {\n    kv.close();\n  }\n});\n\nDeno.test(\"a forgotten delivery counts as new again\", async () => {\n  const kv = await Deno.openKv(\":memory:\");\n  try {\n    assertEquals(await firstDelivery(kv, \"a\"), true);\n    await forgetDelivery(kv, \"a\");\n    assertEquals(await firstDelivery(kv, \"a\"), true);\n  } finally {\n    kv.close();\n  }\n});\n")
s.edit(DT, 'import { firstDelivery } from "./dedupe.ts";', 'import { firstDelivery, forgetDelivery } from "./dedupe.ts";')
s.bash("deno check main.ts && deno lint && deno test 2>&1 | tail -1", "Check file:///home/aiko/dev/hookrelay/main.ts\nChecked 10 files\nok | 10 passed | 0 failed (61ms)\n")
s.assistant("When Slack fails, the delivery id is deleted from KV before the 502, so GitHub's redelivery (same id) is relayed. 10 tests pass.")

# ============================================================================================ turn 9
s.user("Perfect. Please commit. I will deploy by myself with deployctl tomorrow morning, please don't deploy. And next week maybe we add Discord forwarding also, but not now.")
s.bash("git add -A && git commit -qm 'signature check, delivery dedupe (KV), event filter, Slack 429 retry' && git log --oneline -1 && git status --short", "e93b40d signature check, delivery dedupe (KV), event filter, Slack 429 retry\n")
s.bash("grep -n 'GITHUB_WEBHOOK_SECRET' README.md || echo 'not in README'", "not in README\n")
s.assistant(
    "Committed e93b40d, nothing deployed.\n\n"
    "Before you deploy with deployctl: hookrelay-prod needs the environment variable GITHUB_WEBHOOK_SECRET set in the Deploy project (same value as in the GitHub webhook settings), otherwise `requireEnv` stops it at startup. It is not in the README yet.\n\n"
    "Not started: Discord forwarding (next week)."
)
s.user("Ah good point, I will set the secret first. Thank you very much for today!")

s.save(HERE / "session.jsonl")
