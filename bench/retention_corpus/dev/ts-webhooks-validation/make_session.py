# ruff: noqa: E501
"""Writes session.jsonl: a Claude Code session (Read/Write/Edit/MultiEdit/Bash/Task/Grep/TodoWrite)
adding runtime validation to a TypeScript webhook SDK. Synthetic, written by hand for the retention
corpus (held-out test split). Run: python make_session.py (deterministic)."""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import files as F  # noqa: E402
from claude_writer import ClaudeSession  # noqa: E402

ROOT = "/Users/priya/code/webhooks"
s = ClaudeSession(cwd=ROOT, start="2025-09-23T13:05:41", seed=2309, branch="feat/validate-events")
fs: dict[str, str] = {
    "package.json": F.PACKAGE_JSON,
    "tsconfig.json": F.TSCONFIG,
    "src/types.ts": F.TYPES_TS,
    "src/parse.ts": F.PARSE_TS,
    "src/index.ts": F.INDEX_TS,
    "src/guards.ts": F.GUARDS_TS,
    "test/fixtures.test.ts": F.FIXTURES_TEST,
    "test/parse.test.ts": F.PARSE_TEST,
    "src/signature.ts": F.SIGNATURE_TS,
    "examples/express-handler.ts": F.EXPRESS_EXAMPLE,
    "jest.config.ts": F.JEST_CONFIG,
}


def numbered(text: str, start: int = 1) -> str:
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    return "\n".join(f"{i:>6}\t{ln}" for i, ln in enumerate(lines, start))


def read(path: str, text: str | None = None, thinking: str | None = None) -> None:
    (cid,) = s.assistant(text, [("Read", {"file_path": f"{ROOT}/{path}"})], thinking)
    content = fs[path]
    n = content.count("\n")
    s.result(cid, numbered(content), {"type": "text", "file": {"filePath": f"{ROOT}/{path}", "content": content, "numLines": n, "startLine": 1, "totalLines": n}})


def write(path: str, content: str, text: str | None = None, thinking: str | None = None) -> None:
    fs[path] = content
    (cid,) = s.assistant(text, [("Write", {"file_path": f"{ROOT}/{path}", "content": content})], thinking)
    s.result(cid, f"File created successfully at: {ROOT}/{path}", {"type": "create", "filePath": f"{ROOT}/{path}", "content": content, "structuredPatch": []})


def _snippet(path: str, new: str) -> str:
    text = fs[path]
    at = text.index(new)
    first = text[:at].count("\n")
    last = first + new.count("\n")
    lines = text.split("\n")
    lo, hi = max(0, first - 4), min(len(lines), last + 5)
    return numbered("\n".join(lines[lo:hi]), lo + 1)


def edit(path: str, old: str, new: str, text: str | None = None, thinking: str | None = None) -> None:
    assert fs[path].count(old) == 1, (path, old[:60])
    fs[path] = fs[path].replace(old, new)
    (cid,) = s.assistant(text, [("Edit", {"file_path": f"{ROOT}/{path}", "old_string": old, "new_string": new})], thinking)
    s.result(
        cid,
        f"The file {ROOT}/{path} has been updated. Here's the result of running `cat -n` on a snippet of the edited file:\n" + _snippet(path, new),
        {"filePath": f"{ROOT}/{path}", "oldString": old, "newString": new, "originalFile": None, "structuredPatch": [], "userModified": False, "replaceAll": False},
    )


def multi_edit(path: str, edits: list[tuple[str, str]], text: str | None = None) -> None:
    for old, new in edits:
        assert fs[path].count(old) == 1, (path, old[:60])
        fs[path] = fs[path].replace(old, new)
    args = {"file_path": f"{ROOT}/{path}", "edits": [{"old_string": o, "new_string": n} for o, n in edits]}
    (cid,) = s.assistant(text, [("MultiEdit", args)])
    lines = [f"Applied {len(edits)} edits to {ROOT}/{path}:"]
    for i, (o, n) in enumerate(edits, 1):
        lines.append(f'{i}. Replaced "{o[:60]}{"..." if len(o) > 60 else ""}" with "{n[:60]}{"..." if len(n) > 60 else ""}"')
    s.result(cid, "\n".join(lines), {"filePath": f"{ROOT}/{path}", "edits": args["edits"], "originalFileContents": None, "structuredPatch": [], "userModified": False})


def bash(command: str, description: str, output: str, code: int = 0, text: str | None = None, thinking: str | None = None) -> None:
    (cid,) = s.assistant(text, [("Bash", {"command": command, "description": description})], thinking)
    shown = output.rstrip("\n")
    s.result(cid, shown, {"stdout": output if code == 0 else "", "stderr": "" if code == 0 else output, "interrupted": False, "isImage": False}, is_error=code != 0)


def todo(items: list[tuple[str, str]], text: str | None = None) -> None:
    todos = [{"content": c, "status": st, "activeForm": c[0].upper() + c[1:]} for c, st in items]
    (cid,) = s.assistant(text, [("TodoWrite", {"todos": todos})])
    s.result(cid, "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable", {"oldTodos": [], "newTodos": todos})


def jest_out(suites: list[tuple[str, bool]], tests_passed: int, failed: int = 0, failures: str = "", extra: str = "") -> str:
    out = []
    for name, ok in suites:
        out.append(f" {'PASS' if ok else 'FAIL'}  {name}")
    if failures:
        out.append(failures)
    nfail = sum(1 for _, ok in suites if not ok)
    total = tests_passed + failed
    out.append("")
    out.append(f"Test Suites: {f'{nfail} failed, ' if nfail else ''}{len(suites) - nfail} passed, {len(suites)} total")
    out.append(f"Tests:       {f'{failed} failed, ' if failed else ''}{tests_passed} passed, {total} total")
    out.append("Snapshots:   0 total")
    out.append(f"Time:        {1.6 + total * 0.021:.3f} s")
    out.append("Ran all test suites.")
    if extra:
        out.append(extra)
    return "\n".join(out) + "\n"


# =============================================================================================
# Turn 1
s.user(
    "Can you add runtime validation to parseEvent in src/parse.ts? Right now it just casts whatever JSON.parse returns to "
    "WebhookEvent, and last week a malformed payout event crashed a customer's handler (INC-2291). Could we use zod for this? "
    "And can we avoid touching the public types in src/types.ts? Customers import them directly."
)
read("src/parse.ts", "Let me look at the current parser and the public types first.")
read("src/types.ts")
read("src/index.ts")
(tid,) = s.assistant(
    "Before designing the validation I'll have an agent survey the rest of the package (exports, fixtures, compiler options, tests), since those decide what a validator must accept.",
    [("Task", {"description": "Survey package for validation", "prompt": "In /Users/priya/code/webhooks, survey what adding runtime validation to parseEvent (src/parse.ts) would touch: the public exports in src/index.ts, every event type in src/types.ts (note nullable or optional fields), the JSON fixtures under test/fixtures/events (which types have fixtures, anything unusual in them), tsconfig.json options that affect object shapes, package.json (dependencies, size limits, engines), the jest config and existing tests, and any other callers of parseEvent or isWebhookEvent. Report findings as a numbered list, with file paths; do not change anything.", "subagent_type": "Explore"})],
)
s.result(
    tid,
    F.SUBAGENT_REPORT,
    {"status": "completed", "prompt": "In /Users/priya/code/webhooks, survey what adding runtime validation to parseEvent ...", "agentId": "a41f0c9e", "content": [{"type": "text", "text": F.SUBAGENT_REPORT}], "totalDurationMs": 48211, "totalTokens": 31877, "totalToolUseCount": 17, "usage": {"input_tokens": 9, "cache_creation_input_tokens": 2210, "cache_read_input_tokens": 29011, "output_tokens": 647, "service_tier": "standard"}},
)
read("package.json", "Checking the two files the report says constrain us most:", thinking="The survey says: no runtime deps, size-limit 5 kB on dist/index.mjs, exactOptionalPropertyTypes on, null objects in two fixtures, no payout.failed fixture. zod would be ~13 kB gz which is over the 5 kB limit by itself. I should verify package.json and tsconfig quickly and then present the plan with this caveat, since the user explicitly suggested zod.")
read("tsconfig.json")
s.assistant(
    "Here is what I found and what I'd propose.\n\n"
    "**Findings that shape the design** (from the survey):\n"
    "- `src/types.ts` has 7 event types in one union discriminated on `type`; `invoice.voided` and `customer.deleted` allow `data.object: null`, and two fixtures really do send `null`.\n"
    "- `exactOptionalPropertyTypes` is on, so optional fields like `memo` must be *absent*, never `undefined`.\n"
    "- The package has no runtime dependencies today, and size-limit caps `dist/index.mjs` at 5 kB.\n"
    "- There is no fixture for `payout.failed`.\n\n"
    "**Proposal with zod** (as you suggested):\n"
    "1. `src/schema.ts` with one `z.discriminatedUnion(\"type\", [...])` schema; `types.ts` stays untouched and remains the source of truth, with a compile-time check that the schema's output type equals `WebhookEvent`.\n"
    "2. `parseEvent` runs `EventSchema.safeParse(json)` and throws a `WebhookValidationError` listing the issues.\n"
    "3. Nullable objects for the two deletion events, `.optional()` fields handled to respect `exactOptionalPropertyTypes`.\n\n"
    "One caveat: zod 3 is roughly 13 kB minified+gzipped, which alone is over the 5 kB size limit. Shall I go ahead anyway?"
)

# =============================================================================================
# Turn 2
s.user(
    "Hmm, actually no, let's not use zod. Can we keep it dependency free? The SDK is bundled into customers' browser apps and "
    "I don't want to blow the size limit for this. Is hand-written validation for seven event types realistic?"
)
todo(
    [("write validation primitives (src/validate/primitives.ts)", "in_progress"), ("write one validator per event type", "pending"), ("call the validator from parseEvent", "pending"), ("typecheck and run jest", "pending")],
    text="Yes, it's realistic: seven small object shapes. I'll write a few primitives that carry the JSON path for error messages, then one validator per event type.",
)
PRIMS = '''/** Small runtime checks that remember where in the payload they are (`path`). */

export class ValidationError extends Error {
  override name = "ValidationError";

  constructor(
    readonly path: string,
    readonly expected: string,
    readonly received: unknown,
  ) {
    super(`${path}: expected ${expected}, got ${describe(received)}`);
  }
}

export type Obj = Record<string, unknown>;

export function describe(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

export function expectObject(v: unknown, path: string): Obj {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    throw new ValidationError(path, "object", v);
  }
  return v as Obj;
}

export function expectString(v: unknown, path: string): string {
  if (typeof v !== "string") throw new ValidationError(path, "string", v);
  return v;
}

export function expectInteger(v: unknown, path: string): number {
  if (typeof v !== "number" || !Number.isInteger(v)) throw new ValidationError(path, "integer", v);
  return v;
}

export function expectBoolean(v: unknown, path: string): boolean {
  if (typeof v !== "boolean") throw new ValidationError(path, "boolean", v);
  return v;
}

export function expectOneOf<T extends string>(v: unknown, path: string, values: readonly T[]): T {
  if (typeof v !== "string" || !(values as readonly string[]).includes(v)) {
    throw new ValidationError(path, values.map((x) => JSON.stringify(x)).join(" | "), v);
  }
  return v as T;
}

export function optionalString(v: unknown, path: string): string | undefined {
  return v === undefined ? undefined : expectString(v, path);
}
'''
write("src/validate/primitives.ts", PRIMS, thinking="Dependency free now (user reversed the zod idea: SDK bundled into browser apps, size limit). Hand-written validation: primitives that throw ValidationError(path, expected, received) so the path is there from the start, then per-object validators, then validateEvent switching on type. Must keep src/types.ts untouched and the return types must be the public interfaces. Watch out: exactOptionalPropertyTypes, null objects for invoice.voided / customer.deleted.")
EVENTS_BAD = '''import type {
  Customer,
  Invoice,
  Payout,
  Subscription,
  WebhookEvent,
} from "../types";
import {
  expectBoolean,
  expectInteger,
  expectObject,
  expectOneOf,
  expectString,
  optionalString,
  ValidationError,
  type Obj,
} from "./primitives";

export function validateInvoice(o: Obj, path: string): Invoice {
  return {
    id: expectString(o.id, `${path}.id`),
    customer: expectString(o.customer, `${path}.customer`),
    amount_due: expectInteger(o.amount_due, `${path}.amount_due`),
    amount_paid: expectInteger(o.amount_paid, `${path}.amount_paid`),
    currency: expectString(o.currency, `${path}.currency`),
    status: expectOneOf(o.status, `${path}.status`, ["draft", "open", "paid", "void"] as const),
    memo: optionalString(o.memo, `${path}.memo`),
  };
}

export function validateCustomer(o: Obj, path: string): Customer {
  return {
    id: expectString(o.id, `${path}.id`),
    email: expectString(o.email, `${path}.email`),
    name: optionalString(o.name, `${path}.name`),
    created: expectInteger(o.created, `${path}.created`),
  };
}

export function validateSubscription(o: Obj, path: string): Subscription {
  return {
    id: expectString(o.id, `${path}.id`),
    customer: expectString(o.customer, `${path}.customer`),
    plan: expectString(o.plan, `${path}.plan`),
    status: expectOneOf(o.status, `${path}.status`, ["trialing", "active", "past_due", "canceled"] as const),
    current_period_end: expectInteger(o.current_period_end, `${path}.current_period_end`),
  };
}

export function validatePayout(o: Obj, path: string): Payout {
  return {
    id: expectString(o.id, `${path}.id`),
    amount: expectInteger(o.amount, `${path}.amount`),
    currency: expectString(o.currency, `${path}.currency`),
    arrival_date: expectInteger(o.arrival_date, `${path}.arrival_date`),
    failure_code: optionalString(o.failure_code, `${path}.failure_code`),
  };
}

const TYPES = [
  "invoice.paid",
  "invoice.voided",
  "customer.created",
  "customer.deleted",
  "subscription.updated",
  "payout.paid",
  "payout.failed",
] as const;

export function validateEvent(value: unknown): WebhookEvent {
  const e = expectObject(value, "(root)");
  const type = expectOneOf(e.type, "type", TYPES);
  const head = {
    id: expectString(e.id, "id"),
    created: expectInteger(e.created, "created"),
    livemode: expectBoolean(e.livemode, "livemode"),
  };
  const data = expectObject(e.data, "data");
  switch (type) {
    case "invoice.paid":
      return { ...head, type, data: { object: validateInvoice(data.object, "data.object") } };
    case "invoice.voided":
      return { ...head, type, data: { object: validateInvoice(expectObject(data.object, "data.object"), "data.object") } };
    case "customer.created":
      return { ...head, type, data: { object: validateCustomer(expectObject(data.object, "data.object"), "data.object") } };
    case "customer.deleted":
      return { ...head, type, data: { object: validateCustomer(expectObject(data.object, "data.object"), "data.object") } };
    case "subscription.updated":
      return { ...head, type, data: { object: validateSubscription(expectObject(data.object, "data.object"), "data.object") } };
    case "payout.paid":
    case "payout.failed":
      return { ...head, type, data: { object: validatePayout(expectObject(data.object, "data.object"), "data.object") } };
    default:
      throw new ValidationError("type", "a known event type", type);
  }
}
'''
write("src/validate/events.ts", EVENTS_BAD, text="Now one validator per object type plus the event dispatcher:")
edit(
    "src/parse.ts",
    '''  // TODO(validation): this is a cast, not a check. See INC-2291.
  return json as WebhookEvent;''',
    '''  return validateEvent(json);''',
)
edit("src/parse.ts", 'import type { WebhookEvent } from "./types";\n', 'import type { WebhookEvent } from "./types";\nimport { validateEvent } from "./validate/events";\n')
bash(
    "npx tsc --noEmit",
    "Type-check the package",
    "src/validate/events.ts(20,3): error TS2375: Type '{ id: string; customer: string; amount_due: number; amount_paid: number; currency: string; status: \"draft\" | \"open\" | \"paid\" | \"void\"; memo: string | undefined; }' is not assignable to type 'Invoice' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.\n"
    "  Types of property 'memo' are incompatible.\n"
    "    Type 'string | undefined' is not assignable to type 'string'.\n"
    "      Type 'undefined' is not assignable to type 'string'.\n"
    "src/validate/events.ts(32,3): error TS2375: Type '{ id: string; email: string; name: string | undefined; created: number; }' is not assignable to type 'Customer' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.\n"
    "  Types of property 'name' are incompatible.\n"
    "    Type 'string | undefined' is not assignable to type 'string'.\n"
    "      Type 'undefined' is not assignable to type 'string'.\n"
    "src/validate/events.ts(84,69): error TS2345: Argument of type 'unknown' is not assignable to parameter of type 'Obj'.\n"
    "src/validate/events.ts(52,3): error TS2375: Type '{ id: string; amount: number; currency: string; arrival_date: number; failure_code: string | undefined; }' is not assignable to type 'Payout' with 'exactOptionalPropertyTypes: true'. Consider adding 'undefined' to the types of the target's properties.\n"
    "  Types of property 'failure_code' are incompatible.\n"
    "    Type 'string | undefined' is not assignable to type 'string'.\n"
    "src/validate/events.ts(86,7): error TS2322: Type '{ type: \"invoice.voided\"; data: { object: Invoice; }; id: string; created: number; livemode: boolean; }' is not assignable to type 'WebhookEvent'.\n\n"
    "Found 5 errors in the same file, starting at: src/validate/events.ts:20\n",
    code=2,
)
s.assistant(
    "tsc reports five errors in `src/validate/events.ts`:\n\n"
    "- Three `TS2375` errors: the returned objects contain `memo`, `name` and `failure_code` as `string | undefined`, which `exactOptionalPropertyTypes` forbids (an optional property must be absent, not `undefined`).\n"
    "- `TS2345` at line 84: in the `invoice.paid` branch I passed `data.object` (typed `unknown`) straight to `validateInvoice`, which wants an `Obj`; I forgot the `expectObject` call there.\n"
    "- `TS2322` at line 86: a knock-on error from the `invoice.voided` branch.\n\n"
    "I can fix the first group by only adding the property when it is present. Alternatively we could relax `exactOptionalPropertyTypes`, but I'd rather not."
)

# =============================================================================================
# Turn 3
s.user(
    "Why does tsc complain about memo there, isn't it optional? And can we fix it without turning off exactOptionalPropertyTypes? "
    "The agent's report said it's on for a reason, customers do `\"memo\" in invoice`."
)
multi_edit(
    "src/validate/events.ts",
    [
        ("    memo: optionalString(o.memo, `${path}.memo`),\n  };\n}", "    ...present(\"memo\", optionalString(o.memo, `${path}.memo`)),\n  };\n}"),
        ("    name: optionalString(o.name, `${path}.name`),", "    ...present(\"name\", optionalString(o.name, `${path}.name`)),"),
        ("    failure_code: optionalString(o.failure_code, `${path}.failure_code`),", "    ...present(\"failure_code\", optionalString(o.failure_code, `${path}.failure_code`)),"),
        ('      return { ...head, type, data: { object: validateInvoice(data.object, "data.object") } };', '      return { ...head, type, data: { object: validateInvoice(expectObject(data.object, "data.object"), "data.object") } };'),
    ],
    text="It is optional, but with `exactOptionalPropertyTypes` \"optional\" means *may be absent*; `{ memo: undefined }` is a present property holding `undefined`, which the type does not allow. That is exactly what protects `\"memo\" in invoice`. So the fix belongs in the validator: spread the property in only when it has a value. No compiler option changes.",
)
edit(
    "src/validate/primitives.ts",
    "export function optionalString(v: unknown, path: string): string | undefined {\n  return v === undefined ? undefined : expectString(v, path);\n}\n",
    "export function optionalString(v: unknown, path: string): string | undefined {\n  return v === undefined ? undefined : expectString(v, path);\n}\n\n"
    "/**\n * `{ [key]: value }` when `value` is defined, `{}` otherwise: optional properties stay absent\n * (exactOptionalPropertyTypes; customers test them with `in`).\n */\n"
    "export function present<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {\n"
    "  return value === undefined ? {} : ({ [key]: value } as { [P in K]?: V });\n}\n",
)
edit("src/validate/events.ts", "  optionalString,\n  ValidationError,", "  optionalString,\n  present,\n  ValidationError,")
bash("npx tsc --noEmit && echo 'tsc: no errors'", "Type-check again", "tsc: no errors\n")
bash(
    "npx jest 2>&1 | tail -n 60",
    "Run the test suite",
    jest_out(
        [("test/signature.test.ts", True), ("test/parse.test.ts", True), ("test/fixtures.test.ts", False)],
        28,
        2,
        failures="""  ● fixtures › parses invoice.voided.json

    ValidationError: data.object: expected object, got null

      19 | export function expectObject(v: unknown, path: string): Obj {
      20 |   if (typeof v !== "object" || v === null || Array.isArray(v)) {
    > 21 |     throw new ValidationError(path, "object", v);
         |           ^
      22 |   }
      23 |   return v as Obj;
      24 | }

      at expectObject (src/validate/primitives.ts:21:11)
      at validateEvent (src/validate/events.ts:86:75)
      at parseEvent (src/parse.ts:38:24)
      at Object.<anonymous> (test/fixtures.test.ts:15:29)

  ● fixtures › parses customer.deleted.json

    ValidationError: data.object: expected object, got null

      19 | export function expectObject(v: unknown, path: string): Obj {
      20 |   if (typeof v !== "object" || v === null || Array.isArray(v)) {
    > 21 |     throw new ValidationError(path, "object", v);
         |           ^
      22 |   }
      23 |   return v as Obj;
      24 | }

      at expectObject (src/validate/primitives.ts:21:11)
      at validateEvent (src/validate/events.ts:90:76)
      at parseEvent (src/parse.ts:38:24)
      at Object.<anonymous> (test/fixtures.test.ts:15:29)
""",
    ),
    code=1,
    text="Type-check is clean. Now the tests:",
)
bash(
    "cat test/fixtures/events/invoice.voided.json",
    "Show the failing fixture",
    '{\n  "id": "evt_1PpA0c2eZvKYlo2C9xTg4bNm",\n  "type": "invoice.voided",\n  "created": 1726480211,\n  "livemode": false,\n  "data": {\n    "object": null\n  }\n}\n',
    thinking="Two fixture failures: invoice.voided.json and customer.deleted.json, both 'data.object: expected object, got null'. That's item 3 of the survey. types.ts says Invoice | null and Customer | null for those two. So the validator is wrong, not the fixtures.",
)
edit(
    "src/validate/events.ts",
    '''    case "invoice.voided":
      return { ...head, type, data: { object: validateInvoice(expectObject(data.object, "data.object"), "data.object") } };''',
    '''    case "invoice.voided":
      // object is null when the invoice was deleted before delivery (types.ts)
      return { ...head, type, data: { object: data.object === null ? null : validateInvoice(expectObject(data.object, "data.object"), "data.object") } };''',
    text="These are the two fixtures the survey flagged: `invoice.voided` and `customer.deleted` legitimately carry `\"object\": null`, and `types.ts` declares `Invoice | null` / `Customer | null` for them. The validator has to accept `null` there:",
)
edit(
    "src/validate/events.ts",
    '''    case "customer.deleted":
      return { ...head, type, data: { object: validateCustomer(expectObject(data.object, "data.object"), "data.object") } };''',
    '''    case "customer.deleted":
      // deleted customers are never sent: object is null (types.ts)
      return { ...head, type, data: { object: data.object === null ? null : validateCustomer(expectObject(data.object, "data.object"), "data.object") } };''',
)
bash(
    "npx jest 2>&1 | tail -n 8",
    "Re-run the test suite",
    jest_out([("test/signature.test.ts", True), ("test/parse.test.ts", True), ("test/fixtures.test.ts", True)], 30),
)
bash(
    "wc -l src/validate/*.ts",
    "Count lines of the hand-written validators",
    "      71 src/validate/primitives.ts\n     118 src/validate/events.ts\n     189 total\n",
)
s.assistant(
    "All 30 tests pass and tsc is clean, still with zero runtime dependencies:\n\n"
    "- `src/validate/primitives.ts`: `ValidationError(path, expected, received)`, `expectObject/String/Integer/Boolean/OneOf`, `optionalString`, and `present()` which keeps optional properties absent.\n"
    "- `src/validate/events.ts`: a validator per object type and `validateEvent`, which accepts `null` objects for `invoice.voided` and `customer.deleted`.\n"
    "- `src/parse.ts`: `parseEvent` returns `validateEvent(json)` instead of the cast. `src/types.ts` is untouched.\n\n"
    "That is 189 lines, and the tests so far only exercise the happy paths (fixtures). Each new event type will need another hand-written validator."
)

# =============================================================================================
# Turn 4
s.user(
    "Hmm, 189 lines already and we haven't even tested the error paths. Every new event type means another hand-written validator "
    "too. Would a tiny dependency be acceptable after all? If it's valibot, pinned to an exact version, and it stays under our 5 kB "
    "limit, I can live with that. Can you measure the size before and after so we know what it costs?"
)
bash(
    "npm run build --silent && npx size-limit",
    "Measure bundle size with hand-written validators",
    "CLI Building entry: src/index.ts\nCLI Using tsconfig: tsconfig.json\nCLI tsup v8.3.5\nCLI Target: es2020\nESM Build start\nCJS Build start\n"
    "ESM dist/index.mjs 6.02 KB\nESM \u26a1\ufe0f Build success in 28ms\nCJS dist/index.cjs 6.71 KB\nCJS \u26a1\ufe0f Build success in 30ms\n"
    "DTS Build start\nDTS \u26a1\ufe0f Build success in 774ms\nDTS dist/index.d.ts 4.96 KB\n\n"
    "  dist/index.mjs\n  Size limit: 5 kB\n  Size:       1.96 kB with all dependencies, minified and brotlied\n\n",
    text="First the baseline with the hand-written validators:",
)
bash(
    "npm install --save-exact valibot@1.1.0",
    "Add valibot pinned to an exact version",
    "\nadded 1 package, and audited 412 packages in 2s\n\n61 packages are looking for funding\n  run `npm fund` for details\n\nfound 0 vulnerabilities\n",
)
SCHEMA_TS = '''import * as v from "valibot";
import type { WebhookEvent } from "./types";

/**
 * Runtime schemas for the public event types. `src/types.ts` stays the source of truth: the
 * check at the bottom fails to compile if a schema and its type drift apart.
 * Optional properties use `exactOptional` (absent, never undefined: exactOptionalPropertyTypes).
 */

const unixSeconds = v.pipe(v.number(), v.integer(), v.minValue(0));
const minorUnits = v.pipe(v.number(), v.integer());

const Invoice = v.object({
  id: v.string(),
  customer: v.string(),
  amount_due: minorUnits,
  amount_paid: minorUnits,
  currency: v.string(),
  status: v.picklist(["draft", "open", "paid", "void"]),
  memo: v.exactOptional(v.string()),
});

const Customer = v.object({
  id: v.string(),
  email: v.string(),
  name: v.exactOptional(v.string()),
  created: unixSeconds,
});

const Subscription = v.object({
  id: v.string(),
  customer: v.string(),
  plan: v.string(),
  status: v.picklist(["trialing", "active", "past_due", "canceled"]),
  current_period_end: unixSeconds,
});

const Payout = v.object({
  id: v.string(),
  amount: minorUnits,
  currency: v.string(),
  arrival_date: unixSeconds,
  failure_code: v.exactOptional(v.string()),
});

const head = { id: v.string(), created: unixSeconds, livemode: v.boolean() };

export const EventSchema = v.variant("type", [
  v.object({ ...head, type: v.literal("invoice.paid"), data: v.object({ object: Invoice }) }),
  // object is null when the invoice was deleted before delivery
  v.object({ ...head, type: v.literal("invoice.voided"), data: v.object({ object: v.nullable(Invoice) }) }),
  v.object({ ...head, type: v.literal("customer.created"), data: v.object({ object: Customer }) }),
  // deleted customers are never sent: object is null
  v.object({ ...head, type: v.literal("customer.deleted"), data: v.object({ object: v.nullable(Customer) }) }),
  v.object({
    ...head,
    type: v.literal("subscription.updated"),
    data: v.object({ object: Subscription, previous_attributes: v.exactOptional(v.partial(Subscription)) }),
  }),
  v.object({ ...head, type: v.literal("payout.paid"), data: v.object({ object: Payout }) }),
  v.object({ ...head, type: v.literal("payout.failed"), data: v.object({ object: Payout }) }),
]);

type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
// Compile-time only: fails if EventSchema's output and WebhookEvent disagree.
const schemaMatchesTypes: Equals<v.InferOutput<typeof EventSchema>, WebhookEvent> = true;
void schemaMatchesTypes;
'''
write("src/schema.ts", SCHEMA_TS, thinking="User accepted valibot: pinned exact version, must stay under the 5 kB size-limit. Baseline measured: 1.96 kB brotli with hand-written validators. Now: v.variant on type with 7 members; exactOptional for memo/name/failure_code/previous_attributes (valibot 1.x has exactOptional, which matches exactOptionalPropertyTypes); nullable Invoice/Customer for the two deletion events. Keep types.ts as the source of truth and add an Equals<InferOutput, WebhookEvent> compile-time check so schema and types cannot drift.", text="Now the same seven shapes as valibot schemas, with a compile-time check that they match `types.ts` (which stays untouched):")
edit(
    "src/parse.ts",
    'import type { WebhookEvent } from "./types";\nimport { validateEvent } from "./validate/events";\n',
    'import * as v from "valibot";\nimport { EventSchema } from "./schema";\nimport type { WebhookEvent } from "./types";\n',
)
edit(
    "src/parse.ts",
    "  return validateEvent(json);",
    "  const result = v.safeParse(EventSchema, json);\n  if (!result.success) {\n    throw new WebhookParseError(`invalid event: ${result.issues[0].message}`);\n  }\n  return result.output;",
)
bash("rm -r src/validate && npx tsc --noEmit && echo 'tsc: no errors'", "Remove hand-written validators and type-check", "tsc: no errors\n")
bash(
    "npx jest 2>&1 | tail -n 8 && npm run build --silent && npx size-limit",
    "Run tests, build and measure size with valibot",
    jest_out([("test/signature.test.ts", True), ("test/parse.test.ts", True), ("test/fixtures.test.ts", True)], 30)
    + "CLI Building entry: src/index.ts\nCLI Using tsconfig: tsconfig.json\nCLI tsup v8.3.5\nCLI Target: es2020\nESM Build start\nCJS Build start\n"
    "ESM dist/index.mjs 3.87 KB\nESM \u26a1\ufe0f Build success in 35ms\nCJS dist/index.cjs 4.55 KB\nCJS \u26a1\ufe0f Build success in 36ms\n"
    "DTS Build start\nDTS \u26a1\ufe0f Build success in 802ms\nDTS dist/index.d.ts 5.31 KB\n\n"
    "  dist/index.mjs\n  Size limit: 5 kB\n  Size:       3.71 kB with all dependencies, minified and brotlied\n\n",
)
s.assistant(
    "Measured with size-limit on `dist/index.mjs` (minified + brotli, dependencies included):\n\n"
    "| variant | size |\n|---|---|\n| hand-written validators | 1.96 kB |\n| valibot 1.1.0 | 3.71 kB |\n\n"
    "So valibot costs about 1.75 kB and we stay under the 5 kB limit. `valibot` is pinned as `\"1.1.0\"` (no caret) in `dependencies`. "
    "`src/validate/` is deleted; the schemas live in `src/schema.ts`, using `v.exactOptional` for optional fields and `v.nullable` for the "
    "two deletion events, and a compile-time check fails the build if they drift from `types.ts`. All 30 tests pass.\n\n"
    "The error message currently only shows the first issue's text, without a path; I'd improve that next."
)

# =============================================================================================
# Turn 5
s.user(
    "Nice. Can the error messages include the JSON path of the bad field? Support wants to see something like "
    "\"data.object.amount_due: expected number\" in the customer's logs, not just \"invalid event\"."
)
ERRORS_TS = '''import * as v from "valibot";

/** One problem with a payload: where it is (dot path, "(root)" for the payload itself) and what is wrong. */
export interface EventIssue {
  path: string;
  message: string;
}

/** Thrown by parseEvent when the body is JSON but not a valid event. */
export class WebhookValidationError extends Error {
  override name = "WebhookValidationError";
  readonly issues: readonly EventIssue[];

  constructor(issues: readonly EventIssue[]) {
    super(`invalid webhook event: ${issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
    this.issues = issues;
  }

  static fromValibot(issues: readonly v.BaseIssue<unknown>[]): WebhookValidationError {
    const flat = issues.flatMap((issue) => (issue.issues && issue.issues.length > 0 ? issue.issues : [issue]));
    return new WebhookValidationError(
      flat.map((issue) => ({
        path: v.getDotPath(issue) ?? "(root)",
        message: `expected ${issue.expected ?? "a valid value"}, received ${issue.received}`,
      })),
    );
  }
}
'''
write("src/errors.ts", ERRORS_TS, thinking="Support wants the JSON path. valibot issues have path arrays; v.getDotPath(issue) gives data.object.amount_due. For variant failures the top issue may wrap nested issues (issue.issues), so flatten one level. Message like 'expected number, received \"4200\"' comes from issue.expected / issue.received. A dedicated WebhookValidationError with issues[] is nicer than WebhookParseError; export it and the EventIssue type.", text="valibot gives each issue a path; `v.getDotPath(issue)` turns it into `data.object.amount_due`. I'll put that in a dedicated error class with the issues attached, so handlers can also read them programmatically.")
edit(
    "src/parse.ts",
    "  if (!result.success) {\n    throw new WebhookParseError(`invalid event: ${result.issues[0].message}`);\n  }",
    "  if (!result.success) {\n    throw WebhookValidationError.fromValibot(result.issues);\n  }",
)
edit("src/parse.ts", 'import { EventSchema } from "./schema";\n', 'import { WebhookValidationError } from "./errors";\nimport { EventSchema } from "./schema";\n')
edit(
    "src/index.ts",
    'export { parseEvent, WebhookParseError } from "./parse";\n',
    'export { parseEvent, WebhookParseError } from "./parse";\nexport { WebhookValidationError } from "./errors";\nexport type { EventIssue } from "./errors";\n',
)
VALIDATION_TEST = '''import { parseEvent, WebhookValidationError } from "../src";

const invoicePaid = {
  id: "evt_1PqRsTuVwXyZ0123456789ab",
  type: "invoice.paid",
  created: 1727085600,
  livemode: false,
  data: {
    object: { id: "in_123", customer: "cus_9", amount_due: 4200, amount_paid: 4200, currency: "eur", status: "paid" },
  },
};

function issuesOf(body: unknown): WebhookValidationError["issues"] {
  try {
    parseEvent(JSON.stringify(body));
  } catch (err) {
    expect(err).toBeInstanceOf(WebhookValidationError);
    return (err as WebhookValidationError).issues;
  }
  throw new Error("expected parseEvent to throw");
}

describe("validation errors", () => {
  it("names the path of a wrong field", () => {
    const bad = { ...invoicePaid, data: { object: { ...invoicePaid.data.object, amount_due: "4200" } } };
    expect(issuesOf(bad)).toEqual([{ path: "data.object.amount_due", message: 'expected number, received "4200"' }]);
  });

  it("puts the path in the message", () => {
    const bad = { ...invoicePaid, livemode: "no" };
    expect(() => parseEvent(JSON.stringify(bad))).toThrow("livemode: expected boolean");
  });

  it("rejects an unknown event type", () => {
    expect(issuesOf({ ...invoicePaid, type: "invoice.exploded" })[0]?.path).toBe("type");
  });

  it("keeps optional fields absent", () => {
    const event = parseEvent(JSON.stringify(invoicePaid));
    expect(event.type === "invoice.paid" && "memo" in event.data.object).toBe(false);
  });
});
'''
read("test/parse.test.ts", "Looking at how the existing parse tests are written so the new ones match:")
write("test/validation.test.ts", VALIDATION_TEST)
bash(
    "npx tsc --noEmit && npx jest 2>&1 | tail -n 9",
    "Type-check and run tests",
    jest_out([("test/signature.test.ts", True), ("test/validation.test.ts", True), ("test/parse.test.ts", True), ("test/fixtures.test.ts", True)], 34),
)
s.assistant(
    "Done. `parseEvent` now throws `WebhookValidationError` (new `src/errors.ts`, exported from the index) whose message reads like "
    "`invalid webhook event: data.object.amount_due: expected number, received \"4200\"` and which carries an `issues` array of "
    "`{ path, message }`. New `test/validation.test.ts` covers the path, the message, an unknown type and the absent optional field; 34 tests pass."
)

# =============================================================================================
# Turn 6
s.user("Do we still export isWebhookEvent? Can we keep it working but mark it @deprecated, pointing people to parseEvent?")
(gid,) = s.assistant(None, [("Grep", {"pattern": "isWebhookEvent", "output_mode": "content", "-n": True})])
s.result(
    gid,
    "src/guards.ts:8:export function isWebhookEvent(v: unknown): v is WebhookEvent {\nsrc/index.ts:7:export { isWebhookEvent } from \"./guards\";\n"
    "examples/express-handler.ts:3:import { isWebhookEvent, verifySignature } from \"@lattice/webhooks\";\nexamples/express-handler.ts:21:  if (!isWebhookEvent(body)) {\n"
    "README.md:88:### Type guards\nREADME.md:90:`isWebhookEvent(value)` narrows an already-parsed object to `WebhookEvent`.",
    {"mode": "content", "numFiles": 4, "filenames": [], "content": "", "numLines": 6},
)
read("examples/express-handler.ts")
edit(
    "src/guards.ts",
    '''/** A shallow check: an object with a string `type` and an object `data`. */
export function isWebhookEvent(v: unknown): v is WebhookEvent {
  return isRecord(v) && typeof v.type === "string" && isRecord(v.data);
}''',
    '''/**
 * True when `v` is a valid webhook event (checked against the same schema as parseEvent).
 *
 * @deprecated Use {@link parseEvent}, which also verifies the signature and says what is wrong.
 * Kept for 2.x; it will be removed in 3.0.
 */
export function isWebhookEvent(v: unknown): v is WebhookEvent {
  return v.is(EventSchema, v);
}''',
    text="Yes: it's exported from the index, used in `examples/express-handler.ts` and documented in the README. I'll keep it exported and working, mark it `@deprecated`, and make it use the real schema instead of the shallow check (so it stops returning `true` for malformed events).",
)
bash(
    "npx tsc --noEmit",
    "Type-check",
    "src/guards.ts(15,12): error TS2339: Property 'is' does not exist on type 'unknown'.\nsrc/guards.ts(15,17): error TS2304: Cannot find name 'EventSchema'.\n\nFound 2 errors in the same file, starting at: src/guards.ts:15\n",
    code=2,
)
edit(
    "src/guards.ts",
    '''import type { WebhookEvent } from "./types";
''',
    '''import * as v from "valibot";
import { EventSchema } from "./schema";
import type { WebhookEvent } from "./types";
''',
    text="The parameter `v` shadows the valibot namespace I meant to import. Importing it and renaming the parameter:",
)
edit(
    "src/guards.ts",
    "export function isWebhookEvent(v: unknown): v is WebhookEvent {\n  return v.is(EventSchema, v);\n}",
    "export function isWebhookEvent(value: unknown): value is WebhookEvent {\n  return v.is(EventSchema, value);\n}",
)
bash("npx tsc --noEmit && npx jest 2>&1 | grep -E '^Tests:'", "Type-check and run tests", "Tests:       34 passed, 34 total\n")
s.assistant(
    "`isWebhookEvent` is still exported and works, now marked `@deprecated` (pointing to `parseEvent`, removal planned for 3.0) and backed by `v.is(EventSchema, value)` rather than the shallow check. "
    "The example in `examples/express-handler.ts` still compiles; editors will show it struck through."
)

# =============================================================================================
# Turn 7
s.user("Can you run the full suite with coverage? CI needs 90% branches, and I don't want the PR to go red on that.")
bash(
    "npx jest --coverage 2>&1 | tail -n 16",
    "Run tests with coverage",
    jest_out([("test/signature.test.ts", True), ("test/validation.test.ts", True), ("test/parse.test.ts", True), ("test/fixtures.test.ts", True)], 34)
    + "----------------|---------|----------|---------|---------|-------------------\n"
    "File            | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s \n"
    "----------------|---------|----------|---------|---------|-------------------\n"
    "All files       |   95.12 |     87.5 |   94.44 |   94.93 |                   \n"
    " errors.ts      |   88.88 |       75 |     100 |   88.23 | 21                \n"
    " guards.ts      |     100 |      100 |     100 |     100 |                   \n"
    " index.ts       |     100 |      100 |     100 |     100 |                   \n"
    " parse.ts       |   94.11 |    83.33 |     100 |   93.75 | 32                \n"
    " schema.ts      |     100 |      100 |     100 |     100 |                   \n"
    " signature.ts   |   96.42 |    91.66 |     100 |   96.29 | 44                \n"
    "----------------|---------|----------|---------|---------|-------------------\n"
    'Jest: "global" coverage threshold for branches (90%) not met: 87.5%\n',
    code=1,
)
read("jest.config.ts")
read("src/signature.ts", thinking="Coverage report: branches 87.5 < 90. Uncovered: errors.ts:21 (nested issues branch), parse.ts:32 (non-JSON body), signature.ts:44. signature.ts is old code; let me look whether line 44 is something I touched. It is the future-timestamp branch, unrelated to this change. Adding tests for the two new branches should be enough.")
s.assistant(
    "Branch coverage is 87.5%, below the 90% threshold (`Jest: \"global\" coverage threshold for branches (90%) not met: 87.5%`). The uncovered branches:\n\n"
    "- `errors.ts:21`: the nested-issues branch of `fromValibot` (a union member failing inside `variant`) is never hit.\n"
    "- `parse.ts:32`: the `WebhookParseError` for a body that is not JSON.\n\n"
    "Both are real error paths worth testing, so I'll add tests rather than lower anything."
)
edit(
    "test/validation.test.ts",
    '''  it("keeps optional fields absent", () => {''',
    '''  it("reports every nested issue of a variant member", () => {
    const bad = { ...invoicePaid, data: { object: { ...invoicePaid.data.object, amount_paid: null, currency: 7 } } };
    expect(issuesOf(bad).map((i) => i.path)).toEqual(["data.object.amount_paid", "data.object.currency"]);
  });

  it("rejects a body that is not JSON", () => {
    expect(() => parseEvent("{not json")).toThrow(/body is not JSON/);
  });

  it("keeps optional fields absent", () => {''',
)
bash(
    "npx jest --coverage 2>&1 | tail -n 12",
    "Re-run coverage",
    "----------------|---------|----------|---------|---------|-------------------\n"
    "File            | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s \n"
    "----------------|---------|----------|---------|---------|-------------------\n"
    "All files       |   99.18 |    95.83 |     100 |   99.15 |                   \n"
    " errors.ts      |     100 |      100 |     100 |     100 |                   \n"
    " guards.ts      |     100 |      100 |     100 |     100 |                   \n"
    " index.ts       |     100 |      100 |     100 |     100 |                   \n"
    " parse.ts       |     100 |      100 |     100 |     100 |                   \n"
    " schema.ts      |     100 |      100 |     100 |     100 |                   \n"
    " signature.ts   |   96.42 |    91.66 |     100 |   96.29 | 44                \n"
    "----------------|---------|----------|---------|---------|-------------------\n",
)
s.assistant("With the two new tests (nested variant issues, non-JSON body) branch coverage is 95.83% (36 tests), comfortably above the 90% CI threshold. The remaining uncovered line is `signature.ts:44`, which predates this change.")

# =============================================================================================
# Turn 8
s.user(
    "What about unknown event types? We add new ones on the server side every few months and old SDK versions would start throwing. "
    "Could parseEvent take { strict: false } and pass unknown types through as some UnknownEvent? Do we need to touch types.ts for that?"
)
s.assistant(
    thinking="Unknown event types: the user asks whether types.ts has to change. If I widen WebhookEvent with a generic { type: string } member, customers' exhaustive switches (never checks) break and narrowing gets worse. Better: a separate UnknownEvent type in its own file, returned only when strict: false, with overloads so default callers keep WebhookEvent. Malformed known types should still throw.",
    text="We don't need to touch `types.ts`. Plan:\n\n"
    "- A new `src/unknown.ts` with `UnknownEvent` (`type: string`, `data: { object: unknown }`, plus the common `id`, `created`, `livemode`), exported from the index.\n"
    "- `ParseOptions.strict?: boolean` (default `true`, today's behaviour). With `strict: false`, an event whose `type` is not one of the seven known ones is checked only for the common envelope and returned as `UnknownEvent`; a *known* type that is malformed still throws.\n"
    "- Overloads, so the return type is `WebhookEvent` unless the caller passes `strict: false`, in which case it is `WebhookEvent | UnknownEvent`. Existing callers keep their types.\n\n"
    "`WebhookEvent` itself stays closed: widening it with a `string` type would break customers' exhaustive `switch` statements."
)
UNKNOWN_TS = '''import * as v from "valibot";

/**
 * An event whose type this SDK version does not know yet (returned by parseEvent only with
 * `strict: false`). Kept apart from WebhookEvent so exhaustive switches over it still work.
 */
export interface UnknownEvent {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: { object: unknown };
  /** Always true: lets handlers tell these apart from known events. */
  unknown: true;
}

export const EnvelopeSchema = v.object({
  id: v.string(),
  type: v.string(),
  created: v.pipe(v.number(), v.integer()),
  livemode: v.boolean(),
  data: v.object({ object: v.unknown() }),
});
'''
read("src/parse.ts")
write("src/unknown.ts", UNKNOWN_TS)
PARSE_NEW_TAIL = '''/**
 * Parse a webhook body into an event. With `secret`, the signature is verified first.
 * With `strict: false`, events of a type this version does not know are returned as
 * {@link UnknownEvent} instead of throwing.
 *
 * @throws {SignatureError} when the signature does not match.
 * @throws {WebhookParseError} when the body is not JSON.
 * @throws {WebhookValidationError} when the body is not a valid event.
 */
export function parseEvent(body: string, options?: ParseOptions & { strict?: true }): WebhookEvent;
export function parseEvent(body: string, options: ParseOptions & { strict: false }): WebhookEvent | UnknownEvent;
export function parseEvent(body: string, options: ParseOptions = {}): WebhookEvent | UnknownEvent {
  if (options.secret !== undefined) {
    if (options.signature === undefined) {
      throw new WebhookParseError("missing Lattice-Signature header");
    }
    verifySignature(body, options.signature, options.secret, options.toleranceSeconds ?? 300);
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    throw new WebhookParseError(`body is not JSON: ${(err as Error).message}`);
  }
  if (options.strict === false) {
    const envelope = v.safeParse(EnvelopeSchema, json);
    if (envelope.success && !KNOWN_TYPES.has(envelope.output.type)) {
      return { ...envelope.output, unknown: true };
    }
  }
  const result = v.safeParse(EventSchema, json);
  if (!result.success) {
    throw WebhookValidationError.fromValibot(result.issues);
  }
  return result.output;
}
'''
old_tail = fs["src/parse.ts"][fs["src/parse.ts"].index("/**\n * Parse a webhook body") :]
edit("src/parse.ts", old_tail, PARSE_NEW_TAIL, text="Rewriting `parseEvent` with the overloads and the non-strict path:")
multi_edit(
    "src/parse.ts",
    [
        ('import { EventSchema } from "./schema";\n', 'import { EventSchema, KNOWN_TYPES } from "./schema";\n'),
        ('import type { WebhookEvent } from "./types";\n', 'import type { WebhookEvent } from "./types";\nimport { EnvelopeSchema, type UnknownEvent } from "./unknown";\n'),
        ("  /** How old a signed timestamp may be, in seconds (default 300). */\n  toleranceSeconds?: number;\n", "  /** How old a signed timestamp may be, in seconds (default 300). */\n  toleranceSeconds?: number;\n  /** false: return events of unknown types as UnknownEvent instead of throwing (default true). */\n  strict?: boolean;\n"),
    ],
)
edit(
    "src/schema.ts",
    "type Equals<A, B>",
    "/** The event types this SDK version knows. */\nexport const KNOWN_TYPES: ReadonlySet<string> = new Set(EventSchema.options.map((o) => o.entries.type.literal));\n\ntype Equals<A, B>",
)
edit("src/index.ts", 'export type { EventIssue } from "./errors";\n', 'export type { EventIssue } from "./errors";\nexport type { UnknownEvent } from "./unknown";\n')
edit(
    "test/validation.test.ts",
    '''  it("keeps optional fields absent", () => {''',
    '''  it("passes unknown types through with strict: false", () => {
    const event = parseEvent(JSON.stringify({ ...invoicePaid, type: "refund.created" }), { strict: false });
    expect(event).toMatchObject({ type: "refund.created", unknown: true });
  });

  it("still rejects a malformed known type with strict: false", () => {
    const bad = { ...invoicePaid, data: { object: { ...invoicePaid.data.object, amount_due: "x" } } };
    expect(() => parseEvent(JSON.stringify(bad), { strict: false })).toThrow(WebhookValidationError);
  });

  it("keeps optional fields absent", () => {''',
)
bash(
    "npx tsc --noEmit && npx jest --coverage 2>&1 | grep -E '^(Tests:|All files)'",
    "Type-check, run tests with coverage",
    "Tests:       38 passed, 38 total\nAll files       |   99.24 |    96.15 |     100 |   99.21 |                   \n",
)
s.assistant(
    "Done, and `src/types.ts` is still untouched: `UnknownEvent` lives in the new `src/unknown.ts` (exported as a type from the index), "
    "`ParseOptions` gained `strict?: boolean`, and `parseEvent` has two overloads so only `strict: false` callers see `WebhookEvent | UnknownEvent`. "
    "`KNOWN_TYPES` is derived from the schema in `src/schema.ts`, so it can't drift. 38 tests pass, branch coverage 96.15%."
)

# =============================================================================================
# Turn 9
s.user("Ok. Can you update the README's Validation section and add a changeset? We use changesets; this should be a minor bump.")
bash(
    "grep -n '^##' README.md",
    "List README sections",
    "3:## Install\n11:## Usage\n34:## Verifying signatures\n61:## Validation\n64:## Event types\n88:### Type guards\n97:## Browser support\n104:## License\n",
)
(rid,) = s.assistant(None, [("Read", {"file_path": f"{ROOT}/README.md", "offset": 58, "limit": 40})])
README_PART = '''
## Validation

`parseEvent` parses the body as JSON. It does not check the payload's shape yet.

## Event types

All event types are exported from the package root:

```ts
import type { InvoicePaidEvent, WebhookEvent } from "@lattice/webhooks";

function handle(event: WebhookEvent) {
  switch (event.type) {
    case "invoice.paid":
      return markPaid(event.data.object.id);
    case "customer.deleted":
      return forget(event.id);
    // ...
  }
}
```

Amounts are integers in minor units (cents); timestamps are unix seconds.

### Type guards

`isWebhookEvent(value)` narrows an already-parsed object to `WebhookEvent`.
It only checks that `type` is a string and `data` an object.

## Browser support

The package has no runtime dependencies and works in every browser that supports ES2020,
and in Node 18 or later.
'''
s.result(rid, numbered(README_PART.strip("\n"), 59), {"type": "text", "file": {"filePath": f"{ROOT}/README.md", "content": README_PART, "numLines": 38, "startLine": 59, "totalLines": 107}})
fs["README.md"] = README_PART
multi_edit(
    "README.md",
    [
        (
            "`parseEvent` parses the body as JSON. It does not check the payload's shape yet.",
            "`parseEvent` checks every event against the schema of its type and throws a\n`WebhookValidationError` when it does not match. The error's message names each bad field\nby its path, and `error.issues` lists them as `{ path, message }`:\n\n"
            "```\ninvalid webhook event: data.object.amount_due: expected number, received \"4200\"\n```\n\n"
            "Events of a type this version does not know throw as well. Pass `{ strict: false }` to get\nthem as `UnknownEvent` (with `unknown: true`) instead; malformed events of known types still throw.",
        ),
        (
            "`isWebhookEvent(value)` narrows an already-parsed object to `WebhookEvent`.\nIt only checks that `type` is a string and `data` an object.",
            "`isWebhookEvent(value)` narrows an already-parsed object to `WebhookEvent`, using the same\nschema as `parseEvent`. It is deprecated: use `parseEvent`, which also verifies signatures and\nexplains what is wrong. It will be removed in 3.0.",
        ),
        (
            "The package has no runtime dependencies and works in every browser that supports ES2020,",
            "The package has one small runtime dependency ([valibot](https://valibot.dev), pinned) and\nstays under 5 kB (brotli). It works in every browser that supports ES2020,",
        ),
    ],
    text="Updating the Validation section, the Type guards note and the Browser support line (which said \"no runtime dependencies\"):",
)
CHANGESET = '''---
"@lattice/webhooks": minor
---

Validate webhook events at runtime.

- `parseEvent` now checks each event against the schema of its type and throws
  `WebhookValidationError` (with `issues: { path, message }[]`) instead of returning
  malformed data (INC-2291).
- New option `strict: false` returns events of unknown types as `UnknownEvent`.
- `isWebhookEvent` uses the same schema and is deprecated in favour of `parseEvent`.
- Adds one runtime dependency, `valibot` 1.1.0 (pinned); bundle stays under 5 kB.
'''
write(".changeset/brave-owls-validate.md", CHANGESET)
s.assistant(
    "README updated (Validation, Type guards, Browser support) and a changeset added at `.changeset/brave-owls-validate.md` with a `minor` bump "
    "for `@lattice/webhooks`, which will take it from 2.3.1 to 2.4.0 on release."
)

# =============================================================================================
# Turn 10
s.user("One more question: are we sure valibot doesn't pull anything else in at runtime? Can you check npm ls and what the lockfile says?")
bash(
    "npm ls valibot && npm view valibot@1.1.0 dependencies peerDependencies peerDependenciesMeta --json && git diff --stat package.json package-lock.json",
    "Check valibot's dependencies",
    "@lattice/webhooks@2.3.1 /Users/priya/code/webhooks\n\u2514\u2500\u2500 valibot@1.1.0\n\n"
    '{\n  "peerDependencies": {\n    "typescript": ">=5"\n  },\n  "peerDependenciesMeta": {\n    "typescript": {\n      "optional": true\n    }\n  }\n}\n'
    " package-lock.json | 17 +++++++++++++++++\n package.json      |  3 +++\n 2 files changed, 20 insertions(+)\n",
)
s.assistant(
    "Confirmed: `valibot@1.1.0` has no dependencies at all, only an *optional* peer dependency on `typescript >=5` (for types), so nothing else "
    "is installed at runtime. The lockfile diff is just the one `valibot` entry (+17 lines), and `package.json` has `\"valibot\": \"1.1.0\"` "
    "exactly, no caret."
)

# =============================================================================================
# Turn 11
s.user(
    "Great. Can you leave the docs site page (docs/validation.mdx) for after review? Design wants to restyle the callouts anyway. "
    "And the payout.failed fixture, support hasn't sent a real one yet; can we add it once they do?"
)
s.assistant(
    "Sure, I won't touch `docs/validation.mdx` in this PR, and I'll leave the `payout.failed` fixture until support sends a real payload "
    "(the schema covers that type already, there's just no sample in `test/fixtures/events/`). I'll list both as follow-ups in the PR description."
)

# =============================================================================================
# Turn 12
s.user("Can you draft the PR description and tell me what's left?")
PARSE_DIFF = "\n".join(
    ["diff --git a/src/parse.ts b/src/parse.ts", "index 3c0e9a1..8f5d2b4 100644", "--- a/src/parse.ts", "+++ b/src/parse.ts", "@@ -1,40 +1,64 @@"]
    + [("+" if ln.strip() else " ") + ln for ln in fs["src/parse.ts"].split("\n")[:64]]
)
bash(
    "npx tsc --noEmit && npx jest --coverage 2>&1 | tail -n 22",
    "Final type-check and full test run",
    jest_out([("test/signature.test.ts", True), ("test/validation.test.ts", True), ("test/parse.test.ts", True), ("test/fixtures.test.ts", True)], 38)
    + "----------------|---------|----------|---------|---------|-------------------\n"
    "File            | % Stmts | % Branch | % Funcs | % Lines | Uncovered Line #s \n"
    "----------------|---------|----------|---------|---------|-------------------\n"
    "All files       |   99.24 |    96.15 |     100 |   99.21 |                   \n"
    " errors.ts      |     100 |      100 |     100 |     100 |                   \n"
    " guards.ts      |     100 |      100 |     100 |     100 |                   \n"
    " index.ts       |     100 |      100 |     100 |     100 |                   \n"
    " parse.ts       |     100 |      100 |     100 |     100 |                   \n"
    " schema.ts      |     100 |      100 |     100 |     100 |                   \n"
    " signature.ts   |   96.42 |    91.66 |     100 |   96.29 | 44                \n"
    " unknown.ts     |     100 |      100 |     100 |     100 |                   \n"
    "----------------|---------|----------|---------|---------|-------------------\n",
    text="Running everything once more before writing the description:",
)
bash("git log --oneline -n 5 && git diff src/parse.ts", "Show recent history and the parseEvent diff", "b1d44e0 (origin/main, main) chore: release 2.3.1\n7a2c9f3 fix: accept several v1 signatures during secret rotation\n0c8e51d docs: express example\ne93b2aa chore: release 2.3.0\n4f61d07 feat: toleranceSeconds option\n" + PARSE_DIFF + "\n")
bash(
    "git status --short && git diff --stat HEAD",
    "Summarise changes",
    " M README.md\n M package-lock.json\n M package.json\n M src/guards.ts\n M src/index.ts\n M src/parse.ts\n"
    "?? .changeset/brave-owls-validate.md\n?? src/errors.ts\n?? src/schema.ts\n?? src/unknown.ts\n?? test/validation.test.ts\n"
    " README.md         | 21 ++++++++++++------\n package-lock.json | 17 ++++++++++++++++\n package.json      |  3 +++\n src/guards.ts     | 15 ++++++++++---\n"
    " src/index.ts      |  3 +++\n src/parse.ts      | 42 +++++++++++++++++++++++++++++--------\n 6 files changed, 83 insertions(+), 18 deletions(-)\n",
)
s.assistant(
    "**PR: Validate webhook events at runtime (INC-2291)**\n\n"
    "`parseEvent` no longer casts `JSON.parse` output to `WebhookEvent`: every event is checked against a valibot schema of its type "
    "(`src/schema.ts`), with a compile-time check that the schemas match the public types in `src/types.ts`, which are unchanged.\n\n"
    "- Errors: `WebhookValidationError` (`src/errors.ts`) with `issues: { path, message }[]`; the message names each bad field's path.\n"
    "- `strict: false` returns unknown event types as `UnknownEvent` (`src/unknown.ts`).\n"
    "- `isWebhookEvent` is deprecated and now uses the schema.\n"
    "- New dependency: `valibot` 1.1.0, pinned, no transitive dependencies; `dist/index.mjs` is 3.71 kB brotli (was 1.96 kB), limit 5 kB.\n"
    "- Tests: 38 passing, branch coverage 96.15%. Changeset: minor.\n\n"
    "**Left to do:**\n"
    "1. `docs/validation.mdx` on the docs site, after review (design is restyling callouts).\n"
    "2. A `payout.failed` fixture once support sends a real payload.\n"
    "3. Nothing is committed yet; say the word and I'll commit on `feat/validate-events`."
)

s.write(str(HERE / "session.jsonl"))
print("wrote", HERE / "session.jsonl", len(s.records), "records")
