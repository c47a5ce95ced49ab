# ruff: noqa: E501
"""Labels for codex-bats-gwflash, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "gwflash (Bash firmware flasher for farm LoRa gateways): sha256 manifest check (exit 3), --dry-run, UTC timestamps, abort after MAX_FAIL failed gateways (exit 4); syslog logging added then removed; rollback deferred",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6b test split",
    "voice": "Dutch-flavoured English, friendly, \"never mind\" to its own syslog request, one question, decisions with \"decision:\"",
    "toolchain": "Bash (scripts must run on bash 4.2.46), bats-core 1.11.0 with PATH mocks, shellcheck 0.10.0 (.shellcheckrc severity=style), docker bash:4.2 image, GitLab CI",
}
COMPACTIONS = [
    ("Done for the first part:", 1200),
    ("Syslog is gone again (logger mock removed", 1200),
    ("I would not do it now. Reasons:", 1000),
]
FACTS = [
    f("g01", "request", "must", "checks the sha256 of the image against firmware/MANIFEST.sha256", "gwflash must verify the image's sha256 against firmware/MANIFEST.sha256 before uploading anything, and stop with its own exit code (1 and 2 are taken).", [r"sha256|checksum", r"MANIFEST|manifest"], "done"),
    f("g02", "finding", "nice", "Henk flashed a half-downloaded image to four gateways", "Why: last week Henk flashed a half-downloaded image to four gateways in Drenthe and someone had to drive there.", [r"Drenthe|half[- ]downloaded", r"gateways?|image|flash"]),
    f("g03", "constraint", "must", "there is bash 4.2.46 (CentOS 7", "gwflash runs on the jump host hop01 with bash 4.2.46 (CentOS 7, until the spring migration): no bash 4.3+ features (no namerefs, no wait -n, empty arrays under set -u need care).", [r"4\.2", r"bash|hop01"]),
    f("g04", "constraint", "must", "shellcheck must be clean with our .shellcheckrc", "shellcheck must be clean with the repo's .shellcheckrc (severity=style, require-variable-braces); the CI lint job fails otherwise.", [r"shellcheck", r"clean|\.shellcheckrc|CI"]),
    f("g05", "constraint", "should", "On the gateways there is only busybox", "The gateways only have busybox: no jq, no python, nothing extra on them.", [r"busybox", r"gateways?|jq|python|only"]),
    f("g06", "request", "should", "every flash is also written to syslog with logger -t gwflash", "First request: log every flash to syslog with logger -t gwflash (implemented as log_flash, later removed).", [r"syslog|logger"], "reversed"),
    f("g07", "finding", "should", "Baseline: `bats test/` 12 tests pass", "Baseline: 12 bats tests passed, but shellcheck was already not clean on main (SC2155, SC2086, SC2250 in lib/common.sh), so CI lint was red or not running.", [r"shellcheck|SC2155|lint", r"red|not clean|already|main|findings"]),
    f("g08", "finding", "should", "firmware/MANIFEST.sha256 is written by `sha256sum -b`", "firmware/MANIFEST.sha256 is written by sha256sum -b, every line '<hash> *<file>' (binary marker *).", [r"sha256sum -b|\*<?(file|name)|binary marker", r"manifest|MANIFEST|\*"]),
    f("g09", "value", "nice", "etc/gateways.txt: 41 lines not commented", "etc/gateways.txt has 41 active gateways and 3 commented out.", [r"\b41\b", r"gateways?"]),
    f("g10", "decision", "must", "Exit code 3 is good. Go ahead.", "Exit code 3 = checksum mismatch or image not listed in the manifest (checked before any ssh/scp).", [r"exit( code)? 3|\b3\b.{0,40}(checksum|mismatch|manifest)|(checksum|mismatch).{0,40}\b3\b"]),
    f("g11", "request", "should", "Yes please fix also the old warnings", "Fix the pre-existing shellcheck warnings too (done: SC2155/SC2086/SC2250 in lib/common.sh, SC2207/SC2250 in bin/gwflash).", [r"shellcheck|warnings|SC2\d{3}", r"old|existing|fix|also"], "done"),
    f("g12", "command", "should", "head -1; /opt/bats/bin/bats test/", "Bash 4.2 check like the CI bats-bash42 job: docker run --rm -v \"$PWD\":/w -w /w bash:4.2 ... (clone bats-core v1.11.0 to /opt/bats) /opt/bats/bin/bats test/; latest 20 tests pass.", [r"bash:4\.2|bash 4\.2|4\.2", r"docker|bats"]),
    f("g13", "error", "should", "gwflash: fw-2.7.1.bin: not listed in /tmp/bats-run-Qm3x", "First verify_image failed ('not listed in ... MANIFEST.sha256'): awk compared $2, which is '*fw-2.7.1.bin' in sha256sum -b format.", [r"not listed", r"MANIFEST|manifest"], "fixed"),
    f("g14", "fix", "should", "I'll strip an optional leading `*` from the name field", "Fix: verify_image strips an optional leading '*' from the manifest name field before comparing (accepts both -b and text mode lines).", [r"\*", r"strip|leading|name"]),
    f("g15", "error", "must", "/w/lib/common.sh: line 34: local: -n: invalid option", "In the bash:4.2 image a load_gateways helper using a nameref (local -n) failed: 'local: -n: invalid option', then 'GATEWAYS[@]: unbound variable'; namerefs are bash 4.3.", [r"-n|nameref", r"invalid option|4\.3|4\.2|unbound"], "fixed"),
    f("g16", "fix", "should", "Good that we have the 4.2 job: `local: -n: invalid option`", "Fix: no nameref helper; bin/gwflash reads the list with mapfile -t (fine in 4.2) and exits 1 on an empty gateway list.", [r"mapfile", r"nameref|local -n|4\.2|empty"]),
    f("g17", "path", "should", "`verify_image` in lib/common.sh: looks up the image's basename", "lib/common.sh: new verify_image IMAGE MANIFEST (awk lookup by basename, sha256sum compare, return 3); bin/gwflash calls it once before the loop.", [r"verify_image", r"lib/common\.sh|manifest|sha256|exit 3|return 3"]),
    f("g18", "value", "should", "Default manifest is `MANIFEST.sha256` next to the image", "The manifest defaults to MANIFEST.sha256 in the image's directory; the MANIFEST environment variable overrides it.", [r"MANIFEST", r"next to|same (dir|folder)|directory|override|env"]),
    f("g19", "command", "should", "SC2155 (warning): Declare and assign separately", "Lint: shellcheck -x bin/gwflash lib/*.sh test/*.bash (as CI); clean at the end.", [r"shellcheck", r"-x|clean|SC2155"]),
    f("g20", "command", "should", "15 tests, 1 failure in 2.87 seconds", "Tests: bats test/ (test/gwflash.bats, test_helper.bash, PATH mocks for ssh/scp/sleep in test/mocks); latest 20 tests pass.", [r"bats", r"tests?|pass|fail"]),
    f("g21", "request", "must", "never mind the syslog thing, sorry", "Never mind syslog: rsyslog on hop01 forwards everything to the farm dashboard, so logger was removed again; output goes to stdout with a UTC timestamp instead.", [r"syslog|logger", r"never mind|remov|no longer|dropp?|instead|stdout|dashboard"], "done"),
    f("g22", "preference", "should", "just print on stdout with a timestamp, UTC", "Every output line starts with a UTC ISO 8601 timestamp like 2026-09-14T08:40:00Z.", [r"UTC|ISO|T\d\d:\d\d:\d\dZ|%FT%TZ", r"timestamp|stdout|date"]),
    f("g23", "request", "must", "And then I want a --dry-run", "--dry-run: show which gateways would be flashed with which image and the checksum result, with no network access at all (no ssh, no ping).", [r"dry[- ]?run", r"network|ssh|ping|would flash"], "done"),
    f("g24", "request", "should", "The rollback command (flash back the previous image", "A rollback command (flash back the previous image from the manifest) is wanted later, not now: after this branch is merged.", [r"rollback|roll back", r"later|not now|open|after|merge|previous"], "open"),
    f("g25", "decision", "nice", "getopts does not do long options", "--dry-run is translated to -n before getopts (getopts has no long options), so -n works too.", [r"getopts|-n\b", r"long|dry"]),
    f("g26", "error", "nice", "Both are the new `fw-2.7.1.bin: checksum ok` line", "Two tests broke because the new '<image>: checksum ok' line comes first; the line was kept and the tests adjusted to grep the flashed lines.", [r"checksum ok", r"line|first|test"], "fixed"),
    f("g27", "error", "should", "/w/bin/gwflash: line 25: args[@]: unbound variable", "Only in bash 4.2: 'args[@]: unbound variable' when gwflash runs without arguments (empty array under set -u); fixed with set -- ${args[@]+\"${args[@]}\"}.", [r"args\[@\]|empty array|unbound", r"unbound|set -u|4\.2|\+"], "fixed"),
    f("g28", "value", "nice", "would flash gw-zeeland-11 with lgw-2.7.1.bin", "Dry run on the real list with firmware/lgw-2.7.1.bin: checksum ok, 41 gateways would be flashed (gw-drenthe-01 first).", [r"\b41\b|gw-drenthe|gw-zeeland", r"lgw-2\.7\.1|would flash|gateways?"]),
    f("g29", "value", "nice", "9c4e1f07b2d5a8e3c6f9b0a1d4e7c2f5", "Firmware in the repo: lgw-2.6.4.bin and lgw-2.7.1.bin (manifest sha256 of 2.7.1 starts 9c4e1f07).", [r"lgw-2\.7\.1|lgw-2\.6\.4|9c4e1f07"]),
    f("g30", "finding", "should", "I would not do it now. Reasons:", "Parallel flashing advised against: gateways on a farm share one 4G modem (no real speed-up, more timeouts), a bad image would brick a whole farm at once, and wait -n is bash 4.3.", [r"parallel", r"bandwidth|4G|modem|brick|wait -n|sequential"]),
    f("g31", "decision", "must", "decision: sequential stays, and we abort the run after 3 failed gateways", "Decision: flashing stays sequential; the run aborts with exit 4 after 3 failed gateways, MAX_FAIL in the environment changes the limit (a single failed gateway no longer ends the run).", [r"MAX_FAIL|3 failed|three failed", r"abort|exit( code)? 4|\b4\b|stop"]),
    f("g32", "request", "should", "Then commit on a branch, I make the merge request myself", "Commit on a branch; the user opens the merge request herself/himself (not pushed).", [r"branch|commit", r"merge request|\bMR\b|myself|user|not pushed"], "done"),
    f("g33", "error", "should", "+ ((  FAILED++  ))", "((FAILED++)) returned status 1 when FAILED was 0, so set -e ended the run with 1 at the first failed gateway (3 bats failures); fixed with FAILED=$((FAILED + 1)).", [r"FAILED\+\+|\(\(", r"set -e|status|exit|return"], "fixed"),
    f("g34", "state", "must", "[gwflash-verify-manifest 5e1b7c2]", "Committed 5e1b7c2 on new branch gwflash-verify-manifest (not pushed).", [r"5e1b7c2|gwflash-verify-manifest"]),
    f("g35", "value", "should", "Exit codes now: 1 usage or empty gateway list", "Exit codes: 1 usage or empty gateway list, 2 unreachable gateway, 3 checksum mismatch / not in manifest, 4 MAX_FAIL (default 3) gateways failed.", [r"unreachable|exit codes?", r"\b4\b|MAX_FAIL"]),
    f("g36", "path", "nice", "A  test/fixtures/four.txt", "Test support: test/mocks/scp fails for hosts in SCP_FAIL_FILE, new fixture test/fixtures/four.txt (gw-a..gw-d); the logger mock was deleted.", [r"four\.txt|mocks/scp|SCP_FAIL_FILE"]),
    f("g37", "state", "should", "shellcheck-clean\n20 tests, 0 failures in 4.44 seconds", "Final: 20 bats tests pass on bash 5.2 and in bash:4.2; shellcheck clean.", [r"\b20\b", r"tests?|pass"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
