# ruff: noqa: E501, W293  (transcript text: long lines and patch context lines are data)
"""Write session.jsonl: a synthetic Codex CLI rollout (written by hand for the retention corpus).

A Java 21 + Gradle + JUnit 5 repository; the user replaces a homegrown rate cache. Run:
    python make_session.py   (writes session.jsonl next to this file)
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).resolve().parent
CWD = "/home/marta/code/ledgerline"
SID = "019a3c7e-81f2-7b40-a6d1-5c2e9f0b7d13"

lines: list[dict] = []
clock = datetime(2025, 11, 18, 8, 41, 7, 120000, tzinfo=UTC)
total_in = 0
total_out = 0
context = 9000  # the prompt the model sees grows with the session
n_call = 0


def ts(step: float = 2.0) -> str:
    global clock
    clock += timedelta(seconds=step)
    return clock.strftime("%Y-%m-%dT%H:%M:%S.") + f"{clock.microsecond // 1000:03d}Z"


def rec(kind: str, payload: dict, step: float = 1.5) -> None:
    lines.append({"timestamp": ts(step), "type": kind, "payload": payload})


def grow(text: str) -> None:
    global context
    context += len(text) // 4 + 12


def token_count(out_tokens: int) -> None:
    global total_in, total_out
    cached = max(context - 1800, 0)
    total_in += context
    total_out += out_tokens
    info = {
        "total_token_usage": {
            "input_tokens": total_in,
            "cached_input_tokens": int(total_in * 0.82),
            "output_tokens": total_out,
            "reasoning_output_tokens": total_out // 3,
            "total_tokens": total_in + total_out,
        },
        "last_token_usage": {
            "input_tokens": context,
            "cached_input_tokens": cached,
            "output_tokens": out_tokens,
            "reasoning_output_tokens": out_tokens // 3,
            "total_tokens": context + out_tokens,
        },
        "model_context_window": 272000,
    }
    rec("event_msg", {"type": "token_count", "info": info, "rate_limits": None}, 0.3)


def turn_context() -> None:
    rec(
        "turn_context",
        {
            "cwd": CWD,
            "approval_policy": "on-request",
            "sandbox_policy": {"type": "workspace-write", "network_access": False},
            "model": "gpt-5-codex",
            "effort": "medium",
            "summary": "auto",
        },
        0.2,
    )


def user(text: str) -> None:
    turn_context()
    rec(
        "response_item",
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]},
        20,
    )
    rec("event_msg", {"type": "user_message", "message": text, "images": []}, 0.1)
    grow(text)


def reasoning(text: str) -> None:
    rec(
        "response_item",
        {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": text}],
            "content": None,
            "encrypted_content": "gAAAAABpHDk" + "x" * 40,
        },
        4,
    )


def say(text: str, think: str | None = None) -> None:
    if think:
        reasoning(think)
    rec(
        "response_item",
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]},
        3,
    )
    rec("event_msg", {"type": "agent_message", "message": text}, 0.1)
    grow(text)
    token_count(len(text) // 4 + 60)


def exec_(
    cmd: str, output: str, code: int = 0, wall: float = 0.4, think: str | None = None, text: str | None = None
) -> None:
    global n_call
    n_call += 1
    if think:
        reasoning(think)
    if text:
        rec(
            "response_item",
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]},
            2,
        )
        grow(text)
    call_id = f"call_{n_call:02d}{SID[-6:]}{n_call * 7919 % 10000:04d}"
    args = {"cmd": cmd, "workdir": CWD, "yield_time_ms": 10000}
    rec(
        "response_item",
        {"type": "function_call", "name": "exec_command", "arguments": json.dumps(args), "call_id": call_id},
        3,
    )
    token_count(len(cmd) // 4 + 40)
    body = (
        f"Chunk ID: {n_call * 104729 % 1000000:06x}\nWall time: {wall:.4f} seconds\n"
        f"Process exited with code {code}\nOriginal token count: {len(output) // 4}\nOutput:\n{output}"
    )
    rec("response_item", {"type": "function_call_output", "call_id": call_id, "output": body}, wall + 0.3)
    grow(body)


def patch(text: str, changed: str, think: str | None = None) -> None:
    global n_call
    n_call += 1
    if think:
        reasoning(think)
    call_id = f"call_{n_call:02d}{SID[-6:]}{n_call * 7919 % 10000:04d}"
    rec(
        "response_item",
        {
            "type": "custom_tool_call",
            "status": "completed",
            "call_id": call_id,
            "name": "apply_patch",
            "input": text,
        },
        6,
    )
    token_count(len(text) // 4 + 30)
    grow(text)
    out = {
        "output": f"Success. Updated the following files:\n{changed}\n",
        "metadata": {"exit_code": 0, "duration_seconds": 0.0},
    }
    rec(
        "response_item",
        {"type": "custom_tool_call_output", "call_id": call_id, "output": json.dumps(out)},
        0.4,
    )


# --- files of the repository, as the agent reads them ----------------------------------------

RATE_CACHE_OLD = """package com.ledgerline.rates;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Currency;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

/**
 * Caches the USD legs the provider returns and the cross rates computed from them.
 * An entry older than {@link #TTL} is dropped and loaded again on the next read.
 */
public final class RateCache {
    private static final Currency USD = Currency.getInstance("USD");
    static final Duration TTL = Duration.ofMinutes(10);

    private final RateProvider provider;
    private final Clock clock;
    private final ConcurrentHashMap<CurrencyPair, Stamped> entries = new ConcurrentHashMap<>();

    public RateCache(RateProvider provider, Clock clock) {
        this.provider = provider;
        this.clock = clock;
    }

    private record Stamped(BigDecimal rate, Instant at) {
        boolean olderThan(Instant limit) {
            return at.isBefore(limit);
        }
    }

    /**
     * The rate for a pair; loads it when absent or stale.
     *
     * <p>Cross rates (neither side USD) are derived from the two USD legs, which are cached
     * themselves: the provider bills per pair, so we never ask it for EUR/GBP directly.
     */
    public BigDecimal get(CurrencyPair pair) {
        Stamped s = entries.computeIfAbsent(pair, this::load);
        if (s.olderThan(clock.instant().minus(TTL))) {
            entries.remove(pair, s);
            return get(pair);
        }
        return s.rate();
    }

    private Stamped load(CurrencyPair p) {
        if (p.base().equals(USD) || p.quote().equals(USD)) {
            return new Stamped(provider.fetch(p), clock.instant());
        }
        BigDecimal base = get(new CurrencyPair(USD, p.base()));
        BigDecimal quote = get(new CurrencyPair(USD, p.quote()));
        return new Stamped(quote.divide(base, MathContext.DECIMAL64), clock.instant());
    }

    /** What is cached now, for the admin endpoint. */
    public Map<CurrencyPair, BigDecimal> snapshot() {
        return entries.entrySet().stream()
                .collect(Collectors.toUnmodifiableMap(Map.Entry::getKey, e -> e.getValue().rate()));
    }

    public void clear() {
        entries.clear();
    }
}
"""

RATE_SERVICE = """package com.ledgerline.rates;

import com.ledgerline.core.Money;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Currency;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Converts money between currencies. billing-api calls {@link #convert(Money, Currency)}. */
public class RateService {
    private static final Logger log = LoggerFactory.getLogger(RateService.class);

    private final RateCache cache;

    public RateService(RateCache cache) {
        this.cache = Objects.requireNonNull(cache);
    }

    /**
     * {@code amount} in {@code target}, rounded half-even to the target's minor units.
     *
     * @throws RateUnavailableException when no rate can be had for the pair
     */
    public Money convert(Money amount, Currency target) {
        if (amount.currency().equals(target)) {
            return amount;
        }
        BigDecimal rate = rateFor(new CurrencyPair(amount.currency(), target));
        BigDecimal converted = amount.value().multiply(rate)
                .setScale(target.getDefaultFractionDigits(), RoundingMode.HALF_EVEN);
        return new Money(converted, target);
    }

    BigDecimal rateFor(CurrencyPair pair) {
        try {
            return cache.get(pair);
        } catch (RuntimeException e) {
            log.warn("rate lookup failed for {}", pair, e);
            throw new RateUnavailableException("no rate for " + pair, e);
        }
    }
}
"""

RATE_PROVIDER = """package com.ledgerline.rates;

import java.math.BigDecimal;

/** Where USD legs come from (HTTP in production, a fake in tests). One call = one billed pair. */
public interface RateProvider {
    /** The rate of {@code pair}; one side of it is USD. */
    BigDecimal fetch(CurrencyPair pair);
}
"""

BUILD_RATES = """plugins {
    id("ledgerline.java-library")
}

dependencies {
    implementation(project(":core"))
    implementation("org.slf4j:slf4j-api:2.0.13")
    implementation("com.fasterxml.jackson.core:jackson-databind:2.17.1")

    testImplementation(platform("org.junit:junit-bom:5.10.2"))
    testImplementation("org.junit.jupiter:junit-jupiter")
    testImplementation("org.assertj:assertj-core:3.25.3")
    testImplementation("org.wiremock:wiremock-standalone:3.6.0")
    testRuntimeOnly("org.junit.platform:junit-platform-launcher")
}
"""

TRACE_JUNIT = "\n".join(
    f"\tat org.junit.{f}"
    for f in [
        "platform.commons.util.ReflectionUtils.invokeMethod(ReflectionUtils.java:728)",
        "jupiter.engine.execution.MethodInvocation.proceed(MethodInvocation.java:60)",
        "jupiter.engine.execution.InvocationInterceptorChain$ValidatingInvocation.proceed(InvocationInterceptorChain.java:131)",
        "jupiter.engine.extension.TimeoutExtension.intercept(TimeoutExtension.java:156)",
        "jupiter.engine.extension.TimeoutExtension.interceptTestableMethod(TimeoutExtension.java:147)",
        "jupiter.engine.extension.TimeoutExtension.interceptTestMethod(TimeoutExtension.java:86)",
        "jupiter.engine.execution.InterceptingExecutableInvoker$ReflectiveInterceptorCall.lambda$ofVoidMethod$0(InterceptingExecutableInvoker.java:103)",
        "jupiter.engine.execution.InterceptingExecutableInvoker.lambda$invoke$0(InterceptingExecutableInvoker.java:93)",
        "jupiter.engine.execution.InvocationInterceptorChain$InterceptedInvocation.proceed(InvocationInterceptorChain.java:106)",
        "jupiter.engine.execution.InvocationInterceptorChain.proceed(InvocationInterceptorChain.java:64)",
        "jupiter.engine.execution.InvocationInterceptorChain.chainAndInvoke(InvocationInterceptorChain.java:45)",
        "jupiter.engine.execution.InvocationInterceptorChain.invoke(InvocationInterceptorChain.java:37)",
        "jupiter.engine.execution.InterceptingExecutableInvoker.invoke(InterceptingExecutableInvoker.java:92)",
        "jupiter.engine.execution.InterceptingExecutableInvoker.invoke(InterceptingExecutableInvoker.java:86)",
        "jupiter.engine.descriptor.TestMethodTestDescriptor.lambda$invokeTestMethod$7(TestMethodTestDescriptor.java:218)",
        "platform.engine.support.hierarchical.ThrowableCollector.execute(ThrowableCollector.java:73)",
        "jupiter.engine.descriptor.TestMethodTestDescriptor.invokeTestMethod(TestMethodTestDescriptor.java:214)",
        "jupiter.engine.descriptor.TestMethodTestDescriptor.execute(TestMethodTestDescriptor.java:139)",
        "jupiter.engine.descriptor.TestMethodTestDescriptor.execute(TestMethodTestDescriptor.java:69)",
        "platform.engine.support.hierarchical.NodeTestTask.lambda$executeRecursively$6(NodeTestTask.java:151)",
        "platform.engine.support.hierarchical.ThrowableCollector.execute(ThrowableCollector.java:73)",
        "platform.engine.support.hierarchical.NodeTestTask.lambda$executeRecursively$8(NodeTestTask.java:141)",
        "platform.engine.support.hierarchical.Node.around(Node.java:137)",
        "platform.engine.support.hierarchical.NodeTestTask.lambda$executeRecursively$9(NodeTestTask.java:139)",
        "platform.engine.support.hierarchical.ThrowableCollector.execute(ThrowableCollector.java:73)",
        "platform.engine.support.hierarchical.NodeTestTask.executeRecursively(NodeTestTask.java:138)",
        "platform.engine.support.hierarchical.NodeTestTask.execute(NodeTestTask.java:95)",
        "platform.engine.support.hierarchical.SameThreadHierarchicalTestExecutorService.invokeAll(SameThreadHierarchicalTestExecutorService.java:41)",
        "platform.engine.support.hierarchical.NodeTestTask.lambda$executeRecursively$6(NodeTestTask.java:155)",
        "platform.engine.support.hierarchical.ThrowableCollector.execute(ThrowableCollector.java:73)",
        "platform.engine.support.hierarchical.NodeTestTask.lambda$executeRecursively$8(NodeTestTask.java:141)",
        "platform.engine.support.hierarchical.Node.around(Node.java:137)",
        "platform.launcher.core.EngineExecutionOrchestrator.execute(EngineExecutionOrchestrator.java:147)",
        "platform.launcher.core.DefaultLauncher.execute(DefaultLauncher.java:103)",
    ]
)

GRADLE_FRAMES = "\n".join(
    f"\tat org.gradle.{f}"
    for f in [
        "api.internal.tasks.testing.junitplatform.JUnitPlatformTestClassProcessor$CollectAllTestClassesExecutor.processAllTestClasses(JUnitPlatformTestClassProcessor.java:124)",
        "api.internal.tasks.testing.junitplatform.JUnitPlatformTestClassProcessor.stop(JUnitPlatformTestClassProcessor.java:80)",
        "api.internal.tasks.testing.SuiteTestClassProcessor.stop(SuiteTestClassProcessor.java:62)",
        "internal.dispatch.ReflectionDispatch.dispatch(ReflectionDispatch.java:36)",
        "internal.remote.internal.hub.MessageHubBackedObjectConnection$DispatchWrapper.dispatch(MessageHubBackedObjectConnection.java:182)",
        "api.internal.tasks.testing.worker.TestWorker$2.run(TestWorker.java:176)",
        "process.internal.worker.child.SystemApplicationClassLoaderWorker.call(SystemApplicationClassLoaderWorker.java:113)",
        "worker.org.gradle.process.internal.worker.GradleWorkerMain.main(GradleWorkerMain.java:74)",
    ]
)


def main() -> None:
    rec(
        "session_meta",
        {
            "id": SID,
            "timestamp": ts(0),
            "cwd": CWD,
            "originator": "codex_cli_rs",
            "cli_version": "0.63.0",
            "source": "cli",
            "model_provider": "openai",
            "base_instructions": {
                "text": "You are Codex, a coding agent based on GPT-5. You and the user share the same workspace."
            },
            "git": {
                "commit_hash": "4b1d9e07c2a35f8e61d0b94c7a2e5f13d8c06a21",
                "branch": "main",
                "repository_url": "git@github.com:ledgerline/ledgerline.git",
            },
        },
    )
    rec(
        "response_item",
        {
            "type": "message",
            "role": "developer",
            "content": [
                {
                    "type": "input_text",
                    "text": "<permissions instructions>\nFilesystem sandboxing: workspace-write. Network access is restricted. Approvals: on-request.\n</permissions instructions>",
                }
            ],
        },
    )
    rec(
        "response_item",
        {
            "type": "message",
            "role": "user",
            "content": [
                {
                    "type": "input_text",
                    "text": "# AGENTS.md instructions for /home/marta/code/ledgerline\n\n<INSTRUCTIONS>\nJava 21, Gradle wrapper only (never a system gradle). Run `./gradlew spotlessApply` before committing. Module boundaries: :core has no deps on other modules.\n</INSTRUCTIONS>",
                }
            ],
        },
    )
    rec(
        "response_item",
        {
            "type": "message",
            "role": "user",
            "content": [
                {
                    "type": "input_text",
                    "text": f"<environment_context>\n  <cwd>{CWD}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>zsh</shell>\n</environment_context>",
                }
            ],
        },
    )

    # --- turn 1 ------------------------------------------------------------------------------
    user("rates tests red on main. look")
    exec_(
        "git status -sb && git log --oneline -5",
        "## main...origin/main\n4b1d9e0 api: admin endpoint lists cached rates (#412)\n91c3f5a rates: cross rates derived from USD legs (#409)\n0e7a2d4 core: Money.of(String, String) factory\nd82b6c1 build: junit 5.10.2, assertj 3.25.3\n5f03a9e loadtest: convert scenario\n",
        think="**Checking the repository state**\n\nStart with git status and the recent history, then run the rates tests.",
    )
    exec_(
        "./gradlew :rates:test",
        """> Task :core:compileJava UP-TO-DATE
> Task :core:processResources NO-SOURCE
> Task :core:classes UP-TO-DATE
> Task :core:jar UP-TO-DATE
> Task :rates:compileJava UP-TO-DATE
> Task :rates:processResources NO-SOURCE
> Task :rates:classes UP-TO-DATE
> Task :rates:compileTestJava UP-TO-DATE
> Task :rates:processTestResources UP-TO-DATE
> Task :rates:testClasses UP-TO-DATE

> Task :rates:test

RateServiceTest > convertsEurToGbpViaUsd() FAILED
    com.ledgerline.rates.RateUnavailableException at RateService.java:45

RateServiceTest > crossRateIsCachedAfterFirstCall() FAILED
    com.ledgerline.rates.RateUnavailableException at RateService.java:45

23 tests completed, 2 failed

> Task :rates:test FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':rates:test'.
> There were failing tests. See the report at: file:///home/marta/code/ledgerline/rates/build/reports/tests/test/index.html

* Try:
> Run with --scan to get full insights.

BUILD FAILED in 9s
8 actionable tasks: 1 executed, 7 up-to-date
""",
        code=1,
        wall=11.2,
    )
    exec_(
        "sed -n '1,200p' rates/build/test-results/test/TEST-com.ledgerline.rates.RateServiceTest.xml | head -120",
        f"""<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.ledgerline.rates.RateServiceTest" tests="9" skipped="0" failures="2" errors="0" timestamp="2025-11-18T08:41:52" hostname="mk-thinkpad" time="0.412">
  <properties/>
  <testcase name="convertsSameCurrencyWithoutLookup()" classname="com.ledgerline.rates.RateServiceTest" time="0.021"/>
  <testcase name="convertsEurToGbpViaUsd()" classname="com.ledgerline.rates.RateServiceTest" time="0.094">
    <failure message="com.ledgerline.rates.RateUnavailableException: no rate for EUR/GBP" type="com.ledgerline.rates.RateUnavailableException">com.ledgerline.rates.RateUnavailableException: no rate for EUR/GBP
\tat com.ledgerline.rates.RateService.rateFor(RateService.java:45)
\tat com.ledgerline.rates.RateService.convert(RateService.java:31)
\tat com.ledgerline.rates.RateServiceTest.convertsEurToGbpViaUsd(RateServiceTest.java:58)
\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)
{TRACE_JUNIT}
{GRADLE_FRAMES}
Caused by: java.lang.IllegalStateException: Recursive update
\tat java.base/java.util.concurrent.ConcurrentHashMap.computeIfAbsent(ConcurrentHashMap.java:1763)
\tat com.ledgerline.rates.RateCache.get(RateCache.java:44)
\tat com.ledgerline.rates.RateCache.load(RateCache.java:56)
\tat java.base/java.util.concurrent.ConcurrentHashMap.computeIfAbsent(ConcurrentHashMap.java:1708)
\tat com.ledgerline.rates.RateCache.get(RateCache.java:44)
\tat com.ledgerline.rates.RateService.rateFor(RateService.java:42)
\t... 46 more
</failure>
  </testcase>
  <testcase name="crossRateIsCachedAfterFirstCall()" classname="com.ledgerline.rates.RateServiceTest" time="0.011">
    <failure message="com.ledgerline.rates.RateUnavailableException: no rate for CHF/JPY" type="com.ledgerline.rates.RateUnavailableException">com.ledgerline.rates.RateUnavailableException: no rate for CHF/JPY
\tat com.ledgerline.rates.RateService.rateFor(RateService.java:45)
\tat com.ledgerline.rates.RateService.convert(RateService.java:31)
\tat com.ledgerline.rates.RateServiceTest.crossRateIsCachedAfterFirstCall(RateServiceTest.java:74)
\tat java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
\tat java.base/java.lang.reflect.Method.invoke(Method.java:580)
{TRACE_JUNIT}
{GRADLE_FRAMES}
Caused by: java.lang.IllegalStateException: Recursive update
\tat java.base/java.util.concurrent.ConcurrentHashMap.computeIfAbsent(ConcurrentHashMap.java:1763)
\t... 6 more
</failure>
  </testcase>
""",
        wall=0.1,
        think="**Finding the real cause**\n\nThe console only shows the wrapper exception. The XML report has the full trace with the cause.",
    )
    exec_(
        "nl -ba rates/src/main/java/com/ledgerline/rates/RateCache.java",
        "\n".join(f"{i:6d}\t{ln}" for i, ln in enumerate(RATE_CACHE_OLD.splitlines(), 1)),
        wall=0.1,
    )
    exec_(
        "git show --stat 91c3f5a && git show 91c3f5a -- rates/src/main/java/com/ledgerline/rates/RateCache.java | head -60",
        """commit 91c3f5a8e2d47b06c1f3a95e8d20b7c4f6a1e3d9
Author: Jonas Brandt <jonas.brandt@ledgerline.io>
Date:   Mon Nov 17 17:12:44 2025 +0100

    rates: cross rates derived from USD legs (#409)

    The provider bills per pair; EUR/GBP was costing us a pair per currency
    combination. Derive cross rates from the two cached USD legs instead.

 rates/src/main/java/com/ledgerline/rates/RateCache.java       | 21 ++++++++++++++++-----
 rates/src/test/java/com/ledgerline/rates/RateServiceTest.java | 34 ++++++++++++++++++++++++++++++++++
 2 files changed, 50 insertions(+), 5 deletions(-)
diff --git a/rates/src/main/java/com/ledgerline/rates/RateCache.java b/rates/src/main/java/com/ledgerline/rates/RateCache.java
index 2f7c1d3..b9a4e60 100644
--- a/rates/src/main/java/com/ledgerline/rates/RateCache.java
+++ b/rates/src/main/java/com/ledgerline/rates/RateCache.java
@@ -49,8 +51,14 @@ public final class RateCache {
     private Stamped load(CurrencyPair p) {
-        return new Stamped(provider.fetch(p), clock.instant());
+        if (p.base().equals(USD) || p.quote().equals(USD)) {
+            return new Stamped(provider.fetch(p), clock.instant());
+        }
+        BigDecimal base = get(new CurrencyPair(USD, p.base()));
+        BigDecimal quote = get(new CurrencyPair(USD, p.quote()));
+        return new Stamped(quote.divide(base, MathContext.DECIMAL64), clock.instant());
     }
""",
        wall=0.1,
    )
    say(
        "Found it. The two failures are the same bug, and it comes from #409 (Jonas, yesterday):\n\n"
        "- The console only shows `RateUnavailableException at RateService.java:45`; that is the wrapper. The real cause is deep in the XML report: `Caused by: java.lang.IllegalStateException: Recursive update` at `ConcurrentHashMap.computeIfAbsent(ConcurrentHashMap.java:1763)`.\n"
        "- `RateCache.get` calls `entries.computeIfAbsent(pair, this::load)`, and for a cross pair `load` calls `get(USD/EUR)` and `get(USD/GBP)`, i.e. `computeIfAbsent` on the same map from inside its own mapping function. `ConcurrentHashMap` forbids that and throws `Recursive update` (when the keys land in the same bin; otherwise it can silently deadlock under load).\n\n"
        "Smallest fix: compute the USD legs *before* `computeIfAbsent` for cross pairs. Want that, or something bigger?",
        think="**Explaining the recursion**\n\nThe mapping function recurses into the same ConcurrentHashMap. Offer the small fix and ask.",
    )

    # --- turn 2: the long paragraph -----------------------------------------------------------
    user(
        "bigger. here is what I actually want since we are in there anyway: this RateCache is homegrown and it has been the source of three incidents this year (the stale-forever bug in March, the thundering herd on every TTL expiry in July, and now this), so I want it replaced with a real cache library, not patched again. We already have Guava on the classpath through :core so use Guava's CacheBuilder / LoadingCache and do not add any new dependency (security review for a new artifact takes two weeks and I want this merged this week). Entries expire 10 minutes after write, at most 5000 entries. Cross rates like EUR/GBP must still be computed from the two USD legs, never fetched from the provider directly, because the provider bills per pair (that was the point of #409). The public API of RateService must stay exactly as it is: billing-api calls RateService.convert(Money, Currency) and I do not want to touch the api module in this change. While you are at it I'd like the provider calls to become async (CompletableFuture) so that a refresh doesn't block request threads. Tests stay JUnit 5 and no Thread.sleep anywhere in tests, use a fake ticker for time. And the loadtest: p99 of convert() should end up under 10ms, right now it is somewhere around 40."
    )
    say(
        "Plan:\n\n1. Baseline the `convert` loadtest so we have a number to beat.\n2. Make `RateProvider` async: `CompletableFuture<BigDecimal> fetch(CurrencyPair)`.\n3. Replace `RateCache` internals with a Guava `LoadingCache<CurrencyPair, BigDecimal>` (`expireAfterWrite(10, MINUTES)`, `maximumSize(5000)`, a `Ticker` injected for tests); cross pairs computed from the two cached USD legs outside the loader, so no recursion.\n4. Keep `RateService.convert(Money, Currency)` unchanged.\n5. Tests with a fake `Ticker`, no sleeps; rerun the loadtest.",
        think="**Planning the replacement**\n\nGuava is on the classpath via :core's api configuration. Async provider, LoadingCache, fake ticker.",
    )
    exec_(
        "cat loadtest/README.md | sed -n '1,40p'; ls loadtest/src/main/java/com/ledgerline/loadtest",
        """# loadtest

Drives the rates and api modules in-process with a fake provider that answers
after a configurable delay (default 25 ms, the provider's median in prod).

    ./gradlew :loadtest:run --args='--scenario convert --duration 30s --threads 16'

Prints latency percentiles (HdrHistogram), throughput and the JVM heap at the end.
The loadtest JVM runs with -Xmx1g (see loadtest/build.gradle.kts).
ConvertScenario.java
LoadtestMain.java
FakeProvider.java
Report.java
""",
        wall=0.1,
    )
    exec_(
        "cat loadtest/build.gradle.kts",
        """plugins {
    id("ledgerline.java-application")
}

application {
    mainClass = "com.ledgerline.loadtest.LoadtestMain"
    // Same heap as one billing-api pod, so heap numbers mean something.
    applicationDefaultJvmArgs = listOf("-Xmx1g", "-XX:+UseG1GC")
}

dependencies {
    implementation(project(":rates"))
    implementation(project(":core"))
    implementation("org.hdrhistogram:HdrHistogram:2.2.1")
}
""",
        wall=0.1,
    )
    exec_(
        "./gradlew :loadtest:run --args='--scenario convert --duration 30s --threads 16' -q",
        """scenario=convert threads=16 duration=30s provider-delay=25ms pairs=180 (cross=150)
warmup 5s ... done
requests     412,877   (13,762/s)
errors       3,114     (RateUnavailableException: no rate for ...)
latency  p50=0.9ms  p90=11.8ms  p95=19.6ms  p99=41.7ms  p99.9=88.3ms  max=131.0ms
provider     calls=7,206  (billed pairs=7,206)
heap     used=611 MB  committed=1024 MB  max=1024 MB  (G1, -Xmx1g)
gc       young=41 (0.38s)  old=0
""",
        wall=36.8,
        think="**Baseline**\n\nRun the convert scenario the way the README says.",
    )
    say(
        "Baseline: **p99 = 41.7 ms** (p50 0.9 ms), 3,114 errors (the recursion bug), 7,206 billed provider calls in 30 s, heap used 611 MB of 1024 MB. The p99 is the TTL stampede: every 10 min all 16 threads miss at once and wait 25 ms for the provider."
    )
    exec_(
        "cat rates/build.gradle.kts core/build.gradle.kts | grep -n -i -e guava -e 'api(' -e implementation",
        """5:    implementation(project(":core"))
6:    implementation("org.slf4j:slf4j-api:2.0.13")
7:    implementation("com.fasterxml.jackson.core:jackson-databind:2.17.1")
19:    api("com.google.guava:guava:32.1.3-jre")
20:    implementation("org.slf4j:slf4j-api:2.0.13")
""",
        wall=0.1,
    )
    exec_(
        "cat rates/src/main/java/com/ledgerline/rates/RateService.java rates/src/main/java/com/ledgerline/rates/RateProvider.java",
        RATE_SERVICE + "\n" + RATE_PROVIDER,
        wall=0.1,
    )
    exec_(
        "rg -n 'RateProvider|fetch\\(' --type java | grep -v '^rates/src/main/java/com/ledgerline/rates/RateCache.java'",
        """rates/src/main/java/com/ledgerline/rates/HttpRateProvider.java:21:public final class HttpRateProvider implements RateProvider {
rates/src/main/java/com/ledgerline/rates/HttpRateProvider.java:38:    public BigDecimal fetch(CurrencyPair pair) {
rates/src/test/java/com/ledgerline/rates/FakeRateProvider.java:9:final class FakeRateProvider implements RateProvider {
rates/src/test/java/com/ledgerline/rates/FakeRateProvider.java:22:    public BigDecimal fetch(CurrencyPair pair) {
rates/src/test/java/com/ledgerline/rates/RateProviderHttpTest.java:31:    private final RateProvider provider = new HttpRateProvider(URI.create("http://localhost:18089"), HttpClient.newHttpClient());
loadtest/src/main/java/com/ledgerline/loadtest/FakeProvider.java:12:final class FakeProvider implements RateProvider {
loadtest/src/main/java/com/ledgerline/loadtest/FakeProvider.java:27:    public BigDecimal fetch(CurrencyPair pair) {
""",
        wall=0.2,
    )
    exec_(
        "cat rates/src/main/java/com/ledgerline/rates/HttpRateProvider.java",
        """package com.ledgerline.rates;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The rates provider over HTTP: {@code GET /v2/rate?base=USD&quote=EUR}. Each request is billed,
 * so callers cache. One retry on a 5xx or a timeout, none on a 4xx.
 */
public final class HttpRateProvider implements RateProvider {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration TIMEOUT = Duration.ofMillis(800);

    private final URI base;
    private final HttpClient client;

    public HttpRateProvider(URI base, HttpClient client) {
        this.base = base;
        this.client = client;
    }

    @Override
    public BigDecimal fetch(CurrencyPair pair) {
        HttpResponse<String> response = send(request(pair));
        return parse(response.body(), pair);
    }

    private HttpRequest request(CurrencyPair pair) {
        URI uri = base.resolve("/v2/rate?base=" + pair.base() + "&quote=" + pair.quote());
        return HttpRequest.newBuilder(uri).timeout(TIMEOUT).GET().build();
    }

    private HttpResponse<String> send(HttpRequest request) {
        for (int attempt = 1; ; attempt++) {
            try {
                HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() < 500 || attempt == 2) {
                    return checked(r);
                }
            } catch (IOException e) {
                if (attempt == 2) {
                    throw new RateUnavailableException("provider unreachable: " + request.uri(), e);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RateUnavailableException("interrupted", e);
            }
        }
    }

    private static HttpResponse<String> checked(HttpResponse<String> r) {
        if (r.statusCode() != 200) {
            throw new RateUnavailableException("provider answered " + r.statusCode());
        }
        return r;
    }

    private static BigDecimal parse(String body, CurrencyPair pair) {
        try {
            JsonNode node = JSON.readTree(body);
            return new BigDecimal(node.path("rate").asText());
        } catch (IOException e) {
            throw new RateUnavailableException("unreadable rate for " + pair, e);
        }
    }
}
""",
        wall=0.1,
    )
    patch(
        """*** Begin Patch
*** Update File: rates/src/main/java/com/ledgerline/rates/RateProvider.java
@@
 import java.math.BigDecimal;
+import java.util.concurrent.CompletableFuture;
 
 /** Where USD legs come from (HTTP in production, a fake in tests). One call = one billed pair. */
 public interface RateProvider {
-    /** The rate of {@code pair}; one side of it is USD. */
-    BigDecimal fetch(CurrencyPair pair);
+    /** The rate of {@code pair}, one side of it USD; completes on the provider's executor. */
+    CompletableFuture<BigDecimal> fetch(CurrencyPair pair);
 }
*** Update File: rates/src/main/java/com/ledgerline/rates/HttpRateProvider.java
@@
-    public BigDecimal fetch(CurrencyPair pair) {
-        HttpResponse<String> response = send(request(pair));
-        return parse(response.body(), pair);
+    public CompletableFuture<BigDecimal> fetch(CurrencyPair pair) {
+        return client.sendAsync(request(pair), HttpResponse.BodyHandlers.ofString())
+                .thenApply(r -> parse(checked(r).body(), pair));
     }
*** End Patch""",
        "M rates/src/main/java/com/ledgerline/rates/RateProvider.java\nM rates/src/main/java/com/ledgerline/rates/HttpRateProvider.java",
        think="**Async provider first**\n\nChange the interface, then HttpRateProvider via sendAsync; the fakes follow.",
    )
    patch(
        """*** Begin Patch
*** Update File: rates/src/main/java/com/ledgerline/rates/RateCache.java
@@
-import java.util.concurrent.ConcurrentHashMap;
-import java.util.stream.Collectors;
+import com.google.common.base.Ticker;
+import com.google.common.cache.CacheBuilder;
+import com.google.common.cache.CacheLoader;
+import com.google.common.cache.LoadingCache;
+import java.util.concurrent.TimeUnit;
@@
-    private final ConcurrentHashMap<CurrencyPair, Stamped> entries = new ConcurrentHashMap<>();
+    private final LoadingCache<CurrencyPair, BigDecimal> legs;
 
-    public RateCache(RateProvider provider, Clock clock) {
+    public RateCache(RateProvider provider, Ticker ticker) {
         this.provider = provider;
-        this.clock = clock;
+        this.legs = CacheBuilder.newBuilder()
+                .expireAfterWrite(10, TimeUnit.MINUTES)
+                .maximumSize(5000)
+                .ticker(ticker)
+                .build(CacheLoader.from(p -> provider.fetch(p)));
     }
*** End Patch""",
        "M rates/src/main/java/com/ledgerline/rates/RateCache.java",
    )
    exec_(
        "./gradlew :rates:compileJava -q",
        """/home/marta/code/ledgerline/rates/src/main/java/com/ledgerline/rates/RateCache.java:31: error: incompatible types: inference variable V has incompatible bounds
                .build(CacheLoader.from(p -> provider.fetch(p)));
                      ^
    equality constraints: BigDecimal
    lower bounds: CompletableFuture<BigDecimal>
  where V,K are type-variables:
    V extends Object declared in method <K,V>from(Function<K,V>)
    K extends Object declared in method <K,V>from(Function<K,V>)
/home/marta/code/ledgerline/rates/src/main/java/com/ledgerline/rates/RateCache.java:38: error: cannot find symbol
        Stamped s = entries.computeIfAbsent(pair, this::load);
                    ^
  symbol:   variable entries
  location: class RateCache
2 errors

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':rates:compileJava'.
> Compilation failed; see the compiler error output for details.

BUILD FAILED in 2s
""",
        code=1,
        wall=3.4,
    )
    say(
        "Compile errors are expected mid-change: the loader returns a `CompletableFuture<BigDecimal>` now, so for Guava I need `CacheLoader.asyncReloading` plus a `.join()` in `load`, or keep futures in the cache (`LoadingCache<CurrencyPair, CompletableFuture<BigDecimal>>`). I'll cache the futures, so concurrent misses share one provider call, and `RateService.rateFor` joins. Rewriting `get`/`load` next.",
        think="**Futures in the cache**\n\nCaching futures dedups concurrent loads; RateService must join to keep convert() synchronous.",
    )

    # --- turn 3: async reversed ----------------------------------------------------------------
    user(
        "wait. no async. keep the provider sync — a join() on the request thread is worse than what we have now"
    )
    say(
        "Understood: the provider stays synchronous (`BigDecimal fetch(CurrencyPair)`), no `CompletableFuture` anywhere. Reverting the `RateProvider`/`HttpRateProvider` change; the cache's own loading already makes concurrent misses for the same key wait on one load, which is what I wanted from the futures.",
    )
    exec_(
        "git checkout -- rates/src/main/java/com/ledgerline/rates/RateProvider.java rates/src/main/java/com/ledgerline/rates/HttpRateProvider.java && git status -s",
        " M rates/src/main/java/com/ledgerline/rates/RateCache.java\n",
        wall=0.1,
    )

    # --- turn 4: guava reversed ----------------------------------------------------------------
    user(
        "also forget guava. Anja's PR removes guava from :core next sprint, so use caffeine instead. I'll get the dependency through security review myself, just caffeine, nothing else new. same settings (10 min, 5000)"
    )
    say(
        "OK: Caffeine instead of Guava (the only new dependency; I'll check whether 3.1.8 is already in the Gradle cache since network is restricted here). Same settings: `expireAfterWrite(10 min)`, `maximumSize(5000)`, a fake `Ticker` in tests.",
        think="**Switching to Caffeine**\n\nThe user reverses the Guava choice. Check the dependency cache because the sandbox has no network.",
    )
    exec_(
        "ls ~/.gradle/caches/modules-2/files-2.1/com.github.ben-manes.caffeine/caffeine/ 2>/dev/null; grep -rn caffeine gradle/libs.versions.toml */build.gradle.kts",
        "3.1.8\n",
        wall=0.1,
    )
    patch(
        """*** Begin Patch
*** Update File: rates/build.gradle.kts
@@
 dependencies {
     implementation(project(":core"))
     implementation("org.slf4j:slf4j-api:2.0.13")
     implementation("com.fasterxml.jackson.core:jackson-databind:2.17.1")
+    // Replaces the homegrown RateCache; the only new artifact (security review: Marta).
+    implementation("com.github.ben-manes.caffeine:caffeine:3.1.8")
 
*** End Patch""",
        "M rates/build.gradle.kts",
    )
    exec_(
        "./gradlew :rates:dependencies --configuration runtimeClasspath -q | sed -n '1,60p'",
        """
------------------------------------------------------------
Project ':rates'
------------------------------------------------------------

runtimeClasspath - Runtime classpath of source set 'main'.
+--- project :core
|    +--- com.google.guava:guava:32.1.3-jre
|    |    +--- com.google.guava:failureaccess:1.0.1
|    |    +--- com.google.guava:listenablefuture:9999.0-empty-to-avoid-conflict-with-guava
|    |    +--- com.google.code.findbugs:jsr305:3.0.2
|    |    +--- org.checkerframework:checker-qual:3.37.0
|    |    +--- com.google.errorprone:error_prone_annotations:2.21.1
|    |    \\--- com.google.j2objc:j2objc-annotations:2.8
|    \\--- org.slf4j:slf4j-api:2.0.13
+--- org.slf4j:slf4j-api:2.0.13
+--- com.fasterxml.jackson.core:jackson-databind:2.17.1
|    +--- com.fasterxml.jackson.core:jackson-annotations:2.17.1
|    |    \\--- com.fasterxml.jackson:jackson-bom:2.17.1
|    |         +--- com.fasterxml.jackson.core:jackson-annotations:2.17.1 (c)
|    |         +--- com.fasterxml.jackson.core:jackson-core:2.17.1 (c)
|    |         \\--- com.fasterxml.jackson.core:jackson-databind:2.17.1 (c)
|    +--- com.fasterxml.jackson.core:jackson-core:2.17.1
|    |    \\--- com.fasterxml.jackson:jackson-bom:2.17.1 (*)
|    \\--- com.fasterxml.jackson:jackson-bom:2.17.1 (*)
\\--- com.github.ben-manes.caffeine:caffeine:3.1.8
     +--- org.checkerframework:checker-qual:3.37.0
     \\--- com.google.errorprone:error_prone_annotations:2.21.1

(*) - Indicates repeated occurrences of a transitive dependency with the same version
(c) - A dependency constraint
""",
        wall=3.2,
    )
    say(
        "Caffeine 3.1.8 resolves from the local cache. Its two transitive deps, `checker-qual:3.37.0` and `error_prone_annotations:2.21.1`, are already on the classpath through Guava today, so caffeine is the only new artifact. Heads-up for the review: once Anja's PR drops Guava from `:core`, those two will be attributed to caffeine.",
    )
    patch(
        """*** Begin Patch
*** Delete File: rates/src/main/java/com/ledgerline/rates/RateCache.java
*** Add File: rates/src/main/java/com/ledgerline/rates/RateCache.java
+package com.ledgerline.rates;
+
+import com.github.benmanes.caffeine.cache.Caffeine;
+import com.github.benmanes.caffeine.cache.LoadingCache;
+import com.github.benmanes.caffeine.cache.Ticker;
+import java.math.BigDecimal;
+import java.math.MathContext;
+import java.time.Duration;
+import java.util.Currency;
+import java.util.concurrent.Executor;
+import java.util.concurrent.ForkJoinPool;
+
+/**
+ * USD legs from the provider, cached with Caffeine; cross rates derived from two legs.
+ *
+ * <p>Only USD legs are loaded by the cache: a cross pair reads its two legs with two separate
+ * cache lookups and divides, so a loader never calls back into the cache (the recursion that
+ * broke #409) and the provider is never billed for a cross pair.
+ */
+public final class RateCache {
+    static final Currency USD = Currency.getInstance("USD");
+    static final Duration EXPIRE_AFTER_WRITE = Duration.ofMinutes(10);
+    static final long MAX_ENTRIES = 5000;
+
+    private final LoadingCache<CurrencyPair, BigDecimal> legs;
+
+    public RateCache(RateProvider provider) {
+        this(provider, Ticker.systemTicker(), ForkJoinPool.commonPool());
+    }
+
+    RateCache(RateProvider provider, Ticker ticker, Executor executor) {
+        this.legs = Caffeine.newBuilder()
+                .expireAfterWrite(EXPIRE_AFTER_WRITE)
+                .maximumSize(MAX_ENTRIES)
+                .ticker(ticker)
+                .executor(executor)
+                .recordStats()
+                .build(provider::fetch);
+    }
+
+    public BigDecimal get(CurrencyPair pair) {
+        if (pair.base().equals(USD) || pair.quote().equals(USD)) {
+            return legs.get(pair);
+        }
+        BigDecimal base = legs.get(new CurrencyPair(USD, pair.base()));
+        BigDecimal quote = legs.get(new CurrencyPair(USD, pair.quote()));
+        return quote.divide(base, MathContext.DECIMAL64);
+    }
+
+    public void clear() {
+        legs.invalidateAll();
+    }
+
+    long estimatedSize() {
+        return legs.estimatedSize();
+    }
+}
*** End Patch""",
        "D rates/src/main/java/com/ledgerline/rates/RateCache.java\nA rates/src/main/java/com/ledgerline/rates/RateCache.java",
        think="**Rewriting RateCache on Caffeine**\n\nOnly USD legs go through the loader; cross pairs do two lookups and divide. Injectable ticker and executor for tests.",
    )
    exec_(
        "rg -n 'new RateCache\\(' --type java",
        """rates/src/main/java/com/ledgerline/rates/RatesModule.java:19:        RateCache cache = new RateCache(provider, Clock.systemUTC());
rates/src/test/java/com/ledgerline/rates/RateServiceTest.java:27:        cache = new RateCache(provider, clock);
rates/src/test/java/com/ledgerline/rates/RateCacheTest.java:24:        cache = new RateCache(provider, clock);
loadtest/src/main/java/com/ledgerline/loadtest/ConvertScenario.java:33:        RateCache cache = new RateCache(provider, Clock.systemUTC());
""",
        wall=0.2,
    )
    exec_(
        "cat rates/src/main/java/com/ledgerline/rates/RatesModule.java; sed -n '20,60p' loadtest/src/main/java/com/ledgerline/loadtest/ConvertScenario.java",
        """package com.ledgerline.rates;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.Duration;

/** Wires the rates module; billing-api takes {@link #rateService()} and {@link #rateCache()}. */
public final class RatesModule {
    private final RateCache cache;
    private final RateService service;

    public RatesModule(URI providerBase) {
        HttpClient client = HttpClient.newBuilder()
                .connectTimeout(Duration.ofMillis(500))
                .version(HttpClient.Version.HTTP_1_1)
                .build();
        RateProvider provider = new HttpRateProvider(providerBase, client);
        RateCache cache = new RateCache(provider, Clock.systemUTC());
        this.cache = cache;
        this.service = new RateService(cache);
    }

    public RateService rateService() {
        return service;
    }

    public RateCache rateCache() {
        return cache;
    }
}
final class ConvertScenario implements Scenario {
    private final Options options;
    private final Histogram latency = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    private final LongAdder errors = new LongAdder();
    private final Map<String, LongAdder> errorKinds = new ConcurrentHashMap<>();

    ConvertScenario(Options options) {
        this.options = options;
    }

    @Override
    public Report run() throws InterruptedException {
        FakeProvider provider = new FakeProvider(options.providerDelay());
        RateCache cache = new RateCache(provider, Clock.systemUTC());
        RateService service = new RateService(cache);
        List<Currency> currencies = Currencies.sample(options.pairs());
        ExecutorService pool = Executors.newFixedThreadPool(options.threads());
        long deadline = System.nanoTime() + options.duration().toNanos();
        for (int t = 0; t < options.threads(); t++) {
            pool.submit(() -> drive(service, currencies, deadline));
        }
        pool.shutdown();
        pool.awaitTermination(options.duration().plusMinutes(1).toSeconds(), TimeUnit.SECONDS);
        return Report.of(latency, errors, errorKinds, provider, cache);
    }
""",
        wall=0.1,
    )
    exec_(
        "sed -n '1,80p' rates/src/test/java/com/ledgerline/rates/RateCacheTest.java",
        """package com.ledgerline.rates;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Currency;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RateCacheTest {
    private static final Currency USD = Currency.getInstance("USD");
    private static final Currency EUR = Currency.getInstance("EUR");

    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
    private final FakeRateProvider provider = new FakeRateProvider();
    private RateCache cache;

    @BeforeEach
    void setUp() {
        cache = new RateCache(provider, clock);
        provider.set(new CurrencyPair(USD, EUR), new BigDecimal("0.9214"));
    }

    @Test
    void secondReadIsServedFromTheCache() {
        cache.get(new CurrencyPair(USD, EUR));
        cache.get(new CurrencyPair(USD, EUR));
        assertThat(provider.calls()).isEqualTo(1);
    }

    @Test
    void entryIsReloadedAfterTtl() throws Exception {
        cache.get(new CurrencyPair(USD, EUR));
        clock.advance(Duration.ofMinutes(11));
        provider.set(new CurrencyPair(USD, EUR), new BigDecimal("0.9301"));
        assertThat(cache.get(new CurrencyPair(USD, EUR))).isEqualByComparingTo("0.9301");
    }
}
""",
        wall=0.1,
    )
    exec_(
        "sed -n '1,100p' rates/src/test/java/com/ledgerline/rates/RateServiceTest.java; cat rates/src/test/java/com/ledgerline/rates/FakeRateProvider.java",
        """package com.ledgerline.rates;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.ledgerline.core.Money;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Currency;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class RateServiceTest {
    private static final Currency USD = Currency.getInstance("USD");
    private static final Currency EUR = Currency.getInstance("EUR");
    private static final Currency GBP = Currency.getInstance("GBP");
    private static final Currency CHF = Currency.getInstance("CHF");
    private static final Currency JPY = Currency.getInstance("JPY");

    private final FakeRateProvider provider = new FakeRateProvider();
    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
    private RateCache cache;
    private RateService service;

    @BeforeEach
    void setUp() {
        cache = new RateCache(provider, clock);
        service = new RateService(cache);
        provider.set(new CurrencyPair(USD, EUR), new BigDecimal("0.9214"));
        provider.set(new CurrencyPair(USD, GBP), new BigDecimal("0.7890"));
        provider.set(new CurrencyPair(USD, CHF), new BigDecimal("0.8832"));
        provider.set(new CurrencyPair(USD, JPY), new BigDecimal("154.21"));
    }

    @Test
    void convertsSameCurrencyWithoutLookup() {
        Money m = Money.of("12.50", "EUR");
        assertThat(service.convert(m, EUR)).isSameAs(m);
        assertThat(provider.calls()).isZero();
    }

    @Test
    void convertsUsdToEur() {
        assertThat(service.convert(Money.of("100.00", "USD"), EUR)).isEqualTo(Money.of("92.14", "EUR"));
    }

    @Test
    void convertsEurToGbpViaUsd() {
        // 100 EUR -> USD leg 0.9214, GBP leg 0.7890: 100 * 0.7890 / 0.9214
        assertThat(service.convert(Money.of("100.00", "EUR"), GBP)).isEqualTo(Money.of("85.63", "GBP"));
        assertThat(provider.requestedPairs()).doesNotContain(new CurrencyPair(EUR, GBP));
    }

    @Test
    void roundsHalfEvenToTargetMinorUnits() {
        assertThat(service.convert(Money.of("1.00", "USD"), JPY)).isEqualTo(Money.of("154", "JPY"));
    }

    @Test
    void crossRateIsCachedAfterFirstCall() {
        service.convert(Money.of("10.00", "CHF"), JPY);
        service.convert(Money.of("20.00", "CHF"), JPY);
        assertThat(provider.calls()).isEqualTo(2);
    }

    @Test
    void unknownPairIsRateUnavailable() {
        assertThatThrownBy(() -> service.convert(Money.of("1.00", "USD"), Currency.getInstance("XAU")))
                .isInstanceOf(RateUnavailableException.class)
                .hasMessageContaining("USD/XAU");
    }
}
package com.ledgerline.rates;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

final class FakeRateProvider implements RateProvider {
    private final Map<CurrencyPair, BigDecimal> rates = new HashMap<>();
    private final List<CurrencyPair> requested = new ArrayList<>();

    void set(CurrencyPair pair, BigDecimal rate) {
        rates.put(pair, rate);
    }

    @Override
    public synchronized BigDecimal fetch(CurrencyPair pair) {
        requested.add(pair);
        BigDecimal r = rates.get(pair);
        if (r == null) {
            throw new IllegalArgumentException("no fake rate for " + pair);
        }
        return r;
    }

    synchronized int calls() {
        return requested.size();
    }

    synchronized List<CurrencyPair> requestedPairs() {
        return List.copyOf(requested);
    }
}
""",
        wall=0.1,
    )
    patch(
        """*** Begin Patch
*** Add File: rates/src/test/java/com/ledgerline/rates/FakeTicker.java
+package com.ledgerline.rates;
+
+import com.github.benmanes.caffeine.cache.Ticker;
+import java.time.Duration;
+import java.util.concurrent.atomic.AtomicLong;
+
+/** A ticker tests move by hand: no sleeping to let time pass. */
+final class FakeTicker implements Ticker {
+    private final AtomicLong nanos = new AtomicLong();
+
+    @Override
+    public long read() {
+        return nanos.get();
+    }
+
+    void advance(Duration d) {
+        nanos.addAndGet(d.toNanos());
+    }
+}
*** Update File: rates/src/test/java/com/ledgerline/rates/RateCacheTest.java
@@
-    private final MutableClock clock = new MutableClock(Instant.parse("2025-01-01T00:00:00Z"));
+    private final FakeTicker ticker = new FakeTicker();
     private final FakeRateProvider provider = new FakeRateProvider();
     private RateCache cache;
 
     @BeforeEach
     void setUp() {
-        cache = new RateCache(provider, clock);
+        cache = new RateCache(provider, ticker, ForkJoinPool.commonPool());
         provider.set(new CurrencyPair(USD, EUR), new BigDecimal("0.9214"));
     }
@@
     void entryIsReloadedAfterTtl() throws Exception {
         cache.get(new CurrencyPair(USD, EUR));
-        clock.advance(Duration.ofMinutes(11));
+        ticker.advance(Duration.ofMinutes(11));
         provider.set(new CurrencyPair(USD, EUR), new BigDecimal("0.9301"));
         assertThat(cache.get(new CurrencyPair(USD, EUR))).isEqualByComparingTo("0.9301");
     }
+
+    private static final Currency GBP = Currency.getInstance("GBP");
+
+    @Test
+    void crossRateNeverCallsTheProviderForTheCrossPair() {
+        provider.set(new CurrencyPair(USD, GBP), new BigDecimal("0.7890"));
+        assertThat(cache.get(new CurrencyPair(EUR, GBP))).isEqualByComparingTo("0.8563055");
+        assertThat(provider.requestedPairs()).containsExactlyInAnyOrder(
+                new CurrencyPair(USD, EUR), new CurrencyPair(USD, GBP));
+    }
+
+    @Test
+    void holdsAtMostMaxEntries() {
+        for (int i = 0; i < 6000; i++) {
+            cache.get(FakeRateProvider.syntheticLeg(i));
+        }
+        assertThat(cache.estimatedSize()).isLessThanOrEqualTo(RateCache.MAX_ENTRIES);
+    }
*** Update File: rates/src/main/java/com/ledgerline/rates/RatesModule.java
@@
-        RateCache cache = new RateCache(provider, Clock.systemUTC());
+        RateCache cache = new RateCache(provider);
*** Update File: rates/src/test/java/com/ledgerline/rates/RateServiceTest.java
@@
-        cache = new RateCache(provider, clock);
+        cache = new RateCache(provider, new FakeTicker(), Runnable::run);
*** Update File: loadtest/src/main/java/com/ledgerline/loadtest/ConvertScenario.java
@@
-        RateCache cache = new RateCache(provider, Clock.systemUTC());
+        RateCache cache = new RateCache(provider);
*** End Patch""",
        "A rates/src/test/java/com/ledgerline/rates/FakeTicker.java\nM rates/src/test/java/com/ledgerline/rates/RateCacheTest.java\nM rates/src/main/java/com/ledgerline/rates/RatesModule.java\nM rates/src/test/java/com/ledgerline/rates/RateServiceTest.java\nM loadtest/src/main/java/com/ledgerline/loadtest/ConvertScenario.java",
    )
    exec_(
        "./gradlew :rates:test",
        """> Task :rates:compileJava
> Task :rates:compileTestJava
> Task :rates:test

RateCacheTest > holdsAtMostMaxEntries() FAILED
    java.lang.AssertionError at RateCacheTest.java:61

Expecting actual:
  6000L
to be less than or equal to:
  5000L

25 tests completed, 1 failed

> Task :rates:test FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':rates:test'.
> There were failing tests. See the report at: file:///home/marta/code/ledgerline/rates/build/reports/tests/test/index.html

BUILD FAILED in 7s
""",
        code=1,
        wall=8.9,
        think="**Running the rates tests on Caffeine**",
    )
    say(
        "One failure left: `holdsAtMostMaxEntries` sees 6000 entries. Caffeine evicts in maintenance work that runs on the cache's executor (here `ForkJoinPool.commonPool()`), so right after the loop nothing has been evicted yet. The test must use a same-thread executor (`Runnable::run`) and call `cleanUp()` before reading the size; no sleeping.",
        think="**Caffeine maintenance is asynchronous**\n\nEviction happens on the executor; tests need Runnable::run and cleanUp().",
    )
    patch(
        """*** Begin Patch
*** Update File: rates/src/test/java/com/ledgerline/rates/RateCacheTest.java
@@
-        cache = new RateCache(provider, ticker, ForkJoinPool.commonPool());
+        // Same-thread executor: Caffeine's eviction runs inline, so sizes are exact in asserts.
+        cache = new RateCache(provider, ticker, Runnable::run);
@@
-        assertThat(cache.estimatedSize()).isLessThanOrEqualTo(RateCache.MAX_ENTRIES);
+        cache.cleanUp();
+        assertThat(cache.estimatedSize()).isLessThanOrEqualTo(RateCache.MAX_ENTRIES);
*** Update File: rates/src/main/java/com/ledgerline/rates/RateCache.java
@@
     long estimatedSize() {
         return legs.estimatedSize();
     }
+
+    void cleanUp() {
+        legs.cleanUp();
+    }
*** End Patch""",
        "M rates/src/test/java/com/ledgerline/rates/RateCacheTest.java\nM rates/src/main/java/com/ledgerline/rates/RateCache.java",
    )
    exec_(
        "./gradlew :rates:test",
        """> Task :rates:compileJava
> Task :rates:compileTestJava
> Task :rates:test

BUILD SUCCESSFUL in 6s
8 actionable tasks: 3 executed, 5 up-to-date
""",
        wall=7.1,
    )
    say("`:rates:test` is green (25 tests), including the two cross-rate tests that failed on main.")

    # --- turn 5 --------------------------------------------------------------------------------
    user("whole build")
    exec_(
        "./gradlew build",
        """> Task :core:compileJava UP-TO-DATE
> Task :core:processResources NO-SOURCE
> Task :core:classes UP-TO-DATE
> Task :core:jar UP-TO-DATE
> Task :core:compileTestJava UP-TO-DATE
> Task :core:processTestResources NO-SOURCE
> Task :core:testClasses UP-TO-DATE
> Task :core:test UP-TO-DATE
> Task :core:spotlessJava UP-TO-DATE
> Task :core:spotlessJavaCheck UP-TO-DATE
> Task :core:check UP-TO-DATE
> Task :rates:compileJava UP-TO-DATE
> Task :rates:jar
> Task :api:compileJava FAILED
/home/marta/code/ledgerline/api/src/main/java/com/ledgerline/api/AdminRatesController.java:34: error: cannot find symbol
        return ResponseEntity.ok(cache.snapshot());
                                      ^
  symbol:   method snapshot()
  location: variable cache of type RateCache
1 error

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':api:compileJava'.
> Compilation failed; see the compiler error output for details.

* Try:
> Run with --stacktrace option to get the stack trace.

BUILD FAILED in 14s
14 actionable tasks: 4 executed, 10 up-to-date
""",
        code=1,
        wall=15.2,
    )
    exec_(
        "sed -n '20,40p' api/src/main/java/com/ledgerline/api/AdminRatesController.java",
        """@RestController
@RequestMapping("/admin/rates")
class AdminRatesController {
    private final RateCache cache;

    AdminRatesController(RateCache cache) {
        this.cache = cache;
    }

    /** Everything cached now (ops use this when a customer disputes a conversion). */
    @GetMapping
    ResponseEntity<Map<CurrencyPair, BigDecimal>> cached() {
        return ResponseEntity.ok(cache.snapshot());
    }
}
""",
        wall=0.1,
    )
    say(
        "`:api` uses `RateCache.snapshot()` (added in #412 for the admin endpoint), which my rewrite dropped. Since the api module must not be touched, I'll put `snapshot()` back on the new `RateCache` with the same signature (`Map<CurrencyPair, BigDecimal>`), built from `legs.asMap()`. Note it will only list USD legs now, since cross rates are no longer cached.",
        think="**Restore snapshot() instead of touching api**\n\nThe user said not to touch the api module, so the method comes back.",
    )
    patch(
        """*** Begin Patch
*** Update File: rates/src/main/java/com/ledgerline/rates/RateCache.java
@@
+import java.util.Map;
@@
     public void clear() {
         legs.invalidateAll();
     }
+
+    /**
+     * What is cached now, for the admin endpoint in :api (AdminRatesController). Only USD legs:
+     * cross rates are computed on each read and never cached.
+     */
+    public Map<CurrencyPair, BigDecimal> snapshot() {
+        return Map.copyOf(legs.asMap());
+    }
*** End Patch""",
        "M rates/src/main/java/com/ledgerline/rates/RateCache.java",
    )
    exec_(
        "./gradlew build",
        """> Task :rates:compileJava
> Task :api:compileJava
> Task :api:test
> Task :loadtest:compileJava
> Task :loadtest:test NO-SOURCE
> Task :spotlessJavaCheck FAILED

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':rates:spotlessJavaCheck'.
> The following files had format violations:
      rates/src/main/java/com/ledgerline/rates/RateCache.java
          @@ -7,7 +7,7 @@
           import java.time.Duration;
           import java.util.Currency;
          -import java.util.concurrent.Executor;
          -import java.util.concurrent.ForkJoinPool;
           import java.util.Map;
          +import java.util.concurrent.Executor;
          +import java.util.concurrent.ForkJoinPool;
  Run './gradlew :rates:spotlessApply' to fix these violations.

BUILD FAILED in 31s
""",
        code=1,
        wall=32.0,
    )
    exec_(
        "./gradlew spotlessApply -q && ./gradlew build --console=plain",
        "> Task :core:compileJava UP-TO-DATE\n> Task :core:processResources NO-SOURCE\n> Task :core:classes UP-TO-DATE\n> Task :core:jar UP-TO-DATE\n> Task :core:compileTestJava UP-TO-DATE\n> Task :core:processTestResources UP-TO-DATE\n> Task :core:testClasses UP-TO-DATE\n> Task :core:test UP-TO-DATE\n> Task :core:spotlessJava UP-TO-DATE\n> Task :core:spotlessJavaCheck UP-TO-DATE\n> Task :core:check UP-TO-DATE\n> Task :core:assemble UP-TO-DATE\n> Task :core:build UP-TO-DATE\n> Task :rates:compileJava\n> Task :rates:processResources NO-SOURCE\n> Task :rates:classes\n> Task :rates:jar\n> Task :rates:compileTestJava\n> Task :rates:processTestResources\n> Task :rates:testClasses\n> Task :rates:test\n> Task :rates:spotlessJava\n> Task :rates:spotlessJavaCheck\n> Task :rates:check\n> Task :rates:assemble\n> Task :rates:build\n> Task :api:compileJava\n> Task :api:processResources NO-SOURCE\n> Task :api:classes\n> Task :api:jar\n> Task :api:compileTestJava\n> Task :api:processTestResources\n> Task :api:testClasses\n> Task :api:test\n> Task :api:spotlessJava\n> Task :api:spotlessJavaCheck\n> Task :api:check\n> Task :api:assemble\n> Task :api:build\n> Task :loadtest:compileJava\n> Task :loadtest:processResources NO-SOURCE\n> Task :loadtest:classes\n> Task :loadtest:jar\n> Task :loadtest:compileTestJava\n> Task :loadtest:processTestResources\n> Task :loadtest:testClasses\n> Task :loadtest:test NO-SOURCE\n> Task :loadtest:spotlessJava\n> Task :loadtest:spotlessJavaCheck\n> Task :loadtest:check\n> Task :loadtest:assemble\n> Task :loadtest:build\n\nBUILD SUCCESSFUL in 47s\n52 actionable tasks: 29 executed, 23 up-to-date\n",
        wall=48.5,
    )
    say(
        "Full build passes: `:rates`, `:api` (unchanged) and `:loadtest` compile and test; `snapshot()` is back for the admin endpoint. Spotless needed an import reorder, done with `./gradlew spotlessApply`."
    )

    # --- turn 6 --------------------------------------------------------------------------------
    user("loadtest again")
    exec_(
        "./gradlew :loadtest:run --args='--scenario convert --duration 30s --threads 16' -q",
        """scenario=convert threads=16 duration=30s provider-delay=25ms pairs=180 (cross=150)
warmup 5s ... done
requests     1,903,442   (63,448/s)
errors       0
latency  p50=0.2ms  p90=0.6ms  p95=1.1ms  p99=6.4ms  p99.9=27.9ms  max=33.5ms
provider     calls=30  (billed pairs=30)
cache        hitRate=0.99998  evictions=0  loads=30  avgLoadPenalty=25.4ms
heap     used=187 MB  committed=1024 MB  max=1024 MB  (G1, -Xmx1g)
gc       young=9 (0.07s)  old=0
""",
        wall=36.2,
    )
    say(
        "Loadtest after the change: **p99 = 6.4 ms** (was 41.7 ms), p50 0.2 ms, 0 errors (was 3,114), provider calls 30 (was 7,206; only USD legs are billed now), heap used 187 MB (was 611 MB). p99.9 is still 27.9 ms: that is the first read of each leg after expiry waiting on the 25 ms provider call."
    )

    # --- turn 7 --------------------------------------------------------------------------------
    user("refreshAfterWrite at 8 min too, so nobody waits on expiry. test it with the ticker")
    patch(
        """*** Begin Patch
*** Update File: rates/src/main/java/com/ledgerline/rates/RateCache.java
@@
     static final Duration EXPIRE_AFTER_WRITE = Duration.ofMinutes(10);
+    /** Refresh before expiry: readers get the old value while one reload runs in the background. */
+    static final Duration REFRESH_AFTER_WRITE = Duration.ofMinutes(8);
     static final long MAX_ENTRIES = 5000;
@@
                 .expireAfterWrite(EXPIRE_AFTER_WRITE)
+                .refreshAfterWrite(REFRESH_AFTER_WRITE)
                 .maximumSize(MAX_ENTRIES)
*** Update File: rates/src/test/java/com/ledgerline/rates/RateCacheTest.java
@@
+    @Test
+    void entryIsRefreshedAfterEightMinutesWithoutBlockingTheReader() {
+        CurrencyPair leg = new CurrencyPair(USD, EUR);
+        cache.get(leg);
+        ticker.advance(Duration.ofMinutes(8).plusSeconds(1));
+        provider.set(leg, new BigDecimal("0.9301"));
+        // The read that triggers the refresh still gets the old value...
+        assertThat(cache.get(leg)).isEqualByComparingTo("0.9214");
+        // ...and the next one the refreshed value.
+        assertThat(cache.get(leg)).isEqualByComparingTo("0.9301");
+        assertThat(provider.calls()).isEqualTo(2);
+    }
*** End Patch""",
        "M rates/src/main/java/com/ledgerline/rates/RateCache.java\nM rates/src/test/java/com/ledgerline/rates/RateCacheTest.java",
    )
    exec_(
        "./gradlew :rates:test --tests 'com.ledgerline.rates.RateCacheTest'",
        """> Task :rates:compileJava
> Task :rates:compileTestJava
> Task :rates:test

RateCacheTest > entryIsRefreshedAfterEightMinutesWithoutBlockingTheReader() FAILED
    org.opentest4j.AssertionFailedError at RateCacheTest.java:81

expected: 0.9214
 but was: 0.9301
(using compareTo)

5 tests completed, 1 failed

> Task :rates:test FAILED

BUILD FAILED in 5s
""",
        code=1,
        wall=6.3,
    )
    say(
        "With the same-thread executor the refresh runs inline, so the triggering read already sees the new value; the test's expectation was wrong, not the cache. In production (commonPool) the reader gets the old value. I'll assert what is deterministic: after the refresh point one provider call happens and the value is the new one, and a separate test with a manual executor checks that the triggering read returns the old value while the reload is queued.",
    )
    patch(
        """*** Begin Patch
*** Update File: rates/src/test/java/com/ledgerline/rates/RateCacheTest.java
@@
-        // The read that triggers the refresh still gets the old value...
-        assertThat(cache.get(leg)).isEqualByComparingTo("0.9214");
-        // ...and the next one the refreshed value.
-        assertThat(cache.get(leg)).isEqualByComparingTo("0.9301");
+        assertThat(cache.get(leg)).isEqualByComparingTo("0.9301");
         assertThat(provider.calls()).isEqualTo(2);
     }
+
+    @Test
+    void readerTriggeringARefreshGetsTheOldValue() {
+        QueuedExecutor queued = new QueuedExecutor();
+        RateCache deferred = new RateCache(provider, ticker, queued);
+        CurrencyPair leg = new CurrencyPair(USD, EUR);
+        deferred.get(leg);
+        ticker.advance(Duration.ofMinutes(8).plusSeconds(1));
+        provider.set(leg, new BigDecimal("0.9301"));
+        assertThat(deferred.get(leg)).isEqualByComparingTo("0.9214");
+        queued.runAll();
+        assertThat(deferred.get(leg)).isEqualByComparingTo("0.9301");
+    }
*** Add File: rates/src/test/java/com/ledgerline/rates/QueuedExecutor.java
+package com.ledgerline.rates;
+
+import java.util.ArrayDeque;
+import java.util.concurrent.Executor;
+
+/** Runs submitted work only when the test says so. */
+final class QueuedExecutor implements Executor {
+    private final ArrayDeque<Runnable> queue = new ArrayDeque<>();
+
+    @Override
+    public void execute(Runnable r) {
+        queue.add(r);
+    }
+
+    void runAll() {
+        while (!queue.isEmpty()) {
+            queue.poll().run();
+        }
+    }
+}
*** End Patch""",
        "M rates/src/test/java/com/ledgerline/rates/RateCacheTest.java\nA rates/src/test/java/com/ledgerline/rates/QueuedExecutor.java",
    )
    exec_("./gradlew :rates:test -q && echo RATES-OK", "RATES-OK\n", wall=7.4)
    say(
        "Done: `refreshAfterWrite(8 min)` on top of `expireAfterWrite(10 min)`; both refresh tests pass with the fake ticker (`QueuedExecutor` added for the deferred case). All 27 rates tests green."
    )

    # --- turn 8 --------------------------------------------------------------------------------
    user("commit. message: rates: replace homegrown cache with caffeine")
    exec_(
        "git diff --stat && git diff -- rates/src/main/java/com/ledgerline/rates/RateCache.java | sed -n '1,200p'",
        " loadtest/src/main/java/com/ledgerline/loadtest/ConvertScenario.java    |   2 +-\n rates/build.gradle.kts                                                 |   2 +\n rates/src/main/java/com/ledgerline/rates/RateCache.java               | 104 ++++++++--------\n rates/src/main/java/com/ledgerline/rates/RatesModule.java             |   2 +-\n rates/src/test/java/com/ledgerline/rates/RateCacheTest.java           |  71 +++++++++--\n rates/src/test/java/com/ledgerline/rates/RateServiceTest.java         |   2 +-\n 6 files changed, 132 insertions(+), 51 deletions(-)\n"
        + "diff --git a/rates/src/main/java/com/ledgerline/rates/RateCache.java b/rates/src/main/java/com/ledgerline/rates/RateCache.java\nindex b9a4e60..3f0c2d7 100644\n--- a/rates/src/main/java/com/ledgerline/rates/RateCache.java\n+++ b/rates/src/main/java/com/ledgerline/rates/RateCache.java\n@@ -1,72 +1,77 @@\n package com.ledgerline.rates;\n \n"
        + "\n".join("-" + ln for ln in RATE_CACHE_OLD.splitlines()[2:])
        + '\n+import com.github.benmanes.caffeine.cache.Caffeine;\n+import com.github.benmanes.caffeine.cache.LoadingCache;\n+import com.github.benmanes.caffeine.cache.Ticker;\n+import java.math.BigDecimal;\n+import java.math.MathContext;\n+import java.time.Duration;\n+import java.util.Currency;\n+import java.util.Map;\n+import java.util.concurrent.Executor;\n+import java.util.concurrent.ForkJoinPool;\n+\n+/**\n+ * USD legs from the provider, cached with Caffeine; cross rates derived from two legs.\n+ */\n+public final class RateCache {\n+    static final Currency USD = Currency.getInstance("USD");\n+    static final Duration EXPIRE_AFTER_WRITE = Duration.ofMinutes(10);\n+    static final Duration REFRESH_AFTER_WRITE = Duration.ofMinutes(8);\n+    static final long MAX_ENTRIES = 5000;\n+\n+    private final LoadingCache<CurrencyPair, BigDecimal> legs;\n+    ...\n',
        wall=0.1,
    )
    exec_(
        "git checkout -b rates-caffeine && ./gradlew spotlessApply -q && git add -A rates loadtest && git commit -q -m 'rates: replace homegrown cache with caffeine' && git log --oneline -1 && git show --stat HEAD | tail -12",
        """Switched to a new branch 'rates-caffeine'
c7e21f4 rates: replace homegrown cache with caffeine
 loadtest/src/main/java/com/ledgerline/loadtest/ConvertScenario.java    |   2 +-
 rates/build.gradle.kts                                                 |   2 +
 rates/src/main/java/com/ledgerline/rates/RateCache.java               | 104 ++++++++--------
 rates/src/main/java/com/ledgerline/rates/RatesModule.java             |   2 +-
 rates/src/test/java/com/ledgerline/rates/FakeTicker.java              |  19 +++
 rates/src/test/java/com/ledgerline/rates/QueuedExecutor.java          |  20 +++
 rates/src/test/java/com/ledgerline/rates/RateCacheTest.java           |  71 +++++++++--
 rates/src/test/java/com/ledgerline/rates/RateServiceTest.java         |   2 +-
 8 files changed, 171 insertions(+), 51 deletions(-)
""",
        wall=4.1,
    )
    say(
        "Committed on a new branch `rates-caffeine`: `c7e21f4 rates: replace homegrown cache with caffeine` (8 files; nothing in `:api`)."
    )

    # --- turn 9 --------------------------------------------------------------------------------
    user("RateProviderHttpTest was flaky on CI last week. is that ours?")
    exec_(
        "for i in 1 2 3 4 5 6; do ./gradlew :rates:test --tests 'com.ledgerline.rates.RateProviderHttpTest' --rerun -q >/tmp/run$i.log 2>&1; echo \"run $i: $?\"; done",
        "run 1: 0\nrun 2: 0\nrun 3: 1\nrun 4: 0\nrun 5: 0\nrun 6: 1\n",
        wall=58.3,
        think="**Reproducing the flake**\n\nRerun just that class a few times and look at a failing log.",
    )
    exec_(
        "grep -n -A12 FAILED /tmp/run3.log | head -30",
        """4:RateProviderHttpTest > fetchesUsdLeg() FAILED
5-    com.github.tomakehurst.wiremock.common.FatalStartupException at RateProviderHttpTest.java:27
6-        Caused by: java.lang.RuntimeException at JettyHttpServer.java:162
7-            Caused by: java.io.IOException at Server.java:416
8-                Caused by: java.net.BindException at Net.java:565
9-
10-RateProviderHttpTest > retriesOnce() FAILED
11-    com.github.tomakehurst.wiremock.common.FatalStartupException at RateProviderHttpTest.java:27
12-        Caused by: java.lang.RuntimeException at JettyHttpServer.java:162
13-            Caused by: java.io.IOException at Server.java:416
14-                Caused by: java.net.BindException at Net.java:565
15-
""",
        wall=0.1,
    )
    exec_(
        "sed -n '1,90p' rates/build/test-results/test/TEST-com.ledgerline.rates.RateProviderHttpTest.xml",
        f"""<?xml version="1.0" encoding="UTF-8"?>
<testsuite name="com.ledgerline.rates.RateProviderHttpTest" tests="3" skipped="0" failures="0" errors="3" timestamp="2025-11-18T10:02:11" hostname="mk-thinkpad" time="0.201">
  <properties/>
  <testcase name="fetchesUsdLeg()" classname="com.ledgerline.rates.RateProviderHttpTest" time="0.118">
    <error message="com.github.tomakehurst.wiremock.common.FatalStartupException: java.lang.RuntimeException: java.io.IOException: Failed to bind to /0.0.0.0:18089" type="com.github.tomakehurst.wiremock.common.FatalStartupException">com.github.tomakehurst.wiremock.common.FatalStartupException: java.lang.RuntimeException: java.io.IOException: Failed to bind to /0.0.0.0:18089
\tat com.github.tomakehurst.wiremock.WireMockServer.start(WireMockServer.java:195)
\tat com.github.tomakehurst.wiremock.junit5.WireMockExtension.startServerIfRequired(WireMockExtension.java:241)
\tat com.github.tomakehurst.wiremock.junit5.WireMockExtension.beforeAll(WireMockExtension.java:299)
\tat org.junit.jupiter.engine.descriptor.ClassBasedTestDescriptor.lambda$invokeBeforeAllCallbacks$12(ClassBasedTestDescriptor.java:396)
\tat org.junit.platform.engine.support.hierarchical.ThrowableCollector.execute(ThrowableCollector.java:73)
\tat org.junit.jupiter.engine.descriptor.ClassBasedTestDescriptor.invokeBeforeAllCallbacks(ClassBasedTestDescriptor.java:396)
\tat org.junit.jupiter.engine.descriptor.ClassBasedTestDescriptor.before(ClassBasedTestDescriptor.java:212)
\tat org.junit.jupiter.engine.descriptor.ClassBasedTestDescriptor.before(ClassBasedTestDescriptor.java:85)
{TRACE_JUNIT}
{GRADLE_FRAMES}
Caused by: java.lang.RuntimeException: java.io.IOException: Failed to bind to /0.0.0.0:18089
\tat com.github.tomakehurst.wiremock.jetty.JettyHttpServer.start(JettyHttpServer.java:162)
\tat com.github.tomakehurst.wiremock.WireMockServer.start(WireMockServer.java:193)
\t... 62 more
Caused by: java.io.IOException: Failed to bind to /0.0.0.0:18089
\tat org.eclipse.jetty.server.ServerConnector.openAcceptChannel(ServerConnector.java:349)
\tat org.eclipse.jetty.server.ServerConnector.open(ServerConnector.java:313)
\tat org.eclipse.jetty.server.Server.doStart(Server.java:416)
\tat org.eclipse.jetty.util.component.AbstractLifeCycle.start(AbstractLifeCycle.java:93)
\tat com.github.tomakehurst.wiremock.jetty.JettyHttpServer.start(JettyHttpServer.java:160)
\t... 63 more
Caused by: java.net.BindException: Address already in use
\tat java.base/sun.nio.ch.Net.bind0(Native Method)
\tat java.base/sun.nio.ch.Net.bind(Net.java:565)
\tat java.base/sun.nio.ch.ServerSocketChannelImpl.netBind(ServerSocketChannelImpl.java:344)
\tat java.base/sun.nio.ch.ServerSocketChannelImpl.bind(ServerSocketChannelImpl.java:301)
\tat org.eclipse.jetty.server.ServerConnector.openAcceptChannel(ServerConnector.java:344)
\t... 67 more
</error>
  </testcase>
""",
        wall=0.1,
    )
    exec_(
        "sed -n '20,40p' rates/src/test/java/com/ledgerline/rates/RateProviderHttpTest.java; ss -ltnp | grep 18089; git log --format='%h %an %ad %s' --date=short -- rates/src/test/java/com/ledgerline/rates/RateProviderHttpTest.java | head -3",
        """class RateProviderHttpTest {
    @RegisterExtension
    static WireMockExtension wm = WireMockExtension.newInstance()
            .options(wireMockConfig().port(18089))
            .build();

    private final RateProvider provider =
            new HttpRateProvider(URI.create("http://localhost:18089"), HttpClient.newHttpClient());

    @Test
    void fetchesUsdLeg() {
LISTEN 0      50     127.0.0.1:18089      0.0.0.0:*    users:(("java",pid=48211,fd=212))
2a9d0c3 Jonas Brandt 2025-09-02 rates: HttpRateProvider with one retry
""",
        wall=0.2,
    )
    say(
        "Not ours. The flake is `java.net.BindException: Address already in use` (the 4th `Caused by` under WireMock's `FatalStartupException`): `RateProviderHttpTest` starts WireMock on the fixed port **18089**, and a leftover Gradle test worker (pid 48211 here; on CI, a parallel fork) still holds it. It failed 2 of 6 reruns. It dates from 2a9d0c3 (September), untouched by our change. The fix is `wireMockConfig().dynamicPort()` and building the provider URI from `wm.baseUrl()`.",
        think="**Fixed port collision**\n\nThe BindException is the deepest cause; port 18089 is hard-coded.",
    )

    # --- turn 10 -------------------------------------------------------------------------------
    user("fix it. separate commit")
    patch(
        """*** Begin Patch
*** Update File: rates/src/test/java/com/ledgerline/rates/RateProviderHttpTest.java
@@
     @RegisterExtension
     static WireMockExtension wm = WireMockExtension.newInstance()
-            .options(wireMockConfig().port(18089))
+            // A free port per run: a fixed one collided with parallel forks on CI.
+            .options(wireMockConfig().dynamicPort())
             .build();
 
-    private final RateProvider provider =
-            new HttpRateProvider(URI.create("http://localhost:18089"), HttpClient.newHttpClient());
+    private RateProvider provider;
+
+    @BeforeEach
+    void setUp() {
+        provider = new HttpRateProvider(URI.create(wm.baseUrl()), HttpClient.newHttpClient());
+    }
*** End Patch""",
        "M rates/src/test/java/com/ledgerline/rates/RateProviderHttpTest.java",
    )
    exec_(
        "for i in 1 2 3 4 5 6 7 8; do ./gradlew :rates:test --tests 'com.ledgerline.rates.RateProviderHttpTest' --rerun -q >/tmp/run$i.log 2>&1; echo \"run $i: $?\"; done",
        "run 1: 0\nrun 2: 0\nrun 3: 0\nrun 4: 0\nrun 5: 0\nrun 6: 0\nrun 7: 0\nrun 8: 0\n",
        wall=71.9,
    )
    exec_(
        "./gradlew spotlessApply -q && git add rates/src/test/java/com/ledgerline/rates/RateProviderHttpTest.java && git commit -q -m 'rates: WireMock on a dynamic port in RateProviderHttpTest' && git log --oneline -3",
        "e04b9a2 rates: WireMock on a dynamic port in RateProviderHttpTest\nc7e21f4 rates: replace homegrown cache with caffeine\n4b1d9e0 api: admin endpoint lists cached rates (#412)\n",
        wall=3.8,
    )
    say(
        "Fixed in a separate commit `e04b9a2` (WireMock `dynamicPort()`); 8 of 8 reruns pass while pid 48211 still holds 18089."
    )

    # --- turn 11 -------------------------------------------------------------------------------
    user("docs/rates.md + CHANGELOG")
    exec_(
        "sed -n '1,60p' docs/rates.md; sed -n '1,20p' CHANGELOG.md",
        """# Rates

`RateService.convert(Money, Currency)` converts an amount; `RateCache` keeps
rates for ten minutes (`RateCache.TTL`), reloading an entry on the first read
after it expires. Cross rates are derived from the two USD legs (#409).

## Operations

- `GET /admin/rates` lists every cached rate.
- The provider bills per pair; watch `rates.provider.calls` in Grafana.

# Changelog

## Unreleased

### Added
- api: admin endpoint lists cached rates (#412)

### Fixed
- rates: cross rates derived from USD legs (#409)
""",
        wall=0.1,
    )
    patch(
        """*** Begin Patch
*** Update File: docs/rates.md
@@
-`RateService.convert(Money, Currency)` converts an amount; `RateCache` keeps
-rates for ten minutes (`RateCache.TTL`), reloading an entry on the first read
-after it expires. Cross rates are derived from the two USD legs (#409).
+`RateService.convert(Money, Currency)` converts an amount. `RateCache` is a
+Caffeine `LoadingCache` of USD legs only: `expireAfterWrite` 10 minutes,
+`refreshAfterWrite` 8 minutes (readers keep getting the old value while one
+reload runs), at most 5000 entries. Cross rates are computed on each read from
+the two cached USD legs and never cached or fetched, so the provider is billed
+only for USD legs.
@@
-- `GET /admin/rates` lists every cached rate.
+- `GET /admin/rates` lists the cached USD legs (cross rates are not cached).
*** Update File: CHANGELOG.md
@@
 ### Fixed
+- rates: `Recursive update` from ConcurrentHashMap on cross rates; RateCache is now Caffeine (10 min expiry, 8 min refresh, 5000 entries)
+- rates: RateProviderHttpTest no longer collides on port 18089
 - rates: cross rates derived from USD legs (#409)
*** End Patch""",
        "M docs/rates.md\nM CHANGELOG.md",
    )
    exec_(
        "git add docs/rates.md CHANGELOG.md && git commit -q -m 'docs: rates cache on caffeine' && git log --oneline -1",
        "5d3f8be docs: rates cache on caffeine\n",
        wall=0.3,
    )
    say(
        "Docs and changelog updated and committed (`5d3f8be`). `docs/rates.md` now says the admin endpoint lists USD legs only."
    )

    # --- turn 12 -------------------------------------------------------------------------------
    user(
        "snapshot(): once billing-api moves off it we should delete it. leave a TODO, don't do it now. then push and open a draft PR"
    )
    exec_(
        "sed -n '20,90p' rates/src/main/java/com/ledgerline/rates/RateCache.java",
        """public final class RateCache {
    static final Currency USD = Currency.getInstance("USD");
    static final Duration EXPIRE_AFTER_WRITE = Duration.ofMinutes(10);
    /** Refresh before expiry: readers get the old value while one reload runs in the background. */
    static final Duration REFRESH_AFTER_WRITE = Duration.ofMinutes(8);
    static final long MAX_ENTRIES = 5000;

    private final LoadingCache<CurrencyPair, BigDecimal> legs;

    public RateCache(RateProvider provider) {
        this(provider, Ticker.systemTicker(), ForkJoinPool.commonPool());
    }

    RateCache(RateProvider provider, Ticker ticker, Executor executor) {
        this.legs = Caffeine.newBuilder()
                .expireAfterWrite(EXPIRE_AFTER_WRITE)
                .refreshAfterWrite(REFRESH_AFTER_WRITE)
                .maximumSize(MAX_ENTRIES)
                .ticker(ticker)
                .executor(executor)
                .recordStats()
                .build(provider::fetch);
    }

    public BigDecimal get(CurrencyPair pair) {
        if (pair.base().equals(USD) || pair.quote().equals(USD)) {
            return legs.get(pair);
        }
        BigDecimal base = legs.get(new CurrencyPair(USD, pair.base()));
        BigDecimal quote = legs.get(new CurrencyPair(USD, pair.quote()));
        return quote.divide(base, MathContext.DECIMAL64);
    }

    public void clear() {
        legs.invalidateAll();
    }

    /**
     * What is cached now, for the admin endpoint in :api (AdminRatesController). Only USD legs:
     * cross rates are computed on each read and never cached.
     */
    public Map<CurrencyPair, BigDecimal> snapshot() {
        return Map.copyOf(legs.asMap());
    }

    long estimatedSize() {
        return legs.estimatedSize();
    }

    void cleanUp() {
        legs.cleanUp();
    }
}
""",
        wall=0.1,
    )
    patch(
        """*** Begin Patch
*** Update File: rates/src/main/java/com/ledgerline/rates/RateCache.java
@@
     /**
      * What is cached now, for the admin endpoint in :api (AdminRatesController). Only USD legs:
      * cross rates are computed on each read and never cached.
      */
+    // TODO(marta): delete once billing-api's AdminRatesController stops calling it.
     public Map<CurrencyPair, BigDecimal> snapshot() {
*** End Patch""",
        "M rates/src/main/java/com/ledgerline/rates/RateCache.java",
    )
    exec_(
        "git commit -q -am 'rates: TODO to drop RateCache.snapshot()' && git push -u origin rates-caffeine",
        """ssh: Could not resolve hostname github.com: Temporary failure in name resolution
fatal: Could not read from remote repository.

Please make sure you have the correct access rights
and the repository exists.
""",
        code=128,
        wall=0.6,
    )
    exec_(
        "git log --oneline main..rates-caffeine; command -v gh && gh auth status 2>&1 | head -3",
        """9a41c06 rates: TODO to drop RateCache.snapshot()
5d3f8be docs: rates cache on caffeine
e04b9a2 rates: WireMock on a dynamic port in RateProviderHttpTest
c7e21f4 rates: replace homegrown cache with caffeine
/usr/bin/gh
You are not logged into any GitHub hosts. To log in, run: gh auth login
""",
        code=0,
        wall=0.4,
    )
    say(
        "TODO added and committed (`9a41c06`). The push failed: the sandbox has no network (`Could not resolve hostname github.com`) and `gh` is not logged in, so I could not open the draft PR. Branch `rates-caffeine` has 4 commits over main, ready for you to push:\n\n"
        "```\ngit push -u origin rates-caffeine\ngh pr create --draft --fill\n```\n\n"
        "State now: `RateCache` is Caffeine (USD legs only, expire 10 min, refresh 8 min, max 5000), `RateProvider` stays synchronous, `RateService.convert` unchanged, `snapshot()` kept for `:api` (TODO to delete), loadtest p99 6.4 ms. Still open: Caffeine 3.1.8 needs your security review, and the push/PR.",
    )

    # --- turn 13 -------------------------------------------------------------------------------
    user("ok I'll push. did the p99.9 thing go away with refresh?")
    exec_(
        "./gradlew :loadtest:run --args='--scenario convert --duration 30s --threads 16' -q",
        """scenario=convert threads=16 duration=30s provider-delay=25ms pairs=180 (cross=150)
warmup 5s ... done
requests     1,941,006   (64,700/s)
errors       0
latency  p50=0.2ms  p90=0.5ms  p95=0.9ms  p99=3.1ms  p99.9=7.7ms  max=29.8ms
provider     calls=30  (billed pairs=30)
cache        hitRate=0.99998  evictions=0  loads=30  refreshes=0  avgLoadPenalty=25.3ms
heap     used=179 MB  committed=1024 MB  max=1024 MB  (G1, -Xmx1g)
gc       young=9 (0.06s)  old=0
""",
        wall=36.0,
    )
    say(
        "Mostly, but not because of refresh: this run shows `refreshes=0`, since a 30 s loadtest never reaches the 8-minute mark. p99 3.1 ms, p99.9 7.7 ms (was 27.9 ms); the earlier p99.9 was warmup noise around the initial 30 loads. To see refresh under load the loadtest would need `--duration 10m` or a shorter refresh setting; I have not changed the loadtest for that."
    )

    out = HERE / "session.jsonl"
    out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in lines), encoding="utf-8")
    print(f"{out}: {len(lines)} records, {n_call} tool calls")


if __name__ == "__main__":
    main()
