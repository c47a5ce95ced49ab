# ruff: noqa: E501
"""Writes labels.json. Labels were written by hand from reading session.jsonl."""

import json
from pathlib import Path
from typing import Any

F: list[dict[str, Any]] = []


def fact(kind: str, importance: str, source: str, text: str, probe: list[str], status: str | None = None, synthesis: bool = False) -> str:
    f: dict[str, Any] = {"id": f"f{len(F) + 1:02d}", "kind": kind, "source": source, "importance": importance}
    if status:
        f["status"] = status
    f["text"] = text
    f["probe"] = {"all": probe}
    if synthesis:
        f["synthesis"] = True
    F.append(f)
    return f["id"]


# Turn 1
fact("request", "must", "iniq doesn't build anymore since the gcc 13 upgrade",
     "Fix the build, broken since the gcc 13 upgrade.", [r"gcc ?13", r"build|compil"], status="done")
fact("constraint", "must", "keep -Werror, it stays.",
     "Keep -Werror in the Makefile (do not relax warnings).", [r"-Werror", r"keep|stay|retain|not (drop|remov)|still"])
e3 = fact("error", "must", "error: 'strncpy' specified bound 64 equals destination size",
          "make failed: src/ini.c add_key(): 'strncpy' specified bound 64 (and 256) equals destination size [-Werror=stringop-truncation].",
          [r"stringop-truncation|strncpy"], status="fixed")
fact("value", "nice", "gcc (GCC) 13.2.1 20240210", "Compiler is gcc 13.2.1.", [r"13\.2\.1"])
fact("decision", "should", "snprintf over strncpy: because it always NUL-terminates",
     "snprintf over strncpy: it always NUL-terminates and returns the length it wanted, so truncation can be detected.",
     [r"snprintf", r"strncpy|terminat|truncat"])
fact("fix", "should", "to turn every `add_key` failure into `INI_ERR_NOMEM`",
     f"Fixes {e3}: add_key copies with checked snprintf and returns INI_ERR_SYNTAX for a too-long key/value; parse_lines passes it through with the line number (it used to turn every failure into INI_ERR_NOMEM).",
     [r"add_key|parse_lines", r"INI_ERR_SYNTAX|syntax|line number"])
# Turn 2
fact("value", "should", "`INI_VALUE_MAX` = 256 bytes (255 characters)",
     "Limits: INI_KEY_MAX 64 bytes (63 chars) and INI_VALUE_MAX 256 (255 chars) in include/ini.h; the line buffer was char line[512] and cut longer lines silently.",
     [r"INI_VALUE_MAX|255|256", r"INI_KEY_MAX|\b63\b|\b64\b"])
fact("value", "must", "make the line buffer 4096 bytes",
     "Line buffer in parse_lines is now 4096 bytes; longer lines are a syntax error.",
     [r"4096"])
# Turn 3
fact("constraint", "must", "reject, never truncate.",
     "Over-long lines/keys/values must be rejected with an error, never truncated.",
     [r"reject|error", r"truncat"])
h = fact("constraint", "must", "don't touch include/ini.h though",
         "Don't touch include/ini.h: the distro package installs it system-wide. Lifted later by the user (ini_errstr allowed, minor bump).",
         [r"ini\.h", r"touch|frozen|unchanged|don.?t|system-wide|distro"], status="reversed")
fact("path", "should", "New test \"over-long value is rejected\"",
     "tests/run.sh: new test 'over-long value is rejected' (300-char value, exit 4, ':2: syntax error').",
     [r"over-long|long value", r"test|reject"])
# Turn 4
fact("request", "should", "segfault: ./iniq tests/data/empty_section.ini core.name",
     "Segfault: ./iniq tests/data/empty_section.ini core.name (exit 139), fixed.",
     [r"empty_section", r"segfault|crash|SEGV|139"], status="done")
e13 = fact("error", "must", "==48213==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000",
           "make check-asan: AddressSanitizer SEGV on unknown address 0x000000000000 in ini_find_key (src/ini.c) via ini_get: test 'get key from empty section' crashed.",
           [r"SEGV|segfault|segmentation", r"ini_find_key|empty.section"], status="fixed")
fact("finding", "should", "`add_section()` leaves `keys` NULL until the first key arrives",
     "Cause: add_section leaves keys NULL until the first key; ini_find_key walked to the empty-name terminator and dereferenced NULL.",
     [r"NULL", r"keys|terminator"])
fact("fix", "should", "Fix: iterate by `nkeys`: because an empty section has no array at all",
     f"Fixes {e13}: ini_find_key iterates by nkeys (an empty section has no array); regression test 'get key from empty section' added; suite clean under ASan+UBSan.",
     [r"nkeys"])
# Turn 5
fact("request", "must", "add --strict: duplicate key in a section is an error, exit 3.",
     "iniq --strict: a duplicate key in a section is an error with exit code 3 (done).",
     [r"strict", r"duplicate"], status="done")
fact("decision", "should", "Duplicate check lives in iniq.c: because ini.h is frozen",
     "Duplicate check lives in iniq.c (ini_foreach over section.key pairs), because ini.h was frozen: no parse flag in libini.",
     [r"iniq\.c|ini_foreach|CLI", r"duplicate"])
e21 = fact("error", "nice", "directive output may be truncated writing up to 63 bytes",
           "make failed on the new check_dup(): '%s' directive output may be truncated [-Werror=format-truncation=].",
           [r"format-truncation|may be truncated"], status="fixed")
fact("fix", "nice", "gcc's `-Wformat-truncation` on the new snprintf needed the result checked too",
     f"Fixes {e21}: check_dup checks snprintf's return value.",
     [r"format-truncation", r"check|result"])
# Turn 6
fact("request", "must", "actually fine, you can add to ini.h.",
     f"Reverses {h}: ini.h may change (distro maintainer OK'd a minor bump); add ini_errstr() so iniq stops printing '(-1)'. Done.",
     [r"ini_errstr"], status="done")
fact("value", "must", "bump to 1.5.0",
     "Version bumped to 1.5.0 (INI_VERSION_MINOR 4 -> 5, Makefile VERSION = 1.5.0).",
     [r"1\.5\.0"])
# Turn 7
fact("request", "should", "make install should honour DESTDIR and PREFIX",
     "make install must honour DESTDIR and PREFIX (done).", [r"DESTDIR", r"PREFIX|install"], status="done")
fact("finding", "nice", "is defined (`?= /usr/local`) but never used",
     "The old install target ignored PREFIX and DESTDIR and hard-coded /usr/local.",
     [r"PREFIX|/usr/local", r"hard-?coded|never used|ignor"])
fact("path", "should", "every install path is `$(DESTDIR)$(PREFIX)/...`",
     "Makefile install target now uses $(DESTDIR)$(PREFIX)/{bin,lib,include}; checked with make install DESTDIR=/tmp/stage PREFIX=/usr.",
     [r"DESTDIR", r"PREFIX"])
# Turn 8
fact("command", "nice", "==51907== Command: ./iniq -l tests/data/big.ini",
     "Leak check: valgrind --leak-check=full --error-exitcode=1 ./iniq -l tests/data/big.ini.",
     [r"valgrind", r"big\.ini|leak-check"])
e29 = fact("error", "should", "==51907==    definitely lost: 61 bytes in 9 blocks",
           "valgrind: definitely lost 61 bytes in 9 blocks: section names from xstrdup in add_section were never freed.",
           [r"definitely lost|leak", r"\b61\b|section name|xstrdup|add_section"], status="fixed")
fact("fix", "should", "`ini_free()` freed each section's keys but never its name",
     f"Fixes {e29}: ini_free frees every section's name; valgrind reports no leaks.",
     [r"ini_free", r"name"])
# Turn 9
fact("request", "must", "a libFuzzer target for ini_parse_string",
     "Open (not now): a libFuzzer target for ini_parse_string.", [r"libfuzzer|fuzz", r"ini_parse_string|target"], status="open")
fact("request", "must", "and an asan job in CI. not now.",
     "Open (not now): a CI job running the ASan suite (make check-asan).", [r"asan|sanitizer", r"\bCI\b|job|workflow"], status="open")
fact("finding", "nice", "nothing documents `--strict` yet",
     "--strict is not documented anywhere yet (no man page or README mention).", [r"strict", r"document|README|man"])
fact("state", "must", "Done in this session (uncommitted):",
     "State: builds with gcc 13 and -Werror; long lines/keys/values rejected; empty-section segfault fixed; --strict (exit 3); ini_errstr and version 1.5.0; install honours DESTDIR/PREFIX; leak fixed; all 15 tests pass (plain, ASan, valgrind).",
     [r"strict", r"DESTDIR|ini_errstr|4096|1\.5\.0"], synthesis=True)
fact("preference", "nice", "commit. short message.",
     "Wants short commit messages.", [r"short", r"commit"])

labels = {
    "title": "iniq: gcc 13 -Werror build, empty-section segfault, --strict, leaks (C + make)",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for this corpus",
    "voice": "terse, lower-case, statements and questions mixed, no pleasantries",
    "toolchain": "make+C (gcc 13 -Werror, ASan/UBSan, valgrind)",
    "compactions": [
        {"at": "==48213==Hint: address points to the zero page.", "keep_recent_tokens": 2500},
        {"at": "/tmp/stage/usr/bin/iniq\n/tmp/stage/usr/include/ini.h", "keep_recent_tokens": 3000},
        {"at": "That's the whole file (about 270 lines).", "keep_recent_tokens": 1500},
    ],
    "facts": F,
}
Path(__file__).with_name("labels.json").write_text(json.dumps(labels, indent=2, ensure_ascii=False) + "\n")
print(len(F), "facts")
