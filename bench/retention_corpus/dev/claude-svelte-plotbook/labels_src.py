# ruff: noqa: E501
"""Labels for claude-svelte-plotbook, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "plotbook (SvelteKit 2 + Svelte 5 runes, drizzle/SQLite): svelte-check after runes switch, plot dates a day early west of UTC, hidden plots.season schema gap, garden waiting list; dark-mode toggle dropped",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5a test split",
    "voice": "very polite, numbered lists for requests and house rules, withdraws one request later (\"never mind the dark-mode toggle\")",
    "toolchain": "SvelteKit 2.7 + Svelte 5.1 (runes), TypeScript, pnpm 9.4, vitest 2, svelte-check 4, Playwright 1.47, drizzle-orm/drizzle-kit + better-sqlite3, valibot",
}
COMPACTIONS = [
    ("Confirmed: `plots.season` does not exist in `schema.ts`", 900),
    ("Both items are done:", 1200),
    ("Here is where things stand:", 1500),
]
FACTS = [
    f("s01", "request", "must", "Since I switched the project to runes mode last week", "Make svelte-check (pnpm check) pass again after the switch to runes mode (3 errors: $: in Header, export let in the garden page, a string|null type in +page.server.ts).", [r"svelte-check|pnpm check", r"pass|errors?|runes"], "done"),
    f("s02", "request", "must", "A gardener in Halifax reported", "Fix dates shown a day early: a Halifax gardener saw 'booked until 28 Feb 2026' for a booking until 1 March (time-zone bug).", [r"Halifax|28 Feb|time[- ]zone|off[- ]by[- ]one|day early", r"date|1 Mar|day|booked"], "done"),
    f("s03", "request", "must", "Could you please add a small dark-mode toggle to the header?", "A dark-mode toggle in the header was requested, then withdrawn by the user (the designer is redoing the header); it was built and removed again.", [r"dark[- ]mode", r"toggle|header"], "reversed"),
    f("s04", "request", "must", "people should be able to join a waiting list", "When all plots of a garden are taken, people can join that garden's waiting list.", [r"waiting list|waitlist", r"full|taken|join|garden"], "done"),
    f("s05", "constraint", "must", "Please use pnpm only (never npm or yarn)", "Use pnpm only, never npm or yarn (the lockfile is pnpm's).", [r"pnpm", r"only|never|not npm|yarn|lockfile"]),
    f("s06", "constraint", "must", "New code should use Svelte 5 runes", "New code uses Svelte 5 runes: no stores, no export let.", [r"runes|\$props|\$derived", r"no stores|export let|new code|Svelte 5"]),
    f("s07", "constraint", "must", "Please ask me before adding any new dependency.", "Ask before adding any new dependency.", [r"dependenc", r"ask|before|no new|without asking"]),
    f("s08", "constraint", "must", "please do not run migrations against the shared dev database", "Never run migrations against the shared dev database (the one in .env, on the VPS, also used by Bartek); the e2e database is fine.", [r"shared dev (database|db)|dev database|\.env|VPS", r"\bnot\b|never|don.?t|e2e"]),
    f("s09", "decision", "should", "please keep only one entry, and show a friendly message", "Same email twice for the same garden: keep one entry and show a friendly 'You are already on the list' instead of an error.", [r"already on the list|one entry|duplicate|twice|same email", r"friendly|already|entry|email"]),
    f("s10", "decision", "should", "Yes, please show their position", "Show the person's position: 'You are number N on the waiting list'.", [r"position|You are number|number \d+ on the", r"show|list"]),
    f("s11", "finding", "must", "Confirmed: `plots.season` does not exist in `schema.ts`", "schema.ts lacked plots.season although the hand-written migration 0002 added the column, so the season filter in gardens.ts used an undefined column; tsc showed it, svelte-check did not. Added to the schema (no DB change needed).", [r"season", r"schema|0002|column|tsc"]),
    f("s12", "error", "should", "drizzle-kit generated a migration adding `season` again", "drizzle-kit generate produced 0004_flimsy_vision.sql re-adding season (its snapshot did not know the hand-written column; applying it would fail with a duplicate column); the file was deleted.", [r"0004|flimsy_vision|snapshot|duplicate column", r"season|generat|snapshot"], "fixed"),
    f("s13", "decision", "should", "Please fix the snapshot properly, so that the next generate is clean.", "Fix drizzle's snapshot properly: custom no-op migration drizzle/0004_sync_season_snapshot.sql; pnpm db:generate then reports no changes.", [r"snapshot", r"fix|properly|clean|generate"], "done"),
    f("s14", "decision", "nice", "the current year as default is perfect", "The season query parameter defaults to the current year when missing.", [r"current year|getFullYear", r"season|default"]),
    f("s15", "fix", "must", "Both items are done:", "formatPlotDate builds the date with Date.UTC from the YYYY-MM-DD parts and formats with timeZone 'UTC', so a booking date is the same calendar day in every time zone.", [r"Date\.UTC|timeZone|\bUTC\b", r"formatPlotDate|date|calendar day"]),
    f("s16", "decision", "should", "now runs vitest with `TZ=America/Halifax`", "pnpm test:unit runs vitest with TZ=America/Halifax so the off-by-one shows on any machine.", [r"TZ=America/Halifax|Halifax", r"test:unit|vitest|tests?"]),
    f("s17", "request", "should", "please also fix the a11y warning in PlotCard", "Fix the a11y warning in PlotCard (clickable div): the plot heading is now a button with aria-expanded; svelte-check 0 errors, 0 warnings.", [r"a11y|accessib", r"PlotCard|button|warning"], "done"),
    f("s18", "decision", "should", "Here is where things stand:", "Waiting list table waitlist_entries with a unique index waitlist_garden_email on (garden_id, email); migration drizzle/0005_waitlist.sql applied only to e2e.sqlite, not the shared dev DB; form action ?/waitlist with valibot.", [r"waitlist_entries|0005_waitlist|unique index|waitlist_garden_email", r"migration|table|unique|e2e"]),
    f("s19", "path", "should", "The waiting-list logic, kept out of the route", "src/lib/server/waitlist.ts joinWaitlist(): emails trimmed and lower-cased, a repeat returns status 'already' with the existing position; unit-tested on in-memory SQLite with all migrations (waitlist.test.ts).", [r"waitlist\.ts|joinWaitlist", r"lower|trim|already|position"]),
    f("s20", "error", "should", "My no-op migration bites back", "The no-op migration's SELECT 1; failed in drizzle's migrator (better-sqlite3: This statement does not return data. Use run() instead); replaced by CREATE INDEX IF NOT EXISTS on the existing plots_garden_idx.", [r"SELECT 1|does not return data|no-op", r"CREATE INDEX IF NOT EXISTS|run\(\)|migrat"], "fixed"),
    f("s21", "error", "nice", "Error: Cannot find name 'ActionData'. (ts)", "svelte-check: ActionData not imported and 'position' missing on the fail() shape; fixed with the import and narrowing via 'position' in form.", [r"ActionData|position", r"Cannot find|does not exist|narrow|in form"], "fixed"),
    f("s22", "error", "should", "Both fail with a strict-mode violation", "Playwright strict mode violation: getByRole('button', { name: 'Join' }) also matched the header's 'Join Plotbook' button; tests use the exact name 'Join the waiting list'.", [r"strict[- ]mode", r"Join Plotbook|exact|Join"], "fixed"),
    f("s23", "request", "nice", "Yes, please add e2e.sqlite to .gitignore.", "e2e.sqlite was added to .gitignore.", [r"e2e\.sqlite", r"gitignore"], "done"),
    f("s24", "decision", "must", "never mind the dark-mode toggle", "Dark-mode toggle no longer needed (the designer redoes the whole header, dark mode included, next month): remove it so nothing is left.", [r"dark[- ]mode|ThemeToggle|toggle", r"never mind|remov|take it out|taken out|drop|no longer|designer|gone"]),
    f("s25", "state", "should", "All done:\n\n1. `e2e.sqlite` is in", "Dark mode fully removed: ThemeToggle.svelte deleted, header import and tag removed, app.css reverted; the header keeps its runes fix.", [r"ThemeToggle|dark[- ]mode|toggle", r"gone|deleted|removed|reverted"], "done"),
    f("s26", "error", "should", "8 of 9 pass; one old test fails because of my a11y change", "Old e2e test booking.spec.ts clicked the .card centre, which no longer opens the notes after the a11y button change; it now clicks the plot button.", [r"booking\.spec|\.card|notes", r"button|locator|click|a11y"], "fixed"),
    f("s27", "value", "should", "Playwright 9 passed (36.9 s)", "Final: svelte-check 0 errors / 0 warnings, vitest 4 passed, Playwright 9 passed (36.9 s).", [r"9 passed|36\.9|4 passed", r"playwright|vitest|e2e|tests?"]),
    f("s28", "state", "must", "Committed as e5b0c47 on the new branch `waitlist`", "Committed as e5b0c47 on new branch waitlist, not pushed.", [r"e5b0c47|branch .?waitlist|waitlist.? branch", r"commit|push|branch"], "done"),
    f("s29", "request", "must", "I would like to read the migration with Bartek first", "Do not push yet: the user reviews the migrations (0004 no-op, 0005 waitlist) with Bartek first, then they apply them to the dev database together (pnpm db:migrate with the dev DATABASE_URL).", [r"Bartek|push|migrations?", r"review|read|first|not push|apply|dev database"], "open"),
    f("s30", "request", "should", "I would love emails to the first person on the list", "Next week: email the first person on a garden's waiting list when a plot becomes free; not started.", [r"e-?mails?", r"first (person|on the list)|becomes free|waiting list|next week"], "open"),
    f("s31", "command", "nice", "rm -f e2e.sqlite && pnpm test:e2e", "Full e2e run from a fresh database: rm -f e2e.sqlite && pnpm test:e2e (Playwright's web server migrates and seeds e2e.sqlite, preview on port 4173).", [r"test:e2e|playwright", r"e2e\.sqlite|fresh|rm -f"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
