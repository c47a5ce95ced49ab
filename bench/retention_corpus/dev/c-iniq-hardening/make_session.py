# ruff: noqa: E501
"""Writes session.jsonl: an OpenAI Codex CLI rollout (exec_command + apply_patch) hardening a small
C INI parser (gcc -Werror, ASan, valgrind). Synthetic, written by hand for the retention corpus
(held-out test split). Run: python make_session.py (deterministic)."""

from __future__ import annotations

import json
import random
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import files as F  # noqa: E402

ROOT = "/home/sam/src/iniq"
rng = random.Random(3110)
t = datetime(2025, 10, 14, 19, 2, 11, tzinfo=UTC)
lines: list[dict[str, Any]] = []
ctx = {"total": 0, "context": 9200}
fs = {"Makefile": F.MAKEFILE, "include/ini.h": F.INI_H, "src/ini.c": F.INI_C, "src/iniq.c": F.INIQ_C}


def iso() -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S.") + f"{t.microsecond // 1000:03d}Z"


def rec(kind: str, payload: dict[str, Any], dt: float = 0.4) -> None:
    global t
    t += timedelta(seconds=dt * rng.uniform(0.5, 1.5))
    lines.append({"timestamp": iso(), "type": kind, "payload": payload})


def token_count(out_chars: int) -> None:
    out = max(20, out_chars // 4)
    reasoning = rng.randint(0, out)
    inp = ctx["context"]
    cached = inp - rng.randint(300, 1500)
    ctx["total"] += inp + out
    ctx["context"] += out
    last = {"input_tokens": inp, "cached_input_tokens": cached, "output_tokens": out, "reasoning_output_tokens": reasoning, "total_tokens": inp + out}
    rec("event_msg", {"type": "token_count", "info": {"total_token_usage": {**last, "total_tokens": ctx["total"]}, "last_token_usage": last, "model_context_window": 272000}, "rate_limits": {"primary": {"used_percent": 9.0, "window_minutes": 299, "resets_in_seconds": 12000}, "secondary": {"used_percent": 21.0, "window_minutes": 10079, "resets_in_seconds": 390000}}})


def reasoning(summary: str | None) -> None:
    enc = "gAAAAABo" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") for _ in range(120))
    rec("response_item", {"type": "reasoning", "summary": [{"type": "summary_text", "text": summary}] if summary else [], "content": None, "encrypted_content": enc}, 3)


def user(text: str) -> None:
    rec("turn_context", {"cwd": ROOT, "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write", "network_access": False, "exclude_tmpdir_env_var": False, "exclude_slash_tmp": False}, "model": "gpt-5-codex", "effort": "medium", "summary": "auto"}, 40)
    rec("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]}, 1)
    rec("event_msg", {"type": "user_message", "message": text, "images": []}, 0.05)
    ctx["context"] += len(text) // 4


def say(text: str, think: str | None = None) -> None:
    if think is not None:
        reasoning(think)
    rec("response_item", {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]}, 4)
    token_count(len(text) + len(think or ""))
    rec("event_msg", {"type": "agent_message", "message": text}, 0.05)


def sh(cmd: str, output: str, code: int = 0, think: str | None = None, wall: float | None = None) -> None:
    if think is not None:
        reasoning(think)
    cid = "call_" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(24))
    args = {"cmd": cmd, "workdir": ROOT, "yield_time_ms": 10000}
    rec("response_item", {"type": "function_call", "name": "exec_command", "arguments": json.dumps(args), "call_id": cid}, 3)
    token_count(len(cmd) + len(think or "") + 60)
    chunk = f"{rng.getrandbits(24):06x}"
    w = wall if wall is not None else rng.uniform(0.02, 1.5)
    text = f"Chunk ID: {chunk}\nWall time: {w:.4f} seconds\nProcess exited with code {code}\nOriginal token count: {max(1, len(output) // 4)}\nOutput:\n{output}"
    ctx["context"] += len(text) // 4
    rec("response_item", {"type": "function_call_output", "call_id": cid, "output": text}, w)


def patch(path: str, edits: list[tuple[str, str]], think: str | None = None) -> None:
    """apply_patch with one hunk per (old, new) pair, each with two lines of context."""
    if think is not None:
        reasoning(think)
    body = [f"*** Update File: {path}"]
    for old, new in edits:
        text = fs[path]
        assert text.count(old) == 1, (path, old[:50])
        at = text.index(old)
        before = text[:at].split("\n")
        after = text[at + len(old) :].split("\n")
        head_ctx = before[-3:-1]
        first_partial = before[-1]
        tail_partial = after[0]
        old_lines = (first_partial + old + tail_partial).split("\n")
        new_lines = (first_partial + new + tail_partial).split("\n")
        body.append("@@")
        body += [" " + ln for ln in head_ctx]
        body += ["-" + ln for ln in old_lines]
        body += ["+" + ln for ln in new_lines]
        body += [" " + ln for ln in after[1:3]]
        fs[path] = text.replace(old, new)
    add_or_update(path, "\n".join(body))


def add_file(path: str, content: str, think: str | None = None) -> None:
    if think is not None:
        reasoning(think)
    fs[path] = content
    add_or_update(path, f"*** Add File: {path}\n" + "\n".join("+" + ln for ln in content.rstrip("\n").split("\n")))


def add_or_update(path: str, body: str) -> None:
    cid = "call_" + "".join(rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") for _ in range(24))
    text = "*** Begin Patch\n" + body + "\n*** End Patch"
    rec("response_item", {"type": "custom_tool_call", "status": "completed", "call_id": cid, "name": "apply_patch", "input": text}, 4)
    token_count(len(text))
    kind = "A" if body.startswith("*** Add File") else "M"
    out = {"output": f"Success. Updated the following files:\n{kind} {path}\n", "metadata": {"exit_code": 0, "duration_seconds": 0.0}}
    rec("response_item", {"type": "custom_tool_call_output", "call_id": cid, "output": json.dumps(out)}, 0.2)
    rec("event_msg", {"type": "patch_apply_end", "call_id": cid, "stdout": out["output"], "stderr": "", "success": True, "changes": {f"{ROOT}/{path}": {"update" if kind == "M" else "add": {}}}}, 0.05)


def ln(path: str, needle: str) -> int:
    for i, line in enumerate(fs[path].split("\n"), 1):
        if needle in line:
            return i
    raise KeyError(needle)


def sed(path: str, a: int, b: int) -> str:
    return "\n".join(fs[path].split("\n")[a - 1 : b]) + "\n"


CC = "gcc -O2 -g -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wformat=2 -Werror -Iinclude"
TESTS = [
    "get plain key", "get key in section", "missing key exits 1", "missing section exits 1", "comments are skipped",
    "whitespace around = is trimmed", "list prints section.key=value", "list preserves file order",
    "keys before first section", "last dot splits section", "syntax error reports line", "unreadable file exits 4",
    "usage without args exits 2",
]


def run_tests(names: list[str], failed: dict[str, str] | None = None) -> str:
    failed = failed or {}
    out = []
    for i, n in enumerate(names, 1):
        out.append(failed.get(n, f"ok {i} - {n}") if n not in failed else failed[n].replace("{i}", str(i)))
    nf = len(failed)
    out.append(f"# {len(names) - nf} passed, {nf} failed")
    return "\n".join(out) + "\n"


# --- session start ------------------------------------------------------------------------
rec("session_meta", {"id": "0199e3a4-7c21-7b90-8f3e-2d6a9c0b5e14", "timestamp": iso(), "cwd": ROOT, "originator": "codex_cli_rs", "cli_version": "0.46.0", "instructions": None, "source": "cli", "model_provider": "openai", "git": {"commit_hash": "5e2b7c9d41a08f3e6b1c2d4a9f8e7d6c5b4a3f21", "branch": "master", "repository_url": "git@git.sr.ht:~sam/iniq"}}, 0)
rec("response_item", {"type": "message", "role": "developer", "content": [{"type": "input_text", "text": "<permissions instructions>\nFilesystem sandboxing: workspace-write. Network access is restricted. Approvals: on-request.\n</permissions instructions>"}]})
rec("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"# AGENTS.md instructions for {ROOT}\n\n<INSTRUCTIONS>\nC99 only. Build with `make`, test with `make check`. Keep the code warning-free with -Werror.\n</INSTRUCTIONS>"}]})
rec("response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"<environment_context>\n  <cwd>{ROOT}</cwd>\n  <approval_policy>on-request</approval_policy>\n  <sandbox_mode>workspace-write</sandbox_mode>\n  <network_access>restricted</network_access>\n  <shell>bash</shell>\n</environment_context>"}]})

# =============================================================================================
# Turn 1
user("iniq doesn't build anymore since the gcc 13 upgrade. fix it. keep -Werror, it stays.")
L82 = ln("src/ini.c", "strncpy(k->name")
LAK = ln("src/ini.c", "if (add_key(sec, trim(s), trim(eq + 1))")
sh(
    "make",
    f"{CC} -c -o src/ini.o src/ini.c\n"
    "In function 'add_key',\n"
    f"    inlined from 'parse_lines' at src/ini.c:{LAK}:13:\n"
    f"src/ini.c:{L82}:5: error: 'strncpy' specified bound 64 equals destination size [-Werror=stringop-truncation]\n"
    f"   {L82} |     strncpy(k->name, name, INI_KEY_MAX);\n"
    "      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
    "In function 'add_key',\n"
    f"    inlined from 'parse_lines' at src/ini.c:{LAK}:13:\n"
    f"src/ini.c:{L82 + 1}:5: error: 'strncpy' specified bound 256 equals destination size [-Werror=stringop-truncation]\n"
    f"   {L82 + 1} |     strncpy(k->value, value, INI_VALUE_MAX);\n"
    "      |     ^~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~\n"
    "cc1: all warnings being treated as errors\n"
    "make: *** [Makefile:21: src/ini.o] Error 1\n",
    code=2,
    think="**Reproducing the build failure**\n\nRunning make to see what gcc 13 rejects.",
)
sh("gcc --version | head -n 1 && cat Makefile", "gcc (GCC) 13.2.1 20240210\n" + fs["Makefile"], think="**Reading the build setup**")
sh("git log --oneline -n 8 && ls -R include src tests", "b7e0d13 ini.h: ini_foreach\n4a1d9e2 iniq: -l lists section.key=value\n2c94a0f ini.h: document err_line\n9f30c11 tests: run.sh with expect_fail\n61be7a4 ini: keys before the first section\n0d5c2f8 Makefile: asan and check-asan targets\n71f3e88 initial import\n"
   "include:\nini.h\n\nsrc:\nini.c\niniq.c\n\ntests:\ndata\nrun.sh\n\ntests/data:\nbad.ini\nbig.ini\nbasic.ini\ncomments.ini\nempty_section.ini\nnosection.ini\n")
sh("cat include/ini.h", fs["include/ini.h"])
sh("sed -n '1,140p' src/ini.c", sed("src/ini.c", 1, 140))
sh("cat src/iniq.c", fs["src/iniq.c"])
patch(
    "src/ini.c",
    [(
        "    k = &sec->keys[sec->nkeys++];\n    strncpy(k->name, name, INI_KEY_MAX);\n    strncpy(k->value, value, INI_VALUE_MAX);\n    sec->keys[sec->nkeys].name[0] = '\\0'; /* terminator */\n    return INI_OK;",
        "    k = &sec->keys[sec->nkeys];\n    /* snprintf, not strncpy: it always NUL-terminates and returns the length it wanted,\n     * which is how a too-long key or value is noticed. */\n    if ((size_t)snprintf(k->name, sizeof k->name, \"%s\", name) >= sizeof k->name ||\n        (size_t)snprintf(k->value, sizeof k->value, \"%s\", value) >= sizeof k->value)\n        return INI_ERR_SYNTAX;\n    sec->nkeys++;\n    sec->keys[sec->nkeys].name[0] = '\\0'; /* terminator */\n    return INI_OK;",
    )],
    think="**Replacing strncpy**\n\nstrncpy with bound == size may leave the buffer unterminated, which is what -Wstringop-truncation flags. snprintf always terminates and reports truncation.",
)
patch(
    "src/ini.c",
    [(
        "        if (add_key(sec, trim(s), trim(eq + 1)) != INI_OK)\n            return INI_ERR_NOMEM;",
        "        rc = add_key(sec, trim(s), trim(eq + 1));\n        if (rc != INI_OK) {\n            if (rc == INI_ERR_SYNTAX && err_line)\n                *err_line = lineno;\n            return rc;\n        }",
    ), (
        "    const char *p = text;\n    int lineno = 0;\n",
        "    const char *p = text;\n    int lineno = 0, rc;\n",
    )],
)
sh(
    "make && make check",
    f"{CC} -c -o src/ini.o src/ini.c\n{CC} -c -o src/iniq.o src/iniq.c\nar rcs libini.a src/ini.o\ngcc  -o iniq src/iniq.o libini.a\nsh tests/run.sh ./iniq\n"
    + run_tests(TESTS),
)
say(
    "Fixed; it builds with gcc 13.2.1 and -Werror untouched, and `make check` passes (13/13).\n\n"
    "The two errors were `-Wstringop-truncation` on `strncpy(k->name, name, INI_KEY_MAX)` and the value copy in `add_key()` "
    "(src/ini.c): with the bound equal to the buffer size, strncpy leaves the buffer unterminated when the input is too long.\n\n"
    "snprintf over strncpy: because it always NUL-terminates and returns the length it wanted, so a too-long key or value is now "
    "reported as `INI_ERR_SYNTAX` with its line number instead of being cut. `parse_lines()` passes that error through (it used "
    "to turn every `add_key` failure into `INI_ERR_NOMEM`)."
)

# =============================================================================================
# Turn 2
user("wait, why was it truncating at all? what are the limits?")
sh("grep -n 'INI_KEY_MAX\\|INI_VALUE_MAX\\|line\\[' include/ini.h src/*.c", "include/ini.h:10:#define INI_KEY_MAX   64   /* including the NUL */\ninclude/ini.h:11:#define INI_VALUE_MAX 256  /* including the NUL */\n"
   f"src/ini.c:11:    char name[INI_KEY_MAX];\nsrc/ini.c:12:    char value[INI_VALUE_MAX];\nsrc/ini.c:{ln('src/ini.c', 'char line[512];')}:    char line[512];\n"
   f"src/ini.c:{ln('src/ini.c', 'if (len >= sizeof line)')}:        if (len >= sizeof line)\nsrc/iniq.c:{ln('src/iniq.c', 'char full[INI_KEY_MAX * 2];')}:    char full[INI_KEY_MAX * 2];\nsrc/iniq.c:{ln('src/iniq.c', 'char section[INI_KEY_MAX];')}:    char section[INI_KEY_MAX];\n",
   think="**Collecting the size limits**")
sh(f"sed -n '{ln('src/ini.c', 'static int parse_lines')},{ln('src/ini.c', 'int ini_parse_string')}p' src/ini.c", sed("src/ini.c", ln("src/ini.c", "static int parse_lines"), ln("src/ini.c", "int ini_parse_string")))
say(
    "Three fixed-size buffers, all silent until now:\n\n"
    "- keys: `INI_KEY_MAX` = 64 bytes including the NUL (so 63 characters), in `include/ini.h`;\n"
    "- values: `INI_VALUE_MAX` = 256 bytes (255 characters), also in `include/ini.h`;\n"
    "- the line buffer in `parse_lines()`: `char line[512]`, and a longer line is simply cut at 511 bytes (`/* long lines are cut */`), "
    "so a long value lost its tail before `add_key` even saw it.\n\n"
    "After my fix keys and values are checked, but the line cut still happens first. My suggestion: make the line buffer 4096 bytes and "
    "reject a longer line as a syntax error, so we report every over-long line, key or value with its line number instead of truncating "
    "silently. The key and value limits live in the public header, so they stay as they are."
)

# =============================================================================================
# Turn 3
user("ok do that. reject, never truncate. don't touch include/ini.h though, the distro package installs it system-wide.")
patch(
    "src/ini.c",
    [(
        "    char line[512];\n",
        "    char line[4096]; /* longer lines are a syntax error, never cut */\n",
    ), (
        "        if (len >= sizeof line)\n            len = sizeof line - 1; /* long lines are cut */\n",
        "        if (len >= sizeof line) {\n            if (err_line)\n                *err_line = lineno;\n            return INI_ERR_SYNTAX;\n        }\n",
    )],
    think="**Rejecting long lines**\n\nLine buffer 4096, error instead of cutting. ini.h stays untouched.",
)
RUN_SH_CASE = '''
# over-long value: rejected with its line number, never truncated
long=$(printf 'v%.0s' $(seq 1 300))
printf '[core]\\nname = %s\\n' "$long" > "$tmp/long.ini"
expect_fail 4 "iniq: $tmp/long.ini:2: syntax error" "$INIQ" "$tmp/long.ini" core.name "over-long value is rejected"
'''
RUN_SH_TAIL = (
    "expect_fail() { # exit-code expected-stderr cmd... description(last)\n    want=$1; msg=$2; shift 2\n    desc=$(eval echo \\${$#})\n"
    "    set -- $(echo \"$@\" | sed 's/ [^ ]*$//')\n    err=$(\"$@\" 2>&1 >/dev/null); got=$?\n    if [ \"$got\" -eq \"$want\" ] && [ \"$err\" = \"$msg\" ]; then pass \"$desc\"; else fail \"$desc (exit $got: $err)\"; fi\n}\n\n"
    "expect_fail 4 \"iniq: tests/data/bad.ini:3: syntax error\" \"$INIQ\" tests/data/bad.ini a.b \"syntax error reports line\"\n"
    "expect_fail 4 \"iniq: /nonexistent.ini: cannot read (-1)\" \"$INIQ\" /nonexistent.ini a.b \"unreadable file exits 4\"\n"
    "expect_fail 2 \"usage: iniq FILE section.key\" \"$INIQ\" \"usage without args exits 2\"\n\n"
    "echo \"# $passed passed, $failed failed\"\n[ \"$failed\" -eq 0 ]\n"
)
fs["tests/run.sh"] = RUN_SH_TAIL
sh("tail -n 14 tests/run.sh", RUN_SH_TAIL)
patch("tests/run.sh", [("echo \"# $passed passed, $failed failed\"\n", RUN_SH_CASE.lstrip("\n") + "\necho \"# $passed passed, $failed failed\"\n")])
TESTS.append("over-long value is rejected")
sh("make && make check", f"{CC} -c -o src/ini.o src/ini.c\nar rcs libini.a src/ini.o\ngcc  -o iniq src/iniq.o libini.a\nsh tests/run.sh ./iniq\n" + run_tests(TESTS))
say("Done: `parse_lines()` now uses a 4096-byte line buffer and returns `INI_ERR_SYNTAX` with the line number for anything longer; keys over 63 and values over 255 characters are rejected the same way. `include/ini.h` is unchanged. New test \"over-long value is rejected\" (300-character value, expects exit 4 and `:2: syntax error`); 14/14 pass.")

# =============================================================================================
# Turn 4
user("other thing. segfault: ./iniq tests/data/empty_section.ini core.name. repro?")
sh("./iniq tests/data/empty_section.ini core.name; echo \"exit=$?\"; cat tests/data/empty_section.ini", "Segmentation fault (core dumped)\nexit=139\n[core]\n\n[user]\nname = ada\nemail = ada@example.org\n", think="**Reproducing the segfault**")
patch("tests/run.sh", [("expect_fail 4 \"iniq: tests/data/bad.ini:3: syntax error\"", "expect_fail 1 \"\" \"$INIQ\" tests/data/empty_section.ini core.name \"get key from empty section\"\nexpect_fail 4 \"iniq: tests/data/bad.ini:3: syntax error\"")],
      think="**Adding a regression test**\n\nA key lookup in a section without keys should just exit 1 (not found).")
TESTS.insert(10, "get key from empty section")
L_fk = ln("src/ini.c", "for (k = sec->keys; k->name[0] != '\\0'; k++)")
L_get = ln("src/ini.c", "k = ini_find_key(sec, key);")
ASAN = (
    "make clean\nrm -f src/*.o libini.a iniq\n"
    "make CFLAGS=\"-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer\" LDFLAGS=\"-fsanitize=address,undefined\" all\n"
    "gcc -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wformat=2 -Werror -Iinclude -c -o src/ini.o src/ini.c\n"
    "gcc -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -std=c99 -Wall -Wextra -Wpedantic -Wshadow -Wformat=2 -Werror -Iinclude -c -o src/iniq.o src/iniq.c\n"
    "ar rcs libini.a src/ini.o\ngcc -fsanitize=address,undefined -o iniq src/iniq.o libini.a\n"
    "ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 sh tests/run.sh ./iniq\n"
    + "\n".join(f"ok {i} - {n}" for i, n in enumerate(TESTS[:10], 1)) + "\n"
    + "AddressSanitizer:DEADLYSIGNAL\n=================================================================\n"
    "==48213==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000 (pc 0x55d2c1a0b3f4 bp 0x7ffd3c1e9a80 sp 0x7ffd3c1e9a60 T0)\n"
    "==48213==The signal is caused by a READ memory access.\n==48213==Hint: address points to the zero page.\n"
    f"    #0 0x55d2c1a0b3f4 in ini_find_key src/ini.c:{L_fk}\n"
    f"    #1 0x55d2c1a0b5a1 in ini_get src/ini.c:{L_get}\n"
    f"    #2 0x55d2c1a09e12 in main src/iniq.c:{ln('src/iniq.c', 'value = ini_get(ini, section, key);')}\n"
    "    #3 0x7f1e6b62a1c9 in __libc_start_call_main ../sysdeps/nptl/libc_start_call_main.h:58\n"
    "    #4 0x7f1e6b62a28a in __libc_start_main_impl ../csu/libc-start.c:360\n"
    "    #5 0x55d2c1a09744 in _start (/home/sam/src/iniq/iniq+0x3744) (BuildId: 8c1f0e2a9b7d4c36e5f1a2b3c4d5e6f708192a3b)\n\n"
    "AddressSanitizer can not provide additional info.\n"
    f"SUMMARY: AddressSanitizer: SEGV src/ini.c:{L_fk} in ini_find_key\n==48213==ABORTING\n"
    + "not ok 11 - get key from empty section (exit 1: )\n"
    + "\n".join(f"ok {i} - {n}" for i, n in enumerate(TESTS[11:], 12)) + "\n"
    + "# 14 passed, 1 failed\nmake: *** [Makefile:33: check-asan] Error 1\n"
)
sh("make check-asan 2>&1", ASAN, code=2, wall=14.8, think="**Running the suite under ASan**\n\nThe new test should show where it dies.")
sh(f"sed -n '{ln('src/ini.c', 'int ini_parse_file')},{L_get + 4}p' src/ini.c", sed("src/ini.c", ln("src/ini.c", "int ini_parse_file"), L_get + 4))
sh(f"sed -n '{ln('src/ini.c', 'static struct ini_section *add_section')},{ln('src/ini.c', 'static int add_key')}p' src/ini.c", sed("src/ini.c", ln("src/ini.c", "static struct ini_section *add_section"), ln("src/ini.c", "static int add_key")))
patch(
    "src/ini.c",
    [(
        "    const struct ini_key *k;\n    for (k = sec->keys; k->name[0] != '\\0'; k++)\n        if (strcmp(k->name, key) == 0)\n            return k;\n    return NULL;",
        "    size_t i;\n    /* By count, not by terminator: a section without keys has no array at all (keys == NULL). */\n    for (i = 0; i < sec->nkeys; i++)\n        if (strcmp(sec->keys[i].name, key) == 0)\n            return &sec->keys[i];\n    return NULL;",
    )],
    think="**Fixing the NULL walk**\n\nadd_section leaves keys NULL until the first key, but ini_find_key walks to a terminator in keys. Iterate by nkeys.",
)
sh("make check-asan 2>&1 | tail -n 4 && make clean all check | tail -n 1", "ok 14 - usage without args exits 2\nok 15 - over-long value is rejected\n# 15 passed, 0 failed\n# 15 passed, 0 failed\n", wall=15.2)
say(
    "Reproduced: exit 139. ASan pins it: `SEGV on unknown address 0x000000000000` in `ini_find_key` (src/ini.c), reached from `ini_get`.\n\n"
    "Cause: `[core]` has no keys, and `add_section()` leaves `keys` NULL until the first key arrives; `ini_find_key()` walked the array "
    "to its empty-name terminator, so it dereferenced NULL.\n\n"
    "Fix: iterate by `nkeys`: because an empty section has no array at all, so we never rely on the terminator. The new regression test 11 (\"get key from "
    "empty section\", which expects exit 1) passes now, and the whole suite is clean under ASan+UBSan: 15/15."
)

# =============================================================================================
# Turn 5
user("good. add --strict: duplicate key in a section is an error, exit 3.")
sh("sed -n '1,40p' src/iniq.c", sed("src/iniq.c", 1, 40), think="**Planning --strict**\n\nlibini keeps duplicates (ini_get returns the first). Detecting them needs either a parse flag in ini.h (frozen) or a check in the CLI.")
STRICT_CHECK = '''
struct dup_check {
    char (*seen)[INI_KEY_MAX * 2];
    size_t n, cap;
    char dup[INI_KEY_MAX * 2];
};

/* ini_foreach visitor: stops with 1 at the first section.key seen twice. */
static int check_dup(const char *section, const char *key, const char *value, void *ctx)
{
    struct dup_check *dc = ctx;
    char full[INI_KEY_MAX * 2];
    size_t i;
    (void)value;
    snprintf(full, sizeof full, "%s.%s", section, key);
    for (i = 0; i < dc->n; i++)
        if (strcmp(dc->seen[i], full) == 0) {
            memcpy(dc->dup, full, sizeof full);
            return 1;
        }
    if (dc->n == dc->cap) {
        size_t cap = dc->cap ? dc->cap * 2 : 32;
        void *grown = realloc(dc->seen, cap * sizeof *dc->seen);
        if (!grown)
            return -1;
        dc->seen = grown;
        dc->cap = cap;
    }
    memcpy(dc->seen[dc->n++], full, sizeof full);
    return 0;
}
'''
patch(
    "src/iniq.c",
    [
        ("#define EXIT_USAGE 2\n", "#define EXIT_USAGE 2\n#define EXIT_DUPLICATE 3\n"),
        ("static void usage(FILE *out)\n{\n    fputs(\"usage: iniq FILE section.key\\n       iniq -l FILE\\n\", out);\n}\n",
         STRICT_CHECK.lstrip("\n") + "\nstatic void usage(FILE *out)\n{\n    fputs(\"usage: iniq [--strict] FILE section.key\\n       iniq [--strict] -l FILE\\n\", out);\n}\n"),
        ("    int list = 0, err_line = 0, rc;\n", "    int list = 0, strict = 0, err_line = 0, rc, argi = 1;\n"),
        ("    if (argc == 3 && strcmp(argv[1], \"-l\") == 0) {\n        list = 1;\n        path = argv[2];\n    } else if (argc == 3) {\n        path = argv[1];\n        query = argv[2];\n    } else {",
         "    if (argc > 1 && strcmp(argv[1], \"--strict\") == 0) {\n        strict = 1;\n        argi = 2;\n    }\n    if (argc - argi == 2 && strcmp(argv[argi], \"-l\") == 0) {\n        list = 1;\n        path = argv[argi + 1];\n    } else if (argc - argi == 2) {\n        path = argv[argi];\n        query = argv[argi + 1];\n    } else {"),
        ("    if (list) {\n", "    if (strict) {\n        struct dup_check dc = {NULL, 0, 0, \"\"};\n        int found = ini_foreach(ini, check_dup, &dc);\n        free(dc.seen);\n        if (found > 0) {\n            fprintf(stderr, \"iniq: %s: duplicate key %s\\n\", path, dc.dup);\n            ini_free(ini);\n            return EXIT_DUPLICATE;\n        }\n    }\n\n    if (list) {\n"),
    ],
    think="**Implementing --strict in the CLI**\n\nini.h must not change, so no new parse flag: walk every key with ini_foreach and remember section.key pairs.",
)
L_snp = ln("src/iniq.c", 'snprintf(full, sizeof full, "%s.%s", section, key);')
sh(
    "make",
    f"{CC} -c -o src/iniq.o src/iniq.c\n"
    f"src/iniq.c: In function 'check_dup':\nsrc/iniq.c:{L_snp}:35: error: '%s' directive output may be truncated writing up to 63 bytes into a region of size between 1 and 128 [-Werror=format-truncation=]\n"
    f"   {L_snp} |     snprintf(full, sizeof full, \"%s.%s\", section, key);\n      |                                   ^~\n"
    "cc1: all warnings being treated as errors\nmake: *** [Makefile:21: src/iniq.o] Error 1\n",
    code=2,
)
patch(
    "src/iniq.c",
    [("    snprintf(full, sizeof full, \"%s.%s\", section, key);\n    for (i = 0; i < dc->n; i++)",
      "    if ((size_t)snprintf(full, sizeof full, \"%s.%s\", section, key) >= sizeof full)\n        return -1; /* cannot happen: both parts are shorter than INI_KEY_MAX */\n    for (i = 0; i < dc->n; i++)")],
    think="**Checking snprintf's result**\n\ngcc wants the truncation handled; section names are not bounded by INI_KEY_MAX in the type system.",
)
sh(
    "make && printf '[core]\\nname = a\\nname = b\\n' > /tmp/dup.ini && ./iniq --strict /tmp/dup.ini core.name; echo \"exit=$?\"; ./iniq /tmp/dup.ini core.name; echo \"exit=$?\"; make check | tail -n 1",
    f"{CC} -c -o src/iniq.o src/iniq.c\ngcc  -o iniq src/iniq.o libini.a\niniq: /tmp/dup.ini: duplicate key core.name\nexit=3\na\nexit=0\n# 15 passed, 0 failed\n",
)
sh("cat src/iniq.c", fs["src/iniq.c"])
say(
    "`--strict` is in: `iniq --strict FILE key` (or `--strict -l FILE`) exits 3 with `iniq: FILE: duplicate key section.key` when a "
    "section repeats a key; without it the first value still wins as before.\n\n"
    "Duplicate check lives in iniq.c: because ini.h is frozen, so we detect duplicates from the CLI side with `ini_foreach()` rather than "
    "adding a parse flag to libini. gcc's `-Wformat-truncation` on the new snprintf needed the result checked too. 15/15 pass."
)

# =============================================================================================
# Turn 6
user("actually fine, you can add to ini.h. distro maintainer ok'd a minor bump. I want ini_errstr() so iniq stops printing '(-1)'.")
sh("git log --oneline -n 5 -- include/ini.h && grep -n VERSION Makefile include/ini.h", "b7e0d13 ini.h: ini_foreach\n2c94a0f ini.h: document err_line\n71f3e88 initial import\n"
   "Makefile:2:VERSION   = 1.4.2\ninclude/ini.h:7:#define INI_VERSION_MAJOR 1\ninclude/ini.h:8:#define INI_VERSION_MINOR 4\n", think="**Checking current version numbers**")
say("Plan: add `const char *ini_errstr(int status)` to ini.h (additive, so ABI-compatible), bump to 1.5.0: `INI_VERSION_MINOR` 4 -> 5 and `VERSION = 1.5.0` in the Makefile. iniq then prints `cannot read: No such file or directory` style messages instead of `(-1)`.")
patch("include/ini.h", [
    ("#define INI_VERSION_MINOR 4\n", "#define INI_VERSION_MINOR 5\n"),
    ("void ini_free(ini_file *ini);\n", "/* A short English description of an ini_status value (never NULL). Since 1.5. */\nconst char *ini_errstr(int status);\n\nvoid ini_free(ini_file *ini);\n"),
])
patch("src/ini.c", [("void ini_free(ini_file *ini)\n{", "const char *ini_errstr(int status)\n{\n    switch (status) {\n    case INI_OK:\n        return \"success\";\n    case INI_ERR_IO:\n        return strerror(errno);\n    case INI_ERR_NOMEM:\n        return \"out of memory\";\n    case INI_ERR_SYNTAX:\n        return \"syntax error\";\n    case INI_ERR_NOTFOUND:\n        return \"not found\";\n    default:\n        return \"unknown error\";\n    }\n}\n\nvoid ini_free(ini_file *ini)\n{")])
patch("Makefile", [("VERSION   = 1.4.2\n", "VERSION   = 1.5.0\n")])
patch("src/iniq.c", [("        fprintf(stderr, \"iniq: %s: cannot read (%d)\\n\", path, rc);", "        fprintf(stderr, \"iniq: %s: cannot read: %s\\n\", path, ini_errstr(rc));")])
sh("cat include/ini.h", fs["include/ini.h"])
sh("make clean all check 2>&1 | tail -n 4 && ./iniq /nonexistent.ini a.b", "ok 14 - usage without args exits 2\nok 15 - over-long value is rejected\n# 14 passed, 1 failed\n"
   "make: *** [Makefile:28: check] Error 1\niniq: /nonexistent.ini: cannot read: No such file or directory\n", code=2)
patch("tests/run.sh", [("expect_fail 4 \"iniq: /nonexistent.ini: cannot read (-1)\"", "expect_fail 4 \"iniq: /nonexistent.ini: cannot read: No such file or directory\"")],
      think="**Updating the expected message**\n\nTest 13 asserted the old '(-1)' text.")
sh("make check | tail -n 1", "# 15 passed, 0 failed\n")
say("Done: `ini_errstr()` added to `include/ini.h` and `src/ini.c` (INI_ERR_IO uses `strerror(errno)`), version 1.5.0 (`INI_VERSION_MINOR` 5, Makefile `VERSION = 1.5.0`), iniq prints e.g. `cannot read: No such file or directory`. Test 13 expected the old `(-1)` text and is updated; 15/15 pass.")

# =============================================================================================
# Turn 7
user("make install should honour DESTDIR and PREFIX. does it?")
sh("sed -n '/^install:/,/^$/p' Makefile", sed("Makefile", ln("Makefile", "install: all"), ln("Makefile", "install -m 644 include/ini.h") + 1))
say("No: `PREFIX` is defined (`?= /usr/local`) but never used, and `install` hard-codes `/usr/local/...`; `DESTDIR` is ignored entirely, so staged installs for the distro package write into the real root.", think="**Reading the install target**")
patch("Makefile", [(
    "\tinstall -d /usr/local/bin /usr/local/lib /usr/local/include\n\tinstall -m 755 iniq /usr/local/bin/iniq\n\tinstall -m 644 libini.a /usr/local/lib/libini.a\n\tinstall -m 644 include/ini.h /usr/local/include/ini.h\n",
    "\tinstall -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include\n\tinstall -m 755 iniq $(DESTDIR)$(PREFIX)/bin/iniq\n\tinstall -m 644 libini.a $(DESTDIR)$(PREFIX)/lib/libini.a\n\tinstall -m 644 include/ini.h $(DESTDIR)$(PREFIX)/include/ini.h\n",
)])
sh("cat Makefile", fs["Makefile"])
sh("make install DESTDIR=/tmp/stage PREFIX=/usr && find /tmp/stage -type f | sort",
   "install -d /tmp/stage/usr/bin /tmp/stage/usr/lib /tmp/stage/usr/include\ninstall -m 755 iniq /tmp/stage/usr/bin/iniq\ninstall -m 644 libini.a /tmp/stage/usr/lib/libini.a\ninstall -m 644 include/ini.h /tmp/stage/usr/include/ini.h\n"
   "/tmp/stage/usr/bin/iniq\n/tmp/stage/usr/include/ini.h\n/tmp/stage/usr/lib/libini.a\n")
say("It does now: every install path is `$(DESTDIR)$(PREFIX)/...`. Checked with `make install DESTDIR=/tmp/stage PREFIX=/usr`, which put iniq, libini.a and ini.h under /tmp/stage/usr and nothing elsewhere.")

# =============================================================================================
# Turn 8
user("valgrind clean?")
VG = (
    "==51907== Memcheck, a memory error detector\n==51907== Copyright (C) 2002-2022, and GNU GPL'd, by Julian Seward et al.\n"
    "==51907== Using Valgrind-3.22.0 and LibVEX; rerun with -h for copyright info\n==51907== Command: ./iniq -l tests/data/big.ini\n==51907== \n"
    "==51907== \n==51907== HEAP SUMMARY:\n==51907==     in use at exit: 61 bytes in 9 blocks\n==51907==   total heap usage: 31 allocs, 22 frees, 121,958 bytes allocated\n==51907== \n"
    "==51907== 61 bytes in 9 blocks are definitely lost in loss record 1 of 1\n"
    "==51907==    at 0x4846828: malloc (vg_replace_malloc.c:442)\n"
    f"==51907==    by 0x109B2E: xstrdup (ini.c:{ln('src/ini.c', 'char *p = malloc(n);')})\n"
    f"==51907==    by 0x109C0D: add_section (ini.c:{ln('src/ini.c', 'sec->name = xstrdup(name);')})\n"
    f"==51907==    by 0x109F77: parse_lines (ini.c:{ln('src/ini.c', 'sec = add_section(ini, trim(s + 1));')})\n"
    "==51907==    by 0x10A3B9: ini_parse_string (ini.c:154)\n==51907==    by 0x10A52C: ini_parse_file (ini.c:184)\n==51907==    by 0x1095E1: main (iniq.c:98)\n==51907== \n"
    "==51907== LEAK SUMMARY:\n==51907==    definitely lost: 61 bytes in 9 blocks\n==51907==    indirectly lost: 0 bytes in 0 blocks\n==51907==      possibly lost: 0 bytes in 0 blocks\n"
    "==51907==    still reachable: 0 bytes in 0 blocks\n==51907==         suppressed: 0 bytes in 0 blocks\n==51907== \n"
    "==51907== For lists of detected and suppressed errors, rerun with: -s\n==51907== ERROR SUMMARY: 1 errors from 1 contexts (suppressed: 0 from 0)\n"
)
sh("valgrind --leak-check=full --error-exitcode=1 ./iniq -l tests/data/big.ini > /dev/null", VG, code=1, wall=2.9, think="**Running valgrind on a larger file**")
sh(f"sed -n '{ln('src/ini.c', 'void ini_free(ini_file *ini)')},$p' src/ini.c", sed("src/ini.c", ln("src/ini.c", "void ini_free(ini_file *ini)"), ln("src/ini.c", "void ini_free(ini_file *ini)") + 10))
patch("src/ini.c", [("    for (i = 0; i < ini->nsections; i++)\n        free(ini->sections[i].keys);\n", "    for (i = 0; i < ini->nsections; i++) {\n        free(ini->sections[i].name);\n        free(ini->sections[i].keys);\n    }\n")],
      think="**Freeing section names**\n\nxstrdup'd names are never freed in ini_free.")
sh("make && valgrind --leak-check=full --error-exitcode=1 ./iniq -l tests/data/big.ini > /dev/null && make check | tail -n 1",
   f"{CC} -c -o src/ini.o src/ini.c\nar rcs libini.a src/ini.o\ngcc  -o iniq src/iniq.o libini.a\n"
   "==52011== Memcheck, a memory error detector\n==52011== Command: ./iniq -l tests/data/big.ini\n==52011== \n==52011== HEAP SUMMARY:\n==52011==     in use at exit: 0 bytes in 0 blocks\n"
   "==52011==   total heap usage: 31 allocs, 31 frees, 121,958 bytes allocated\n==52011== \n==52011== All heap blocks were freed -- no leaks are possible\n==52011== \n"
   "==52011== ERROR SUMMARY: 0 errors from 0 contexts (suppressed: 0 from 0)\n# 15 passed, 0 failed\n", wall=3.1)
sh("gcc -std=c99 -Iinclude -fanalyzer -O1 -c src/ini.c -o /dev/null 2>&1 | head -n 40",
   "src/ini.c: In function 'add_section':\n"
   f"src/ini.c:{ln('src/ini.c', 'sec->name = xstrdup(name);')}:15: warning: leak of '<unknown>' [CWE-401] [-Wanalyzer-malloc-leak]\n"
   f"   {ln('src/ini.c', 'sec->name = xstrdup(name);')} |     sec->name = xstrdup(name);\n      |               ^~~~~~~~~~~~~\n"
   "  'parse_lines': events 1-3\n    |\n    |  (1) entry to 'parse_lines'\n    |  (2) calling 'add_section' from 'parse_lines'\n    |  (3) allocated here\n    |\n"
   "  note: this is a false positive only if ini_free frees every section name; it did not before the fix above\n",
   think="**Cross-checking with -fanalyzer**\n\ngcc 13's analyzer should point at the same allocation.")
say("It wasn't: valgrind found `definitely lost: 61 bytes in 9 blocks`, the section names `add_section()` copies with `xstrdup()`; `ini_free()` freed each section's keys but never its name. Fixed in `ini_free()`; valgrind now reports \"All heap blocks were freed -- no leaks are possible\" and 15/15 pass.")

# =============================================================================================
# Turn 9
user("what's left? also at some point: a libFuzzer target for ini_parse_string, and an asan job in CI. not now.")
sh("git status --short", " M Makefile\n M include/ini.h\n M src/ini.c\n M src/iniq.c\n M tests/run.sh\n")
sh("git diff --stat && git diff src/ini.c | head -n 120", " Makefile      | 16 ++++----\n include/ini.h |  5 +++-\n src/ini.c     | 57 +++++++++++++++++++++------\n src/iniq.c    | 58 +++++++++++++++++++++++++--\n tests/run.sh  |  9 ++++-\n 5 files changed, 121 insertions(+), 24 deletions(-)\n"
   + "diff --git a/src/ini.c b/src/ini.c\nindex 7c1e2a9..d04b5f3 100644\n--- a/src/ini.c\n+++ b/src/ini.c\n" + "\n".join(("+" if i % 5 == 0 else " ") + line for i, line in enumerate(fs["src/ini.c"].split("\n")[60:175])) + "\n")
say(
    "Done in this session (uncommitted):\n\n"
    "1. gcc 13 build fixed with -Werror kept (snprintf instead of strncpy in `add_key`).\n"
    "2. Over-long lines (> 4095 bytes), keys (> 63) and values (> 255) are syntax errors with a line number, never truncated.\n"
    "3. Segfault on a key lookup in an empty section fixed (`ini_find_key` iterates by `nkeys`).\n"
    "4. `iniq --strict`: duplicate keys exit 3.\n"
    "5. `ini_errstr()` in ini.h, version 1.5.0.\n"
    "6. `make install` honours `DESTDIR` and `PREFIX`.\n"
    "7. Leak of section names fixed; valgrind clean.\n\n"
    "Left, as you said not now:\n\n"
    "- a libFuzzer target for `ini_parse_string()` (e.g. `fuzz/fuzz_parse.c`, built with `-fsanitize=fuzzer,address`);\n"
    "- a CI job running `make check-asan`.\n\n"
    "Also worth knowing: nothing documents `--strict` yet (no man page or README mention), and the distro package will need the 1.5.0 header."
)

# =============================================================================================
# Turn 10
user("show me ini.c as it is now.")
sh("cat src/ini.c", fs["src/ini.c"])
say("That's the whole file (about 270 lines). Changes from today, top to bottom: `add_key()` copies with checked snprintf; `parse_lines()` has the 4096-byte line buffer and reports over-long lines; `ini_find_key()` loops over `nkeys`; `ini_errstr()` is new; `ini_free()` frees section names. The key/value array terminator written in `add_key()` is now unused by lookups but harmless; I left it for `ini_foreach` readers of older builds.")

# =============================================================================================
# Turn 11
user("commit. short message.")
sh("git add -A && git commit -q -m 'gcc 13 build, reject long lines, empty-section segfault, --strict, ini_errstr, DESTDIR, leak' && git log --oneline -n 1",
   "e4c1a7b gcc 13 build, reject long lines, empty-section segfault, --strict, ini_errstr, DESTDIR, leak\n")
say("Committed as e4c1a7b.")

with open(HERE / "session.jsonl", "w", encoding="utf-8") as fh:
    for line in lines:
        fh.write(json.dumps(line, ensure_ascii=False) + "\n")
print("wrote", len(lines), "lines")
