# ruff: noqa: E501, RUF005  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for the heldout3 split.

A very polite, verbose user who writes numbered lists has Claude Code move a Laravel 11 admin
member CSV export (memory exhausted, 504) onto the queue: an Explore sub-agent survey (Task), a job
that writes to S3 and mails a temporary link, UTC dates, GDPR exclusion, a prune command. php artisan
test (PHPUnit) + larastan + pint; failures with the salient line in the middle of the output.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/Users/ines/code/cellar-club"
s = ClaudeSession(CWD, "2025-11-26T08:14:30", seed="cellar-member-export", branch="main")
CTRL = "app/Http/Controllers/Admin/MemberExportController.php"
TEST = "tests/Feature/Admin/MemberExportTest.php"
JOB = "app/Jobs/ExportMembersCsv.php"
MAIL = "app/Mail/MemberExportReady.php"
s.files.update({CTRL: F.CONTROLLER, TEST: F.EXPORT_TEST})


def tool(name: str, args: dict, output: str, text: str | None = None, result: object = None) -> None:
    (cid,) = s.assistant(text, calls=[(name, args)])
    s.result(cid, output, result if result is not None else {"stdout": output})


def artisan_test(lines: list[str], tail: str) -> str:
    return "\n" + "\n".join(lines) + "\n\n" + tail


PASS_HEAD = [
    "   PASS  Tests\\Unit\\MoneyTest",
    "  ✓ formats cents as euros                                                 0.01s  ",
    "  ✓ rounds half up                                                         0.01s  ",
    "",
    "   PASS  Tests\\Feature\\Admin\\MemberIndexTest",
    "  ✓ admin sees members                                                     0.21s  ",
    "  ✓ anonymised members are hidden                                          0.05s  ",
    "",
]

# ============================================================================================ turn 1
s.user(
    "Good morning, and thank you in advance for your help with this.\n\n"
    "We have a problem with the member export in the admin area of cellar-club (Laravel 11). When our office staff click "
    "\"Export members\", the page loads for a long time and then shows a 504; on staging it never finishes. I would like to ask you for the following, if possible:\n\n"
    "1. Please move the export to a queued job that, when finished, sends the admin who requested it an e-mail with a download link.\n"
    "2. Please keep the route name `admin.members.export` exactly as it is, because the operations team has it bookmarked and our runbook refers to it.\n"
    "3. Please do not add or upgrade any Composer packages without asking me first (our composer.lock is audited by a colleague every quarter).\n"
    "4. The tests must keep passing with `php artisan test` on SQLite in memory, because that is what our CI uses.\n"
    "5. Before you change anything, could you please give me a short overview of what you found?\n\n"
    "Many thanks, Inés",
    pause=0,
)
s.read(CTRL, text="Good morning Inés. I'll start with the controller and let a sub-agent survey the surroundings in parallel.")
(tid,) = s.assistant(
    "While I read the tests, a sub-agent will survey the route, queue, storage, mail, tests and the staging logs.",
    calls=[("Task", {"description": "Survey member export surroundings", "prompt": "In /Users/ines/code/cellar-club (Laravel 11), survey what moving the admin member CSV export (app/Http/Controllers/Admin/MemberExportController.php) to a queued job would touch: the route and who links to it, why it fails on staging (logs under storage/logs/staging), queue connection and workers in production (config, deploy/), storage disks usable for exports, how Mailables are written, installed CSV libraries, the test setup (phpunit.xml, current test count), static analysis and code style tooling, how Member dates and anonymised members are handled. Numbered findings with file paths; change nothing.", "subagent_type": "Explore"})],
)
AG = "c41e9a07"
s.user("In /Users/ines/code/cellar-club (Laravel 11), survey what moving the admin member CSV export to a queued job would touch ... Numbered findings with file paths; change nothing.", agent=AG)
s.bash("grep -rn \"members.export\" routes resources docs", "routes/admin.php:27:    Route::get('/members/export', MemberExportController::class)->name('admin.members.export');\nresources/views/admin/members/index.blade.php:12:    <a href=\"{{ route('admin.members.export', request()->only('plan', 'status')) }}\" class=\"btn\">Export members</a>\ndocs/ops/runbook.md:88:Every Monday open /admin/members/export?status=lapsed and send the file to the wine buyer.\n", agent=AG)
s.bash("grep -n 'exhausted\\|504' storage/logs/staging/laravel-2025-11-25.log | head", "1412:[2025-11-25 09:12:40] staging.ERROR: Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) {\"exception\":\"[object] (Symfony\\\\Component\\\\ErrorHandler\\\\Error\\\\FatalError(code: 0): Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) at /var/www/cellar/vendor/laravel/framework/src/Illuminate/Database/Eloquent/Model.php:2243)\"}\n2390:[2025-11-25 11:47:03] staging.ERROR: Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) {\"exception\":\"[object] (Symfony\\\\Component\\\\ErrorHandler\\\\Error\\\\FatalError(code: 0): Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes) at /var/www/cellar/vendor/laravel/framework/src/Illuminate/Database/Eloquent/Model.php:2243)\"}\n", agent=AG)
s.bash("cat deploy/supervisor/worker.conf", "[program:cellar-worker]\nprocess_name=%(program_name)s_%(process_num)02d\ncommand=php /var/www/cellar/artisan queue:work --queue=default --tries=3 --max-time=3600\nnumprocs=2\nautostart=true\nautorestart=true\nuser=www-data\n", agent=AG)
s.bash("grep -c . tests -r --include=*Test.php >/dev/null; php artisan test --list-tests | grep -c '^ - '", "221\n", agent=AG)
s.assistant(F.SUBAGENT_REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": F.SUBAGENT_REPORT}], {"status": "completed", "prompt": "In /Users/ines/code/cellar-club (Laravel 11), survey what moving the admin member CSV export ...", "agentId": AG, "content": [{"type": "text", "text": F.SUBAGENT_REPORT}], "totalDurationMs": 74410, "totalTokens": 31877, "totalToolUseCount": 26})
s.read(TEST)
tool("Grep", {"pattern": "function scopeActive", "path": "app/Models/Member.php", "output_mode": "content", "-n": True, "-A": 3},
     "app/Models/Member.php:58:    public function scopeActive(Builder $query): void\napp/Models/Member.php-59-    {\napp/Models/Member.php-60-        $query->whereNull('anonymised_at');\napp/Models/Member.php-61-    }",
     result={"mode": "content", "numFiles": 1, "filenames": [], "content": "app/Models/Member.php:58:    public function scopeActive(Builder $query): void", "numLines": 4})
s.bash("grep -n \"'exports'\" -A6 config/filesystems.php", "52:        'exports' => [\n53-            'driver' => 's3',\n54-            'key' => env('AWS_ACCESS_KEY_ID'),\n55-            'secret' => env('AWS_SECRET_ACCESS_KEY'),\n56-            'region' => env('AWS_DEFAULT_REGION'),\n57-            'bucket' => env('EXPORTS_BUCKET'),\n58-            'visibility' => 'private',\n", description="Look at the exports disk")
s.assistant(
    "Here is the overview you asked for, before any change:\n\n"
    "**Why it fails.** The controller loads every matching member into memory with `->get()` (plus addresses) and only then streams. Staging has **48,213** members; "
    "the PHP worker hits the 128 MB memory limit (`Allowed memory size of 134217728 bytes exhausted`, twice on 25 November) and nginx gives up after 30 s, hence the 504.\n\n"
    "**What is already there for a queued version:**\n"
    "- Production queue connection is `database`, and supervisor only works the `default` queue (`queue:work --queue=default --tries=3`), so the job must go on `default`, otherwise it would never run.\n"
    "- An `exports` disk exists (S3, private bucket from `EXPORTS_BUCKET`), so the file can go there and the e-mail can carry a temporary signed URL.\n"
    "- Mailables are Markdown and queued; I would follow that pattern.\n"
    "- Tests run with `QUEUE_CONNECTION=sync` and SQLite in memory; 221 tests today. larastan level 6 (`composer analyse`) and pint also run in CI.\n\n"
    "**Two things I noticed that you may want decided:**\n"
    "1. Dates: the app timezone is `Europe/Madrid`, so `created_at` in the CSV is Madrid time without an offset.\n"
    "2. GDPR: the export does not exclude anonymised members (the admin index uses `Member::active()`, the export does not).\n\n"
    "**Proposal:** the route `admin.members.export` stays (same name and URL, still GET, so the runbook bookmark `/admin/members/export?status=lapsed` keeps working) but dispatches "
    "`ExportMembersCsv` and redirects back with a flash message. The job reads members in chunks with `lazyById(1000)`, writes the CSV with PHP's own `fputcsv` to a temporary stream, "
    "stores it on the `exports` disk and mails a link valid for 7 days.\n\n"
    "There is no CSV library installed. `league/csv` would be nice for escaping, but per your point 3 I am asking first: may I add it, or should I stay with `fputcsv`?"
)

# ============================================================================================ turn 2
s.user(
    "Thank you very much for this clear overview, it is very helpful. My answers, in the same order as your questions:\n\n"
    "1. No new package, please: `fputcsv` is perfectly fine for us.\n"
    "2. Regarding the link: 7 days is too long for personal data. Please make it valid for 24 hours only.\n"
    "3. The dates and the anonymised members: yes, both are real problems, but let us do them in a second step, after the queue works. Please note them.\n"
    "4. The e-mail should go only to the admin who clicked the button, never to a shared address.\n\n"
    "Kind regards, Inés"
)
tool("TodoWrite", {"todos": [
    {"content": "ExportMembersCsv job (lazyById, fputcsv, exports disk)", "status": "in_progress", "activeForm": "Writing the ExportMembersCsv job"},
    {"content": "MemberExportReady mail with 24 h temporaryUrl to the requesting admin", "status": "pending", "activeForm": "Writing the mail"},
    {"content": "Controller dispatches and redirects, route name unchanged", "status": "pending", "activeForm": "Changing the controller"},
    {"content": "Tests, larastan, pint", "status": "pending", "activeForm": "Running checks"},
    {"content": "Second step: UTC dates + exclude anonymised members", "status": "pending", "activeForm": "Planning second step"},
]}, "Todos have been modified successfully. Ensure that you continue to use the todo list to track your progress. Please proceed with the current tasks if applicable")
JOB_V1 = '''<?php

namespace App\\Jobs;

use App\\Mail\\MemberExportReady;
use App\\Models\\Member;
use App\\Models\\User;
use Illuminate\\Bus\\Queueable;
use Illuminate\\Contracts\\Queue\\ShouldQueue;
use Illuminate\\Database\\Eloquent\\Builder;
use Illuminate\\Foundation\\Bus\\Dispatchable;
use Illuminate\\Queue\\InteractsWithQueue;
use Illuminate\\Queue\\SerializesModels;
use Illuminate\\Support\\Facades\\Mail;
use Illuminate\\Support\\Facades\\Storage;

/** Writes the member CSV to the private exports disk and mails the requesting admin a link. */
class ExportMembersCsv implements ShouldQueue
{
    use Dispatchable, InteractsWithQueue, Queueable, SerializesModels;

    public int $timeout = 900;

    public function __construct(public User $requestedBy, public Builder $query)
    {
        // Production workers only listen on "default" (deploy/supervisor/worker.conf).
        $this->onQueue('default');
    }

    public function handle(): void
    {
        $tmp = fopen('php://temp', 'w+');
        fputcsv($tmp, ['id', 'name', 'email', 'plan', 'status', 'city', 'created_at']);
        foreach ($this->query->with('address')->lazyById(1000) as $m) {
            fputcsv($tmp, [$m->id, $m->name, $m->email, $m->plan, $m->status, $m->address?->city, $m->created_at]);
        }
        rewind($tmp);

        $path = sprintf('members/members-%s.csv', now()->format('Ymd-His'));
        Storage::disk('exports')->put($path, $tmp);
        fclose($tmp);

        Mail::to($this->requestedBy)->send(new MemberExportReady($path));
    }
}
'''
s.write(JOB, JOB_V1)
MAIL_V1 = '''<?php

namespace App\\Mail;

use Illuminate\\Bus\\Queueable;
use Illuminate\\Contracts\\Queue\\ShouldQueue;
use Illuminate\\Mail\\Mailable;
use Illuminate\\Mail\\Mailables\\Content;
use Illuminate\\Mail\\Mailables\\Envelope;
use Illuminate\\Queue\\SerializesModels;
use Illuminate\\Support\\Facades\\Storage;

class MemberExportReady extends Mailable implements ShouldQueue
{
    use Queueable, SerializesModels;

    public function __construct(public string $path)
    {
    }

    public function envelope(): Envelope
    {
        return new Envelope(subject: 'Your member export is ready');
    }

    public function content(): Content
    {
        // Personal data: the link expires after 24 hours (Inés, 2025-11-26).
        $url = Storage::disk('exports')->temporaryUrl($this->path, now()->addHours(24));

        return new Content(markdown: 'mail.member-export-ready', with: ['url' => $url]);
    }
}
'''
s.write(MAIL, MAIL_V1)
s.write("resources/views/mail/member-export-ready.blade.php", "<x-mail::message>\n# Your member export is ready\n\nThe file is available for 24 hours.\n\n<x-mail::button :url=\"$url\">\nDownload members.csv\n</x-mail::button>\n\nCellar Club\n</x-mail::message>\n")
s.write(CTRL, '''<?php

namespace App\\Http\\Controllers\\Admin;

use App\\Http\\Controllers\\Controller;
use App\\Jobs\\ExportMembersCsv;
use App\\Models\\Member;
use Illuminate\\Http\\RedirectResponse;
use Illuminate\\Http\\Request;

class MemberExportController extends Controller
{
    // Route name admin.members.export and its GET URL stay: ops bookmark it (docs/ops/runbook.md).
    public function __invoke(Request $request): RedirectResponse
    {
        $query = Member::query()
            ->when($request->query('plan'), fn ($q, $plan) => $q->where('plan', $plan))
            ->when($request->query('status'), fn ($q, $status) => $q->where('status', $status));

        ExportMembersCsv::dispatch($request->user(), $query);

        return back()->with('status', 'The export is running. You will receive an e-mail with a download link.');
    }
}
''')
s.write(TEST, '''<?php

namespace Tests\\Feature\\Admin;

use App\\Jobs\\ExportMembersCsv;
use App\\Mail\\MemberExportReady;
use App\\Models\\Member;
use App\\Models\\User;
use Illuminate\\Foundation\\Testing\\RefreshDatabase;
use Illuminate\\Support\\Facades\\Mail;
use Illuminate\\Support\\Facades\\Queue;
use Illuminate\\Support\\Facades\\Storage;
use Tests\\TestCase;

class MemberExportTest extends TestCase
{
    use RefreshDatabase;

    public function test_export_is_queued_and_redirects_with_a_message(): void
    {
        Queue::fake();
        $admin = User::factory()->admin()->create();

        $this->actingAs($admin)->from('/admin/members')->get(route('admin.members.export', ['status' => 'lapsed']))
            ->assertRedirect('/admin/members')
            ->assertSessionHas('status');

        Queue::assertPushedOn('default', ExportMembersCsv::class);
    }

    public function test_job_writes_csv_and_mails_only_the_requesting_admin(): void
    {
        Storage::fake('exports');
        Mail::fake();
        Member::factory()->count(3)->create(['status' => 'lapsed']);
        Member::factory()->create(['status' => 'active']);
        $admin = User::factory()->admin()->create();

        $this->actingAs($admin)->get(route('admin.members.export', ['status' => 'lapsed']));

        $files = Storage::disk('exports')->files('members');
        $this->assertCount(1, $files);
        $this->assertCount(4, explode("\\n", trim(Storage::disk('exports')->get($files[0]))));
        Mail::assertQueued(MemberExportReady::class, fn ($mail) => $mail->hasTo($admin->email) && count($mail->to) === 1);
    }

    public function test_non_admin_is_forbidden(): void
    {
        $this->actingAs(User::factory()->create())->get(route('admin.members.export'))->assertForbidden();
    }
}
''', text="Tests: the request only queues; with the sync queue from phpunit.xml the job runs inline, so the second test checks the file and the mail.")
s.bash(
    "php artisan test",
    artisan_test(PASS_HEAD + [
        "   FAIL  Tests\\Feature\\Admin\\MemberExportTest",
        "  ✓ export is queued and redirects with a message                          0.09s  ",
        "  ⨯ job writes csv and mails only the requesting admin                     0.07s  ",
        "  ✓ non admin is forbidden                                                 0.02s  ",
        "",
        "   PASS  Tests\\Feature\\Billing\\RenewalTest",
        "  ✓ renews monthly plans                                                   0.11s  ",
        "  ✓ skips paused members                                                   0.04s  ",
        "  ────────────────────────────────────────────────────────────────────────────────────────  ",
        "   FAILED  Tests\\Feature\\Admin\\MemberExportTest > job writes csv and mails only the re…  Exception   ",
        "  Serialization of 'Closure' is not allowed",
        "",
        "  at vendor/laravel/framework/src/Illuminate/Queue/Queue.php:160",
        "    156▕      */",
        "    157▕     protected function createObjectPayload($job, $queue)",
        "    158▕     {",
        "    159▕         $payload = $this->withCreatePayloadHooks($queue, [",
        "  ➜ 160▕             'uuid' => (string) Str::uuid(),",
        "    161▕             'displayName' => $this->getDisplayName($job),",
        "",
        "  1   vendor/laravel/framework/src/Illuminate/Queue/Queue.php:160",
        "  2   vendor/laravel/framework/src/Illuminate/Queue/Queue.php:139",
        "  3   app/Http/Controllers/Admin/MemberExportController.php:20",
    ], "  Tests:    1 failed, 222 passed (631 assertions)\n  Duration: 5.12s\n"),
    code=2,
    description="Run the test suite",
)
s.multi_edit(JOB, [
    ("use Illuminate\\Database\\Eloquent\\Builder;\n", ""),
    ("    public function __construct(public User $requestedBy, public Builder $query)\n",
     "    /** @param array{plan?: string, status?: string} $filters */\n    public function __construct(public User $requestedBy, public array $filters)\n"),
    ("        foreach ($this->query->with('address')->lazyById(1000) as $m) {\n",
     "        $query = Member::query()\n            ->when($this->filters['plan'] ?? null, fn ($q, $plan) => $q->where('plan', $plan))\n"
     "            ->when($this->filters['status'] ?? null, fn ($q, $status) => $q->where('status', $status))\n            ->with('address');\n\n"
     "        foreach ($query->lazyById(1000) as $m) {\n"),
], text="The job carried an Eloquent `Builder`, and the `when()` closures inside it cannot be serialised onto the queue (even the sync queue builds the payload). The job now takes plain filters and builds the query itself:")
s.edit(CTRL, '''        $query = Member::query()
            ->when($request->query('plan'), fn ($q, $plan) => $q->where('plan', $plan))
            ->when($request->query('status'), fn ($q, $status) => $q->where('status', $status));

        ExportMembersCsv::dispatch($request->user(), $query);
''', '''        ExportMembersCsv::dispatch($request->user(), $request->only('plan', 'status'));
''')
s.edit(CTRL, "use App\\Models\\Member;\n", "")
s.bash("php artisan test", artisan_test(PASS_HEAD + [
    "   PASS  Tests\\Feature\\Admin\\MemberExportTest",
    "  ✓ export is queued and redirects with a message                          0.08s  ",
    "  ✓ job writes csv and mails only the requesting admin                     0.10s  ",
    "  ✓ non admin is forbidden                                                 0.02s  ",
], "  Tests:    223 passed (640 assertions)\n  Duration: 5.03s\n"), description="Run the test suite")
s.bash(
    "composer analyse",
    "> vendor/bin/phpstan analyse --memory-limit=1G\nNote: Using configuration file /Users/ines/code/cellar-club/phpstan.neon.\n"
    " 212/212 [▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓] 100%\n\n"
    " ------ ---------------------------------------------------------------------------------------------------- \n"
    "  Line   Jobs/ExportMembersCsv.php                                                                            \n"
    " ------ ---------------------------------------------------------------------------------------------------- \n"
    "  38     Parameter #2 $contents of method Illuminate\\Filesystem\\FilesystemAdapter::put() expects                \n"
    "         Illuminate\\Http\\File|Illuminate\\Http\\UploadedFile|Psr\\Http\\Message\\StreamInterface|resource|string,   \n"
    "         resource|false given.                                                                                \n"
    "         🪪  argument.type                                                                                     \n"
    " ------ ---------------------------------------------------------------------------------------------------- \n\n"
    " [ERROR] Found 1 error                                                                                       \n\n"
    "Script vendor/bin/phpstan analyse --memory-limit=1G handling the analyse event returned with error code 1\n",
    code=1,
    description="larastan",
)
s.edit(JOB, "        $tmp = fopen('php://temp', 'w+');\n",
       "        $tmp = fopen('php://temp', 'w+');\n        if ($tmp === false) {\n            throw new \\RuntimeException('cannot open a temporary stream for the member export');\n        }\n",
       text="`fopen` can return false; larastan wants that handled:")
s.bash("composer analyse && ./vendor/bin/pint --test", "> vendor/bin/phpstan analyse --memory-limit=1G\nNote: Using configuration file /Users/ines/code/cellar-club/phpstan.neon.\n 212/212 [▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓▓] 100%\n\n [OK] No errors                                                                                               \n\n\n  ..........................................................................................................\n\n  ────────────────────────────────────────────────────────────────────────────────────────── Laravel  \n    PASS   ....................................................................................... 214 files  \n", description="larastan and pint")
s.bash(
    "php -d memory_limit=128M artisan tinker --execute \"\\$t=microtime(true); App\\\\Jobs\\\\ExportMembersCsv::dispatchSync(App\\\\Models\\\\User::where('email','ines@cellar.club')->first(), []); echo round(microtime(true)-\\$t,1).'s peak '.round(memory_get_peak_usage()/1048576).'MB';\"",
    "41.7s peak 38MB",
    description="Time the job on a copy of the staging data",
)
s.assistant(
    "The queued export works. Summary of this first step:\n\n"
    "- `app/Jobs/ExportMembersCsv.php`: queue `default`, timeout 900 s, takes the requesting `User` and the `plan`/`status` filters (not a query builder: closures cannot be serialised), reads members with `lazyById(1000)`, writes with `fputcsv`, stores `members/members-<Ymd-His>.csv` on the private `exports` disk\n"
    "- `app/Mail/MemberExportReady.php` (+ Markdown view): queued mail to the requesting admin only, with a `temporaryUrl` valid for 24 hours\n"
    "- The controller keeps the route name and URL, dispatches and redirects back with a flash message\n"
    "- No new Composer package; 223 tests pass, larastan and pint are clean\n\n"
    "On the staging copy with 128 MB memory the job finished all members in about 42 seconds with a peak of 38 MB, where the old page died.\n\n"
    "Still noted for the second step: UTC dates and excluding anonymised members."
)

# ============================================================================================ turn 3
s.user(
    "This is wonderful, thank you. Now the second step, if you would be so kind:\n\n"
    "1. Please write `created_at` in UTC, in ISO 8601 format (for example 2025-11-26T08:00:00Z). Our wine buyer imports the file into a tool that expects exactly this.\n"
    "2. Please exclude anonymised members from the export (GDPR), in the same way the admin index does.\n"
    "3. Could the files also be removed from the bucket after 24 hours? It makes little sense to keep them when the link no longer works.\n"
    "4. For later, not today: the orders export (`admin.orders.export`) has the same problem and should get the same treatment. Please just keep it in mind.\n\n"
    "With many thanks, Inés"
)
s.multi_edit(JOB, [
    ("        $query = Member::query()\n", "        // Anonymised members never leave the system (GDPR), same scope as the admin index.\n        $query = Member::query()->active()\n"),
    ("            fputcsv($tmp, [$m->id, $m->name, $m->email, $m->plan, $m->status, $m->address?->city, $m->created_at]);\n",
     "            // The buyer's import tool expects UTC ISO 8601; the app timezone is Europe/Madrid.\n"
     "            fputcsv($tmp, [$m->id, $m->name, $m->email, $m->plan, $m->status, $m->address?->city, $m->created_at->utc()->toIso8601String()]);\n"),
])
s.edit(TEST, '''    public function test_non_admin_is_forbidden(): void''', '''    public function test_dates_are_utc_and_anonymised_members_are_left_out(): void
    {
        Storage::fake('exports');
        Mail::fake();
        $this->travelTo(now('Europe/Madrid')->setDate(2025, 7, 1)->setTime(10, 30));
        Member::factory()->create(['name' => 'Ana Vidal', 'status' => 'lapsed']);
        Member::factory()->create(['name' => 'Gone Person', 'status' => 'lapsed', 'anonymised_at' => now()]);

        ExportMembersCsv::dispatchSync(User::factory()->admin()->create(), ['status' => 'lapsed']);

        $csv = Storage::disk('exports')->get(Storage::disk('exports')->files('members')[0]);
        $this->assertStringContainsString('2025-07-01T08:30:00Z', $csv);
        $this->assertStringNotContainsString('Gone Person', $csv);
    }

    public function test_non_admin_is_forbidden(): void''')
s.bash(
    "php artisan test --filter=MemberExportTest",
    "\n   FAIL  Tests\\Feature\\Admin\\MemberExportTest\n"
    "  ✓ export is queued and redirects with a message                          0.08s  \n"
    "  ✓ job writes csv and mails only the requesting admin                     0.10s  \n"
    "  ⨯ dates are utc and anonymised members are left out                      0.06s  \n"
    "  ✓ non admin is forbidden                                                 0.02s  \n"
    "  ────────────────────────────────────────────────────────────────────────────────────────  \n"
    "   FAILED  Tests\\Feature\\Admin\\MemberExportTest > dates are utc and anonymised members are…   \n"
    "  Failed asserting that '\"id\",\"name\",\"email\",\"plan\",\"status\",\"city\",\"created_at\"\\n"
    "  1,\"Ana Vidal\",ana.vidal@example.net,classic,lapsed,Girona,2025-07-01T08:30:00+00:00\\n"
    "  ' contains \"2025-07-01T08:30:00Z\".\n\n"
    "  at tests/Feature/Admin/MemberExportTest.php:58\n"
    "     54▕         ExportMembersCsv::dispatchSync(User::factory()->admin()->create(), ['status' => 'lapsed']);\n"
    "     55▕ \n     56▕         $csv = Storage::disk('exports')->get(Storage::disk('exports')->files('members')[0]);\n"
    "  ➜  58▕         $this->assertStringContainsString('2025-07-01T08:30:00Z', $csv);\n\n"
    "  1   tests/Feature/Admin/MemberExportTest.php:58\n\n"
    "  Tests:    1 failed, 3 passed (11 assertions)\n  Duration: 0.61s\n",
    code=2,
    description="Run the export tests",
)
s.edit(JOB, "$m->created_at->utc()->toIso8601String()", "$m->created_at->utc()->toIso8601ZuluString()",
       text="The conversion itself is right (10:30 in Madrid is 08:30 UTC), but `toIso8601String()` writes the offset as `+00:00`; the buyer's tool wants the `Z` form, which Carbon gives with `toIso8601ZuluString()`:")
PRUNE = '''<?php

namespace App\\Console\\Commands;

use Illuminate\\Console\\Command;
use Illuminate\\Support\\Facades\\Storage;

/** Deletes member export files once their 24-hour link has expired. */
class PruneExports extends Command
{
    protected $signature = 'exports:prune {--hours=24}';

    protected $description = 'Delete export files older than the link lifetime from the exports disk';

    public function handle(): int
    {
        $disk = Storage::disk('exports');
        $cutoff = now()->subHours((int) $this->option('hours'))->getTimestamp();
        $deleted = 0;
        foreach ($disk->files('members') as $path) {
            if ($disk->lastModified($path) < $cutoff) {
                $disk->delete($path);
                $deleted++;
            }
        }
        $this->info("deleted {$deleted} export file(s)");

        return self::SUCCESS;
    }
}
'''
s.write("app/Console/Commands/PruneExports.php", PRUNE,
        text="For point 3: a bucket lifecycle rule would live in the infrastructure repository, which I cannot see, so I add an `exports:prune` command and schedule it hourly in `routes/console.php` (the Laravel 11 place; the old `app/Console/Kernel.php` still exists but I leave it alone).")
s.files["routes/console.php"] = "<?php\n\nuse Illuminate\\Support\\Facades\\Schedule;\n\nSchedule::command('telescope:prune')->daily();\n"
s.edit("routes/console.php", "Schedule::command('telescope:prune')->daily();\n", "Schedule::command('telescope:prune')->daily();\n\n// Export links live 24 h (MemberExportReady); the files should not outlive them.\nSchedule::command('exports:prune')->hourly();\n")
s.write("tests/Feature/Console/PruneExportsTest.php", '''<?php

namespace Tests\\Feature\\Console;

use Illuminate\\Support\\Facades\\Storage;
use Tests\\TestCase;

class PruneExportsTest extends TestCase
{
    public function test_deletes_only_files_older_than_24_hours(): void
    {
        Storage::fake('exports');
        Storage::disk('exports')->put('members/old.csv', 'x');
        $this->travel(25)->hours();
        Storage::disk('exports')->put('members/new.csv', 'y');

        $this->artisan('exports:prune')->expectsOutput('deleted 1 export file(s)')->assertSuccessful();

        $this->assertSame(['members/new.csv'], Storage::disk('exports')->files('members'));
    }
}
''')
s.bash("php artisan test && composer analyse && ./vendor/bin/pint --test", artisan_test(PASS_HEAD + [
    "   PASS  Tests\\Feature\\Admin\\MemberExportTest",
    "  ✓ export is queued and redirects with a message                          0.08s  ",
    "  ✓ job writes csv and mails only the requesting admin                     0.10s  ",
    "  ✓ dates are utc and anonymised members are left out                      0.07s  ",
    "  ✓ non admin is forbidden                                                 0.02s  ",
    "",
    "   PASS  Tests\\Feature\\Console\\PruneExportsTest",
    "  ✓ deletes only files older than 24 hours                                 0.04s  ",
], "  Tests:    225 passed (651 assertions)\n  Duration: 5.21s\n\n> vendor/bin/phpstan analyse --memory-limit=1G\n [OK] No errors\n\n    PASS   ....................................................................................... 216 files  \n"),
    description="Full checks")
s.bash("php artisan schedule:list", "  0 0 * * *  php artisan telescope:prune .......................... Next Due: 15 hours from now\n  0 * * * *  php artisan exports:prune ............................ Next Due: 22 minutes from now\n  0 6 * * 1  php artisan reports:weekly ........................... Next Due: 5 days from now\n", description="Check the schedule")
s.assistant(
    "Second step done:\n\n"
    "1. `created_at` is written in UTC as ISO 8601 (`2025-07-01T08:30:00Z`); the first attempt wrote `+00:00` instead of `Z`, now `toIso8601ZuluString()`.\n"
    "2. Anonymised members are excluded with the same `Member::active()` scope as the admin index.\n"
    "3. `php artisan exports:prune` (hours configurable, default 24) deletes files older than the link lifetime; scheduled hourly in `routes/console.php`. "
    "Please note the schedule only runs where `schedule:run` is in cron; `schedule:list` shows it next to `reports:weekly` from the old Kernel.\n"
    "4. Orders export: noted for later, nothing changed there.\n\n"
    "225 tests pass, larastan and pint are clean. Nothing is committed yet."
)

# ============================================================================================ turn 4
s.user(
    "Thank you so much. Just two small things to finish:\n\n"
    "1. Please commit this on a new branch `feature/queued-member-export`, but do not push; my colleague Jordi will review it tomorrow.\n"
    "2. Please add one line to the runbook so ops know the file now arrives by e-mail.\n\n"
    "Best regards, Inés"
)
s.bash("sed -n '84,92p' docs/ops/runbook.md", "## Weekly exports\n\nThe wine buyer needs the lapsed members every Monday.\n\nEvery Monday open /admin/members/export?status=lapsed and send the file to the wine buyer.\n\n## Backups\n\n", description="Read the runbook section")
s.files["docs/ops/runbook.md"] = "Every Monday open /admin/members/export?status=lapsed and send the file to the wine buyer.\n"
s.edit("docs/ops/runbook.md", "Every Monday open /admin/members/export?status=lapsed and send the file to the wine buyer.\n",
       "Every Monday open /admin/members/export?status=lapsed and send the file to the wine buyer.\n"
       "The export now runs in the background: you get an e-mail with a download link that is valid for 24 hours.\n")
s.bash("git switch -c feature/queued-member-export && git add -A && git commit -qm 'Queue the admin member export, mail a 24 h link, UTC dates, skip anonymised members' && git log --oneline -1 && git status -sb | head -1",
       "Switched to a new branch 'feature/queued-member-export'\nb83d0f5 Queue the admin member export, mail a 24 h link, UTC dates, skip anonymised members\n## feature/queued-member-export\n",
       description="Commit on a new branch")
s.assistant(
    "Committed as `b83d0f5` on `feature/queued-member-export`, not pushed, ready for Jordi's review. The runbook now says the file arrives by e-mail with a link valid for 24 hours.\n\n"
    "Still open for a later session: the orders export (`admin.orders.export`) with the same treatment."
)

s.save(HERE / "session.jsonl")
