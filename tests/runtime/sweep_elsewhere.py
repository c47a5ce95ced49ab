"""One sweep in a process of its own, with the compaction door, the planner and the validator
counted where the runtime looks them up; prints one JSON object (tests/runtime/test_one_door.py).

    DATABASE_URL=… python -m tests.runtime.sweep_elsewhere
"""

from __future__ import annotations

import asyncio
import importlib
import json
from typing import Any


def main() -> dict[str, Any]:
    import django

    django.setup()
    from sessions_app.runtime import compact_fork, spawn, sweeper

    plan_module = importlib.import_module("sessions_app.compaction.plan")
    validate_module = importlib.import_module("sessions_app.compaction.validate")
    seen: dict[str, Any] = {"runs": 0, "plans": [], "validations": 0}
    run, plan, validate = compact_fork.CompactionJob.run, plan_module.plan, validate_module.validate_payload

    async def counted_run(job: Any, **kwargs: Any) -> Any:
        seen["runs"] += 1
        return await run(job, **kwargs)

    def counted_plan(path: Any, settings: Any = None, first_kept: Any = None, **kwargs: Any) -> Any:
        cut = kwargs.get("cut")
        seen["plans"].append(
            {
                "keep_recent_tokens": settings.keep_recent_tokens if settings else None,
                "cut": [cut.boundary_start, cut.first_kept, cut.turn_start] if cut else None,
            }
        )
        return plan(path, settings, first_kept, **kwargs)

    def counted_validate(*args: Any, **kwargs: Any) -> Any:
        seen["validations"] += 1
        return validate(*args, **kwargs)

    setattr(compact_fork.CompactionJob, "run", counted_run)  # noqa: B010 (a method, replaced)
    setattr(plan_module, "plan", counted_plan)  # noqa: B010
    setattr(validate_module, "validate_payload", counted_validate)  # noqa: B010

    async def sweep() -> list[int]:
        retried = await sweeper.sweep_once()
        await spawn.drain()
        return retried

    seen["retried"] = asyncio.run(sweep())
    return seen


if __name__ == "__main__":
    print(json.dumps(main()))
