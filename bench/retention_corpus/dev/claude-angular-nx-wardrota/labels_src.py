# ruff: noqa: E501
"""Labels for claude-angular-nx-wardrota, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "wardrota (Nx + Angular 17 rostering): wardTime pipe with WARD_TIME_ZONE for ward local time, swap request form (standalone, signals), getShifts() caller survey by a sub-agent, parked RosterGrid week-label bug fixed; two commits on feat/shift-swap, not pushed",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7b test split",
    "voice": "pair-programming user (\"let's\", \"we\"), parks a task (\"park that, back to the swap form\") and returns to it later",
    "toolchain": "Nx 19.8.4, Angular 17.3.12 standalone + signals, Karma 6.4.4 / Jasmine 5.1.2 in ChromeHeadless, @angular-eslint via nx lint, nx affected, TypeScript 5.4.5",
}
COMPACTIONS = [
    ("Ward time is done: `WardTimePipe` (`wardTime`", 1200),
    ("That provider line in app.config.ts is an uncommitted change", 1200),
    ("Swap form in: `SwapRequestFormComponent`", 1200),
]
FACTS = [
    f("w01", "request", "must", "the shift list in shift-ui shows shift times in UTC", "Show every shift time in ward local time (Europe/London) instead of UTC; night staff on Ward 7 saw 19:00 shifts as 18:00 during BST.", [r"Europe/London|ward local|local time", r"shift|time|UTC"], "done"),
    f("w02", "constraint", "must", "we do standalone components only, no new NgModules", "Standalone components only, no new NgModules.", [r"standalone", r"NgModule|only"]),
    f("w03", "constraint", "must", "component state in signals, not BehaviorSubjects", "Component state in signals, not BehaviorSubjects (reactive forms fine for inputs).", [r"signal", r"BehaviorSubject|state|not"]),
    f("w04", "constraint", "must", "we don't hand-edit libs/roster-data, it's generated from the OpenAPI spec", "Never hand-edit libs/roster-data: it is generated from the OpenAPI spec with nx run roster-data:generate.", [r"roster-data", r"generat|OpenAPI|hand-edit|don't edit|not edit"]),
    f("w05", "value", "nice", "Baseline is green: shift-ui 14/14, rota-web 22/22", "Baseline green: shift-ui 14/14, rota-web 22/22, lint clean; Angular 17.3.12, Nx 19.8.4, Karma 6.4.4, jasmine-core 5.1.2, TypeScript 5.4.5.", [r"17\.3\.12|19\.8\.4|14/14|22/22"]),
    f("w06", "decision", "must", "Yes, let's do the pipe. Put the zone in one place though, an injection token WARD_TIME_ZONE", "Decision: a wardTime pipe in shift-ui formats via Intl with the zone from an injection token WARD_TIME_ZONE (providedIn root, default 'Europe/London') so e.g. a Belfast site could change it.", [r"WARD_TIME_ZONE"]),
    f("w07", "preference", "should", "let's keep spec names in the 'should ...' style", "Spec names stay in the 'should ...' style.", [r"should \.\.\.|'should|should style|should-style|\"should"]),
    f("w08", "path", "should", "Ward time is done: `WardTimePipe` (`wardTime`", "libs/shift-ui/src/lib/ward-time.pipe.ts (WardTimePipe 'wardTime', formats time and long, WARD_TIME_ZONE) + ward-time.pipe.spec.ts, exported from libs/shift-ui/src/index.ts; used in shift-list, shift-detail (x2) and roster-grid (which forced 'UTC').", [r"ward-time\.pipe|WardTimePipe|wardTime", r"shift-list|shift-detail|roster-grid|index|shift-ui"]),
    f("w09", "error", "should", "Ha, the classic one: `Expected 'Wed 1 Jul, 19:00' to be 'Wed 1 Jul, 19:00'`", "Long-format spec failed with 'Expected 'Wed 1 Jul, 19:00' to be 'Wed 1 Jul, 19:00'': Chrome's ICU uses U+202F in some en-GB patterns (Node does not); fixed by building the string from formatToParts.", [r"U\+202F|formatToParts|narrow|no-break|ICU", r"Chrome|space|parts|long"], "fixed"),
    f("w10", "error", "should", "NG0302 in both roster-grid cell tests", "NG0302 'The pipe wardTime could not be found in RosterGridComponent': the component had no imports array; fixed by importing WardTimePipe.", [r"NG0302|could not be found", r"RosterGrid|roster-grid|imports"], "fixed"),
    f("w11", "command", "must", "npx nx test rota-web --watch=false --browsers=ChromeHeadless 2>&1 | tail -4", "Tests: npx nx test <shift-ui|rota-web> --watch=false --browsers=ChromeHeadless (add --skip-nx-cache after nx reset when results look stale); latest shift-ui 19/19, rota-web 27/27 plus the grid spec.", [r"nx test", r"ChromeHeadless|watch=false|rota-web|shift-ui"]),
    f("w12", "request", "should", "Let's have a look at — actually no, park that, back to the swap form", "The flaky RosterGridComponent spec 'should label the current week from Monday' (fails on CI some Mondays) was parked to do the swap form first, then picked up again and fixed.", [r"RosterGrid|roster-grid|week", r"park|flaky|later|back to"], "done"),
    f("w13", "request", "must", "Form: a nurse picks one of their own upcoming shifts, picks a colleague", "Swap request form: nurse picks one of her own upcoming shifts, a colleague, one of the colleague's shifts, optional note (max 200 chars).", [r"swap", r"colleague|note|200"], "done"),
    f("w14", "constraint", "must", "Rules: can't swap with yourself, colleague must have the same grade", "Swap rules: no swap with yourself, colleague must have the same grade (band 5 with band 5 etc.), both shifts in the future.", [r"yourself|same grade|future"]),
    f("w15", "finding", "must", "Summary of the survey: 4 real uses of the deprecated `getShifts()`", "Sub-agent survey: 4 real uses of deprecated ShiftService.getShifts(): my-week (snapshot copied once, why My week stays empty), ward-board (grouping once in the constructor), my-week spec, and testing/shift-service.mock.ts.", [r"getShifts", r"my-week|ward-board|mock|4 "]),
    f("w16", "finding", "should", "Grade lives only on `StaffMember.grade`", "Grade exists only on StaffMember.grade ('BAND_5' | 'BAND_6' | 'BAND_7' | 'HCA'), looked up via staffMember(id)(); Shift has no grade.", [r"grade", r"StaffMember|BAND_5|staffMember"]),
    f("w17", "finding", "should", "Gotcha: `shiftsFor()` creates a new computed per call", "Gotcha: ShiftService.shiftsFor() creates a new computed per call; call it once per user, not in a template.", [r"shiftsFor", r"computed|once|per call|template"]),
    f("w18", "decision", "should", "Yes exactly that. my-week/ward-board migration goes on the backlog, not today.", "Migrating my-week and ward-board off getShifts() goes on the backlog, not today; the form uses only shiftsFor/staffMember; submit calls SwapApi.requestSwap from roster-data.", [r"my-week|ward-board", r"backlog|later|not today|open"], "open"),
    f("w19", "path", "should", "Swap form in: `SwapRequestFormComponent`", "apps/rota-web/src/app/swap/swap-request-form.component.{ts,html,spec.ts}: SwapRequestFormComponent (signals colleagueId/submitted, computed myShifts/theirShifts/problem, reactive form, submit -> SwapApi.requestSwap), 5 specs; testing/shift-service.mock.ts gained shiftsFor and staffMember.", [r"swap-request-form|SwapRequestForm", r"signal|requestSwap|spec|mock"]),
    f("w20", "error", "must", "All 5 new specs: `NullInjectorError: No provider for HttpClient!`", "All 5 form specs failed 'NullInjectorError: No provider for HttpClient!' via WardTimePipe -> WARD_TIME_ZONE -> HttpClient: an uncommitted WARD_TIME_ZONE provider in app.config.ts injected HttpClient, and test-setup.ts copies appConfig.providers into every TestBed.", [r"HttpClient|NullInjector", r"app\.config|WARD_TIME_ZONE|test-setup"], "fixed"),
    f("w21", "fix", "should", "Ugh, yes, that was me on Friday trying to get the zone from the ward config endpoint", "The app.config.ts WARD_TIME_ZONE provider was the user's abandoned Friday experiment; dropped with git checkout -- app.config.ts, token default kept.", [r"drop|checkout|abandon|remov|Friday", r"zone|token|config"]),
    f("w22", "constraint", "should", "Don't touch test-setup.ts, other specs rely on it.", "Do not touch apps/rota-web/src/test-setup.ts: other specs rely on it copying appConfig providers.", [r"test-setup"]),
    f("w23", "error", "nice", "Karma's webpack cache after the git checkout", "One spec then failed 'Expected $[0].note = '' to equal undefined' from a stale build cache after the checkout; npx nx reset + --skip-nx-cache made rota-web 27/27.", [r"nx reset|skip-nx-cache|stale|cache", r"note|27/27|cache"], "fixed"),
    f("w24", "error", "should", "19:85  error  Expected `!==` but received `!=`", "nx lint rota-web failed with @angular-eslint/template/eqeqeq (!= and == in the swap form template); fixed with !== / ===.", [r"eqeqeq|!==|===", r"lint|template"], "fixed"),
    f("w25", "command", "should", "npx nx lint rota-web 2>&1 | tail -14", "Lint: npx nx lint rota-web (and shift-ui); clean at the end.", [r"nx lint|lint", r"rota-web|shift-ui|clean"]),
    f("w26", "value", "should", "CI runs in UTC, the runners are in Frankfurt I think", "User says CI runs in UTC, runners in Frankfurt; the grid spec fails on CI some Mondays.", [r"UTC|Frankfurt", r"CI|runner"]),
    f("w27", "finding", "must", "Confirmed, and it's worse than flaky", "Grid bug is real, not flakiness: weekLabel formatted local-midnight Monday with toISOString() (UTC), so east of UTC (Berlin, London in BST) it showed Sunday ('w/c 2026-10-04' instead of 2026-10-05).", [r"toISOString|UTC", r"Sunday|2026-10-04|east of UTC|local midnight"]),
    f("w28", "constraint", "should", "Keep startOfWeek exported, the ward-board uses it.", "Fix the component, not only the test; keep startOfWeek exported (ward-board uses it).", [r"startOfWeek"]),
    f("w29", "fix", "must", "The parked one is done too", "Fix: weekLabel uses a new exported localIsoDate() (local Y-M-D); the spec uses jasmine.clock().mockDate (Wed 7 Oct 2026 and Monday 00:15) and passes in UTC, Berlin, London, New York, Auckland.", [r"localIsoDate|mockDate|jasmine\.clock", r"week|label|zone|UTC|Berlin"]),
    f("w30", "command", "should", "npx nx affected -t lint test --base=main --browsers=ChromeHeadless", "npx nx affected -t lint test --base=main: green for rota-web, shift-ui and rota-web-e2e (lint).", [r"affected", r"lint|test|green|success"]),
    f("w31", "request", "should", "Let's commit it as two commits", "Commit as two commits on feat/shift-swap (ward-time pipe + grid fix; swap form); don't push, the user opens the PR after lunch.", [r"two commits|feat/shift-swap|push|PR", r"commit|push|PR"], "done"),
    f("w32", "state", "must", "Committed on feat/shift-swap, not pushed:", "Committed on feat/shift-swap, not pushed: c05a3f2 (wardTime pipe, WARD_TIME_ZONE, roster-grid local week label) and 9e4d1b7 (swap request form); working tree clean.", [r"c05a3f2|9e4d1b7"]),
    f("w33", "request", "nice", "Before we write it, can we find out who still calls ShiftService.getShifts()?", "Before writing the form, find who still calls the old synchronous ShiftService.getShifts() (which they agreed to stop using); done by a Task sub-agent.", [r"getShifts"], "done"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
