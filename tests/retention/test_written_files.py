"""What a file written whole says of itself (retention/written_files.py): its opening doc line and
its top-level names, from a pi/Claude write and a Codex apply_patch, in several languages."""

from __future__ import annotations

from sessions_app.compaction.vocabulary import FactKind
from sessions_app.retention.facts import extract_facts
from sessions_app.retention.written_files import gist
from tests.compaction.builders import Chain

ELIXIR = '''defmodule Shop.Cart do
  @moduledoc """
  Cart totals in cents, with the VAT of each line.
  """
  def total(lines), do: Enum.sum(lines)
end
'''
SWIFT = """// Retry policy for the carrier API: exponential backoff with jitter.
import Foundation

public struct RetryPolicy {
}

func backoff(attempt: Int) -> Double { 0 }
"""
PATCH = """*** Begin Patch
*** Add File: src/tallyho/money.py
+\"\"\"Money amounts: parsing bank notation into Decimal.\"\"\"
+
+class AmountError(ValueError):
+    pass
+
+def parse_amount(text):
+    return text
*** Update File: src/tallyho/core.py
@@
-import re
+from .money import parse_amount
*** End Patch"""


def test_the_gist_is_the_doc_line_and_the_names() -> None:
    assert gist(SWIFT) == (
        "Retry policy for the carrier API: exponential backoff with jitter.; defines RetryPolicy, backoff"
    )
    assert "defines Shop.Cart, total" in gist(ELIXIR)
    assert gist("x = 1\n") == ""


def test_a_file_written_whole_is_a_fact_even_when_no_message_names_it() -> None:
    c = Chain()
    c.user("split core.py")
    c.assistant(None, calls=(("p", "apply_patch", {"patch": PATCH}),))
    c.tool_result("p", "Done!", name="apply_patch")
    c.assistant(None, calls=(("w", "write", {"path": "Sources/Retry.swift", "content": SWIFT}),))
    c.tool_result("w", "ok", name="write")
    c.assistant("Done.")
    c.user("thanks")
    files = {f.text: f.detail for f in extract_facts(c.entries) if f.kind == FactKind.FILE}
    assert "parse_amount" in files["src/tallyho/money.py"]
    assert files["src/tallyho/money.py"].startswith("Money amounts: parsing bank notation")
    assert "src/tallyho/core.py" not in files  # an edit of a part says too little of the file
    assert "RetryPolicy" in files["Sources/Retry.swift"]


def test_an_edit_keeps_the_words_it_was_made_with_when_nothing_names_the_file() -> None:
    c = Chain()
    c.user("scratch storage, in-memory only")
    edit = {"path": "src/cache.ts", "oldText": "storage.get(k)", "newText": "entries.get(k)"}
    c.assistant("Rewriting the cache as a plain `Map`, with expiry on read:", calls=(("e", "edit", edit),))
    c.tool_result("e", "ok", name="edit")
    c.assistant(None, calls=(("f", "edit", {"path": "src/index.ts", "oldText": "a", "newText": "b"}),))
    c.tool_result("f", "ok", name="edit")
    c.assistant("Done.")
    c.user("thanks")
    files = {f.text: f.detail for f in extract_facts(c.entries) if f.kind == FactKind.FILE}
    assert "plain `Map`, with expiry on read" in files["src/cache.ts"]
    assert "src/index.ts" not in files  # changed without a word: the file lists have it
