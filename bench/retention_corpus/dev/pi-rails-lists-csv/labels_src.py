# ruff: noqa: E501
"""Labels for pi-rails-lists-csv, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: the label writer is in synth/
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "shelfie (Rails 8): list page N+1, CSV export (Ruby 3.4 csv gem), concurrent index, index view fix",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout2 test split",
    "voice": "terse lower-case, no punctuation to speak of ('fix the n+1 pls. no new gems'); a constraint later reversed; numbers only in tool output or assistant prose",
    "toolchain": "Ruby 3.4 / Rails 8 + rspec + rubocop, PostgreSQL, bundler",
}
COMPACTIONS = [
    ("fixed. `show` preloads book, author and cover blob", 1200),
    ("csv export works: `GET /lists/412.csv`", 1000),
    ("rubocop clean (1 indentation offense autocorrected", 500),
]
FACTS = [
    f("r01", "request", "must", "lists page slow again. fix the n+1 pls", "Fix the N+1 on the list page (lists#show).", [r"n\+1|preload|includes|eager", r"list"], "done"),
    f("r02", "constraint", "should", "fix the n+1 pls. no new gems", "No new gems. Reversed for csv (user: it was stdlib anyway).", [r"new gems?|no gems?|without (a )?(new )?gem"], "reversed"),
    f("r03", "value", "should", "18211:Completed 200 OK in 1432ms", "Before: list 412 rendered in 1432 ms with 1843 queries (ActiveRecord 1210 ms).", [r"1,?432 ?ms|1,?843"]),
    f("r04", "value", "should", "Completed 200 OK in 84ms", "After: 84 ms, 5 queries.", [r"\b84 ?ms"]),
    f("r05", "value", "nice", "list 412 has 614 items", "List 412 (the slow one) has 614 items.", [r"\b614\b"]),
    f("r06", "fix", "should", "preloading all three:", "show preloads book, author and cover attachment/blob (includes); the count uses length on the loaded items.", [r"includes|preload", r"author|cover|book"]),
    f("r07", "decision", "should", "regression spec without a new gem: count sql.active_record notifications", "Regression spec counts sql.active_record notifications (no gem): at most 8 queries for 30 items.", [r"sql\.active_record|query count|queries|constant number", r"spec|test|\b8\b"]),
    f("r08", "request", "must", "also csv export of a list. /lists/:id.csv", "CSV export of a list at /lists/:id.csv.", [r"csv", r"export|lists/:id|\.csv"], "done"),
    f("r09", "value", "should", "columns title,author,isbn,added_at", "CSV columns: title, author, isbn, added_at (ISO 8601 UTC), oldest first.", [r"title,? ?author,? ?isbn,? ?added_at"]),
    f("r10", "path", "should", "One row per book of a list, oldest first", "app/services/list_csv.rb: ListCsv builds the CSV with one pluck query; controller show responds to format.csv with send_data.", [r"list_csv\.rb|ListCsv"]),
    f("r11", "error", "must", "cannot load such file -- csv", "LoadError: cannot load such file -- csv (csv is a bundled gem since Ruby 3.4.0, not in the Gemfile).", [r"cannot load such file|LoadError", r"csv"], "fixed"),
    f("r12", "finding", "should", "csv is no longer a default gem in ruby 3.4", "The app runs Ruby 3.4.1, where csv is no longer a default gem.", [r"3\.4", r"csv|bundled|default gem"]),
    f("r13", "decision", "must", "fine add csv to the gemfile", "csv added to the Gemfile (bundle add csv, ~> 3.3): the 'no new gems' rule does not count for it.", [r"csv", r"Gemfile|\bgem\b|bundle add"]),
    f("r14", "value", "nice", "Installing csv 3.3.2", "csv gem 3.3.2 installed.", [r"3\.3\.2|~> ?3\.3"]),
    f("r15", "error", "should", "PG::UndefinedColumn: ERROR:  column books.author_name does not exist\n       LINE 1", "CSV spec failed: PG::UndefinedColumn: column books.author_name does not exist.", [r"author_name", r"UndefinedColumn|does not exist|column"], "fixed"),
    f("r16", "fix", "should", "author is its own table", "Fix: join book -> author and pluck authors.name.", [r"authors\.name|join", r"author"]),
    f("r17", "finding", "nice", "commas in titles are quoted", "CSV quotes titles containing commas (e.g. \"Pride, Prejudice and Zombies\"); 614 rows + header for list 412.", [r"quot(ed|es|ing)|Pride, Prejudice"]),
    f("r18", "request", "should", "add an index for it? list_id + created_at", "Add an index on list_items (list_id, created_at) for the export's sort.", [r"index", r"list_id.{0,6}created_at|created_at"], "done"),
    f("r19", "constraint", "must", "migration only, dont edit db/schema.rb by hand", "Never edit db/schema.rb by hand: schema changes only through migrations.", [r"schema\.rb", r"hand|migrat|only|don't|dont|never"]),
    f("r20", "path", "should", "bin/rails g migration AddListIdCreatedAtIndexToListItems", "db/migrate/20251120093015_add_list_id_created_at_index_to_list_items.rb.", [r"20251120093015|add_list_id_created_at_index|AddListIdCreatedAtIndex"]),
    f("r21", "decision", "should", "concurrently: list_items has ~2.1M rows", "The index is built with algorithm: :concurrently and disable_ddl_transaction! so it does not lock writes on the big production table.", [r"concurrent", r"index|lock"]),
    f("r22", "value", "nice", "i said ~2.1M rows in the comment", "~2.1M list_items in production (from docs/ops.md, no prod access); 48,213 locally.", [r"2\.1 ?M|48,?213"]),
    f("r23", "constraint", "must", "dont touch spec/fixtures/files/goodreads_export.xml", "Do not touch spec/fixtures/files/goodreads_export.xml: the iOS repo uses the same file.", [r"goodreads", r"touch|ios|shared|untouched|leave|don't|dont|\bnot\b"]),
    f("r24", "value", "should", "Finished in 38.4 seconds", "Full suite: 312 examples, 2 pending; one failure (lists/index view spec) at first.", [r"\b312\b"]),
    f("r25", "error", "should", "rspec ./spec/views/lists/index.html.erb_spec.rb:12 # lists/index renders the book count", "spec/views/lists/index.html.erb_spec.rb:12 'renders the book count' failed (expected to include \"3 books\").", [r"index\.html\.erb_spec|renders the book count|3 books"], "fixed"),
    f("r26", "finding", "should", "that view spec fails on main too", "That view spec failure is pre-existing: it fails on main too (checked with git stash).", [r"\bmain\b|pre-?existing|already", r"index|view spec|spec"]),
    f("r27", "error", "nice", "app/services/list_csv.rb:13:17: C: [Correctable]", "rubocop: Layout/MultilineMethodCallIndentation in list_csv.rb:13 (autocorrected).", [r"MultilineMethodCallIndentation|rubocop|indentation"], "fixed"),
    f("r28", "request", "should", "yeah fix that index view too", "Fix the lists index view's book count too.", [r"index", r"view|book count"], "done"),
    f("r29", "error", "nice", "undefined method 'list_items_count' for an instance of List", "ActionView::Template::Error: undefined method 'list_items_count' (there is no counter cache column).", [r"list_items_count"], "fixed"),
    f("r30", "fix", "should", "index view now uses `pluralize(list.list_items.size", "Index view uses pluralize(list.list_items.size, \"book\"), with list_items preloaded in ListsController#index.", [r"list_items\.size|includes\(:list_items\)|preload", r"index"]),
    f("r31", "request", "must", "pagination for huge lists later, not now", "Open, later: pagination for very long lists (not started).", [r"paginat", r"later|not now|open|left|not started"], "open"),
    f("r32", "value", "nice", "e07b5c2 (HEAD -> lists-perf)", "Committed as e07b5c2 on branch lists-perf.", [r"e07b5c2|lists-perf"]),
    f("r33", "value", "should", "312 examples, 0 failures, 2 pending\n52 files inspected", "At the end: 312 examples, 0 failures, 2 pending; rubocop clean.", [r"\b312\b", r"0 failures|pass|green"]),
    f("r34", "finding", "nice", "# flaky on CI, see #882", "The 2 pending specs are pre-existing: goodreads emoji fixture awaited from the iOS team, flaky cover fetch (#882).", [r"pending|#882|flaky"]),
    f("r35", "command", "should", "bundle exec rubocop -a app/services/list_csv.rb", "Checks: bundle exec rspec and bundle exec rubocop.", [r"rubocop"]),
    f("r36", "command", "nice", "Completed 200 OK in 97ms", "Measure the page: request /lists/412 (curl with tmp/dev-cookie.txt), then read the 'Completed 200 OK' line in log/development.log.", [r"Completed 200 OK|development\.log"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
