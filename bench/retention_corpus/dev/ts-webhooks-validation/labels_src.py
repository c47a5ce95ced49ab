# ruff: noqa: E501
"""Writes labels.json. Labels were written by hand from reading session.jsonl."""

import json
from pathlib import Path
from typing import Any

F: list[dict[str, Any]] = []


def fact(kind: str, importance: str, source: str, text: str, probe: list[str], status: str | None = None, synthesis: bool = False) -> str:
    f: dict[str, Any] = {"id": f"f{len(F) + 1:02d}", "kind": kind, "source": source, "importance": importance}
    if status:
        f["status"] = status
    f["text"] = text
    f["probe"] = {"all": probe}
    if synthesis:
        f["synthesis"] = True
    F.append(f)
    return f["id"]


# Turn 1
fact("request", "must", "Can you add runtime validation to parseEvent in src/parse.ts?",
     "Add runtime validation to parseEvent (src/parse.ts), which only cast JSON.parse output to WebhookEvent.",
     [r"parseEvent", r"validat"], status="done")
fact("value", "nice", "crashed a customer's handler (INC-2291)",
     "Motivating incident: INC-2291, a malformed payout event crashed a customer's handler.",
     [r"INC-2291"])
zod = fact("decision", "should", "Could we use zod for this?",
           "First idea: validate with zod. Withdrawn by the user in the next turn (keep it dependency free).",
           [r"\bzod\b"], status="reversed")
fact("constraint", "must", "can we avoid touching the public types in src/types.ts?",
     "Do not touch the public types in src/types.ts: customers import them directly.",
     [r"types\.ts", r"touch|untouched|unchanged|public|modif|source of truth"])
fact("finding", "should", "invoice.voided.json and customer.deleted.json have `\"object\": null`",
     "Sub-agent: invoice.voided and customer.deleted fixtures send data.object = null (types.ts declares Invoice | null / Customer | null).",
     [r"null", r"invoice\.voided|customer\.deleted|deletion"])
fact("finding", "should", "which has NONE",
     "Sub-agent: there is no fixture for payout.failed (all other types have two).",
     [r"payout\.failed", r"fixture|sample"])
fact("finding", "must", "tsconfig.json: strict, exactOptionalPropertyTypes: true",
     "Sub-agent: tsconfig has exactOptionalPropertyTypes: true (customers narrow with \"memo\" in invoice), so optional fields must be absent, never undefined.",
     [r"exactOptionalPropertyTypes"])
fact("finding", "should", '"limit": "5 kB". No runtime dependencies at all today.',
     "Sub-agent: size-limit caps dist/index.mjs at 5 kB; the package had no runtime dependencies.",
     [r"5 ?kB", r"size|limit"])
fact("finding", "nice", "used in examples/express-handler.ts and documented in README.md",
     "Sub-agent: isWebhookEvent (src/guards.ts) is a shallow check, used in examples/express-handler.ts and documented in the README.",
     [r"isWebhookEvent", r"example|express|shallow"])
fact("finding", "nice", "coverageThreshold global { branches: 90, lines: 90 }",
     "Sub-agent: jest coverageThreshold is 90% branches and lines.",
     [r"\b90\b", r"branch|coverage"])
# Turn 2
nodeps = fact("constraint", "must", "Can we keep it dependency free?",
              "Keep it dependency free (the SDK is bundled into customers' browser apps; size limit). Later relaxed: one tiny pinned dependency (valibot) accepted.",
              [r"depend", r"free|no (runtime )?dep|zero|without"], status="reversed")
e13 = fact("error", "must", "error TS2345: Argument of type 'unknown' is not assignable to parameter of type 'Obj'.",
           "tsc: src/validate/events.ts(84,69) error TS2345: Argument of type 'unknown' is not assignable to parameter of type 'Obj' (data.object passed to validateInvoice without expectObject).",
           [r"TS2345", r"unknown|Obj|data\.object|expectObject"], status="fixed")
e14 = fact("error", "should", "Types of property 'memo' are incompatible.",
           "tsc: TS2375 errors under exactOptionalPropertyTypes: memo, name and failure_code returned as string | undefined.",
           [r"TS2375|exactOptional", r"memo|name|failure_code|undefined"], status="fixed")
# Turn 3
fact("constraint", "must", "can we fix it without turning off exactOptionalPropertyTypes?",
     "Do not turn off exactOptionalPropertyTypes to fix type errors.",
     [r"exactOptionalPropertyTypes", r"(turn|switch)(ing|ed)? off|disabl|relax|keep|without|not chang"])
fact("fix", "should", "So the fix belongs in the validator: spread the property in only when it has a value",
     f"Fixes {e14} and {e13}: optional properties are spread in only when defined (present() helper), and data.object goes through expectObject; tsc clean without changing compiler options.",
     [r"spread|present|absent|only when", r"optional|memo|property"])
e17 = fact("error", "should", "● fixtures › parses invoice.voided.json",
           "jest: fixtures invoice.voided.json and customer.deleted.json failed with ValidationError: data.object: expected object, got null.",
           [r"expected object, got null|object.{0,30}null", r"voided|deleted|fixture"], status="fixed")
fact("fix", "should", "These are the two fixtures the survey flagged",
     f"Fixes {e17}: the validators accept data.object = null for invoice.voided and customer.deleted, as types.ts declares.",
     [r"null", r"voided|deleted"])
fact("value", "nice", "118 src/validate/events.ts",
     "The hand-written validators came to 189 lines (primitives 71, events 118).",
     [r"\b189\b"])
# Turn 4
fact("decision", "must", "If it's valibot, pinned to an exact version",
     f"Reverses {nodeps}: one tiny dependency is acceptable: valibot, pinned to an exact version, as long as the bundle stays under the 5 kB limit.",
     [r"valibot", r"pin|exact|5 ?kB|tiny|under"])
fact("request", "should", "Can you measure the size before and after",
     "Measure the bundle size before and after switching to valibot (done with size-limit).",
     [r"size|measure", r"before|after|valibot|kB"], status="done")
fact("value", "should", "Size:       1.96 kB with all dependencies",
     "Bundle with hand-written validators: 1.96 kB (size-limit, brotli).",
     [r"1\.96"])
fact("command", "should", "npm install --save-exact valibot@1.1.0",
     "Installed valibot pinned exactly: npm install --save-exact valibot@1.1.0 (\"valibot\": \"1.1.0\", no caret).",
     [r"1\.1\.0", r"valibot"])
fact("value", "should", "Size:       3.71 kB with all dependencies",
     "Bundle with valibot: 3.71 kB brotli (limit 5 kB), about +1.75 kB.",
     [r"3\.71"])
fact("path", "should", "Runtime schemas for the public event types.",
     "New src/schema.ts: valibot EventSchema (v.variant on type, exactOptional optional fields, nullable objects for the deletion events) with a compile-time Equals check against types.ts; src/validate/ deleted.",
     [r"schema\.ts", r"valibot|EventSchema|variant"])
fact("path", "nice", "rm -r src/validate && npx tsc --noEmit",
     "The hand-written validators in src/validate/ were deleted when switching to valibot.",
     [r"src/validate", r"delet|remov|rm\b|replac|gone"])
# Turn 5
fact("request", "must", "Can the error messages include the JSON path of the bad field?",
     "Validation error messages must include the JSON path of the bad field.",
     [r"(json|dot) ?path|getDotPath|path of the", r"error|message"], status="done")
fact("preference", "should", "\"data.object.amount_due: expected number\" in the customer's logs",
     "Message format support wants: \"data.object.amount_due: expected number\" (path, then what was expected), not just \"invalid event\".",
     [r"amount_due", r"expected"])
fact("path", "should", "Done. `parseEvent` now throws `WebhookValidationError` (new `src/errors.ts`",
     "New src/errors.ts: WebhookValidationError with issues: { path, message }[] (paths via v.getDotPath), exported from the index; tests in test/validation.test.ts.",
     [r"WebhookValidationError", r"issues|errors\.ts"])
# Turn 6
fact("request", "should", "Can we keep it working but mark it @deprecated",
     "Keep isWebhookEvent exported and working but mark it @deprecated, pointing to parseEvent.",
     [r"isWebhookEvent", r"deprecat"], status="done")
fact("decision", "nice", "now marked `@deprecated` (pointing to `parseEvent`, removal planned for 3.0)",
     "isWebhookEvent now uses v.is(EventSchema) instead of the shallow check; removal planned for 3.0.",
     [r"3\.0", r"deprecat|remov|isWebhookEvent"])
e31 = fact("error", "nice", "error TS2339: Property 'is' does not exist on type 'unknown'.",
           "tsc: src/guards.ts TS2339 Property 'is' does not exist on type 'unknown' (and TS2304 EventSchema not found).",
           [r"TS2339|TS2304|shadow"], status="fixed")
fact("fix", "nice", "The parameter `v` shadows the valibot namespace",
     f"Fixes {e31}: import valibot as v and EventSchema in guards.ts, rename the parameter to value.",
     [r"shadow", r"valibot|rename|value|import"])
# Turn 7
fact("request", "should", "CI needs 90% branches",
     "Run the suite with coverage; CI needs 90% branch coverage.",
     [r"\b90", r"branch"], status="done")
e34 = fact("error", "should", " errors.ts      |   88.88 |       75",
           "Coverage failed: branches 87.5% < 90% threshold (errors.ts:21 nested issues, parse.ts:32 non-JSON body uncovered).",
           [r"87\.5"], status="fixed")
fact("fix", "should", "With the two new tests (nested variant issues, non-JSON body)",
     f"Fixes {e34}: two tests (nested variant issues, non-JSON body) took branch coverage to 95.83%.",
     [r"95\.83", r"branch|coverage|test"])
# Turn 8
fact("decision", "must", "`WebhookEvent` itself stays closed",
     "Unknown types: new UnknownEvent in src/unknown.ts (types.ts untouched), ParseOptions.strict (default true), overloads so only strict: false callers get WebhookEvent | UnknownEvent; WebhookEvent stays closed so exhaustive switches keep working.",
     [r"UnknownEvent", r"strict|unknown\.ts|types\.ts"])
fact("request", "should", "Could parseEvent take { strict: false }",
     "parseEvent({ strict: false }) should pass unknown event types through as UnknownEvent.",
     [r"strict: ?false", r"unknown"], status="done")
fact("value", "nice", "38 tests pass, branch coverage 96.15%.",
     "After UnknownEvent: 38 tests pass, branch coverage 96.15%.",
     [r"96\.15|38 tests"])
fact("state", "must", "Done, and `src/types.ts` is still untouched",
     "State: parseEvent validates with the valibot EventSchema (src/schema.ts) and throws WebhookValidationError (src/errors.ts); strict: false returns UnknownEvent (src/unknown.ts); isWebhookEvent deprecated; types.ts unchanged; nothing committed yet.",
     [r"schema\.ts|valibot|EventSchema", r"WebhookValidationError|UnknownEvent"], synthesis=True)
# Turn 9
fact("request", "should", "add a changeset? We use changesets",
     "Update the README Validation section and add a changeset (minor bump).",
     [r"changeset", r"minor|README"], status="done")
fact("path", "should", "a changeset added at `.changeset/brave-owls-validate.md`",
     "Changeset .changeset/brave-owls-validate.md: minor bump of @lattice/webhooks, 2.3.1 -> 2.4.0 on release.",
     [r"brave-owls|changeset", r"2\.4\.0|minor"])
# Turn 10
fact("finding", "should", "has no dependencies at all, only an *optional* peer dependency",
     "valibot 1.1.0 has no dependencies, only an optional peer dependency on typescript >=5; lockfile adds just valibot.",
     [r"valibot", r"no (transitive )?dependenc|peer"])
# Turn 11
fact("request", "must", "Can you leave the docs site page (docs/validation.mdx) for after review?",
     "Open: docs/validation.mdx on the docs site, after review (design is restyling callouts); not touched in this PR.",
     [r"validation\.mdx"], status="open")
fact("request", "must", "And the payout.failed fixture, support hasn't sent a real one yet",
     "Open: add a payout.failed fixture once support sends a real payload.",
     [r"payout\.failed", r"fixture|sample|payload"], status="open")

labels = {
    "title": "@lattice/webhooks: runtime validation for parseEvent (zod -> none -> valibot)",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for this corpus",
    "voice": "short messages, constraints asked as questions, changes mind twice",
    "toolchain": "jest+tsc (npm, size-limit, changesets)",
    "compactions": [
        {"at": "● fixtures › parses customer.deleted.json", "keep_recent_tokens": 3000},
        {"at": " parse.ts       |   94.11 |    83.33", "keep_recent_tokens": 4000},
        {"at": "b1d44e0 (origin/main, main) chore: release 2.3.1", "keep_recent_tokens": 1500},
    ],
    "facts": F,
}
Path(__file__).with_name("labels.json").write_text(json.dumps(labels, indent=2, ensure_ascii=False) + "\n")
print(len(F), "facts")
