# ruff: noqa: E501
"""Starting contents and the sub-agent report for claude-laravel-member-export (written for the heldout3 split)."""

CONTROLLER = '''<?php

namespace App\\Http\\Controllers\\Admin;

use App\\Http\\Controllers\\Controller;
use App\\Models\\Member;
use Illuminate\\Http\\Request;
use Symfony\\Component\\HttpFoundation\\StreamedResponse;

class MemberExportController extends Controller
{
    public function __invoke(Request $request): StreamedResponse
    {
        $members = Member::query()
            ->when($request->query('plan'), fn ($q, $plan) => $q->where('plan', $plan))
            ->when($request->query('status'), fn ($q, $status) => $q->where('status', $status))
            ->with('address')
            ->get();

        return response()->streamDownload(function () use ($members) {
            $out = fopen('php://output', 'w');
            fputcsv($out, ['id', 'name', 'email', 'plan', 'status', 'city', 'created_at']);
            foreach ($members as $m) {
                fputcsv($out, [$m->id, $m->name, $m->email, $m->plan, $m->status, $m->address?->city, $m->created_at]);
            }
            fclose($out);
        }, 'members.csv');
    }
}
'''

EXPORT_TEST = '''<?php

namespace Tests\\Feature\\Admin;

use App\\Models\\Member;
use App\\Models\\User;
use Illuminate\\Foundation\\Testing\\RefreshDatabase;
use Tests\\TestCase;

class MemberExportTest extends TestCase
{
    use RefreshDatabase;

    public function test_admin_downloads_members_csv(): void
    {
        Member::factory()->count(3)->create();
        $admin = User::factory()->admin()->create();

        $this->actingAs($admin)->get(route('admin.members.export'))
            ->assertOk()
            ->assertDownload('members.csv');
    }

    public function test_non_admin_is_forbidden(): void
    {
        $this->actingAs(User::factory()->create())->get(route('admin.members.export'))->assertForbidden();
    }
}
'''

SUBAGENT_REPORT = '''Survey for moving the member CSV export to a queue (read-only, nothing changed):

1. Route: routes/admin.php:27 `Route::get('/members/export', MemberExportController::class)->name('admin.members.export')`, inside the `can:admin` group. Only the Members index view links to it (resources/views/admin/members/index.blade.php:12).
2. The controller loads every matching member with `->get()` plus the `address` relation, then streams. Staging has 48,213 members; the export is the only admin page without pagination.
3. storage/logs/laravel-2025-11-25.log on staging (copied in storage/logs/staging/) shows the export dying twice yesterday:
   - 09:12:40 `Allowed memory size of 134217728 bytes exhausted (tried to allocate 20480 bytes)` in vendor/laravel/framework/src/Illuminate/Database/Eloquent/Model.php:2243
   - 11:47:03 same error; nginx logged 504 for both after 30 s (fastcgi_read_timeout 30 in deploy/nginx/cellar.conf:41)
4. Queue: config/queue.php default `env('QUEUE_CONNECTION', 'database')`; .env.production.example sets QUEUE_CONNECTION=database. A `jobs` table migration exists (2024_02_01_000000_create_jobs_table.php). No Horizon. deploy/supervisor/worker.conf runs `php artisan queue:work --queue=default --tries=3 --max-time=3600`.
   - Only the `default` queue is worked in production. A job on any other queue would never run.
5. Storage: config/filesystems.php has an `exports` disk (driver s3, bucket env EXPORTS_BUCKET, visibility private). `Storage::disk('exports')->temporaryUrl()` is not used anywhere yet. Local/testing use `Storage::fake`.
6. Mail: app/Mail has 4 Mailables, all Markdown (`resources/views/mail/*`), all implement ShouldQueue. `MAIL_MAILER=ses` in production.
7. Composer: no CSV library installed (no league/csv, no spatie/simple-excel). composer.json `"php": "^8.3"`, laravel/framework ^11.31.
8. Tests: phpunit.xml sets DB_CONNECTION=sqlite, DB_DATABASE=:memory:, QUEUE_CONNECTION=sync, MAIL_MAILER=array. 221 tests currently.
   - tests/Feature/Admin/MemberExportTest.php has 2 tests (download, forbidden for non-admin).
9. Static analysis: phpstan.neon with larastan, level 6, paths app/ only. composer script `composer analyse`.
10. Style: pint.json with the laravel preset; CI runs `./vendor/bin/pint --test`.
11. Member model: `created_at` is cast to `immutable_datetime`; the app timezone is `Europe/Madrid` (config/app.php:68), so casting a date to string gives Madrid time, not UTC.
12. GDPR: members has an `anonymised_at` column (2025_06_10 migration); the admin index hides those rows with a `whereNull('anonymised_at')` scope `Member::scopeActive`, but the export does not apply it.
13. Ops bookmarks: docs/ops/runbook.md:88 tells ops to open /admin/members/export?status=lapsed every Monday.

Unrelated: app/Console/Kernel.php still exists although Laravel 11 schedules in routes/console.php; both define schedules (Kernel.php: `reports:weekly`, routes/console.php: `telescope:prune`).
'''
