"""What went wrong with an imported file, line by line."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class LineProblem:
    """One problem: the file, the 1-based line it is on, and what is wrong."""

    file: str
    line: int
    problem: str

    def __str__(self) -> str:
        return f"{self.file}, line {self.line}: {self.problem}"


class ImportFailed(Exception):
    """The file could not be imported; nothing was written.

    `problems` lists every problem found (up to the importer's limit); `file`, `line` and
    `problem` are those of the first one. `skippable` is False when skipping bad lines would not
    help (an empty file, an unreadable header, a node the database refuses).
    """

    def __init__(self, problems: list[LineProblem], *, more: int = 0, skippable: bool = True) -> None:
        if not problems:
            raise ValueError("ImportFailed needs at least one problem")
        self.problems = problems
        self.more = more  # problems found past the limit, not listed
        self.skippable = skippable
        first = problems[0]
        self.file, self.line, self.problem = first.file, first.line, first.problem
        text = str(first)
        others = len(problems) - 1 + more
        if others:
            text += f" (and {others} more problem{'s' if others > 1 else ''})"
        super().__init__(text)

    def report(self) -> str:
        """Every listed problem, one per line."""
        lines = [str(p) for p in self.problems]
        if self.more:
            lines.append(f"... and {self.more} more")
        return "\n".join(lines)
