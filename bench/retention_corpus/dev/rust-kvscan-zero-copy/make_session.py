# ruff: noqa: E501  (transcript text and code listings are kept as they would appear, unwrapped)
"""Writes session.jsonl: a pi v3 session (tools read/write/edit/bash) in which an agent adds a
zero-copy parsing path to a small Rust crate. Synthetic, written by hand for the retention corpus.

Run: python make_session.py  (writes session.jsonl next to this file; deterministic)."""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import files as F  # noqa: E402
from pi_writer import PiSession  # noqa: E402

ROOT = "/home/maya/src/kvscan"
s = PiSession(cwd=ROOT, start="2025-06-12T08:41:07", seed=1207)
fs: dict[str, str] = {
    "Cargo.toml": F.CARGO_TOML,
    "src/lib.rs": F.LIB_RS,
    "src/error.rs": F.ERROR_RS,
    "src/parser.rs": F.PARSER_RS,
    "benches/parse.rs": F.BENCH_RS,
    "tests/basic.rs": F.BASIC_RS,
    "CHANGELOG.md": F.CHANGELOG_MD,
    "README.md": F.README_MD,
}


def read(path: str, text: str | None = None) -> None:
    s.step(text, "read", {"path": path}, fs[path])


def write(path: str, content: str, text: str | None = None) -> None:
    fs[path] = content
    s.step(
        text,
        "write",
        {"path": path, "content": content},
        f"Successfully wrote {len(content.encode())} bytes to {path}",
    )


def _diff(old: str, new: str) -> str:
    out = []
    a, b = old.split("\n"), new.split("\n")
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            ctx = list(range(i1, i2))
            if len(ctx) > 4:
                ctx = [*ctx[:2], -1, *ctx[-2:]]
            for k in ctx:
                out.append("     ..." if k < 0 else f"  {k + 1:>3} {a[k]}")
            continue
        out += [f"- {k + 1:>3} {a[k]}" for k in range(i1, i2)]
        out += [f"+ {k + 1:>3} {b[k]}" for k in range(j1, j2)]
    return "\n".join(out)


def edit(path: str, old: str, new: str, text: str | None = None) -> None:
    before = fs[path]
    assert before.count(old) == 1, (path, old)
    fs[path] = before.replace(old, new)
    s.step(
        text,
        "edit",
        {"path": path, "oldText": old, "newText": new},
        f"Successfully replaced text in {path}. Changed {len(old)} characters to {len(new)} characters.",
        details={"diff": _diff(before, fs[path])},
    )


def bash(command: str, output: str, code: int = 0, text: str | None = None) -> None:
    if code:
        output = output + f"\n\nCommand exited with code {code}"
    s.step(text, "bash", {"command": command}, output, is_error=code != 0)


def line_of(path: str, needle: str) -> int:
    for i, ln in enumerate(fs[path].split("\n"), 1):
        if needle in ln:
            return i
    raise KeyError(needle)


def cargo_test(
    unit: list[str],
    integ: dict[str, list[str]],
    doc: list[str],
    version: str = "0.4.2",
    fresh: bool = True,
    toolchain: str = "",
) -> str:
    out = []
    if fresh:
        out.append(f"   Compiling kvscan v{version} ({ROOT})")
    out.append(
        f"    Finished `test` profile [unoptimized + debuginfo] target(s) in {len(unit) * 0.11 + 1.3:.2f}s"
    )
    out.append("     Running unittests src/lib.rs (target/debug/deps/kvscan-3f9b2c1d8e7a6b05)")
    out.append("")
    out.append(f"running {len(unit)} tests")
    out += [f"test {t} ... ok" for t in sorted(unit)]
    out.append("")
    out.append(
        f"test result: ok. {len(unit)} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s"
    )
    out.append("")
    hashes = {"basic": "b81c04e2f7d3a915", "agree": "0d6e2a47c1f9b388"}
    for name, tests in integ.items():
        out.append(f"     Running tests/{name}.rs (target/debug/deps/{name}-{hashes[name]})")
        out.append("")
        out.append(f"running {len(tests)} test" + ("s" if len(tests) != 1 else ""))
        out += [f"test {t} ... ok" for t in sorted(tests)]
        out.append("")
        dur = "0.02s" if name == "agree" else "0.00s"
        out.append(
            f"test result: ok. {len(tests)} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in {dur}"
        )
        out.append("")
    out.append("   Doc-tests kvscan")
    out.append("")
    out.append(f"running {len(doc)} test" + ("s" if len(doc) != 1 else ""))
    out += [f"test {t} ... ok" for t in doc]
    out.append("")
    out.append(
        f"test result: ok. {len(doc)} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.{len(doc) * 17 + 11}s"
    )
    out.append("")
    return "\n".join(out)


PARSER_TESTS = [
    "parser::tests::bad_key_byte",
    "parser::tests::bare_values",
    "parser::tests::empty_value",
    "parser::tests::escaped_quote",
    "parser::tests::missing_equals",
    "parser::tests::quoted_value_with_blanks",
    "parser::tests::repeated_key_first_wins",
    "parser::tests::tabs_separate_fields",
    "parser::tests::unterminated_quote",
    "parser::tests::utf8_in_quoted_value",
    "tests::crlf_is_stripped",
    "tests::empty_line_is_an_empty_record",
]
BASIC_TESTS = [
    "error_display_names_the_offset",
    "iterates_in_line_order",
    "keys_may_hold_dots_and_slashes",
    "parses_a_typical_line",
]
BORROWED_TESTS = [
    "borrowed::tests::bare_values_borrow",
    "borrowed::tests::quoted_with_escape_is_owned",
    "borrowed::tests::quoted_without_escape_borrows",
    "borrowed::tests::unterminated_quote",
]


INGEST_CALLS = (
    "\n".join(
        f"../ingest-worker/src/{f}:{n}:{code}"
        for f, n, code in [
            (
                "pipeline/decode.rs",
                41,
                "        let rec = kvscan::parse_line(&line).map_err(DecodeError::Kv)?;",
            ),
            ("pipeline/decode.rs", 88, "    match kvscan::parse_line(raw) {"),
            ("pipeline/decode.rs", 131, "            let rec = kvscan::parse_line(l)?;"),
            ("pipeline/batch.rs", 22, "use kvscan::{parse_line, Record};"),
            ("pipeline/batch.rs", 57, "        self.pending.push(parse_line(&line)?);"),
            ("pipeline/batch.rs", 103, "    pending: Vec<Record>,"),
            ("pipeline/batch.rs", 164, "            let r = parse_line(line.trim())?;"),
            ("pipeline/route.rs", 19, "    let rec = kvscan::parse_line(line).ok()?;"),
            ("pipeline/route.rs", 48, "    let rec = kvscan::parse_line(line).ok()?;"),
            ("pipeline/route.rs", 77, "        .filter_map(|l| kvscan::parse_line(l).ok())"),
            ("sinks/clickhouse.rs", 66, "        let rec = kvscan::parse_line(&msg.payload)?;"),
            ("sinks/clickhouse.rs", 140, "    fn row(rec: &kvscan::Record) -> Row {"),
            ("sinks/s3.rs", 35, "            let rec = kvscan::parse_line(&line)?;"),
            (
                "sinks/s3.rs",
                91,
                "    let recs: Vec<kvscan::Record> = lines.iter().map(|l| kvscan::parse_line(l)).collect::<Result<_, _>>()?;",
            ),
            (
                "filters/level.rs",
                12,
                '    kvscan::parse_line(line).ok().and_then(|r| r.get("level").map(Level::from))',
            ),
            ("filters/sample.rs", 30, "    let rec = kvscan::parse_line(line).ok()?;"),
            ("filters/redact.rs", 44, "        let rec = kvscan::parse_line(&line)?;"),
            (
                "filters/redact.rs",
                97,
                "            let mut rec = kvscan::parse_line(l)?.iter().map(|(k, v)| (k.to_owned(), v.to_owned())).collect::<Vec<_>>();",
            ),
            ("metrics/extract.rs", 25, "    let rec = kvscan::parse_line(line).ok()?;"),
            ("metrics/extract.rs", 61, "    let rec = kvscan::parse_line(line).ok()?;"),
            ("metrics/extract.rs", 99, "        for rec in lines.map(kvscan::parse_line) {"),
            ("tail/follow.rs", 73, "                    match kvscan::parse_line(&buf) {"),
            ("tail/follow.rs", 118, "        let rec = kvscan::parse_line(&buf)?;"),
            ("replay/dlq.rs", 40, "    let rec = kvscan::parse_line(&entry.line)?;"),
            ("replay/dlq.rs", 82, "        .map(|l| kvscan::parse_line(l))"),
            ("bin/kvcat.rs", 17, "        match kvscan::parse_line(&line) {"),
            ("bin/kvcat.rs", 44, "            let rec = kvscan::parse_line(&line).unwrap_or_default();"),
        ]
    )
    + "\n"
)

# ---------------------------------------------------------------------------------------------
# Turn 1
s.user(
    "Good morning. I'd like to start on the zero-copy work for kvscan that we discussed in the platform sync. "
    "The profile from the ingest-worker staging box shows that roughly 60% of the time in `parse_line` goes to "
    "allocating a `String` for every key and every value, even though almost none of the values in our logs contain "
    "escapes, so the plan is to add a borrowed parsing path that hands out `&str` slices of the input line and only "
    "allocates when a quoted value actually contains an escape sequence.\n\n"
    "A few ground rules before you start (no `unsafe` anywhere: this crate is used inside the sandboxed ingestion "
    "service and we forbid unsafe_code in lib.rs for a reason; please also keep the MSRV at 1.70, because our build "
    "image is pinned to that toolchain and I cannot change it this quarter). Please do not change the signature of the "
    "public `parse_line` function for now (the ingest-worker crate calls it in about forty places and I would rather not "
    "break them in the same change). Before touching anything, could you run the existing benchmarks so that we have a "
    "baseline to compare against? They are nightly-only, so it is `cargo +nightly bench --bench parse`."
)
s.pending_thinking = "The user wants a borrowed parsing path. Constraints: no unsafe (forbid(unsafe_code) in lib.rs), MSRV 1.70, parse_line signature unchanged for now, baseline bench first with cargo +nightly bench --bench parse. Let me read the crate: Cargo.toml, lib.rs, parser.rs, error.rs, the bench. Then cargo test, then the bench."
read(
    "Cargo.toml",
    "I'll get oriented in the crate first, then run the tests and the baseline benchmark before changing anything.",
)
read("src/lib.rs")
read("src/parser.rs")
read("src/error.rs")
read("benches/parse.rs")
read("README.md")
bash(
    "git log --oneline -n 12 && cargo tree --depth 1",
    "3b07d52 fix: accept '/' in keys (k8s labels)\n"
    "a81f2e0 chore: release 0.4.2\n"
    "5d3c9b7 bench: add long_quoted and many_fields inputs\n"
    "0e6b1f4 perf: scan bare values with memchr\n"
    "c47a2d9 chore: release 0.4.1\n"
    "9b1e03a docs: explain the sandbox unsafe policy in README\n"
    "7f20cc5 feat: Record::iter in line order\n"
    "2d8e4a1 feat!: keep repeated keys, get returns the first\n"
    "e5a0b93 chore: release 0.4.0\n"
    "61c9f4e test: error Display wording\n"
    "40ab7d2 ci: clippy with -D warnings on all targets\n"
    "18f7c6e chore: MSRV 1.70 in CI matrix\n"
    f"kvscan v0.4.2 ({ROOT})\n"
    "├── memchr v2.7.4\n"
    "[dev-dependencies]\n"
    "└── pretty_assertions v1.4.1\n",
)
bash(
    "grep -rn 'parse_line\\|kvscan::Record' ../ingest-worker/src | wc -l; grep -rn 'parse_line\\|kvscan::Record' ../ingest-worker/src | head -n 30",
    "41\n" + INGEST_CALLS,
    text="Checking how ingest-worker uses the API, since that is what must not break:",
)
bash(
    "cargo test 2>&1 | tail -n 40",
    cargo_test(PARSER_TESTS, {"basic": BASIC_TESTS}, ["src/lib.rs - (line 4)"]),
    text="The owned parser allocates a `String` for every key (`self.key()?.to_string()`) and every bare value, and builds quoted values char by char. ingest-worker has 41 matches, several of which store `Record`s past the line (`batch.rs` keeps a `Vec<Record>`), so keeping `parse_line` as is makes sense. Running the existing tests first:",
)
bash(
    "cargo +nightly bench --bench parse 2>&1",
    "   Compiling memchr v2.7.4\n"
    f"   Compiling kvscan v0.4.2 ({ROOT})\n"
    "    Finished `bench` profile [optimized] target(s) in 7.92s\n"
    "     Running benches/parse.rs (target/release/deps/parse-5c1f0e9a7b2d4e13)\n\n"
    "running 4 tests\n"
    "test bench_parse_long_quoted ... bench:       3,917.42 ns/iter (+/- 88.10)\n"
    "test bench_parse_many_fields ... bench:       2,650.18 ns/iter (+/- 61.77)\n"
    "test bench_parse_short       ... bench:         231.06 ns/iter (+/- 4.12)\n"
    "test bench_parse_typical     ... bench:       1,284.55 ns/iter (+/- 41.03)\n\n"
    "test result: ok. 0 passed; 0 failed; 0 ignored; 4 measured; 0 filtered out; finished in 11.34s\n",
    text="All 17 tests pass (12 unit, 4 integration, 1 doc test). Now the baseline:",
)
s.assistant(
    "Baseline recorded (nightly libtest bencher, owned `parse_line`):\n\n"
    "| bench | ns/iter |\n|---|---|\n| short | 231.06 |\n| typical | 1,284.55 |\n| many_fields | 2,650.18 |\n| long_quoted | 3,917.42 |\n\n"
    "Proposed design for the borrowed path:\n\n"
    "- A new `RecordRef<'a>` that stores `Vec<(&'a str, Cow<'a, str>)>`. Keys are always plain slices (they cannot contain "
    "escapes, the key scanner only admits `[A-Za-z0-9_.-/]`). Values are `Cow<'a, str>`: borrowed for bare values and for "
    "quoted values without a backslash, owned only when an escape had to be resolved. That keeps the common case "
    "allocation-free except for the one `Vec` of fields.\n"
    "- A second parser struct over the same grammar that returns slices tied to the input's lifetime.\n"
    "- `RecordRef::into_owned()` to get today's `Record` back, so the owned API can later be expressed through the "
    "borrowed one.\n"
    "- `parse_line` keeps its current signature, as you asked; the new entry point is additive.\n\n"
    "No `unsafe` is needed for any of this: `memchr` already gives us the fast scanning, and slicing a `&str` at the byte "
    "offsets of ASCII delimiters is always on a char boundary. Shall I go ahead?"
)

# ---------------------------------------------------------------------------------------------
# Turn 2
s.user(
    "That plan sounds right to me, and I agree with using `Cow<'a, str>` for the values (keys can never contain escapes, so "
    "plain `&'a str` is enough there). On naming, I would prefer the borrowed type to be called `RecordRef` and to live in "
    "its own module, `src/borrowed.rs`, with a `parse_line_ref` entry point next to `parse_line` in lib.rs (a small thing, "
    "but I like the owned and borrowed halves to be easy to find in the file tree). Please also keep each step small enough "
    "that I can review the diff on my phone (I am travelling today), so no sweeping reformatting of the existing files."
)

BORROWED_HEAD = r"""//! The borrowed half of the crate: [`RecordRef`] hands out slices of the input line and only
//! allocates when a quoted value contains an escape.

use std::borrow::Cow;
use std::fmt;

use crate::error::ParseError;
use crate::parser::Record;

/// One parsed line, borrowing from it. Keys are slices of the line; a value is a slice too
/// unless it was quoted and held an escape, in which case it is owned.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordRef<'a> {
    fields: Vec<(&'a str, Cow<'a, str>)>,
}

impl<'a> RecordRef<'a> {
    /// The value of the first field named `key`.
    pub fn get<'b>(&'b self, key: &str) -> Option<&'b str> {
        self.fields.iter().find(|(k, _)| *k == key).map(|(_, v)| v.as_ref())
    }

    /// Number of fields (repeated keys counted each time).
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// The fields in line order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.fields.iter().map(|(k, v)| (*k, v.as_ref()))
    }

    /// An owned copy that no longer borrows the line.
    pub fn into_owned(self) -> Record {
        Record::from_pairs(
            self.fields
                .into_iter()
                .map(|(k, v)| (k.to_owned(), v.into_owned())),
        )
    }
}

pub(crate) struct RefParser<'a> {
    input: &'a str,
    pos: usize,
}

impl<'a> RefParser<'a> {
    pub(crate) fn new(input: &'a str) -> Self {
        RefParser { input, pos: 0 }
    }

    pub(crate) fn parse(mut self) -> Result<RecordRef<'a>, ParseError> {
        let mut fields = Vec::with_capacity(8);
        loop {
            self.skip_blanks();
            if self.pos >= self.input.len() {
                break;
            }
            let key = self.key()?;
            self.expect_equals()?;
            let value = if self.peek() == Some(b'"') {
                self.quoted()?
            } else {
                Cow::Borrowed(self.bare())
            };
            fields.push((key, value));
        }
        Ok(RecordRef { fields })
    }

    fn rest(&self) -> &str {
        &self.input[self.pos..]
    }

    fn advance(&mut self, n: usize) {
        self.pos += n;
    }

    fn peek(&self) -> Option<u8> {
        self.input.as_bytes().get(self.pos).copied()
    }

    fn skip_blanks(&mut self) {
        while self.peek().is_some_and(|b| b == b' ' || b == b'\t') {
            self.pos += 1;
        }
    }

    fn key(&mut self) -> Result<&'a str, ParseError> {
        let start = self.pos;
        while let Some(b) = self.peek() {
            if b == b'=' || b == b' ' || b == b'\t' {
                break;
            }
            if !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b'/')) {
                return Err(ParseError::BadKeyByte { at: self.pos, byte: b });
            }
            self.pos += 1;
        }
        if start == self.pos {
            return Err(ParseError::EmptyKey { at: start });
        }
        Ok(&self.input[start..self.pos])
    }

    fn expect_equals(&mut self) -> Result<(), ParseError> {
        if self.peek() == Some(b'=') {
            self.pos += 1;
            Ok(())
        } else {
            Err(ParseError::MissingEquals { at: self.pos })
        }
    }
"""

BARE_BAD = r"""
    fn bare(&mut self) -> &str {
        let rest = self.rest();
        let end = memchr::memchr2(b' ', b'\t', rest.as_bytes()).unwrap_or(rest.len());
        self.advance(end);
        &rest[..end]
    }
"""

QUOTED_FIRST = r"""
    /// A double-quoted value: borrowed when there is no backslash before the closing quote,
    /// owned otherwise. Only `\"` and `\\` are escapes; any other backslash is kept.
    fn quoted(&mut self) -> Result<Cow<'a, str>, ParseError> {
        let open = self.pos;
        let body = &self.input[open + 1..];
        let close = memchr::memchr(b'"', body.as_bytes());
        let first_escape = memchr::memchr(b'\\', body.as_bytes());
        if let Some(close) = close {
            if first_escape.is_none_or(|e| e > close) {
                self.pos = open + 1 + close + 1;
                return Ok(Cow::Borrowed(&body[..close]));
            }
            return self.quoted_slow(open);
        }
        Err(ParseError::UnterminatedQuote { at: open })
    }

    fn quoted_slow(&mut self, open: usize) -> Result<Cow<'a, str>, ParseError> {
        let body = &self.input[open + 1..];
        let mut out = String::with_capacity(body.len().min(256));
        let mut chars = body.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos = open + 1 + i + 1;
                    return Ok(Cow::Owned(out));
                }
                '\\' => match chars.peek() {
                    Some(&(_, e @ ('"' | '\\'))) => {
                        out.push(e);
                        chars.next();
                    }
                    _ => out.push('\\'),
                },
                c => out.push(c),
            }
        }
        Err(ParseError::UnterminatedQuote { at: open })
    }
}
"""

BORROWED_TESTS_SRC = r"""
#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> RecordRef<'_> {
        RefParser::new(s).parse().unwrap()
    }

    #[test]
    fn bare_values_borrow() {
        let r = parse("a=1 b=two");
        assert!(matches!(r.fields[1].1, Cow::Borrowed("two")));
    }

    #[test]
    fn quoted_without_escape_borrows() {
        let r = parse(r#"msg="hello world" x=1"#);
        assert!(matches!(r.fields[0].1, Cow::Borrowed("hello world")));
    }

    #[test]
    fn quoted_with_escape_is_owned() {
        let r = parse(r#"msg="say \"hi\"""#);
        assert_eq!(r.get("msg"), Some(r#"say "hi""#));
        assert!(matches!(r.fields[0].1, Cow::Owned(_)));
    }

    #[test]
    fn unterminated_quote() {
        let err = RefParser::new(r#"a="oops"#).parse().unwrap_err();
        assert_eq!(err, ParseError::UnterminatedQuote { at: 2 });
    }
}
"""

s.pending_thinking = "Module src/borrowed.rs, type RecordRef<'a>, fn parse_line_ref in lib.rs. Grammar must match parser.rs exactly: keys [A-Za-z0-9_.-/], blanks are space and tab, quoted values with backslash escapes. For quoted values: fast path if no backslash before the closing quote -> Cow::Borrowed, else slow path building a String. I'll write the parser with small helpers rest()/advance() to keep it readable. Note into_owned needs a constructor on Record; add a crate-private from_pairs."
write(
    "src/borrowed.rs",
    BORROWED_HEAD + BARE_BAD + QUOTED_FIRST + BORROWED_TESTS_SRC,
    text="Writing `src/borrowed.rs` with `RecordRef<'a>` and its parser, keeping the grammar identical to `parser.rs`.",
)
edit(
    "src/parser.rs",
    "    /// The fields in line order.\n    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {\n        self.fields.iter().map(|(k, v)| (k.as_str(), v.as_str()))\n    }\n}",
    "    /// The fields in line order.\n    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {\n        self.fields.iter().map(|(k, v)| (k.as_str(), v.as_str()))\n    }\n\n"
    "    pub(crate) fn from_pairs(fields: impl Iterator<Item = (String, String)>) -> Self {\n        Record {\n            fields: fields.collect(),\n        }\n    }\n}",
    text="`into_owned` needs a crate-private constructor on `Record`; a four-line addition:",
)
edit(
    "src/lib.rs",
    "mod error;\nmod parser;\n\npub use error::ParseError;\npub use parser::Record;\n",
    "mod borrowed;\nmod error;\nmod parser;\n\npub use borrowed::RecordRef;\npub use error::ParseError;\npub use parser::Record;\n",
)
edit(
    "src/lib.rs",
    "    parser::Parser::new(line.trim_end_matches(['\\n', '\\r'])).parse()\n}\n",
    "    parser::Parser::new(line.trim_end_matches(['\\n', '\\r'])).parse()\n}\n\n"
    "/// Parse one log line into a [`RecordRef`] that borrows from `line`: no allocation except\n"
    "/// the field list, unless a quoted value holds an escape.\n"
    "///\n"
    "/// ```\n"
    '/// let rec = kvscan::parse_line_ref("level=warn uid=7").unwrap();\n'
    '/// assert_eq!(rec.get("uid"), Some("7"));\n'
    "/// ```\n"
    "pub fn parse_line_ref(line: &str) -> Result<RecordRef<'_>, ParseError> {\n"
    "    borrowed::RefParser::new(line.trim_end_matches(['\\n', '\\r'])).parse()\n"
    "}\n",
)
L_adv = line_of("src/borrowed.rs", "self.advance(end);")
L_fn = line_of("src/borrowed.rs", "fn bare(&mut self) -> &str {")
L_skip = line_of("src/borrowed.rs", "            self.skip_blanks();")
L_cow = line_of("src/borrowed.rs", "Cow::Borrowed(self.bare())")
L_push = line_of("src/borrowed.rs", "fields.push((key, value));")
bash(
    "cargo build 2>&1",
    f"   Compiling kvscan v0.4.2 ({ROOT})\n"
    "warning: unused import: `std::fmt`\n"
    " --> src/borrowed.rs:5:5\n"
    "  |\n"
    "5 | use std::fmt;\n"
    "  |     ^^^^^^^^\n"
    "  |\n"
    "  = note: `#[warn(unused_imports)]` on by default\n\n"
    "error[E0502]: cannot borrow `*self` as mutable because it is also borrowed as immutable\n"
    f"   --> src/borrowed.rs:{L_adv}:9\n"
    "    |\n"
    f"{L_fn:<3} |     fn bare(&mut self) -> &str {{\n"
    "    |             - let's call the lifetime of this reference `'1`\n"
    f"{L_fn + 1:<3} |         let rest = self.rest();\n"
    "    |                    ---- immutable borrow occurs here\n"
    f"{L_fn + 2:<3} |         let end = memchr::memchr2(b' ', b'\\t', rest.as_bytes()).unwrap_or(rest.len());\n"
    f"{L_adv:<3} |         self.advance(end);\n"
    "    |         ^^^^^^^^^^^^^^^^^ mutable borrow occurs here\n"
    f"{L_adv + 1:<3} |         &rest[..end]\n"
    "    |         ------------ returning this value requires that `*self` is borrowed for `'1`\n\n"
    "error[E0499]: cannot borrow `self` as mutable more than once at a time\n"
    f"  --> src/borrowed.rs:{L_skip}:13\n"
    "   |\n"
    f"{L_skip:<2} |             self.skip_blanks();\n"
    "   |             ^^^^ second mutable borrow occurs here\n"
    "...\n"
    f"{L_cow:<2} |                 Cow::Borrowed(self.bare())\n"
    "   |                               ---- first mutable borrow occurs here\n"
    f"{L_cow + 1:<2} |             }};\n"
    f"{L_push:<2} |             fields.push((key, value));\n"
    "   |             ------ first borrow later used here\n\n"
    "Some errors have detailed explanations: E0499, E0502.\n"
    "For more information about an error, try `rustc --explain E0499`.\n"
    "warning: `kvscan` (lib) generated 1 warning\n"
    "error: could not compile `kvscan` (lib) due to 2 previous errors; 1 warning emitted\n",
    code=101,
)
BARE_ALLOC = r"""
    fn bare(&mut self) -> String {
        let rest = self.rest();
        let end = memchr::memchr2(b' ', b'\t', rest.as_bytes()).unwrap_or(rest.len());
        let value = rest[..end].to_string();
        self.advance(end);
        value
    }
"""
s.pending_thinking = "E0502 in bare(): rest() returns &str tied to &self, so rest borrows *self while advance() needs &mut. The E0499 in parse() follows from bare() returning a borrow of self. Quick fix: copy the slice into a String before advancing. That allocates per bare value though... it unblocks the build; mention the caveat to the user."
edit(
    "src/borrowed.rs",
    BARE_BAD,
    BARE_ALLOC,
    text="The borrow checker rejects `bare()`: the slice `rest` borrows `*self`, and `advance()` needs `*self` mutably while that "
    "slice is still returned; the E0499 in `parse()` is the same borrow seen from the caller. The quickest way to unblock the "
    "build is to copy the value out before advancing:",
)
edit(
    "src/borrowed.rs", "                Cow::Borrowed(self.bare())", "                Cow::Owned(self.bare())"
)
bash(
    "cargo build 2>&1",
    f"   Compiling kvscan v0.4.2 ({ROOT})\n"
    "warning: unused import: `std::fmt`\n"
    " --> src/borrowed.rs:5:5\n"
    "  |\n"
    "5 | use std::fmt;\n"
    "  |     ^^^^^^^^\n"
    "  |\n"
    "  = note: `#[warn(unused_imports)]` on by default\n\n"
    "warning: `kvscan` (lib) generated 1 warning (run `cargo fix --lib -p kvscan` to remove 1 suggestion)\n"
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.84s\n",
)
s.assistant(
    "It builds now (one leftover warning for an unused `std::fmt` import). What changed:\n\n"
    "- `src/borrowed.rs` (new): `RecordRef<'a>`, `RefParser<'a>`, four unit tests.\n"
    "- `src/parser.rs`: `Record::from_pairs` (crate-private) for `into_owned`.\n"
    "- `src/lib.rs`: `mod borrowed`, `pub use borrowed::RecordRef`, and `parse_line_ref` with a doc example.\n\n"
    "Caveat: to get past E0502 I made `bare()` return an owned `String`, so bare values are currently copied. Quoted values "
    "without escapes are still borrowed."
)

# ---------------------------------------------------------------------------------------------
# Turn 3
s.user(
    "Please don't paper over the borrow error with `to_string()` (no allocations in the tokenizer hot path at all, that is "
    "the whole point of the exercise, and an allocation per bare value would put us right back where we started). I believe "
    "the usual answer is to tie the returned slice to the input's lifetime `'a` rather than to `&mut self`, since `input` is "
    "itself a `&'a str`; could you try that?"
)
s.step(
    "Right, that is the proper fix: `input` is a `&'a str`, so a slice of it can carry `'a` and outlive the `&mut self` borrow. Looking at the helpers again:",
    "read",
    {"path": "src/borrowed.rs", "offset": line_of("src/borrowed.rs", "fn rest(&self)") - 2, "limit": 40},
    "\n".join(
        fs["src/borrowed.rs"].split("\n")[
            line_of("src/borrowed.rs", "fn rest(&self)") - 3 : line_of("src/borrowed.rs", "fn rest(&self)")
            + 37
        ]
    )
    + "\n\n[Showing 40 lines; use offset to read more]",
)
edit(
    "src/borrowed.rs",
    "    fn rest(&self) -> &str {\n        &self.input[self.pos..]\n    }",
    "    /// The unread part of the line. Tied to `'a`, not to `&self`: `input` is a `&'a str`, so\n"
    "    /// the slice stays valid while the parser moves on (this is what lets `bare` return a\n"
    "    /// borrowed value without holding `self`).\n"
    "    fn rest(&self) -> &'a str {\n        &self.input[self.pos..]\n    }",
)
BARE_GOOD = r"""
    fn bare(&mut self) -> &'a str {
        let rest = self.rest();
        let end = memchr::memchr2(b' ', b'\t', rest.as_bytes()).unwrap_or(rest.len());
        self.advance(end);
        &rest[..end]
    }
"""
edit("src/borrowed.rs", BARE_ALLOC, BARE_GOOD)
edit(
    "src/borrowed.rs", "                Cow::Owned(self.bare())", "                Cow::Borrowed(self.bare())"
)
edit("src/borrowed.rs", "use std::borrow::Cow;\nuse std::fmt;\n", "use std::borrow::Cow;\n")
bash(
    "cargo build 2>&1 && cargo test 2>&1 | tail -n 45",
    f"   Compiling kvscan v0.4.2 ({ROOT})\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.71s\n"
    + cargo_test(
        PARSER_TESTS + BORROWED_TESTS,
        {"basic": BASIC_TESTS},
        ["src/lib.rs - (line 4)", "src/lib.rs - parse_line_ref (line 34)"],
        fresh=False,
    ),
)
s.assistant(
    "Done, and no allocation is left in the tokenizer: `rest()` and `bare()` now return `&'a str`, so the E0502 (and the E0499 "
    "in `parse()`, which was the same borrow) are gone, and `bare_values_borrow` confirms bare values come back as "
    "`Cow::Borrowed`. I also dropped the unused `std::fmt` import. The build is warning-free and all 22 tests pass (16 unit, "
    "4 integration in `tests/basic.rs`, 2 doc tests: the crate example and the new `parse_line_ref` example)."
)

# ---------------------------------------------------------------------------------------------
# Turn 4
s.user(
    "Thank you, that is much better. Next, could you run clippy exactly the way CI runs it "
    "(`cargo clippy --all-targets --all-features -- -D warnings`)? CI treats every warning as an error, so anything it flags "
    "has to be fixed rather than allowed, unless there is a genuinely good reason (in which case tell me the reason before "
    "adding an `#[allow]`)."
)
L_get = line_of("src/borrowed.rs", "pub fn get<'b>")
L_len = line_of("src/borrowed.rs", "pub fn len(&self)")
bash(
    "cargo clippy --all-targets --all-features -- -D warnings 2>&1",
    "    Checking memchr v2.7.4\n"
    "    Checking diff v0.1.13\n"
    "    Checking yansi v1.0.1\n"
    "    Checking pretty_assertions v1.4.1\n"
    f"    Checking kvscan v0.4.2 ({ROOT})\n"
    "error: the following explicit lifetimes could be elided: 'b\n"
    f"  --> src/borrowed.rs:{L_get}:16\n"
    "   |\n"
    f"{L_get} |     pub fn get<'b>(&'b self, key: &str) -> Option<&'b str> {{\n"
    "   |                ^^   ^^                          ^^\n"
    "   |\n"
    "   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#needless_lifetimes\n"
    "   = note: `-D clippy::needless-lifetimes` implied by `-D warnings`\n"
    "   = help: to override `-D warnings` add `#[allow(clippy::needless_lifetimes)]`\n"
    "help: elide the lifetimes\n"
    "   |\n"
    f"{L_get} -     pub fn get<'b>(&'b self, key: &str) -> Option<&'b str> {{\n"
    f"{L_get} +     pub fn get(&self, key: &str) -> Option<&str> {{\n"
    "   |\n\n"
    "error: struct `RecordRef` has a public `len` method, but no `is_empty` method\n"
    f"  --> src/borrowed.rs:{L_len}:5\n"
    "   |\n"
    f"{L_len} |     pub fn len(&self) -> usize {{\n"
    "   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "   |\n"
    "   = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#len_without_is_empty\n"
    "   = note: `-D clippy::len-without-is-empty` implied by `-D warnings`\n"
    "   = help: to override `-D warnings` add `#[allow(clippy::len_without_is_empty)]`\n\n"
    "error: could not compile `kvscan` (lib) due to 2 previous errors\n"
    "warning: build failed, waiting for other jobs to finish...\n"
    "error: could not compile `kvscan` (lib test) due to 2 previous errors\n",
    code=101,
)
edit(
    "src/borrowed.rs",
    "    pub fn get<'b>(&'b self, key: &str) -> Option<&'b str> {",
    "    pub fn get(&self, key: &str) -> Option<&str> {",
    text="Two genuine findings, both easy to fix properly, so no `#[allow]` needed: elide the lifetimes on `get`, and add `is_empty` next to `len` (as `Record` has).",
)
edit(
    "src/borrowed.rs",
    "    pub fn len(&self) -> usize {\n        self.fields.len()\n    }\n",
    "    pub fn len(&self) -> usize {\n        self.fields.len()\n    }\n\n    /// True when the line had no fields.\n    pub fn is_empty(&self) -> bool {\n        self.fields.is_empty()\n    }\n",
)
bash(
    "cargo clippy --all-targets --all-features -- -D warnings 2>&1",
    f"    Checking kvscan v0.4.2 ({ROOT})\n    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.93s\n",
)
s.assistant(
    "Clippy is clean with CI's flags. The two lints (`needless_lifetimes` on `RecordRef::get`, `len_without_is_empty` on `RecordRef`) were fixed in the code, no `#[allow]` added."
)

# ---------------------------------------------------------------------------------------------
# Turn 5
s.user(
    "Good. Now the part I care about most: I would like a test that proves the two parsers agree. There is a file of real "
    "log lines in `tests/fixtures/staging-2k.log` (2,000 lines captured from the staging ingest box, already scrubbed of "
    "customer data); please add an integration test, `tests/agree.rs`, that parses every line with both `parse_line` and "
    "`parse_line_ref` and asserts that the results are identical, field by field (and that both fail on the same lines, if "
    "any fail)."
)
bash(
    "wc -l tests/fixtures/staging-2k.log && head -n 3 tests/fixtures/staging-2k.log && grep -c '\\\\' tests/fixtures/staging-2k.log",
    "2000 tests/fixtures/staging-2k.log\n"
    'ts=2025-05-28T06:00:00.412Z level=info svc=ingest-worker host=ing-03 msg="batch flushed" rows=980 bytes=401233 dur_ms=31\n'
    'ts=2025-05-28T06:00:00.590Z level=debug svc=ingest-worker host=ing-03 msg="lease renewed" lease=shard-14 ttl_s=30\n'
    'ts=2025-05-28T06:00:01.007Z level=info svc=api host=api-11 msg="GET /v1/events 200" dur_ms=8 uid=88123\n'
    "9\n",
)
AGREE_RS = r"""//! The borrowed and owned parsers must agree on every line of real traffic.
use kvscan::{parse_line, parse_line_ref};
use pretty_assertions::assert_eq;

const SAMPLE: &str = include_str!("fixtures/staging-2k.log");

#[test]
fn both_parsers_agree_on_staging_sample() {
    let mut checked = 0;
    for (n, line) in SAMPLE.lines().enumerate() {
        let n = n + 1;
        match (parse_line(line), parse_line_ref(line)) {
            (Ok(owned), Ok(borrowed)) => {
                assert_eq!(owned.len(), borrowed.len(), "line {n}: field count differs");
                for ((ko, vo), (kb, vb)) in owned.iter().zip(borrowed.iter()) {
                    assert_eq!(ko, kb, "line {n}: key differs");
                    assert_eq!(vo, vb, "line {n}: field `{ko}` differs");
                }
            }
            (Err(eo), Err(eb)) => assert_eq!(eo, eb, "line {n}: errors differ"),
            (o, b) => panic!("line {n}: owned gave {o:?}, borrowed gave {b:?}"),
        }
        checked += 1;
    }
    assert_eq!(checked, 2000);
}
"""
read("src/borrowed.rs")
write(
    "tests/agree.rs",
    AGREE_RS,
    text="Nine lines contain a backslash, which is exactly where the two parsers could differ. Writing the agreement test:",
)
bash(
    "cargo test --test agree 2>&1",
    f"   Compiling kvscan v0.4.2 ({ROOT})\n"
    "    Finished `test` profile [unoptimized + debuginfo] target(s) in 2.06s\n"
    "     Running tests/agree.rs (target/debug/deps/agree-0d6e2a47c1f9b388)\n\n"
    "running 1 test\n"
    "test both_parsers_agree_on_staging_sample ... FAILED\n\n"
    "failures:\n\n"
    "---- both_parsers_agree_on_staging_sample stdout ----\n\n"
    "thread 'both_parsers_agree_on_staging_sample' panicked at tests/agree.rs:18:21:\n"
    "assertion failed: `(left == right)`: line 1377: field `path` differs\n\n"
    "Diff < left / right > :\n"
    "<C:tempnew_build.log\n"
    ">C:\\temp\\new_build.log\n\n"
    "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n\n"
    "failures:\n"
    "    both_parsers_agree_on_staging_sample\n\n"
    "test result: FAILED. 0 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n\n"
    "error: test failed, to rerun pass `--test agree`\n",
    code=101,
)
s.pending_thinking = "Line 1377 field path: owned gives C:tempnew_build.log, borrowed gives C:\\\\temp\\\\new_build.log. The owned parser's quoted() pushes whatever char follows a backslash and drops the backslash itself, so \\\\t -> t and \\\\n -> n. My slow path only unescapes \\\\\" and \\\\\\\\. Which lines contain backslashes? Let me look at all of them."
bash(
    "sed -n '1377p' tests/fixtures/staging-2k.log; grep -n '\\\\' tests/fixtures/staging-2k.log | cut -c1-160",
    'ts=2025-05-28T06:41:19.230Z level=warn svc=desktop-agent host=win-qa-02 msg="upload retried" path="C:\\temp\\new_build.log" attempt=2\n'
    '212:ts=2025-05-28T06:07:44.101Z level=info svc=api host=api-02 msg="user said \\"hello\\"" uid=4411\n'
    '655:ts=2025-05-28T06:20:03.883Z level=info svc=api host=api-07 msg="query \\"status:open\\" returned 12" uid=90\n'
    '1377:ts=2025-05-28T06:41:19.230Z level=warn svc=desktop-agent host=win-qa-02 msg="upload retried" path="C:\\temp\\new_build.log" attempt=2\n'
    '1378:ts=2025-05-28T06:41:21.002Z level=warn svc=desktop-agent host=win-qa-02 msg="upload retried" path="C:\\temp\\new_build.log" attempt=3\n'
    '1502:ts=2025-05-28T06:45:50.774Z level=error svc=api host=api-01 msg="bad json: unexpected \\"}\\"" uid=17\n'
    '1503:ts=2025-05-28T06:45:50.775Z level=error svc=api host=api-01 msg="bad json: unexpected \\"}\\"" uid=17\n'
    '1711:ts=2025-05-28T06:52:12.447Z level=info svc=api host=api-09 msg="path \\\\\\\\srv\\\\share ok" uid=3\n'
    '1903:ts=2025-05-28T06:58:09.010Z level=info svc=api host=api-04 msg="say \\"bye\\"" uid=4411\n'
    '1998:ts=2025-05-28T06:59:58.600Z level=warn svc=desktop-agent host=win-qa-05 msg="retry" path="D:\\logs\\a.txt" attempt=1\n',
)
s.assistant(
    "Found the disagreement, and it is in the **old** parser. `Parser::quoted` in `src/parser.rs` treats a backslash as an "
    "escape for *any* following character and drops the backslash, so `\\t` becomes `t` and `\\n` becomes `n`: the Windows "
    "path `C:\\temp\\new_build.log` on line 1377 comes out as `C:tempnew_build.log`. The new `RecordRef` parser only treats "
    '`\\"` and `\\\\` as escapes and keeps every other backslash, which gives the path as written.\n\n'
    "Lines 1377, 1378 and 1998 (the desktop agent's Windows paths) are affected; the other six backslash lines only use "
    '`\\"` or `\\\\` and agree.\n\n'
    "Two ways forward: (a) make `RecordRef` bug-compatible (drop the backslash like the old parser), so the test passes and "
    "output is unchanged; or (b) fix the old parser, which changes values downstream consumers already see. Which do you "
    "prefer?"
)

# ---------------------------------------------------------------------------------------------
# Turn 6
s.user(
    "Interesting, and slightly embarrassing: the old behaviour is clearly a bug (Windows paths from the desktop agent get "
    "mangled), but fixing it changes output that the downstream dashboards already depend on. Let's be bug-compatible for "
    "now (make `RecordRef` drop the backslash exactly as the old parser does, so that the agreement test passes), and write "
    "the bug up in `KNOWN_ISSUES.md` at the crate root so that we don't forget it. We will fix both parsers together in a "
    "separate PR once I have talked to the dashboards team."
)
s.step(
    "Making the borrowed parser copy the old behaviour. Checking the old `quoted()` once more so the two match exactly:",
    "bash",
    {"command": "grep -n -A 24 'fn quoted' src/parser.rs"},
    "\n".join(
        f"{i}{':' if i == line_of('src/parser.rs', 'fn quoted') else '-'}{ln}"
        for i, ln in enumerate(
            fs["src/parser.rs"].split("\n")[
                line_of("src/parser.rs", "fn quoted") - 1 : line_of("src/parser.rs", "fn quoted") + 23
            ],
            line_of("src/parser.rs", "fn quoted"),
        )
    )
    + "\n",
)
edit(
    "src/borrowed.rs",
    "    /// A double-quoted value: borrowed when there is no backslash before the closing quote,\n"
    '    /// owned otherwise. Only `\\"` and `\\\\` are escapes; any other backslash is kept.',
    "    /// A double-quoted value: borrowed when there is no backslash before the closing quote,\n"
    "    /// owned otherwise. Bug-compatible with `Parser::quoted`: a backslash escapes ANY next\n"
    "    /// character and is dropped (`\\t` gives `t`); see KNOWN_ISSUES.md, KI-1.",
)
edit(
    "src/borrowed.rs",
    "                '\\\\' => match chars.peek() {\n"
    "                    Some(&(_, e @ ('\"' | '\\\\'))) => {\n"
    "                        out.push(e);\n"
    "                        chars.next();\n"
    "                    }\n"
    "                    _ => out.push('\\\\'),\n"
    "                },",
    "                '\\\\' => match chars.next() {\n"
    "                    Some((_, escaped)) => out.push(escaped),\n"
    "                    None => break,\n"
    "                },",
)
KNOWN = """# Known issues

## KI-1: a backslash in a quoted value is dropped before any character

Both parsers (`parse_line` and `parse_line_ref`) treat `\\` inside a quoted value as an escape
for whatever character follows and drop the backslash. Only `\\"` and `\\\\` are meant to be
escapes, so Windows paths from the desktop agent are mangled:

    path="C:\\temp\\new_build.log"   ->   C:tempnew_build.log

Found by `tests/agree.rs` on `tests/fixtures/staging-2k.log` (lines 1377, 1378, 1998).
The borrowed parser copies the bug on purpose so that both parsers agree and downstream output
does not change. Fix both together in a separate PR, after checking with the dashboards team
(their panels match on the mangled values).
"""
write("KNOWN_ISSUES.md", KNOWN)
bash(
    "cargo test 2>&1 | tail -n 48",
    cargo_test(
        PARSER_TESTS + BORROWED_TESTS,
        {"agree": ["both_parsers_agree_on_staging_sample"], "basic": BASIC_TESTS},
        ["src/lib.rs - (line 4)", "src/lib.rs - parse_line_ref (line 34)"],
    ),
)
s.assistant(
    "Done. `RefParser::quoted_slow` now drops the backslash before any character, exactly like `Parser::quoted` (the doc "
    "comment points at KNOWN_ISSUES.md, KI-1), and `KNOWN_ISSUES.md` describes the bug, the affected fixture lines and why it "
    "is kept for now. The agreement test passes on all 2,000 lines; 23 tests in total are green."
)

# ---------------------------------------------------------------------------------------------
# Turn 7
s.user(
    "Lovely. Could you run the benchmarks again now, so that we can see whether the borrowed path actually buys us anything? "
    "(Same command as before, and please add benches for `parse_line_ref` next to the existing ones, otherwise we are only "
    "measuring the owned path.)"
)
read("benches/parse.rs")
edit(
    "benches/parse.rs",
    "#[bench]\nfn bench_parse_long_quoted(b: &mut Bencher) {\n    b.iter(|| kvscan::parse_line(black_box(LONG_QUOTED)).unwrap());\n}\n",
    "#[bench]\nfn bench_parse_long_quoted(b: &mut Bencher) {\n    b.iter(|| kvscan::parse_line(black_box(LONG_QUOTED)).unwrap());\n}\n\n"
    "#[bench]\nfn bench_ref_short(b: &mut Bencher) {\n    b.iter(|| kvscan::parse_line_ref(black_box(SHORT)).unwrap().len());\n}\n\n"
    "#[bench]\nfn bench_ref_typical(b: &mut Bencher) {\n    b.iter(|| kvscan::parse_line_ref(black_box(TYPICAL)).unwrap().len());\n}\n\n"
    "#[bench]\nfn bench_ref_many_fields(b: &mut Bencher) {\n    b.iter(|| kvscan::parse_line_ref(black_box(MANY_FIELDS)).unwrap().len());\n}\n\n"
    "#[bench]\nfn bench_ref_long_quoted(b: &mut Bencher) {\n    b.iter(|| kvscan::parse_line_ref(black_box(LONG_QUOTED)).unwrap().len());\n}\n",
    text="Adding a `bench_ref_*` twin for each existing bench (same inputs), then running the suite:",
)
bash(
    "cargo +nightly bench --bench parse 2>&1",
    f"   Compiling kvscan v0.4.2 ({ROOT})\n"
    "    Finished `bench` profile [optimized] target(s) in 6.31s\n"
    "     Running benches/parse.rs (target/release/deps/parse-5c1f0e9a7b2d4e13)\n\n"
    "running 8 tests\n"
    "test bench_parse_long_quoted ... bench:       3,902.77 ns/iter (+/- 95.40)\n"
    "test bench_parse_many_fields ... bench:       2,671.03 ns/iter (+/- 70.12)\n"
    "test bench_parse_short       ... bench:         229.84 ns/iter (+/- 3.98)\n"
    "test bench_parse_typical     ... bench:       1,290.16 ns/iter (+/- 39.65)\n"
    "test bench_ref_long_quoted   ... bench:         318.50 ns/iter (+/- 7.21)\n"
    "test bench_ref_many_fields   ... bench:         903.44 ns/iter (+/- 22.18)\n"
    "test bench_ref_short         ... bench:          61.27 ns/iter (+/- 1.30)\n"
    "test bench_ref_typical       ... bench:         472.19 ns/iter (+/- 12.06)\n\n"
    "test result: ok. 0 passed; 0 failed; 0 ignored; 8 measured; 0 filtered out; finished in 19.02s\n",
)
s.assistant(
    "The borrowed path is much faster on every input; the owned numbers are unchanged from this morning's baseline (within "
    "noise), so the comparison is fair:\n\n"
    "| input | parse_line | parse_line_ref | speed-up |\n|---|---|---|---|\n"
    "| short | 229.84 | 61.27 | 3.8x |\n| typical | 1,290.16 | 472.19 | 2.7x |\n| many_fields | 2,671.03 | 903.44 | 3.0x |\n"
    "| long_quoted | 3,902.77 | 318.50 | 12.3x |\n\n"
    "The long quoted value gains most because the fast path borrows it whole instead of pushing it char by char."
)

# ---------------------------------------------------------------------------------------------
# Turn 8
s.user(
    "Those numbers are better than I hoped. I spoke to the ingest-worker maintainers over lunch and they are happy for us to "
    "make the breaking change after all, so please go ahead and change `parse_line` itself to return `RecordRef<'_>` (this "
    "reverses what I said this morning about keeping its signature; keep the owned path available as `parse_line_owned` for "
    "the few callers that need to keep records beyond the line's lifetime). Since this is breaking, please bump the crate "
    "version from 0.4.2 to 0.5.0."
)
read("src/lib.rs", "Reading lib.rs as it stands before changing the public entry points:")
s.pending_thinking = "Reversal: the user now wants parse_line to return RecordRef<'_> and the owned one renamed parse_line_owned; version 0.4.2 -> 0.5.0. parse_line_ref then is redundant; drop it rather than keep two names (the user asked for parse_line_ref this morning, but it was only an entry point next to parse_line; say so). Tests in tests/basic.rs annotate Record, they'll break; agree.rs names parse_line_ref."
edit(
    "src/lib.rs",
    "/// Parse one log line into an owned [`Record`].\n"
    "///\n"
    "/// Leading and trailing blanks are ignored; fields are separated by spaces or tabs. A value\n"
    "/// is either bare (up to the next blank) or double-quoted, in which case a backslash escapes\n"
    "/// the next character.\n"
    "pub fn parse_line(line: &str) -> Result<Record, ParseError> {\n"
    "    parser::Parser::new(line.trim_end_matches(['\\n', '\\r'])).parse()\n"
    "}\n\n"
    "/// Parse one log line into a [`RecordRef`] that borrows from `line`: no allocation except\n"
    "/// the field list, unless a quoted value holds an escape.\n"
    "///\n"
    "/// ```\n"
    '/// let rec = kvscan::parse_line_ref("level=warn uid=7").unwrap();\n'
    '/// assert_eq!(rec.get("uid"), Some("7"));\n'
    "/// ```\n"
    "pub fn parse_line_ref(line: &str) -> Result<RecordRef<'_>, ParseError> {\n"
    "    borrowed::RefParser::new(line.trim_end_matches(['\\n', '\\r'])).parse()\n"
    "}\n",
    "/// Parse one log line into a [`RecordRef`] that borrows from `line`: no allocation except\n"
    "/// the field list, unless a quoted value holds an escape.\n"
    "///\n"
    "/// Leading and trailing blanks are ignored; fields are separated by spaces or tabs. A value\n"
    "/// is either bare (up to the next blank) or double-quoted, in which case a backslash escapes\n"
    "/// the next character (see KNOWN_ISSUES.md, KI-1).\n"
    "///\n"
    "/// ```\n"
    '/// let rec = kvscan::parse_line("level=warn uid=7").unwrap();\n'
    '/// assert_eq!(rec.get("uid"), Some("7"));\n'
    "/// ```\n"
    "pub fn parse_line(line: &str) -> Result<RecordRef<'_>, ParseError> {\n"
    "    borrowed::RefParser::new(line.trim_end_matches(['\\n', '\\r'])).parse()\n"
    "}\n\n"
    "/// Parse one log line into an owned [`Record`], for callers that keep records after the line\n"
    "/// is gone (the 0.4 behaviour of `parse_line`).\n"
    "pub fn parse_line_owned(line: &str) -> Result<Record, ParseError> {\n"
    "    parser::Parser::new(line.trim_end_matches(['\\n', '\\r'])).parse()\n"
    "}\n",
    text="`parse_line` becomes the borrowed entry point; the owned parser moves to `parse_line_owned`. I'm keeping `parse_line_ref` out (it would be a second name for the same function).",
)
edit("Cargo.toml", 'version = "0.4.2"', 'version = "0.5.0"')
bash(
    "cargo test 2>&1 | grep -E '^(error|warning|test result|  -->)' ",
    "error[E0308]: mismatched types\n"
    "  --> tests/basic.rs:5:22\n"
    "error[E0308]: mismatched types\n"
    "  --> tests/basic.rs:15:22\n"
    'error: could not compile `kvscan` (test "basic") due to 2 previous errors\n'
    "error[E0425]: cannot find function `parse_line_ref` in crate `kvscan`\n"
    "  --> tests/agree.rs:2:24\n"
    'error: could not compile `kvscan` (test "agree") due to 1 previous error\n',
    code=101,
)
read(
    "tests/basic.rs",
    "Expected fallout: `tests/basic.rs` annotates `Record`, and `tests/agree.rs` still names `parse_line_ref`.",
)
edit(
    "tests/basic.rs",
    "use kvscan::{parse_line, ParseError, Record};",
    "use kvscan::{parse_line, parse_line_owned, ParseError, Record};",
)
edit("tests/basic.rs", "    let rec: Record = parse_line(\n", "    let rec: Record = parse_line_owned(\n")
edit(
    "tests/basic.rs",
    '    let rec: Record = parse_line("z=1 a=2 m=3").unwrap();',
    '    let rec: Record = parse_line_owned("z=1 a=2 m=3").unwrap();',
)
edit(
    "tests/agree.rs",
    "use kvscan::{parse_line, parse_line_ref};",
    "use kvscan::{parse_line, parse_line_owned};",
)
edit(
    "tests/agree.rs",
    "        match (parse_line(line), parse_line_ref(line)) {",
    "        match (parse_line_owned(line), parse_line(line)) {",
)
bash(
    "cargo test 2>&1 | tail -n 48",
    cargo_test(
        PARSER_TESTS + BORROWED_TESTS,
        {"agree": ["both_parsers_agree_on_staging_sample"], "basic": BASIC_TESTS},
        ["src/lib.rs - (line 4)", "src/lib.rs - parse_line (line 29)"],
        version="0.5.0",
    ),
)
s.assistant(
    "Done: `parse_line(&str) -> Result<RecordRef<'_>, ParseError>` is now the borrowed parser, `parse_line_owned` keeps the "
    "0.4 behaviour, and `Cargo.toml` says 0.5.0. `tests/basic.rs` uses `parse_line_owned` where it annotates `Record`, "
    "`tests/agree.rs` compares `parse_line_owned` with `parse_line`. All 23 tests pass."
)

# ---------------------------------------------------------------------------------------------
# Turn 9
s.user(
    "Before I forget: does anything in the new code need a newer compiler than 1.70? Our build image is pinned (see above), "
    "and I would rather find out now than from a failed nightly pipeline. If you have the 1.70 toolchain installed, "
    "`cargo +1.70.0 test` should tell us."
)
s.pending_thinking = "MSRV 1.70 check. Things I used: Option::is_some_and (1.70, ok), let-else none, Cow, memchr 2.7 (MSRV 1.61). Option::is_none_or is 1.82! That's in quoted(). Let's see what the 1.70 toolchain says."
bash(
    "rustup toolchain list",
    "stable-x86_64-unknown-linux-gnu (default)\nnightly-x86_64-unknown-linux-gnu\n1.70.0-x86_64-unknown-linux-gnu\n",
)
L_none = line_of("src/borrowed.rs", "first_escape.is_none_or")
bash(
    "cargo +1.70.0 test 2>&1 | head -n 30",
    "    Updating crates.io index\n"
    f"   Compiling kvscan v0.5.0 ({ROOT})\n"
    "error[E0599]: no method named `is_none_or` found for enum `Option` in the current scope\n"
    f"   --> src/borrowed.rs:{L_none}:29\n"
    "    |\n"
    f"{L_none} |             if first_escape.is_none_or(|e| e > close) {{\n"
    "    |                             ^^^^^^^^^^ help: there is a method with a similar name: `is_some_and`\n\n"
    "For more information about this error, try `rustc --explain E0599`.\n"
    "error: could not compile `kvscan` (lib) due to 1 previous error\n"
    "warning: build failed, waiting for other jobs to finish...\n"
    "error: could not compile `kvscan` (lib test) due to 1 previous error\n",
    code=101,
)
edit(
    "src/borrowed.rs",
    "            if first_escape.is_none_or(|e| e > close) {",
    "            if first_escape.map_or(true, |e| e > close) {",
    text="Good thing you asked: `Option::is_none_or` was only stabilised in Rust 1.82. (`is_some_and`, which `skip_blanks` uses, is 1.70, so that one is fine.) Replacing it with the 1.70-compatible `map_or(true, ...)`:",
)
bash(
    "cargo +1.70.0 test 2>&1 | grep 'test result'; cargo clippy --all-targets --all-features -- -D warnings 2>&1 | head -n 20",
    "test result: ok. 16 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s\n"
    "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.29s\n"
    f"    Checking kvscan v0.5.0 ({ROOT})\n"
    "error: this `map_or` can be simplified\n"
    f"   --> src/borrowed.rs:{L_none}:16\n"
    "    |\n"
    f"{L_none} |             if first_escape.map_or(true, |e| e > close) {{\n"
    "    |                ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
    "    |\n"
    "    = help: for further information visit https://rust-lang.github.io/rust-clippy/master/index.html#unnecessary_map_or\n"
    "    = note: `-D clippy::unnecessary-map-or` implied by `-D warnings`\n"
    "help: use is_none_or instead\n"
    "    |\n"
    f"{L_none} -             if first_escape.map_or(true, |e| e > close) {{\n"
    f"{L_none} +             if first_escape.is_none_or(|e| e > close) {{\n"
    "    |\n\n"
    "error: could not compile `kvscan` (lib) due to 1 previous error\n",
    code=101,
)
edit(
    "Cargo.toml",
    'edition = "2021"\n',
    'edition = "2021"\nrust-version = "1.70"\n',
    text="1.70 is green now, but stable clippy pushes us straight back to `is_none_or`. Rather than an `#[allow]`, the right fix is to declare the MSRV: clippy reads `rust-version` from Cargo.toml and then does not suggest APIs newer than it (and cargo itself will refuse older compilers with a clear message).",
)
bash(
    "cargo clippy --all-targets --all-features -- -D warnings 2>&1 && cargo +1.70.0 test 2>&1 | grep 'test result'",
    f"    Checking kvscan v0.5.0 ({ROOT})\n"
    "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.88s\n"
    "test result: ok. 16 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s\n"
    "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.31s\n",
)
s.assistant(
    "One thing did need a newer compiler: `Option::is_none_or` (stable since 1.82) in `RefParser::quoted`, now `map_or(true, ...)`. "
    'To stop clippy from suggesting it again I added `rust-version = "1.70"` to Cargo.toml instead of an `#[allow]`: the '
    "MSRV-aware lints respect it, and it documents the pin. Both `cargo +1.70.0 test` and CI's clippy command pass."
)

# ---------------------------------------------------------------------------------------------
# Turn 10
s.user(
    "Perfect, thank you. Please add an entry to CHANGELOG.md for 0.5.0 and a short 'Migrating from 0.4' section in README.md "
    "explaining `parse_line` versus `parse_line_owned` (British spelling in prose please, e.g. 'behaviour', 'normalise'; the "
    "rest of our docs use it and the inconsistency gets flagged in review)."
)
read("CHANGELOG.md")
edit(
    "CHANGELOG.md",
    "## [0.4.2] - 2024-03-18\n",
    "## [0.5.0] - 2025-06-12\n"
    "### Changed (breaking)\n"
    "- `parse_line` now returns `RecordRef<'_>`, which borrows from the line instead of allocating a\n"
    "  `String` per key and value (2.7x faster on a typical line). Use `parse_line_owned` for the 0.4\n"
    "  behaviour.\n"
    "### Added\n"
    "- `RecordRef` with `get`, `len`, `is_empty`, `iter` and `into_owned`.\n"
    "- `parse_line_owned`, the owned parser of 0.4.\n"
    '- `rust-version = "1.70"` in Cargo.toml (the MSRV was already 1.70, now cargo and clippy know it).\n'
    "### Known issues\n"
    "- Backslashes in quoted values are dropped before any character (KI-1 in KNOWN_ISSUES.md); kept\n"
    "  unchanged in this release so that output does not change.\n\n"
    "## [0.4.2] - 2024-03-18\n",
    text="CHANGELOG first (Keep a Changelog format, as the file already uses):",
)
read("README.md")
edit(
    "README.md",
    "## Behaviour\n",
    "## Migrating from 0.4\n\n"
    "`parse_line` now returns a `RecordRef<'_>` that borrows from the line you pass in, so it is\n"
    "cheap but cannot outlive that line. If you keep records after the line buffer is reused or\n"
    "dropped, either call `into_owned()` on the result or switch to `parse_line_owned`, which\n"
    "behaves exactly as `parse_line` did in 0.4. Values are otherwise identical, including the\n"
    "known backslash behaviour (KI-1); nothing else needs to normalise them differently.\n\n"
    "## Behaviour\n",
)
bash(
    "cargo test --doc 2>&1 | tail -n 8",
    "   Doc-tests kvscan\n\nrunning 2 tests\ntest src/lib.rs - (line 4) ... ok\ntest src/lib.rs - parse_line (line 29) ... ok\n\n"
    "test result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.30s\n",
    text="README code blocks are not doc-tested here, but the crate docs are; checking they still pass after the doc edits:",
)
s.assistant(
    "Both done: CHANGELOG.md has a 0.5.0 section (breaking change, additions, the MSRV line and KI-1 as a known issue) and "
    "README.md has a 'Migrating from 0.4' section before 'Behaviour'. I kept the prose in British spelling (behaviour, "
    "normalise)."
)

# ---------------------------------------------------------------------------------------------
# Turn 11
s.user(
    "What is the state of things now, in a few lines? I need to post an update in the channel. Also, could you add a "
    "throughput benchmark that parses the whole staging fixture (reporting bytes per second via `b.bytes`), but please don't "
    "run it now (I am on battery and the full bench run takes a while)."
)
read("benches/parse.rs")
edit(
    "benches/parse.rs",
    "const LONG_QUOTED: &str",
    'const STAGING: &str = include_str!("../tests/fixtures/staging-2k.log");\nconst LONG_QUOTED: &str',
    text="Adding `bench_staging_fixture` (whole 2,000-line file per iteration, `b.bytes` set so libtest prints MB/s):",
)
edit(
    "benches/parse.rs",
    "#[bench]\nfn bench_ref_short(b: &mut Bencher) {",
    "#[bench]\nfn bench_staging_fixture(b: &mut Bencher) {\n"
    "    b.bytes = STAGING.len() as u64;\n"
    "    b.iter(|| {\n"
    "        STAGING\n"
    "            .lines()\n"
    "            .map(|l| kvscan::parse_line(black_box(l)).map(|r| r.len()).unwrap_or(0))\n"
    "            .sum::<usize>()\n"
    "    });\n"
    "}\n\n"
    "#[bench]\nfn bench_ref_short(b: &mut Bencher) {",
)
bash(
    "cargo +nightly bench --bench parse --no-run 2>&1",
    f"   Compiling kvscan v0.5.0 ({ROOT})\n"
    "    Finished `bench` profile [optimized] target(s) in 6.02s\n"
    "  Executable benches/parse.rs (target/release/deps/parse-5c1f0e9a7b2d4e13)\n",
    text="Compiling it without running (`--no-run`):",
)
s.assistant(
    "Status for the channel:\n\n"
    "- kvscan 0.5.0 (breaking): `parse_line` now returns a borrowing `RecordRef<'_>` (new module `src/borrowed.rs`); the old "
    "owned parser stays available as `parse_line_owned`.\n"
    "- Typical line: 1,290 ns/iter before, 472 ns/iter after (2.7x); long quoted values 12x.\n"
    "- `tests/agree.rs` checks both parsers against the 2,000 staging lines; they agree, including the known backslash bug "
    "(KI-1, deliberately kept, fix planned with the dashboards team).\n"
    "- No unsafe; MSRV 1.70 verified with `cargo +1.70.0 test` and now declared as `rust-version`; clippy clean with CI flags.\n"
    "- CHANGELOG and README migration notes written.\n\n"
    "The new `bench_staging_fixture` throughput bench compiles (checked with `--no-run`) but has not been run, as you asked."
)

# ---------------------------------------------------------------------------------------------
# Turn 12
s.user(
    "Last thing for today. Please leave the backslash fix for Monday (don't start on it, I still need the dashboards team's "
    "answer), but do write a commit message for everything so far (conventional-commit style, `feat!:` since it is "
    "breaking), commit it on the current branch, and list anything you think is still open."
)
bash(
    "git status --short && git diff --stat",
    " M CHANGELOG.md\n M Cargo.toml\n M README.md\n M benches/parse.rs\n M src/lib.rs\n M src/parser.rs\n M tests/basic.rs\n"
    "?? KNOWN_ISSUES.md\n?? src/borrowed.rs\n?? tests/agree.rs\n"
    " CHANGELOG.md     | 16 ++++++++++++++++\n Cargo.toml       |  3 ++-\n README.md        |  9 +++++++++\n"
    " benches/parse.rs | 34 ++++++++++++++++++++++++++++++++++\n src/lib.rs       | 23 +++++++++++++++++------\n"
    " src/parser.rs    |  6 ++++++\n tests/basic.rs   |  6 +++---\n 7 files changed, 88 insertions(+), 9 deletions(-)\n",
)
bash(
    "git diff src/lib.rs",
    "\n".join(
        [
            "diff --git a/src/lib.rs b/src/lib.rs",
            "index 5a1c0de..e93b7f2 100644",
            "--- a/src/lib.rs",
            "+++ b/src/lib.rs",
        ]
        + ["@@ -12,18 +12,39 @@"]
        + ["+" + ln if ln.strip() else "" for ln in fs["src/lib.rs"].split("\n")[11:50]]
    )
    + "\n",
)
bash(
    "git add -A && git commit -q -F - <<'EOF'\n"
    "feat!: borrow from the line in parse_line (RecordRef)\n\n"
    "parse_line now returns RecordRef<'_>, whose keys and values are slices of\n"
    "the input; only quoted values with an escape allocate. The owned parser of\n"
    "0.4 is parse_line_owned. 2.7x faster on a typical line (1,290 -> 472 ns/iter).\n\n"
    "tests/agree.rs checks both parsers against 2,000 staging lines. The\n"
    "backslash bug (KI-1) is kept on purpose in both; see KNOWN_ISSUES.md.\n"
    "Declares rust-version = 1.70 so clippy stops suggesting newer APIs.\n\n"
    "BREAKING CHANGE: parse_line returns RecordRef<'_> instead of Record; use\n"
    "parse_line_owned or RecordRef::into_owned to keep the old type.\n"
    "EOF\n"
    "git log --oneline -n 2",
    "9e41c7a feat!: borrow from the line in parse_line (RecordRef)\n3b07d52 fix: accept '/' in keys (k8s labels)\n",
)
s.assistant(
    "Committed as `9e41c7a feat!: borrow from the line in parse_line (RecordRef)` on the current branch.\n\n"
    "Still open:\n\n"
    "1. KI-1, the backslash fix in both parsers: not started, waiting for the dashboards team (Monday).\n"
    "2. `bench_staging_fixture` has never been run; run `cargo +nightly bench --bench parse` on mains power to get a MB/s "
    "figure for the release notes.\n"
    "3. ingest-worker has to move to 0.5.0: `parse_line` call sites that keep records past the line need "
    "`parse_line_owned` or `into_owned()`.\n"
    "4. The version bump is not tagged or published yet."
)

s.write(str(HERE / "session.jsonl"))
print("wrote", HERE / "session.jsonl", len(s.lines), "lines")
