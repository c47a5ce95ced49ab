"""pi's session files (JSONL schema v1-v3): `reader` (file → engine entries), `writer` (stored
nodes → v3 lines) and `schema`, pi's spellings both of them use."""
