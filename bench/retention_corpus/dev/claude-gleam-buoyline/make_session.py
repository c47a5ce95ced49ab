# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Claude Code session written by hand for the heldout6a split.

An oceanographic data engineer who pastes logs and asks "why?" has Claude Code fix a crash in a Gleam
service that decodes Iridium SBD packets from drifting buoys: firmware v3 packets (salinity, battery),
a CRC variant on some buoys, a dead-letter folder instead of dropping. gleam build/test/format,
gleeunit failures, let-assert panics with Erlang stack traces. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/ines/code/buoyline"
s = ClaudeSession(CWD, "2026-09-04T07:18:44", seed="buoyline-v3", branch="main")

TOML = "gleam.toml"
DEC = "src/buoyline/decode.gleam"
ING = "src/buoyline/ingest.gleam"
CRC = "src/buoyline/crc.gleam"
CSV = "src/buoyline/csv.gleam"
T_DEC = "test/buoyline/decode_test.gleam"
T_CRC = "test/buoyline/crc_test.gleam"
DL = "src/buoyline/deadletter.gleam"

s.files.update({
    TOML: """name = "buoyline"
version = "0.9.2"
target = "erlang"

[dependencies]
gleam_stdlib = ">= 0.40.0 and < 2.0.0"
gleam_erlang = ">= 0.27.0 and < 1.0.0"
simplifile = ">= 2.1.0 and < 3.0.0"

[dev-dependencies]
gleeunit = ">= 1.2.0 and < 2.0.0"
""",
    CRC: """import gleam/bit_array
import gleam/int

/// CRC-16/CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no xorout.
pub fn ccitt(data: BitArray) -> Int {
  do_ccitt(data, 0xFFFF)
}

fn do_ccitt(data: BitArray, crc: Int) -> Int {
  case data {
    <<byte:8, rest:bits>> -> do_ccitt(rest, step(int.bitwise_exclusive_or(crc, int.bitwise_shift_left(byte, 8)), 8))
    _ -> crc
  }
}

fn step(crc: Int, n: Int) -> Int {
  case n {
    0 -> crc
    _ -> {
      let shifted = int.bitwise_and(int.bitwise_shift_left(crc, 1), 0xFFFF)
      case int.bitwise_and(crc, 0x8000) {
        0 -> step(shifted, n - 1)
        _ -> step(int.bitwise_exclusive_or(shifted, 0x1021), n - 1)
      }
    }
  }
}

pub fn size(data: BitArray) -> Int {
  bit_array.byte_size(data)
}
""",
    DEC: """import buoyline/crc

/// One buoy reading. Fixed-point integers, as sent by the buoy.
pub type Reading {
  Reading(
    buoy: Int,
    timestamp: Int,
    lat_e5: Int,
    lon_e5: Int,
    temperature_centi: Int,
    wave_height_mm: Int,
  )
}

pub type DecodeError {
  TooShort(Int)
  UnknownVersion(Int)
  BadChecksum(expected: Int, got: Int)
}

/// v2 packet, 21 bytes, big-endian:
/// version 1 | buoy 2 | unix time 4 | lat 4 (1e-5 deg) | lon 4 | temp 2 (0.01 C, signed) | wave 2 (mm) | crc 2
pub fn packet(bits: BitArray) -> Result(Reading, DecodeError) {
  case bits {
    <<2, buoy:16, ts:32, lat:32-signed, lon:32-signed, temp:16-signed, wave:16, sum:16>> -> {
      let assert <<body:bytes-size(19), _:bits>> = bits
      case crc.ccitt(body) {
        c if c == sum -> Ok(Reading(buoy, ts, lat, lon, temp, wave))
        c -> Error(BadChecksum(expected: sum, got: c))
      }
    }
    <<v, _:bits>> if v != 2 -> Error(UnknownVersion(v))
    _ -> Error(TooShort(crc.size(bits)))
  }
}
""",
    ING: """import buoyline/csv
import buoyline/decode
import gleam/io
import simplifile

/// Called by the mailbox poller for every SBD attachment (.sbd file, raw packet bytes).
pub fn handle(path: String) -> Nil {
  let assert Ok(bits) = simplifile.read_bits(path)
  let assert Ok(reading) = decode.packet(bits)
  let assert Ok(_) = simplifile.append("data/readings.csv", csv.line(reading))
  io.println("ok " <> path)
}
""",
    CSV: """import buoyline/decode.{type Reading}
import gleam/int
import gleam/string

/// buoy,timestamp,lat,lon,temp_c,wave_m  (the archive format since 2024, do not reorder)
pub fn line(r: Reading) -> String {
  string.join(
    [
      int.to_string(r.buoy),
      int.to_string(r.timestamp),
      fixed(r.lat_e5, 5),
      fixed(r.lon_e5, 5),
      fixed(r.temperature_centi, 2),
      fixed(r.wave_height_mm, 3),
    ],
    ",",
  )
  <> "\\n"
}

pub fn fixed(n: Int, places: Int) -> String {
  let sign = case n < 0 {
    True -> "-"
    False -> ""
  }
  let a = int.absolute_value(n)
  let div = pow10(places)
  sign <> int.to_string(a / div) <> "." <> int.to_string(a % div)
}

fn pow10(n: Int) -> Int {
  case n {
    0 -> 1
    _ -> 10 * pow10(n - 1)
  }
}
""",
    T_DEC: """import buoyline/crc
import buoyline/decode
import gleeunit/should

fn v2(temp: Int) -> BitArray {
  let body = <<2, 417:16, 1_788_400_000:32, -3_412_345:32-signed, 1_845_678:32-signed, temp:16-signed, 1230:16>>
  <<body:bits, crc.ccitt(body):16>>
}

pub fn v2_decodes_test() {
  decode.packet(v2(1834))
  |> should.equal(Ok(decode.Reading(417, 1_788_400_000, -3_412_345, 1_845_678, 1834, 1230)))
}

pub fn v2_negative_temperature_test() {
  let assert Ok(r) = decode.packet(v2(-112))
  r.temperature_centi |> should.equal(-112)
}

pub fn bad_checksum_test() {
  let assert <<head:bytes-size(19), _:16>> = v2(1834)
  decode.packet(<<head:bits, 0:16>>)
  |> should.be_error
}
""",
})


def sh(cmd: str, out: str, code: int = 0, desc: str = "", text: str | None = None) -> None:
    s.bash(cmd, out, code=code, description=desc, text=text)


# ============================================================================================ turn 1
s.user(
    "buoyline died again last night, this is from the poller log:\n\n"
    "```\n"
    "2026-09-03T02:41:07Z ok data/inbox/300534063217430_000812.sbd\n"
    "2026-09-03T02:41:07Z ok data/inbox/300534063217430_000813.sbd\n"
    "runtime error: let assert\n\n"
    "Pattern match failed, no pattern matched the value.\n\n"
    "unmatched value:\n"
    "  Error(UnknownVersion(3))\n\n"
    "stacktrace:\n"
    "  buoyline/ingest.handle src/buoyline/ingest.gleam:9\n"
    "  buoyline/poller.loop src/buoyline/poller.gleam:33\n"
    "  gleam/list.each /home/ines/code/buoyline/build/packages/gleam_stdlib/src/gleam/list.gleam:447\n"
    "2026-09-03T02:41:08Z poller: supervisor restart 5/5 in 60s, giving up\n"
    "```\n\n"
    "since then no data, 3 days of readings from the whole array are missing. why?",
    pause=0,
)
sh("ls -R src test; cat gleam.toml", "src:\nbuoyline\nbuoyline.gleam\n\nsrc/buoyline:\ncrc.gleam\ncsv.gleam\ndecode.gleam\ningest.gleam\npoller.gleam\n\ntest:\nbuoyline\nbuoyline_test.gleam\n\ntest/buoyline:\ndecode_test.gleam\n" + s.files[TOML], desc="Project layout")
s.reads([ING, DEC])
sh("ls data/inbox | wc -l; ls data/inbox | head -3; for f in $(ls data/inbox | head -400); do xxd -l 1 -p data/inbox/$f; done | sort | uniq -c", "1873\n300534063217430_000814.sbd\n300534063217430_000815.sbd\n300534063217430_000816.sbd\n    112 02\n    288 03\n", desc="Version byte of waiting packets")
sh("xxd data/inbox/300534063217430_000814.sbd; stat -c %s data/inbox/300534063217430_000814.sbd", "00000000: 0301 a16a 9974 80ff cbee 8700 1c2a 3e07  ...j.t..........\n00000010: 2a04 ce88 ef0e 6c4d 3b                   *.....lM;\n25\n", desc="A v3 packet")
sh("grep -rn 'v3\\|version 3\\|firmware' docs/ README.md 2>/dev/null | head", "docs/packet-format.md:31:## v3 (firmware 3.x, from 2026-09)\ndocs/packet-format.md:33:25 bytes: v2 fields, then salinity 2 (0.001 PSU, unsigned) and battery 2 (mV), then crc 2.\ndocs/packet-format.md:34:CRC-16/CCITT-FALSE over everything before the crc, like v2.\n", desc="Look for a v3 spec")
s.assistant(
    "Why it died:\n\n"
    "1. Some buoys got **firmware 3.x** and now send **v3 packets** (version byte `03`, 25 bytes: the v2 fields plus salinity and battery, per docs/packet-format.md:31-34). `decode.packet` only knows v2 and returns `Error(UnknownVersion(3))`.\n"
    "2. `ingest.handle` does `let assert Ok(reading) = decode.packet(bits)` (src/buoyline/ingest.gleam:9), so that error is a **panic**, not a handled error.\n"
    "3. The poller's supervisor restarts it, the poller picks up the *same* file first again, panics again: 5 restarts in 60 s and the supervisor gives up. From then on nothing is ingested — also not the v2 buoys. That's why the whole array is missing, not just the upgraded buoys.\n\n"
    "In data/inbox there are **1873** files waiting; of the first 400, 288 are v3 and 112 v2.\n\n"
    "Fix proposal: decode v3 (salinity + battery) and make `handle` never panic on a bad packet. What should happen with packets that still can't be decoded?"
)

# ============================================================================================ turn 2
s.user(
    "ok. v3 yes. bad packets: just log them and drop the file, nothing else.\n"
    "and the CSV archive must stay exactly as it is for v2 buoys - same columns, same order, byte-identical lines (the thredds importer is fragile). salinity and battery for v3 can go to new columns at the end, empty for v2.\n"
    "(can we avoid let assert in the whole ingest path? I don't want this again)"
)
s.write(DEC, """import buoyline/crc
import gleam/option.{type Option, None, Some}

/// One buoy reading. Fixed-point integers, as sent by the buoy.
/// salinity_milli (0.001 PSU) and battery_mv only come with v3 packets.
pub type Reading {
  Reading(
    buoy: Int,
    timestamp: Int,
    lat_e5: Int,
    lon_e5: Int,
    temperature_centi: Int,
    wave_height_mm: Int,
    salinity_milli: Option(Int),
    battery_mv: Option(Int),
  )
}

pub type DecodeError {
  TooShort(Int)
  UnknownVersion(Int)
  BadChecksum(expected: Int, got: Int)
}

/// v2 packet, 21 bytes, big-endian:
/// version 1 | buoy 2 | unix time 4 | lat 4 (1e-5 deg) | lon 4 | temp 2 (0.01 C, signed) | wave 2 (mm) | crc 2
/// v3 packet, 25 bytes: v2 fields, salinity 2 (0.001 PSU) | battery 2 (mV), then crc 2
pub fn packet(bits: BitArray) -> Result(Reading, DecodeError) {
  case bits {
    <<2, buoy:16, ts:32, lat:32-signed, lon:32-signed, temp:16-signed, wave:16, sum:16>> ->
      checked(bits, 19, sum, Reading(buoy, ts, lat, lon, temp, wave, None, None))
    <<3, buoy:16, ts:32, lat:32-signed, lon:32-signed, temp:16-signed, wave:16, sal:16, bat:16, sum:16>> ->
      checked(bits, 23, sum, Reading(buoy, ts, lat, lon, temp, wave, Some(sal), Some(bat)))
    <<v, _:bits>> if v != 2 && v != 3 -> Error(UnknownVersion(v))
    _ -> Error(TooShort(crc.size(bits)))
  }
}

fn checked(bits: BitArray, body_len: Int, sum: Int, r: Reading) -> Result(Reading, DecodeError) {
  case bits {
    <<body:bytes-size(body_len), _:bits>> ->
      case crc.ccitt(body) {
        c if c == sum -> Ok(r)
        c -> Error(BadChecksum(expected: sum, got: c))
      }
    _ -> Error(TooShort(crc.size(bits)))
  }
}
""")
s.write(ING, """import buoyline/csv
import buoyline/decode
import gleam/io
import gleam/result
import gleam/string
import simplifile

pub type IngestError {
  ReadFailed(simplifile.FileError)
  Undecodable(decode.DecodeError)
  WriteFailed(simplifile.FileError)
}

/// Called by the mailbox poller for every SBD attachment (.sbd file, raw packet bytes).
/// Never panics: a bad packet is logged and its file removed, so the poller moves on.
pub fn handle(path: String) -> Result(Nil, IngestError) {
  let outcome = {
    use bits <- result.try(simplifile.read_bits(path) |> result.map_error(ReadFailed))
    use reading <- result.try(decode.packet(bits) |> result.map_error(Undecodable))
    simplifile.append("data/readings.csv", csv.line(reading))
    |> result.map_error(WriteFailed)
  }
  case outcome {
    Ok(Nil) -> io.println("ok " <> path)
    Error(Undecodable(e)) -> {
      io.println("drop " <> path <> ": " <> string.inspect(e))
      let _ = simplifile.delete(path)
      Nil
    }
    Error(e) -> io.println("error " <> path <> ": " <> string.inspect(e))
  }
  outcome
}
""")
s.edit(CSV, """/// buoy,timestamp,lat,lon,temp_c,wave_m  (the archive format since 2024, do not reorder)
pub fn line(r: Reading) -> String {
  string.join(
    [
      int.to_string(r.buoy),
      int.to_string(r.timestamp),
      fixed(r.lat_e5, 5),
      fixed(r.lon_e5, 5),
      fixed(r.temperature_centi, 2),
      fixed(r.wave_height_mm, 3),
    ],
    ",",
  )
  <> "\\n"
}""", """/// buoy,timestamp,lat,lon,temp_c,wave_m  (the archive format since 2024, do not reorder)
/// v3 readings append salinity_psu,battery_v; v2 lines stay byte-identical (no trailing commas).
pub fn line(r: Reading) -> String {
  let base = [
    int.to_string(r.buoy),
    int.to_string(r.timestamp),
    fixed(r.lat_e5, 5),
    fixed(r.lon_e5, 5),
    fixed(r.temperature_centi, 2),
    fixed(r.wave_height_mm, 3),
  ]
  let extra = case r.salinity_milli, r.battery_mv {
    Some(sal), Some(bat) -> [fixed(sal, 3), fixed(bat, 3)]
    _, _ -> []
  }
  string.join(list.append(base, extra), ",") <> "\\n"
}""")
sh("gleam build", """  Compiling buoyline
error: Unknown variable
   ┌─ /home/ines/code/buoyline/src/buoyline/csv.gleam:17:5
   │
17 │     Some(sal), Some(bat) -> [fixed(sal, 3), fixed(bat, 3)]
   │     ^^^^ Did you mean `Ok`?

The custom type variant `Some` is not in scope here.

error: Unknown module
   ┌─ /home/ines/code/buoyline/src/buoyline/csv.gleam:20:15
   │
20 │   string.join(list.append(base, extra), ",") <> "\\n"
   │               ^^^^

No module has been found with the name `list`.
""", code=1, desc="Build")
s.edit(CSV, """import buoyline/decode.{type Reading}
import gleam/int
import gleam/string""", """import buoyline/decode.{type Reading}
import gleam/int
import gleam/list
import gleam/option.{Some}
import gleam/string""")
sh("gleam build", """  Compiling buoyline
error: Incorrect arity
   ┌─ /home/ines/code/buoyline/test/buoyline/decode_test.gleam:12:24
   │
12 │   |> should.equal(Ok(decode.Reading(417, 1_788_400_000, -3_412_345, 1_845_678, 1834, 1230)))
   │                        ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ Expected 8 arguments, got 6

This call accepts these additional labelled arguments:

  - battery_mv
  - salinity_milli

warning: Unused value
   ┌─ /home/ines/code/buoyline/src/buoyline/poller.gleam:33:5
   │
33 │     ingest.handle(path)
   │     ^^^^^^^^^^^^^^^^^^^ This value is never used

""", code=1, desc="Build")
s.assistant("The error: the old test builds a `Reading` with 6 fields (needs `None, None` now). The warning matters too: poller.gleam:33 ignores the new `Result` from `handle` and then deletes the file anyway. Looking at the poller.")
sh("sed -n 20,45p src/buoyline/poller.gleam", """pub fn loop(inbox: String, every_ms: Int) -> Nil {
  let files = case simplifile.read_directory(inbox) {
    Ok(names) ->
      names
      |> list.filter(string.ends_with(_, ".sbd"))
      |> list.sort(string.compare)
    Error(_) -> []
  }
  list.each(files, fn(name) {
    let path = inbox <> "/" <> name
    ingest.handle(path)
    let _ = simplifile.delete(path)
  })
  process.sleep(every_ms)
  loop(inbox, every_ms)
}
""", desc="Poller loop")
s.files["src/buoyline/poller.gleam"] = """import buoyline/ingest
import gleam/erlang/process
import gleam/list
import gleam/string
import simplifile

pub fn loop(inbox: String, every_ms: Int) -> Nil {
  let files = case simplifile.read_directory(inbox) {
    Ok(names) ->
      names
      |> list.filter(string.ends_with(_, ".sbd"))
      |> list.sort(string.compare)
    Error(_) -> []
  }
  list.each(files, fn(name) {
    let path = inbox <> "/" <> name
    ingest.handle(path)
    let _ = simplifile.delete(path)
  })
  process.sleep(every_ms)
  loop(inbox, every_ms)
}
"""
s.edit("src/buoyline/poller.gleam", """    ingest.handle(path)
    let _ = simplifile.delete(path)""", """    case ingest.handle(path) {
      // decoded and archived, or undecodable (handle already logged it): the file is done
      Ok(Nil) | Error(ingest.Undecodable(_)) -> {
        let _ = simplifile.delete(path)
        Nil
      }
      // read/write problem: keep the file, try again next round
      Error(_) -> Nil
    }""")
s.edit(ING, """    Error(Undecodable(e)) -> {
      io.println("drop " <> path <> ": " <> string.inspect(e))
      let _ = simplifile.delete(path)
      Nil
    }""", """    Error(Undecodable(e)) -> io.println("drop " <> path <> ": " <> string.inspect(e))""")
s.multi_edit(T_DEC, [("""import buoyline/crc
import buoyline/decode
import gleeunit/should""", """import buoyline/crc
import buoyline/decode
import gleam/option.{None, Some}
import gleeunit/should"""), ("""  |> should.equal(Ok(decode.Reading(417, 1_788_400_000, -3_412_345, 1_845_678, 1834, 1230)))""", """  |> should.equal(Ok(decode.Reading(417, 1_788_400_000, -3_412_345, 1_845_678, 1834, 1230, None, None)))"""), ("""pub fn bad_checksum_test() {""", """fn v3(sal: Int, bat: Int) -> BitArray {
  let body = <<3, 418:16, 1_788_400_600:32, -3_398_001:32-signed, 1_851_230:32-signed, 1795:16-signed, 980:16, sal:16, bat:16>>
  <<body:bits, crc.ccitt(body):16>>
}

pub fn v3_decodes_salinity_and_battery_test() {
  let assert Ok(r) = decode.packet(v3(35_125, 3_612))
  r.salinity_milli |> should.equal(Some(35_125))
  r.battery_mv |> should.equal(Some(3_612))
}

pub fn unknown_version_test() {
  decode.packet(<<7, 0:160>>) |> should.equal(Error(decode.UnknownVersion(7)))
}

pub fn too_short_test() {
  decode.packet(<<3, 1, 2>>) |> should.equal(Error(decode.TooShort(3)))
}

pub fn bad_checksum_test() {""")])
s.write("test/buoyline/csv_test.gleam", """import buoyline/csv
import buoyline/decode
import gleam/option.{None, Some}
import gleeunit/should

pub fn v2_line_unchanged_test() {
  // line copied from data/readings.csv (2026-09-02), must stay byte-identical
  csv.line(decode.Reading(417, 1_788_313_200, -3_412_345, 1_845_678, 1834, 1230, None, None))
  |> should.equal("417,1788313200,-34.12345,18.45678,18.34,1.230\\n")
}

pub fn v3_line_appends_test() {
  csv.line(decode.Reading(418, 1_788_400_600, -3_398_001, 1_851_230, 1795, 980, Some(35_125), Some(3_612)))
  |> should.equal("418,1788400600,-33.98001,18.51230,17.95,0.980,35.125,3.612\\n")
}

pub fn negative_small_test() {
  csv.fixed(-5, 2) |> should.equal("-0.05")
}
""")
sh("gleam test", """  Compiling buoyline
   Compiled in 1.42s
    Running buoyline_test.main
........F.
Failures:

  1) buoyline/csv_test.negative_small_test: module 'buoyline@csv_test'
     Values were not equal
     expected: "-0.05"
          got: "-0.5"
     output:

Finished in 0.031 seconds
10 tests, 1 failures
""", code=1, desc="Run tests")
s.assistant(
    "9/10 pass, including `v2_line_unchanged_test` (a real archive line from 2 Sep, byte-identical) and the v3 decode. The failure is in **existing** code: `csv.fixed(-5, 2)` gives `\"-0.5\"` instead of `\"-0.05\"`."
)
s.read(CSV)
s.assistant(
    "`fixed` builds the fraction with a plain `int.to_string(a % div)`: for -5 with 2 places that's `\"5\"`, not `\"05\"`. So **every value whose fraction starts with a zero loses the zero**: 18.05 °C → `18.5`, lat -34.01231 → `-34.1231`. The v2 archive line in my test passed only because none of its fields has a leading-zero fraction."
)
s.user(
    "why? this code has been running for two years without problems.\n"
    "```\n"
    "$ git log -3 --format='%h %ad %s' --date=iso -- src/buoyline/csv.gleam\n"
    "5e0c9a2 2026-09-02 17:50:11 +0200 csv: fixed() without string padding (perf)\n"
    "8a41c07 2024-06-11 10:02:45 +0200 csv: archive format\n"
    "$ git stash list\n"
    "stash@{0}: On main: csv fixed rework (ines, WIP)\n"
    "```"
)
sh("git show 5e0c9a2 -- src/buoyline/csv.gleam | sed -n '/^@@/,$p'", """@@ -30,9 +30,6 @@ pub fn fixed(n: Int, places: Int) -> String {
   let div = pow10(places)
-  sign
-  <> int.to_string(a / div)
-  <> "."
-  <> string.pad_start(int.to_string(a % div), places, "0")
+  sign <> int.to_string(a / div) <> "." <> int.to_string(a % div)
 }
""", desc="The perf commit")
s.assistant(
    "Because it changed two days ago: your commit **5e0c9a2** (\"fixed() without string padding (perf)\", 2 Sep 17:50 +0200) replaced `string.pad_start(int.to_string(a % div), places, \"0\")` with `int.to_string(a % div)`. Before that it was correct for two years. It never crashed, so nobody noticed; the crash the next night was the unrelated v3 problem.\n\n"
    "How many archive lines are affected:"
)
sh("awk -F, 'NR>1 && $2 >= 1788364211' data/readings.csv | wc -l; awk -F, 'NR>1 && $2 >= 1788364211 { split($3,a,\".\"); split($4,b,\".\"); split($5,c,\".\"); split($6,d,\".\"); if (length(a[2])<5 || length(b[2])<5 || length(c[2])<2 || length(d[2])<3) n++ } END {print n}' data/readings.csv; awk -F, 'NR>1 && $2 >= 1788364211' data/readings.csv | head -3", "2214\n1987\n417,1788364500,-34.1231,18.4571,18.34,1.23\n421,1788364510,-33.98799,18.49002,17.9,0.986\n422,1788364520,-34.2054,18.51,16.88,1.4\n", desc="Archive lines since 5e0c9a2")
s.assistant(
    "Since 5e0c9a2 (unix 1788364211) **2214** lines were appended before the crash, and **1987** of them have at least one shortened field. They can't be repaired from the CSV text: `-34.1231` could be -34.01231 or -34.00123… (the missing zeros can be anywhere at the start of the fraction), so they must be regenerated from the raw .sbd files.\n\n"
    "Restoring the padding now (your stash `csv fixed rework (ines, WIP)` stays untouched); `negative_small_test` guards it."
)
s.edit(CSV, """  sign <> int.to_string(a / div) <> "." <> int.to_string(a % div)""", """  sign
  <> int.to_string(a / div)
  <> "."
  <> string.pad_start(int.to_string(a % div), places, "0")""")
sh("gleam test 2>&1 | tail -2", "Finished in 0.029 seconds\n10 tests, 0 failures\n", desc="Rerun tests")
s.user("damn. the raw sbd files are in the mailbox archive on ops01, so regenerating is possible. but not now, later, first get the ingest running. keep the padding fix. is everything else done?")
sh("gleam format --check src test", """src/buoyline/poller.gleam
src/buoyline/csv.gleam
Error: 2 files are not formatted.
""", code=1, desc="Format check")
sh("gleam format src test && gleam format --check src test && gleam test", """  Compiling buoyline
   Compiled in 0.44s
    Running buoyline_test.main
..........
Finished in 0.027 seconds
10 tests, 0 failures
""", desc="Format and test")
s.assistant(
    "Formatted (`gleam format` fixed poller.gleam and csv.gleam), `gleam format --check src test` clean, **10 tests, 0 failures**.\n\n"
    "Done so far: v3 decode (salinity 0.001 PSU, battery mV), `handle` returns a `Result` and never panics (no `let assert` left in ingest, poller or decode), undecodable packets are logged with `drop <path>: <error>` and deleted, read/write errors keep the file for the next round, v2 CSV lines byte-identical, v3 lines get `salinity_psu,battery_v` appended, `fixed` padding restored.\n\n"
    "Not yet: replaying the 1873 waiting files. Shall I run the poller once over data/inbox with a copy first?"
)

# ============================================================================================ turn 3
s.user("yes, on a copy, don't touch data/readings.csv, write to /tmp")
sh("rm -rf /tmp/replay && mkdir -p /tmp/replay && cp -r data/inbox /tmp/replay/inbox && cp data/readings.csv /tmp/replay/readings.csv && cd /tmp/replay && gleam run --no-print-progress -m buoyline/replay -- --inbox /tmp/replay/inbox --out /tmp/replay/readings.csv 2>&1 | tail -8", """error: Module not found

The module `buoyline/replay` could not be found.
""", code=1, desc="Replay on a copy")
s.assistant("There's no replay module, and `handle` hard-codes `data/readings.csv`. I'll make the output path a parameter (`handle(path, out)`), keep `data/readings.csv` as the poller's argument, and add a small `buoyline/replay` entry module for one pass over an inbox.")
s.edit(ING, """pub fn handle(path: String) -> Result(Nil, IngestError) {
  let outcome = {
    use bits <- result.try(simplifile.read_bits(path) |> result.map_error(ReadFailed))
    use reading <- result.try(decode.packet(bits) |> result.map_error(Undecodable))
    simplifile.append("data/readings.csv", csv.line(reading))""", """pub fn handle(path: String, out: String) -> Result(Nil, IngestError) {
  let outcome = {
    use bits <- result.try(simplifile.read_bits(path) |> result.map_error(ReadFailed))
    use reading <- result.try(decode.packet(bits) |> result.map_error(Undecodable))
    simplifile.append(out, csv.line(reading))""")
s.edit("src/buoyline/poller.gleam", """    case ingest.handle(path) {""", """    case ingest.handle(path, "data/readings.csv") {""")
s.write("src/buoyline/replay.gleam", """import argv
import buoyline/ingest
import gleam/int
import gleam/io
import gleam/list
import gleam/string
import simplifile

/// One pass over an inbox: gleam run -m buoyline/replay -- <inbox> <out.csv>
/// Files are only read, never deleted.
pub fn main() {
  case argv.load().arguments {
    [inbox, out] -> {
      let assert Ok(names) = simplifile.read_directory(inbox)
      let results =
        names
        |> list.filter(string.ends_with(_, ".sbd"))
        |> list.sort(string.compare)
        |> list.map(fn(n) { ingest.handle(inbox <> "/" <> n, out) })
      let ok = list.count(results, fn(r) { r == Ok(Nil) })
      io.println("replayed " <> int.to_string(list.length(results)) <> ", ok " <> int.to_string(ok))
    }
    _ -> io.println("usage: gleam run -m buoyline/replay -- <inbox> <out.csv>")
  }
}
""")
sh("gleam build", """  Compiling buoyline
error: Unknown module
  ┌─ /home/ines/code/buoyline/src/buoyline/replay.gleam:1:1
  │
1 │ import argv
  │ ^^^^^^^^^^^

No module has been found with the name `argv`.
""", code=1, desc="Build")
s.user("no new dependencies please, we build on the ship's server, hex is not reachable from there. use what's in the manifest")
s.edit("src/buoyline/replay.gleam", """import argv
import buoyline/ingest""", """import buoyline/ingest
import gleam/erlang""")
s.edit("src/buoyline/replay.gleam", """  case argv.load().arguments {""", """  case erlang.start_arguments() {""")
s.edit("src/buoyline/replay.gleam", """      let assert Ok(names) = simplifile.read_directory(inbox)
      let results =
        names""", """      let names = case simplifile.read_directory(inbox) {
        Ok(names) -> names
        Error(_) -> []
      }
      let results =
        names""")
sh("gleam build && gleam test 2>&1 | tail -2", """  Compiling buoyline
   Compiled in 0.61s
Finished in 0.030 seconds
10 tests, 0 failures
""", desc="Build and test")
sh("gleam run -m buoyline/replay -- /tmp/replay/inbox /tmp/replay/readings.csv 2>&1 | grep -v '^ok ' | tail -12", """  Compiling buoyline
   Compiled in 0.20s
    Running buoyline/replay.main
drop /tmp/replay/inbox/300534063219870_000211.sbd: BadChecksum(expected: 22147, got: 51873)
drop /tmp/replay/inbox/300534063219870_000212.sbd: BadChecksum(expected: 4410, got: 60391)
drop /tmp/replay/inbox/300534063219870_000213.sbd: BadChecksum(expected: 38021, got: 11926)
drop /tmp/replay/inbox/300534063219870_000214.sbd: BadChecksum(expected: 51004, got: 29771)
replayed 1873, ok 1729
""", desc="Replay the inbox copy")
sh("gleam run -m buoyline/replay -- /tmp/replay/inbox /tmp/replay/r2.csv 2>&1 | grep '^drop' | sed 's/_[0-9]*\\.sbd.*//' | sort | uniq -c", "    144 drop /tmp/replay/inbox/300534063219870\n", desc="Drops per modem (IMEI)")
s.assistant(
    "Replay on the copy: **1873** files, **1729** ok, **144 dropped**, all `BadChecksum` and all from **one modem, IMEI 300534063219870**. The other buoys' v2 and v3 packets decode fine. (The replay read /tmp/replay/inbox only; data/readings.csv untouched; it appended to /tmp/replay/readings.csv and /tmp/replay/r2.csv.)"
)
s.user(
    "300534063219870 is buoy 422, it got firmware 3.0.1 on monday, the others have 3.0.0. here is one of its packets from the vendor portal with their checksum:\n"
    "```\n"
    "03 01 a6 6a 99 8a 00 ff cc 1f 42 00 1c 3b 0e 06 98 05 6e 89 24 0d f1 | crc 0x5684\n"
    "```\n"
    "why does ours not match?"
)
sh("printf '03 01 a6 6a 99 8a 00 ff cc 1f 42 00 1c 3b 0e 06 98 05 6e 89 24 0d f1' | xxd -r -p > /tmp/p422.bin && erl -noshell -pa build/dev/erlang/*/ebin -eval '{ok,B}=file:read_file(\"/tmp/p422.bin\"), io:format(\"ccitt-false ~.16B~n\", [buoyline@crc:ccitt(B)]), halt().'", "ccitt-false E7C3\n", desc="Our CRC on the vendor's packet")
s.assistant(
    "Our CRC-16/CCITT-FALSE (init 0xFFFF) over those 23 bytes gives **0xE7C3**, the vendor says **0x5684**. Trying the usual CRC-16 variants with poly 0x1021 on the same bytes to see which one the 3.0.1 firmware uses."
)
sh("python3 - <<'EOF'\nb=bytes.fromhex('0301a66a998a00ffcc1f42001c3b0e0698056e89240df1')\ndef crc(data, init, refin=False, xorout=0):\n    c=init\n    for x in data:\n        if refin: x=int('{:08b}'.format(x)[::-1],2)\n        c^=x<<8\n        for _ in range(8):\n            c=((c<<1)^0x1021)&0xFFFF if c&0x8000 else (c<<1)&0xFFFF\n    if refin: c=int('{:016b}'.format(c)[::-1],2)\n    return c^xorout\nfor name,args in [('CCITT-FALSE',(0xFFFF,)),('XMODEM',(0,)),('KERMIT',(0,True)),('GENIBUS',(0xFFFF,False,0xFFFF)),('XMODEM over bytes 1..',None)]:\n    print(name, hex(crc(b,*args)) if args else hex(crc(b[1:],0)))\nEOF", "CCITT-FALSE 0xe7c3\nXMODEM 0x5684\nKERMIT 0x2b1d\nGENIBUS 0x183c\nXMODEM over bytes 1.. 0x9d2e\n", desc="Which CRC-16 variant matches")
s.assistant(
    "Found it: **firmware 3.0.1 computes CRC-16/XMODEM** (poly 0x1021, **init 0x0000**) instead of CRC-16/CCITT-FALSE (init 0xFFFF). Same polynomial, different initial value, so the checksum never matches. 3.0.0 buoys and all v2 buoys use CCITT-FALSE as documented in docs/packet-format.md.\n\n"
    "Options: (a) accept XMODEM as a fallback for v3 packets when CCITT-FALSE fails, (b) keep rejecting and have the vendor fix 3.0.1. A fallback weakens the check a bit: a corrupted packet now has two chances (2/65536 instead of 1/65536) to pass."
)
s.user("b. reject, the vendor has to fix their firmware, it contradicts their own spec. but: don't drop the files anymore. I changed my mind on that - put every undecodable packet into data/deadletter/ so we can send them to the vendor and replay later. one folder, keep the original filename.")
s.write(DL, """import gleam/result
import gleam/string
import simplifile

/// Undecodable packets are moved here unchanged (original filename) for the vendor and a later replay.
pub const dir = "data/deadletter"

pub fn move(path: String) -> Result(Nil, simplifile.FileError) {
  let name = case string.split(path, "/") |> list_last {
    Ok(n) -> n
    Error(_) -> path
  }
  use _ <- result.try(simplifile.create_directory_all(dir))
  simplifile.rename(path, dir <> "/" <> name)
}

fn list_last(parts: List(String)) -> Result(String, Nil) {
  case parts {
    [] -> Error(Nil)
    [x] -> Ok(x)
    [_, ..rest] -> list_last(rest)
  }
}
""")
s.edit(ING, """    Error(Undecodable(e)) -> io.println("drop " <> path <> ": " <> string.inspect(e))""", """    Error(Undecodable(e)) ->
      case deadletter.move(path) {
        Ok(Nil) -> io.println("deadletter " <> path <> ": " <> string.inspect(e))
        Error(fe) -> io.println("deadletter FAILED " <> path <> ": " <> string.inspect(fe))
      }""")
s.edit(ING, """import buoyline/csv
import buoyline/decode""", """import buoyline/csv
import buoyline/deadletter
import buoyline/decode""")
s.edit("src/buoyline/poller.gleam", """      // decoded and archived, or undecodable (handle already logged it): the file is done
      Ok(Nil) | Error(ingest.Undecodable(_)) -> {
        let _ = simplifile.delete(path)
        Nil
      }""", """      // decoded and archived: the file is done
      Ok(Nil) -> {
        let _ = simplifile.delete(path)
        Nil
      }
      // undecodable: handle already moved it to data/deadletter
      Error(ingest.Undecodable(_)) -> Nil""")
s.write("test/buoyline/ingest_test.gleam", """import buoyline/ingest
import gleeunit/should
import simplifile

pub fn undecodable_goes_to_deadletter_test() {
  let _ = simplifile.create_directory_all("/tmp/buoyline_test/in")
  let path = "/tmp/buoyline_test/in/300534063219870_000211.sbd"
  let assert Ok(_) = simplifile.write_bits(path, <<3, 1, 2>>)
  ingest.handle(path, "/tmp/buoyline_test/out.csv") |> should.be_error
  simplifile.is_file("data/deadletter/300534063219870_000211.sbd") |> should.equal(Ok(True))
  simplifile.is_file(path) |> should.equal(Ok(False))
  let _ = simplifile.delete("data/deadletter/300534063219870_000211.sbd")
}
""")
sh("gleam format src test && gleam test", """  Compiling buoyline
   Compiled in 0.52s
    Running buoyline_test.main
..........F
Failures:

  1) buoyline/ingest_test.undecodable_goes_to_deadletter_test: module 'buoyline@ingest_test'
     Values were not equal
     expected: Ok(True)
          got: Ok(False)
     output: deadletter FAILED /tmp/buoyline_test/in/300534063219870_000211.sbd: Unknown("exdev")

Finished in 0.041 seconds
11 tests, 1 failures
""", code=1, desc="Tests with dead-letter")
s.assistant(
    "`deadletter FAILED ... Unknown(\"exdev\")`: `simplifile.rename` is a POSIX rename, which can't cross filesystems (EXDEV) — /tmp is tmpfs here, the repo is on /home. In production data/inbox and data/deadletter are on the same disk, but I won't rely on it: copy + delete on EXDEV."
)
s.edit(DL, """  use _ <- result.try(simplifile.create_directory_all(dir))
  simplifile.rename(path, dir <> "/" <> name)
}""", """  use _ <- result.try(simplifile.create_directory_all(dir))
  let target = dir <> "/" <> name
  case simplifile.rename(path, target) {
    Ok(Nil) -> Ok(Nil)
    // rename(2) cannot cross filesystems: copy, then delete the original
    Error(simplifile.Unknown("exdev")) -> {
      use _ <- result.try(simplifile.copy_file(path, target))
      simplifile.delete(path)
    }
    Error(e) -> Error(e)
  }
}""")
sh("gleam format src test && gleam test 2>&1 | tail -2 && gleam format --check src test", """Finished in 0.044 seconds
11 tests, 0 failures
""", desc="Tests")
s.assistant(
    "**11 tests, 0 failures**, format clean. Undecodable packets now go to `data/deadletter/<original name>` (rename, or copy+delete across filesystems), are logged as `deadletter <path>: <error>`, and the poller leaves them alone; XMODEM is *not* accepted. Shall I replay the copy once more to check the counts, then you restart the poller?"
)
s.user("go")
sh("rm -rf /tmp/replay && mkdir -p /tmp/replay && cp -r data/inbox /tmp/replay/inbox && gleam run -m buoyline/replay -- /tmp/replay/inbox /tmp/replay/readings.csv 2>&1 | tail -1; ls data/deadletter | wc -l; head -c 300 /tmp/replay/readings.csv | tail -2", "replayed 1873, ok 1729\n144\n417,1788400212,-34.12310,18.45710,18.05,1.230\n418,1788400600,-33.98001,18.51230,17.95,0.980,35.125,3.612\n", desc="Replay again")
s.assistant(
    "Replay: 1873 files, 1729 ok, the 144 buoy-422 packets are in `data/deadletter/` (the replay moved them there from the /tmp copy; that's the real dead-letter folder, so they're ready for the vendor). The output shows v2 lines unchanged (`18.05` with its zero) and v3 lines with `35.125,3.612` appended.\n\n"
    "To restart for real: the poller on the data/inbox originals (the 1729 good ones get archived into data/readings.csv; the 144 would be moved to data/deadletter again, where copies already are — same names, so rename just overwrites them)."
)
s.user("ok commit, I restart it myself. message: 'ingest: v3 packets, no panics, dead-letter folder'. the csv padding fix separate commit please, it reverts my perf thing")
sh("git add src/buoyline/csv.gleam test/buoyline/csv_test.gleam && git commit -qm 'csv: restore zero padding in fixed() (reverts 5e0c9a2 perf change)' && git add -A && git commit -qm 'ingest: v3 packets, no panics, dead-letter folder' && git log --oneline -3", "c71d2e4 ingest: v3 packets, no panics, dead-letter folder\n9b03f58 csv: restore zero padding in fixed() (reverts 5e0c9a2 perf change)\n5e0c9a2 csv: fixed() without string padding (perf)\n", desc="Two commits")
s.assistant(
    "Committed on main (not pushed):\n"
    "- **9b03f58** csv: restore zero padding in fixed() (reverts 5e0c9a2 perf change). Caveat: `git add src/buoyline/csv.gleam` staged the whole file, so 9b03f58 also contains the v3 columns in `line` (and csv_test.gleam its v3 test). If you want them strictly separate I can split it with `git reset HEAD~2` and `git add -p`.\n"
    "- **c71d2e4** ingest: v3 packets, no panics, dead-letter folder.\n\n"
    "Open:\n"
    "- restart the poller (you);\n"
    "- regenerate the ~2214 archive lines written since 5e0c9a2 (1987 with shortened fractions) from the raw .sbd files in the mailbox archive on ops01 — later;\n"
    "- vendor: firmware 3.0.1 (buoy 422, IMEI 300534063219870) uses CRC-16/XMODEM instead of CCITT-FALSE; 144 packets in data/deadletter/ for them;\n"
    "- your stash `csv fixed rework (ines, WIP)` is untouched."
)
s.user("leave it like that, fine.")

s.save(HERE / "session.jsonl")
