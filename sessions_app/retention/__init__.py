"""What a compaction keeps, and how Cutpoint checks it (docs/retention.md): the facts of a span,
the sentence readers they rest on, tool outcomes, the extractive summarizer, the carry-over
guard, node digests and the retention audit.

Pure functions, no Django. This package sits above the engine (`sessions_app/compaction/`): it
imports the engine, never the reverse (docs/architecture.md, "Layers").
"""
