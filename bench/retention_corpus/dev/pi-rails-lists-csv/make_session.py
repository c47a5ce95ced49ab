# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout2 retention split.

A terse lower-case user has pi fix an N+1 on a Rails list page, add a CSV export (which runs into
Ruby 3.4's csv bundled-gem LoadError and reverses the user's "no new gems"), an index migration and
a rubocop fix. rspec traces whose salient line is in the middle; numbers only in tool output.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: its writers are in synth/

import files as F  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

s = PiSession("/home/dev/shelfie", "2025-11-20T08:47:12", model="claude-sonnet-4-5", seed="shelfie-lists")
C = "app/controllers/lists_controller.rb"
S = "spec/requests/lists_spec.rb"
s.files.update({
    C: F.CONTROLLER, "app/models/list.rb": F.LIST_MODEL, "app/models/list_item.rb": F.ITEM_MODEL,
    "app/models/book.rb": F.BOOK_MODEL, "app/views/lists/show.html.erb": F.SHOW_VIEW, S: F.REQUEST_SPEC,
})


def rspec_ok(n: int, secs: str, pending: int = 0) -> str:
    dots = "." * n
    tail = f", {pending} pending" if pending else ""
    return f"{dots}\n\nFinished in {secs} seconds (files took 1.92 seconds to load)\n{n} examples, 0 failures{tail}\n"


LOG_BEFORE = (
    "Started GET \"/lists/412\" for 127.0.0.1 at 2025-11-20 08:46:03 +0100\n"
    "Processing by ListsController#show as HTML\n  Parameters: {\"id\"=>\"412\"}\n"
    "  User Load (0.4ms)  SELECT \"users\".* FROM \"users\" WHERE \"users\".\"id\" = $1 ORDER BY \"users\".\"id\" ASC LIMIT $2  [[\"id\", 7], [\"LIMIT\", 1]]\n"
    "  List Load (0.3ms)  SELECT \"lists\".* FROM \"lists\" WHERE \"lists\".\"user_id\" = $1 AND \"lists\".\"id\" = $2 LIMIT $3  [[\"user_id\", 7], [\"id\", 412], [\"LIMIT\", 1]]\n"
    "  Rendering layout layouts/application.html.erb\n  Rendering lists/show.html.erb within layouts/application\n"
    "  ListItem Count (0.6ms)  SELECT COUNT(*) FROM \"list_items\" WHERE \"list_items\".\"list_id\" = $1  [[\"list_id\", 412]]\n"
    "  ListItem Load (1.1ms)  SELECT \"list_items\".* FROM \"list_items\" WHERE \"list_items\".\"list_id\" = $1 ORDER BY \"list_items\".\"created_at\" ASC  [[\"list_id\", 412]]\n"
    "  Book Load (0.3ms)  SELECT \"books\".* FROM \"books\" WHERE \"books\".\"id\" = $1 LIMIT $2  [[\"id\", 90211], [\"LIMIT\", 1]]\n"
    "  ActiveStorage::Attachment Load (0.4ms)  SELECT \"active_storage_attachments\".* FROM \"active_storage_attachments\" WHERE \"active_storage_attachments\".\"record_id\" = $1 AND \"active_storage_attachments\".\"record_type\" = $2 AND \"active_storage_attachments\".\"name\" = $3 LIMIT $4\n"
    "  Author Load (0.2ms)  SELECT \"authors\".* FROM \"authors\" WHERE \"authors\".\"id\" = $1 LIMIT $2  [[\"id\", 3310], [\"LIMIT\", 1]]\n"
    "  Book Load (0.3ms)  SELECT \"books\".* FROM \"books\" WHERE \"books\".\"id\" = $1 LIMIT $2  [[\"id\", 90217], [\"LIMIT\", 1]]\n"
    "  ActiveStorage::Attachment Load (0.3ms)  SELECT \"active_storage_attachments\".* FROM \"active_storage_attachments\" WHERE \"active_storage_attachments\".\"record_id\" = $1 AND \"active_storage_attachments\".\"record_type\" = $2 AND \"active_storage_attachments\".\"name\" = $3 LIMIT $4\n"
    "  Author Load (0.2ms)  SELECT \"authors\".* FROM \"authors\" WHERE \"authors\".\"id\" = $1 LIMIT $2  [[\"id\", 118], [\"LIMIT\", 1]]\n"
    "  ...\n"
    "  Rendered lists/show.html.erb within layouts/application (Duration: 1388.2ms | Allocations: 398112)\n"
    "Completed 200 OK in 1432ms (Views: 201.7ms | ActiveRecord: 1210.4ms (1843 queries, 0 cached) | GC: 61.0ms)\n"
)

# ============================================================================================ turn 1
s.user("lists page slow again. fix the n+1 pls. no new gems", pause=0)
s.bash("grep -n 'Completed 200 OK' log/development.log | tail -3", "18211:Completed 200 OK in 1432ms (Views: 201.7ms | ActiveRecord: 1210.4ms (1843 queries, 0 cached) | GC: 61.0ms)\n18230:Completed 200 OK in 38ms (Views: 22.0ms | ActiveRecord: 3.1ms (4 queries, 0 cached) | GC: 0.0ms)\n18254:Completed 200 OK in 1398ms (Views: 190.4ms | ActiveRecord: 1187.9ms (1843 queries, 0 cached) | GC: 58.2ms)\n")
s.bash("sed -n '18190,18211p' log/development.log", LOG_BEFORE)
s.reads([C, "app/views/lists/show.html.erb"])
s.reads(["app/models/list.rb", "app/models/list_item.rb", "app/models/book.rb"])
s.bash("bin/rails runner 'p List.find(412).list_items.count'", "614\n")
s.edit(C, "    @items = @list.list_items.order(created_at: :asc)\n", "    @items = @list.list_items\n                  .includes(book: [:author, { cover_attachment: :blob }])\n                  .order(created_at: :asc)\n",
       text="list 412 has 614 items; the view loads book, cover attachment and author per item (3 queries each). preloading all three:")
s.bash("curl -s -o /dev/null -b tmp/dev-cookie.txt http://localhost:3000/lists/412 && grep 'Completed 200 OK' log/development.log | tail -1",
       "Completed 200 OK in 97ms (Views: 61.3ms | ActiveRecord: 14.8ms (6 queries, 0 cached) | GC: 3.9ms)\n")
s.edit("app/views/lists/show.html.erb", '<p class="meta"><%= pluralize(@items.size, "book") %></p>\n', '<p class="meta"><%= pluralize(@items.length, "book") %></p>\n')
s.bash("curl -s -o /dev/null -b tmp/dev-cookie.txt http://localhost:3000/lists/412 && grep 'Completed 200 OK' log/development.log | tail -1",
       "Completed 200 OK in 84ms (Views: 51.2ms | ActiveRecord: 12.9ms (5 queries, 0 cached) | GC: 3.1ms)\n")
s.edit(S, "    it \"is not found for another user's list\" do",
       "    it \"loads a long list with a constant number of queries\" do\n"
       "      create_list(:list_item, 30, list: list)\n"
       "      queries = 0\n"
       "      counter = ->(*, payload) { queries += 1 unless payload[:name].in?([\"SCHEMA\", \"TRANSACTION\"]) }\n"
       "      ActiveSupport::Notifications.subscribed(counter, \"sql.active_record\") { get list_path(list) }\n"
       "      expect(queries).to be <= 8\n"
       "    end\n\n"
       "    it \"is not found for another user's list\" do",
       text="regression spec without a new gem: count sql.active_record notifications")
s.bash("bundle exec rspec spec/requests/lists_spec.rb", rspec_ok(3, "0.61"))
s.assistant("fixed. `show` preloads book, author and cover blob; the count uses `length` on the loaded items instead of a COUNT query. spec added that fails if the page goes back to per-item queries (≤ 8 queries for 30 items).")

# ============================================================================================ turn 2
s.user("also csv export of a list. /lists/:id.csv. columns title,author,isbn,added_at")
s.bash("grep -n 'resources :lists' config/routes.rb && grep -rn 'csv' app config lib --include=*.rb | head", "14:  resources :lists do\n")
s.bash("ls spec/fixtures/files", "cover.jpg\ngoodreads_export.xml\nlibrarything.tsv\n")
s.edit(C, "  def show\n    @items = @list.list_items\n                  .includes(book: [:author, { cover_attachment: :blob }])\n                  .order(created_at: :asc)\n  end\n",
       "  def show\n    respond_to do |format|\n      format.html do\n        @items = @list.list_items\n                      .includes(book: [:author, { cover_attachment: :blob }])\n                      .order(created_at: :asc)\n      end\n      format.csv do\n        send_data ListCsv.new(@list).to_csv, filename: \"#{@list.name.parameterize}.csv\", type: \"text/csv\"\n      end\n    end\n  end\n")
CSV_V1 = '''require "csv"

# One row per book of a list, oldest first: title, author, isbn, added_at (ISO 8601, UTC).
class ListCsv
  HEADER = %w[title author isbn added_at].freeze

  def initialize(list)
    @list = list
  end

  def to_csv
    rows = @list.list_items.joins(:book).order("list_items.created_at")
                .pluck("books.title", "books.author_name", "books.isbn", "list_items.created_at")
    CSV.generate do |csv|
      csv << HEADER
      rows.each { |title, author, isbn, added| csv << [title, author, isbn, added.utc.iso8601] }
    end
  end
end
'''
s.write("app/services/list_csv.rb", CSV_V1)
s.edit(S, "    it \"is not found for another user's list\" do",
       "    it \"exports the list as csv\" do\n"
       "      book = create(:book, title: \"Piranesi\", isbn: \"9781635575637\", author: create(:author, name: \"Susanna Clarke\"))\n"
       "      create(:list_item, list: list, book: book, created_at: Time.utc(2025, 3, 1, 9, 30))\n"
       "      get list_path(list, format: :csv)\n"
       "      expect(response.media_type).to eq(\"text/csv\")\n"
       "      expect(response.body).to eq(\"title,author,isbn,added_at\\nPiranesi,Susanna Clarke,9781635575637,2025-03-01T09:30:00Z\\n\")\n"
       "    end\n\n"
       "    it \"is not found for another user's list\" do")
s.bash(
    "bundle exec rspec spec/requests/lists_spec.rb",
    "\nAn error occurred while loading ./spec/requests/lists_spec.rb.\n"
    "Failure/Error: require File.expand_path(\"../config/environment\", __dir__)\n\n"
    "LoadError:\n  cannot load such file -- csv\n\n"
    "  This error occurred while loading csv, which is a bundled gem since Ruby 3.4.0 and is not in your Gemfile.\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/bootsnap-1.18.4/lib/bootsnap/load_path_cache/core_ext/kernel_require.rb:30:in 'Kernel#require'\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/zeitwerk-2.7.1/lib/zeitwerk/core_ext/kernel.rb:34:in 'Kernel#require'\n"
    "# ./app/services/list_csv.rb:1:in '<main>'\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/bootsnap-1.18.4/lib/bootsnap/load_path_cache/core_ext/kernel_require.rb:30:in 'Kernel#require'\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/zeitwerk-2.7.1/lib/zeitwerk/cref.rb:63:in 'Module#const_get'\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/zeitwerk-2.7.1/lib/zeitwerk/eager_load.rb:173:in 'block in Zeitwerk::Loader::EagerLoad#actual_eager_load_dir'\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/zeitwerk-2.7.1/lib/zeitwerk/helpers.rb:47:in 'block in Zeitwerk::Helpers#ls'\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/railties-8.0.0/lib/rails/application/finisher.rb:80:in 'block in <module:Finisher>'\n"
    "# /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/railties-8.0.0/lib/rails/initializable.rb:32:in 'Rails::Initializable::Initializer#run'\n"
    "# ./config/environment.rb:5:in '<top (required)>'\n# ./spec/rails_helper.rb:4:in '<top (required)>'\n# ./spec/requests/lists_spec.rb:1:in '<top (required)>'\n"
    "No examples found.\n\nFinished in 0.00004 seconds (files took 2.31 seconds to load)\n0 examples, 0 failures, 1 error occurred outside of examples\n",
    code=1,
)
s.bash("ruby -v && grep -n \"^ruby\\|gem \\\"csv\\\"\" Gemfile .ruby-version 2>/dev/null", "ruby 3.4.1 (2024-12-25 revision 48d4efcb85) +PRISM [x86_64-linux]\nGemfile:3:ruby \"3.4.1\"\n")
s.assistant(
    "csv is no longer a default gem in ruby 3.4 (it became a bundled gem), so `require \"csv\"` fails under bundler unless it is in the Gemfile. "
    "two options:\n\n1. add `gem \"csv\"` to the Gemfile (it's the same library that used to ship with ruby)\n"
    "2. no gem: write the rows myself (quote fields containing `,` `\"` or newlines, double the quotes). ~15 lines, but titles like `Pride, Prejudice` make it easy to get wrong.\n\n"
    "you said no new gems, so which one?"
)

# ============================================================================================ turn 3
s.user("fine add csv to the gemfile. it was stdlib anyway, doesnt count")
s.bash("bundle add csv --version '~> 3.3'", "Fetching gem metadata from https://rubygems.org/.........\nResolving dependencies...\nFetching csv 3.3.2\nInstalling csv 3.3.2\n")
s.bash(
    "bundle exec rspec spec/requests/lists_spec.rb",
    "..F.\n\nFailures:\n\n"
    "  1) Lists GET /lists/:id exports the list as csv\n"
    "     Failure/Error:\n       rows = @list.list_items.joins(:book).order(\"list_items.created_at\")\n"
    "                   .pluck(\"books.title\", \"books.author_name\", \"books.isbn\", \"list_items.created_at\")\n\n"
    "     ActiveRecord::StatementInvalid:\n"
    "       PG::UndefinedColumn: ERROR:  column books.author_name does not exist\n"
    "       LINE 1: SELECT \"books\".\"title\", \"books\".\"author_name\", \"books\".\"isbn\", \"list_items\".\"created_at\" FROM \"list_items\" INNER JOIN \"books\" ON \"books\".\"id\" = \"list_items\".\"book_id\" WHERE \"list_items\".\"list_id\" = $1 ORDER BY list_items.created_at\n"
    "                                             ^\n"
    "     # /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/activerecord-8.0.0/lib/active_record/connection_adapters/postgresql/database_statements.rb:160:in 'PG::Connection#exec_params'\n"
    "     # /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/activerecord-8.0.0/lib/active_record/connection_adapters/postgresql/database_statements.rb:160:in 'block (2 levels) in ActiveRecord::ConnectionAdapters::PostgreSQL::DatabaseStatements#perform_query'\n"
    "     # /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/activerecord-8.0.0/lib/active_record/connection_adapters/abstract_adapter.rb:1011:in 'block in ActiveRecord::ConnectionAdapters::AbstractAdapter#with_raw_connection'\n"
    "     # ./app/services/list_csv.rb:12:in 'ListCsv#to_csv'\n"
    "     # ./app/controllers/lists_controller.rb:16:in 'block (2 levels) in ListsController#show'\n"
    "     # ./spec/requests/lists_spec.rb:33:in 'block (3 levels) in <top (required)>'\n"
    "     # ------------------\n     # --- Caused by: ---\n"
    "     # PG::UndefinedColumn:\n     #   ERROR:  column books.author_name does not exist\n"
    "     #   LINE 1: SELECT \"books\".\"title\", \"books\".\"author_name\", \"books\".\"isbn\",...\n"
    "     #   /home/dev/.rbenv/versions/3.4.1/lib/ruby/gems/3.4.0/gems/activerecord-8.0.0/lib/active_record/connection_adapters/postgresql/database_statements.rb:160:in 'PG::Connection#exec_params'\n\n"
    "Finished in 0.74 seconds (files took 2.06 seconds to load)\n4 examples, 1 failure\n\n"
    "Failed examples:\n\nrspec ./spec/requests/lists_spec.rb:28 # Lists GET /lists/:id exports the list as csv\n",
    code=1,
)
s.edit("app/services/list_csv.rb", "    rows = @list.list_items.joins(:book).order(\"list_items.created_at\")\n                .pluck(\"books.title\", \"books.author_name\", \"books.isbn\", \"list_items.created_at\")\n",
       "    rows = @list.list_items.joins(book: :author).order(\"list_items.created_at\")\n                .pluck(\"books.title\", \"authors.name\", \"books.isbn\", \"list_items.created_at\")\n",
       text="author is its own table (`books.author_id` -> `authors.name`), there is no `books.author_name`. joining through:")
s.bash("bundle exec rspec spec/requests/lists_spec.rb", rspec_ok(4, "0.69"))
s.bash("curl -s -b tmp/dev-cookie.txt http://localhost:3000/lists/412.csv | head -4 && curl -s -b tmp/dev-cookie.txt http://localhost:3000/lists/412.csv | wc -l && grep 'Completed 200 OK' log/development.log | tail -1",
       "title,author,isbn,added_at\n\"Pride, Prejudice and Zombies\",Seth Grahame-Smith,9781594743344,2024-01-07T18:02:11Z\nThe Left Hand of Darkness,Ursula K. Le Guin,9780441478125,2024-01-07T18:05:40Z\nPiranesi,Susanna Clarke,9781635575637,2024-02-19T21:14:03Z\n615\nCompleted 200 OK in 41ms (ActiveRecord: 6.2ms (3 queries, 0 cached) | GC: 0.9ms)\n")
s.assistant("csv export works: `GET /lists/412.csv` gives 614 rows + header, commas in titles are quoted. one query for the rows (pluck, no model objects).")

# ============================================================================================ turn 4
s.user("export sorts by list_items.created_at, add an index for it? list_id + created_at. migration only, dont edit db/schema.rb by hand")
s.bash("grep -n 'list_items' -A 10 db/schema.rb | grep -n 'index'", "7:    t.index [\"book_id\"], name: \"index_list_items_on_book_id\"\n8:    t.index [\"list_id\", \"book_id\"], name: \"index_list_items_on_list_id_and_book_id\", unique: true\n")
s.bash("bin/rails g migration AddListIdCreatedAtIndexToListItems", "      invoke  active_record\n      create    db/migrate/20251120093015_add_list_id_created_at_index_to_list_items.rb\n")
s.files["db/migrate/20251120093015_add_list_id_created_at_index_to_list_items.rb"] = "class AddListIdCreatedAtIndexToListItems < ActiveRecord::Migration[8.0]\n  def change\n  end\nend\n"
s.write("db/migrate/20251120093015_add_list_id_created_at_index_to_list_items.rb",
        "class AddListIdCreatedAtIndexToListItems < ActiveRecord::Migration[8.0]\n  disable_ddl_transaction!\n\n  def change\n    # concurrently: list_items has ~2.1M rows in production, a plain index build would lock writes\n    add_index :list_items, %i[list_id created_at], algorithm: :concurrently\n  end\nend\n")
s.bash("bin/rails runner 'p ListItem.count' && RAILS_ENV=production bin/rails runner 'p ListItem.count' 2>/dev/null || echo 'no prod access'", "48213\nno prod access\n")
s.bash("bin/rails db:migrate", "== 20251120093015 AddListIdCreatedAtIndexToListItems: migrating ================\n-- add_index(:list_items, [:list_id, :created_at], {algorithm: :concurrently})\n   -> 0.0412s\n== 20251120093015 AddListIdCreatedAtIndexToListItems: migrated (0.0414s) =======\n\n")
s.bash("git diff --stat db/schema.rb && git diff db/schema.rb | head -20",
       " db/schema.rb | 3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n"
       "diff --git a/db/schema.rb b/db/schema.rb\n--- a/db/schema.rb\n+++ b/db/schema.rb\n@@ -10,7 +10,7 @@\n-ActiveRecord::Schema[8.0].define(version: 2025_11_02_141207) do\n+ActiveRecord::Schema[8.0].define(version: 2025_11_20_093015) do\n"
       "@@ -88,6 +88,7 @@\n     t.index [\"book_id\"], name: \"index_list_items_on_book_id\"\n+    t.index [\"list_id\", \"created_at\"], name: \"index_list_items_on_list_id_and_created_at\"\n     t.index [\"list_id\", \"book_id\"], name: \"index_list_items_on_list_id_and_book_id\", unique: true\n")
s.assistant(
    "index added by migration `20251120093015_add_list_id_created_at_index_to_list_items.rb`, built `algorithm: :concurrently` (with `disable_ddl_transaction!`) "
    "so it doesn't lock writes on the big production table. i said ~2.1M rows in the comment, that number is from `docs/ops.md`, i can't reach production from here "
    "(locally there are 48,213). schema.rb only changed through `db:migrate` (version + the new index line)."
)

# ============================================================================================ turn 5
s.user("ok. also dont touch spec/fixtures/files/goodreads_export.xml if you were going to, the ios repo uses the same file. run everything + rubocop")
s.bash("bundle exec rspec", "." * 309 + "*" * 2 + "F\n\nPending: (Failures listed here are expected and do not affect your suite's status)\n\n"
       "  1) Imports::Goodreads handles shelves with emoji\n     # waiting for fixture from ios team\n     # ./spec/services/imports/goodreads_spec.rb:41\n\n"
       "  2) Covers::Fetch retries on 503\n     # flaky on CI, see #882\n     # ./spec/services/covers/fetch_spec.rb:22\n\n"
       "Failures:\n\n  1) lists/index renders the book count\n     Failure/Error: expect(rendered).to include(\"3 books\")\n"
       "       expected \"<h1>Your lists</h1>\\n<ul class=\\\"lists\\\">\\n  <li><a href=\\\"/lists/1\\\">Summer</a> <span>books</span></li>\\n</ul>\\n\" to include \"3 books\"\n"
       "     # ./spec/views/lists/index.html.erb_spec.rb:12:in 'block (2 levels) in <top (required)>'\n\n"
       "Finished in 38.4 seconds (files took 2.12 seconds to load)\n312 examples, 1 failure, 2 pending\n\nFailed examples:\n\nrspec ./spec/views/lists/index.html.erb_spec.rb:12 # lists/index renders the book count\n", code=1)
s.bash("cat app/views/lists/index.html.erb && git stash -q && bundle exec rspec spec/views/lists/index.html.erb_spec.rb | tail -2; git stash pop -q",
       "<h1>Your lists</h1>\n<ul class=\"lists\">\n  <% @lists.each do |list| %>\n    <li><%= link_to list.name, list %> <span><%= pluralize(list.list_items.size, \"book\")[/\\d+ books?/] ? pluralize(list.list_items.size, \"book\") : \"books\" %></span></li>\n  <% end %>\n</ul>\n"
       "1 example, 1 failure\n")
s.assistant("that view spec fails on main too (stashed my changes: same failure), so it isn't from this work. the index view has an odd `pluralize(...)[/\\d+ books?/]` expression. leaving it alone unless you want it fixed.")
s.bash("bundle exec rubocop app spec db/migrate", "Inspecting 48 files\n.............................C..................\n\nOffenses:\n\napp/services/list_csv.rb:13:17: C: [Correctable] Layout/MultilineMethodCallIndentation: Align .pluck with .list_items on line 12.\n                .pluck(\"books.title\", \"authors.name\", \"books.isbn\", \"list_items.created_at\")\n                ^^^^^^\n\n48 files inspected, 1 offense detected, 1 offense autocorrectable\n", code=1)
s.bash("bundle exec rubocop -a app/services/list_csv.rb && bundle exec rubocop app spec db/migrate | tail -1", "Inspecting 1 file\nC\n\nOffenses:\n\napp/services/list_csv.rb:13:17: C: [Corrected] Layout/MultilineMethodCallIndentation: Align .pluck with .list_items on line 12.\n\n1 file inspected, 1 offense detected, 1 offense corrected\n48 files inspected, no offenses detected\n")
s.assistant("rubocop clean (1 indentation offense autocorrected in list_csv.rb). full suite: 312 examples, 1 failure, 2 pending; the failure is `spec/views/lists/index.html.erb_spec.rb:12`, pre-existing on main. didn't touch the goodreads fixture.")

# ============================================================================================ turn 6
s.user("yeah fix that index view too, its the same page family. then commit. pagination for huge lists later, not now")
s.bash("cat spec/views/lists/index.html.erb_spec.rb | sed -n '1,16p'", "require \"rails_helper\"\n\nRSpec.describe \"lists/index\", type: :view do\n  it \"renders the book count\" do\n    list = create(:list, name: \"Summer\")\n    create_list(:list_item, 3, list: list)\n    assign(:lists, [list])\n    render\n    expect(rendered).to include(\"3 books\")\n  end\nend\n")
s.bash("sed -i 's|<span><%= pluralize(list.list_items.size, \"book\")\\[/\\\\d+ books?/\\] ? pluralize(list.list_items.size, \"book\") : \"books\" %></span>|<span><%= pluralize(list.list_items_count, \"book\") %></span>|' app/views/lists/index.html.erb && cat app/views/lists/index.html.erb",
       "<h1>Your lists</h1>\n<ul class=\"lists\">\n  <% @lists.each do |list| %>\n    <li><%= link_to list.name, list %> <span><%= pluralize(list.list_items_count, \"book\") %></span></li>\n  <% end %>\n</ul>\n")
s.bash("bundle exec rspec spec/views/lists/index.html.erb_spec.rb", "F\n\nFailures:\n\n  1) lists/index renders the book count\n     Failure/Error: <li><%= link_to list.name, list %> <span><%= pluralize(list.list_items_count, \"book\") %></span></li>\n\n     ActionView::Template::Error:\n       undefined method 'list_items_count' for an instance of List\n     # ./app/views/lists/index.html.erb:4:in 'block in _app_views_lists_index_html_erb___3350621860893432177_21960'\n\n1 example, 1 failure\n", code=1)
s.assistant("there's no counter cache column (`list_items_count`), i assumed one. no migration for that; using `list.list_items.size` and preloading in the controller instead.")
s.bash("sed -i 's|list.list_items_count|list.list_items.size|' app/views/lists/index.html.erb && sed -i 's|    @lists = current_user.lists.order(updated_at: :desc)|    @lists = current_user.lists.includes(:list_items).order(updated_at: :desc)|' app/controllers/lists_controller.rb && bundle exec rspec spec/views/lists spec/requests/lists_spec.rb | tail -2",
       "Finished in 0.82 seconds (files took 2.04 seconds to load)\n5 examples, 0 failures\n")
s.bash("bundle exec rspec | tail -2 && bundle exec rubocop | tail -1", "Finished in 37.9 seconds (files took 2.09 seconds to load)\n312 examples, 0 failures, 2 pending\n52 files inspected, no offenses detected\n")
s.bash("git add -A && git commit -qm 'lists: preload show page (n+1), csv export, list_id+created_at index, fix index book count' && git log --oneline -1",
       "e07b5c2 (HEAD -> lists-perf) lists: preload show page (n+1), csv export, list_id+created_at index, fix index book count\n")
s.assistant(
    "committed e07b5c2 on lists-perf. 312 examples, 0 failures, 2 pending; rubocop clean.\n\n"
    "index view now uses `pluralize(list.list_items.size, \"book\")` with `list_items` preloaded in `index`.\n\n"
    "left for later: pagination for very long lists (not started). the 2 pending specs are pre-existing (goodreads emoji fixture from the ios team, flaky cover fetch #882)."
)

s.save(HERE / "session.jsonl")
