# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout2 retention split.

A user who writes long paragraphs and asks constraints as questions ("could we avoid touching
:core?") has pi add retries with backoff, Retry-After handling and a circuit breaker to the carrier
tracking clients of a Kotlin/Gradle service, tested with kotlinx-coroutines-test virtual time.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: its writers are in synth/

import files as F  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

s = PiSession("/home/ines/code/parcelly", "2025-09-29T09:14:00", model="claude-sonnet-4-5", seed="parcelly-retries")
K = "importer/src/main/kotlin/com/parcelly/importer/"
T = "importer/src/test/kotlin/com/parcelly/importer/"
s.files.update({
    "settings.gradle.kts": F.SETTINGS,
    "importer/build.gradle.kts": F.IMPORTER_BUILD,
    K + "CarrierClient.kt": F.CARRIER_CLIENT,
    K + "PollJob.kt": F.POLL_JOB,
    "core/src/main/kotlin/com/parcelly/core/Shipment.kt": F.SHIPMENT,
})

GRADLE_HEAD = "> Task :core:checkKotlinGradlePluginConfigurationErrors\n> Task :core:compileKotlin UP-TO-DATE\n> Task :core:compileJava NO-SOURCE\n> Task :core:classes UP-TO-DATE\n> Task :core:jar UP-TO-DATE\n> Task :importer:checkKotlinGradlePluginConfigurationErrors\n"


def gradle_ok(tests: int, secs: int) -> str:
    return (GRADLE_HEAD + "> Task :importer:compileKotlin\n> Task :importer:compileTestKotlin\n> Task :importer:test\n\n"
            f"ImporterTests > {tests} tests completed, 0 failed\n\nBUILD SUCCESSFUL in {secs}s\n9 actionable tasks: 4 executed, 5 up-to-date")


# ============================================================================================ turn 1
s.user(
    "Good morning. I'd like to make the carrier polling in the importer module more robust, because at the moment every "
    "time DHL or UPS has a bad minute we lose a whole polling cycle for those shipments: the HttpCarrierClient throws on "
    "anything that isn't a 200, PollJob logs a warning and moves on, and the customer sees a stale status for another 15 "
    "minutes. Yesterday UPS returned 429s for about ten minutes and we had 1,900 warnings in the log. What I have in mind is "
    "retries with exponential backoff for 429 and 5xx, honouring Retry-After when the carrier sends it, and some kind of "
    "circuit breaker per carrier so that when a carrier is really down we stop hammering it. Could we avoid touching the "
    ":core module while doing this? Its data classes are published as an artifact that the mobile team pins, and any "
    "change there means a new release on their side. And is it possible to do this without pulling in resilience4j or a "
    "similar library? Our dependency review takes weeks at the moment.",
    pause=0,
)
s.bash("ls && cat settings.gradle.kts && ls importer/src/main/kotlin/com/parcelly/importer importer/src/test/kotlin/com/parcelly/importer",
       "README.md\napi\nbuild.gradle.kts\ncore\ngradle\ngradle.properties\ngradlew\ngradlew.bat\nimporter\nsettings.gradle.kts\n" + F.SETTINGS +
       "CarrierClient.kt\nDhlParser.kt\nPollJob.kt\nUpsParser.kt\nWiring.kt\nDhlParserTest.kt\nPollJobTest.kt\nUpsParserTest.kt\n",
       text="Let me look at the importer module first.")
s.reads([K + "CarrierClient.kt", K + "PollJob.kt"])
s.read("importer/build.gradle.kts")
s.read("core/src/main/kotlin/com/parcelly/core/Shipment.kt")
s.bash("cat gradle/libs.versions.toml | sed -n '1,40p'",
       "[versions]\nkotlin = \"2.0.21\"\nktor = \"2.3.12\"\ncoroutines = \"1.9.0\"\nexposed = \"0.55.0\"\nslf4j = \"2.0.16\"\nktlint-plugin = \"12.1.1\"\n\n"
       "[libraries]\nktor-client-core = { module = \"io.ktor:ktor-client-core\", version.ref = \"ktor\" }\nktor-client-cio = { module = \"io.ktor:ktor-client-cio\", version.ref = \"ktor\" }\n"
       "ktor-client-mock = { module = \"io.ktor:ktor-client-mock\", version.ref = \"ktor\" }\nkotlinx-coroutines-core = { module = \"org.jetbrains.kotlinx:kotlinx-coroutines-core\", version.ref = \"coroutines\" }\n"
       "kotlinx-coroutines-test = { module = \"org.jetbrains.kotlinx:kotlinx-coroutines-test\", version.ref = \"coroutines\" }\nslf4j-api = { module = \"org.slf4j:slf4j-api\", version.ref = \"slf4j\" }\n")
s.bash("grep -rn 'HttpCarrierClient(' --include=*.kt .",
       "./importer/src/main/kotlin/com/parcelly/importer/Wiring.kt:18:        \"dhl\" to HttpCarrierClient(\"dhl\", cfg.dhlUrl, cfg.dhlKey, http, DhlParser::parse),\n"
       "./importer/src/main/kotlin/com/parcelly/importer/Wiring.kt:19:        \"ups\" to HttpCarrierClient(\"ups\", cfg.upsUrl, cfg.upsKey, http, UpsParser::parse),\n")
s.bash("grep -rn 'resilience4j\\|retry' --include=*.kts --include=*.toml --include=*.kt . | head", "(no output)")
s.bash("grep -c 'HTTP 429' logs/importer-2025-09-28.log; grep 'Retry-After' -m3 logs/ups-sample-headers.txt",
       "1904\nRetry-After: 120\nRetry-After: Wed, 28 Sep 2025 14:02:00 GMT\nRetry-After: 30\n")
s.bash("./gradlew :importer:test --console=plain -q 2>&1 | tail -3", "ImporterTests > 41 tests completed, 0 failed\n")
s.assistant(
    "Here is what I found and what I'd propose.\n\n"
    "Nothing in `:core` needs to change: `CarrierClient` is an interface in `:importer`, and `HttpCarrierClient` already "
    "throws a `CarrierHttpException` carrying the status and the raw `Retry-After` header. So the whole change can be a "
    "decorator in `:importer`, `RetryingCarrierClient(delegate, policy, breaker)`, wired in `Wiring.kt` around the two HTTP "
    "clients. No new dependency either: the retry loop and the breaker are about 100 lines of Kotlin with coroutines' `delay`, "
    "and `kotlinx-coroutines-test` (already a test dependency) gives virtual time for the tests.\n\n"
    "Two things from the logs: there were 1,904 `HTTP 429` warnings yesterday, and UPS sends `Retry-After` in both forms, "
    "seconds (`120`, `30`) and an HTTP date (`Wed, 28 Sep 2025 14:02:00 GMT`), so both must be parsed.\n\n"
    "One more thing I noticed while reading: `HttpCarrierClient` logs the full URL at DEBUG, and the URL contains `?apikey=...`, "
    "so the carrier keys end up in the logs whenever DEBUG is on.\n\n"
    "Proposed defaults: 4 attempts in total, backoff 500 ms doubling up to 30 s with full jitter, `Retry-After` wins when present "
    "(capped at 5 minutes); the breaker opens after 5 consecutive failures and lets one trial call through after 60 s."
)

# ============================================================================================ turn 2
s.user(
    "That sounds right, and thank you for spotting the API key, that one is embarrassing. Could we also make sure the key never "
    "appears in a log line from now on, including in exception messages? About the numbers: 4 attempts and the 30 second cap are "
    "fine, but I would rather not have the Retry-After cap at 5 minutes, because the poll interval is 15 minutes anyway and a "
    "retry that waits longer than a couple of minutes holds the whole PollJob loop for that carrier; would it be reasonable to say "
    "that if Retry-After asks for more than 60 seconds we give up on this cycle instead of waiting? And could we keep the polling "
    "interval itself at 15 minutes, the carriers' contracts are priced on it."
)
POLICY = '''package com.parcelly.importer

import java.time.Clock
import java.time.ZonedDateTime
import java.time.format.DateTimeFormatter
import kotlin.random.Random
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlin.time.toKotlinDuration

/**
 * When to retry a carrier call and how long to wait. Retry-After wins over the backoff; a
 * Retry-After longer than [maxRetryAfter] means "give up this cycle" (PollJob runs every 15 min).
 */
data class RetryPolicy(
    val maxAttempts: Int = 4,
    val baseDelay: Duration = 500.milliseconds,
    val maxDelay: Duration = 30.seconds,
    val maxRetryAfter: Duration = 60.seconds,
    val random: Random = Random.Default,
    val clock: Clock = Clock.systemUTC(),
) {
    fun retryable(status: Int): Boolean = status == 429 || status in 500..599

    /** Full jitter: a random delay between 0 and min(maxDelay, base * 2^(attempt-1)). */
    fun backoff(attempt: Int): Duration {
        val ceiling = (baseDelay * (1 shl (attempt - 1)).toDouble()).coerceAtMost(maxDelay)
        return (ceiling.inWholeMilliseconds * random.nextDouble()).toLong().milliseconds
    }

    /** Seconds ("120") or an HTTP date ("Wed, 28 Sep 2025 14:02:00 GMT"); null if absent or unreadable. */
    fun parseRetryAfter(header: String?): Duration? {
        val value = header?.trim() ?: return null
        value.toLongOrNull()?.let { return it.seconds }
        val at = ZonedDateTime.parse(value, DateTimeFormatter.ISO_ZONED_DATE_TIME)
        return java.time.Duration.between(clock.instant(), at.toInstant()).toKotlinDuration()
    }
}
'''
s.write(K + "RetryPolicy.kt", POLICY, text="Agreed on all three. Starting with the policy: 4 attempts, 500 ms doubling to 30 s, and a Retry-After over 60 s means giving up this cycle.")
RETRYING = '''package com.parcelly.importer

import com.parcelly.core.TrackingEvent
import kotlinx.coroutines.delay
import org.slf4j.LoggerFactory

class CarrierUnavailableException(val carrier: String, reason: String) : RuntimeException("$carrier unavailable: $reason")

/** Decorates a [CarrierClient] with retries ([RetryPolicy]) and a per-carrier [CircuitBreaker]. */
class RetryingCarrierClient(
    private val delegate: CarrierClient,
    private val policy: RetryPolicy,
    private val breaker: CircuitBreaker,
) : CarrierClient {
    override val carrier: String get() = delegate.carrier
    private val log = LoggerFactory.getLogger(RetryingCarrierClient::class.java)

    override suspend fun events(trackingNumber: String): List<TrackingEvent> =
        breaker.guard { retrying { delegate.events(trackingNumber) } }

    private fun <T> retrying(block: () -> T): T {
        var attempt = 1
        while (true) {
            try {
                return block()
            } catch (e: CarrierHttpException) {
                if (!policy.retryable(e.status) || attempt > policy.maxAttempts) throw e
                val wait = policy.parseRetryAfter(e.retryAfter) ?: policy.backoff(attempt)
                if (wait > policy.maxRetryAfter) throw CarrierUnavailableException(carrier, "Retry-After $wait")
                log.info("{} HTTP {}, attempt {} of {}, retrying in {}", carrier, e.status, attempt, policy.maxAttempts, wait)
                delay(wait)
                attempt++
            }
        }
    }
}
'''
s.write(K + "RetryingCarrierClient.kt", RETRYING)
BREAKER = '''package com.parcelly.importer

import java.time.Clock
import java.time.Instant
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds
import kotlin.time.toJavaDuration

/**
 * Closed -> (failureThreshold consecutive failures) -> open for [openFor] -> half-open: one trial
 * call; success closes, failure opens again. One instance per carrier.
 */
class CircuitBreaker(
    private val carrier: String,
    private val failureThreshold: Int = 5,
    private val openFor: Duration = 60.seconds,
    private val clock: Clock = Clock.systemUTC(),
) {
    enum class State { CLOSED, OPEN, HALF_OPEN }

    var state: State = State.CLOSED
        private set
    private var failures = 0
    private var openedAt: Instant = Instant.EPOCH

    suspend fun <T> guard(block: suspend () -> T): T {
        if (state == State.OPEN) {
            if (clock.instant() < openedAt.plus(openFor.toJavaDuration())) {
                throw CarrierUnavailableException(carrier, "circuit open")
            }
            state = State.HALF_OPEN
        }
        return try {
            block().also {
                failures = 0
                state = State.CLOSED
            }
        } catch (e: CarrierHttpException) {
            failures++
            if (state == State.HALF_OPEN || failures >= failureThreshold) {
                state = State.OPEN
                openedAt = clock.instant()
            }
            throw e
        }
    }
}
'''
s.write(K + "CircuitBreaker.kt", BREAKER)
s.bash(
    "./gradlew :importer:compileKotlin --console=plain",
    GRADLE_HEAD + "> Task :importer:compileKotlin FAILED\n"
    "e: file:///home/ines/code/parcelly/importer/src/main/kotlin/com/parcelly/importer/RetryingCarrierClient.kt:18:39 Suspension functions can only be called within coroutine body.\n"
    "e: file:///home/ines/code/parcelly/importer/src/main/kotlin/com/parcelly/importer/RetryingCarrierClient.kt:33:17 Suspension functions can only be called within coroutine body.\n\n"
    "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':importer:compileKotlin'.\n"
    "> A failure occurred while executing org.jetbrains.kotlin.compilerRunner.GradleCompilerRunnerWithWorkers$GradleKotlinCompilerWorkAction\n"
    "   > Compilation error. See log for more details\n\n* Try:\n> Run with --stacktrace option to get the stack trace.\n> Run with --info or --debug option to get more log output.\n> Run with --scan to get full insights.\n> Get more help at https://help.gradle.org.\n\n"
    "BUILD FAILED in 6s\n4 actionable tasks: 1 executed, 3 up-to-date",
    code=1,
)
s.edit(K + "RetryingCarrierClient.kt", "    private fun <T> retrying(block: () -> T): T {", "    private suspend fun <T> retrying(block: suspend () -> T): T {",
       text="`retrying` and its block must both be `suspend`: the block calls `delegate.events` and the loop calls `delay`.")
s.bash("./gradlew :importer:compileKotlin --console=plain -q", "(no output)")
# redact the key
s.edit(
    K + "CarrierClient.kt",
    '        val url = "$baseUrl/track/$trackingNumber?apikey=$apiKey"\n        log.debug("GET {}", url)\n        val response = http.get(url)\n',
    '        log.debug("GET {}/track/{}", baseUrl, trackingNumber)\n        val response = http.get("$baseUrl/track/$trackingNumber") {\n            header("X-Api-Key", apiKey)\n        }\n',
    text="Now the key: instead of redacting it from the URL I'll send it as a header, so it is never part of a URL that can be logged or end up in an exception.",
)
s.edit(K + "CarrierClient.kt", "import io.ktor.client.request.get\n", "import io.ktor.client.request.get\nimport io.ktor.client.request.header\n")
s.bash("grep -rn 'apikey\\|apiKey' --include=*.kt importer/src/main api/src/main | grep -v 'private val apiKey'",
       "importer/src/main/kotlin/com/parcelly/importer/CarrierClient.kt:33:            header(\"X-Api-Key\", apiKey)\nimporter/src/main/kotlin/com/parcelly/importer/Wiring.kt:18:        \"dhl\" to HttpCarrierClient(\"dhl\", cfg.dhlUrl, cfg.dhlKey, http, DhlParser::parse),\n")
s.bash("curl -s -o /dev/null -w '%{http_code}\\n' -H \"X-Api-Key: $DHL_SANDBOX_KEY\" https://api-sandbox.dhl.com/track/shipments/00340434161094042557; curl -s -o /dev/null -w '%{http_code}\\n' -H \"X-Api-Key: $UPS_SANDBOX_KEY\" https://wwwcie.ups.com/track/v1/details/1Z12345E0205271688",
       "200\n401\n")
s.bash("grep -n 'apikey\\|AccessLicenseNumber' docs/carriers/ups.md | head -5", "12:UPS Tracking v1 authenticates with the header `AccessLicenseNumber: <key>` (not a query parameter, not X-Api-Key).\n")
s.edit(K + "CarrierClient.kt", 'class HttpCarrierClient(\n    override val carrier: String,\n    private val baseUrl: String,\n    private val apiKey: String,\n',
       'class HttpCarrierClient(\n    override val carrier: String,\n    private val baseUrl: String,\n    private val apiKey: String,\n    /** The header the carrier expects its key in (DHL: X-Api-Key, UPS: AccessLicenseNumber). */\n    private val keyHeader: String,\n')
s.edit(K + "CarrierClient.kt", '            header("X-Api-Key", apiKey)\n', "            header(keyHeader, apiKey)\n")
s.bash("sed -i 's/cfg.dhlKey, http/cfg.dhlKey, \"X-Api-Key\", http/; s/cfg.upsKey, http/cfg.upsKey, \"AccessLicenseNumber\", http/' importer/src/main/kotlin/com/parcelly/importer/Wiring.kt && sed -n '15,24p' importer/src/main/kotlin/com/parcelly/importer/Wiring.kt",
       "    val http = HttpClient(CIO) { expectSuccess = false }\n    val clients = mapOf(\n        \"dhl\" to HttpCarrierClient(\"dhl\", cfg.dhlUrl, cfg.dhlKey, \"X-Api-Key\", http, DhlParser::parse),\n        \"ups\" to HttpCarrierClient(\"ups\", cfg.upsUrl, cfg.upsKey, \"AccessLicenseNumber\", http, UpsParser::parse),\n    )\n    return PollJob(repo, clients.mapValues { (_, c) -> c })\n}\n")
s.assistant(
    "Compiles now. The key is no longer in any URL: `HttpCarrierClient` sends it in a header, and the sandbox showed the header name "
    "differs per carrier (DHL 200 with `X-Api-Key`, UPS 401; `docs/carriers/ups.md` says UPS wants `AccessLicenseNumber`), so the header "
    "name is a constructor parameter set in `Wiring.kt`. The DEBUG line logs `baseUrl/track/<number>` only, and `CarrierHttpException`'s "
    "message holds only the carrier and status. Next: tests, then wiring the retrying decorator."
)

# ============================================================================================ turn 3
s.user("Yes please, tests first. Is it possible to test the waiting without the tests actually sleeping? The CI runners are slow enough already.")
TEST = '''package com.parcelly.importer

import com.parcelly.core.TrackingEvent
import kotlinx.coroutines.test.currentTime
import kotlinx.coroutines.test.runTest
import java.time.Clock
import java.time.Instant
import java.time.ZoneOffset
import kotlin.random.Random
import kotlin.test.Test
import kotlin.test.assertEquals
import kotlin.test.assertFailsWith

private class ScriptedClient(vararg outcomes: Int, private val retryAfter: String? = null) : CarrierClient {
    override val carrier = "ups"
    private val script = outcomes.toMutableList()
    var calls = 0

    override suspend fun events(trackingNumber: String): List<TrackingEvent> {
        calls++
        val status = script.removeFirstOrNull() ?: 200
        if (status != 200) throw CarrierHttpException(carrier, status, retryAfter)
        return emptyList()
    }
}

private val FIXED = Clock.fixed(Instant.parse("2025-09-28T14:00:00Z"), ZoneOffset.UTC)
private fun policy() = RetryPolicy(random = Random(7), clock = FIXED)

class RetryingCarrierClientTest {
    @Test
    fun `retries 503 then succeeds`() = runTest {
        val fake = ScriptedClient(503, 503)
        RetryingCarrierClient(fake, policy(), CircuitBreaker("ups", clock = FIXED)).events("1Z")
        assertEquals(3, fake.calls)
    }

    @Test
    fun `gives up after maxAttempts`() = runTest {
        val fake = ScriptedClient(500, 500, 500, 500, 500, 500)
        assertFailsWith<CarrierHttpException> {
            RetryingCarrierClient(fake, policy(), CircuitBreaker("ups", clock = FIXED)).events("1Z")
        }
        assertEquals(4, fake.calls)
    }

    @Test
    fun `does not retry 404`() = runTest {
        val fake = ScriptedClient(404)
        assertFailsWith<CarrierHttpException> {
            RetryingCarrierClient(fake, policy(), CircuitBreaker("ups", clock = FIXED)).events("1Z")
        }
        assertEquals(1, fake.calls)
    }

    @Test
    fun `honours Retry-After seconds on virtual time`() = runTest {
        val fake = ScriptedClient(429, retryAfter = "20")
        RetryingCarrierClient(fake, policy(), CircuitBreaker("ups", clock = FIXED)).events("1Z")
        assertEquals(20_000, currentTime)
    }

    @Test
    fun `Retry-After as HTTP date`() = runTest {
        val fake = ScriptedClient(429, retryAfter = "Sun, 28 Sep 2025 14:00:45 GMT")
        RetryingCarrierClient(fake, policy(), CircuitBreaker("ups", clock = FIXED)).events("1Z")
        assertEquals(45_000, currentTime)
    }

    @Test
    fun `Retry-After over 60s gives up this cycle`() = runTest {
        val fake = ScriptedClient(429, retryAfter = "120")
        assertFailsWith<CarrierUnavailableException> {
            RetryingCarrierClient(fake, policy(), CircuitBreaker("ups", clock = FIXED)).events("1Z")
        }
        assertEquals(1, fake.calls)
    }
}
'''
s.write(T + "RetryingCarrierClientTest.kt", TEST, text="Yes: `runTest` runs `delay` on virtual time, so a 20 s Retry-After takes no real time and `currentTime` shows how long it would have waited.")
s.bash(
    "./gradlew :importer:test --console=plain",
    GRADLE_HEAD + "> Task :importer:compileKotlin UP-TO-DATE\n> Task :importer:compileTestKotlin\n> Task :importer:test\n\n"
    "RetryingCarrierClientTest > Retry-After as HTTP date() FAILED\n"
    "    java.time.format.DateTimeParseException: Text 'Sun, 28 Sep 2025 14:00:45 GMT' could not be parsed at index 0\n"
    "        at java.base/java.time.format.DateTimeFormatter.parseResolved0(DateTimeFormatter.java:2108)\n"
    "        at java.base/java.time.format.DateTimeFormatter.parse(DateTimeFormatter.java:2010)\n"
    "        at java.base/java.time.ZonedDateTime.parse(ZonedDateTime.java:598)\n"
    "        at com.parcelly.importer.RetryPolicy.parseRetryAfter(RetryPolicy.kt:38)\n"
    "        at com.parcelly.importer.RetryingCarrierClient.retrying(RetryingCarrierClient.kt:30)\n"
    "        at com.parcelly.importer.RetryingCarrierClient$retrying$1.invokeSuspend(RetryingCarrierClient.kt)\n"
    "        at kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)\n"
    "        at kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:104)\n"
    "        at kotlinx.coroutines.test.TestDispatcher.processEvent$kotlinx_coroutines_test(TestDispatcher.kt:24)\n"
    "        at kotlinx.coroutines.test.TestCoroutineScheduler.tryRunNextTaskUnless$kotlinx_coroutines_test(TestCoroutineScheduler.kt:99)\n"
    "        at kotlinx.coroutines.test.TestBuildersKt__TestBuildersKt$runTest$2$1$workRunner$1.invokeSuspend(TestBuilders.kt:326)\n"
    "        at kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)\n"
    "        at kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:104)\n"
    "        at kotlinx.coroutines.EventLoopImplBase.processNextEvent(EventLoop.common.kt:277)\n"
    "        at kotlinx.coroutines.BlockingCoroutine.joinBlocking(Builders.kt:95)\n\n"
    "RetryingCarrierClientTest > gives up after maxAttempts() FAILED\n"
    "    org.opentest4j.AssertionFailedError: expected: <4> but was: <5>\n"
    "        at app//org.junit.jupiter.api.AssertionFailureBuilder.build(AssertionFailureBuilder.java:151)\n"
    "        at app//org.junit.jupiter.api.AssertionFailureBuilder.buildAndThrow(AssertionFailureBuilder.java:132)\n"
    "        at app//org.junit.jupiter.api.AssertEquals.failNotEqual(AssertEquals.java:197)\n"
    "        at app//org.junit.jupiter.api.AssertEquals.assertEquals(AssertEquals.java:150)\n"
    "        at app//kotlin.test.junit5.JUnit5Asserter.assertEquals(JUnitSupport.kt:32)\n"
    "        at app//kotlin.test.AssertionsKt__AssertionsKt.assertEquals(Assertions.kt:63)\n"
    "        at app//com.parcelly.importer.RetryingCarrierClientTest$gives up after maxAttempts$1.invokeSuspend(RetryingCarrierClientTest.kt:43)\n"
    "        at app//kotlin.coroutines.jvm.internal.BaseContinuationImpl.resumeWith(ContinuationImpl.kt:33)\n\n"
    "ImporterTests > 47 tests completed, 2 failed\n\n> Task :importer:test FAILED\n\nFAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':importer:test'.\n"
    "> There were failing tests. See the report at: file:///home/ines/code/parcelly/importer/build/reports/tests/test/index.html\n\nBUILD FAILED in 9s",
    code=1,
)
s.edit(K + "RetryPolicy.kt", "        val at = ZonedDateTime.parse(value, DateTimeFormatter.ISO_ZONED_DATE_TIME)\n",
       "        val at = runCatching { ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME) }.getOrNull() ?: return null\n",
       text="Two failures. The first: HTTP dates are RFC 1123, not ISO, so `ISO_ZONED_DATE_TIME` can't read them; using `RFC_1123_DATE_TIME`, and an unreadable header now falls back to the backoff instead of throwing.")
s.bash("sed -n '20,36p' importer/src/main/kotlin/com/parcelly/importer/RetryingCarrierClient.kt",
       "\n    private suspend fun <T> retrying(block: suspend () -> T): T {\n        var attempt = 1\n        while (true) {\n            try {\n                return block()\n            } catch (e: CarrierHttpException) {\n"
       "                if (!policy.retryable(e.status) || attempt > policy.maxAttempts) throw e\n                val wait = policy.parseRetryAfter(e.retryAfter) ?: policy.backoff(attempt)\n"
       "                if (wait > policy.maxRetryAfter) throw CarrierUnavailableException(carrier, \"Retry-After $wait\")\n"
       "                log.info(\"{} HTTP {}, attempt {} of {}, retrying in {}\", carrier, e.status, attempt, policy.maxAttempts, wait)\n                delay(wait)\n                attempt++\n            }\n        }\n    }\n")
s.edit(K + "RetryingCarrierClient.kt", "attempt > policy.maxAttempts) throw e", "attempt >= policy.maxAttempts) throw e",
       text="The second (`expected: <4> but was: <5>`) is an off-by-one in the loop: `attempt` starts at 1 and the check was `attempt > maxAttempts`, so the 4th failure still retried and made a 5th call. It must be `>=`.")
s.bash("./gradlew :importer:test --console=plain 2>&1 | tail -4", "ImporterTests > 47 tests completed, 0 failed\n\nBUILD SUCCESSFUL in 8s\n9 actionable tasks: 3 executed, 6 up-to-date")
s.bash("./gradlew :importer:test --console=plain --tests '*RetryingCarrierClientTest*' -i 2>&1 | grep -E 'attempt [0-9] of|Finished generating|tests completed'",
       "    ups HTTP 503, attempt 1 of 4, retrying in 364ms\n    ups HTTP 503, attempt 2 of 4, retrying in 871ms\n    ups HTTP 500, attempt 1 of 4, retrying in 364ms\n    ups HTTP 500, attempt 2 of 4, retrying in 871ms\n    ups HTTP 500, attempt 3 of 4, retrying in 1.627s\n    ups HTTP 429, attempt 1 of 4, retrying in 20s\n    ups HTTP 429, attempt 1 of 4, retrying in 45s\nImporterTests > 6 tests completed, 0 failed\n")
s.assistant(
    "All green: 47 importer tests (41 before + 6 new), the suite runs in 8 s. The two fixes were `RFC_1123_DATE_TIME` for HTTP-date "
    "`Retry-After` values (an unreadable one now falls back to the backoff) and `attempt >= maxAttempts` in the loop, so a call is tried "
    "at most 4 times. Nothing sleeps for real: the 20 s and 45 s waits in the log above pass on `runTest`'s virtual clock."
)

# ============================================================================================ turn 4
s.user(
    "Thank you, and I like that nothing sleeps, our CI will thank you too. Now the wiring: could we avoid "
    "changing PollJob's constructor? The api module builds a PollJob for the admin \"poll now\" button and I would rather not touch "
    "api in this change. And one more question: what happens to the other shipments of a carrier while its breaker is open, do we "
    "still make one failing call per shipment?"
)
s.bash("grep -rn 'PollJob(' --include=*.kt . | grep -v '^./importer/src/test'",
       "./importer/src/main/kotlin/com/parcelly/importer/Wiring.kt:21:    return PollJob(repo, clients.mapValues { (_, c) -> c })\n./api/src/main/kotlin/com/parcelly/api/AdminRoutes.kt:44:        val job = PollJob(shipments, importerClients)\n")
s.bash("sed -i 's/    return PollJob(repo, clients.mapValues { (_, c) -> c })/    return PollJob(repo, clients.mapValues { (name, c) -> RetryingCarrierClient(c, RetryPolicy(), CircuitBreaker(name)) })/' importer/src/main/kotlin/com/parcelly/importer/Wiring.kt && sed -n '15,22p' importer/src/main/kotlin/com/parcelly/importer/Wiring.kt",
       "    val http = HttpClient(CIO) { expectSuccess = false }\n    val clients = mapOf(\n        \"dhl\" to HttpCarrierClient(\"dhl\", cfg.dhlUrl, cfg.dhlKey, \"X-Api-Key\", http, DhlParser::parse),\n"
       "        \"ups\" to HttpCarrierClient(\"ups\", cfg.upsUrl, cfg.upsKey, \"AccessLicenseNumber\", http, UpsParser::parse),\n    )\n"
       "    return PollJob(repo, clients.mapValues { (name, c) -> RetryingCarrierClient(c, RetryPolicy(), CircuitBreaker(name)) })\n}\n")
s.edit(K + "PollJob.kt", "            } catch (e: CarrierHttpException) {\n                log.warn(\"{} failed for {}: HTTP {}\", e.carrier, shipment.trackingNumber, e.status)\n            }\n",
       "            } catch (e: CarrierHttpException) {\n                log.warn(\"{} failed for {}: HTTP {}\", e.carrier, shipment.trackingNumber, e.status)\n            } catch (e: CarrierUnavailableException) {\n                skipped[e.carrier] = (skipped[e.carrier] ?: 0) + 1\n            }\n        }\n        for ((carrier, n) in skipped) {\n            log.warn(\"{} unavailable, skipped {} shipments this cycle\", carrier, n)\n",
       text="PollJob's constructor stays as it is; the decorator is applied in `Wiring.kt`. In `runOnce` I only add a catch for `CarrierUnavailableException`, counted per carrier and logged once per cycle instead of once per shipment.")
s.edit(K + "PollJob.kt", "        var stored = 0\n", "        var stored = 0\n        val skipped = mutableMapOf<String, Int>()\n")
s.bash("./gradlew :importer:test :api:compileKotlin --console=plain 2>&1 | tail -4", "ImporterTests > 47 tests completed, 0 failed\n\nBUILD SUCCESSFUL in 11s\n13 actionable tasks: 5 executed, 8 up-to-date")
s.assistant(
    "Wired without touching `PollJob`'s constructor or the api module: `Wiring.kt` wraps each HTTP client in `RetryingCarrierClient(c, RetryPolicy(), CircuitBreaker(name))`. "
    "Note that the admin \"poll now\" in `api/.../AdminRoutes.kt:44` builds its own `PollJob` from `importerClients`, so it gets the decorated clients only if "
    "`importerClients` comes from `Wiring.kt`; I did not change api to check.\n\n"
    "To your question: while a breaker is open, each shipment of that carrier costs no HTTP call; `guard` throws `CarrierUnavailableException` immediately, and "
    "PollJob now counts those and logs one line per carrier per cycle (`ups unavailable, skipped N shipments this cycle`) instead of one warning per shipment. "
    "After 60 s one trial call goes through (half-open)."
)

# ============================================================================================ turn 5
s.user(
    "That's what I hoped for. I checked AdminRoutes and importerClients does come from Wiring, so the button gets the retries as well, good. "
    "Could you run the whole build once, ktlint included, and then write the PR description? I also want a metric for retries and breaker "
    "openings eventually, but we haven't settled on Micrometer versus the OpenTelemetry SDK yet, so let's leave metrics out of this PR."
)
s.bash("./gradlew build --console=plain 2>&1 | tail -12",
       "> Task :importer:ktlintMainSourceSetCheck FAILED\n\n"
       "/home/ines/code/parcelly/importer/src/main/kotlin/com/parcelly/importer/Wiring.kt:21:1 Exceeded max line length (120) (cannot be auto-corrected) (standard:max-line-length)\n\n"
       "FAILURE: Build failed with an exception.\n\n* What went wrong:\nExecution failed for task ':importer:ktlintMainSourceSetCheck'.\n> A failure occurred while executing org.jlleitschuh.gradle.ktlint.worker.ConsoleReportWorkAction\n   > KtLint found code style violations. Please see the following reports:\n     - /home/ines/code/parcelly/importer/build/reports/ktlint/ktlintMainSourceSetCheck/ktlintMainSourceSetCheck.txt\n\nBUILD FAILED in 24s",
       code=1)
s.bash("sed -i 's/    return PollJob(repo, clients.mapValues { (name, c) -> RetryingCarrierClient(c, RetryPolicy(), CircuitBreaker(name)) })/    val resilient = clients.mapValues { (name, c) -> RetryingCarrierClient(c, RetryPolicy(), CircuitBreaker(name)) }\\n    return PollJob(repo, resilient)/' importer/src/main/kotlin/com/parcelly/importer/Wiring.kt && ./gradlew build --console=plain 2>&1 | tail -3",
       "BUILD SUCCESSFUL in 31s\n38 actionable tasks: 12 executed, 26 up-to-date\n")
s.bash("git diff --stat", " importer/src/main/kotlin/com/parcelly/importer/CarrierClient.kt  | 11 ++++++---\n importer/src/main/kotlin/com/parcelly/importer/PollJob.kt        |  8 +++++++\n importer/src/main/kotlin/com/parcelly/importer/Wiring.kt         |  7 +++---\n 3 files changed, 20 insertions(+), 6 deletions(-)\n")
s.bash("git status --short", " M importer/src/main/kotlin/com/parcelly/importer/CarrierClient.kt\n M importer/src/main/kotlin/com/parcelly/importer/PollJob.kt\n M importer/src/main/kotlin/com/parcelly/importer/Wiring.kt\n?? importer/src/main/kotlin/com/parcelly/importer/CircuitBreaker.kt\n?? importer/src/main/kotlin/com/parcelly/importer/RetryPolicy.kt\n?? importer/src/main/kotlin/com/parcelly/importer/RetryingCarrierClient.kt\n?? importer/src/test/kotlin/com/parcelly/importer/RetryingCarrierClientTest.kt\n")
PR = '''## Carrier calls: retries, Retry-After, circuit breaker; API keys out of URLs

**Why**: a carrier's bad minute cost a whole 15-minute polling cycle (UPS 429s on 2025-09-28: 1,904 warnings).

**What** (all in `:importer`; `:core` and `:api` untouched, `PollJob`'s constructor unchanged, no new dependency):
- `RetryPolicy`: 4 attempts, backoff 500 ms doubling to 30 s with full jitter; retries 429 and 5xx only; `Retry-After` (seconds or RFC 1123 date) wins, and over 60 s we give up this cycle.
- `CircuitBreaker` per carrier: opens after 5 consecutive failures, one trial call after 60 s.
- `RetryingCarrierClient` decorates each `HttpCarrierClient` in `Wiring.kt` (the admin "poll now" gets it too).
- `PollJob` logs one line per unavailable carrier per cycle instead of one per shipment.
- Carrier keys go in a header (DHL `X-Api-Key`, UPS `AccessLicenseNumber`), never in a URL or log line.

**Tests**: `RetryingCarrierClientTest` (6 tests, virtual time, no sleeping). 47 importer tests, `./gradlew build` green.

**Not in this PR**: metrics for retries and breaker openings (Micrometer vs OpenTelemetry not decided yet).
'''
s.write("PR_DESCRIPTION.md", PR, text="Build is green after splitting an over-long line in `Wiring.kt` (ktlint max-line-length 120). PR description:")
s.assistant("`./gradlew build` passes (ktlint included). The PR description is in `PR_DESCRIPTION.md` (untracked, not for committing). Metrics are listed there as not in this PR.")

# ============================================================================================ turn 6
s.user("Lovely. Would you mind committing everything except PR_DESCRIPTION.md on a branch called importer-retries? I'll push it myself after lunch.")
s.bash("git switch -c importer-retries && git add importer && git commit -qm 'importer: retries with backoff, Retry-After, per-carrier circuit breaker; keys in headers' && git log --oneline -1 && git status --short",
       "Switched to a new branch 'importer-retries'\n3c81e9a (HEAD -> importer-retries) importer: retries with backoff, Retry-After, per-carrier circuit breaker; keys in headers\n?? PR_DESCRIPTION.md\n")
s.assistant("Committed as 3c81e9a on `importer-retries`; `PR_DESCRIPTION.md` stays untracked. Nothing pushed.")

s.save(HERE / "session.jsonl")
