# ruff: noqa: E501
"""Writes session.jsonl (+ subagents/) and labels.json: a Claude Code session written by hand for the heldout8a split.

A product manager pastes a ticket with acceptance criteria (ROOM-482) and then sends short
follow-ups; Claude Code adds inline booking-conflict warnings to roomly-web, a Vue 3 + Vite SPA
(pnpm, Vitest, Cypress component tests, vue-tsc, eslint). A Task sub-agent surveys how bookings and
time zones are handled. AC3 (next free slot chip) is dropped later ("scratch AC3").
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

CWD = "/home/amara/code/roomly-web"
c = ClaudeSession(CWD, "2026-11-25T13:02:00", seed="roomly-conflicts", branch="main")

FORM = "src/components/BookingForm.vue"
CONF = "src/composables/useConflicts.ts"
CONF_SPEC = "src/composables/__tests__/useConflicts.spec.ts"
FORM_CY = "src/components/BookingForm.cy.ts"
PKG = "package.json"

c.files.update({
    PKG: """{
  "name": "roomly-web",
  "private": true,
  "type": "module",
  "packageManager": "pnpm@9.12.3",
  "scripts": {
    "dev": "vite",
    "build": "vue-tsc --noEmit && vite build",
    "test": "vitest run",
    "lint": "eslint . --max-warnings 0",
    "typecheck": "vue-tsc --noEmit",
    "cy:component": "cypress run --component",
    "api:gen": "openapi-typescript-codegen --input ../roomly-api/openapi.yaml --output src/api/generated"
  },
  "dependencies": {
    "pinia": "^2.2.6",
    "vue": "^3.5.12",
    "vue-router": "^4.4.5"
  },
  "devDependencies": {
    "@vitejs/plugin-vue": "^5.1.4",
    "@vue/test-utils": "^2.4.6",
    "cypress": "^13.15.1",
    "eslint": "^9.14.0",
    "eslint-plugin-vue": "^9.30.0",
    "typescript": "~5.6.3",
    "vite": "^5.4.10",
    "vitest": "^2.1.4",
    "vue-tsc": "^2.1.10"
  }
}
""",
    FORM: """<script setup lang="ts">
import { ref, computed, inject } from 'vue'
import type { Room } from '@/api/generated'
import { BOOKINGS_API } from '@/api/keys'

const props = defineProps<{ rooms: Room[] }>()
const emit = defineEmits<{ submit: [payload: { roomId: string; start: string; end: string; title: string }] }>()

const api = inject(BOOKINGS_API)!
const roomId = ref('')
const date = ref('')
const startTime = ref('')
const endTime = ref('')
const title = ref('')

const room = computed(() => props.rooms.find((r) => r.id === roomId.value))
const canSubmit = computed(() => !!roomId.value && !!date.value && !!startTime.value && !!endTime.value && !!title.value)

function onSubmit() {
  emit('submit', { roomId: roomId.value, start: `${date.value}T${startTime.value}`, end: `${date.value}T${endTime.value}`, title: title.value })
}
</script>

<template>
  <form class="booking-form" @submit.prevent="onSubmit">
    <label>Room
      <select v-model="roomId" data-test="room"><option v-for="r in rooms" :key="r.id" :value="r.id">{{ r.name }}</option></select>
    </label>
    <label>Date <input v-model="date" type="date" data-test="date" /></label>
    <label>From <input v-model="startTime" type="time" data-test="start" /></label>
    <label>To <input v-model="endTime" type="time" data-test="end" /></label>
    <label>Title <input v-model="title" data-test="title" /></label>
    <button type="submit" :disabled="!canSubmit" data-test="submit">Book</button>
  </form>
</template>
""",
})

# ===================================================================== turn 1
c.user(
    "Hi! Picking this up from the sprint board, pasting the ticket:\n\n"
    "---\n**ROOM-482 — Booking form: show conflicts inline**\n\n"
    "People book a room, hit Book, and only then get a 409 from the API because someone else has it. We want the form to tell them before they submit.\n\n"
    "Acceptance criteria\n"
    "- AC1: When the selected room + date + time range overlaps an existing booking, show an inline warning under the time fields: \"Booked 10:00–11:00 by Finance\" (booking owner's team name).\n"
    "- AC2: The Book button is disabled while there is a conflict.\n"
    "- AC3: Offer the next free slot of the same length as a clickable chip that fills the time fields.\n"
    "- AC4: Times are shown in the room's office time zone, not the browser's (we have rooms in Lagos and Lisbon).\n"
    "- AC5: Keyboard accessible; the warning is announced to screen readers (aria-live polite).\n\n"
    "Notes from eng: don't hand-edit src/api/generated, it's generated from the OpenAPI spec (pnpm api:gen). pnpm only, the lockfile is pnpm's. No new runtime dependencies without asking, we're close to the bundle budget (250 kB gzipped for the main chunk).\n---\n\n"
    "Can you take it? Tests please, Vitest for logic and a Cypress component test for the form."
)
c.bash("git status --short && git log --oneline -5 && ls src src/components src/composables src/api", """a2c9e71 BookingList: group by day
6d40f13 api: regenerate client (rooms.timeZone)
91bb0e2 BookingForm: basic form
3f7e5a8 cypress: component testing setup
0de2c44 initial vite + vue 3
src:
App.vue
api
components
composables
main.ts
stores

src/components:
BookingForm.vue
BookingList.vue
RoomPicker.vue

src/composables:
useBookings.ts
useNow.ts

src/api:
generated
keys.ts""", description="repo overview")
c.reads([PKG, FORM])
c.bash("pnpm --version && node --version && pnpm test 2>&1 | tail -6", """9.12.3
v20.18.0

 ✓ src/composables/__tests__/useBookings.spec.ts (4 tests) 21ms
 ✓ src/components/__tests__/BookingList.spec.ts (3 tests) 48ms

 Test Files  2 passed (2)
      Tests  7 passed (7)""", description="baseline tests")
PROMPT = "In the Vue 3 + Vite repo at /home/amara/code/roomly-web, survey (read-only, edit nothing): 1) how bookings for a room and day are fetched today (composables, stores, the generated API client in src/api/generated and the BOOKINGS_API injection key), including the exact method names and the Booking/Room types' fields relevant to times, owner team and time zone; 2) how dates and time zones are handled anywhere in src (Intl, toLocale*, any date library); 3) how existing Cypress component tests mount components and stub the API. Report file:line references and anything surprising."
(tid,) = c.assistant("I'll have a sub-agent survey the booking data flow and time-zone handling while I read the form.", calls=[("Task", {"description": "Survey bookings + time zones", "prompt": PROMPT, "subagent_type": "general-purpose"})])
AG = "b91e4d2"
c.user(PROMPT, agent=AG)
c.bash("grep -rn 'listForRoom\\|BOOKINGS_API\\|getBookings' src --include=*.ts --include=*.vue | grep -v generated/", """src/api/keys.ts:4:export const BOOKINGS_API: InjectionKey<BookingsService> = Symbol('bookings-api')
src/composables/useBookings.ts:9:  const api = inject(BOOKINGS_API)!
src/composables/useBookings.ts:14:    bookings.value = await api.listForRoom({ roomId, day })
src/components/BookingForm.vue:4:import { BOOKINGS_API } from '@/api/keys'
src/main.ts:12:app.provide(BOOKINGS_API, new BookingsService(OpenAPI))""", description="booking fetches", agent=AG)
c.bash("sed -n '1,60p' src/api/generated/models/Booking.ts src/api/generated/models/Room.ts | grep -n ':'", """12:    id: string;
13:    roomId: string;
14:    start: string;
15:    end: string;
16:    title: string;
17:    ownerTeam: string;
31:    id: string;
32:    name: string;
33:    timeZone: string;
34:    capacity: number;""", description="generated models", agent=AG)
c.bash("grep -rn 'toLocale\\|Intl\\.\\|date-fns\\|dayjs\\|luxon' src --include=*.ts --include=*.vue | grep -v generated/", """src/components/BookingList.vue:31:    return new Date(b.start).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
src/composables/useNow.ts:6:  const fmt = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' })""", description="date handling", agent=AG)
c.bash("cat src/components/__tests__/*.cy.ts cypress/support/component.ts 2>/dev/null | head -40; ls src/components/__tests__", """import { mount } from 'cypress/vue'
Cypress.Commands.add('mount', mount)
BookingList.spec.ts""", description="cypress setup", agent=AG)
REPORT = """Survey: bookings, time zones, Cypress (read-only, nothing edited).

1. Fetching bookings
- src/main.ts:12 provides BOOKINGS_API = new BookingsService(OpenAPI) (generated client).
- src/api/keys.ts:4 - BOOKINGS_API: InjectionKey<BookingsService>.
- src/composables/useBookings.ts:14 - `await api.listForRoom({ roomId, day })`, day as 'YYYY-MM-DD'; result into a ref, no caching, no error handling.
- BookingForm.vue already injects BOOKINGS_API (line 4/9) but never calls it.

2. Types (src/api/generated/models, generated - do not edit)
- Booking: id, roomId, start, end (ISO strings with offset, e.g. 2026-11-25T10:00:00+01:00), title, ownerTeam.
- Room: id, name, timeZone (IANA, e.g. 'Africa/Lagos', 'Europe/Lisbon'), capacity.
- Note the casing: `timeZone`, camel-case with capital Z (regenerated in 6d40f13).

3. Dates and time zones
- No date library in the project (no date-fns, dayjs, luxon).
- src/components/BookingList.vue:31 formats with toLocaleTimeString([], ...) - browser zone, so the list is already wrong for Lisbon rooms seen from Lagos (same bug AC4 describes).
- src/composables/useNow.ts:6 uses Intl.DateTimeFormat('en-GB', { dateStyle: 'medium' }).
- Intl.DateTimeFormat with { timeZone: room.timeZone } is enough for AC4 without a new dependency.

4. Cypress component tests
- cypress/support/component.ts only registers cy.mount (cypress/vue).
- There are NO .cy.ts files yet; src/components/__tests__ has only the Vitest BookingList.spec.ts.
- Nothing stubs the API today. Since the form gets the client via inject(BOOKINGS_API), a test can mount with global.provide: { [BOOKINGS_API]: { listForRoom: cy.stub().resolves([...]) } } - no network, no cy.intercept needed.

Surprises
- BookingList's browser-zone formatting (see 3) is a separate bug, not in ROOM-482.
- useBookings.ts has no error handling: a failed listForRoom leaves the previous room's bookings in the ref.
- src/api/generated is rewritten by `pnpm api:gen` (package.json), so any hand fix there would be lost.
- The form builds start/end as local strings without offset ("2026-11-25T10:00"), so comparing them with the API's offset timestamps needs the room's zone."""
c.assistant(REPORT, agent=AG)
c.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": PROMPT, "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 51877, "totalTokens": 19440, "totalToolUseCount": 4})
c.assistant(
    "Survey back. Key points: the form already injects the generated `BookingsService` (`listForRoom({ roomId, day })`); `Room.timeZone` is an IANA zone; bookings come as ISO strings with offsets while the form builds offset-less local strings; no date library, and `Intl.DateTimeFormat` with `timeZone` covers AC4 with no new dependency. Side finding: BookingList formats times in the browser zone (same bug as AC4, but outside this ticket).\n\n"
    "Plan: a `useConflicts` composable (pure overlap + formatting logic, Vitest), the form calls `listForRoom` when room/date change, warning with `aria-live=\"polite\"`, Book disabled on conflict, next-free-slot chip for AC3, Cypress component test with a stubbed client via provide. One question: back-to-back bookings (mine starts 11:00 when theirs ends 11:00) — conflict or not?"
)

# ===================================================================== turn 2
c.user("Back-to-back is fine, not a conflict. BookingList thing: good catch, don't fix it here, I'll make a ticket. Go ahead.")
c.write(CONF, """import type { Booking } from '@/api/generated'

/** A wall-clock time in a zone, e.g. ('2026-11-25', '10:00', 'Europe/Lisbon') -> epoch ms. */
export function zonedToEpoch(day: string, time: string, timeZone: string): number {
  const guess = Date.parse(`${day}T${time}:00Z`)
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit' }).formatToParts(guess)
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value)
  const asZoned = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'))
  return guess - (asZoned - guess)
}

/** Bookings overlapping [start, end); back-to-back (touching) is not a conflict. */
export function conflictsWith(bookings: Booking[], start: number, end: number): Booking[] {
  return bookings.filter((b) => Date.parse(b.start) < end && Date.parse(b.end) > start)
}

export function formatRange(b: Booking): string {
  const t = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  return `Booked ${t(b.start)}–${t(b.end)} by ${b.ownerTeam}`
}

/** Next free slot of `lengthMs` starting at or after `from`, within the day's bookings. */
export function nextFreeSlot(bookings: Booking[], from: number, lengthMs: number): number {
  let start = from
  for (const b of [...bookings].sort((x, y) => Date.parse(x.start) - Date.parse(y.start))) {
    if (Date.parse(b.start) >= start + lengthMs) break
    if (Date.parse(b.end) > start) start = Date.parse(b.end)
  }
  return start
}
""")
c.write(CONF_SPEC, """import { describe, it, expect } from 'vitest'
import { zonedToEpoch, conflictsWith, formatRange, nextFreeSlot } from '../useConflicts'
import type { Booking } from '@/api/generated'

const fin: Booking = { id: 'b1', roomId: 'lis-3', start: '2026-11-25T10:00:00+00:00', end: '2026-11-25T11:00:00+00:00', title: 'Q4 close', ownerTeam: 'Finance' }
const mkt: Booking = { id: 'b2', roomId: 'lis-3', start: '2026-11-25T11:30:00+00:00', end: '2026-11-25T12:00:00+00:00', title: 'Standup', ownerTeam: 'Marketing' }
const LIS = 'Europe/Lisbon'
const LOS = 'Africa/Lagos'

describe('useConflicts', () => {
  it('converts Lisbon and Lagos wall-clock times', () => {
    expect(zonedToEpoch('2026-11-25', '10:00', LIS)).toBe(Date.parse('2026-11-25T10:00:00Z'))
    expect(zonedToEpoch('2026-11-25', '10:00', LOS)).toBe(Date.parse('2026-11-25T09:00:00Z'))
  })
  it('finds an overlap', () => {
    expect(conflictsWith([fin, mkt], zonedToEpoch('2026-11-25', '10:30', LIS), zonedToEpoch('2026-11-25', '11:15', LIS))).toEqual([fin])
  })
  it('back-to-back is not a conflict', () => {
    expect(conflictsWith([fin], zonedToEpoch('2026-11-25', '11:00', LIS), zonedToEpoch('2026-11-25', '11:30', LIS))).toEqual([])
  })
  it('formats in the room zone', () => {
    expect(formatRange(fin, LOS)).toBe('Booked 11:00–12:00 by Finance')
  })
  it('next free slot of the same length', () => {
    expect(nextFreeSlot([fin, mkt], zonedToEpoch('2026-11-25', '10:00', LIS), 30 * 60_000)).toBe(Date.parse('2026-11-25T11:00:00Z'))
    expect(nextFreeSlot([fin, mkt], zonedToEpoch('2026-11-25', '10:00', LIS), 60 * 60_000)).toBe(Date.parse('2026-11-25T12:00:00Z'))
  })
})
""")
c.bash("pnpm test -- src/composables 2>&1 | tail -14", """ FAIL  src/composables/__tests__/useConflicts.spec.ts > useConflicts > formats in the room zone
AssertionError: expected 'Booked 10:00–11:00 by Finance' to be 'Booked 11:00–12:00 by Finance' // Object.is equality

- Expected
+ Received

- Booked 11:00–12:00 by Finance
+ Booked 10:00–11:00 by Finance

 ❯ src/composables/__tests__/useConflicts.spec.ts:24:33

 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 8 passed (9)""", code=1, description="vitest composables")
c.assistant("As intended, the format test fails: `formatRange` still uses `toLocaleTimeString([])`, i.e. the test runner's zone (UTC here), so a Lagos room shows 10:00 instead of 11:00. It needs the room's `timeZone`.")
c.edit(CONF, """export function formatRange(b: Booking): string {
  const t = (iso: string) => new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })""", """export function formatRange(b: Booking, timeZone: string): string {
  const fmt = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  const t = (iso: string) => fmt.format(new Date(iso))""")
c.bash("pnpm test -- src/composables 2>&1 | tail -4", """ ✓ src/composables/__tests__/useConflicts.spec.ts (5 tests) 14ms

 Test Files  2 passed (2)
      Tests  9 passed (9)""", description="vitest composables")
c.bash("TZ=Pacific/Auckland pnpm test -- src/composables 2>&1 | tail -2", """ Test Files  2 passed (2)
      Tests  9 passed (9)""", description="vitest in another TZ")
c.edit(FORM, """import { BOOKINGS_API } from '@/api/keys'
""", """import { BOOKINGS_API } from '@/api/keys'
import type { Booking } from '@/api/generated'
import { zonedToEpoch, conflictsWith, formatRange, nextFreeSlot } from '@/composables/useConflicts'
import { watch } from 'vue'
""")
c.edit(FORM, """const room = computed(() => props.rooms.find((r) => r.id === roomId.value))
const canSubmit = computed(() => !!roomId.value && !!date.value && !!startTime.value && !!endTime.value && !!title.value)
""", """const room = computed(() => props.rooms.find((r) => r.id === roomId.value))
const dayBookings = ref<Booking[]>([])

watch([roomId, date], async ([id, day]) => {
  dayBookings.value = id && day ? await api.listForRoom({ roomId: id, day }) : []
})

const range = computed(() => {
  if (!room.value || !date.value || !startTime.value || !endTime.value) return null
  const tz = room.value.timezone
  return { start: zonedToEpoch(date.value, startTime.value, tz), end: zonedToEpoch(date.value, endTime.value, tz) }
})
const conflicts = computed(() => (range.value ? conflictsWith(dayBookings.value, range.value.start, range.value.end) : []))
const warning = computed(() => conflicts.value.map((b) => formatRange(b, room.value!.timezone)).join('; '))
const suggestion = computed(() => {
  if (!range.value || conflicts.value.length === 0) return null
  const start = nextFreeSlot(dayBookings.value, range.value.start, range.value.end - range.value.start)
  const fmt = new Intl.DateTimeFormat('en-GB', { timeZone: room.value!.timezone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  return { start: fmt.format(start), end: fmt.format(start + (range.value.end - range.value.start)) }
})
function applySuggestion() {
  if (!suggestion.value) return
  startTime.value = suggestion.value.start
  endTime.value = suggestion.value.end
}

const canSubmit = computed(() => !!roomId.value && !!date.value && !!startTime.value && !!endTime.value && !!title.value && conflicts.value.length === 0)
""")
c.edit(FORM, """    <label>To <input v-model="endTime" type="time" data-test="end" /></label>
""", """    <label>To <input v-model="endTime" type="time" data-test="end" /></label>
    <p class="conflict" role="status" aria-live="polite" data-test="conflict-warning">{{ warning }}</p>
    <button v-if="suggestion" type="button" class="chip" data-test="suggestion" @click="applySuggestion">
      Next free: {{ suggestion.start }}–{{ suggestion.end }}
    </button>
""")
c.bash("pnpm typecheck 2>&1 | tail -6", """src/components/BookingForm.vue:28:25 - error TS2551: Property 'timezone' does not exist on type 'Room'. Did you mean 'timeZone'?

28   const tz = room.value.timezone
                           ~~~~~~~~

Found 3 errors in the same file (ls 28, 33, 37).""", code=1, description="vue-tsc")
c.assistant("vue-tsc: `Property 'timezone' does not exist on type 'Room'. Did you mean 'timeZone'?` — the sub-agent warned about the capital Z and I still typed it lower-case. Three places.")
c.bash("sed -i 's/room\\.value\\(!\\)\\?\\.timezone/room.value\\1.timeZone/g' src/components/BookingForm.vue && grep -c 'timeZone' src/components/BookingForm.vue && pnpm typecheck 2>&1 | tail -2", """3
""", description="fix casing + vue-tsc")
c.files[FORM] = c.files[FORM].replace("room.value.timezone", "room.value.timeZone").replace("room.value!.timezone", "room.value!.timeZone")
c.write(FORM_CY, """import BookingForm from './BookingForm.vue'
import { BOOKINGS_API } from '@/api/keys'

const rooms = [{ id: 'lis-3', name: 'Lisbon 3', timeZone: 'Europe/Lisbon', capacity: 6 }]
const fin = { id: 'b1', roomId: 'lis-3', start: '2026-11-25T10:00:00+00:00', end: '2026-11-25T11:00:00+00:00', title: 'Q4 close', ownerTeam: 'Finance' }

function mountForm() {
  const listForRoom = cy.stub().resolves([fin])
  cy.mount(BookingForm, { props: { rooms }, global: { provide: { [BOOKINGS_API as symbol]: { listForRoom } } } })
  return listForRoom
}

describe('BookingForm conflicts', () => {
  it('warns, disables Book and offers the next free slot', () => {
    mountForm()
    cy.get('[data-test=room]').select('lis-3')
    cy.get('[data-test=date]').type('2026-11-25')
    cy.get('[data-test=start]').type('10:30')
    cy.get('[data-test=end]').type('11:00')
    cy.get('[data-test=title]').type('Design review')
    cy.get('[data-test=conflict-warning]').should('have.text', 'Booked 10:00–11:00 by Finance')
    cy.get('[data-test=submit]').should('be.disabled')
    cy.get('[data-test=suggestion]').click()
    cy.get('[data-test=start]').should('have.value', '11:00')
    cy.get('[data-test=conflict-warning]').should('be.empty')
    cy.get('[data-test=submit]').should('not.be.disabled')
  })

  it('back-to-back is allowed', () => {
    mountForm()
    cy.get('[data-test=room]').select('lis-3')
    cy.get('[data-test=date]').type('2026-11-25')
    cy.get('[data-test=start]').type('11:00')
    cy.get('[data-test=end]').type('11:30')
    cy.get('[data-test=conflict-warning]').should('be.empty')
  })
})
""")
c.bash("pnpm cy:component --spec src/components/BookingForm.cy.ts 2>&1 | tail -28", """  Running:  BookingForm.cy.ts                                                        (1 of 1)


  BookingForm conflicts
    1) warns, disables Book and offers the next free slot
    ✓ back-to-back is allowed (412ms)


  1 passing (5s)
  1 failing

  1) BookingForm conflicts
       warns, disables Book and offers the next free slot:
     AssertionError: Timed out retrying after 4000ms: expected '<p.conflict>' to have text 'Booked 10:00–11:00 by Finance', but the text was ''
      at Context.eval (http://localhost:5173/__cypress/src/src/components/BookingForm.cy.ts:21:48)


  (Results)

  ┌────────────────────────────────────────────────────────────────────────────────────────────────┐
  │ Tests:        2                                                                                │
  │ Passing:      1                                                                                │
  │ Failing:      1                                                                                │
  │ Screenshots:  1                                                                                │
  │ Video:        false                                                                            │
  │ Duration:     5 seconds                                                                        │
  │ Spec Ran:     BookingForm.cy.ts                                                                │
  └────────────────────────────────────────────────────────────────────────────────────────────────┘""", code=1, description="cypress component")
c.bash("grep -rn 'provide\\|InjectionKey' src/api/keys.ts src/main.ts", """src/api/keys.ts:1:import type { InjectionKey } from 'vue'
src/api/keys.ts:4:export const BOOKINGS_API: InjectionKey<BookingsService> = Symbol('bookings-api')
src/main.ts:12:app.provide(BOOKINGS_API, new BookingsService(OpenAPI))""", description="injection key")
c.assistant(
    "The warning stays empty. The stub is provided, so it's not the network. Likely culprit: the `watch([roomId, date])` only fires when *both* change and the date input gets typed character by character, so `listForRoom` is called with partial dates like '2026-11-2'... no, type=date only emits complete values. Let me check whether the stub is called at all."
)
c.edit(FORM_CY, """    cy.get('[data-test=conflict-warning]').should('have.text', 'Booked 10:00–11:00 by Finance')""", """    cy.get('@listForRoom').should('have.been.calledWith', { roomId: 'lis-3', day: '2026-11-25' })
    cy.get('[data-test=conflict-warning]').should('have.text', 'Booked 10:00–11:00 by Finance')""")
c.edit(FORM_CY, """  const listForRoom = cy.stub().resolves([fin])""", """  const listForRoom = cy.stub().as('listForRoom').resolves([fin])""")
c.bash("pnpm cy:component --spec src/components/BookingForm.cy.ts 2>&1 | grep -A3 'AssertionError\\|passing\\|failing'", """  1 passing (5s)
  1 failing
--
     AssertionError: Timed out retrying after 4000ms: expected listForRoom to have been called with arguments { roomId: 'lis-3', day: '2026-11-25' }

    The stub was never called.""", code=1, description="cypress component")
c.assistant(
    "The stub was never called: the component's `inject(BOOKINGS_API)` did not get my object. `[BOOKINGS_API as symbol]` as a computed key in the mount options is fine in JS, but Vue's `global.provide` in @vue/test-utils/cypress-vue is applied... actually the form falls back to nothing and `api!` would throw. Since there is no error, the form got *something*: the real client from main.ts? No, main.ts is not loaded in component tests. Looking at the generated service: `listForRoom` is a static method in openapi-typescript-codegen output."
)
c.bash("grep -n 'listForRoom' -B2 src/api/generated/services/BookingsService.ts | head -8", """21:    /**
22:     * List bookings of a room for one day
23:     */
24:    public listForRoom({ roomId, day }: { roomId: string; day: string }): CancelablePromise<Array<Booking>> {""", description="generated service")
c.bash("grep -n 'watch\\|onMounted\\|immediate' src/components/BookingForm.vue", """2:import { ref, computed, inject } from 'vue'
7:import { watch } from 'vue'
19:watch([roomId, date], async ([id, day]) => {""", description="watch in form")
c.assistant("Instance method, so the stub shape is right. Then the watcher: `select('lis-3')` sets roomId, but `cy.get('[data-test=date]').type('2026-11-25')` on an `<input type=\"date\">` in Chrome doesn't emit `input` for typed text unless the format is yyyy-mm-dd... it is. What about `v-model` on `<select>` with `:value` bound to `r.id` — fine. Let me log from the component rather than guess.")
c.bash("pnpm cy:component --spec src/components/BookingForm.cy.ts --config video=false 2>&1 | grep -i 'warn\\|error' | head -5", """[Vue warn]: injection "Symbol(bookings-api)" not found. 
[Vue warn]: Unhandled error during execution of watcher callback 
TypeError: Cannot read properties of undefined (reading 'listForRoom')""", description="cypress console")
c.assistant(
    "`injection \"Symbol(bookings-api)\" not found`: the provide key and the inject key are different Symbol instances. Cypress bundles the spec separately from the component and `@/api/keys` is imported through two paths (the spec imports `@/api/keys`, the form too, but Cypress's Vite dev server served it under two module ids, `/src/api/keys.ts` and `@/api/keys`). Quickest robust fix without touching the generated code: make the key `Symbol.for('roomly.bookings-api')` so every copy of the module yields the same symbol."
)
c.files["src/api/keys.ts"] = """import type { InjectionKey } from 'vue'
import type { BookingsService } from './generated'

export const BOOKINGS_API: InjectionKey<BookingsService> = Symbol('bookings-api')
"""
c.edit("src/api/keys.ts", """export const BOOKINGS_API: InjectionKey<BookingsService> = Symbol('bookings-api')""", """// Symbol.for: Cypress component bundles may load this module twice; a registered symbol stays equal.
export const BOOKINGS_API: InjectionKey<BookingsService> = Symbol.for('roomly.bookings-api')""")
c.bash("pnpm cy:component --spec src/components/BookingForm.cy.ts 2>&1 | grep -E 'passing|failing|✓'", """    ✓ warns, disables Book and offers the next free slot (1204ms)
    ✓ back-to-back is allowed (388ms)
  2 passing (4s)""", description="cypress component")
c.bash("pnpm test 2>&1 | tail -3 && pnpm lint 2>&1 | tail -8", """ Test Files  3 passed (3)
      Tests  12 passed (12)

/home/amara/code/roomly-web/src/components/BookingForm.vue
  7:1  error  'vue' import is duplicated  import/no-duplicates
  7:1  error  Import in body of module; reorder to top  import/first

✖ 2 problems (2 errors, 0 warnings)""", code=1, description="vitest + eslint")
c.edit(FORM, """import { ref, computed, inject } from 'vue'""", """import { ref, computed, inject, watch } from 'vue'""")
c.edit(FORM, """import { watch } from 'vue'
""", "")
c.bash("pnpm lint && pnpm typecheck && echo OK", "OK", description="eslint + vue-tsc")
c.assistant(
    "All green: Vitest 12/12 (5 new in useConflicts.spec.ts), Cypress component 2/2, eslint clean, vue-tsc clean.\n\n"
    "- AC1: warning under the time fields, `Booked 10:00–11:00 by Finance`, times in the room's zone.\n"
    "- AC2: Book disabled while `conflicts` is non-empty.\n"
    "- AC3: `Next free: 11:00–11:30` chip fills start/end.\n"
    "- AC4: `zonedToEpoch` + `Intl.DateTimeFormat({ timeZone: room.timeZone })`, no new dependency; tests pass under TZ=Pacific/Auckland too.\n"
    "- AC5: `<p role=\"status\" aria-live=\"polite\">`, chip is a real `<button>`.\n\n"
    "The Cypress failure was `injection \"Symbol(bookings-api)\" not found`: the spec and the component got different copies of `src/api/keys.ts`; the key is now `Symbol.for('roomly.bookings-api')` (keys.ts is ours, not generated)."
)

# ===================================================================== turn 3
c.user("Nice. Update from design: scratch AC3, they want to rethink suggestions across the app. Take the chip out of this PR.")
c.edit(FORM, """    <button v-if="suggestion" type="button" class="chip" data-test="suggestion" @click="applySuggestion">
      Next free: {{ suggestion.start }}–{{ suggestion.end }}
    </button>
""", "")
c.edit(FORM, """const suggestion = computed(() => {
  if (!range.value || conflicts.value.length === 0) return null
  const start = nextFreeSlot(dayBookings.value, range.value.start, range.value.end - range.value.start)
  const fmt = new Intl.DateTimeFormat('en-GB', { timeZone: room.value!.timeZone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
  return { start: fmt.format(start), end: fmt.format(start + (range.value.end - range.value.start)) }
})
function applySuggestion() {
  if (!suggestion.value) return
  startTime.value = suggestion.value.start
  endTime.value = suggestion.value.end
}

""", "")
c.edit(FORM, """import { zonedToEpoch, conflictsWith, formatRange, nextFreeSlot } from '@/composables/useConflicts'""", """import { zonedToEpoch, conflictsWith, formatRange } from '@/composables/useConflicts'""")
c.assistant("Chip gone from the form. `nextFreeSlot` in useConflicts.ts is now unused: delete it and its test too, or keep it for when design comes back?")
c.user("Delete. Dead code, we'll redo it properly.")
c.edit(CONF, """
/** Next free slot of `lengthMs` starting at or after `from`, within the day's bookings. */
export function nextFreeSlot(bookings: Booking[], from: number, lengthMs: number): number {
  let start = from
  for (const b of [...bookings].sort((x, y) => Date.parse(x.start) - Date.parse(y.start))) {
    if (Date.parse(b.start) >= start + lengthMs) break
    if (Date.parse(b.end) > start) start = Date.parse(b.end)
  }
  return start
}
""", "")
c.multi_edit(CONF_SPEC, [
    ("""import { zonedToEpoch, conflictsWith, formatRange, nextFreeSlot } from '../useConflicts'""", """import { zonedToEpoch, conflictsWith, formatRange } from '../useConflicts'"""),
    ("""  it('next free slot of the same length', () => {
    expect(nextFreeSlot([fin, mkt], zonedToEpoch('2026-11-25', '10:00', LIS), 30 * 60_000)).toBe(Date.parse('2026-11-25T11:00:00Z'))
    expect(nextFreeSlot([fin, mkt], zonedToEpoch('2026-11-25', '10:00', LIS), 60 * 60_000)).toBe(Date.parse('2026-11-25T12:00:00Z'))
  })
""", ""),
])
c.multi_edit(FORM_CY, [
    ("""  it('warns, disables Book and offers the next free slot', () => {""", """  it('warns and disables Book', () => {"""),
    ("""    cy.get('[data-test=suggestion]').click()
    cy.get('[data-test=start]').should('have.value', '11:00')
    cy.get('[data-test=conflict-warning]').should('be.empty')
    cy.get('[data-test=submit]').should('not.be.disabled')
""", """    cy.get('[data-test=end]').clear().type('10:00')
    cy.get('[data-test=start]').clear().type('09:30')
    cy.get('[data-test=conflict-warning]').should('be.empty')
    cy.get('[data-test=submit]').should('not.be.disabled')
"""),
])
c.bash("pnpm test 2>&1 | tail -2 && pnpm cy:component --spec src/components/BookingForm.cy.ts 2>&1 | grep -E 'passing|failing' && pnpm lint && pnpm typecheck && echo OK", """ Test Files  3 passed (3)
      Tests  11 passed (11)
  2 passing (4s)
OK""", description="all checks")

# ===================================================================== turn 4
c.user("Bundle budget check please, then branch + draft PR. Title with the ticket number.")
c.bash("pnpm build 2>&1 | tail -8", """vite v5.4.10 building for production...
✓ 94 modules transformed.
dist/index.html                   0.48 kB │ gzip:  0.31 kB
dist/assets/index-C8f2kQ1x.css    6.12 kB │ gzip:  1.88 kB
dist/assets/index-Dq7mN0aZ.js   231.40 kB │ gzip: 84.17 kB
✓ built in 2.31s""", description="production build")
c.bash("git stash -q && pnpm build 2>&1 | grep 'assets/index-.*js' ; git stash pop -q && git status --short", """dist/assets/index-BvR3x9Tt.js   229.96 kB │ gzip: 83.62 kB
 M src/api/keys.ts
 M src/components/BookingForm.vue
?? src/components/BookingForm.cy.ts
?? src/composables/useConflicts.ts
?? src/composables/__tests__/useConflicts.spec.ts""", description="baseline size")
c.assistant("Main chunk 84.17 kB gzipped (+0.55 kB vs main's 83.62 kB), far under the 250 kB budget. No new dependencies; package.json and pnpm-lock.yaml unchanged.")
c.bash("git switch -c ROOM-482-inline-conflicts && git add src && git commit -qm 'ROOM-482: inline booking conflicts in BookingForm (room time zone, aria-live); Symbol.for injection key' && git push -u origin ROOM-482-inline-conflicts 2>&1 | tail -2 && gh pr create --draft --title 'ROOM-482: Booking form shows conflicts inline' --body 'AC1, AC2, AC4, AC5. AC3 (next free slot) dropped per design. BookingList browser-zone bug is a separate ticket.' 2>&1 | tail -1", """To github.com:roomly/roomly-web.git
 * [new branch]      ROOM-482-inline-conflicts -> ROOM-482-inline-conflicts
https://github.com/roomly/roomly-web/pull/317""", description="commit, push, draft PR")
c.assistant("Draft PR #317 (https://github.com/roomly/roomly-web/pull/317) from ROOM-482-inline-conflicts: AC1, AC2, AC4, AC5; AC3 dropped per design (body says so). BookingList's browser-zone bug is noted for your separate ticket.")

c.save(HERE / "session.jsonl")

META = {
    "title": "roomly-web (Vue 3 meeting-room booking): ROOM-482 inline booking conflicts in BookingForm (room time zone via Intl, aria-live, Book disabled), AC3 next-free-slot chip dropped and deleted, Symbol.for injection key for Cypress; draft PR #317",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8a test split",
    "voice": "product manager pasting a ticket with acceptance criteria, then short follow-ups; drops AC3 (\"scratch AC3\")",
    "toolchain": "Vue 3.5 + Vite 5.4, pnpm 9.12.3, Node 20, Vitest 2.1, Cypress 13 component testing, vue-tsc, eslint 9, openapi-typescript-codegen client, gh",
}
COMPACTIONS = [
    ("Survey back. Key points: the form already injects", 1200),
    ("All green: Vitest 12/12 (5 new in useConflicts.spec.ts)", 1200),
    ("Chip gone from the form. `nextFreeSlot` in useConflicts.ts is now unused", 1000),
]
FACTS = [
    f("r01", "request", "must", "**ROOM-482 — Booking form: show conflicts inline**", "Ticket ROOM-482: the booking form must show conflicts inline before submit (today users only get a 409 from the API).", [r"ROOM-482|conflict", r"inline|form|409|warn"], "done"),
    f("r02", "request", "must", "AC1: When the selected room + date + time range overlaps", "AC1: when room + date + time range overlap an existing booking, show an inline warning under the time fields: 'Booked 10:00–11:00 by Finance' (owner's team).", [r"AC1|Booked .*by|warning", r"overlap|owner|team|inline|Finance"], "done"),
    f("r03", "request", "must", "AC2: The Book button is disabled while there is a conflict", "AC2: the Book button is disabled while there is a conflict.", [r"AC2|Book|submit", r"disabl"], "done"),
    f("r04", "request", "must", "AC3: Offer the next free slot of the same length", "AC3 (next free slot chip) was dropped later by design ('scratch AC3'): removed from the PR.", [r"AC3|next free|suggest|chip", r"next free|chip|drop|scratch|remov"], "reversed"),
    f("r05", "request", "must", "AC4: Times are shown in the room's office time zone", "AC4: times shown in the room's office time zone (Lagos and Lisbon rooms), not the browser's.", [r"AC4|time ?zone|timeZone", r"room|office|browser|Lagos|Lisbon"], "done"),
    f("r06", "request", "should", "AC5: Keyboard accessible; the warning is announced", "AC5: keyboard accessible; the warning is announced to screen readers (aria-live polite).", [r"AC5|aria-live|screen reader", r"polite|announc|keyboard|aria"], "done"),
    f("r07", "constraint", "must", "don't hand-edit src/api/generated", "Never hand-edit src/api/generated: it is generated from the OpenAPI spec (pnpm api:gen).", [r"api/generated|generated", r"edit|OpenAPI|api:gen|don't|never|not"]),
    f("r08", "constraint", "should", "pnpm only, the lockfile is pnpm's", "pnpm only (the lockfile is pnpm's).", [r"pnpm", r"only|lockfile|not npm"]),
    f("r09", "constraint", "must", "No new runtime dependencies without asking", "No new runtime dependencies without asking: main chunk budget is 250 kB gzipped.", [r"dependenc|250 ?kB|budget", r"no new|ask|budget|gzip"]),
    f("r10", "request", "should", "Tests please, Vitest for logic and a Cypress component test", "Tests: Vitest for the logic, a Cypress component test for the form.", [r"Vitest|Cypress", r"test|component|logic"], "done"),
    f("r11", "finding", "should", "Note the casing: `timeZone`, camel-case with capital Z", "Sub-agent survey: form injects the generated BookingsService (listForRoom({ roomId, day })); Room.timeZone (IANA, capital Z); bookings are ISO strings with offset; no date library, Intl.DateTimeFormat with timeZone suffices; no Cypress specs existed, stub via global.provide.", [r"listForRoom|timeZone|Intl|provide", r"BOOKINGS_API|zone|stub|survey|generated"]),
    f("r12", "finding", "should", "BookingList's browser-zone formatting (see 3) is a separate bug", "BookingList.vue:31 formats times in the browser zone (toLocaleTimeString): same bug as AC4 but out of scope; the PM will open a separate ticket, do not fix here.", [r"BookingList", r"browser|separate|ticket|zone|not fix|don't fix"]),
    f("r13", "decision", "must", "Back-to-back is fine, not a conflict.", "Back-to-back bookings (touching end/start) are not a conflict.", [r"back-to-back|touching", r"not a conflict|allowed|fine|no conflict"]),
    f("r14", "path", "should", "Bookings overlapping [start, end); back-to-back (touching)", "New src/composables/useConflicts.ts: zonedToEpoch(day, time, timeZone), conflictsWith(bookings, start, end), formatRange(booking, timeZone); tests in src/composables/__tests__/useConflicts.spec.ts.", [r"useConflicts|zonedToEpoch|conflictsWith|formatRange"]),
    f("r15", "error", "should", "AssertionError: expected 'Booked 10:00–11:00 by Finance' to be 'Booked 11:00–12:00 by Finance'", "Vitest failed on formatting: formatRange used toLocaleTimeString([]) (runner zone, UTC), giving 10:00 instead of 11:00 for Lagos; fixed with Intl.DateTimeFormat({ timeZone }).", [r"formatRange|toLocaleTimeString|10:00|11:00", r"zone|Intl|UTC|Lagos"], "fixed"),
    f("r16", "command", "must", "pnpm test 2>&1 | tail -2 && pnpm cy:component --spec src/components/BookingForm.cy.ts 2>&1 | grep -E 'passing|failing' && pnpm lint", "Checks: pnpm test (Vitest, latest 11/11), pnpm cy:component --spec src/components/BookingForm.cy.ts (latest 2 passing), pnpm lint, pnpm typecheck (vue-tsc): all pass.", [r"pnpm (test|lint|typecheck|cy:component)|vitest|cypress", r"pass|11|2 passing|clean|OK"]),
    f("r17", "command", "nice", "TZ=Pacific/Auckland pnpm test -- src/composables", "Vitest also passes under TZ=Pacific/Auckland (zone-independent).", [r"Pacific/Auckland|TZ="]),
    f("r18", "error", "should", "error TS2551: Property 'timezone'", "vue-tsc: Property 'timezone' does not exist on type 'Room' (3 places in BookingForm.vue); fixed to room.timeZone.", [r"timezone|timeZone|TS2551", r"Room|does not exist|casing|Did you mean"], "fixed"),
    f("r19", "path", "should", "<p class=\\\"conflict\\\" role=\\\"status\\\" aria-live=\\\"polite\\\"", "src/components/BookingForm.vue: watch(roomId, date) calls api.listForRoom, computed range/conflicts/warning, <p role=status aria-live=polite data-test=conflict-warning>, Book disabled on conflict.", [r"BookingForm", r"listForRoom|aria-live|conflict|watch"]),
    f("r20", "error", "must", "TypeError: Cannot read properties of undefined (reading 'listForRoom')", "Cypress component test failed (warning text empty, 'The stub was never called'): Vue warned injection 'Symbol(bookings-api)' not found, the spec and component loaded different copies of src/api/keys.ts.", [r"injection|Symbol\(bookings-api\)|never called|stub", r"not found|Symbol|copies|keys\.ts|called"], "fixed"),
    f("r21", "fix", "must", "(keys.ts is ours, not generated)", "Fix: src/api/keys.ts BOOKINGS_API = Symbol.for('roomly.bookings-api') (registered symbol stays equal across module copies); keys.ts is hand-written, not generated.", [r"Symbol\.for|roomly\.bookings-api", r"keys\.ts|BOOKINGS_API|symbol"]),
    f("r22", "path", "should", "describe('BookingForm conflicts'", "New src/components/BookingForm.cy.ts: Cypress component tests mounting with global.provide of a stubbed listForRoom (conflict warns and disables Book; back-to-back allowed).", [r"BookingForm\.cy|cy\.ts|Cypress", r"stub|provide|listForRoom|mount"]),
    f("r23", "error", "nice", "'vue' import is duplicated  import/no-duplicates", "eslint: duplicated 'vue' import / import/first in BookingForm.vue; merged watch into the first import.", [r"no-duplicates|duplicated|import/first", r"vue|import|eslint"], "fixed"),
    f("r24", "request", "must", "scratch AC3, they want to rethink suggestions across the app", "Design dropped AC3: take the next-free-slot chip out of this PR.", [r"AC3|chip|suggestion|next free", r"scratch|drop|remov|out|rethink"], "done"),
    f("r25", "decision", "should", "Delete. Dead code, we'll redo it properly.", "nextFreeSlot and its test deleted as dead code (design will redo suggestions properly).", [r"nextFreeSlot|dead code", r"delet|remov"]),
    f("r26", "value", "should", "Main chunk 84.17 kB gzipped (+0.55 kB vs main's 83.62 kB)", "Bundle: main chunk 84.17 kB gzipped (+0.55 kB vs main 83.62 kB), well under the 250 kB budget; no new dependencies.", [r"84\.17|83\.62|0\.55", r"gzip|kB|budget|chunk"]),
    f("r27", "command", "nice", "git stash -q && pnpm build 2>&1 | grep", "pnpm build (vue-tsc + vite build) for the size check; baseline measured with git stash.", [r"pnpm build|vite build", r"size|chunk|gzip|stash|build"]),
    f("r28", "request", "should", "Bundle budget check please, then branch + draft PR. Title with the ticket number.", "Check the bundle budget, then branch and open a draft PR titled with the ticket number.", [r"draft|PR", r"ROOM-482|ticket|budget|branch"], "done"),
    f("r29", "state", "must", "Draft PR #317 (https://github.com/roomly/roomly-web/pull/317)", "Draft PR #317 'ROOM-482: Booking form shows conflicts inline' from branch ROOM-482-inline-conflicts: AC1, AC2, AC4, AC5; AC3 dropped per design.", [r"#?317|ROOM-482-inline-conflicts", r"draft|PR|push|branch"]),
    f("r30", "value", "nice", "9.12.3\nv20.18.0", "Baseline: pnpm 9.12.3, Node v20.18.0, Vitest 7/7.", [r"9\.12\.3|20\.18\.0|7/7|7 passed"]),
]
dump(HERE, META, COMPACTIONS, FACTS)
