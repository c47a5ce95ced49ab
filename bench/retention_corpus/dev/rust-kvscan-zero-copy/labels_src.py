# ruff: noqa: E501  (transcript text and code listings are kept as they would appear, unwrapped)
"""Writes labels.json (kept as Python so the regexes need no JSON escaping). Labels were written by
hand from reading session.jsonl."""

import json
from pathlib import Path
from typing import Any

F: list[dict[str, Any]] = []


def fact(
    kind: str,
    importance: str,
    source: str,
    text: str,
    probe: list[str],
    status: str | None = None,
    synthesis: bool = False,
) -> None:
    f: dict[str, Any] = {"id": f"f{len(F) + 1:02d}", "kind": kind, "source": source, "importance": importance}
    if status:
        f["status"] = status
    f["text"] = text
    f["probe"] = {"all": probe}
    if synthesis:
        f["synthesis"] = True
    F.append(f)


# Turn 1
fact(
    "constraint",
    "must",
    "no `unsafe` anywhere: this crate is used inside the sandboxed ingestion",
    "No unsafe code anywhere: the crate runs inside the sandboxed ingestion service (lib.rs has #![forbid(unsafe_code)]).",
    [r"unsafe", r"sandbox"],
)
fact(
    "constraint",
    "must",
    "keep the MSRV at 1.70, because our build",
    "MSRV stays 1.70: the build image is pinned to that toolchain this quarter.",
    [r"1\.70", r"msrv|toolchain|rust-version|minimum|pinned"],
)
fact(
    "constraint",
    "must",
    "Please do not change the signature of the public `parse_line` function",
    "Do not change the signature of the public parse_line (ingest-worker calls it ~40 times). Later withdrawn by the user (see the parse_line -> RecordRef decision).",
    [r"parse_line", r"signature"],
    status="reversed",
)
fact(
    "command",
    "nice",
    "They are nightly-only, so it is",
    "Benchmarks are nightly-only libtest benches: cargo +nightly bench --bench parse.",
    [r"cargo \+nightly bench"],
)
fact(
    "request",
    "should",
    "could you run the existing benchmarks so that we have a",
    "Run the existing benchmarks first to get a baseline (done before any change).",
    [r"baseline", r"bench"],
    status="done",
)
fact(
    "finding",
    "nice",
    "ingest-worker has 41 matches",
    "ingest-worker has 41 uses of parse_line/kvscan::Record, some keep Records past the line (batch.rs holds a Vec<Record>).",
    [r"ingest-worker", r"\b41\b"],
)
fact(
    "value",
    "should",
    "test bench_parse_typical     ... bench:       1,284.55 ns/iter",
    "Baseline: bench_parse_typical (owned parse_line) 1,284.55 ns/iter.",
    [r"1,?284(\.55)?", r"typical|baseline|parse_line"],
)
fact(
    "decision",
    "must",
    "Values are `Cow<'a, str>`: borrowed for bare values",
    "Design: RecordRef<'a> holds Vec<(&'a str, Cow<'a, str>)>: keys are plain slices, values are Cow, owned only when a quoted value contains an escape.",
    [r"cow", r"escape"],
)
# Turn 2
fact(
    "preference",
    "should",
    "its own module, `src/borrowed.rs`, with a `parse_line_ref` entry point",
    "Naming: the borrowed type is RecordRef, in its own module src/borrowed.rs, with a parse_line_ref entry point next to parse_line.",
    [r"RecordRef", r"borrowed\.rs"],
)
fact(
    "preference",
    "should",
    "no sweeping reformatting of the existing files",
    "Keep each step small enough to review on a phone; no sweeping reformatting of existing files.",
    [r"reformat", r"small|phone|review"],
)
fact(
    "path",
    "should",
    "`src/borrowed.rs` (new): `RecordRef<'a>`, `RefParser<'a>`, four unit tests.",
    "New file src/borrowed.rs: RecordRef<'a>, its parser RefParser<'a> and four unit tests.",
    [r"borrowed\.rs", r"RefParser"],
)
fact(
    "path",
    "nice",
    "`src/parser.rs`: `Record::from_pairs`",
    "src/parser.rs gained a crate-private Record::from_pairs, used by RecordRef::into_owned.",
    [r"from_pairs"],
)
fact(
    "error",
    "must",
    "error[E0502]: cannot borrow `*self` as mutable because it is also borrowed as immutable",
    "cargo build failed: error[E0502] cannot borrow *self as mutable because it is also borrowed as immutable, in RefParser::bare() in src/borrowed.rs (plus an E0499 in parse()).",
    [r"E0502|cannot borrow", r"bare|borrowed\.rs|rest\(\)"],
    status="fixed",
)
fact(
    "decision",
    "should",
    "to get past E0502 I made `bare()` return an owned `String`",
    "Workaround: bare() returned an owned String to get past E0502; the user rejected it (no allocations in the hot path) and it was replaced.",
    [r"bare", r"String|to_string|allocat|cop(y|ies)"],
    status="reversed",
)
# Turn 3
fact(
    "constraint",
    "must",
    "no allocations in the tokenizer hot path at all",
    "No allocations in the tokenizer hot path (don't paper over borrow errors with to_string()).",
    [r"alloc", r"hot path|tokeni[sz]er|to_string"],
)
fact(
    "fix",
    "should",
    "`rest()` and `bare()` now return `&'a str`",
    "Fixes f13: rest() and bare() return &'a str (tied to the input's lifetime, not &mut self), so bare values are borrowed again.",
    [r"&'a str|lifetime|'a\b", r"bare|rest"],
)
# Turn 4
fact(
    "command",
    "should",
    "(`cargo clippy --all-targets --all-features -- -D warnings`)",
    "CI lint command: cargo clippy --all-targets --all-features -- -D warnings.",
    [r"clippy", r"-D warnings|all-targets"],
)
fact(
    "constraint",
    "should",
    "has to be fixed rather than allowed, unless there is a genuinely good reason",
    "Clippy findings must be fixed, not #[allow]ed, unless there is a genuinely good reason, told to the user first.",
    [r"allow", r"clippy|lint|warning"],
)
fact(
    "error",
    "nice",
    "struct `RecordRef` has a public `len` method, but no `is_empty` method",
    "Clippy (-D warnings) failed: needless_lifetimes on RecordRef::get and len_without_is_empty on RecordRef.",
    [r"is_empty|needless_lifetimes"],
    status="fixed",
)
fact(
    "fix",
    "nice",
    "The two lints (`needless_lifetimes` on `RecordRef::get`",
    "Fixes f19: lifetimes on RecordRef::get elided and RecordRef::is_empty added; clippy clean without #[allow].",
    [r"needless_lifetimes|elid", r"is_empty|len_without"],
)
# Turn 5
fact(
    "request",
    "must",
    "please add an integration test, `tests/agree.rs`",
    "Add tests/agree.rs: parse every line of tests/fixtures/staging-2k.log (2,000 staging lines) with both parsers and assert identical results/errors.",
    [r"agree\.rs|agreement", r"staging-2k|2,?000"],
    status="done",
)
fact(
    "error",
    "should",
    "line 1377: field `path` differs",
    "tests/agree.rs failed: line 1377: field `path` differs (C:tempnew_build.log vs C:\\temp\\new_build.log).",
    [r"1377", r"path|backslash|differ|mismatch"],
    status="fixed",
)
fact(
    "finding",
    "must",
    "treats a backslash as an escape for *any* following character",
    'The old owned parser (Parser::quoted) drops a backslash before ANY character (\\t -> t), mangling Windows paths; fixture lines 1377, 1378, 1998 affected. The new parser only unescaped \\" and \\\\.',
    [r"backslash", r"drop|any (following )?char|windows|mangl"],
)
# Turn 6
fact(
    "decision",
    "must",
    "Let's be bug-compatible for now",
    "User decision: RecordRef is bug-compatible with the old parser (drops the backslash too) so output does not change; the bug is written up in KNOWN_ISSUES.md.",
    [r"bug[- ]?compat|compatib|same (bug|behaviou?r)", r"backslash|KI-1|quoted"],
)
fact(
    "path",
    "should",
    "## KI-1: a backslash in a quoted value is dropped before any character",
    "New KNOWN_ISSUES.md at the crate root documents KI-1 (backslash dropped in quoted values, fixture lines, why it is kept).",
    [r"KNOWN_ISSUES", r"KI-1|backslash"],
)
fact(
    "request",
    "must",
    "We will fix both parsers together in a separate PR",
    "Fix the backslash bug (KI-1) in both parsers in a separate PR, after the dashboards team answers; not started (user: leave it for Monday).",
    [r"backslash|KI-1", r"both parsers|separate PR|later|monday|dashboard"],
    status="open",
)
fact(
    "fix",
    "should",
    "`RefParser::quoted_slow` now drops the backslash before any character",
    "Fixes f22: RefParser::quoted_slow drops the backslash before any character like Parser::quoted; the agreement test passes on all 2,000 lines.",
    [r"quoted_slow|drops? the backslash|bug[- ]?compat", r"agree|pass|2,?000"],
)
# Turn 7
fact(
    "request",
    "should",
    "please add benches for `parse_line_ref` next to the existing ones",
    "Add benches for parse_line_ref next to the existing ones (bench_ref_* twins added to benches/parse.rs).",
    [r"bench", r"parse_line_ref|bench_ref|ref_"],
    status="done",
)
fact(
    "value",
    "should",
    "bench_ref_typical       ... bench:         472.19",
    "Borrowed parser on the typical line: 472.19 ns/iter vs 1,290.16 for the owned one (2.7x).",
    [r"472(\.19)?", r"ns|ref|borrow|typical"],
)
fact(
    "value",
    "nice",
    "| long_quoted | 3,902.77 | 318.50 | 12.3x |",
    "Long quoted value: 3,902.77 -> 318.50 ns/iter (12.3x), the biggest gain.",
    [r"318(\.5)?|12\.3x"],
)
# Turn 8
fact(
    "decision",
    "must",
    "please go ahead and change `parse_line` itself to return `RecordRef<'_>`",
    "Reverses f03: parse_line itself now returns RecordRef<'_>; the owned parser stays available as parse_line_owned.",
    [r"parse_line_owned", r"parse_line\b.{0,80}RecordRef|RecordRef.{0,80}parse_line\b|owned"],
)
fact(
    "value",
    "must",
    "please bump the crate version from 0.4.2 to 0.5.0",
    "Crate version bumped from 0.4.2 to 0.5.0 (breaking change).",
    [r"0\.5\.0"],
)
fact(
    "decision",
    "should",
    "I'm keeping `parse_line_ref` out (it would be a second name for the same function)",
    "parse_line_ref was removed again once parse_line became the borrowed parser (no second name for the same function).",
    [r"parse_line_ref", r"drop|remov|\bout\b|no longer|gone|second name|replac"],
)
fact(
    "error",
    "nice",
    "error[E0425]: cannot find function `parse_line_ref` in crate `kvscan`",
    "After the signature change cargo test failed: E0308 mismatched types in tests/basic.rs, E0425 parse_line_ref not found in tests/agree.rs.",
    [r"E0308|E0425|mismatched types|cannot find function"],
    status="fixed",
)
fact(
    "fix",
    "should",
    "`tests/basic.rs` uses `parse_line_owned` where it annotates `Record`",
    "Fixes f34: tests/basic.rs uses parse_line_owned where it annotates Record; tests/agree.rs compares parse_line_owned with parse_line.",
    [r"basic\.rs|agree\.rs", r"parse_line_owned"],
)
fact(
    "state",
    "must",
    "Done: `parse_line(&str) -> Result<RecordRef<'_>, ParseError>` is now the borrowed parser",
    "State: parse_line -> RecordRef<'_> (src/borrowed.rs, RefParser), parse_line_owned -> Record (src/parser.rs); 0.5.0; agree test green on 2,000 lines with KI-1 kept; clippy clean; MSRV 1.70 declared.",
    [r"parse_line_owned", r"RecordRef"],
    synthesis=True,
)
# Turn 9
fact(
    "command",
    "nice",
    "`cargo +1.70.0 test` should tell us",
    "MSRV check: cargo +1.70.0 test (the 1.70.0 toolchain is installed).",
    [r"\+1\.70(\.0)?"],
)
fact(
    "error",
    "should",
    "error[E0599]: no method named `is_none_or` found for enum `Option`",
    "On Rust 1.70: error[E0599] no method named is_none_or found for enum Option (RefParser::quoted in src/borrowed.rs).",
    [r"is_none_or"],
    status="fixed",
)
fact(
    "fix",
    "should",
    "`Option::is_none_or` was only stabilised in Rust 1.82",
    "Fixes f38: is_none_or (stable only since 1.82) replaced by map_or(true, ...).",
    [r"map_or", r"is_none_or|1\.82"],
)
fact(
    "decision",
    "should",
    "the right fix is to declare the MSRV",
    'Added rust-version = "1.70" to Cargo.toml instead of an #[allow]: clippy\'s MSRV-aware lint stopped suggesting is_none_or.',
    [r"rust-version"],
)
# Turn 10
fact(
    "preference",
    "should",
    "British spelling in prose please",
    "Docs prose in British spelling (behaviour, normalise).",
    [r"british"],
)
fact(
    "request",
    "should",
    "Please add an entry to CHANGELOG.md for 0.5.0",
    "CHANGELOG.md entry for 0.5.0 and a 'Migrating from 0.4' README section (parse_line vs parse_line_owned): done.",
    [r"changelog", r"migrat"],
    status="done",
)

labels = {
    "title": "kvscan: zero-copy RecordRef for a Rust log-line parser",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for this corpus",
    "voice": "long careful paragraphs, constraints in parentheses, polite British English",
    "toolchain": "cargo (build/test/clippy, nightly libtest bench, rustup 1.70.0)",
    "compactions": [
        {"at": "[Showing 40 lines; use offset to read more]", "keep_recent_tokens": 3000},
        {"at": "bench_ref_long_quoted   ... bench:         318.50", "keep_recent_tokens": 4000},
        {
            "at": "Executable benches/parse.rs (target/release/deps/parse-5c1f0e9a7b2d4e13)",
            "keep_recent_tokens": 2000,
        },
    ],
    "facts": F,
}
Path(__file__).with_name("labels.json").write_text(json.dumps(labels, indent=2, ensure_ascii=False) + "\n")
print(len(F), "facts")
