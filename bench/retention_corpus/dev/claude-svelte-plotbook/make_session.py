# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Claude Code session written by hand for the heldout5a split.

A very polite user writing numbered lists has Claude Code clean up svelte-check errors after
switching a SvelteKit app to runes mode, fix a time-zone off-by-one in plot dates, add a garden
waiting list (drizzle table + migration that must not be applied to the shared dev database, form
action with valibot, Playwright test), and start a dark-mode toggle that the user later says is no
longer needed. pnpm, vitest, svelte-check, playwright test. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/Users/amara/dev/plotbook"
s = ClaudeSession(CWD, "2026-09-02T10:05:31", seed="plotbook-waitlist", branch="main")

PKG = "package.json"
SVCFG = "svelte.config.js"
DATES = "src/lib/dates.ts"
DTEST = "src/lib/dates.test.ts"
PAGE = "src/routes/gardens/[slug]/+page.svelte"
PSERV = "src/routes/gardens/[slug]/+page.server.ts"
HEADER = "src/lib/components/Header.svelte"
PLOTCARD = "src/lib/components/PlotCard.svelte"
SCHEMA = "src/lib/server/db/schema.ts"
WAIT = "src/lib/server/waitlist.ts"
WTEST = "src/lib/server/waitlist.test.ts"
E2E = "tests/waitlist.spec.ts"
PWCFG = "playwright.config.ts"
CSS = "src/app.css"
TOGGLE = "src/lib/components/ThemeToggle.svelte"


def sh(cmd: str, out: str, code: int = 0, desc: str = "", text: str | None = None) -> None:
    s.bash(cmd, out, code=code, description=desc, text=text)


s.files.update({
    PKG: """{
  "name": "plotbook",
  "version": "0.14.0",
  "private": true,
  "type": "module",
  "packageManager": "pnpm@9.4.0",
  "scripts": {
    "dev": "vite dev",
    "build": "vite build",
    "preview": "vite preview",
    "check": "svelte-kit sync && svelte-check --tsconfig ./tsconfig.json",
    "test:unit": "vitest run",
    "test:e2e": "playwright test",
    "db:generate": "drizzle-kit generate",
    "db:migrate": "drizzle-kit migrate"
  },
  "devDependencies": {
    "@playwright/test": "^1.47.2",
    "@sveltejs/adapter-node": "^5.2.2",
    "@sveltejs/kit": "^2.7.1",
    "@sveltejs/vite-plugin-svelte": "^4.0.0",
    "drizzle-kit": "^0.26.2",
    "svelte": "^5.1.9",
    "svelte-check": "^4.0.5",
    "typescript": "^5.6.2",
    "vite": "^5.4.8",
    "vitest": "^2.1.2"
  },
  "dependencies": {
    "better-sqlite3": "^11.3.0",
    "drizzle-orm": "^0.35.1",
    "valibot": "^0.42.1"
  }
}
""",
    SVCFG: """import adapter from '@sveltejs/adapter-node';
import { vitePreprocess } from '@sveltejs/vite-plugin-svelte';

/** @type {import('@sveltejs/kit').Config} */
const config = {
\tpreprocess: vitePreprocess(),
\tcompilerOptions: { runes: true },
\tkit: { adapter: adapter() }
};

export default config;
""",
    DATES: """const fmt = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

/** "2026-03-01" -> "1 Mar 2026" */
export function formatPlotDate(iso: string): string {
\treturn fmt.format(new Date(iso));
}
""",
    DTEST: """import { describe, expect, it } from 'vitest';
import { formatPlotDate } from './dates';

describe('formatPlotDate', () => {
\tit('formats an ISO date', () => {
\t\texpect(formatPlotDate('2026-03-01')).toBe('1 Mar 2026');
\t});
});
""",
    PAGE: """<script lang="ts">
\timport PlotCard from '$lib/components/PlotCard.svelte';
\timport type { PageData } from './$types';

\texport let data: PageData;
</script>

<h1>{data.garden.name}</h1>
<p>{data.free} of {data.plots.length} plots free</p>

<ul class="plots">
\t{#each data.plots as plot (plot.id)}
\t\t<li><PlotCard {plot} /></li>
\t{/each}
</ul>
""",
    PSERV: """import { error } from '@sveltejs/kit';
import { db } from '$lib/server/db';
import { getGarden, listPlots } from '$lib/server/gardens';
import type { PageServerLoad } from './$types';

export const load: PageServerLoad = async ({ params, url }) => {
\tconst garden = getGarden(db, params.slug);
\tif (!garden) error(404, 'No such garden');
\tconst season: string = url.searchParams.get('season');
\tconst plots = listPlots(db, garden.id, season);
\treturn { garden, plots, free: plots.filter((p) => !p.bookedBy).length };
};
""",
    HEADER: """<script lang="ts">
\timport { page } from '$app/stores';
\tlet path = '';
\t$: path = $page.url.pathname;
</script>

<header>
\t<a href="/" class="logo">Plotbook</a>
\t<nav>
\t\t<a href="/gardens" aria-current={path.startsWith('/gardens') ? 'page' : undefined}>Gardens</a>
\t\t<a href="/account">Account</a>
\t</nav>
\t<form method="POST" action="/join"><button>Join Plotbook</button></form>
</header>
""",
    PLOTCARD: """<script lang="ts">
\timport { formatPlotDate } from '$lib/dates';
\timport type { Plot } from '$lib/types';

\tlet { plot }: { plot: Plot } = $props();
\tlet open = $state(false);
</script>

<div class="card" onclick={() => (open = !open)}>
\t<strong>Plot {plot.number}</strong> ({plot.sizeM2} m²)
\t{#if plot.bookedBy}
\t\t<span>booked until {formatPlotDate(plot.bookedUntil)}</span>
\t{:else}
\t\t<span class="free">free</span>
\t{/if}
\t{#if open}<p>{plot.notes}</p>{/if}
</div>
""",
    SCHEMA: """import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const gardens = sqliteTable('gardens', {
\tid: integer('id').primaryKey(),
\tslug: text('slug').notNull().unique(),
\tname: text('name').notNull()
});

export const plots = sqliteTable('plots', {
\tid: integer('id').primaryKey(),
\tgardenId: integer('garden_id').notNull().references(() => gardens.id),
\tnumber: integer('number').notNull(),
\tsizeM2: integer('size_m2').notNull(),
\tbookedBy: text('booked_by'),
\tbookedUntil: text('booked_until'),
\tnotes: text('notes')
});
""",
    PWCFG: """import { defineConfig } from '@playwright/test';

export default defineConfig({
\twebServer: {
\t\tcommand: 'DATABASE_URL=file:e2e.sqlite pnpm db:migrate && sqlite3 e2e.sqlite < tests/seed.sql && DATABASE_URL=file:e2e.sqlite pnpm build && DATABASE_URL=file:e2e.sqlite pnpm preview',
\t\tport: 4173
\t},
\ttestDir: 'tests',
\tretries: 1
});
""",
    CSS: """:root {
\t--bg: #fbfaf5;
\t--fg: #1f2a1c;
\t--accent: #4d7c0f;
}

body {
\tbackground: var(--bg);
\tcolor: var(--fg);
\tfont-family: system-ui, sans-serif;
}
""",
})

CHECK_BEFORE = """Loading svelte-check in workspace: /Users/amara/dev/plotbook
Getting Svelte diagnostics...

/Users/amara/dev/plotbook/src/lib/components/Header.svelte:4:2
Error: `$:` is not allowed in runes mode, use `$derived` or `$effect` instead
https://svelte.dev/e/legacy_reactive_statement_invalid (svelte)
\tlet path = '';
\t$: path = $page.url.pathname;
</script>

/Users/amara/dev/plotbook/src/routes/gardens/[slug]/+page.svelte:5:2
Error: Cannot use `export let` in runes mode — use `$props()` instead
https://svelte.dev/e/legacy_export_invalid (svelte)

\texport let data: PageData;
</script>

/Users/amara/dev/plotbook/src/routes/gardens/[slug]/+page.server.ts:9:8
Error: Type 'string | null' is not assignable to type 'string'.
  Type 'null' is not assignable to type 'string'. (ts)
\tif (!garden) error(404, 'No such garden');
\tconst season: string = url.searchParams.get('season');
\tconst plots = listPlots(db, garden.id, season);

/Users/amara/dev/plotbook/src/lib/components/PlotCard.svelte:9:1
Warn: Visible, non-interactive elements with a click event must be accompanied by a keyboard event handler. Consider whether an interactive element such as `<button type="button">` or `<a>` might be more appropriate
https://svelte.dev/e/a11y_click_events_have_key_events (svelte)

<div class="card" onclick={() => (open = !open)}>

====================================
svelte-check found 3 errors and 1 warning in 4 files
"""

# ============================================================================================ turn 1
s.user(
    "Good morning, and thank you in advance for your help! I have a few things for Plotbook today, if that is all right:\n\n"
    "1. Since I switched the project to runes mode last week, `pnpm check` shows errors. Could you please make svelte-check pass again?\n"
    "2. A gardener in Halifax reported that her plot shows \"booked until 28 Feb 2026\" although it is booked until 1 March. I suspect a time-zone problem in the date formatting.\n"
    "3. Could you please add a small dark-mode toggle to the header?\n"
    "4. The big one: when all plots of a garden are taken, people should be able to join a waiting list for that garden.\n\n"
    "A few house rules, if you don't mind:\n"
    "1. Please use pnpm only (never npm or yarn), because the lockfile is pnpm's.\n"
    "2. New code should use Svelte 5 runes, no stores and no `export let`.\n"
    "3. Please ask me before adding any new dependency.\n"
    "4. Database changes need a migration, but please do not run migrations against the shared dev database (the one in `.env`, it lives on our little VPS and my colleague Bartek uses it too). The e2e database is fine.\n\n"
    "Could you have a look around first and tell me how you would approach it? Thank you!",
    pause=0,
)
sh("ls -a && cat .env | sed 's/=.*/=…/'", ".\n..\n.env\n.git\n.gitignore\n.npmrc\n.prettierrc\nREADME.md\ndrizzle\ndrizzle.config.ts\npackage.json\nplaywright.config.ts\npnpm-lock.yaml\nsrc\nstatic\ntests\ntsconfig.json\nvite.config.ts\nDATABASE_URL=…\n", desc="List project root")
s.reads([PKG, SVCFG])
sh("node -v && pnpm -v && git log --oneline -6", "v20.11.1\n9.4.0\n7ac31e2 runes: compilerOptions.runes = true\nd90f4b5 plot notes\n2e8b6c1 PlotCard: $props\n51fa0d7 season filter\n0c2e9a4 drizzle migrations\nb61d3f8 initial\n", desc="Versions and history")
sh("find src tests drizzle -type f | sort", "drizzle/0000_init.sql\ndrizzle/0001_plots.sql\ndrizzle/0002_season.sql\ndrizzle/0003_notes.sql\ndrizzle/meta/_journal.json\nsrc/app.css\nsrc/app.d.ts\nsrc/app.html\nsrc/lib/components/Header.svelte\nsrc/lib/components/PlotCard.svelte\nsrc/lib/dates.test.ts\nsrc/lib/dates.ts\nsrc/lib/server/db.ts\nsrc/lib/server/db/schema.ts\nsrc/lib/server/gardens.ts\nsrc/lib/types.ts\nsrc/routes/+layout.svelte\nsrc/routes/+page.svelte\nsrc/routes/gardens/+page.svelte\nsrc/routes/gardens/[slug]/+page.server.ts\nsrc/routes/gardens/[slug]/+page.svelte\ntests/booking.spec.ts\ntests/gardens.spec.ts\n", desc="Source files")
sh("pnpm check 2>&1", CHECK_BEFORE, code=1, desc="svelte-check")
s.reads([HEADER, PAGE, PSERV])
s.reads([DATES, DTEST, PLOTCARD])
sh("pnpm test:unit 2>&1 | tail -6", " ✓ src/lib/dates.test.ts (1 test) 3ms\n\n Test Files  1 passed (1)\n      Tests  1 passed (1)\n   Start at  10:09:12\n   Duration  412ms (transform 38ms, setup 0ms, collect 29ms, tests 3ms, environment 0ms, prepare 71ms)\n", desc="Unit tests")
sh("TZ=America/Halifax node -e \"console.log(new Intl.DateTimeFormat('en-GB',{day:'numeric',month:'short',year:'numeric'}).format(new Date('2026-03-01')))\"", "28 Feb 2026\n", desc="Reproduce the date bug")
s.reads([SCHEMA, PWCFG])
sh("cat drizzle.config.ts src/lib/server/db.ts", "import { defineConfig } from 'drizzle-kit';\n\nexport default defineConfig({\n\tschema: './src/lib/server/db/schema.ts',\n\tout: './drizzle',\n\tdialect: 'sqlite',\n\tdbCredentials: { url: process.env.DATABASE_URL! }\n});\nimport Database from 'better-sqlite3';\nimport { drizzle } from 'drizzle-orm/better-sqlite3';\nimport { env } from '$env/dynamic/private';\nimport * as schema from './db/schema';\n\nexport const db = drizzle(new Database(env.DATABASE_URL.replace(/^file:/, '')), { schema });\n", desc="DB setup")
s.assistant(
    "Thank you for the clear list. Here is what I found and how I'd approach each item:\n\n"
    "1. **svelte-check**: 3 errors and 1 warning. `Header.svelte` uses a `$:` statement and `+page.svelte` uses `export let` (both invalid in runes mode); `+page.server.ts` types `url.searchParams.get('season')` as `string`, but it can be `null`. The warning is an a11y one: `PlotCard` has a clickable `<div>` without keyboard handling.\n"
    "2. **Dates**: confirmed. `new Date('2026-03-01')` is parsed as UTC midnight, so in Halifax (UTC-4) it is still 28 Feb in local time. I'd parse the `YYYY-MM-DD` parts into a local date instead, and add a test that runs in a negative-offset time zone (the current test passes only because this machine is east of UTC).\n"
    "3. **Dark mode**: a small `ThemeToggle.svelte` in the header that sets `data-theme` on `<html>` and remembers the choice in `localStorage`, with CSS variables in `app.css`.\n"
    "4. **Waiting list**: a `waitlist_entries` table (garden, email, created_at) with a drizzle migration (generated, applied only to `e2e.sqlite`), a form action on the garden page validated with valibot (already a dependency), and a Playwright test.\n\n"
    "Two questions about the waiting list, please:\n"
    "1. If the same email signs up twice for a garden, should that be an error, or silently ignored?\n"
    "2. Should people see their position on the list?"
)

# ============================================================================================ turn 2
s.user(
    "Thank you, that all sounds very sensible.\n\n"
    "1. The same email twice for the same garden: please keep only one entry, and show a friendly message like \"You are already on the list\" rather than an error.\n"
    "2. Yes, please show their position, e.g. \"You are number 7 on the waiting list\".\n"
    "3. Could you please start with the svelte-check errors and the date bug? Those are the ones people notice."
)
s.edit(HEADER, """\timport { page } from '$app/stores';
\tlet path = '';
\t$: path = $page.url.pathname;""", """\timport { page } from '$app/state';
\tconst path = $derived(page.url.pathname);""", text="Starting with the runes errors. Header first: `$app/state` instead of the `$page` store, and `$derived`.")
s.edit(PAGE, """\texport let data: PageData;""", """\tlet { data }: { data: PageData } = $props();""")
s.edit(PSERV, """\tconst season: string = url.searchParams.get('season');""", """\tconst season = url.searchParams.get('season') ?? undefined;""")
sh("pnpm check 2>&1 | tail -12", """/Users/amara/dev/plotbook/src/routes/gardens/[slug]/+page.server.ts:10:41
Error: Argument of type 'string | undefined' is not assignable to parameter of type 'string'.
  Type 'undefined' is not assignable to type 'string'. (ts)
\tconst season = url.searchParams.get('season') ?? undefined;
\tconst plots = listPlots(db, garden.id, season);
\treturn { garden, plots, free: plots.filter((p) => !p.bookedBy).length };

/Users/amara/dev/plotbook/src/lib/components/PlotCard.svelte:9:1
Warn: Visible, non-interactive elements with a click event must be accompanied by a keyboard event handler. Consider whether an interactive element such as `<button type="button">` or `<a>` might be more appropriate
https://svelte.dev/e/a11y_click_events_have_key_events (svelte)

====================================
svelte-check found 1 error and 1 warning in 2 files
""", code=1, desc="svelte-check again")
sh("grep -n 'export function listPlots' -A10 src/lib/server/gardens.ts", "14:export function listPlots(db: Db, gardenId: number, season: string) {\n15-\treturn db\n16-\t\t.select()\n17-\t\t.from(plots)\n18-\t\t.where(and(eq(plots.gardenId, gardenId), eq(plots.season, season)))\n19-\t\t.all();\n20-}\n", desc="listPlots signature")
sh("grep -rn 'season' src/lib/server/db/schema.ts drizzle/0002_season.sql src/routes/gardens/+page.svelte | head", "drizzle/0002_season.sql:1:ALTER TABLE `plots` ADD `season` text DEFAULT '2026' NOT NULL;\nsrc/routes/gardens/+page.svelte:12:\t\t<a href=\"/gardens/{g.slug}?season={currentSeason}\">{g.name}</a>\n", desc="Where season comes from")
s.assistant(
    "`listPlots` needs a season string. Looking at it more closely, I notice `schema.ts` has no `season` column at all, although migration 0002 added it (`DEFAULT '2026'`), so `plots.season` in gardens.ts is `undefined` at runtime and the filter compares with NULL... That deserves a separate look. For the type error I'll default the season to the current year when the query parameter is missing, which matches the link on the gardens page."
)
sh("grep -n 'season' src/lib/server/gardens.ts src/lib/types.ts", "src/lib/server/gardens.ts:18:\t\t.where(and(eq(plots.gardenId, gardenId), eq(plots.season, season)))\n", desc="season references")
sh("pnpm exec tsc --noEmit -p . 2>&1 | grep -i season", "src/lib/server/gardens.ts(18,50): error TS2339: Property 'season' does not exist on type 'SQLiteTableWithColumns<{ name: \"plots\"; schema: undefined; columns: { id: SQLiteColumn<...>; ... 5 more ...; notes: SQLiteColumn<...>; }; dialect: \"sqlite\"; }>'.\n", desc="Type-check the server code")
s.assistant(
    "Confirmed: `plots.season` does not exist in `schema.ts` (the migration has the column, the schema file never got it). svelte-check does not report it because it only checks files reachable from Svelte components' types; `tsc` does. Adding the column to the schema is not a database change (the column already exists via 0002), so no new migration is needed. I'll add it and check that `drizzle-kit generate` produces nothing."
)
s.edit(SCHEMA, """\tnotes: text('notes')
});""", """\tnotes: text('notes'),
\tseason: text('season').notNull().default('2026')
});""")
sh("DATABASE_URL=file:e2e.sqlite pnpm db:generate 2>&1 | tail -3", "Reading config file '/Users/amara/dev/plotbook/drizzle.config.ts'\n[✓] Your SQL migration file ➜ drizzle/0004_flimsy_vision.sql 🚀\n", desc="Generate (should be empty)")
sh("cat drizzle/0004_flimsy_vision.sql; sqlite3 e2e.sqlite 'PRAGMA table_info(plots)' | grep season", "ALTER TABLE `plots` ADD `season` text DEFAULT '2026' NOT NULL;\n", desc="What was generated")
s.assistant(
    "drizzle-kit generated a migration adding `season` again: its snapshot (`drizzle/meta`) doesn't know about 0002's column either, because 0002 was written by hand. Applying this would fail with a duplicate column. I'm deleting 0004 and the journal entry it added, and keeping only the schema.ts change. The snapshot mismatch stays, and the next real `db:generate` (the waiting list) will include this `ALTER` again, which I'll have to remove by hand. Is that acceptable, or would you prefer I fix the snapshot properly?"
)
sh("rm drizzle/0004_flimsy_vision.sql drizzle/meta/0004_snapshot.json && git checkout drizzle/meta/_journal.json && git status --short drizzle", "", desc="Drop the generated migration")
s.user(
    "Oh dear, yes, 0002 was my handwritten one. Thank you for catching that!\n\n"
    "1. Please fix the snapshot properly, so that the next generate is clean.\n"
    "2. And for the season: the current year as default is perfect."
)
sh("DATABASE_URL=file:e2e.sqlite pnpm exec drizzle-kit generate --custom --name sync_season_snapshot 2>&1 | tail -2; ls drizzle", "[✓] Your SQL migration file ➜ drizzle/0004_sync_season_snapshot.sql 🚀\n0000_init.sql\n0001_plots.sql\n0002_season.sql\n0003_notes.sql\n0004_sync_season_snapshot.sql\nmeta\n", desc="Empty custom migration to carry the snapshot")
s.write("drizzle/0004_sync_season_snapshot.sql", "-- No-op: plots.season already exists (added by hand in 0002_season.sql).\n-- This migration only brings drizzle's snapshot in line with the schema.\nSELECT 1;\n", text="A custom (empty) migration: it updates drizzle's snapshot to include `season` without touching the table.")
sh("DATABASE_URL=file:e2e.sqlite pnpm db:generate 2>&1 | tail -2", "Reading config file '/Users/amara/dev/plotbook/drizzle.config.ts'\nNo schema changes, nothing to migrate 😴\n", desc="Generate is clean now")
s.edit(PSERV, """\tconst season = url.searchParams.get('season') ?? undefined;""", """\tconst season = url.searchParams.get('season') ?? String(new Date().getFullYear());""")
sh("pnpm check 2>&1 | tail -3; pnpm exec tsc --noEmit -p . 2>&1 | tail -2", "====================================\nsvelte-check found 0 errors and 1 warning in 1 file\n", desc="svelte-check and tsc")
s.edit(DTEST, """describe('formatPlotDate', () => {
	it('formats an ISO date', () => {
		expect(formatPlotDate('2026-03-01')).toBe('1 Mar 2026');
	});
});""", """describe('formatPlotDate', () => {
	it('formats an ISO date', () => {
		expect(formatPlotDate('2026-03-01')).toBe('1 Mar 2026');
	});

	// test:unit runs with TZ=America/Halifax (UTC-4 in March): a date parsed as UTC midnight
	// would show the day before there
	it('keeps the calendar day west of UTC', () => {
		expect(formatPlotDate('2026-03-01')).toBe('1 Mar 2026');
		expect(formatPlotDate('2026-12-31')).toBe('31 Dec 2026');
	});
});""", text="Now the date bug. The formatter takes the process's time zone when it is created, so the reliable way to test this is to run vitest itself in a zone west of UTC.")
s.edit(PKG, """    "test:unit": "vitest run",""", """    "test:unit": "TZ=America/Halifax vitest run",""")
sh("pnpm test:unit 2>&1 | tail -22", """ ❯ src/lib/dates.test.ts (2 tests | 2 failed) 8ms
   × formatPlotDate > formats an ISO date 4ms
     → expected '28 Feb 2026' to be '1 Mar 2026' // Object.is equality
   × formatPlotDate > keeps the calendar day west of UTC 1ms
     → expected '28 Feb 2026' to be '1 Mar 2026' // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 2 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/lib/dates.test.ts > formatPlotDate > formats an ISO date
AssertionError: expected '28 Feb 2026' to be '1 Mar 2026' // Object.is equality

- Expected
+ Received

- 1 Mar 2026
+ 28 Feb 2026

 ❯ src/lib/dates.test.ts:6:38

 Test Files  1 failed (1)
      Tests  2 failed (2)
   Start at  10:31:40
""", code=1, desc="Unit tests (now in Halifax time)")
s.assistant("Reproduced in the test suite: under TZ=America/Halifax both cases show 28 Feb. Booking dates are plain calendar dates, so I'll build them with `Date.UTC` and format with `timeZone: 'UTC'`; then the machine's zone no longer matters.")
s.write(DATES, """const fmt = new Intl.DateTimeFormat('en-GB', {
\tday: 'numeric',
\tmonth: 'short',
\tyear: 'numeric',
\ttimeZone: 'UTC'
});

/**
 * "2026-03-01" -> "1 Mar 2026", the same calendar day in every time zone.
 * Booking dates are plain calendar dates (no time), so they are formatted as UTC dates
 * on purpose; `new Date("YYYY-MM-DD")` alone would be the day before west of UTC.
 */
export function formatPlotDate(iso: string): string {
\tconst [y, m, d] = iso.split('-').map(Number);
\treturn fmt.format(new Date(Date.UTC(y, m - 1, d)));
}
""")
sh("pnpm test:unit 2>&1 | tail -5", "\n Test Files  1 passed (1)\n      Tests  2 passed (2)\n   Start at  10:33:02\n   Duration  371ms\n", desc="Unit tests")
sh("for tz in Pacific/Honolulu Asia/Tokyo Pacific/Kiritimati; do TZ=$tz pnpm exec vitest run 2>&1 | grep 'Tests '; done", "      Tests  2 passed (2)\n      Tests  2 passed (2)\n      Tests  2 passed (2)\n", desc="Same tests in three more time zones")
s.assistant(
    "Both items are done:\n\n"
    "1. **svelte-check**: 0 errors. Header uses `$app/state` + `$derived`, the garden page uses `$props()`, and the season defaults to the current year when the `season` parameter is missing. The remaining warning is the a11y one in `PlotCard` (clickable `<div>`); I have left it for now.\n"
    "2. **The hidden schema bug**: `schema.ts` lacked `plots.season` (added by hand in 0002), so the season filter in `gardens.ts` compared against an undefined column. Added it to the schema, plus `drizzle/0004_sync_season_snapshot.sql`, a no-op custom migration so drizzle's snapshot knows the column; `pnpm db:generate` now reports no changes.\n"
    "3. **Dates**: `formatPlotDate` builds the date with `Date.UTC` and formats with `timeZone: 'UTC'`, so 2026-03-01 is \"1 Mar 2026\" everywhere. `pnpm test:unit` now runs vitest with `TZ=America/Halifax`, so a regression shows up on any machine; the tests also pass in Honolulu, Tokyo and Kiritimati.\n\n"
    "Nothing was run against the shared dev database; `drizzle-kit generate` only reads the schema files."
)

# ============================================================================================ turn 3
s.user(
    "This is wonderful, thank you! Especially the season column, that explains a strange bug report from June.\n\n"
    "1. Could you please do the dark-mode toggle next? It is small, so it is a nice warm-up.\n"
    "2. Then the waiting list, please.\n"
    "3. And yes, please also fix the a11y warning in PlotCard while you are there; a button is fine."
)
s.write(TOGGLE, """<script lang="ts">
\tlet theme = $state<'light' | 'dark'>('light');

\t$effect(() => {
\t\tconst saved = localStorage.getItem('theme');
\t\tif (saved === 'dark' || saved === 'light') theme = saved;
\t});

\t$effect(() => {
\t\tdocument.documentElement.dataset.theme = theme;
\t\tlocalStorage.setItem('theme', theme);
\t});
</script>

<button type="button" class="theme" aria-pressed={theme === 'dark'} onclick={() => (theme = theme === 'dark' ? 'light' : 'dark')}>
\t{theme === 'dark' ? 'Light mode' : 'Dark mode'}
</button>
""", text="Dark-mode toggle first.")
s.edit(HEADER, """\t\t<a href="/account">Account</a>
\t</nav>""", """\t\t<a href="/account">Account</a>
\t</nav>
\t<ThemeToggle />""")
s.edit(HEADER, """\timport { page } from '$app/state';""", """\timport { page } from '$app/state';
\timport ThemeToggle from './ThemeToggle.svelte';""")
s.edit(CSS, """body {""", """:root[data-theme='dark'] {
\t--bg: #141a12;
\t--fg: #e6eede;
\t--accent: #a3e635;
}

body {""")
sh("pnpm check 2>&1 | tail -2", "====================================\nsvelte-check found 0 errors and 1 warning in 1 file\n", desc="svelte-check")
s.edit(PLOTCARD, """<div class="card" onclick={() => (open = !open)}>
\t<strong>Plot {plot.number}</strong> ({plot.sizeM2} m²)
\t{#if plot.bookedBy}
\t\t<span>booked until {formatPlotDate(plot.bookedUntil)}</span>
\t{:else}
\t\t<span class="free">free</span>
\t{/if}
\t{#if open}<p>{plot.notes}</p>{/if}
</div>""", """<div class="card">
\t<button type="button" class="toggle" aria-expanded={open} onclick={() => (open = !open)}>
\t\t<strong>Plot {plot.number}</strong> ({plot.sizeM2} m²)
\t</button>
\t{#if plot.bookedBy}
\t\t<span>booked until {formatPlotDate(plot.bookedUntil)}</span>
\t{:else}
\t\t<span class="free">free</span>
\t{/if}
\t{#if open}<p>{plot.notes}</p>{/if}
</div>""", text="PlotCard: the plot heading becomes a real button with `aria-expanded`.")
sh("pnpm check 2>&1 | tail -2", "====================================\nsvelte-check found 0 errors and 0 warnings\n", desc="svelte-check")
sh("grep -rn \"card'\\|\\.card\\|getByText('Plot\" tests | head -5", "tests/booking.spec.ts:14:\tawait page.locator('.card').first().click();\n", desc="E2E tests that click the card")
s.edit(SCHEMA, """import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';""", """import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';""", text="Dark mode and the a11y fix are in. Now the waiting list, starting with the table.")
s.edit(SCHEMA, """\tseason: text('season').notNull().default('2026')
});""", """\tseason: text('season').notNull().default('2026')
});

export const waitlistEntries = sqliteTable(
\t'waitlist_entries',
\t{
\t\tid: integer('id').primaryKey(),
\t\tgardenId: integer('garden_id').notNull().references(() => gardens.id),
\t\temail: text('email').notNull(),
\t\tcreatedAt: integer('created_at', { mode: 'timestamp' }).notNull()
\t},
\t// one entry per email and garden
\t(t) => ({ gardenEmail: uniqueIndex('waitlist_garden_email').on(t.gardenId, t.email) })
);""")
sh("DATABASE_URL=file:e2e.sqlite pnpm db:generate 2>&1 | tail -1 && cat drizzle/0005_*.sql", "[✓] Your SQL migration file ➜ drizzle/0005_lively_wasp.sql 🚀\nCREATE TABLE `waitlist_entries` (\n\t`id` integer PRIMARY KEY NOT NULL,\n\t`garden_id` integer NOT NULL,\n\t`email` text NOT NULL,\n\t`created_at` integer NOT NULL,\n\tFOREIGN KEY (`garden_id`) REFERENCES `gardens`(`id`) ON UPDATE no action ON DELETE no action\n);\n--> statement-breakpoint\nCREATE UNIQUE INDEX `waitlist_garden_email` ON `waitlist_entries` (`garden_id`,`email`);\n", desc="Generate the waiting-list migration")
sh("git mv -f drizzle/0005_lively_wasp.sql drizzle/0005_waitlist.sql 2>/dev/null || mv drizzle/0005_lively_wasp.sql drizzle/0005_waitlist.sql; sed -i '' 's/0005_lively_wasp/0005_waitlist/' drizzle/meta/_journal.json && grep -n tag drizzle/meta/_journal.json | tail -2", "30:      \"tag\": \"0004_sync_season_snapshot\",\n37:      \"tag\": \"0005_waitlist\",\n", desc="Give the migration a readable name")
s.write(WAIT, """import { and, count, eq, lte } from 'drizzle-orm';
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { waitlistEntries } from './db/schema';

type Db = BetterSQLite3Database<Record<string, unknown>>;

export type JoinResult = { status: 'joined' | 'already'; position: number };

/** Adds email to the garden's waiting list once; returns the 1-based position either way. */
export function joinWaitlist(db: Db, gardenId: number, email: string, now = new Date()): JoinResult {
\tconst normalized = email.trim().toLowerCase();
\tconst inserted = db
\t\t.insert(waitlistEntries)
\t\t.values({ gardenId, email: normalized, createdAt: now })
\t\t.onConflictDoNothing()
\t\t.returning()
\t\t.all();
\tconst entry = db
\t\t.select()
\t\t.from(waitlistEntries)
\t\t.where(and(eq(waitlistEntries.gardenId, gardenId), eq(waitlistEntries.email, normalized)))
\t\t.get()!;
\tconst [{ n }] = db
\t\t.select({ n: count() })
\t\t.from(waitlistEntries)
\t\t.where(and(eq(waitlistEntries.gardenId, gardenId), lte(waitlistEntries.id, entry.id)))
\t\t.all();
\treturn { status: inserted.length ? 'joined' : 'already', position: n };
}
""", text="The waiting-list logic, kept out of the route so it can be unit-tested against an in-memory SQLite.")
s.write(WTEST, """import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { migrate } from 'drizzle-orm/better-sqlite3/migrator';
import { beforeEach, describe, expect, it } from 'vitest';
import * as schema from './db/schema';
import { joinWaitlist } from './waitlist';

let db: ReturnType<typeof drizzle>;

beforeEach(() => {
\tdb = drizzle(new Database(':memory:'), { schema });
\tmigrate(db, { migrationsFolder: 'drizzle' });
\tdb.insert(schema.gardens).values([{ id: 1, slug: 'elm-row', name: 'Elm Row' }, { id: 2, slug: 'canal', name: 'Canal' }]).run();
});

describe('joinWaitlist', () => {
\tit('numbers entries per garden', () => {
\t\texpect(joinWaitlist(db, 1, 'a@example.org').position).toBe(1);
\t\texpect(joinWaitlist(db, 2, 'b@example.org').position).toBe(1);
\t\texpect(joinWaitlist(db, 1, 'c@example.org').position).toBe(2);
\t});

\tit('keeps one entry per email and garden, case-insensitively', () => {
\t\tjoinWaitlist(db, 1, 'a@example.org');
\t\tjoinWaitlist(db, 1, 'b@example.org');
\t\texpect(joinWaitlist(db, 1, ' A@Example.org ')).toEqual({ status: 'already', position: 1 });
\t});
});
""")
sh("pnpm test:unit 2>&1 | tail -16", """ ✓ src/lib/dates.test.ts (2 tests) 6ms
 ❯ src/lib/server/waitlist.test.ts (0 test)

⎯⎯⎯⎯⎯⎯ Failed Suites 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  src/lib/server/waitlist.test.ts [ src/lib/server/waitlist.test.ts ]
Error: Failed to run the query 'SELECT 1;'
 ❯ src/lib/server/waitlist.test.ts:12:2
Caused by: TypeError: This statement does not return data. Use run() instead

 Test Files  1 failed | 1 passed (2)
      Tests  2 passed (2)
   Start at  11:02:55
   Duration  655ms
""", code=1, desc="Unit tests")
s.assistant("My no-op migration bites back: drizzle's migrator runs each statement with `run()`, and better-sqlite3 refuses `run()` on a statement that returns rows, so `SELECT 1;` fails. A statement that returns nothing and changes nothing is a comment-only file… which drizzle also rejects as empty. I'll use an idempotent no-op DDL instead: `CREATE INDEX IF NOT EXISTS` on an index that 0001 already created.")
sh("grep -n 'CREATE INDEX' drizzle/0001_plots.sql", "9:CREATE INDEX `plots_garden_idx` ON `plots` (`garden_id`);\n", desc="Existing index")
s.write("drizzle/0004_sync_season_snapshot.sql", "-- No-op: plots.season already exists (added by hand in 0002_season.sql).\n-- This migration only brings drizzle's snapshot in line with the schema; the statement\n-- below changes nothing (the index exists since 0001).\nCREATE INDEX IF NOT EXISTS `plots_garden_idx` ON `plots` (`garden_id`);\n")
sh("pnpm test:unit 2>&1 | tail -6", " ✓ src/lib/dates.test.ts (2 tests) 6ms\n ✓ src/lib/server/waitlist.test.ts (2 tests) 31ms\n\n Test Files  2 passed (2)\n      Tests  4 passed (4)\n   Start at  11:05:20\n", desc="Unit tests")
s.edit(PSERV, """import { error } from '@sveltejs/kit';
import { db } from '$lib/server/db';
import { getGarden, listPlots } from '$lib/server/gardens';
import type { PageServerLoad } from './$types';""", """import { error, fail } from '@sveltejs/kit';
import * as v from 'valibot';
import { db } from '$lib/server/db';
import { getGarden, listPlots } from '$lib/server/gardens';
import { joinWaitlist } from '$lib/server/waitlist';
import type { Actions, PageServerLoad } from './$types';

const WaitlistForm = v.object({
\temail: v.pipe(v.string(), v.trim(), v.email('Please enter a valid email address.'))
});""", text="Now the form action on the garden page.")
s.edit(PSERV, """\treturn { garden, plots, free: plots.filter((p) => !p.bookedBy).length };
};""", """\treturn { garden, plots, free: plots.filter((p) => !p.bookedBy).length };
};

export const actions: Actions = {
\twaitlist: async ({ params, request }) => {
\t\tconst garden = getGarden(db, params.slug);
\t\tif (!garden) error(404, 'No such garden');
\t\tconst parsed = v.safeParse(WaitlistForm, Object.fromEntries(await request.formData()));
\t\tif (!parsed.success) return fail(400, { email: '', error: parsed.issues[0].message });
\t\tconst { status, position } = joinWaitlist(db, garden.id, parsed.output.email);
\t\treturn { status, position };
\t}
};""")
s.edit(PAGE, """\tlet { data }: { data: PageData } = $props();
</script>""", """\tlet { data, form }: { data: PageData; form: ActionData } = $props();
</script>""")
s.edit(PAGE, """\t{/each}
</ul>""", """\t{/each}
</ul>

{#if data.free === 0}
\t<section class="waitlist">
\t\t<h2>All plots are taken</h2>
\t\t{#if form?.position}
\t\t\t<p role="status">
\t\t\t\t{form.status === 'already' ? 'You are already on the list. ' : ''}You are number {form.position} on the waiting list.
\t\t\t</p>
\t\t{:else}
\t\t\t<form method="POST" action="?/waitlist">
\t\t\t\t<label>Email <input name="email" type="email" required /></label>
\t\t\t\t{#if form?.error}<p class="error">{form.error}</p>{/if}
\t\t\t\t<button>Join the waiting list</button>
\t\t\t</form>
\t\t{/if}
\t</section>
{/if}""")
sh("pnpm check 2>&1 | tail -12", """/Users/amara/dev/plotbook/src/routes/gardens/[slug]/+page.svelte:5:45
Error: Cannot find name 'ActionData'. (ts)

\tlet { data, form }: { data: PageData; form: ActionData } = $props();
</script>

/Users/amara/dev/plotbook/src/routes/gardens/[slug]/+page.svelte:17:26
Error: Property 'position' does not exist on type '{ email: string; error: string; }'. (ts)

====================================
svelte-check found 2 errors and 0 warnings in 1 file
""", code=1, desc="svelte-check")
s.assistant("Two type errors: I forgot to import `ActionData`, and the `fail()` branch's shape has no `position`, so the union needs narrowing. I'll import the type and narrow with `'position' in form` (and `'error' in form`).")
s.edit(PAGE, """\timport type { PageData } from './$types';""", """\timport type { ActionData, PageData } from './$types';""")
s.edit(PAGE, """\t\t{#if form?.position}""", """\t\t{#if form && 'position' in form}""")
s.edit(PAGE, """\t\t\t\t{#if form?.error}<p class="error">{form.error}</p>{/if}""", """\t\t\t\t{#if form && 'error' in form}<p class="error">{form.error}</p>{/if}""")
sh("pnpm check 2>&1 | tail -2", "====================================\nsvelte-check found 0 errors and 0 warnings\n", desc="svelte-check")
s.write(E2E, """import { expect, test } from '@playwright/test';

// elm-row is fully booked in the e2e seed
test('join the waiting list of a full garden', async ({ page }) => {
\tawait page.goto('/gardens/elm-row');
\tawait expect(page.getByRole('heading', { name: 'All plots are taken' })).toBeVisible();
\tawait page.getByLabel('Email').fill(`e2e-${Date.now()}@example.org`);
\tawait page.getByRole('button', { name: 'Join' }).click();
\tawait expect(page.getByRole('status')).toContainText('on the waiting list');
});

test('second signup with the same email is friendly', async ({ page }) => {
\tfor (let i = 0; i < 2; i++) {
\t\tawait page.goto('/gardens/elm-row');
\t\tawait page.getByLabel('Email').fill('twice@example.org');
\t\tawait page.getByRole('button', { name: 'Join' }).click();
\t}
\tawait expect(page.getByRole('status')).toContainText('You are already on the list');
});
""")
sh("grep -n 'elm-row\\|booked_by' tests/seed.sql 2>/dev/null | head -3; ls tests", "tests/seed.sql:2:INSERT INTO gardens (id, slug, name) VALUES (1, 'elm-row', 'Elm Row'), (2, 'canal', 'Canal Gardens');\ntests/seed.sql:5:INSERT INTO plots (garden_id, number, size_m2, booked_by, booked_until) VALUES\nbooking.spec.ts\ngardens.spec.ts\nseed.sql\nwaitlist.spec.ts\n", desc="E2E seed")
sh("pnpm test:e2e tests/waitlist.spec.ts 2>&1 | tail -30", """
> plotbook@0.14.0 test:e2e /Users/amara/dev/plotbook
> playwright test tests/waitlist.spec.ts

[WebServer] [✓] migrations applied successfully!

Running 2 tests using 2 workers

  ✘  1 tests/waitlist.spec.ts:4:1 › join the waiting list of a full garden (5.2s)
  ✘  2 tests/waitlist.spec.ts:12:1 › second signup with the same email is friendly (5.1s)
  ✘  3 tests/waitlist.spec.ts:4:1 › join the waiting list of a full garden (retry #1) (5.3s)
  ✘  4 tests/waitlist.spec.ts:12:1 › second signup with the same email is friendly (retry #1) (5.0s)

  1) tests/waitlist.spec.ts:4:1 › join the waiting list of a full garden ───────────

    Error: locator.click: Error: strict mode violation: getByRole('button', { name: 'Join' }) resolved to 2 elements:
        1) <button>Join the waiting list</button> aka getByRole('button', { name: 'Join the waiting list' })
        2) <button>Join Plotbook</button> aka getByRole('button', { name: 'Join Plotbook' })

       7 | \tawait page.getByLabel('Email').fill(`e2e-${Date.now()}@example.org`);
    >  8 | \tawait page.getByRole('button', { name: 'Join' }).click();
         |                                                   ^

  2 failed
    tests/waitlist.spec.ts:4:1 › join the waiting list of a full garden ────────────
    tests/waitlist.spec.ts:12:1 › second signup with the same email is friendly ────
""", code=1, desc="Run the new e2e tests")
s.assistant(
    "Both fail with a strict-mode violation: `getByRole('button', { name: 'Join' })` matches by substring, and the header's sign-up button \"Join Plotbook\" matches too. Using the exact name \"Join the waiting list\"."
)
s.edit(E2E, """\tawait page.getByLabel('Email').fill(`e2e-${Date.now()}@example.org`);
\tawait page.getByRole('button', { name: 'Join' }).click();""", """\tawait page.getByLabel('Email').fill(`e2e-${Date.now()}@example.org`);
\tawait page.getByRole('button', { name: 'Join the waiting list', exact: true }).click();""")
s.edit(E2E, """\t\tawait page.getByLabel('Email').fill('twice@example.org');
\t\tawait page.getByRole('button', { name: 'Join' }).click();""", """\t\tawait page.getByLabel('Email').fill('twice@example.org');
\t\tawait page.getByRole('button', { name: 'Join the waiting list', exact: true }).click();""")
sh("pnpm test:e2e tests/waitlist.spec.ts 2>&1 | tail -6", "Running 2 tests using 2 workers\n\n  ✓  1 tests/waitlist.spec.ts:4:1 › join the waiting list of a full garden (1.9s)\n  ✓  2 tests/waitlist.spec.ts:12:1 › second signup with the same email is friendly (2.4s)\n\n  2 passed (14.8s)\n", desc="E2E waiting list")
sh("git status --short", " M drizzle/meta/_journal.json\n M package.json\n M src/app.css\n M src/lib/components/Header.svelte\n M src/lib/components/PlotCard.svelte\n M src/lib/dates.test.ts\n M src/lib/dates.ts\n M src/lib/server/db/schema.ts\n M src/routes/gardens/[slug]/+page.server.ts\n M src/routes/gardens/[slug]/+page.svelte\n?? drizzle/0004_sync_season_snapshot.sql\n?? drizzle/0005_waitlist.sql\n?? drizzle/meta/0004_snapshot.json\n?? drizzle/meta/0005_snapshot.json\n?? e2e.sqlite\n?? src/lib/components/ThemeToggle.svelte\n?? src/lib/server/waitlist.test.ts\n?? src/lib/server/waitlist.ts\n?? tests/waitlist.spec.ts\n", desc="Working tree")
sh("grep -n 'sqlite' .gitignore", "", code=1, desc="Is e2e.sqlite ignored?")
s.assistant(
    "Here is where things stand:\n\n"
    "1. **Dark mode**: `ThemeToggle.svelte` in the header (sets `data-theme` on `<html>`, remembers it in `localStorage`), dark colours in `app.css`.\n"
    "2. **PlotCard a11y**: the plot heading is a `<button aria-expanded>`; svelte-check now has 0 errors and 0 warnings.\n"
    "3. **Waiting list**:\n"
    "   - table `waitlist_entries` with a unique index on (garden, email); migration `drizzle/0005_waitlist.sql`, applied only to `e2e.sqlite` by the Playwright web server, **not** to the shared dev database;\n"
    "   - `joinWaitlist()` in `src/lib/server/waitlist.ts` (emails trimmed and lower-cased; a repeat returns `already` with the existing position);\n"
    "   - form action `?/waitlist` with valibot; the page shows \"You are number N on the waiting list\" or \"You are already on the list\";\n"
    "   - 2 vitest cases (in-memory SQLite with all migrations) and 2 Playwright tests; all pass.\n"
    "4. **A fix to my own earlier change**: the no-op migration 0004 used `SELECT 1;`, which drizzle's migrator cannot run; it is now an idempotent `CREATE INDEX IF NOT EXISTS` on an index that already exists.\n\n"
    "One small thing: `e2e.sqlite` is not in `.gitignore`. Shall I add it?"
)

# ============================================================================================ turn 4
s.user(
    "Thank you so much, this is lovely work.\n\n"
    "1. Yes, please add e2e.sqlite to .gitignore.\n"
    "2. I am very sorry, but never mind the dark-mode toggle: our designer told me this morning that she is redoing the whole header next month, dark mode included. Could you please take it out again, so that nothing of it is left?\n"
    "3. Could you then run all the tests, including the old e2e ones?"
)
sh("echo 'e2e.sqlite' >> .gitignore && tail -3 .gitignore", ".svelte-kit\nbuild\ne2e.sqlite\n", desc="Ignore the e2e database")
sh("rm src/lib/components/ThemeToggle.svelte && git diff src/lib/components/Header.svelte src/app.css | head -40", """diff --git a/src/app.css b/src/app.css
index 5be2c1a..7f01a9e 100644
--- a/src/app.css
+++ b/src/app.css
@@ -4,6 +4,12 @@
 \t--accent: #4d7c0f;
 }
 
+:root[data-theme='dark'] {
+\t--bg: #141a12;
+\t--fg: #e6eede;
+\t--accent: #a3e635;
+}
+
 body {
 \tbackground: var(--bg);
 \tcolor: var(--fg);
diff --git a/src/lib/components/Header.svelte b/src/lib/components/Header.svelte
index 91c0d2e..e04b7a3 100644
--- a/src/lib/components/Header.svelte
+++ b/src/lib/components/Header.svelte
@@ -1,7 +1,8 @@
 <script lang="ts">
-\timport { page } from '$app/stores';
-\tlet path = '';
-\t$: path = $page.url.pathname;
+\timport { page } from '$app/state';
+\timport ThemeToggle from './ThemeToggle.svelte';
+\tconst path = $derived(page.url.pathname);
 </script>
""", desc="Remove the toggle; what is left of dark mode")
del s.files[TOGGLE]
s.edit(HEADER, """\timport ThemeToggle from './ThemeToggle.svelte';
""", "", text="Header keeps the runes fix, only the toggle goes.")
s.edit(HEADER, """\t<ThemeToggle />
""", "")
sh("git checkout src/app.css && grep -rn 'theme\\|Theme' src tests | grep -v node_modules", "", code=1, desc="Revert app.css; look for leftovers")
sh("pnpm check 2>&1 | tail -2 && pnpm test:unit 2>&1 | grep -E 'Tests |Test Files'", "====================================\nsvelte-check found 0 errors and 0 warnings\n Test Files  2 passed (2)\n      Tests  4 passed (4)\n", desc="svelte-check and unit tests")
sh("rm -f e2e.sqlite && pnpm test:e2e 2>&1 | tail -24", """[WebServer] [✓] migrations applied successfully!

Running 9 tests using 4 workers

  ✓  1 tests/gardens.spec.ts:3:1 › lists gardens (1.2s)
  ✓  2 tests/gardens.spec.ts:9:1 › garden page shows free plots (1.4s)
  ✓  3 tests/gardens.spec.ts:16:1 › season query parameter filters plots (1.3s)
  ✘  4 tests/booking.spec.ts:12:1 › opening a plot shows its notes (5.1s)
  ✓  5 tests/booking.spec.ts:20:1 › book a free plot (2.2s)
  ✓  6 tests/booking.spec.ts:31:1 › cannot book a booked plot (1.6s)
  ✓  7 tests/booking.spec.ts:40:1 › booked-until date is shown (1.1s)
  ✓  8 tests/waitlist.spec.ts:4:1 › join the waiting list of a full garden (1.8s)
  ✓  9 tests/waitlist.spec.ts:12:1 › second signup with the same email is friendly (2.3s)
  ✘ 10 tests/booking.spec.ts:12:1 › opening a plot shows its notes (retry #1) (5.0s)

  1) tests/booking.spec.ts:12:1 › opening a plot shows its notes ──────────────────

    Error: Timed out 5000ms waiting for expect(locator).toBeVisible()

    Locator: getByText('South-facing, tap nearby')
    Expected: visible
    Received: <element(s) not found>

      13 | \tawait page.goto('/gardens/canal');
      14 | \tawait page.locator('.card').first().click();
    > 15 | \tawait expect(page.getByText('South-facing, tap nearby')).toBeVisible();

  1 failed
  8 passed (38.6s)
""", code=1, desc="All e2e tests from a fresh e2e database")
s.assistant(
    "8 of 9 pass; one old test fails because of my a11y change: `booking.spec.ts:14` clicks `.card`, i.e. the centre of the whole card, which is now the date text and not the button, so the notes never open. "
    "The test should click what a user clicks: the plot button. I'll change the locator rather than the component."
)
s.files["tests/booking.spec.ts"] = """import { expect, test } from '@playwright/test';

test('opening a plot shows its notes', async ({ page }) => {
\tawait page.goto('/gardens/canal');
\tawait page.locator('.card').first().click();
\tawait expect(page.getByText('South-facing, tap nearby')).toBeVisible();
});
"""
s.read("tests/booking.spec.ts")
s.edit("tests/booking.spec.ts", """\tawait page.locator('.card').first().click();""", """\tawait page.getByRole('button', { name: /^Plot 1\\b/ }).click();""")
sh("pnpm test:e2e 2>&1 | tail -4", "  ✓  9 tests/waitlist.spec.ts:12:1 › second signup with the same email is friendly (2.2s)\n\n  9 passed (36.9s)\n", desc="All e2e tests")
s.assistant(
    "All done:\n\n"
    "1. `e2e.sqlite` is in `.gitignore`.\n"
    "2. The dark-mode toggle is completely gone: `ThemeToggle.svelte` deleted, the `<ThemeToggle />` and its import removed from the header, and `app.css` reverted (a search for `theme` finds nothing). The header keeps its runes fix.\n"
    "3. Tests: svelte-check 0 errors / 0 warnings, vitest 4 passed, Playwright 9 passed (36.9 s). One old e2e test (`booking.spec.ts`, notes of a plot) had to click the new plot button instead of the card's centre."
)

# ============================================================================================ turn 5
s.user(
    "Perfect, thank you!\n\n"
    "1. Could you please commit everything on a new branch called `waitlist`? Please do not push yet; I would like to read the migration with Bartek first, and then we apply it to the dev database together.\n"
    "2. Next week, if you are still around, I would love emails to the first person on the list when a plot becomes free. No need to start on it now."
)
sh("git switch -c waitlist && git add -A && git status --short", "Switched to a new branch 'waitlist'\nM  .gitignore\nA  drizzle/0004_sync_season_snapshot.sql\nA  drizzle/0005_waitlist.sql\nM  drizzle/meta/_journal.json\nA  drizzle/meta/0004_snapshot.json\nA  drizzle/meta/0005_snapshot.json\nM  package.json\nM  src/lib/components/Header.svelte\nM  src/lib/components/PlotCard.svelte\nM  src/lib/dates.test.ts\nM  src/lib/dates.ts\nM  src/lib/server/db/schema.ts\nA  src/lib/server/waitlist.test.ts\nA  src/lib/server/waitlist.ts\nM  src/routes/gardens/[slug]/+page.server.ts\nM  src/routes/gardens/[slug]/+page.svelte\nM  tests/booking.spec.ts\nA  tests/waitlist.spec.ts\n", desc="New branch and stage")
sh("git commit -qm 'Waiting list for full gardens; runes fixes; plot dates in every time zone; plots.season in schema' && git log --oneline -2", "e5b0c47 Waiting list for full gardens; runes fixes; plot dates in every time zone; plots.season in schema\n7ac31e2 runes: compilerOptions.runes = true\n", desc="Commit")
s.assistant(
    "Committed as e5b0c47 on the new branch `waitlist`, not pushed.\n\n"
    "For your review with Bartek, the two migrations that will run on the dev database: `0004_sync_season_snapshot.sql` (a no-op, it only carries drizzle's snapshot for the hand-written `season` column) and `0005_waitlist.sql` (creates `waitlist_entries` and the unique index `waitlist_garden_email`). Apply with `pnpm db:migrate` and the dev `DATABASE_URL`.\n\n"
    "Noted for next week: an email to the first person on a garden's waiting list when a plot becomes free. Nothing started."
)
s.user("Thank you, have a lovely day!")
s.assistant("Thank you, you too!")

s.save(HERE / "session.jsonl")
