# ruff: noqa: E501
"""The @lattice/webhooks repository as the session finds it, and the texts the session writes."""

PACKAGE_JSON = '''{
  "name": "@lattice/webhooks",
  "version": "2.3.1",
  "description": "Parse and verify Lattice webhook events in Node and the browser",
  "license": "MIT",
  "type": "module",
  "main": "./dist/index.cjs",
  "module": "./dist/index.mjs",
  "types": "./dist/index.d.ts",
  "exports": {
    ".": {
      "types": "./dist/index.d.ts",
      "import": "./dist/index.mjs",
      "require": "./dist/index.cjs"
    }
  },
  "sideEffects": false,
  "files": ["dist"],
  "engines": { "node": ">=18" },
  "scripts": {
    "build": "tsup",
    "typecheck": "tsc --noEmit",
    "test": "jest",
    "size": "size-limit",
    "changeset": "changeset"
  },
  "size-limit": [
    { "path": "dist/index.mjs", "limit": "5 kB" }
  ],
  "devDependencies": {
    "@changesets/cli": "2.27.9",
    "@size-limit/preset-small-lib": "11.1.6",
    "@types/jest": "29.5.14",
    "@types/node": "20.17.6",
    "jest": "29.7.0",
    "size-limit": "11.1.6",
    "ts-jest": "29.2.5",
    "tsup": "8.3.5",
    "typescript": "5.6.3"
  }
}
'''

TSCONFIG = '''{
  "compilerOptions": {
    "target": "ES2020",
    "module": "ESNext",
    "moduleResolution": "Bundler",
    "lib": ["ES2020", "DOM"],
    "strict": true,
    // Customers narrow optional fields with `"memo" in invoice`; an explicit `memo: undefined`
    // would break that, so optional properties must be absent, never undefined.
    "exactOptionalPropertyTypes": true,
    "noUncheckedIndexedAccess": true,
    "noImplicitOverride": true,
    "declaration": true,
    "skipLibCheck": true,
    "esModuleInterop": true,
    "isolatedModules": true
  },
  "include": ["src", "test", "examples"]
}
'''

TYPES_TS = '''/**
 * Public event types. Customers import these directly (`import type { InvoicePaidEvent } from
 * "@lattice/webhooks"`), so every change here is a change to our public API.
 */

export interface Invoice {
  id: string;
  customer: string;
  /** Minor units (cents). */
  amount_due: number;
  /** Minor units (cents). */
  amount_paid: number;
  /** ISO 4217, lower case. */
  currency: string;
  status: "draft" | "open" | "paid" | "void";
  memo?: string;
}

export interface Customer {
  id: string;
  email: string;
  name?: string;
  /** Unix seconds. */
  created: number;
}

export interface Subscription {
  id: string;
  customer: string;
  plan: string;
  status: "trialing" | "active" | "past_due" | "canceled";
  /** Unix seconds. */
  current_period_end: number;
}

export interface Payout {
  id: string;
  /** Minor units (cents). */
  amount: number;
  currency: string;
  /** Unix seconds. */
  arrival_date: number;
  failure_code?: string;
}

interface BaseEvent<T extends string, O> {
  /** `evt_` followed by 24 characters. */
  id: string;
  type: T;
  /** Unix seconds. */
  created: number;
  livemode: boolean;
  data: { object: O };
}

export type InvoicePaidEvent = BaseEvent<"invoice.paid", Invoice>;
/** `object` is null when the invoice was deleted before the event was delivered. */
export type InvoiceVoidedEvent = BaseEvent<"invoice.voided", Invoice | null>;
export type CustomerCreatedEvent = BaseEvent<"customer.created", Customer>;
/** `object` is null: deleted customers are not sent. */
export type CustomerDeletedEvent = BaseEvent<"customer.deleted", Customer | null>;
export interface SubscriptionUpdatedEvent extends BaseEvent<"subscription.updated", Subscription> {
  data: { object: Subscription; previous_attributes?: Partial<Subscription> };
}
export type PayoutPaidEvent = BaseEvent<"payout.paid", Payout>;
export type PayoutFailedEvent = BaseEvent<"payout.failed", Payout>;

export type WebhookEvent =
  | InvoicePaidEvent
  | InvoiceVoidedEvent
  | CustomerCreatedEvent
  | CustomerDeletedEvent
  | SubscriptionUpdatedEvent
  | PayoutPaidEvent
  | PayoutFailedEvent;

export type WebhookEventType = WebhookEvent["type"];
'''

PARSE_TS = '''import { verifySignature } from "./signature";
import type { WebhookEvent } from "./types";

export interface ParseOptions {
  /** Shared secret; when given, the signature is checked before anything else. */
  secret?: string;
  /** The `Lattice-Signature` header. */
  signature?: string;
  /** How old a signed timestamp may be, in seconds (default 300). */
  toleranceSeconds?: number;
}

export class WebhookParseError extends Error {
  override name = "WebhookParseError";
}

/**
 * Parse a webhook body into an event. With `secret`, the signature is verified first.
 *
 * @throws {SignatureError} when the signature does not match.
 * @throws {WebhookParseError} when the body is not JSON.
 */
export function parseEvent(body: string, options: ParseOptions = {}): WebhookEvent {
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
  // TODO(validation): this is a cast, not a check. See INC-2291.
  return json as WebhookEvent;
}
'''

INDEX_TS = '''export * from "./types";
export { parseEvent, WebhookParseError } from "./parse";
export type { ParseOptions } from "./parse";
export { verifySignature, SignatureError } from "./signature";
export { isWebhookEvent } from "./guards";
'''

GUARDS_TS = '''import type { WebhookEvent } from "./types";

export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** A shallow check: an object with a string `type` and an object `data`. */
export function isWebhookEvent(v: unknown): v is WebhookEvent {
  return isRecord(v) && typeof v.type === "string" && isRecord(v.data);
}
'''

FIXTURES_TEST = '''import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEvent } from "../src";

const dir = join(__dirname, "fixtures", "events");
const files = readdirSync(dir).filter((f) => f.endsWith(".json"));

describe("fixtures", () => {
  it("has fixtures", () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files)("parses %s", (file) => {
    const body = readFileSync(join(dir, file), "utf8");
    const event = parseEvent(body);
    expect(event.type).toBe(file.replace(/(-\\d+)?\\.json$/, ""));
  });
});
'''

SUBAGENT_REPORT = '''Survey of @lattice/webhooks for adding runtime validation to parseEvent

1. Public surface (src/index.ts)
   - `export * from "./types"` re-exports every event interface and the `WebhookEvent` union.
   - Also exported: parseEvent, WebhookParseError, ParseOptions (type), verifySignature,
     SignatureError, isWebhookEvent.

2. src/types.ts: 7 event types, one discriminated union on `type`:
   invoice.paid, invoice.voided, customer.created, customer.deleted, subscription.updated,
   payout.paid, payout.failed.
   - InvoiceVoidedEvent and CustomerDeletedEvent declare `data.object` as `... | null`.
   - SubscriptionUpdatedEvent adds an optional `data.previous_attributes` (Partial<Subscription>).
   - Amounts are integers in minor units (cents); timestamps are unix seconds.

3. Fixtures: test/fixtures/events/ holds 14 JSON samples (2 per type, except payout.failed,
   which has NONE). invoice.voided.json and customer.deleted.json have `"object": null`;
   any validator that requires an object there will reject them.

4. tsconfig.json: strict, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true.
   A comment says customers narrow with `"memo" in invoice`, so optional fields must be absent,
   never `undefined`.

5. isWebhookEvent (src/guards.ts) only checks for a string `type` and an object `data`. It is
   used in examples/express-handler.ts and documented in README.md ("Type guards").

6. package.json: "sideEffects": false, engines node >=18, size-limit on dist/index.mjs with
   "limit": "5 kB". No runtime dependencies at all today.

7. jest.config.ts: ts-jest preset, coverageThreshold global { branches: 90, lines: 90 }.

8. Nothing else calls parseEvent inside the package; tests: test/parse.test.ts (12 tests),
   test/signature.test.ts (5), test/fixtures.test.ts (it.each over the fixture files).

Risks: the null objects (3) and exactOptionalPropertyTypes (4) are the two places a naive
validator or schema will disagree with the declared types.
'''

PARSE_TEST = '''import { createHmac } from "node:crypto";
import { parseEvent, SignatureError, WebhookParseError } from "../src";

const SECRET = "whsec_test_5f1c0a9e7b";
const NOW = 1727085600;

const body = JSON.stringify({
  id: "evt_1PqRsTuVwXyZ0123456789ab",
  type: "invoice.paid",
  created: NOW,
  livemode: false,
  data: {
    object: {
      id: "in_1PqRsT",
      customer: "cus_Q8v2",
      amount_due: 4200,
      amount_paid: 4200,
      currency: "eur",
      status: "paid",
    },
  },
});

function sign(payload: string, timestamp = NOW, secret = SECRET): string {
  const mac = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${mac}`;
}

beforeEach(() => {
  jest.useFakeTimers().setSystemTime(NOW * 1000);
});

afterEach(() => {
  jest.useRealTimers();
});

describe("parseEvent", () => {
  it("parses an unsigned body when no secret is given", () => {
    expect(parseEvent(body).type).toBe("invoice.paid");
  });

  it("returns the data object", () => {
    const event = parseEvent(body);
    expect(event.data.object).toMatchObject({ id: "in_1PqRsT", amount_due: 4200 });
  });

  it("verifies a good signature", () => {
    expect(parseEvent(body, { secret: SECRET, signature: sign(body) }).id).toBe("evt_1PqRsTuVwXyZ0123456789ab");
  });

  it("rejects a signature made with another secret", () => {
    expect(() => parseEvent(body, { secret: SECRET, signature: sign(body, NOW, "whsec_other") })).toThrow(SignatureError);
  });

  it("rejects a tampered body", () => {
    const signature = sign(body);
    expect(() => parseEvent(body.replace("4200", "1"), { secret: SECRET, signature })).toThrow(SignatureError);
  });

  it("rejects an old timestamp", () => {
    expect(() => parseEvent(body, { secret: SECRET, signature: sign(body, NOW - 301) })).toThrow(/too old/);
  });

  it("accepts an old timestamp within a custom tolerance", () => {
    const signature = sign(body, NOW - 500);
    expect(parseEvent(body, { secret: SECRET, signature, toleranceSeconds: 600 }).type).toBe("invoice.paid");
  });

  it("requires the signature header when a secret is given", () => {
    expect(() => parseEvent(body, { secret: SECRET })).toThrow(WebhookParseError);
  });

  it("rejects a malformed signature header", () => {
    expect(() => parseEvent(body, { secret: SECRET, signature: "v1=abc" })).toThrow(SignatureError);
  });

  it("accepts any of several v1 signatures (secret rotation)", () => {
    const good = sign(body).split(",")[1];
    const signature = `t=${NOW},v1=${"0".repeat(64)},${good}`;
    expect(parseEvent(body, { secret: SECRET, signature }).type).toBe("invoice.paid");
  });

  it("reports a body that is not JSON", () => {
    expect(() => parseEvent("not json")).toThrow(WebhookParseError);
  });

  it("checks the signature before parsing", () => {
    expect(() => parseEvent("not json", { secret: SECRET, signature: sign("other") })).toThrow(SignatureError);
  });
});
'''

SIGNATURE_TS = '''import { createHmac, timingSafeEqual } from "node:crypto";

export class SignatureError extends Error {
  override name = "SignatureError";
}

const HEADER = /^t=(\\d+)((?:,v1=[0-9a-f]{64})+)$/;

/**
 * Check a `Lattice-Signature` header (`t=<unix seconds>,v1=<hex hmac>[,v1=...]`) against the
 * raw body. Several v1 values are allowed while a secret is being rotated.
 *
 * @throws {SignatureError} when no v1 value matches or the timestamp is too old.
 */
export function verifySignature(body: string, header: string, secret: string, toleranceSeconds = 300): void {
  const match = HEADER.exec(header);
  if (match === null || match[1] === undefined || match[2] === undefined) {
    throw new SignatureError("malformed Lattice-Signature header");
  }
  const timestamp = Number(match[1]);
  const age = Math.floor(Date.now() / 1000) - timestamp;
  if (age > toleranceSeconds) {
    throw new SignatureError(`signature timestamp is too old (${age}s > ${toleranceSeconds}s)`);
  }
  const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest();
  const candidates = match[2].split(",v1=").slice(1);
  for (const hex of candidates) {
    const given = Buffer.from(hex, "hex");
    if (given.length === expected.length && timingSafeEqual(given, expected)) {
      return;
    }
  }
  if (age < -toleranceSeconds) {
    throw new SignatureError("signature timestamp is in the future");
  }
  throw new SignatureError("no signature matches the body");
}
'''

EXPRESS_EXAMPLE = '''import express from "express";
import { isWebhookEvent, verifySignature } from "@lattice/webhooks";

const app = express();
const secret = process.env.LATTICE_WEBHOOK_SECRET ?? "";

// Raw body: the signature is computed over the exact bytes we received.
app.post("/webhooks/lattice", express.raw({ type: "application/json" }), (req, res) => {
  const raw = req.body.toString("utf8");
  try {
    verifySignature(raw, req.header("Lattice-Signature") ?? "", secret);
  } catch {
    res.status(400).send("bad signature");
    return;
  }

  const body: unknown = JSON.parse(raw);

  // Narrow the parsed JSON before handing it to the typed handler.
  if (!isWebhookEvent(body)) {
    res.status(400).send("not a webhook event");
    return;
  }

  switch (body.type) {
    case "invoice.paid":
      console.log("paid", body.data.object.id, body.data.object.amount_paid);
      break;
    case "payout.failed":
      console.warn("payout failed", body.data.object.failure_code ?? "unknown");
      break;
    default:
      break;
  }
  res.sendStatus(204);
});

app.listen(3000);
'''

JEST_CONFIG = '''import type { Config } from "jest";

const config: Config = {
  preset: "ts-jest",
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  collectCoverageFrom: ["src/**/*.ts"],
  coverageThreshold: {
    global: { branches: 90, lines: 90 },
  },
};

export default config;
'''
