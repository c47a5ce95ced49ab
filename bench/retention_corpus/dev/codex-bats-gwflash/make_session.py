# ruff: noqa: E501
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout6b split.

A Dutch-flavoured English user has Codex add manifest checksum verification, a dry-run mode and a
failure limit to gwflash, a Bash tool that flashes firmware onto LoRa sensor gateways on farms.
bats-core, shellcheck, bash 4.2 in docker (the jump host's bash). Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/joost/src/gwflash"
r = Rollout(CWD, "2026-09-14T08:12:40", seed="gwflash-manifest", repo_url="git@gitlab.agrisens.example:field/gwflash.git")

BIN = "bin/gwflash"
LIB = "lib/common.sh"
T = "test/gwflash.bats"
H = "test/test_helper.bash"

r.files.update({
    BIN: """#!/usr/bin/env bash
# gwflash - push a firmware image to the LoRa gateways listed in etc/gateways.txt
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib/common.sh
. "$HERE/../lib/common.sh"

usage() {
  echo "usage: gwflash [-g gateways.txt] IMAGE" >&2
  exit 1
}

GW_LIST="$HERE/../etc/gateways.txt"
while getopts "g:h" opt; do
  case $opt in
    g) GW_LIST=$OPTARG ;;
    *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage
IMAGE=$1

for gw in $(read_gateways "$GW_LIST"); do
  ping_gateway "$gw" || { warn "$gw unreachable"; exit 2; }
  flash_one "$gw" "$IMAGE"
done
""",
    LIB: """# shellcheck shell=bash
# common helpers for gwflash

RETRIES=${RETRIES:-3}
SSH_OPTS=(-o BatchMode=yes -o ConnectTimeout=8 -o ServerAliveInterval=5)

warn() { echo "gwflash: $*" >&2; }

read_gateways() {
  # one hostname per line, '#' comments
  grep -v '^[[:space:]]*#' "$1" | sed '/^[[:space:]]*$/d'
}

ping_gateway() {
  ssh "${SSH_OPTS[@]}" "root@$1" true
}

flash_one() {
  local gw=$1 image=$2 n=0
  local base=$(basename "$image")
  while [ $n -lt "$RETRIES" ]; do
    if scp "${SSH_OPTS[@]}" "$image" "root@$gw:/tmp/$base" &&
       ssh "${SSH_OPTS[@]}" "root@$gw" sysupgrade -n /tmp/$base; then
      echo "$gw: flashed $base"
      return 0
    fi
    n=$((n + 1))
    sleep $((n * 5))
  done
  warn "$gw: giving up after $RETRIES tries"
  return 1
}
""",
    T: """#!/usr/bin/env bats

load test_helper

@test "usage without image" {
  run gwflash
  [ "$status" -eq 1 ]
  [[ "$output" == *"usage: gwflash"* ]]
}

@test "unknown option prints usage" {
  run gwflash -x img.bin
  [ "$status" -eq 1 ]
}

@test "comments and blank lines are skipped" {
  printf 'gw-a\\n# gw-b\\n\\n  gw-c\\n' > "$BATS_TEST_TMPDIR/gws"
  run read_gateways "$BATS_TEST_TMPDIR/gws"
  [ "${lines[0]}" = "gw-a" ]
  [ "${#lines[@]}" -eq 2 ]
}

@test "unreachable gateway stops the run with 2" {
  mock_ssh_fail gw-a
  run gwflash -g "$FIXTURES/two.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 2 ]
}

@test "flashes every gateway" {
  run gwflash -g "$FIXTURES/two.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 0 ]
  [ "$(grep -c sysupgrade "$MOCK_LOG")" -eq 2 ]
}
""",
    H: """# shellcheck shell=bash
ROOT=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
FIXTURES="$ROOT/test/fixtures"
PATH="$ROOT/test/mocks:$ROOT/bin:$PATH"
MOCK_LOG="$BATS_TEST_TMPDIR/mock.log"
export MOCK_LOG RETRIES=1 SLEEP_SCALE=0
# shellcheck source=lib/common.sh
. "$ROOT/lib/common.sh"

mock_ssh_fail() { echo "$1" >> "$BATS_TEST_TMPDIR/ssh_fail"; export SSH_FAIL_FILE="$BATS_TEST_TMPDIR/ssh_fail"; }
""",
})

BATS_12 = """ ✓ usage without image
 ✓ unknown option prints usage
 ✓ comments and blank lines are skipped
 ✓ unreachable gateway stops the run with 2
 ✓ flashes every gateway
 ✓ retries scp three times then gives up
 ✓ sysupgrade failure counts as a try
 ✓ -g overrides the gateway list
 ✓ RETRIES env is honoured
 ✓ image path with spaces
 ✓ basename used on the gateway
 ✓ prints one line per flashed gateway

12 tests, 0 failures in 2.41 seconds
"""

# ===================================================================== turn 1
r.user(
    "Hoi! So, we have this tool gwflash with which we push firmware to the LoRa gateways on the farms (the soil sensor ones). Last week Henk flashed a half-downloaded image to four gateways in Drenthe and we had to drive there, so I want that gwflash checks the sha256 of the image against firmware/MANIFEST.sha256 before it uploads anything, and when it does not match it must stop with its own exit code, not 1 or 2 because those are already used. "
    "Some things you must know: the script runs on the jump host hop01 and there is bash 4.2.46 (CentOS 7, it is old, I know, we cannot change it before the migration in spring), so nothing from bash 4.3 or newer please. "
    "shellcheck must be clean with our .shellcheckrc, the CI job fails otherwise. On the gateways there is only busybox, so no jq, no python, nothing extra there. "
    "And I would like that every flash is also written to syslog with logger -t gwflash, so we can see afterwards who flashed what. Can you have a look first?"
)
r.run("ls -la; ls bin lib test test/fixtures test/mocks etc firmware", """total 48
drwxr-xr-x 9 joost joost 4096 Sep 14 10:02 .
drwxr-xr-x 6 joost joost 4096 Aug 30 15:21 ..
drwxr-xr-x 8 joost joost 4096 Sep 14 10:05 .git
-rw-r--r-- 1 joost joost  412 Mar  3  2025 .gitlab-ci.yml
-rw-r--r-- 1 joost joost   58 Mar  3  2025 .shellcheckrc
-rw-r--r-- 1 joost joost 1630 Jun 18 11:40 README.md
drwxr-xr-x 2 joost joost 4096 Jun 18 11:40 bin
drwxr-xr-x 2 joost joost 4096 Mar  3  2025 etc
drwxr-xr-x 2 joost joost 4096 Sep 12 16:48 firmware
drwxr-xr-x 2 joost joost 4096 Jun 18 11:40 lib
drwxr-xr-x 4 joost joost 4096 Jun 18 11:40 test
bin:
gwflash
lib:
common.sh
test:
fixtures  gwflash.bats  mocks  test_helper.bash
test/fixtures:
fw-2.7.1.bin  MANIFEST.sha256  two.txt
test/mocks:
scp  sleep  ssh
etc:
gateways.txt
firmware:
MANIFEST.sha256  lgw-2.6.4.bin  lgw-2.7.1.bin
""", reasoning="**Looking around the repo**")
r.cat(BIN)
r.cat(LIB)
r.run("cat .shellcheckrc .gitlab-ci.yml", """external-sources=true
enable=require-variable-braces
severity=style
stages: [lint, test]

shellcheck:
  stage: lint
  image: koalaman/shellcheck-alpine:v0.10.0
  script:
    - shellcheck -x bin/gwflash lib/*.sh test/*.bash

bats:
  stage: test
  image: bats/bats:1.11.0
  script:
    - bats test/

bats-bash42:
  stage: test
  image: bash:4.2
  script:
    - apk add --no-cache git && git clone --depth 1 -b v1.11.0 https://github.com/bats-core/bats-core /opt/bats
    - /opt/bats/bin/bats test/
""")
r.run("cat firmware/MANIFEST.sha256 test/fixtures/MANIFEST.sha256; grep -vc '^#' etc/gateways.txt; grep -c '^#' etc/gateways.txt", """3f0d2a61c7be90e45a1d88c2f6b7e3a90c41d5e2b8f7a6c3d1e0f9b8a7c6d5e4 *lgw-2.6.4.bin
9c4e1f07b2d5a8e3c6f9b0a1d4e7c2f5a8b1d4e7c0f3a6b9c2d5e8f1a4b7c0d3 *lgw-2.7.1.bin
5b8e2d1f4a7c0e3b6d9f2a5c8e1b4d7f0a3c6e9b2d5f8a1c4e7b0d3f6a9c2e5b *fw-2.7.1.bin
41
3
""")
r.cat(T)
r.run("cat test/mocks/ssh test/mocks/scp", """#!/usr/bin/env bash
# mock ssh: log the call; fail for hosts listed in $SSH_FAIL_FILE
echo "ssh $*" >> "$MOCK_LOG"
for a; do case $a in root@*) host=${a#root@} ;; esac; done
if [ -n "${SSH_FAIL_FILE:-}" ] && grep -qx "$host" "$SSH_FAIL_FILE"; then exit 255; fi
exit 0
#!/usr/bin/env bash
echo "scp $*" >> "$MOCK_LOG"
exit 0
""")
r.run("bats --version; shellcheck --version | sed -n 2p; bash --version | head -1", "Bats 1.11.0\nversion: 0.10.0\nGNU bash, version 5.2.21(1)-release (x86_64-pc-linux-gnu)\n")
r.run("bats test/", BATS_12, secs=2.6)
r.run("shellcheck -x bin/gwflash lib/*.sh test/*.bash", """
In lib/common.sh line 19:
  local base=$(basename "$image")
        ^--^ SC2155 (warning): Declare and assign separately to avoid masking return values.


In lib/common.sh line 22:
       ssh "${SSH_OPTS[@]}" "root@$gw" sysupgrade -n /tmp/$base; then
                                                          ^---^ SC2086 (info): Double quote to prevent globbing and word splitting.

Did you mean: 
       ssh "${SSH_OPTS[@]}" "root@$gw" sysupgrade -n /tmp/"$base"; then


In lib/common.sh line 22:
       ssh "${SSH_OPTS[@]}" "root@$gw" sysupgrade -n /tmp/$base; then
                                      ^-^ SC2250 (style): Prefer putting braces around variable references even when not strictly required.

For more information:
  https://www.shellcheck.net/wiki/SC2155 -- Declare and assign separately to ...
  https://www.shellcheck.net/wiki/SC2086 -- Double quote to prevent globbing ...
""", code=1)
r.run("git log --oneline -4 && git status --short", "a71c3e0 mocks: log scp calls\n2d94be1 RETRIES env\n8f0b6d2 read_gateways: skip comments\n0c5a1e7 initial gwflash\n")
r.say(
    "What I see (nothing changed yet):\n\n"
    "- Baseline: `bats test/` 12 tests pass; but `shellcheck -x` is **not** clean already today: 3 findings in lib/common.sh (SC2155 `local base=$(basename ...)` line 19, SC2086 and SC2250 on `/tmp/$base` line 22). CI lint must be red on main already, or the CI job is not running on it.\n"
    "- firmware/MANIFEST.sha256 is written by `sha256sum -b`, so every line is `<hash> *<file>` (binary marker `*`). The busybox `sha256sum -c` on the gateways understands that, but I will verify on hop01 before upload anyway, so the gateway never sees a bad image.\n"
    "- etc/gateways.txt: 41 lines not commented, 3 commented out.\n"
    "- Exit codes today: 1 usage, 2 unreachable gateway. I propose **3 = checksum mismatch or image not in the manifest**.\n"
    "- CI already has a `bats-bash42` job in the `bash:4.2` image, good, I can run the same locally in docker to check we stay in 4.2.\n\n"
    "Plan: `verify_image IMAGE MANIFEST` in lib/common.sh, called once before the loop; `log_flash` that calls `logger -t gwflash` after each successful flash; new bats tests with a mock `logger`. Shall I also fix the 3 existing shellcheck findings?"
)

# ===================================================================== turn 2
r.user("Yes please fix also the old warnings, I did not know the CI was red, that is a bit embarrassing. Exit code 3 is good. Go ahead.")
r.patch([("update", LIB, [
    ("""ping_gateway() {""", """# verify_image IMAGE MANIFEST: the image's sha256 must equal its line in MANIFEST
# (sha256sum -b format: "<hash> *<name>"). Returns 3 on mismatch or missing entry.
verify_image() {
  local image=$1 manifest=$2 name want have
  name=$(basename "${image}")
  want=$(awk -v n="${name}" '$2 == n { print $1 }' "${manifest}")
  if [ -z "${want}" ]; then
    warn "${name}: not listed in ${manifest}"
    return 3
  fi
  have=$(sha256sum "${image}" | cut -d' ' -f1)
  if [ "${have}" != "${want}" ]; then
    warn "${name}: sha256 mismatch (manifest ${want:0:12}, file ${have:0:12})"
    return 3
  fi
}

log_flash() {
  logger -t gwflash "user=${USER:-unknown} gw=$1 image=$2"
}

ping_gateway() {"""),
    ("""  local gw=$1 image=$2 n=0
  local base=$(basename "$image")
  while [ $n -lt "$RETRIES" ]; do
    if scp "${SSH_OPTS[@]}" "$image" "root@$gw:/tmp/$base" &&
       ssh "${SSH_OPTS[@]}" "root@$gw" sysupgrade -n /tmp/$base; then
      echo "$gw: flashed $base"
      return 0""", """  local gw=$1 image=$2 n=0 base
  base=$(basename "${image}")
  while [ "${n}" -lt "${RETRIES}" ]; do
    if scp "${SSH_OPTS[@]}" "${image}" "root@${gw}:/tmp/${base}" &&
       ssh "${SSH_OPTS[@]}" "root@${gw}" sysupgrade -n "/tmp/${base}"; then
      echo "${gw}: flashed ${base}"
      log_flash "${gw}" "${base}"
      return 0"""),
]), ("update", BIN, [
    ("""IMAGE=$1
""", """IMAGE=$1
MANIFEST=${MANIFEST:-$(dirname "${IMAGE}")/MANIFEST.sha256}
verify_image "${IMAGE}" "${MANIFEST}" || exit 3
"""),
])], reasoning="**Adding verify_image and log_flash**")
r.patch([("add", "test/mocks/logger", "#!/usr/bin/env bash\necho \"logger $*\" >> \"$MOCK_LOG\"\n"), ("update", T, [
    ("""@test "flashes every gateway" {""", """@test "wrong checksum stops before any upload with 3" {
  cp "$FIXTURES/fw-2.7.1.bin" "$BATS_TEST_TMPDIR/fw-2.7.1.bin"
  printf 'x' >> "$BATS_TEST_TMPDIR/fw-2.7.1.bin"
  cp "$FIXTURES/MANIFEST.sha256" "$BATS_TEST_TMPDIR/"
  run gwflash -g "$FIXTURES/two.txt" "$BATS_TEST_TMPDIR/fw-2.7.1.bin"
  [ "$status" -eq 3 ]
  [[ "$output" == *"sha256 mismatch"* ]]
  [ ! -e "$MOCK_LOG" ] || ! grep -q '^scp' "$MOCK_LOG"
}

@test "image missing from manifest exits 3" {
  cp "$FIXTURES/fw-2.7.1.bin" "$BATS_TEST_TMPDIR/other.bin"
  cp "$FIXTURES/MANIFEST.sha256" "$BATS_TEST_TMPDIR/"
  run gwflash -g "$FIXTURES/two.txt" "$BATS_TEST_TMPDIR/other.bin"
  [ "$status" -eq 3 ]
  [[ "$output" == *"not listed"* ]]
}

@test "every flash goes to syslog" {
  run gwflash -g "$FIXTURES/two.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^logger -t gwflash' "$MOCK_LOG")" -eq 2 ]
}

@test "flashes every gateway" {"""),
])])
r.run("bats test/", """ ✓ usage without image
 ✓ unknown option prints usage
 ✓ comments and blank lines are skipped
 ✓ unreachable gateway stops the run with 2
 ✗ wrong checksum stops before any upload with 3
   (in test file test/gwflash.bats, line 32)
     `[ "$status" -eq 3 ]' failed
   gwflash: fw-2.7.1.bin: not listed in /tmp/bats-run-Qm3x/test/5/MANIFEST.sha256
 ✓ image missing from manifest exits 3
 ✓ every flash goes to syslog
 ✓ flashes every gateway
 ✓ retries scp three times then gives up
 ✓ sysupgrade failure counts as a try
 ✓ -g overrides the gateway list
 ✓ RETRIES env is honoured
 ✓ image path with spaces
 ✓ basename used on the gateway
 ✓ prints one line per flashed gateway

15 tests, 1 failure in 2.87 seconds
""", code=1, secs=3.0)
r.run("awk -v n=fw-2.7.1.bin '$2 == n { print $1 }' test/fixtures/MANIFEST.sha256; echo \"rc=$?\"; awk '{print \"[\" $2 \"]\"}' test/fixtures/MANIFEST.sha256", "rc=0\n[*fw-2.7.1.bin]\n")
r.say("The failure in the middle of that output is the real one: `not listed in .../MANIFEST.sha256`. The manifest lines are `<hash> *<name>` (sha256sum -b), so awk's `$2` is `*fw-2.7.1.bin` and never equals the name; the mismatch test ends up on the \"not listed\" branch. I'll strip an optional leading `*` from the name field. The 'missing from manifest' test passes only by accident (every name is 'not listed' right now). Fixing the lookup and re-running.")
r.patch([("update", LIB, [
    ("""  want=$(awk -v n="${name}" '$2 == n { print $1 }' "${manifest}")""", """  # sha256sum -b writes "<hash> *<name>", text mode "<hash>  <name>"
  want=$(awk -v n="${name}" '{ f = $2; sub(/^\\*/, "", f) } f == n { print $1 }' "${manifest}")"""),
])])
r.run("bats test/", BATS_12.replace(" ✓ flashes every gateway\n", " ✓ wrong checksum stops before any upload with 3\n ✓ image missing from manifest exits 3\n ✓ every flash goes to syslog\n ✓ flashes every gateway\n").replace("12 tests, 0 failures in 2.41 seconds", "15 tests, 0 failures in 2.93 seconds"), secs=3.0)
r.run("shellcheck -x bin/gwflash lib/*.sh test/*.bash", """
In bin/gwflash line 25:
for gw in $(read_gateways "$GW_LIST"); do
          ^-------------------------^ SC2207 (warning): Prefer mapfile or read -a to split command output (or quote to avoid splitting).
                           ^------^ SC2250 (style): Prefer putting braces around variable references even when not strictly required.


In bin/gwflash line 26:
  ping_gateway "$gw" || { warn "$gw unreachable"; exit 2; }
                ^-^ SC2250 (style): Prefer putting braces around variable references even when not strictly required.
                               ^-^ SC2250 (style): Prefer putting braces around variable references even when not strictly required.

For more information:
  https://www.shellcheck.net/wiki/SC2207 -- Prefer mapfile or read -a to spli...
  https://www.shellcheck.net/wiki/SC2250 -- Prefer putting braces around vari...
""", code=1)
r.say("lib/common.sh is clean now; bin/gwflash has the old `for gw in $(...)` (SC2207) and missing braces. `mapfile` exists in 4.2 (only `mapfile -d` is 4.4), so I will read the list into an array with a small helper; to keep the caller simple I pass the array name.")
r.patch([("update", LIB, [
    ("""read_gateways() {
  # one hostname per line, '#' comments
  grep -v '^[[:space:]]*#' "$1" | sed '/^[[:space:]]*$/d'
}""", """read_gateways() {
  # one hostname per line, '#' comments
  grep -v '^[[:space:]]*#' "$1" | sed '/^[[:space:]]*$/d'
}

# load_gateways FILE VAR: fill the array named VAR with the gateways in FILE
load_gateways() {
  local -n _out=$2
  mapfile -t _out < <(read_gateways "$1")
}"""),
]), ("update", BIN, [
    ("""for gw in $(read_gateways "$GW_LIST"); do
  ping_gateway "$gw" || { warn "$gw unreachable"; exit 2; }
  flash_one "$gw" "$IMAGE"
done""", """load_gateways "${GW_LIST}" GATEWAYS
for gw in "${GATEWAYS[@]}"; do
  ping_gateway "${gw}" || { warn "${gw} unreachable"; exit 2; }
  flash_one "${gw}" "${IMAGE}"
done"""),
    ("""    g) GW_LIST=$OPTARG ;;""", """    g) GW_LIST=${OPTARG} ;;"""),
    ("""case $opt in""", """case ${opt} in"""),
])])
r.run("shellcheck -x bin/gwflash lib/*.sh test/*.bash && echo shellcheck-clean", "shellcheck-clean\n")
r.run("bats test/", BATS_12.replace(" ✓ flashes every gateway\n", " ✓ wrong checksum stops before any upload with 3\n ✓ image missing from manifest exits 3\n ✓ every flash goes to syslog\n ✓ flashes every gateway\n").replace("12 tests, 0 failures in 2.41 seconds", "15 tests, 0 failures in 2.88 seconds"), secs=3.0)
r.run("docker run --rm -v \"$PWD\":/w -w /w bash:4.2 bash -c 'apk add -q --no-cache git >/dev/null && git clone -q --depth 1 -b v1.11.0 https://github.com/bats-core/bats-core /opt/bats 2>/dev/null; bash --version | head -1; /opt/bats/bin/bats test/'", """GNU bash, version 4.2.53(2)-release (x86_64-pc-linux-musl)
 ✓ usage without image
 ✓ unknown option prints usage
 ✓ comments and blank lines are skipped
 ✗ unreachable gateway stops the run with 2
   (in test file test/gwflash.bats, line 27)
     `[ "$status" -eq 2 ]' failed
   /w/lib/common.sh: line 34: local: -n: invalid option
   local: usage: local [option] name[=value] ...
   /w/bin/gwflash: line 27: GATEWAYS[@]: unbound variable
 ✗ wrong checksum stops before any upload with 3
   (in test file test/gwflash.bats, line 32)
     `[ "$status" -eq 3 ]' failed
 ✓ image missing from manifest exits 3
 ✗ every flash goes to syslog
   (in test file test/gwflash.bats, line 49)
     `[ "$status" -eq 0 ]' failed
 ✗ flashes every gateway
   (in test file test/gwflash.bats, line 53)
     `[ "$status" -eq 0 ]' failed
 ✓ retries scp three times then gives up
 ✓ sysupgrade failure counts as a try
 ✗ -g overrides the gateway list
 ✓ RETRIES env is honoured
 ✓ image path with spaces
 ✓ basename used on the gateway
 ✗ prints one line per flashed gateway

15 tests, 6 failures in 4.12 seconds
""", code=1, secs=38.2)
r.say("Good that we have the 4.2 job: `local: -n: invalid option`. Namerefs (`local -n` / `declare -n`) came in bash 4.3, so on hop01 the array stays empty and `set -u` then kills the script (`GATEWAYS[@]: unbound variable`). I drop the nameref helper and call `mapfile` directly in bin/gwflash; `mapfile -t` without `-d` is fine in 4.2. Note also for later: in bash < 4.4 `\"${arr[@]}\"` of an empty array is an unbound-variable error under `set -u`, so an empty gateway list needs a guard.")
r.patch([("update", LIB, [
    ("""

# load_gateways FILE VAR: fill the array named VAR with the gateways in FILE
load_gateways() {
  local -n _out=$2
  mapfile -t _out < <(read_gateways "$1")
}""", ""),
]), ("update", BIN, [
    ("""load_gateways "${GW_LIST}" GATEWAYS
for gw""", """# no namerefs here: hop01 has bash 4.2
mapfile -t GATEWAYS < <(read_gateways "${GW_LIST}")
if [ "${#GATEWAYS[@]}" -eq 0 ]; then
  warn "no gateways in ${GW_LIST}"
  exit 1
fi
for gw"""),
])])
r.run("docker run --rm -v \"$PWD\":/w -w /w bash:4.2 bash -c 'apk add -q --no-cache git >/dev/null && git clone -q --depth 1 -b v1.11.0 https://github.com/bats-core/bats-core /opt/bats 2>/dev/null; /opt/bats/bin/bats test/' | tail -3", " ✓ prints one line per flashed gateway\n\n15 tests, 0 failures in 3.97 seconds\n", secs=36.5)
r.run("bats test/ | tail -1 && shellcheck -x bin/gwflash lib/*.sh test/*.bash && echo shellcheck-clean", "15 tests, 0 failures in 2.90 seconds\nshellcheck-clean\n", secs=3.2)
r.say(
    "Done for the first part:\n"
    "- `verify_image` in lib/common.sh: looks up the image's basename in the manifest (accepts `*name` from `sha256sum -b` and `  name` text mode) and compares sha256; **exit 3** if missing or different, before any ssh/scp. Default manifest is `MANIFEST.sha256` next to the image, `MANIFEST=` overrides.\n"
    "- `log_flash` sends `logger -t gwflash \"user=... gw=... image=...\"` after each successful flash.\n"
    "- bin/gwflash reads the gateways with `mapfile` (no nameref, bash 4.2 had `local: -n: invalid option`) and refuses an empty list.\n"
    "- The 3 old shellcheck findings and the SC2207/SC2250 in bin/gwflash are fixed: `shellcheck -x` clean.\n"
    "- `bats test/`: 15 tests pass on bash 5.2 and in the `bash:4.2` image."
)

# ===================================================================== turn 3
r.user(
    "Super. Hmm, never mind the syslog thing, sorry: Henk tells me that rsyslog on hop01 forwards everything to the farm dashboard and they will get a message per gateway, they will not be happy. Please remove logger again, just print on stdout with a timestamp, UTC, like 2026-09-14T08:40:00Z. "
    "And then I want a --dry-run: it shows which gateways would be flashed with which image and the checksum result, and it does not touch the network at all, no ssh, no ping. "
    "The rollback command (flash back the previous image from the manifest) we also need, but later, not now, first this must be merged."
)
r.patch([("update", LIB, [
    ("""log_flash() {
  logger -t gwflash "user=${USER:-unknown} gw=$1 image=$2"
}""", """# ts: UTC timestamp, ISO 8601 (date -u +%FT%TZ works with coreutils and busybox)
ts() { date -u +%FT%TZ; }

say() { echo "$(ts) $*"; }"""),
    ("""      echo "${gw}: flashed ${base}"
      log_flash "${gw}" "${base}"
""", """      say "${gw}: flashed ${base}"
"""),
])], reasoning="**Removing syslog, adding timestamps**")
r.run("git rm -q --cached test/mocks/logger 2>/dev/null; rm -f test/mocks/logger; grep -rn 'logger' bin lib test || echo none", "test/gwflash.bats:47:@test \"every flash goes to syslog\" {\ntest/gwflash.bats:50:  [ \"$(grep -c '^logger -t gwflash' \"$MOCK_LOG\")\" -eq 2 ]\n")
r.files.pop("test/mocks/logger")
r.patch([("update", T, [
    ("""@test "every flash goes to syslog" {
  run gwflash -g "$FIXTURES/two.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 0 ]
  [ "$(grep -c '^logger -t gwflash' "$MOCK_LOG")" -eq 2 ]
}""", """@test "flash lines carry a UTC timestamp" {
  run gwflash -g "$FIXTURES/two.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 0 ]
  [[ "${lines[0]}" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\\ gw-a:\\ flashed ]]
}

@test "--dry-run lists gateways and touches no network" {
  run gwflash --dry-run -g "$FIXTURES/two.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 0 ]
  [[ "$output" == *"checksum ok"* ]]
  [[ "$output" == *"would flash gw-a with fw-2.7.1.bin"* ]]
  [ ! -e "$MOCK_LOG" ]
}

@test "--dry-run still fails on a bad checksum" {
  cp "$FIXTURES/fw-2.7.1.bin" "$BATS_TEST_TMPDIR/fw-2.7.1.bin"
  printf 'x' >> "$BATS_TEST_TMPDIR/fw-2.7.1.bin"
  cp "$FIXTURES/MANIFEST.sha256" "$BATS_TEST_TMPDIR/"
  run gwflash --dry-run -g "$FIXTURES/two.txt" "$BATS_TEST_TMPDIR/fw-2.7.1.bin"
  [ "$status" -eq 3 ]
}"""),
])], reasoning="**Tests for dry-run and timestamps**")
r.say("getopts does not do long options; I'll translate `--dry-run` to `-n` before getopts, the usual 4.2-safe trick, so `-n` works too.")
r.patch([("update", BIN, [
    ("""  echo "usage: gwflash [-g gateways.txt] IMAGE" >&2""", """  echo "usage: gwflash [-n|--dry-run] [-g gateways.txt] IMAGE" >&2"""),
    ("""GW_LIST="$HERE/../etc/gateways.txt"
while getopts "g:h" opt; do
  case ${opt} in
    g) GW_LIST=${OPTARG} ;;""", """GW_LIST="${HERE}/../etc/gateways.txt"
DRY_RUN=0
args=()
for a in "$@"; do
  case ${a} in
    --dry-run) args+=(-n) ;;
    *) args+=("${a}") ;;
  esac
done
set -- "${args[@]}"
while getopts "g:nh" opt; do
  case ${opt} in
    g) GW_LIST=${OPTARG} ;;
    n) DRY_RUN=1 ;;"""),
    ("""verify_image "${IMAGE}" "${MANIFEST}" || exit 3
""", """verify_image "${IMAGE}" "${MANIFEST}" || exit 3
say "$(basename "${IMAGE}"): checksum ok"
"""),
    ("""for gw in "${GATEWAYS[@]}"; do
  ping_gateway""", """for gw in "${GATEWAYS[@]}"; do
  if [ "${DRY_RUN}" -eq 1 ]; then
    say "would flash ${gw} with $(basename "${IMAGE}")"
    continue
  fi
  ping_gateway"""),
])])
r.run("bats test/", """ ✓ usage without image
 ✓ unknown option prints usage
 ✓ comments and blank lines are skipped
 ✓ unreachable gateway stops the run with 2
 ✓ wrong checksum stops before any upload with 3
 ✓ image missing from manifest exits 3
 ✗ flash lines carry a UTC timestamp
   (in test file test/gwflash.bats, line 50)
     `[[ "${lines[0]}" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z\\ gw-a:\\ flashed ]]' failed
 ✓ --dry-run lists gateways and touches no network
 ✓ --dry-run still fails on a bad checksum
 ✓ flashes every gateway
 ✓ retries scp three times then gives up
 ✓ sysupgrade failure counts as a try
 ✓ -g overrides the gateway list
 ✓ RETRIES env is honoured
 ✓ image path with spaces
 ✓ basename used on the gateway
 ✗ prints one line per flashed gateway
   (in test file test/gwflash.bats, line 96)
     `[ "${#lines[@]}" -eq 2 ]' failed

17 tests, 2 failures in 3.05 seconds
""", code=1, secs=3.3)
r.say("Both are the new `fw-2.7.1.bin: checksum ok` line that now comes first: line 0 is no longer the gw-a line, and 'one line per flashed gateway' counts 3. The checksum line is useful in a real run too, so I keep it and adjust the tests (match the flashed lines with grep).")
r.patch([("update", T, [
    ("""  [[ "${lines[0]}" =~ ^""", """  [[ "${lines[1]}" =~ ^"""),
    ("""  [ "${#lines[@]}" -eq 2 ]""", """  [ "$(printf '%s\\n' "${lines[@]}" | grep -c ': flashed ')" -eq 2 ]"""),
])])
r.run("bats test/ | tail -2", "\n17 tests, 0 failures in 3.01 seconds\n", secs=3.2)
r.run("shellcheck -x bin/gwflash lib/*.sh test/*.bash && echo shellcheck-clean", "shellcheck-clean\n")
r.run("bin/gwflash --dry-run firmware/lgw-2.7.1.bin | sed -n '1,4p;$p'; bin/gwflash --dry-run firmware/lgw-2.7.1.bin | grep -c 'would flash'", """2026-09-14T08:57:13Z lgw-2.7.1.bin: checksum ok
2026-09-14T08:57:13Z would flash gw-drenthe-01 with lgw-2.7.1.bin
2026-09-14T08:57:13Z would flash gw-drenthe-02 with lgw-2.7.1.bin
2026-09-14T08:57:13Z would flash gw-drenthe-03 with lgw-2.7.1.bin
2026-09-14T08:57:13Z would flash gw-zeeland-11 with lgw-2.7.1.bin
41
""")
r.run("docker run --rm -v \"$PWD\":/w -w /w bash:4.2 bash -c 'apk add -q --no-cache git >/dev/null && git clone -q --depth 1 -b v1.11.0 https://github.com/bats-core/bats-core /opt/bats 2>/dev/null; /opt/bats/bin/bats test/'", """ ✗ usage without image
   (in test file test/gwflash.bats, line 7)
     `[[ "$output" == *"usage: gwflash"* ]]' failed
   /w/bin/gwflash: line 25: args[@]: unbound variable
 ✓ unknown option prints usage
 ✓ comments and blank lines are skipped
 ✓ unreachable gateway stops the run with 2
 ✓ wrong checksum stops before any upload with 3
 ✓ image missing from manifest exits 3
 ✓ flash lines carry a UTC timestamp
 ✓ --dry-run lists gateways and touches no network
 ✓ --dry-run still fails on a bad checksum
 ✓ flashes every gateway
 ✓ retries scp three times then gives up
 ✓ sysupgrade failure counts as a try
 ✓ -g overrides the gateway list
 ✓ RETRIES env is honoured
 ✓ image path with spaces
 ✓ basename used on the gateway
 ✓ prints one line per flashed gateway

17 tests, 1 failures in 4.02 seconds
""", code=1, secs=37.0)
r.say("Exactly the 4.2 trap I mentioned: with no arguments `args` is empty and `set -- \"${args[@]}\"` is an unbound-variable error under `set -u` in bash < 4.4 (exit 1 but no usage text). The portable spelling is `${args[@]+\"${args[@]}\"}`.")
r.patch([("update", BIN, [("""set -- "${args[@]}"
""", """set -- ${args[@]+"${args[@]}"}   # bash 4.2: "${args[@]}" of an empty array trips set -u
""")])])
r.run("docker run --rm -v \"$PWD\":/w -w /w bash:4.2 bash -c 'apk add -q --no-cache git >/dev/null && git clone -q --depth 1 -b v1.11.0 https://github.com/bats-core/bats-core /opt/bats 2>/dev/null; /opt/bats/bin/bats test/' | tail -2; bats test/ | tail -1; shellcheck -x bin/gwflash lib/*.sh test/*.bash && echo shellcheck-clean", "\n17 tests, 0 failures in 4.06 seconds\n17 tests, 0 failures in 3.02 seconds\nshellcheck-clean\n", secs=40.0)
r.say(
    "Syslog is gone again (logger mock removed, no `logger` anywhere); every line on stdout starts with a UTC timestamp from `date -u +%FT%TZ`, e.g. `2026-09-14T08:57:13Z gw-drenthe-01: flashed lgw-2.7.1.bin`.\n\n"
    "`--dry-run` (also `-n`): verifies the checksum (still exit 3 on mismatch), prints `would flash <gw> with <image>` per gateway and makes no ssh/scp/ping at all. On the real list with lgw-2.7.1.bin it prints 41 gateways, checksum ok.\n\n"
    "17 bats tests pass on bash 5.2 and 4.2 (after fixing an empty-array `set -u` error that only bash 4.2 showed), shellcheck clean. Rollback is not started, as you said."
)

# ===================================================================== turn 4
r.user("Question: should we flash in parallel? On the farms the 4G is bad and one run over 41 gateways takes almost two hours now. Or is it dangerous?")
r.run("git log --since=2026-06-01 --format='%h %s' -- etc/gateways.txt; grep -n 'sleep' lib/common.sh", "9e2a4d1 gateways: add zeeland-11..14\n25:    sleep $((n * 5))\n")
r.say(
    "I would not do it now. Reasons:\n"
    "1. Most of the two hours is upload time over the same 4G uplinks; several gateways per farm share one modem, so parallel scp mostly splits the same bandwidth and makes timeouts (ConnectTimeout=8) more likely.\n"
    "2. When a bad image slips through, sequential means you notice after one gateway; parallel bricks a whole farm at once. That is exactly the Drenthe incident.\n"
    "3. Interleaved output from background jobs is hard to read, and `wait -n` is bash 4.3 (not on hop01).\n\n"
    "What I would add instead: a clear limit on failed gateways. Today `set -e` ends the run at the first gateway that still fails after its retries (exit 1, no summary), so one farm with no signal stops everything; better to continue past a few failures but stop after N, so a systematic problem does not go through all 41."
)
r.user("Ok clear. decision: sequential stays, and we abort the run after 3 failed gateways, with MAX_FAIL in the environment to change it. Exit code for that 4. Then commit on a branch, I make the merge request myself.")
r.patch([("update", LIB, [
    ("""RETRIES=${RETRIES:-3}""", """RETRIES=${RETRIES:-3}
MAX_FAIL=${MAX_FAIL:-3}   # abort the run after this many failed gateways (exit 4)"""),
]), ("update", BIN, [
    ("""  ping_gateway "${gw}" || { warn "${gw} unreachable"; exit 2; }
  flash_one "${gw}" "${IMAGE}"
done""", """  ping_gateway "${gw}" || { warn "${gw} unreachable"; exit 2; }
  if ! flash_one "${gw}" "${IMAGE}"; then
    (( FAILED++ ))
    if [ "${FAILED}" -ge "${MAX_FAIL}" ]; then
      warn "${FAILED} gateways failed, aborting (MAX_FAIL=${MAX_FAIL})"
      exit 4
    fi
  fi
done"""),
    ("""for gw in "${GATEWAYS[@]}"; do
  if""", """FAILED=0
for gw in "${GATEWAYS[@]}"; do
  if"""),
])])
r.files["test/mocks/scp"] = "#!/usr/bin/env bash\necho \"scp $*\" >> \"$MOCK_LOG\"\nexit 0\n"
r.files["test/fixtures/four.txt"] = "gw-a\ngw-b\ngw-c\ngw-d\n"
r.patch([("update", "test/mocks/scp", [
    ("""echo "scp $*" >> "$MOCK_LOG"
exit 0""", """echo "scp $*" >> "$MOCK_LOG"
for a; do case $a in root@*) host=${a#root@}; host=${host%%:*} ;; esac; done
if [ -n "${SCP_FAIL_FILE:-}" ] && grep -qx "$host" "$SCP_FAIL_FILE"; then exit 1; fi
exit 0"""),
])])
r.patch([("update", T, [
    ("""@test "flashes every gateway" {""", """@test "run aborts with 4 after MAX_FAIL failed gateways" {
  printf 'gw-a\\ngw-b\\ngw-c\\n' > "$BATS_TEST_TMPDIR/scp_fail"
  export SCP_FAIL_FILE="$BATS_TEST_TMPDIR/scp_fail"
  run gwflash -g "$FIXTURES/four.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 4 ]
  [[ "$output" == *"3 gateways failed, aborting (MAX_FAIL=3)"* ]]
  ! grep -q 'root@gw-d' "$MOCK_LOG"
}

@test "fewer failures than MAX_FAIL: run continues" {
  printf 'gw-b\\n' > "$BATS_TEST_TMPDIR/scp_fail"
  export SCP_FAIL_FILE="$BATS_TEST_TMPDIR/scp_fail"
  run gwflash -g "$FIXTURES/four.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 0 ]
  [ "$(printf '%s\\n' "${lines[@]}" | grep -c ': flashed ')" -eq 3 ]
}

@test "MAX_FAIL from the environment" {
  printf 'gw-a\\n' > "$BATS_TEST_TMPDIR/scp_fail"
  export SCP_FAIL_FILE="$BATS_TEST_TMPDIR/scp_fail" MAX_FAIL=1
  run gwflash -g "$FIXTURES/four.txt" "$FIXTURES/fw-2.7.1.bin"
  [ "$status" -eq 4 ]
}

@test "flashes every gateway" {"""),
]), ("add", "test/fixtures/four.txt", "gw-a\ngw-b\ngw-c\ngw-d\n")])
r.run("bats test/", """ ✓ usage without image
 ✓ unknown option prints usage
 ✓ comments and blank lines are skipped
 ✓ unreachable gateway stops the run with 2
 ✓ wrong checksum stops before any upload with 3
 ✓ image missing from manifest exits 3
 ✓ flash lines carry a UTC timestamp
 ✓ --dry-run lists gateways and touches no network
 ✓ --dry-run still fails on a bad checksum
 ✗ run aborts with 4 after MAX_FAIL failed gateways
   (in test file test/gwflash.bats, line 70)
     `[ "$status" -eq 4 ]' failed
   2026-09-14T09:31:02Z fw-2.7.1.bin: checksum ok
   gwflash: gw-a: giving up after 1 tries
 ✗ fewer failures than MAX_FAIL: run continues
   (in test file test/gwflash.bats, line 78)
     `[ "$status" -eq 0 ]' failed
   2026-09-14T09:31:02Z fw-2.7.1.bin: checksum ok
   2026-09-14T09:31:02Z gw-a: flashed fw-2.7.1.bin
   gwflash: gw-b: giving up after 1 tries
 ✗ MAX_FAIL from the environment
   (in test file test/gwflash.bats, line 86)
     `[ "$status" -eq 4 ]' failed
   2026-09-14T09:31:03Z fw-2.7.1.bin: checksum ok
   gwflash: gw-a: giving up after 1 tries
 ✓ flashes every gateway
 ✓ retries scp three times then gives up
 ✓ sysupgrade failure counts as a try
 ✓ -g overrides the gateway list
 ✓ RETRIES env is honoured
 ✓ image path with spaces
 ✓ basename used on the gateway
 ✓ prints one line per flashed gateway

20 tests, 3 failures in 3.44 seconds
""", code=1, secs=3.6)
r.run("cd test && export MOCK_LOG=/tmp/m.log RETRIES=1 PATH=$PWD/mocks:$PATH; printf 'gw-b\\n' > /tmp/f; SCP_FAIL_FILE=/tmp/f bash -x ../bin/gwflash -g fixtures/four.txt fixtures/fw-2.7.1.bin 2>&1 | tail -6; echo \"status=${PIPESTATUS[0]}\"", """+ n=1
+ sleep 5
+ warn 'gw-b: giving up after 1 tries'
+ echo 'gwflash: gw-b: giving up after 1 tries'
gwflash: gw-b: giving up after 1 tries
+ return 1
+ ((  FAILED++  ))
status=1
""")
r.say("The trace ends on `(( FAILED++ ))`: with FAILED=0 the post-increment expression evaluates to 0, and `(( ))` returns status 1 for a zero result, so `set -e` ends the script with 1 at the first failed gateway. Classic; I should have kept `FAILED=$((FAILED + 1))`, which is an assignment and always succeeds.")
r.patch([("update", BIN, [("""    (( FAILED++ ))
""", """    FAILED=$((FAILED + 1))   # not ((FAILED++)): returns 1 when FAILED was 0, and set -e exits
""")])])
r.run("bats test/ | tail -2", "\n20 tests, 0 failures in 3.38 seconds\n", secs=3.6)
r.run("shellcheck -x bin/gwflash lib/*.sh test/*.bash && echo shellcheck-clean; docker run --rm -v \"$PWD\":/w -w /w bash:4.2 bash -c 'apk add -q --no-cache git >/dev/null && git clone -q --depth 1 -b v1.11.0 https://github.com/bats-core/bats-core /opt/bats 2>/dev/null; /opt/bats/bin/bats test/' | tail -1", "shellcheck-clean\n20 tests, 0 failures in 4.44 seconds\n", secs=39.0)
r.run("git switch -c gwflash-verify-manifest && git add -A && git status --short && git commit -qm 'gwflash: verify image sha256 against manifest (exit 3), --dry-run, UTC timestamps, abort after MAX_FAIL failed gateways (exit 4); bash 4.2 safe, shellcheck clean' && git log --oneline -1", """Switched to a new branch 'gwflash-verify-manifest'
M  bin/gwflash
M  lib/common.sh
A  test/fixtures/four.txt
M  test/gwflash.bats
M  test/mocks/scp
[gwflash-verify-manifest 5e1b7c2] gwflash: verify image sha256 against manifest (exit 3), --dry-run, UTC timestamps, abort after MAX_FAIL failed gateways (exit 4); bash 4.2 safe, shellcheck clean
 5 files changed, 118 insertions(+), 14 deletions(-)
5e1b7c2 gwflash: verify image sha256 against manifest (exit 3), --dry-run, UTC timestamps, abort after MAX_FAIL failed gateways (exit 4); bash 4.2 safe, shellcheck clean
""")
r.say(
    "Committed **5e1b7c2** on the new branch `gwflash-verify-manifest` (not pushed; the merge request is yours).\n\n"
    "Exit codes now: 1 usage or empty gateway list, 2 unreachable gateway, 3 checksum mismatch or image not in the manifest, 4 when MAX_FAIL (default 3) gateways have failed; a single failed gateway no longer ends the run. Flashing stays sequential. "
    "20 bats tests pass on bash 5.2 and in bash:4.2, shellcheck clean.\n\n"
    "Still open: the rollback command (flash the previous image from the manifest), which you wanted after this is merged."
)

r.save(HERE / "session.jsonl")
