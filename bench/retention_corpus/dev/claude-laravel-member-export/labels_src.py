# ruff: noqa: E501
"""Labels for claude-laravel-member-export, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "cellar-club (Laravel 11): queued admin member CSV export, 24 h S3 link, UTC dates, GDPR exclusion, prune command",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3 test split",
    "voice": "very polite and verbose, greetings and sign-off, every request a numbered list; answers the agent's questions point by point",
    "toolchain": "PHP 8.3 / Laravel 11, php artisan test (PHPUnit), larastan (composer analyse), pint, S3 disk, database queue (Explore sub-agent via Task)",
}
COMPACTIONS = [
    ("The queued export works. Summary of this first step", 1500),
    ("Second step done:", 600),
]
FACTS = [
    f("l01", "request", "must", "1. Please move the export to a queued job", "Move the admin member export to a queued job that e-mails the requesting admin a download link (the page 504s, never finishes on staging).", [r"queue|job|background", r"mail|link|download", r"export"], "done"),
    f("l02", "constraint", "must", "2. Please keep the route name `admin.members.export`", "Keep the route name admin.members.export as it is: ops have it bookmarked and the runbook refers to it.", [r"admin\.members\.export|route name", r"keep|stay|unchanged|same|bookmark|runbook"]),
    f("l03", "constraint", "must", "3. Please do not add or upgrade any Composer packages", "Do not add or upgrade Composer packages without asking first (composer.lock is audited quarterly).", [r"composer|package", r"ask|no new|not add|without|upgrade|audit"]),
    f("l04", "constraint", "must", "4. The tests must keep passing with `php artisan test`", "Tests must keep passing with php artisan test on SQLite in memory (what CI uses).", [r"sqlite|in[- ]memory|php artisan test", r"test|\bCI\b"]),
    f("l05", "value", "should", "Staging has 48,213 members; the export is the only admin page", "Staging has 48,213 members.", [r"48,?213", r"member"]),
    f("l06", "finding", "must", "**Why it fails.**", "Why it failed: the controller loaded all matching members with ->get() before streaming; PHP hit the 128 MB memory limit and nginx gave up after 30 s (504).", [r"memory|128 ?MB|134217728|exhaust", r"get\(\)|all (matching )?members|every (matching )?member|504|nginx"]),
    f("l07", "finding", "must", "Only the `default` queue is worked in production", "Production workers (supervisor, queue:work --queue=default, database connection) only work the default queue: a job on another queue would never run.", [r"default", r"queue", r"only|never|worker|supervisor|production|prod"]),
    f("l08", "finding", "should", "5. Storage: config/filesystems.php has an `exports` disk", "An exports disk exists: S3, private bucket from EXPORTS_BUCKET; the mail links to a temporaryUrl.", [r"exports", r"disk|s3|bucket"]),
    f("l09", "value", "nice", "221 tests currently", "221 tests before the change.", [r"\b221\b"]),
    f("l10", "command", "should", "9. Static analysis: phpstan.neon with larastan", "CI also runs larastan level 6 (composer analyse) and pint (./vendor/bin/pint --test).", [r"larastan|phpstan|composer analyse", r"level 6|analyse|pint"]),
    f("l11", "finding", "should", "11. Member model: `created_at` is cast", "The app timezone is Europe/Madrid, so created_at in the CSV was Madrid time without offset.", [r"Madrid", r"timezone|time ?zone|UTC|created_at"]),
    f("l12", "finding", "should", "12. GDPR: members has an `anonymised_at` column", "The export did not exclude anonymised members (anonymised_at); the admin index uses the Member::active() scope.", [r"anonymi[sz]", r"export|exclud|active|scope|GDPR"]),
    f("l13", "finding", "nice", "13. Ops bookmarks: docs/ops/runbook.md:88", "The runbook (docs/ops/runbook.md:88) has ops open /admin/members/export?status=lapsed every Monday.", [r"runbook|status=lapsed", r"monday|bookmark|lapsed|ops"]),
    f("l14", "finding", "nice", "Unrelated: app/Console/Kernel.php still exists", "app/Console/Kernel.php still exists next to routes/console.php; both define schedules (left alone).", [r"Kernel\.php", r"console\.php|schedul"]),
    f("l15", "decision", "must", "1. No new package, please: `fputcsv` is perfectly fine", "No new package (no league/csv): write the CSV with PHP's fputcsv.", [r"fputcsv|league/csv|no new package|no (csv )?librar"]),
    f("l16", "decision", "must", "Please make it valid for 24 hours only", "The download link is valid for 24 hours, not the 7 days first proposed (personal data).", [r"24 ?h|24 hours|24-hour|addHours\(24\)", r"link|url|valid|expir"]),
    f("l17", "constraint", "must", "4. The e-mail should go only to the admin who clicked", "The e-mail goes only to the admin who clicked the button, never to a shared address.", [r"requesting admin|admin who (clicked|requested|asked)|shared (address|mailbox)|requester"]),
    f("l18", "error", "should", "  Serialization of 'Closure' is not allowed", "php artisan test: 'Serialization of Closure is not allowed' — the job carried an Eloquent Builder with when() closures.", [r"seriali[sz]", r"closure"], "fixed"),
    f("l19", "fix", "should", "The job carried an Eloquent `Builder`", "Fix: the job takes the plan/status filters as a plain array instead of an Eloquent Builder and builds the query itself.", [r"filter|plan/status|plain (array|filters)", r"builder|closure|seriali[sz]"]),
    f("l20", "error", "nice", "resource|false given.", "larastan: Storage put() got resource|false from fopen; now throws if fopen fails.", [r"resource\|false|fopen|argument\.type"], "fixed"),
    f("l21", "value", "should", "41.7s peak 38MB", "On the staging copy with 128 MB, the job exported all members in 41.7 s with a 38 MB peak.", [r"41\.7|42 ?s|42 seconds|38 ?MB"]),
    f("l22", "state", "must", "- `app/Jobs/ExportMembersCsv.php`: queue `default`, timeout 900 s", "app/Jobs/ExportMembersCsv.php: queue default, timeout 900 s, lazyById(1000), fputcsv, stores members/members-<Ymd-His>.csv on the exports disk, mails MemberExportReady.", [r"ExportMembersCsv", r"lazyById|chunk|exports|default|900"]),
    f("l23", "path", "nice", "- `app/Mail/MemberExportReady.php` (+ Markdown view)", "Mail: app/Mail/MemberExportReady.php with resources/views/mail/member-export-ready.blade.php, queued, temporaryUrl for 24 h.", [r"MemberExportReady|member-export-ready"]),
    f("l24", "value", "nice", "  Tests:    223 passed (640 assertions)", "After step one: 223 tests pass.", [r"\b223\b"]),
    f("l25", "request", "should", "1. Please write `created_at` in UTC, in ISO 8601 format", "created_at in UTC ISO 8601 with Z (e.g. 2025-11-26T08:00:00Z): the buyer's import tool expects exactly that.", [r"UTC|ISO ?8601|Zulu", r"created_at"], "done"),
    f("l26", "request", "must", "2. Please exclude anonymised members from the export (GDPR)", "Exclude anonymised members from the export (GDPR), with the same Member::active() scope as the admin index.", [r"anonymi[sz]", r"exclud|skip|left out|active|leave out|without"], "done"),
    f("l27", "error", "should", "Girona,2025-07-01T08:30:00+00:00", "The UTC test failed: toIso8601String() wrote 2025-07-01T08:30:00+00:00 instead of ...Z.", [r"\+00:00|toIso8601|offset"], "fixed"),
    f("l28", "fix", "should", "Carbon gives with `toIso8601ZuluString()`", "Fix: created_at->utc()->toIso8601ZuluString().", [r"toIso8601ZuluString|Zulu"]),
    f("l29", "request", "should", "For point 3: a bucket lifecycle rule would live", "Delete export files after 24 h: php artisan exports:prune (--hours, default 24), scheduled hourly in routes/console.php (no bucket lifecycle rule: infra repo).", [r"exports:prune|prune", r"hour|24|schedul"], "done"),
    f("l30", "finding", "nice", "Please note the schedule only runs where `schedule:run` is in cron", "The prune schedule only runs where schedule:run is in cron.", [r"schedule:run|cron"]),
    f("l31", "request", "must", "4. For later, not today: the orders export", "Open, later: the orders export (admin.orders.export) has the same problem and needs the same treatment.", [r"orders? export|admin\.orders\.export", r"later|not (today|now)|open|same|follow"], "open"),
    f("l32", "value", "should", "Committed as `b83d0f5`", "Committed as b83d0f5 on feature/queued-member-export, not pushed; Jordi reviews it.", [r"b83d0f5|feature/queued-member-export"]),
    f("l33", "request", "nice", "2. Please add one line to the runbook", "Runbook line added: the export arrives by e-mail with a link valid 24 hours.", [r"runbook", r"e-?mail|line|background"], "done"),
    f("l34", "value", "nice", "225 tests pass, larastan and pint are clean", "After step two: 225 tests pass, larastan and pint clean.", [r"\b225\b"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
