# ruff: noqa: E501
"""Starting contents of the files the session reads (a Scala 3 / sbt project, written for the heldout3 split)."""

SHIFT = '''package turnos

import java.time.{DayOfWeek, LocalDate, LocalTime}

enum Ward:
  case UCI, Urgencias, Planta

final case class Shift(id: String, ward: Ward, date: LocalDate, start: LocalTime, end: LocalTime):
  def day: DayOfWeek = date.getDayOfWeek

final case class Nurse(id: String, name: String, wards: Set[Ward])

final case class Assignment(shift: Shift, nurse: Nurse)

final case class Conflict(nurse: String, first: String, second: String)
'''

ROSTER = '''package turnos

object Roster:

  final case class Result(assignments: List[Assignment], conflicts: List[Conflict])

  /** Two shifts of the same nurse overlap when they share time on the same date. */
  def overlaps(a: Shift, b: Shift): Boolean =
    a.date == b.date && a.start.isBefore(b.end) && b.start.isBefore(a.end)

  /** Greedy: shifts in time order, each to the first nurse of the ward with the fewest shifts and no overlap. */
  def build(shifts: List[Shift], nurses: List[Nurse]): Result =
    val ordered = shifts.sortBy(s => (s.date, s.start))
    val assigned = ordered.foldLeft(List.empty[Assignment]) { (acc, shift) =>
      val candidates = nurses
        .filter(_.wards.contains(shift.ward))
        .filterNot(n => acc.exists(a => a.nurse == n && overlaps(a.shift, shift)))
        .sortBy(n => acc.count(_.nurse == n))
      candidates.headOption.fold(acc)(n => Assignment(shift, n) :: acc)
    }
    Result(assigned.reverse, conflicts(assigned))

  def conflicts(assignments: List[Assignment]): List[Conflict] =
    assignments.groupBy(_.nurse.id).toList.flatMap { (nurse, as) =>
      as.combinations(2).collect {
        case List(a, b) if overlaps(a.shift, b.shift) => Conflict(nurse, a.shift.id, b.shift.id)
      }
    }
'''

SUITE = '''package turnos

import java.time.{LocalDate, LocalTime}

class RosterSuite extends munit.FunSuite:
  private val marta = Nurse("N-014", "Marta", Set(Ward.UCI))
  private def shift(id: String, d: Int, from: Int, to: Int) =
    Shift(id, Ward.UCI, LocalDate.of(2025, 11, d), LocalTime.of(from, 0), LocalTime.of(to, 0))

  test("two day shifts on the same date overlap") {
    assert(Roster.overlaps(shift("a", 25, 8, 15), shift("b", 25, 14, 22)))
  }

  test("shifts on different days do not overlap") {
    assert(!Roster.overlaps(shift("a", 25, 8, 15), shift("b", 26, 8, 15)))
  }
'''
