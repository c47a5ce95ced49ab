"""Compaction settings: how much to keep, how much room to reserve, and which rulebook to follow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from .vocabulary import SummaryStrategy

Compat = Literal["default", "pi"]
# The values of vocabulary.SummaryStrategy, spelled out for the type checker (a test checks that
# they agree); the check below uses the enum itself.
Strategy = Literal["auto", "model", "extractive", "masking"]

STRATEGIES: Final = tuple(s.value for s in SummaryStrategy)

# The context window assumed where none is known (a session without one, a profile that names
# none): Claude's, and that of most current models.
DEFAULT_CONTEXT_WINDOW: Final = 200_000
DEFAULT_RESERVE_TOKENS = 16384
DEFAULT_KEEP_RECENT_TOKENS = 20000


@dataclass(frozen=True, slots=True)
class CompactionSettings:
    """`compat="pi"` reproduces pi 0.73.1 exactly (chars/4 estimates and its quirks P1–P8 in
    docs/pi-compat.md);
    `"default"` uses the stored tiktoken estimates and fixes those quirks."""

    enabled: bool = True
    reserve_tokens: int = DEFAULT_RESERVE_TOKENS
    keep_recent_tokens: int = DEFAULT_KEEP_RECENT_TOKENS
    threshold_tokens: int | None = None  # explicit threshold; wins over everything else
    threshold_percent: float | None = None  # percent (0–100] of the context window
    compat: Compat = "default"
    # Who writes summaries (docs/compaction.md, "Summarizers"), and whether what a model's summary
    # lost of the user's constraints and open requests is appended verbatim.
    strategy: Strategy = "auto"
    carry_over: bool = True

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGIES:
            raise ValueError(f"strategy must be one of {', '.join(STRATEGIES)}, not {self.strategy!r}")
        if self.compat not in ("default", "pi"):
            raise ValueError(f"compat must be 'default' or 'pi', not {self.compat!r}")
        if self.reserve_tokens < 0 or self.keep_recent_tokens < 0:
            raise ValueError("reserve_tokens and keep_recent_tokens must not be negative")
        if self.threshold_percent is not None and not 0 < self.threshold_percent <= 100:
            raise ValueError(f"threshold_percent must be in (0, 100], not {self.threshold_percent}")

    @property
    def is_pi(self) -> bool:
        return self.compat == "pi"
