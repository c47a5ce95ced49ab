# ruff: noqa: E501  (transcript text and code listings are kept as they would appear, unwrapped)
"""The kvscan crate as the session finds it (and the texts the session writes), kept apart from
the script so that make_session.py reads as the session's story."""

CARGO_TOML = """[package]
name = "kvscan"
version = "0.4.2"
edition = "2021"
description = "Fast scanner for key=value (logfmt-style) log lines"
license = "MIT OR Apache-2.0"
repository = "https://git.internal.example/platform/kvscan"
readme = "README.md"
keywords = ["logfmt", "parser", "logs"]
categories = ["parsing"]

[dependencies]
memchr = "2.7"

[dev-dependencies]
pretty_assertions = "1.4"

[[bench]]
name = "parse"
harness = true
"""

LIB_RS = r"""//! `kvscan` turns `key=value` log lines (the logfmt dialect our services write) into
//! records.
//!
//! ```
//! let rec = kvscan::parse_line(r#"ts=2024-05-01T10:00:00Z level=info msg="user logged in" uid=42"#).unwrap();
//! assert_eq!(rec.get("level"), Some("info"));
//! assert_eq!(rec.get("msg"), Some("user logged in"));
//! ```
//!
//! The crate is used inside the sandboxed ingestion service, which is why it forbids unsafe
//! code: the sandbox policy only admits crates that do.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod error;
mod parser;

pub use error::ParseError;
pub use parser::Record;

/// Parse one log line into an owned [`Record`].
///
/// Leading and trailing blanks are ignored; fields are separated by spaces or tabs. A value
/// is either bare (up to the next blank) or double-quoted, in which case a backslash escapes
/// the next character.
pub fn parse_line(line: &str) -> Result<Record, ParseError> {
    parser::Parser::new(line.trim_end_matches(['\n', '\r'])).parse()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_line_is_an_empty_record() {
        assert!(parse_line("").unwrap().is_empty());
        assert!(parse_line("   \t ").unwrap().is_empty());
    }

    #[test]
    fn crlf_is_stripped() {
        let rec = parse_line("a=1 b=2\r\n").unwrap();
        assert_eq!(rec.get("b"), Some("2"));
    }
}
"""

ERROR_RS = r"""use std::fmt;

/// Why a line could not be parsed. Offsets are byte offsets into the line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// A field starts with `=` or a blank where its key should be.
    EmptyKey {
        /// Where the key should have started.
        at: usize,
    },
    /// A byte that cannot appear in a key.
    BadKeyByte {
        /// Where the byte is.
        at: usize,
        /// The byte itself.
        byte: u8,
    },
    /// A key that is not followed by `=`.
    MissingEquals {
        /// Where the `=` was expected.
        at: usize,
    },
    /// A quoted value without its closing quote.
    UnterminatedQuote {
        /// Where the opening quote is.
        at: usize,
    },
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::EmptyKey { at } => write!(f, "empty key at byte {at}"),
            ParseError::BadKeyByte { at, byte } => {
                write!(f, "byte 0x{byte:02x} at {at} is not allowed in a key")
            }
            ParseError::MissingEquals { at } => write!(f, "expected '=' at byte {at}"),
            ParseError::UnterminatedQuote { at } => {
                write!(f, "quoted value opened at byte {at} is never closed")
            }
        }
    }
}

impl std::error::Error for ParseError {}
"""

PARSER_RS = r"""use crate::error::ParseError;

/// One parsed line: its fields in the order they appeared. Keys may repeat; [`Record::get`]
/// returns the first occurrence, as the old Go parser did.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    fields: Vec<(String, String)>,
}

impl Record {
    /// The value of the first field named `key`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Number of fields (repeated keys counted each time).
    pub fn len(&self) -> usize {
        self.fields.len()
    }

    /// True when the line had no fields.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// The fields in line order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.fields.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }
}

pub(crate) struct Parser<'a> {
    input: &'a str,
    pos: usize,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(input: &'a str) -> Self {
        Parser { input, pos: 0 }
    }

    pub(crate) fn parse(mut self) -> Result<Record, ParseError> {
        let mut rec = Record::default();
        loop {
            self.skip_blanks();
            if self.pos >= self.input.len() {
                break;
            }
            let key = self.key()?.to_string();
            self.expect_equals()?;
            let value = if self.peek() == Some(b'"') {
                self.quoted()?
            } else {
                self.bare().to_string()
            };
            rec.fields.push((key, value));
        }
        Ok(rec)
    }

    fn peek(&self) -> Option<u8> {
        self.input.as_bytes().get(self.pos).copied()
    }

    fn skip_blanks(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t')) {
            self.pos += 1;
        }
    }

    fn key(&mut self) -> Result<&str, ParseError> {
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

    fn bare(&mut self) -> &str {
        let start = self.pos;
        let rest = &self.input.as_bytes()[start..];
        let end = memchr::memchr2(b' ', b'\t', rest).map_or(self.input.len(), |i| start + i);
        self.pos = end;
        &self.input[start..end]
    }

    /// A double-quoted value. A backslash escapes whatever follows it (the backslash itself
    /// is dropped).
    fn quoted(&mut self) -> Result<String, ParseError> {
        let open = self.pos;
        self.pos += 1;
        let mut out = String::new();
        let mut chars = self.input[self.pos..].char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.pos += i + 1;
                    return Ok(out);
                }
                '\\' => match chars.next() {
                    Some((_, escaped)) => out.push(escaped),
                    None => break,
                },
                c => out.push(c),
            }
        }
        Err(ParseError::UnterminatedQuote { at: open })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Record {
        Parser::new(s).parse().unwrap()
    }

    #[test]
    fn bare_values() {
        let r = parse("a=1 b=two c=3.5");
        assert_eq!(r.len(), 3);
        assert_eq!(r.get("b"), Some("two"));
    }

    #[test]
    fn quoted_value_with_blanks() {
        assert_eq!(parse(r#"msg="hello world" x=1"#).get("msg"), Some("hello world"));
    }

    #[test]
    fn escaped_quote() {
        assert_eq!(parse(r#"msg="say \"hi\"""#).get("msg"), Some(r#"say "hi""#));
    }

    #[test]
    fn empty_value() {
        assert_eq!(parse("a= b=1").get("a"), Some(""));
    }

    #[test]
    fn repeated_key_first_wins() {
        assert_eq!(parse("a=1 a=2").get("a"), Some("1"));
    }

    #[test]
    fn tabs_separate_fields() {
        assert_eq!(parse("a=1\tb=2").get("b"), Some("2"));
    }

    #[test]
    fn utf8_in_quoted_value() {
        assert_eq!(parse(r#"city="Zürich""#).get("city"), Some("Zürich"));
    }

    #[test]
    fn unterminated_quote() {
        let err = Parser::new(r#"a="oops"#).parse().unwrap_err();
        assert_eq!(err, ParseError::UnterminatedQuote { at: 2 });
    }

    #[test]
    fn missing_equals() {
        let err = Parser::new("abc def").parse().unwrap_err();
        assert_eq!(err, ParseError::MissingEquals { at: 3 });
    }

    #[test]
    fn bad_key_byte() {
        let err = Parser::new("a*b=1").parse().unwrap_err();
        assert_eq!(err, ParseError::BadKeyByte { at: 1, byte: b'*' });
    }
}
"""

BENCH_RS = r"""#![feature(test)]
//! Nightly-only benchmarks (libtest's bencher): `cargo +nightly bench --bench parse`.
extern crate test;

use test::{black_box, Bencher};

const SHORT: &str = "level=info uid=42";
const TYPICAL: &str = r#"ts=2024-05-01T10:00:00.123Z level=info svc=ingest-worker host=ing-07 msg="batch flushed" rows=1200 bytes=483112 dur_ms=38 trace=7f3a9c01e2d44b10"#;
const MANY_FIELDS: &str = "a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8 i=9 j=10 k=11 l=12 m=13 n=14 o=15 p=16 q=17 r=18 s=19 t=20 u=21 v=22 w=23 x=24";
const LONG_QUOTED: &str = r#"level=error msg="upstream returned 502 Bad Gateway after 3 retries; giving up on this batch and moving it to the dead-letter queue for manual replay by the on-call engineer" batch=88812"#;

#[bench]
fn bench_parse_short(b: &mut Bencher) {
    b.iter(|| kvscan::parse_line(black_box(SHORT)).unwrap());
}

#[bench]
fn bench_parse_typical(b: &mut Bencher) {
    b.iter(|| kvscan::parse_line(black_box(TYPICAL)).unwrap());
}

#[bench]
fn bench_parse_many_fields(b: &mut Bencher) {
    b.iter(|| kvscan::parse_line(black_box(MANY_FIELDS)).unwrap());
}

#[bench]
fn bench_parse_long_quoted(b: &mut Bencher) {
    b.iter(|| kvscan::parse_line(black_box(LONG_QUOTED)).unwrap());
}
"""

BASIC_RS = r"""use kvscan::{parse_line, ParseError, Record};

#[test]
fn parses_a_typical_line() {
    let rec: Record = parse_line(
        r#"ts=2024-05-01T10:00:00Z level=info svc=api msg="GET /v1/users 200" dur_ms=12"#,
    )
    .unwrap();
    assert_eq!(rec.len(), 5);
    assert_eq!(rec.get("msg"), Some("GET /v1/users 200"));
    assert_eq!(rec.get("dur_ms"), Some("12"));
}

#[test]
fn iterates_in_line_order() {
    let rec: Record = parse_line("z=1 a=2 m=3").unwrap();
    let keys: Vec<&str> = rec.iter().map(|(k, _)| k).collect();
    assert_eq!(keys, ["z", "a", "m"]);
}

#[test]
fn error_display_names_the_offset() {
    let err = parse_line(r#"a="never closed"#).unwrap_err();
    assert_eq!(err.to_string(), "quoted value opened at byte 2 is never closed");
    assert!(matches!(err, ParseError::UnterminatedQuote { .. }));
}

#[test]
fn keys_may_hold_dots_and_slashes() {
    let rec = parse_line("http.status=200 k8s/pod=web-1").unwrap();
    assert_eq!(rec.get("k8s/pod"), Some("web-1"));
}
"""

CHANGELOG_MD = """# Changelog

All notable changes to this crate are documented here. The format follows
[Keep a Changelog](https://keepachangelog.com/en/1.1.0/); versions follow SemVer.

## [0.4.2] - 2024-03-18
### Fixed
- `parse_line` no longer rejects keys containing `/` (Kubernetes labels such as `k8s/pod`).

## [0.4.1] - 2024-02-02
### Changed
- Bare values are scanned with `memchr` (roughly 20% faster on long lines).

## [0.4.0] - 2023-11-27
### Added
- `Record::iter` returns fields in line order.
### Changed
- Repeated keys are kept; `Record::get` returns the first occurrence (matches the Go parser).
"""

README_MD = """# kvscan

Fast scanner for `key=value` (logfmt-style) log lines, as written by our services.

```rust
let rec = kvscan::parse_line(r#"level=info msg="user logged in" uid=42"#)?;
assert_eq!(rec.get("uid"), Some("42"));
```

## Behaviour

- Fields are separated by spaces or tabs; a trailing `\\r\\n` is ignored.
- A value is bare (up to the next blank) or double-quoted.
- Keys may contain ASCII letters, digits, `_`, `.`, `-` and `/`.
- Repeated keys are kept; `get` returns the first one.

## Safety

The crate forbids `unsafe` code: it runs inside the sandboxed ingestion service, whose policy
only admits crates that do.

## Minimum supported Rust version

1.70 (the platform build image).

## Benchmarks

Nightly only: `cargo +nightly bench --bench parse`.
"""
