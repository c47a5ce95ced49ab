# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Claude Code session written by hand for the heldout3 split.

A Spanish-speaking developer ("Hola", "is not possible that...", "vale", decisions as "So: ...")
has Claude Code fix a Scala 3 shift roster that misses overlaps across midnight, then enforce an
11-hour rest rule (a hard rule, not a warning; she considers 10 h for the ICU and drops it in the
same message), and report unfilled shifts with an optional JSON field. sbt + munit; a Scala 3
compile error and a munit diff with the salient line in the middle.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/lucia/proyectos/turnos"
s = ClaudeSession(CWD, "2025-11-26T17:31:08", seed="turnos-rest", branch="lucia/descanso-11h")
C = "core/src/main/scala/turnos/"
SH = C + "Shift.scala"
RO = C + "Roster.scala"
SU = "core/src/test/scala/turnos/RosterSuite.scala"
s.files.update({SH: F.SHIFT, RO: F.ROSTER, SU: F.SUITE})


def tool(name: str, args: dict, output: str, text: str | None = None, result: object = None) -> None:
    (cid,) = s.assistant(text, calls=[(name, args)])
    s.result(cid, output, result if result is not None else {"stdout": output})


SBT_HEAD = "[info] welcome to sbt 1.10.5 (Eclipse Adoptium Java 21.0.5)\n[info] loading settings for project turnos-build from plugins.sbt ...\n[info] loading project definition from /home/lucia/proyectos/turnos/project\n[info] loading settings for project root from build.sbt ...\n[info] set current project to turnos (in build file:/home/lucia/proyectos/turnos/)\n"

# ============================================================================================ turn 1
s.user(
    "Hola! We have a problem with the turnos (the roster). Marta (N-014) had the night shift in UCI on Tuesday 22:00-06:00 and the roster gave her "
    "also the morning shift on Wednesday from 05:00. Is not possible that the system says there is no conflict, she was working two shifts at the same time!\n\n"
    "Some things: the JSON of the API must not change, the mobile app of the nurses reads it. We stay on Scala 3.3 LTS (not 3.5, the image of the cluster is fixed). "
    "And please run only `sbt core/test`, the tests of the api module need a postgres in docker and here I don't have it running.",
    pause=0,
)
s.reads([SH, RO], text="Hola Lucía. Let me read the model and the roster first.")
s.read(SU)
tool("Grep", {"pattern": "Shift\\(", "path": "api/src/main/scala", "output_mode": "content", "-n": True},
     "api/src/main/scala/turnos/api/Codecs.scala:14:  given Encoder[Shift] = Encoder.forProduct5(\"id\", \"ward\", \"date\", \"start\", \"end\")(s => (s.id, s.ward.toString, s.date, s.start, s.end))\n"
     "api/src/main/scala/turnos/api/Codecs.scala:15:  given Decoder[Shift] = Decoder.forProduct5(\"id\", \"ward\", \"date\", \"start\", \"end\")(Shift.apply)",
     result={"mode": "content", "numFiles": 1, "filenames": [], "content": "api/src/main/scala/turnos/api/Codecs.scala:14", "numLines": 2})
s.bash("grep -n 'scalaVersion\\|munit\\|circe' build.sbt", "3:ThisBuild / scalaVersion := \"3.3.4\"\n18:    libraryDependencies += \"org.scalameta\" %% \"munit\" % \"1.0.2\" % Test,\n27:    libraryDependencies ++= Seq(\"io.circe\" %% \"circe-core\" % \"0.14.10\", \"io.circe\" %% \"circe-parser\" % \"0.14.10\"),\n", description="Versions in build.sbt")
s.bash("sbt core/test", SBT_HEAD + "[info] compiling 6 Scala sources to /home/lucia/proyectos/turnos/core/target/scala-3.3.4/classes ...\n[info] compiling 4 Scala sources to /home/lucia/proyectos/turnos/core/target/scala-3.3.4/test-classes ...\n"
       "turnos.RosterSuite:\n  + two day shifts on the same date overlap 0.011s\n  + shifts on different days do not overlap 0.001s\n"
       "turnos.WeekSuite:\n  + week starts on monday 0.002s\n  + holidays come from data/festivos.json 0.034s\n"
       "[info] Passed: Total 57, Failed 0, Errors 0, Passed 57\n[success] Total time: 21 s, completed 26 nov 2025, 17:34:40\n", description="Run the core tests")
s.assistant(
    "I see the bug. `Roster.overlaps` compares only `LocalTime`s and only when the two shifts have the **same date**. A night shift 22:00-06:00 "
    "is stored with the date it starts (Tuesday) and `end = 06:00`, which is *before* its start. So:\n\n"
    "- Tuesday night vs Wednesday 05:00: different dates, never compared\n"
    "- and even on one date, `end < start` makes the comparison false\n\n"
    "Fix: give `Shift` the real instants, `startsAt = date.atTime(start)` and `endsAt` on the next day when `end` is not after `start`, and compare those. "
    "The case class fields stay the same (`Codecs.scala` encodes exactly id, ward, date, start, end), so the JSON does not change. First a test that reproduces Marta's case. 57 tests pass now."
)
s.edit(SU, '''  test("shifts on different days do not overlap") {''', '''  test("a night shift overlaps the next morning shift (N-014, 25-26 Nov)") {
    val night = shift("uci-n-25", 25, 22, 6)
    val morning = shift("uci-m-26", 26, 5, 13)
    assert(Roster.overlaps(night, morning))
    val roster = Roster.build(List(night, morning), List(marta))
    assertEquals(roster.conflicts, Nil)
    assertEquals(roster.assignments.map(_.shift.id), List("uci-n-25"))
  }

  test("shifts on different days do not overlap") {''')
s.bash(
    "sbt core/test",
    SBT_HEAD + "[info] compiling 1 Scala source to /home/lucia/proyectos/turnos/core/target/scala-3.3.4/test-classes ...\n"
    "turnos.RosterSuite:\n  + two day shifts on the same date overlap 0.012s\n"
    "==> X turnos.RosterSuite.a night shift overlaps the next morning shift (N-014, 25-26 Nov)  0.004s munit.FailException: /home/lucia/proyectos/turnos/core/src/test/scala/turnos/RosterSuite.scala:19 assertion failed\n"
    "18:    val morning = shift(\"uci-m-26\", 26, 5, 13)\n19:    assert(Roster.overlaps(night, morning))\n20:    val roster = Roster.build(List(night, morning), List(marta))\n"
    "    at munit.FunSuite.assert(FunSuite.scala:11)\n    at turnos.RosterSuite.$init$$$anonfun$3(RosterSuite.scala:19)\n"
    "  + shifts on different days do not overlap 0.001s\n"
    "turnos.WeekSuite:\n  + week starts on monday 0.002s\n  + holidays come from data/festivos.json 0.031s\n"
    "[error] Failed: Total 58, Failed 1, Errors 0, Passed 57\n[error] Failed tests:\n[error] \tturnos.RosterSuite\n"
    "[error] (core / Test / test) sbt.TestsFailedException: Tests unsuccessful\n[error] Total time: 9 s, completed 26 nov 2025, 17:38:02\n",
    code=1,
    description="Run the core tests (expect the new one to fail)",
)
s.edit(SH, '''final case class Shift(id: String, ward: Ward, date: LocalDate, start: LocalTime, end: LocalTime):
  def day: DayOfWeek = date.getDayOfWeek
''', '''final case class Shift(id: String, ward: Ward, date: LocalDate, start: LocalTime, end: LocalTime):
  def day: DayOfWeek = date.getDayOfWeek

  /** `date` is the day the shift starts; a shift whose end is not after its start ends the next day (nights). */
  def startsAt: LocalDateTime = date.atTime(start)
  def endsAt: LocalDateTime = if end.isAfter(start) then date.atTime(end) else date.plusDays(1).atTime(end)
''', text="It fails as in production. Now the fix in `Shift` and `Roster.overlaps`:")
s.edit(SH, "import java.time.{DayOfWeek, LocalDate, LocalTime}\n", "import java.time.{DayOfWeek, LocalDate, LocalDateTime, LocalTime}\n")
s.edit(RO, '''  /** Two shifts of the same nurse overlap when they share time on the same date. */
  def overlaps(a: Shift, b: Shift): Boolean =
    a.date == b.date && a.start.isBefore(b.end) && b.start.isBefore(a.end)
''', '''  /** Two shifts overlap when their real intervals intersect (night shifts end the next day). */
  def overlaps(a: Shift, b: Shift): Boolean =
    a.startsAt.isBefore(b.endsAt) && b.startsAt.isBefore(a.endsAt)
''')
s.bash("sbt core/test 2>&1 | tail -4", "  + holidays come from data/festivos.json 0.030s\n[info] Passed: Total 58, Failed 0, Errors 0, Passed 58\n[success] Total time: 12 s, completed 26 nov 2025, 17:40:51\n", description="Run the core tests")
s.bash("sbt \"core/runMain turnos.cli.Preview data/semana-48.json\" 2>&1 | tail -6",
       "[info] running turnos.cli.Preview data/semana-48.json\nweek 48 (24-30 Nov 2025): 214 shifts, 61 nurses\nassigned: 214/214\nconflicts: 0\n"
       "nurses with a night followed by a morning: 9\n[success] Total time: 7 s, completed 26 nov 2025, 17:41:30\n", description="Preview week 48 with real data")
s.assistant(
    "Fixed: `Shift` has `startsAt`/`endsAt` (a night shift ends on the next day), `overlaps` compares those. Marta's case is now a conflict and the "
    "roster does not give her the Wednesday morning. 58 tests pass.\n\nBut the preview of week 48 shows something else: 9 nurses still get a night "
    "and then a morning shift, no overlap but only a few hours of rest between them (e.g. night ending 06:00, morning at 07:00 = 1 h). That is legal for the code today."
)

# ============================================================================================ turn 2
s.user(
    "Vale, perfect, gracias. Yes, the rest is the other thing the union is asking: minimum 11 hours of rest between two shifts of the same nurse "
    "(is the EU working time directive). So: if there are less than 11 h, the roster must not assign the shift. Not a warning, a hard rule."
)
s.edit(RO, '''  /** Greedy: shifts in time order, each to the first nurse of the ward with the fewest shifts and no overlap. */''', '''  /** Minimum rest between two shifts of one nurse (EU working time directive, union agreement 2025). */
  val MinRest: Duration = Duration.ofHours(11)

  def restHours(a: Shift, b: Shift): Long =
    if a.endsAt.isAfter(b.startsAt) then Duration.between(b.endsAt, a.startsAt).toHours
    else Duration.between(a.endsAt, b.startsAt).toHours

  /** Overlapping, or less than MinRest apart: one nurse cannot take both. */
  def tooClose(a: Shift, b: Shift): Boolean =
    overlaps(a, b) || restHours(a, b) < MinRest

  /** Greedy: shifts in time order, each to the first nurse of the ward with the fewest shifts and none too close. */''')
s.edit(RO, "        .filterNot(n => acc.exists(a => a.nurse == n && overlaps(a.shift, shift)))\n", "        .filterNot(n => acc.exists(a => a.nurse == n && tooClose(a.shift, shift)))\n")
s.edit(RO, "package turnos\n\nobject Roster:\n", "package turnos\n\nimport java.time.Duration\n\nobject Roster:\n")
s.bash(
    "sbt core/test",
    SBT_HEAD + "[info] compiling 1 Scala source to /home/lucia/proyectos/turnos/core/target/scala-3.3.4/classes ...\n"
    "[error] -- [E134] Type Error: /home/lucia/proyectos/turnos/core/src/main/scala/turnos/Roster.scala:20:4 \n"
    "[error] 20 |    overlaps(a, b) || restHours(a, b) < MinRest\n"
    "[error]    |                      ^^^^^^^^^^^^^^^^^\n"
    "[error]    |None of the overloaded alternatives of method < in class Long with types\n"
    "[error]    | (x: Double): Boolean\n[error]    | (x: Float): Boolean\n[error]    | (x: Long): Boolean\n[error]    | (x: Int): Boolean\n"
    "[error]    | (x: Char): Boolean\n[error]    | (x: Short): Boolean\n[error]    | (x: Byte): Boolean\n"
    "[error]    |match arguments ((turnos.Roster.MinRest : java.time.Duration))\n"
    "[error] one error found\n[error] (core / Compile / compileIncremental) Compilation failed\n[error] Total time: 6 s, completed 26 nov 2025, 17:47:19\n",
    code=1,
    description="Run the core tests",
)
s.multi_edit(RO, [
    ("  def restHours(a: Shift, b: Shift): Long =\n    if a.endsAt.isAfter(b.startsAt) then Duration.between(b.endsAt, a.startsAt).toHours\n    else Duration.between(a.endsAt, b.startsAt).toHours\n",
     "  /** Time between the end of the earlier shift and the start of the later one (negative when they overlap). */\n"
     "  def rest(a: Shift, b: Shift): Duration =\n    if a.startsAt.isAfter(b.startsAt) then Duration.between(b.endsAt, a.startsAt)\n    else Duration.between(a.endsAt, b.startsAt)\n"),
    ("    overlaps(a, b) || restHours(a, b) < MinRest\n", "    overlaps(a, b) || rest(a, b).compareTo(MinRest) < 0\n"),
], text="I compared hours (`Long`) with a `Duration`. Better to keep everything as `Duration` (whole hours would also round 10 h 59 min down to 10, wrongly):")
s.edit(SU, '''  test("shifts on different days do not overlap") {''', '''  test("less than 11 h of rest: the second shift goes to another nurse or stays unfilled") {
    val night = shift("uci-n-25", 25, 22, 6)
    val late = shift("uci-t-26", 26, 15, 22) // 9 h after the night
    val next = shift("uci-n-26", 26, 22, 6)  // 16 h after the night
    assert(Roster.tooClose(night, late))
    assert(!Roster.tooClose(night, next))
    assertEquals(Roster.build(List(night, late, next), List(marta)).assignments.map(_.shift.id), List("uci-n-25", "uci-n-26"))
  }

  test("exactly 11 h of rest is allowed") {
    assert(!Roster.tooClose(shift("a", 25, 8, 15), shift("b", 26, 2, 8)))
  }

  test("shifts on different days do not overlap") {''')
s.bash("sbt core/test 2>&1 | tail -3", "[info] Passed: Total 60, Failed 0, Errors 0, Passed 60\n[success] Total time: 13 s, completed 26 nov 2025, 17:50:02\n", description="Run the core tests")
s.bash("sbt \"core/runMain turnos.cli.Preview data/semana-48.json\" 2>&1 | tail -7",
       "[info] running turnos.cli.Preview data/semana-48.json\nweek 48 (24-30 Nov 2025): 214 shifts, 61 nurses\nassigned: 212/214\nconflicts: 0\n"
       "nurses with a night followed by a morning: 0\nunfilled: uci-m-29 (Sat 29 Nov 06:00-14:00, UCI), uci-m-30 (Sun 30 Nov 06:00-14:00, UCI)\n"
       "[success] Total time: 7 s, completed 26 nov 2025, 17:50:44\n", description="Preview week 48")
s.assistant(
    "The 11 h rule is in: `Roster.MinRest = 11 h`, `tooClose` = overlap or less rest than that, and `build` never gives a nurse a shift too close to one she has. "
    "Exactly 11 h is allowed. 60 tests pass.\n\nWith the real week 48 this has a cost: **2 of 214 shifts stay unfilled**, both UCI mornings at the weekend "
    "(Sat 29 and Sun 30 Nov, 06:00-14:00): the UCI nurses who are free all worked the night before. Before, those were filled by breaking the rest rule."
)

# ============================================================================================ turn 3
s.user(
    "Ay, 2 unfilled is a problem. Hmm, what if for UCI we allow 10 h? No, better no, the law is 11 h for everybody and I don't want problems with the inspection. "
    "So: we keep 11 h, and the unfilled shifts must appear in the response so Carmen (the supervisor) can fill them by hand. "
    "I know I said the JSON must not change... is it possible without changing it?"
)
s.bash("sed -n '1,40p' api/src/main/scala/turnos/api/Codecs.scala | grep -n 'Result\\|forProduct'", "14:  given Encoder[Shift] = Encoder.forProduct5(\"id\", \"ward\", \"date\", \"start\", \"end\")(s => (s.id, s.ward.toString, s.date, s.start, s.end))\n15:  given Decoder[Shift] = Decoder.forProduct5(\"id\", \"ward\", \"date\", \"start\", \"end\")(Shift.apply)\n22:  given Encoder[Roster.Result] = Encoder.forProduct2(\"assignments\", \"conflicts\")(r => (r.assignments, r.conflicts))\n", description="How the roster is encoded")
s.assistant(
    "Not completely: today the response is `{\"assignments\": [...], \"conflicts\": [...]}` and an unfilled shift is simply absent. Without a change the app cannot "
    "tell \"unfilled\" from \"no shift\". Two options:\n\n"
    "1. Add an optional field `unfilled` (list of shift ids) to the roster response. Existing fields stay identical; it only breaks a client that rejects unknown fields.\n"
    "2. A separate endpoint for Carmen, e.g. `GET /roster/{week}/unfilled`, and the roster JSON stays exactly as it is.\n\n"
    "Does the mobile app ignore unknown fields?"
)
s.user("I asked Pablo (mobile): the app ignores unknown fields, they use kotlinx with ignoreUnknownKeys. So: option 1 is ok, the new field only, and the existing fields exactly the same.")
s.multi_edit(RO, [
    ("  final case class Result(assignments: List[Assignment], conflicts: List[Conflict])\n",
     "  /** `unfilled`: shifts no nurse could take without breaking MinRest or an overlap; the supervisor fills them by hand. */\n"
     "  final case class Result(assignments: List[Assignment], conflicts: List[Conflict], unfilled: List[Shift] = Nil)\n"),
    ("      candidates.headOption.fold(acc)(n => Assignment(shift, n) :: acc)\n    }\n    Result(assigned.reverse, conflicts(assigned))\n",
     "      candidates.headOption.fold(acc)(n => Assignment(shift, n) :: acc)\n    }\n"
     "    val taken = assigned.map(_.shift.id).toSet\n    Result(assigned.reverse, conflicts(assigned), ordered.filterNot(s => taken(s.id)))\n"),
])
s.files["api/src/main/scala/turnos/api/Codecs.scala"] = "  given Encoder[Roster.Result] = Encoder.forProduct2(\"assignments\", \"conflicts\")(r => (r.assignments, r.conflicts))\n"
s.edit("api/src/main/scala/turnos/api/Codecs.scala",
       "  given Encoder[Roster.Result] = Encoder.forProduct2(\"assignments\", \"conflicts\")(r => (r.assignments, r.conflicts))\n",
       "  // \"unfilled\" is new (2025-11); the mobile app ignores unknown keys, the first two fields must not change.\n"
       "  given Encoder[Roster.Result] =\n    Encoder.forProduct3(\"assignments\", \"conflicts\", \"unfilled\")(r => (r.assignments, r.conflicts, r.unfilled.map(_.id)))\n")
s.edit(SU, '''    assertEquals(Roster.build(List(night, late, next), List(marta)).assignments.map(_.shift.id), List("uci-n-25", "uci-n-26"))
''', '''    val roster = Roster.build(List(night, late, next), List(marta))
    assertEquals(roster.assignments.map(_.shift.id), List("uci-n-25", "uci-n-26"))
    assertEquals(roster.unfilled.map(_.id), List("uci-t-26"))
''')
s.bash("sbt core/test api/compile 2>&1 | tail -4", "[info] Passed: Total 60, Failed 0, Errors 0, Passed 60\n[info] compiling 5 Scala sources to /home/lucia/proyectos/turnos/api/target/scala-3.3.4/classes ...\n[success] Total time: 24 s, completed 26 nov 2025, 18:03:12\n", description="Core tests and api compile (api tests need postgres)")
s.bash("git diff --stat", " api/src/main/scala/turnos/api/Codecs.scala         |  4 +++-\n core/src/main/scala/turnos/Roster.scala            | 27 ++++++++++++++++++----\n core/src/main/scala/turnos/Shift.scala             |  6 ++++-\n core/src/test/scala/turnos/RosterSuite.scala       | 27 ++++++++++++++++++++++\n 4 files changed, 56 insertions(+), 8 deletions(-)\n", description="Diff summary")
s.assistant(
    "Done: `Roster.Result` has `unfilled` (default empty), and the API encodes it as `\"unfilled\": [\"uci-m-29\", \"uci-m-30\"]` after `assignments` and `conflicts`, "
    "which are unchanged. Core: 60 tests pass; the api module compiles, but its tests did not run (they need the postgres container), so the JSON itself is "
    "not tested by a test yet. Worth running `sbt api/test` where docker is available before merging. Nothing committed."
)

# ============================================================================================ turn 4
s.user(
    "Muchas gracias. Don't commit, I review it tomorrow with Carmen. Can you write me a short text for the PR description? "
    "And for the future, not now: the clinic in Porto has other rules (12 h, I think), we will need the rest configurable per centre."
)
s.assistant(
    "PR description:\n\n"
    "> **Roster: real overlap across midnight, 11 h minimum rest, unfilled shifts**\n"
    ">\n"
    "> - Night shifts end on the next day (`Shift.startsAt`/`endsAt`); `Roster.overlaps` compares real intervals. Before, a night 22:00-06:00 and a morning at 05:00 the next day were never compared (N-014, 25-26 Nov).\n"
    "> - New hard rule: at least 11 h between two shifts of one nurse (`Roster.MinRest`); shifts that nobody can take stay unfilled.\n"
    "> - The roster JSON gets an optional `unfilled` field (shift ids); `assignments` and `conflicts` are unchanged. The mobile app ignores unknown keys.\n"
    "> - Week 48 preview: 212/214 assigned, 2 UCI weekend mornings unfilled (29 and 30 Nov).\n"
    "> - Tests: core 60 pass. `sbt api/test` not run (needs postgres).\n\n"
    "Not committed. Noted for later: the minimum rest per centre (Porto ~12 h); today `MinRest` is one constant in `Roster`."
)

s.save(HERE / "session.jsonl")
