# ruff: noqa: E501
"""Labels for claude-pwsh-backupjanitor, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "BackupJanitor (PowerShell module pruning SQL Server backups on \\\\nas02\\sqlbackup): GFS retention, dry-run by default with -Apply, event log 4100/4101, .trn rule reversed; squashed for review",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6a test split",
    "voice": "Russian-flavoured English DBA (\"is needed\", \"please make\"), drops articles, reverses his own .trn rule, stops the agent going in circles",
    "toolchain": "PowerShell: pwsh 7.4.1 locally, Windows PowerShell 5.1 on build-win01 over ssh, Pester 5.6.1/5.5.0, PSScriptAnalyzer 1.22.0 (PSUseCompatibleSyntax 5.1); Explore sub-agent (Task, 30-line report)",
}
COMPACTIONS = [
    ("14/14 on both pwsh 7.4.1 (local) and Windows PowerShell 5.1", 1000),
    ("17/17 on pwsh 7.4.1 and on Windows PowerShell 5.1 (build-win01)", 1300),
]
FACTS = [
    f("b01", "request", "must", "Is needed retention by GFS scheme", "Replace the flat 30-day deletion with GFS retention: daily = all backups of the last 14 days, weekly = the Sunday FULL for 8 weeks, monthly = the first FULL of each month for 12 months; everything else deleted.", [r"GFS|daily|weekly|monthly", r"14", r"\b8\b|12"], "done"),
    f("b02", "constraint", "must", "runs on Windows Server 2016 with Windows PowerShell 5.1 only", "Runs on Windows Server 2016 with Windows PowerShell 5.1 only; no pwsh 7 there and it cannot be installed, so everything must be 5.1-compatible.", [r"5\.1", r"Windows PowerShell|pwsh|compatib|Server 2016"]),
    f("b03", "constraint", "must", "Dry-run must be default, real deletion only with switch -Apply", "Dry-run is the default; files are deleted only with the -Apply switch (SupportsShouldProcess, -WhatIf/-Confirm work too).", [r"dry.?run|-Apply", r"default|only|-Apply|delet"]),
    f("b04", "value", "nice", "and the share is 91% full", "The backup share \\\\nas02\\sqlbackup is 91% full; the old code deleted all .bak older than 30 days.", [r"91 ?%"]),
    f("b05", "finding", "should", "10. deploy/janitor-task.xml: scheduled task 04:30 daily", "Deployment: scheduled task daily at 04:30 on nas02-mgmt as HOSP\\svc-sqljanitor, powershell.exe (5.1) importing C:\\Tools\\BackupJanitor and calling Invoke-BackupJanitor -Path \\\\nas02\\sqlbackup; install is a manual copy.", [r"04:30|svc-sqljanitor|janitor-task", r"task|schedul|svc|daily"]),
    f("b06", "value", "nice", "12. samples/nas02-listing-2026-04-13.txt: 6021 files", "Sample listing of the share: 6021 files, 344 FULL, 301 DIFF, 5376 LOG; FULLs nightly ~01:00, DIFFs 13:00; Ola Hallengren naming SERVER$INSTANCE_Db_TYPE_yyyyMMdd_HHmmss.", [r"6021|5376|344", r"files?|FULL|LOG|listing"]),
    f("b07", "finding", "must", "Danger found: **SQL02_HIS** has its previous FULL from 2025-11-30", "SQL02_HIS's previous FULL is from 2025-11-30, so a database's newest FULL can be older than every window: a rule must never remove the newest FULL.", [r"HIS|2025-11-30", r"newest|FULL|older|danger"]),
    f("b08", "value", "should", "9. Local tools: pwsh 7.4.1, Pester 5.6.1, PSScriptAnalyzer 1.22.0", "Versions: locally pwsh 7.4.1, Pester 5.6.1, PSScriptAnalyzer 1.22.0; build-win01 runs the tests on Windows PowerShell 5.1 with Pester 5.5.0 (local pwsh passing proves nothing for 5.1).", [r"build-win01|5\.5\.0|5\.6\.1|7\.4\.1", r"Pester|pwsh|5\.1"]),
    f("b09", "decision", "should", "Plan: a private `Get-RetentionSet`", "Design: private Get-RetentionSet returns Keep/Delete with a reason per file (daily, weekly, monthly, newest-full); Invoke-BackupJanitor gets -Apply and SupportsShouldProcess; Pester tests with synthetic file lists.", [r"Get-RetentionSet", r"Keep|Delete|reason"]),
    f("b10", "constraint", "should", "DIFF - keep only last 14 days, like daily", "DIFF backups: keep only the last 14 days (no weekly or monthly DIFFs).", [r"DIFF", r"14"]),
    f("b11", "constraint", "must", ".trn files do not touch at all, log shipping to DR site reads them", "Originally: never touch .trn files (log shipping to the DR site reads them); reversed in turn 4 when log shipping was replaced by an Always On AG.", [r"\.trn|LOG files|log files", r"log shipping|never|not touch|don.?t touch|reversed|untouched"], "reversed"),
    f("b12", "constraint", "must", "newest FULL of each database must stay always", "The newest FULL of each database is always kept, even when the policy would delete it (a lost backup chain last year).", [r"newest", r"FULL", r"keep|kept|always|never delet|stay"]),
    f("b13", "constraint", "should", "Week is Monday-Sunday like in Russia", "Weeks are Monday-Sunday (ISO weeks), not US weeks.", [r"Monday|ISO", r"week"]),
    f("b14", "decision", "should", "I'll define it as: backups taken on the last 14 calendar days, today included", "'Last 14 days' means the last 14 calendar days including today: daily limit = today minus 13 days (AddDays(1 - DailyDays)).", [r"calendar days|today included|including today|AddDays\(1|13 days", r"14|daily|limit"]),
    f("b15", "error", "nice", "Expected 29, but got 30.", "The daily-count test (expected 29, got 30, then 28) had a hand-counted magic number; replaced by a test asserting every FULL/DIFF since 1 Apr is kept and no older DIFF.", [r"29|daily.{0,40}test|magic|hand", r"30|28|count|robust|replac"], "fixed"),
    f("b16", "error", "must", "RuntimeException: Unable to find type [System.Globalization.ISOWeek].", "On Windows PowerShell 5.1 [System.Globalization.ISOWeek] does not exist (.NET Framework 4.x); Get-IsoWeekKey now uses Calendar.GetWeekOfYear(FirstFourDayWeek, Monday) after shifting Mon-Wed by 3 days, ISO year from the week's Thursday.", [r"ISOWeek|GetWeekOfYear", r"5\.1|Framework|not exist|Unable to find|workaround|Thursday"], "fixed"),
    f("b17", "path", "should", "pins the year-boundary cases", "New tests/Get-IsoWeekKey.Tests.ps1 pins year-boundary weeks (2024-12-30 = 2025-W01, 2027-01-03 = 2026-W53, 2021-01-03 = 2020-W53); 14/14 passed on both versions.", [r"Get-IsoWeekKey|W53|W01|year.boundar", r"test|2026-W53|2025-W01|week"]),
    f("b18", "command", "must", "git checkout -q gfs-retention; git pull -q; Invoke-Pester", "5.1 test run: push the gfs-retention branch, then ssh build-win01 powershell.exe -NoProfile (Set-Location C:\\src\\BackupJanitor; git pull; Invoke-Pester -Path .\\tests -Output Detailed); latest 18/18.", [r"build-win01", r"Invoke-Pester|powershell\.exe|5\.1|ssh"]),
    f("b19", "command", "should", "Baseline Pester run", "Local tests: pwsh -NoProfile -Command \"Invoke-Pester -Path ./tests -Output Detailed\" (baseline 3 tests, latest 18 passing).", [r"Invoke-Pester", r"tests|pwsh|Output"]),
    f("b20", "error", "should", "The null coalescing operator is not available by default", "PSScriptAnalyzer (Invoke-ScriptAnalyzer -Path . -Recurse -Settings ./PSScriptAnalyzerSettings.psd1) flagged `??` (PSUseCompatibleSyntax, not in 5.1) and a positional Group-Object; replaced by an if expression and -Property; analyzer clean since.", [r"\?\?|null.coalescing|PSUseCompatibleSyntax|ScriptAnalyzer", r"5\.1|analy|coalesc|if|fix|clean"], "fixed"),
    f("b21", "value", "should", "Dry run against the read-only mount `/mnt/nas02-ro/sqlbackup`", "First dry run on the read-only snapshot /mnt/nas02-ro/sqlbackup: keep 402, would delete 243 FULL/DIFF files, 4,081,925,326,848 bytes (~3.71 TiB).", [r"402|243|3\.71|3\.7 ?T", r"keep|delet|dry|TiB|TB"]),
    f("b22", "request", "must", "please make writing to Windows Event Log, Application log, source 'BackupJanitor'", "Write to the Windows Application event log, source BackupJanitor: event 4100 Information with the summary, 4101 Warning when a file could not be deleted (Write-JanitorEvent).", [r"4100|4101", r"event|summary|warning|Application"], "done"),
    f("b23", "constraint", "must", "Source must be created by install script, not by janitor itself", "The event source is created by the install script (Install-BackupJanitor.ps1, admin), never by the janitor: svc-sqljanitor has no admin rights and New-EventLog needs admin.", [r"source", r"install|admin|New-EventLog"]),
    f("b24", "request", "should", "Also e-mail report to DBA team - but not now, later", "E-mail report to the DBA team: later, after seeing how the event log works; not started.", [r"e-?mail|mail", r"later|not now|open|not started|DBA"], "open"),
    f("b25", "error", "should", "Expected a value greater than 0, but got 0.", "Pester: 'deletes with -Apply' got Deleted = 0; after the user's suggestion to print what Invoke sees, $files was wrapped in @(...) with a verbose 'parsed N backup files' line and the test passed (17/17).", [r"Deleted|-Apply|greater than 0", r"@\(|wrap|array|parsed|print|0"], "fixed"),
    f("b26", "preference", "should", "stop please. you go in circle.", "User: stop going in circles; check what the function actually sees (print it) instead of reasoning.", [r"circle|print|what .{0,20}sees|stop", r"print|check|count|sees|circle"]),
    f("b27", "decision", "nice", "Keeping `@()` everywhere a pipeline result is stored", "Convention: wrap stored pipeline results in @() (5.1-safe; Pester runs all Its in one runspace).", [r"@\(\)", r"pipeline|wrap|everywhere|stored"]),
    f("b28", "error", "should", "ParameterBindingException: A parameter cannot be found that matches parameter name 'EventId'.", "On 5.1 the 'writes one 4100 summary' test failed with ParameterBindingException for EventId through the Write-JanitorEvent mock; the tests now mock Write-EventLog (and Get-Command for it) and check source/entry type.", [r"ParameterBinding|EventId|mock", r"Write-EventLog|Write-JanitorEvent|mock|5\.1"], "fixed"),
    f("b29", "path", "should", "Files so far: `Private/Get-RetentionSet.ps1`", "Files: Private/Get-RetentionSet.ps1, Private/Get-IsoWeekKey.ps1, Private/Write-JanitorEvent.ps1, Install-BackupJanitor.ps1 (#Requires -RunAsAdministrator, copies module, creates source), Public/Invoke-BackupJanitor.ps1 rewritten, tests for each.", [r"Install-BackupJanitor|Write-JanitorEvent|Get-IsoWeekKey", r"\.ps1|file|creat|new"]),
    f("b30", "constraint", "must", "So .trn older than 7 days can be deleted now", ".trn (LOG) backups older than 7 days may now be deleted: log shipping was replaced by an Always On AG, nobody reads them.", [r"\.trn|LOG|log backup", r"7 days|seven|7"]),
    f("b31", "constraint", "must", "never delete .trn newer than the newest kept FULL", "Never delete a .trn taken after the newest kept FULL of the same database (point-in-time restore chain): reason log-chain.", [r"\.trn|LOG|log-chain", r"newest|after|newer|point.in.time|chain"]),
    f("b32", "value", "should", "Dry run on the snapshot now: keep **1347**", "Dry run with .trn included: keep 1347, would delete 4674 files, 4,412,903,751,680 bytes (~4.01 TiB); 18/18 tests on both versions.", [r"1347|4674|4\.01", r"keep|delet|dry|TiB"]),
    f("b33", "request", "should", "squash wip commits to one, version 1.4.0", "Squash the wip commits into one, ModuleVersion 1.4.0, README with the admin install step and dry-run default; do not merge, the user reviews tomorrow.", [r"squash|1\.4\.0|README", r"commit|version|install|dry|review|merge"], "done"),
    f("b34", "value", "should", "Squashed into **9c3e5b7** on branch `gfs-retention`", "Commit 9c3e5b7 on branch gfs-retention (force-pushed, not merged), on top of e0b4c21.", [r"9c3e5b7"]),
    f("b35", "state", "must", "the scheduled task (deploy/janitor-task.xml) still calls", "The scheduled task still calls Invoke-BackupJanitor without -Apply, so after deployment it only reports until -Apply is added there.", [r"task|janitor-task|schedul", r"-Apply|only report|dry"], "open"),
    f("b36", "state", "should", "must be run once as admin on nas02-mgmt before the first run", "Install-BackupJanitor.ps1 must be run once as admin on nas02-mgmt before the first run, else Write-EventLog fails (source missing); review and merge are pending.", [r"Install-BackupJanitor|install", r"admin|once|source|first run"], "open"),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
