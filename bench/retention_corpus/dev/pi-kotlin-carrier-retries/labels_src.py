# ruff: noqa: E501
"""Labels for pi-kotlin-carrier-retries, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: the label writer is in synth/
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "parcelly importer: retries with backoff, Retry-After and a per-carrier circuit breaker (Kotlin)",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout2 test split",
    "voice": "polite long paragraphs; every constraint asked as a question ('Could we avoid touching the :core module?', 'is it possible to do this without ...?')",
    "toolchain": "Kotlin + Gradle (kts, version catalog), kotlin.test/JUnit 5, kotlinx-coroutines-test, ktlint",
}
COMPACTIONS = [
    ("Compiles now. The key is no longer in any URL", 1500),
    ("All green: 47 importer tests", 1200),
    ("Build is green after splitting an over-long line", 600),
]
FACTS = [
    f("k01", "request", "must", "What I have in mind is retries with exponential backoff for 429 and 5xx", "Retry carrier calls with exponential backoff on 429 and 5xx (a carrier's bad minute cost a whole 15-minute polling cycle).", [r"retr", r"backoff|429|5xx"], "done"),
    f("k02", "request", "should", "honouring Retry-After when the carrier sends it", "Honour Retry-After when the carrier sends it.", [r"Retry-After"], "done"),
    f("k03", "request", "should", "some kind of circuit breaker per carrier", "A circuit breaker per carrier, so a carrier that is really down is not hammered.", [r"circuit|breaker"], "done"),
    f("k04", "constraint", "must", "Could we avoid touching the :core module while doing this?", "Do not touch :core: its data classes are a published artifact the mobile team pins.", [r":?core", r"touch|untouched|unchanged|avoid|not (change|modif)|mobile|artifact"]),
    f("k05", "constraint", "must", "without pulling in resilience4j", "No resilience4j or similar new dependency (dependency review takes weeks).", [r"resilience4j|dependenc", r"\bno\b|without|avoid|not|none"]),
    f("k06", "value", "nice", "there were 1,904 `HTTP 429` warnings yesterday", "UPS 429s on 2025-09-28 caused 1,904 warnings in the importer log.", [r"1,?90[04]"]),
    f("k07", "finding", "should", "UPS sends `Retry-After` in both forms", "UPS sends Retry-After both as seconds (120, 30) and as an HTTP date.", [r"Retry-After", r"date|RFC|seconds|both"]),
    f("k08", "finding", "should", "`HttpCarrierClient` logs the full URL at DEBUG", "HttpCarrierClient logged the full URL with ?apikey=... at DEBUG: carrier keys leaked into logs.", [r"api ?key|\bkeys?\b", r"log|URL|DEBUG"]),
    f("k09", "decision", "must", "`RetryingCarrierClient(delegate, policy, breaker)`, wired in `Wiring.kt`", "Design: a RetryingCarrierClient decorator in :importer around each HttpCarrierClient, wired in Wiring.kt.", [r"RetryingCarrierClient|decorat", r"Wiring|importer|wrap"]),
    f("k10", "constraint", "must", "Could we also make sure the key never appears in a log line", "Carrier API keys must never appear in a log line, exception messages included.", [r"\bkeys?\b", r"never|not .*log|out of (URLs?|logs?)|header|redact"]),
    f("k11", "decision", "must", "4 attempts and the 30 second cap are fine", "At most 4 attempts per call, backoff capped at 30 s.", [r"\b4\b|four", r"attempt"]),
    f("k12", "value", "should", "Proposed defaults: 4 attempts in total, backoff 500 ms doubling", "Backoff 500 ms doubling up to 30 s with full jitter.", [r"500 ?ms", r"30 ?s|doubl|backoff|jitter"]),
    f("k13", "decision", "must", "if Retry-After asks for more than 60 seconds we give up on this cycle", "A Retry-After over 60 s means giving up this cycle instead of waiting (it would hold the PollJob loop).", [r"60 ?s|60 seconds|sixty", r"Retry-After|give up|skip|cycle"]),
    f("k14", "constraint", "must", "could we keep the polling interval itself at 15 minutes", "Keep the polling interval at 15 minutes: the carriers' contracts are priced on it.", [r"15 ?min|15 minutes|15\.minutes", r"poll|interval"]),
    f("k15", "error", "should", "RetryingCarrierClient.kt:18:39 Suspension functions", "Compile error: Suspension functions can only be called within coroutine body (RetryingCarrierClient.kt:18 and :33).", [r"Suspension functions?|coroutine body"], "fixed"),
    f("k16", "fix", "should", "`retrying` and its block must both be `suspend`", "Fix: retrying() and its block parameter made suspend.", [r"suspend", r"retrying|block|lambda"]),
    f("k17", "decision", "must", "instead of redacting it from the URL I'll send it as a header", "Carrier keys are sent in a request header, never in the URL; DEBUG logs baseUrl/track/<number> only.", [r"header", r"\bkeys?\b"]),
    f("k18", "finding", "should", "12:UPS Tracking v1 authenticates with the header `AccessLicenseNumber", "UPS expects the key in AccessLicenseNumber (sandbox gave 401 with X-Api-Key); DHL uses X-Api-Key.", [r"AccessLicenseNumber"]),
    f("k20", "state", "should", "so the header name is a constructor parameter set in `Wiring.kt`", "HttpCarrierClient takes the key header name as a constructor parameter (keyHeader), set per carrier in Wiring.kt.", [r"keyHeader|header name|header", r"Wiring|constructor|parameter|per carrier"]),
    f("k21", "request", "should", "Is it possible to test the waiting without the tests actually sleeping?", "Tests must not really sleep (slow CI): runTest virtual time.", [r"sleep|virtual (time|clock)|runTest"], "done"),
    f("k22", "path", "should", "Yes: `runTest` runs `delay` on virtual time", "importer/src/test/.../RetryingCarrierClientTest.kt: 6 tests (503 then success, give up after 4, no retry on 404, Retry-After seconds and date, over 60 s).", [r"RetryingCarrierClientTest"]),
    f("k23", "error", "should", "java.time.format.DateTimeParseException: Text 'Sun, 28 Sep", "DateTimeParseException: Text 'Sun, 28 Sep 2025 14:00:45 GMT' could not be parsed at index 0 (ISO parser on an HTTP date).", [r"DateTimeParseException|could not be parsed", r"Retry-After|date|index 0|GMT"], "fixed"),
    f("k24", "fix", "should", "HTTP dates are RFC 1123, not ISO", "Fix: parse HTTP-date Retry-After with RFC_1123_DATE_TIME; an unreadable header falls back to the backoff.", [r"RFC.?1123"]),
    f("k25", "error", "should", "org.opentest4j.AssertionFailedError: expected: <4> but was: <5>", "'gives up after maxAttempts' failed: expected: <4> but was: <5> (a 5th call).", [r"off-by-one|but was:? <?5|5th call|fifth"], "fixed"),
    f("k26", "fix", "should", "The second (`expected: <4> but was: <5>`) is an off-by-one", "Fix: the loop checks attempt >= maxAttempts (was >), so at most 4 calls.", [r">= ?(policy\.)?maxAttempts|off-by-one"]),
    f("k27", "value", "should", "All green: 47 importer tests", "47 importer tests pass (41 before + 6 new); the suite runs in 8 s.", [r"\b47\b", r"tests?|pass|green"]),
    f("k28", "constraint", "must", "could we avoid changing PollJob's constructor?", "Do not change PollJob's constructor or the api module (api builds a PollJob for the admin 'poll now' button).", [r"PollJob|\bapi\b", r"constructor|untouched|unchanged|avoid|not"]),
    f("k29", "state", "should", "while a breaker is open, each shipment of that carrier costs no HTTP call", "With a breaker open, shipments of that carrier make no HTTP call; PollJob logs one line per unavailable carrier per cycle.", [r"breaker|open|unavailable", r"one (line|warning)|per carrier|no HTTP call|skipped"]),
    f("k30", "value", "should", "the breaker opens after 5 consecutive failures and lets one trial call", "Breaker opens after 5 consecutive failures; one trial call after 60 s (half-open).", [r"\b5\b|five", r"consecutive|failures|breaker"]),
    f("k31", "finding", "nice", "I checked AdminRoutes and importerClients does come from Wiring", "User checked: AdminRoutes' importerClients comes from Wiring.kt, so the admin 'poll now' gets the retries too.", [r"AdminRoutes|poll now|admin", r"Wiring|retr|decorat"]),
    f("k32", "request", "must", "I also want a metric for retries and breaker openings eventually", "Open, not in this PR: metrics for retries and breaker openings (Micrometer vs OpenTelemetry not decided).", [r"metric|Micrometer|OpenTelemetry", r"later|not in|leave|\bout\b|defer|eventually|undecided|open|not decided"], "open"),
    f("k33", "error", "nice", "Wiring.kt:21:1 Exceeded max line length (120)", "ktlint: Wiring.kt:21 Exceeded max line length (120).", [r"max.line.length|line length|ktlint", r"120|Wiring"], "fixed"),
    f("k34", "fix", "nice", "    val resilient = clients.mapValues", "Fix: the wrapping moved to a `val resilient = ...` line before `return PollJob(repo, resilient)`.", [r"resilient|split"]),
    f("k35", "path", "should", "The PR description is in `PR_DESCRIPTION.md`", "PR_DESCRIPTION.md holds the PR text; untracked, not to be committed.", [r"PR_DESCRIPTION"]),
    f("k36", "command", "should", "./gradlew build --console=plain 2>&1 | tail -12", "Build and checks: ./gradlew build (ktlint included); tests: ./gradlew :importer:test.", [r"gradlew"]),
    f("k37", "value", "nice", "3c81e9a (HEAD -> importer-retries)", "Committed as 3c81e9a on branch importer-retries, not pushed.", [r"3c81e9a|importer-retries"]),
    f("k40", "decision", "should", "When to retry a carrier call and how long to wait", "Retry-After (when present) wins over the computed backoff.", [r"Retry-After", r"wins|over|instead|preferred|precedence|honou?r"]),
    f("k41", "decision", "should", "fun `does not retry 404`()", "Only 429 and 5xx are retried; e.g. 404 fails at once.", [r"404|4xx|429 and 5xx|only 429"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
