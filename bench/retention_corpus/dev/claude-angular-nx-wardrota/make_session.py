# ruff: noqa: E501
"""Writes session.jsonl (+ subagents/): a Claude Code session written by hand for the heldout7b split.

A pair-programming user ("let's", "we") works with Claude Code on wardrota, an Nx monorepo with an
Angular 17 app for hospital ward rostering: shift times in ward local time, a swap-request form
(standalone, signals), a Task sub-agent survey of a deprecated service method, and a flaky Karma
test that is parked and picked up again later. Karma/Jasmine, ng lint via nx, nx affected.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/priya/code/wardrota"
c = ClaudeSession(CWD, "2026-10-06T09:31:00", seed="wardrota-swap", branch="feat/shift-swap")

PIPE = "libs/shift-ui/src/lib/ward-time.pipe.ts"
PIPE_SPEC = "libs/shift-ui/src/lib/ward-time.pipe.spec.ts"
LIST = "libs/shift-ui/src/lib/shift-list/shift-list.component.ts"
FORM = "apps/rota-web/src/app/swap/swap-request-form.component.ts"
FORM_SPEC = "apps/rota-web/src/app/swap/swap-request-form.component.spec.ts"
GRID_SPEC = "apps/rota-web/src/app/roster-grid/roster-grid.component.spec.ts"
GRID = "apps/rota-web/src/app/roster-grid/roster-grid.component.ts"
IDX = "libs/shift-ui/src/index.ts"

c.files.update({
    LIST: """import { Component, Input } from '@angular/core';
import { DatePipe, NgFor } from '@angular/common';
import { Shift } from '@wardrota/roster-data';

@Component({
  selector: 'wr-shift-list',
  standalone: true,
  imports: [NgFor, DatePipe],
  template: `
    <ul class="shifts">
      <li *ngFor="let s of shifts" [attr.data-shift]="s.id">
        {{ s.start | date: 'HH:mm' }}–{{ s.end | date: 'HH:mm' }} {{ s.role }}
      </li>
    </ul>
  `,
})
export class ShiftListComponent {
  @Input() shifts: Shift[] = [];
}
""",
    IDX: """export * from './lib/shift-list/shift-list.component';
export * from './lib/grade-badge/grade-badge.component';
""",
    GRID: """import { Component, computed, inject, signal } from '@angular/core';
import { ShiftService } from '../shift.service';

@Component({
  selector: 'wr-roster-grid',
  standalone: true,
  template: `<div class="week">{{ weekLabel() }}</div>`,
})
export class RosterGridComponent {
  private shifts = inject(ShiftService);
  readonly weekStart = signal(startOfWeek(new Date()));
  readonly cells = signal<{ id: string; start: string; night?: boolean }[]>([]);
  readonly weekLabel = computed(() => 'w/c ' + this.weekStart().toISOString().slice(0, 10));
}

export function startOfWeek(d: Date): Date {
  const out = new Date(d);
  out.setHours(0, 0, 0, 0);
  out.setDate(out.getDate() - ((out.getDay() + 6) % 7));
  return out;
}
""",
    GRID_SPEC: """import { TestBed } from '@angular/core/testing';
import { RosterGridComponent } from './roster-grid.component';
import { ShiftService } from '../shift.service';

describe('RosterGridComponent', () => {
  beforeEach(() => {
    TestBed.configureTestingModule({
      imports: [RosterGridComponent],
      providers: [{ provide: ShiftService, useValue: {} }],
    });
  });

  it('should label the current week from Monday', () => {
    const fixture = TestBed.createComponent(RosterGridComponent);
    fixture.detectChanges();
    const monday = new Date();
    monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
    expect(fixture.nativeElement.textContent).toContain('w/c ' + monday.toISOString().slice(0, 10));
  });

  it('should render one cell per shift', () => {
    const fixture = TestBed.createComponent(RosterGridComponent);
    fixture.componentInstance.cells.set([{ id: 'a', start: '2026-10-05T07:00:00Z' }, { id: 'b', start: '2026-10-05T19:00:00Z' }] as never);
    fixture.detectChanges();
    expect(fixture.nativeElement.querySelectorAll('.t').length).toBe(2);
  });

  it('should highlight night shifts', () => {
    const fixture = TestBed.createComponent(RosterGridComponent);
    fixture.componentInstance.cells.set([{ id: 'b', start: '2026-10-05T19:00:00Z', night: true }] as never);
    fixture.detectChanges();
    expect(fixture.nativeElement.querySelector('.night')).not.toBeNull();
  });
});
""",
})

# ===================================================================== turn 1
c.user(
    "Morning! Let's pick up wardrota today. Two things on our list: (1) the shift list in shift-ui shows shift times in UTC, so the night staff on Ward 7 see 19:00 shifts as 18:00 since the clocks went... well, BST, you know. We need ward local time, Europe/London, everywhere we show a shift time. "
    "(2) then the big one, the swap request form for rota-web. Ground rules as always: we do standalone components only, no new NgModules; component state in signals, not BehaviorSubjects; and we don't hand-edit libs/roster-data, it's generated from the OpenAPI spec (nx run roster-data:generate). "
    "Let's start by running the tests for shift-ui and rota-web so we know where we stand."
)
c.bash("cat package.json | grep -E '\"(@angular/core|@nx/angular|nx|karma|jasmine-core|typescript)\"'; git log --oneline -4; git status --short", """    "@angular/core": "17.3.12",
    "@nx/angular": "19.8.4",
    "jasmine-core": "5.1.2",
    "karma": "6.4.4",
    "nx": "19.8.4",
    "typescript": "5.4.5",
a3c9e11 rota-web: roster grid week label
5d20f8a shift-ui: grade badge
e1b7c04 roster-data: regenerate from openapi 2.3.0
77f0a2d chore: nx 19.8
""", description="Versions and recent history")
c.bash("npx nx show projects; cat nx.json | head -30", """rota-web
rota-web-e2e
shift-ui
roster-data
{
  "$schema": "./node_modules/nx/schemas/nx-schema.json",
  "targetDefaults": {
    "test": { "inputs": ["default", "^production", "{workspaceRoot}/karma.conf.js"], "cache": true },
    "lint": { "inputs": ["default", "{workspaceRoot}/.eslintrc.json"], "cache": true },
    "build": { "dependsOn": ["^build"], "cache": true }
  },
  "defaultBase": "main"
}
""", description="Nx projects")
c.read(LIST)
c.bash("npx nx test shift-ui --watch=false --browsers=ChromeHeadless 2>&1 | tail -6; npx nx test rota-web --watch=false --browsers=ChromeHeadless 2>&1 | tail -6", """Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 14 of 14 SUCCESS (0.412 secs / 0.377 secs)
TOTAL: 14 SUCCESS

 NX   Successfully ran target test for project shift-ui

Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 22 of 22 SUCCESS (0.883 secs / 0.801 secs)
TOTAL: 22 SUCCESS

 NX   Successfully ran target test for project rota-web
""", description="Baseline tests")
c.bash("npx nx run-many -t lint -p shift-ui rota-web 2>&1 | tail -6", """
 NX   Successfully ran target lint for 2 projects

""", description="Baseline lint")
c.bash("grep -rn \"| date\" apps libs --include=*.ts --include=*.html | grep -v spec", """libs/shift-ui/src/lib/shift-list/shift-list.component.ts:12:        {{ s.start | date: 'HH:mm' }}–{{ s.end | date: 'HH:mm' }} {{ s.role }}
apps/rota-web/src/app/shift-detail/shift-detail.component.html:4:  <dd>{{ shift.start | date: 'EEE d MMM, HH:mm' }}</dd>
apps/rota-web/src/app/shift-detail/shift-detail.component.html:6:  <dd>{{ shift.end | date: 'EEE d MMM, HH:mm' }}</dd>
apps/rota-web/src/app/roster-grid/roster-grid.component.html:9:      <span class="t">{{ cell.start | date: 'HH:mm' : 'UTC' }}</span>
""", description="Where shift times are formatted")
c.assistant(
    "Baseline is green: shift-ui 14/14, rota-web 22/22 (Chrome Headless 129), lint clean for both. Stack: Angular 17.3.12, Nx 19.8.4, Karma 6.4.4, jasmine-core 5.1.2, TS 5.4.5.\n\n"
    "Shift times are formatted in four places: shift-list (shift-ui), shift-detail twice, and roster-grid, which even forces `'UTC'` explicitly. The `date` pipe uses the browser's zone otherwise, so on a ward PC set to UTC it shows UTC. I'd suggest we add a small `wardTime` pipe in shift-ui that always formats in Europe/London via `Intl.DateTimeFormat` with `timeZone`, and use it in all four places. Sound good?"
)

# ===================================================================== turn 2
c.user("Yes, let's do the pipe. Put the zone in one place though, an injection token WARD_TIME_ZONE defaulting to 'Europe/London', because the Belfast site may come on board and it's the same zone but we never know. And let's keep spec names in the 'should ...' style, like the existing ones.")
c.write(PIPE, """import { InjectionToken, Pipe, PipeTransform, inject } from '@angular/core';

/** IANA zone every shift time is shown in (ward local time, not the browser's zone). */
export const WARD_TIME_ZONE = new InjectionToken<string>('WARD_TIME_ZONE', {
  providedIn: 'root',
  factory: () => 'Europe/London',
});

const FORMATS: Record<string, Intl.DateTimeFormatOptions> = {
  time: { hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  long: { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
};

@Pipe({ name: 'wardTime', standalone: true })
export class WardTimePipe implements PipeTransform {
  private readonly zone = inject(WARD_TIME_ZONE);

  transform(value: string | Date | null | undefined, format: 'time' | 'long' = 'time'): string {
    if (value == null) return '';
    const d = typeof value === 'string' ? new Date(value) : value;
    return new Intl.DateTimeFormat('en-GB', { ...FORMATS[format], timeZone: this.zone }).format(d);
  }
}
""")
c.write(PIPE_SPEC, """import { TestBed } from '@angular/core/testing';
import { WARD_TIME_ZONE, WardTimePipe } from './ward-time.pipe';

describe('WardTimePipe', () => {
  function pipe(zone?: string): WardTimePipe {
    TestBed.configureTestingModule({ providers: zone ? [{ provide: WARD_TIME_ZONE, useValue: zone }] : [] });
    return TestBed.runInInjectionContext(() => new WardTimePipe());
  }

  it('should show a BST shift in London time', () => {
    expect(pipe().transform('2026-07-01T18:00:00Z')).toBe('19:00');
  });

  it('should show a GMT shift unchanged in winter', () => {
    expect(pipe().transform('2026-12-01T18:00:00Z')).toBe('18:00');
  });

  it('should cross midnight on the night the clocks go back', () => {
    expect(pipe().transform('2026-10-25T00:30:00Z')).toBe('01:30');
    expect(pipe().transform('2026-10-25T01:30:00Z')).toBe('01:30');
  });

  it('should use the injected zone', () => {
    expect(pipe('Asia/Kolkata').transform('2026-07-01T18:00:00Z')).toBe('23:30');
  });

  it('should render the long format', () => {
    expect(pipe().transform('2026-07-01T18:00:00Z', 'long')).toBe('Wed 1 Jul, 19:00');
  });
});
""")
c.edit(LIST, """import { DatePipe, NgFor } from '@angular/common';
import { Shift } from '@wardrota/roster-data';""", """import { NgFor } from '@angular/common';
import { Shift } from '@wardrota/roster-data';
import { WardTimePipe } from '../ward-time.pipe';""")
c.edit(LIST, """  imports: [NgFor, DatePipe],""", """  imports: [NgFor, WardTimePipe],""")
c.edit(LIST, """        {{ s.start | date: 'HH:mm' }}–{{ s.end | date: 'HH:mm' }} {{ s.role }}""", """        {{ s.start | wardTime }}–{{ s.end | wardTime }} {{ s.role }}""")
c.edit(IDX, """export * from './lib/grade-badge/grade-badge.component';
""", """export * from './lib/grade-badge/grade-badge.component';
export * from './lib/ward-time.pipe';
""")
c.bash("npx nx test shift-ui --watch=false --browsers=ChromeHeadless 2>&1 | tail -22", """Chrome Headless 129.0.6668.89 (Linux x86_64) WardTimePipe should render the long format FAILED
	Expected 'Wed 1 Jul, 19:00' to be 'Wed 1 Jul, 19:00'.
	    at <Jasmine>
	    at UserContext.apply (libs/shift-ui/src/lib/ward-time.pipe.spec.ts:27:63)
	    at _ZoneDelegate.invoke (node_modules/zone.js/fesm2015/zone.js:369:28)
Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 19 of 19 (1 FAILED) (0.455 secs / 0.409 secs)
TOTAL: 1 FAILED, 18 SUCCESS

 NX   Ran target test for project shift-ui (4s)

   ✖    1/1 failed
""", code=1, description="shift-ui tests with the pipe")
c.assistant("Ha, the classic one: `Expected 'Wed 1 Jul, 19:00' to be 'Wed 1 Jul, 19:00'`. The strings look equal, so Intl must be putting a non-breaking or narrow space somewhere. Let me print the code points.")
c.bash("node -e \"const s=new Intl.DateTimeFormat('en-GB',{weekday:'short',day:'numeric',month:'short',hour:'2-digit',minute:'2-digit',hourCycle:'h23',timeZone:'Europe/London'}).format(new Date('2026-07-01T18:00:00Z')); console.log(JSON.stringify(s), [...s].map(c=>c.charCodeAt(0).toString(16)).join(' '))\"", """"Wed 1 Jul, 19:00" 57 65 64 20 31 20 4a 75 6c 2c 20 31 39 3a 30 30
""", description="Inspect Intl output in node")
c.assistant("Node prints plain spaces, so Chrome's ICU differs from Node's here (Chrome 129 uses U+202F narrow no-break space in some en-GB patterns). Rather than depending on ICU data, let's build the long format from `formatToParts` ourselves; it's the only one with a separator that varies.")
c.edit(PIPE, """    const d = typeof value === 'string' ? new Date(value) : value;
    return new Intl.DateTimeFormat('en-GB', { ...FORMATS[format], timeZone: this.zone }).format(d);""", """    const d = typeof value === 'string' ? new Date(value) : value;
    const parts = new Intl.DateTimeFormat('en-GB', { ...FORMATS[format], timeZone: this.zone }).formatToParts(d);
    const p = (t: Intl.DateTimeFormatPartTypes) => parts.find((x) => x.type === t)?.value ?? '';
    const time = `${p('hour')}:${p('minute')}`;
    // built from parts: Chrome's ICU puts U+202F in some en-GB patterns, Node's does not
    return format === 'long' ? `${p('weekday')} ${p('day')} ${p('month')}, ${time}` : time;""")
c.bash("npx nx test shift-ui --watch=false --browsers=ChromeHeadless 2>&1 | tail -4", """Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 19 of 19 SUCCESS (0.447 secs / 0.401 secs)
TOTAL: 19 SUCCESS

 NX   Successfully ran target test for project shift-ui
""", description="shift-ui tests")
c.bash("sed -n '1,12p' apps/rota-web/src/app/shift-detail/shift-detail.component.html; grep -n 'imports' apps/rota-web/src/app/shift-detail/shift-detail.component.ts apps/rota-web/src/app/roster-grid/roster-grid.component.ts", """<dl class="shift-detail">
  <dt>Ward</dt><dd>{{ shift.ward }}</dd>
  <dt>Starts</dt>
  <dd>{{ shift.start | date: 'EEE d MMM, HH:mm' }}</dd>
  <dt>Ends</dt>
  <dd>{{ shift.end | date: 'EEE d MMM, HH:mm' }}</dd>
</dl>
apps/rota-web/src/app/shift-detail/shift-detail.component.ts:9:  imports: [DatePipe],
""", description="Other date pipe users")
c.bash("sed -i \"s/| date: 'EEE d MMM, HH:mm'/| wardTime: 'long'/\" apps/rota-web/src/app/shift-detail/shift-detail.component.html && sed -i \"s/| date: 'HH:mm' : 'UTC'/| wardTime/\" apps/rota-web/src/app/roster-grid/roster-grid.component.html && sed -i \"s/import { DatePipe } from '@angular\\/common';/import { WardTimePipe } from '@wardrota\\/shift-ui';/; s/imports: \\[DatePipe\\]/imports: [WardTimePipe]/\" apps/rota-web/src/app/shift-detail/shift-detail.component.ts && grep -rn 'wardTime\\|WardTimePipe' apps/rota-web/src --include=*.html --include=*.ts | grep -v spec", """apps/rota-web/src/app/shift-detail/shift-detail.component.html:4:  <dd>{{ shift.start | wardTime: 'long' }}</dd>
apps/rota-web/src/app/shift-detail/shift-detail.component.html:6:  <dd>{{ shift.end | wardTime: 'long' }}</dd>
apps/rota-web/src/app/shift-detail/shift-detail.component.ts:3:import { WardTimePipe } from '@wardrota/shift-ui';
apps/rota-web/src/app/shift-detail/shift-detail.component.ts:9:  imports: [WardTimePipe],
apps/rota-web/src/app/roster-grid/roster-grid.component.html:9:      <span class="t">{{ cell.start | wardTime }}</span>
""", description="Switch rota-web templates to wardTime")
c.bash("npx nx test rota-web --watch=false --browsers=ChromeHeadless 2>&1 | tail -24", """Chrome Headless 129.0.6668.89 (Linux x86_64) RosterGridComponent should render one cell per shift FAILED
	NG0302: The pipe 'wardTime' could not be found in the 'RosterGridComponent' component. Verify that it is declared or imported in this module. Find more at https://angular.dev/errors/NG0302
	error properties: Object({ code: -302 })
	Error: NG0302: The pipe 'wardTime' could not be found in the 'RosterGridComponent' component. Verify that it is declared or imported in this module.
	    at getPipeDef (node_modules/@angular/core/fesm2022/core.mjs:28711:15)
	    at ɵɵpipe (node_modules/@angular/core/fesm2022/core.mjs:28654:19)
	    at RosterGridComponent_Template (ng:///RosterGridComponent.js:21:9)
Chrome Headless 129.0.6668.89 (Linux x86_64) RosterGridComponent should highlight night shifts FAILED
	NG0302: The pipe 'wardTime' could not be found in the 'RosterGridComponent' component. Verify that it is declared or imported in this module. Find more at https://angular.dev/errors/NG0302
Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 22 of 22 (2 FAILED) (0.901 secs / 0.822 secs)
TOTAL: 2 FAILED, 20 SUCCESS
""", code=1, description="rota-web tests")
c.assistant("My sed only added the import to shift-detail; I never opened roster-grid.component.ts, and it has no `imports` array at all. NG0302 in both roster-grid cell tests. Adding `imports: [WardTimePipe]` to RosterGridComponent.")
c.files[GRID] = c.files[GRID].replace("  template: `<div class=\"week\">{{ weekLabel() }}</div>`,", "  templateUrl: './roster-grid.component.html',")
c.edit(GRID, """import { ShiftService } from '../shift.service';
""", """import { WardTimePipe } from '@wardrota/shift-ui';
import { ShiftService } from '../shift.service';
""")
c.edit(GRID, """  standalone: true,
  templateUrl""", """  standalone: true,
  imports: [WardTimePipe],
  templateUrl""")
c.bash("npx nx test rota-web --watch=false --browsers=ChromeHeadless 2>&1 | tail -4", """Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 22 of 22 SUCCESS (0.874 secs / 0.799 secs)
TOTAL: 22 SUCCESS

 NX   Successfully ran target test for project rota-web
""", description="rota-web tests")
c.assistant(
    "Ward time is done: `WardTimePipe` (`wardTime`, formats `time` and `long`) and the `WARD_TIME_ZONE` token (default 'Europe/London', providedIn root) live in libs/shift-ui/src/lib/ward-time.pipe.ts, exported from the lib's index. All four places use it now (shift-list, shift-detail ×2, roster-grid, which lost its forced 'UTC'). shift-ui 19/19, rota-web 22/22."
)

# ===================================================================== turn 3
c.user(
    "Nice. Oh, while I think of it, we've had that RosterGridComponent spec fail on CI a couple of times on Monday mornings, 'should label the current week from Monday'. Let's have a look at — actually no, park that, back to the swap form, I want the form in review today. "
    "Form: a nurse picks one of their own upcoming shifts, picks a colleague, picks one of the colleague's shifts, adds an optional note (max 200 chars). Rules: can't swap with yourself, colleague must have the same grade (band 5 with band 5 etc.), and both shifts must be in the future. Before we write it, can we find out who still calls ShiftService.getShifts()? I think it's the old sync one that returns a snapshot and we said we'd stop using it."
)
PROMPT = "In the Nx workspace at /home/priya/code/wardrota, find every caller of ShiftService.getShifts() (the old synchronous method returning a snapshot array) in apps/ and libs/, including specs and mocks. For each: file, line, what it does with the result, and whether the newer shifts$ / shiftsFor(userId) signal-based API would be a drop-in replacement. Also report how shiftsFor is implemented and whether it exposes the colleague's grade. Read-only: do not edit anything."
(tid,) = c.assistant("Let's have a sub-agent survey that while I read the shift service and the roster-data models.", calls=[("Task", {"description": "Find getShifts() callers", "prompt": PROMPT, "subagent_type": "general-purpose"})])
AG = "a7c31e5"
c.user(PROMPT, agent=AG)
c.bash("grep -rn 'getShifts(' apps libs --include=*.ts", """apps/rota-web/src/app/shift.service.ts:31:  /** @deprecated use shiftsFor(userId) */ getShifts(): Shift[] {
apps/rota-web/src/app/my-week/my-week.component.ts:22:    this.rows = this.shifts.getShifts().filter((s) => s.userId === this.me.id);
apps/rota-web/src/app/ward-board/ward-board.component.ts:40:    const all = this.shiftService.getShifts();
apps/rota-web/src/app/my-week/my-week.component.spec.ts:14:      providers: [{ provide: ShiftService, useValue: { getShifts: () => FAKE_SHIFTS } }],
apps/rota-web/src/app/testing/shift-service.mock.ts:9:  getShifts = jasmine.createSpy('getShifts').and.returnValue([]);
""", description="grep callers", agent=AG)
c.bash("sed -n '1,60p' apps/rota-web/src/app/shift.service.ts", """import { Injectable, Signal, computed, inject, signal } from '@angular/core';
import { HttpClient } from '@angular/common/http';
import { Shift, StaffMember, RosterApi } from '@wardrota/roster-data';

@Injectable({ providedIn: 'root' })
export class ShiftService {
  private api = inject(RosterApi);
  private readonly all = signal<Shift[]>([]);
  private readonly staff = signal<StaffMember[]>([]);
  readonly shifts$ = this.all.asReadonly();

  load(ward: string) {
    this.api.listShifts({ ward }).subscribe((s) => this.all.set(s));
    this.api.listStaff({ ward }).subscribe((m) => this.staff.set(m));
  }

  shiftsFor(userId: string): Signal<Shift[]> {
    return computed(() => this.all().filter((s) => s.userId === userId));
  }

  staffMember(userId: string): Signal<StaffMember | undefined> {
    return computed(() => this.staff().find((m) => m.id === userId));
  }

  /** @deprecated use shiftsFor(userId) */ getShifts(): Shift[] {
    return this.all();
  }
}
""", description="read the service", agent=AG)
c.bash("grep -n 'grade\\|band' libs/roster-data/src/lib/model/*.ts | head", """libs/roster-data/src/lib/model/staff-member.ts:14:    grade: StaffMember.GradeEnum;
libs/roster-data/src/lib/model/staff-member.ts:22:        Band5: 'BAND_5',
libs/roster-data/src/lib/model/staff-member.ts:23:        Band6: 'BAND_6',
libs/roster-data/src/lib/model/staff-member.ts:24:        Band7: 'BAND_7',
libs/roster-data/src/lib/model/staff-member.ts:25:        Hca: 'HCA'
""", description="grade in the models", agent=AG)
REPORT = """Survey of ShiftService.getShifts() callers (read-only, nothing edited).

Callers (5 hits, 4 real uses + the definition):
1. apps/rota-web/src/app/shift.service.ts:31 - the definition, marked @deprecated, returns this.all() (a snapshot of the signal).
2. apps/rota-web/src/app/my-week/my-week.component.ts:22 - ngOnInit copies getShifts() filtered by userId into a plain `rows` field. Never updates after load(): this is why "My week" is empty until you navigate away and back. shiftsFor(me.id) is a drop-in replacement if the template reads rows() instead of rows.
3. apps/rota-web/src/app/ward-board/ward-board.component.ts:40 - builds a Map<ward, Shift[]> from getShifts() once in the constructor. Needs shifts$ plus a computed() for the grouping; not a one-line swap.
4. apps/rota-web/src/app/my-week/my-week.component.spec.ts:14 - useValue { getShifts: () => FAKE_SHIFTS }; must become shiftsFor: () => signal(FAKE_SHIFTS) when my-week changes.
5. apps/rota-web/src/app/testing/shift-service.mock.ts:9 - jasmine spy getShifts returning []. The mock has no shiftsFor or staffMember at all.

Newer API (shift.service.ts):
- shifts$: readonly Signal<Shift[]> of everything loaded for the ward.
- shiftsFor(userId): Signal<Shift[]>, a computed() over the same signal. Note: each call creates a NEW computed, so calling it inside a template or another computed re-creates it on every change detection; call it once in a field initialiser.
- staffMember(userId): Signal<StaffMember | undefined>.

Grade:
- StaffMember.grade is StaffMember.GradeEnum in libs/roster-data (generated): 'BAND_5' | 'BAND_6' | 'BAND_7' | 'HCA'.
- Shift itself has no grade; the swap form has to look the colleague up via staffMember(colleagueId)().grade.

Suggestions:
- For the swap form use shiftsFor() and staffMember() only; no new getShifts() callers.
- shift-service.mock.ts needs shiftsFor and staffMember before any new spec can use it.
- my-week and ward-board migrations are separate work (ward-board is the bigger one).

No edits were made."""
c.assistant(REPORT, agent=AG)
c.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": PROMPT, "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 48210, "totalTokens": 21877, "totalToolUseCount": 3})
c.assistant(
    "Summary of the survey: 4 real uses of the deprecated `getShifts()`: my-week (copies a snapshot once, which is why My week stays empty until you navigate back), ward-board (groups once in the constructor), the my-week spec and the shared mock `testing/shift-service.mock.ts` (which has no `shiftsFor`/`staffMember` yet). Grade lives only on `StaffMember.grade` ('BAND_5' | 'BAND_6' | 'BAND_7' | 'HCA'), so the form checks it via `staffMember(id)()`. Gotcha: `shiftsFor()` creates a new computed per call, so call it once per user, not in a template.\n\n"
    "Shall we do the form with shiftsFor/staffMember only, extend the mock, and leave my-week and ward-board for later?"
)

# ===================================================================== turn 4
c.user("Yes exactly that. my-week/ward-board migration goes on the backlog, not today. Let's write the form. Reactive forms are fine for the inputs, but the selected colleague etc. as signals. And the submit just calls SwapApi.requestSwap from roster-data for now.")
c.bash("grep -n 'requestSwap' -A6 libs/roster-data/src/lib/api/swap.api.ts | head -12; cat apps/rota-web/src/app/testing/shift-service.mock.ts", """41:    public requestSwap(body: SwapRequest, observe?: 'body'): Observable<SwapRequestResult>;
42-    public requestSwap(body: SwapRequest, observe: any = 'body'): Observable<any> {
43-        return this.httpClient.post<any>(`${this.configuration.basePath}/swaps`, body, { observe });
--
libs/roster-data/src/lib/model/swap-request.ts:12:export interface SwapRequest {
libs/roster-data/src/lib/model/swap-request.ts:13:    fromShiftId: string;
libs/roster-data/src/lib/model/swap-request.ts:14:    toShiftId: string;
libs/roster-data/src/lib/model/swap-request.ts:15:    note?: string;
import { signal } from '@angular/core';
import { Shift } from '@wardrota/roster-data';

export class ShiftServiceMock {
  getShifts = jasmine.createSpy('getShifts').and.returnValue([]);
}
""", description="SwapApi and the mock")
c.files["apps/rota-web/src/app/testing/shift-service.mock.ts"] = """import { signal } from '@angular/core';
import { Shift } from '@wardrota/roster-data';

export class ShiftServiceMock {
  getShifts = jasmine.createSpy('getShifts').and.returnValue([]);
}
"""
c.edit("apps/rota-web/src/app/testing/shift-service.mock.ts", """import { signal } from '@angular/core';
import { Shift } from '@wardrota/roster-data';

export class ShiftServiceMock {
  getShifts = jasmine.createSpy('getShifts').and.returnValue([]);
}""", """import { signal } from '@angular/core';
import { Shift, StaffMember } from '@wardrota/roster-data';

export class ShiftServiceMock {
  readonly shifts = signal<Shift[]>([]);
  readonly staff = signal<StaffMember[]>([]);
  getShifts = jasmine.createSpy('getShifts').and.returnValue([]);
  shiftsFor = (userId: string) => signal(this.shifts().filter((s) => s.userId === userId));
  staffMember = (userId: string) => signal(this.staff().find((m) => m.id === userId));
}""")
c.write(FORM, """import { Component, computed, inject, input, signal } from '@angular/core';
import { FormControl, FormGroup, ReactiveFormsModule, Validators } from '@angular/forms';
import { StaffMember, SwapApi } from '@wardrota/roster-data';
import { WardTimePipe } from '@wardrota/shift-ui';
import { ShiftService } from '../shift.service';

@Component({
  selector: 'wr-swap-request-form',
  standalone: true,
  imports: [ReactiveFormsModule, WardTimePipe],
  templateUrl: './swap-request-form.component.html',
})
export class SwapRequestFormComponent {
  private readonly shifts = inject(ShiftService);
  private readonly swapApi = inject(SwapApi);

  readonly me = input.required<StaffMember>();
  readonly colleagues = input<StaffMember[]>([]);

  readonly colleagueId = signal<string | null>(null);
  readonly submitted = signal<'idle' | 'sending' | 'sent' | 'error'>('idle');

  readonly form = new FormGroup({
    fromShiftId: new FormControl<string | null>(null, Validators.required),
    toShiftId: new FormControl<string | null>(null, Validators.required),
    note: new FormControl('', Validators.maxLength(200)),
  });

  private readonly now = () => Date.now();
  readonly myShifts = computed(() => this.shifts.shiftsFor(this.me().id)().filter((s) => Date.parse(s.start) > this.now()));
  readonly colleague = computed(() => this.colleagues().find((m) => m.id === this.colleagueId()));
  readonly theirShifts = computed(() => {
    const id = this.colleagueId();
    return id ? this.shifts.shiftsFor(id)().filter((s) => Date.parse(s.start) > this.now()) : [];
  });

  readonly problem = computed<string | null>(() => {
    const other = this.colleague();
    if (!other) return null;
    if (other.id === this.me().id) return 'You cannot swap with yourself.';
    if (other.grade !== this.me().grade) return 'You can only swap with a colleague of the same grade.';
    return null;
  });

  pickColleague(id: string) {
    this.colleagueId.set(id);
    this.form.controls.toShiftId.reset();
  }

  submit() {
    if (this.form.invalid || this.problem()) return;
    const v = this.form.getRawValue();
    this.submitted.set('sending');
    this.swapApi.requestSwap({ fromShiftId: v.fromShiftId!, toShiftId: v.toShiftId!, note: v.note || undefined }).subscribe({
      next: () => this.submitted.set('sent'),
      error: () => this.submitted.set('error'),
    });
  }
}
""")
c.bash("cat > apps/rota-web/src/app/swap/swap-request-form.component.html <<'HTML'\n<form [formGroup]=\"form\" (ngSubmit)=\"submit()\" class=\"swap\">\n  <label>My shift\n    <select formControlName=\"fromShiftId\">\n      @for (s of myShifts(); track s.id) { <option [value]=\"s.id\">{{ s.start | wardTime: 'long' }} {{ s.role }}</option> }\n    </select>\n  </label>\n  <label>Colleague\n    <select (change)=\"pickColleague($any($event.target).value)\">\n      @for (m of colleagues(); track m.id) { <option [value]=\"m.id\">{{ m.name }}</option> }\n    </select>\n  </label>\n  <label>Their shift\n    <select formControlName=\"toShiftId\">\n      @for (s of theirShifts(); track s.id) { <option [value]=\"s.id\">{{ s.start | wardTime: 'long' }} {{ s.role }}</option> }\n    </select>\n  </label>\n  <textarea formControlName=\"note\" maxlength=\"200\"></textarea>\n  @if (problem(); as p) { <p class=\"problem\" role=\"alert\">{{ p }}</p> }\n  <button type=\"submit\" [disabled]=\"form.invalid || problem() != null || submitted() == 'sending'\">Request swap</button>\n</form>\nHTML\nwc -l apps/rota-web/src/app/swap/swap-request-form.component.html", "21 apps/rota-web/src/app/swap/swap-request-form.component.html\n", description="Write the form template")
c.write(FORM_SPEC, """import { TestBed } from '@angular/core/testing';
import { of } from 'rxjs';
import { StaffMember, SwapApi } from '@wardrota/roster-data';
import { ShiftService } from '../shift.service';
import { ShiftServiceMock } from '../testing/shift-service.mock';
import { SwapRequestFormComponent } from './swap-request-form.component';

const ME = { id: 'u1', name: 'Ada', grade: 'BAND_5' } as StaffMember;
const SAME = { id: 'u2', name: 'Ben', grade: 'BAND_5' } as StaffMember;
const SENIOR = { id: 'u3', name: 'Cai', grade: 'BAND_6' } as StaffMember;

describe('SwapRequestFormComponent', () => {
  let mock: ShiftServiceMock;
  let api: jasmine.SpyObj<SwapApi>;

  function create() {
    const fixture = TestBed.createComponent(SwapRequestFormComponent);
    fixture.componentRef.setInput('me', ME);
    fixture.componentRef.setInput('colleagues', [ME, SAME, SENIOR]);
    fixture.detectChanges();
    return fixture;
  }

  beforeEach(() => {
    mock = new ShiftServiceMock();
    api = jasmine.createSpyObj<SwapApi>('SwapApi', ['requestSwap']);
    api.requestSwap.and.returnValue(of({ id: 'sw1', status: 'PENDING' }) as never);
    mock.shifts.set([
      { id: 's1', userId: 'u1', start: '2099-01-05T07:00:00Z', end: '2099-01-05T19:30:00Z', role: 'RN' },
      { id: 's0', userId: 'u1', start: '2000-01-05T07:00:00Z', end: '2000-01-05T19:30:00Z', role: 'RN' },
      { id: 's2', userId: 'u2', start: '2099-01-06T19:00:00Z', end: '2099-01-07T07:30:00Z', role: 'RN' },
    ] as never);
    TestBed.configureTestingModule({
      imports: [SwapRequestFormComponent],
      providers: [
        { provide: ShiftService, useValue: mock },
        { provide: SwapApi, useValue: api },
      ],
    });
  });

  it('should offer only my future shifts', () => {
    expect(create().componentInstance.myShifts().map((s) => s.id)).toEqual(['s1']);
  });

  it('should refuse a swap with myself', () => {
    const f = create();
    f.componentInstance.pickColleague('u1');
    expect(f.componentInstance.problem()).toBe('You cannot swap with yourself.');
  });

  it('should refuse a colleague of another grade', () => {
    const f = create();
    f.componentInstance.pickColleague('u3');
    expect(f.componentInstance.problem()).toContain('same grade');
  });

  it('should send the swap request', () => {
    const f = create();
    const cmp = f.componentInstance;
    cmp.pickColleague('u2');
    cmp.form.setValue({ fromShiftId: 's1', toShiftId: 's2', note: '' });
    cmp.submit();
    expect(api.requestSwap).toHaveBeenCalledWith({ fromShiftId: 's1', toShiftId: 's2', note: undefined });
    expect(cmp.submitted()).toBe('sent');
  });

  it('should reject a note over 200 characters', () => {
    const cmp = create().componentInstance;
    cmp.form.controls.note.setValue('x'.repeat(201));
    expect(cmp.form.controls.note.hasError('maxlength')).toBeTrue();
  });
});
""")
c.bash("npx nx test rota-web --watch=false --browsers=ChromeHeadless 2>&1 | tail -30", """Chrome Headless 129.0.6668.89 (Linux x86_64) SwapRequestFormComponent should offer only my future shifts FAILED
	NullInjectorError: R3InjectorError(Standalone[SwapRequestFormComponent])[WardTimePipe -> WARD_TIME_ZONE -> HttpClient -> HttpClient]:
	  NullInjectorError: No provider for HttpClient!
	error properties: Object({ ngTempTokenPath: null, ngTokenPath: [ 'WardTimePipe', 'InjectionToken WARD_TIME_ZONE', 'HttpClient', 'HttpClient' ] })
	    at NullInjector.get (node_modules/@angular/core/fesm2022/core.mjs:1654:27)
	    at R3Injector.get (node_modules/@angular/core/fesm2022/core.mjs:3093:33)
Chrome Headless 129.0.6668.89 (Linux x86_64) SwapRequestFormComponent should refuse a swap with myself FAILED
	NullInjectorError: No provider for HttpClient!
Chrome Headless 129.0.6668.89 (Linux x86_64) SwapRequestFormComponent should refuse a colleague of another grade FAILED
	NullInjectorError: No provider for HttpClient!
Chrome Headless 129.0.6668.89 (Linux x86_64) SwapRequestFormComponent should send the swap request FAILED
	NullInjectorError: No provider for HttpClient!
Chrome Headless 129.0.6668.89 (Linux x86_64) SwapRequestFormComponent should reject a note over 200 characters FAILED
	NullInjectorError: No provider for HttpClient!
Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 27 of 27 (5 FAILED) (1.102 secs / 0.951 secs)
TOTAL: 5 FAILED, 22 SUCCESS
""", code=1, description="rota-web tests with the form")
c.assistant("All 5 new specs: `NullInjectorError: No provider for HttpClient!`, and the token path is odd: `WardTimePipe -> WARD_TIME_ZONE -> HttpClient`. WARD_TIME_ZONE's factory doesn't touch HttpClient... unless rota-web overrides the token. Let me check the app config.")
c.bash("grep -rn 'WARD_TIME_ZONE' apps/rota-web/src libs --include=*.ts | grep -v spec", """libs/shift-ui/src/lib/ward-time.pipe.ts:4:export const WARD_TIME_ZONE = new InjectionToken<string>('WARD_TIME_ZONE', {
apps/rota-web/src/app/app.config.ts:19:    { provide: WARD_TIME_ZONE, useFactory: () => inject(HttpClient) && inject(WARD_CONFIG).zone },
""", description="Who provides WARD_TIME_ZONE")
c.bash("git diff --stat; git log -1 --format='%h %an %s' -- apps/rota-web/src/app/app.config.ts; git diff apps/rota-web/src/app/app.config.ts", """ apps/rota-web/src/app/app.config.ts                         |  3 +-
 apps/rota-web/src/app/roster-grid/roster-grid.component.html |  2 +-
 ...
 a3c9e11 Priya Raman rota-web: roster grid week label
diff --git a/apps/rota-web/src/app/app.config.ts b/apps/rota-web/src/app/app.config.ts
@@ -16,6 +16,7 @@ export const appConfig: ApplicationConfig = {
     provideHttpClient(),
     { provide: WARD_CONFIG, useValue: environment.ward },
+    { provide: WARD_TIME_ZONE, useFactory: () => inject(HttpClient) && inject(WARD_CONFIG).zone },
   ],
 };
""", description="Where did that provider come from")
c.assistant(
    "That provider line in app.config.ts is an uncommitted change that neither of us made in this session, with a pointless `inject(HttpClient) &&` in it; probably an experiment left in the working tree before we started. Though wait: app.config isn't loaded in TestBed at all, so this can't be what the spec sees... unless the spec injector picks it up via the test-setup. Checking test-setup.ts."
)
c.bash("cat apps/rota-web/src/test-setup.ts", """import 'zone.js';
import 'zone.js/testing';
import { getTestBed } from '@angular/core/testing';
import { BrowserDynamicTestingModule, platformBrowserDynamicTesting } from '@angular/platform-browser-dynamic/testing';
import { appConfig } from './app/app.config';

getTestBed().initTestEnvironment(BrowserDynamicTestingModule, platformBrowserDynamicTesting(), {
  teardown: { destroyAfterEach: true },
});
getTestBed().configureTestingModule({ providers: appConfig.providers.filter((p) => !('ngModule' in (p as object))) });
""", description="test-setup")
c.assistant(
    "There it is: test-setup.ts copies appConfig.providers into every TestBed, minus module providers, so `provideHttpClient()` is filtered out (it's an EnvironmentProviders object) but the WARD_TIME_ZONE factory that injects HttpClient stays. Two ways: remove that uncommitted WARD_TIME_ZONE line from app.config (the token's default already gives Europe/London), or provide HttpClient in the spec. I'd rather not throw away someone's change without asking. Was that yours?"
)

# ===================================================================== turn 5
c.user("Ugh, yes, that was me on Friday trying to get the zone from the ward config endpoint, abandoned. Let's drop it, the token default is what we want. Don't touch test-setup.ts, other specs rely on it.")
c.bash("git checkout -- apps/rota-web/src/app/app.config.ts && git status --short", """ M apps/rota-web/src/app/roster-grid/roster-grid.component.html
 M apps/rota-web/src/app/roster-grid/roster-grid.component.ts
 M apps/rota-web/src/app/shift-detail/shift-detail.component.html
 M apps/rota-web/src/app/shift-detail/shift-detail.component.ts
 M apps/rota-web/src/app/testing/shift-service.mock.ts
 M libs/shift-ui/src/index.ts
 M libs/shift-ui/src/lib/shift-list/shift-list.component.ts
?? apps/rota-web/src/app/swap/
?? libs/shift-ui/src/lib/ward-time.pipe.spec.ts
?? libs/shift-ui/src/lib/ward-time.pipe.ts
""", description="Drop the abandoned provider")
c.bash("npx nx test rota-web --watch=false --browsers=ChromeHeadless 2>&1 | tail -12", """Chrome Headless 129.0.6668.89 (Linux x86_64) SwapRequestFormComponent should send the swap request FAILED
	Expected $[0].note = '' to equal undefined.
	    at <Jasmine>
	    at UserContext.apply (apps/rota-web/src/app/swap/swap-request-form.component.spec.ts:66:36)
Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 27 of 27 (1 FAILED) (1.064 secs / 0.944 secs)
TOTAL: 1 FAILED, 26 SUCCESS
""", code=1, description="rota-web tests")
c.assistant("Down to one: `Expected $[0].note = '' to equal undefined`. `getRawValue()` gives `''` and `'' || undefined` should be undefined... unless `note` is `null` → no. Ah: the spec's `setValue` passes `note: ''`, then the form's note FormControl isn't `nonNullable`, fine, but I typed `v.note || undefined` and the jasmine message says the *actual* is `''`. Looking at the code: the template's textarea has `maxlength` and... no. Let me read what I wrote.")
c.bash("grep -n 'note' apps/rota-web/src/app/swap/swap-request-form.component.ts", """27:    note: new FormControl('', Validators.maxLength(200)),
55:    this.swapApi.requestSwap({ fromShiftId: v.fromShiftId!, toShiftId: v.toShiftId!, note: v.note || undefined }).subscribe({
""", description="note handling")
c.assistant("The component is right; the expectation is the other way round: jasmine prints `Expected <actual path> = <actual> to equal <expected>` for object diffs, so `$[0].note = ''`... is the actual. Hmm, that means `v.note || undefined` produced `''`, which is impossible, so the compiled spec ran an older component build. Karma's webpack cache after the git checkout — let's rerun with a clean nx cache rather than guess.")
c.bash("npx nx reset >/dev/null && npx nx test rota-web --watch=false --browsers=ChromeHeadless --skip-nx-cache 2>&1 | tail -4", """Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 27 of 27 SUCCESS (1.071 secs / 0.950 secs)
TOTAL: 27 SUCCESS

 NX   Successfully ran target test for project rota-web
""", description="rota-web tests, clean cache")
c.bash("npx nx lint rota-web 2>&1 | tail -14", """
/home/priya/code/wardrota/apps/rota-web/src/app/swap/swap-request-form.component.html
  19:85  error  Expected `!==` but received `!=`  @angular-eslint/template/eqeqeq
  19:106  error  Expected `===` but received `==`  @angular-eslint/template/eqeqeq

✖ 2 problems (2 errors, 0 warnings)

 NX   Ran target lint for project rota-web (3s)

   ✖    1/1 failed
""", code=1, description="lint rota-web")
c.bash("sed -i \"s/problem() != null || submitted() == 'sending'/problem() !== null || submitted() === 'sending'/\" apps/rota-web/src/app/swap/swap-request-form.component.html && npx nx lint rota-web 2>&1 | tail -3", """
 NX   Successfully ran target lint for project rota-web

""", description="Fix eqeqeq and relint")
c.assistant(
    "Swap form in: `SwapRequestFormComponent` (standalone, signals for colleagueId/submitted and computed myShifts/theirShifts/problem, reactive form for the three inputs, note max 200), template with the new control flow, submit → `SwapApi.requestSwap`. 5 specs in 'should ...' style. rota-web 27/27 after `nx reset` (the one odd failure was a stale cache after the checkout), lint clean after fixing two `eqeqeq` errors in the template. The shared mock now has `shiftsFor`/`staffMember`; the abandoned WARD_TIME_ZONE provider in app.config.ts is gone."
)

# ===================================================================== turn 6
c.user(
    "Lovely. OK, back to the flaky RosterGrid spec we parked. It's 'should label the current week from Monday', fails on CI some Mondays. CI runs in UTC, the runners are in Frankfurt I think. Let's find it."
)
c.read(GRID_SPEC)
c.assistant(
    "Reading it against the component: the component computes `startOfWeek(new Date())` with **local** `setHours(0,0,0,0)` and `setDate`, then `toISOString()`, which is **UTC**. The spec computes Monday from `new Date()` *without* zeroing the time and also uses `toISOString()`. So:\n"
    "- On a machine in a zone east of UTC (Frankfurt, UTC+1/+2), local Monday 00:00 is Sunday 22:00/23:00 UTC, so the component's label shows **Sunday's date**, while the spec's Monday (not zeroed, e.g. Monday 08:00 local = 06:00 UTC) shows Monday. Fails every day in such a zone... except the spec only fails on Mondays on CI, which fits a runner in UTC only if the *component* and spec disagree on a Monday: on Monday before 00:00+offset... \n\n"
    "Easier to prove than argue: let's run the spec with a fixed clock and TZ."
)
c.bash("for tz in UTC Europe/Berlin Europe/London; do echo \"== $tz\"; TZ=$tz npx nx test rota-web --watch=false --browsers=ChromeHeadless --include='**/roster-grid.component.spec.ts' --skip-nx-cache 2>&1 | grep -E 'Executed .* of|Expected'; done", """== UTC
Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 3 of 3 SUCCESS (0.121 secs / 0.098 secs)
== Europe/Berlin
	Expected 'w/c 2026-10-04' to contain 'w/c 2026-10-05'.
Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 3 of 3 (1 FAILED) (0.133 secs / 0.104 secs)
== Europe/London
	Expected 'w/c 2026-10-04' to contain 'w/c 2026-10-05'.
Chrome Headless 129.0.6668.89 (Linux x86_64): Executed 3 of 3 (1 FAILED) (0.127 secs / 0.101 secs)
""", description="Run the grid spec in three zones")
c.assistant(
    "Confirmed, and it's worse than flaky: in any zone east of UTC (Berlin, and London during BST) the component labels this week `w/c 2026-10-04`, a **Sunday**, because it formats local midnight with `toISOString()` (UTC). It passes in UTC only. So it's a component bug, and the spec just happens to share the same mistake half the time. The label should format the local date, not the UTC one. Since we now have ward time, the right fix is: compute the Monday in the ward zone and format it with a local Y-M-D, and make the spec deterministic with `jasmine.clock().mockDate`."
)
c.user("Agreed, it's a real bug then. Let's fix the component, not only the test. Keep startOfWeek exported, the ward-board uses it.")
c.edit(GRID, """  readonly weekLabel = computed(() => 'w/c ' + this.weekStart().toISOString().slice(0, 10));
}""", """  // local Y-M-D: toISOString() would give the UTC date, i.e. Sunday for a Monday 00:00 east of UTC
  readonly weekLabel = computed(() => 'w/c ' + localIsoDate(this.weekStart()));
}

export function localIsoDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}""")
c.edit(GRID_SPEC, """  it('should label the current week from Monday', () => {
    const fixture = TestBed.createComponent(RosterGridComponent);
    fixture.detectChanges();
    const monday = new Date();
    monday.setDate(monday.getDate() - ((monday.getDay() + 6) % 7));
    expect(fixture.nativeElement.textContent).toContain('w/c ' + monday.toISOString().slice(0, 10));
  });""", """  afterEach(() => jasmine.clock().uninstall());

  it('should label the current week from Monday', () => {
    jasmine.clock().install();
    jasmine.clock().mockDate(new Date(2026, 9, 7, 10, 0)); // Wednesday 7 Oct 2026, local time
    const fixture = TestBed.createComponent(RosterGridComponent);
    fixture.detectChanges();
    expect(fixture.nativeElement.textContent).toContain('w/c 2026-10-05');
  });

  it('should label Monday itself just after local midnight', () => {
    jasmine.clock().install();
    jasmine.clock().mockDate(new Date(2026, 9, 5, 0, 15)); // Monday 00:15 local
    const fixture = TestBed.createComponent(RosterGridComponent);
    fixture.detectChanges();
    expect(fixture.nativeElement.textContent).toContain('w/c 2026-10-05');
  });""")
c.bash("for tz in UTC Europe/Berlin Europe/London America/New_York Pacific/Auckland; do printf '%-18s ' $tz; TZ=$tz npx nx test rota-web --watch=false --browsers=ChromeHeadless --include='**/roster-grid.component.spec.ts' --skip-nx-cache 2>&1 | grep -oE 'Executed [0-9]+ of [0-9]+.*\\)' | head -1; done", """UTC                Executed 4 of 4 SUCCESS (0.118 secs / 0.095 secs)
Europe/Berlin      Executed 4 of 4 SUCCESS (0.124 secs / 0.099 secs)
Europe/London      Executed 4 of 4 SUCCESS (0.120 secs / 0.097 secs)
America/New_York   Executed 4 of 4 SUCCESS (0.126 secs / 0.101 secs)
Pacific/Auckland   Executed 4 of 4 SUCCESS (0.129 secs / 0.103 secs)
""", description="Grid spec in five zones")
c.bash("npx nx affected -t lint test --base=main --browsers=ChromeHeadless --watch=false 2>&1 | tail -12", """
 NX   Running targets lint, test for 3 projects:

- rota-web
- shift-ui
- rota-web-e2e

 ✔  nx run shift-ui:lint (2s)
 ✔  nx run rota-web:lint (3s)
 ✔  nx run shift-ui:test (5s)
 ✔  nx run rota-web:test (7s)
 ✔  nx run rota-web-e2e:lint (1s)

 NX   Successfully ran targets lint, test for 3 projects (14s)
""", description="nx affected lint+test")
c.assistant(
    "The parked one is done too: the week label bug was real, not flakiness. `weekLabel` used `toISOString()` (UTC) on a local-midnight Monday, so east of UTC it showed Sunday's date. Now it uses a new exported `localIsoDate()`; `startOfWeek` is unchanged and still exported for ward-board. The spec uses `jasmine.clock().mockDate` (Wednesday 7 Oct and Monday 00:15), and passes in UTC, Berlin, London, New York and Auckland. `nx affected -t lint test --base=main` is green for rota-web, shift-ui and rota-web-e2e (lint)."
)

# ===================================================================== turn 7
c.user("Great session. Let's commit it as two commits: the ward-time pipe + grid fix as one, the swap form as the other. Branch is already feat/shift-swap. Don't push, I'll open the PR after lunch.")
c.bash("git add libs/shift-ui apps/rota-web/src/app/shift-detail apps/rota-web/src/app/roster-grid && git commit -qm 'shift-ui: wardTime pipe (WARD_TIME_ZONE, Europe/London); roster-grid: local week label' && git add apps/rota-web/src/app/swap apps/rota-web/src/app/testing/shift-service.mock.ts && git commit -qm 'rota-web: swap request form (standalone, signals)' && git log --oneline -3 && git status --short", """9e4d1b7 rota-web: swap request form (standalone, signals)
c05a3f2 shift-ui: wardTime pipe (WARD_TIME_ZONE, Europe/London); roster-grid: local week label
a3c9e11 rota-web: roster grid week label
""", description="Two commits")
c.assistant(
    "Committed on feat/shift-swap, not pushed:\n- `c05a3f2` shift-ui: wardTime pipe (WARD_TIME_ZONE, Europe/London); roster-grid: local week label\n- `9e4d1b7` rota-web: swap request form (standalone, signals)\n\n"
    "Working tree clean. On the backlog from today: migrate my-week and ward-board off the deprecated `getShifts()` (ward-board is the bigger one)."
)

c.save(HERE / "session.jsonl")
