# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for the heldout3 retention split.

A terse user who types fast (typos, little punctuation) has pi make Stripe webhook handling
idempotent in a Phoenix/Ecto app: a unique index whose migration trips over existing duplicates,
a receipt e-mail moved off the request path (first a Task, then Oban once the user reverses
"no oban"), a telemetry counter, and an open item for refunds. mix test / ExUnit failures with the
salient line in the middle of the output.
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
from synth.pi_writer import PiSession  # noqa: E402

s = PiSession("/home/rui/src/moorings", "2025-11-24T09:41:07", model="claude-sonnet-4-5", seed="moorings-webhooks")
H = "lib/moorings/payments/webhook_handler.ex"
P = "lib/moorings/payments/payment.ex"
T = "test/moorings/payments/webhook_handler_test.exs"
MIG = "priv/repo/migrations/20251124094500_unique_payments_stripe_event_id.exs"
s.files.update({H: F.HANDLER, P: F.PAYMENT, "lib/moorings_web/controllers/stripe_webhook_controller.ex": F.CONTROLLER, T: F.HANDLER_TEST})


def dots(n: int) -> str:
    return "\n".join("." * min(80, n - i) for i in range(0, n, 80))


def mix_ok(n: int, secs: str, seed: int) -> str:
    return f"Running ExUnit with seed: {seed}, max_cases: 16\n\n{dots(n)}\nFinished in {secs} seconds (1.9s async, {float(secs) - 1.9:.1f}s sync)\n{n} tests, 0 failures\n"


# ============================================================================================ turn 1
s.user(
    "stripe webhooks get procesed twice sometimes. booking 8812 has 2 payment rows and the guy got 2 receipts. "
    "make the handler idempotent pls. dont edit migrations already in priv/repo/migrations theyre deployed, only add new ones. "
    "and no oban we dont run it in prod yet",
    pause=0,
)
s.bash("ls lib/moorings/payments test/moorings/payments && ls priv/repo/migrations | tail -4",
       "lib/moorings/payments:\npayment.ex\nreceipt.ex\nrefund.ex\nwebhook_handler.ex\n\ntest/moorings/payments:\nreceipt_test.exs\nwebhook_handler_test.exs\n"
       "20250611120200_create_payments.exs\n20250703081455_create_refunds.exs\n20250918143010_add_currency_to_payments.exs\n20251030101122_add_notes_to_bookings.exs\n")
s.reads([H, P])
s.bash("grep -rn 'stripe_event_id' priv/repo/migrations lib",
       "priv/repo/migrations/20250611120200_create_payments.exs:7:      add :stripe_event_id, :string, null: false\n"
       "lib/moorings/payments/payment.ex:6:    field :stripe_event_id, :string\n"
       "lib/moorings/payments/payment.ex:15:    |> cast(attrs, [:booking_id, :stripe_event_id, :amount_cents, :currency])\n"
       "lib/moorings/payments/payment.ex:16:    |> validate_required([:booking_id, :stripe_event_id, :amount_cents, :currency])\n"
       "lib/moorings/payments/webhook_handler.ex:15:        stripe_event_id: event_id,\n")
s.bash("psql moorings_dev -c \"select id, booking_id, stripe_event_id, amount_cents, inserted_at from payments where booking_id = 8812\"",
       "  id   | booking_id |    stripe_event_id     | amount_cents |     inserted_at\n"
       "-------+------------+------------------------+--------------+---------------------\n"
       " 40177 |       8812 | evt_1QGm2LFz8sKq0TbXw3 |         6800 | 2025-11-21 18:04:11\n"
       " 40178 |       8812 | evt_1QGm2LFz8sKq0TbXw3 |         6800 | 2025-11-21 18:04:23\n(2 rows)\n")
s.bash("grep -n 'POST /webhooks/stripe' -A3 log/prod-2025-11-21.log | grep -B1 -A2 evt_1QGm2LFz8sKq0TbXw3 | head -20",
       "48812:18:04:00.882 request_id=F4cM2a [info] POST /webhooks/stripe\n"
       "48813:18:04:00.884 request_id=F4cM2a [info] Processing with MooringsWeb.StripeWebhookController.create/2\n"
       "48814:18:04:00.884 request_id=F4cM2a [debug] event evt_1QGm2LFz8sKq0TbXw3 checkout.session.completed\n"
       "--\n"
       "48871:18:04:12.088 request_id=F4cM2a [info] Sent 200 in 11204ms\n"
       "--\n"
       "48866:18:04:11.960 request_id=F4cNq1 [info] POST /webhooks/stripe\n"
       "48867:18:04:11.961 request_id=F4cNq1 [debug] event evt_1QGm2LFz8sKq0TbXw3 checkout.session.completed\n"
       "48902:18:04:23.517 request_id=F4cNq1 [info] Sent 200 in 11556ms\n")
s.read("lib/moorings/payments/receipt.ex", text="""defmodule Moorings.Payments.Receipt do
  import Swoosh.Email
  alias Moorings.Mailer

  def deliver(booking, payment) do
    booking = Moorings.Repo.preload(booking, [:member, :berth])
    pdf = Moorings.Pdf.render!(:receipt, booking: booking, payment: payment)

    new()
    |> to({booking.member.name, booking.member.email})
    |> from({"Moorings", "harbour@moorings.example"})
    |> subject("Your mooring receipt")
    |> attachment(Swoosh.Attachment.new({:data, pdf}, filename: "receipt-#{payment.id}.pdf"))
    |> Mailer.deliver!()
  end
end
""")
s.bash("mix test", mix_ok(212, "6.1", 418223))
s.assistant(
    "what happened with booking 8812: the first delivery of evt_1QGm2LFz8sKq0TbXw3 took 11.2 s to answer (the receipt PDF + SMTP send run "
    "inside the request), stripe gave up waiting and resent the same event, and nothing stops a second insert: `payments.stripe_event_id` "
    "has no unique index (only `null: false` in the create migration) and the handler inserts blindly.\n\n"
    "plan:\n1. new migration with a unique index on payments.stripe_event_id (the old migrations stay untouched)\n"
    "2. insert with `on_conflict: :nothing` on that column; a duplicate returns a payment without id, then skip mark_paid and the receipt\n"
    "3. test for a replayed event\n\n212 tests pass right now."
)
s.write(MIG, '''defmodule Moorings.Repo.Migrations.UniquePaymentsStripeEventId do
  use Ecto.Migration

  def change do
    create unique_index(:payments, [:stripe_event_id])
  end
end
''')
s.bash(
    "mix ecto.migrate",
    "Compiling 1 file (.ex)\n\n"
    "09:52:40.114 [info] == Running 20251124094500 Moorings.Repo.Migrations.UniquePaymentsStripeEventId.change/0 forward\n\n"
    "09:52:40.116 [info] create index payments_stripe_event_id_index\n"
    "** (Postgrex.Error) ERROR 23505 (unique_violation) could not create unique index \"payments_stripe_event_id_index\"\n\n"
    "    table: payments\n    constraint: payments_stripe_event_id_index\n\n"
    "Key (stripe_event_id)=(evt_1Q3xWbFz8sKq0TbA7k) is duplicated.\n"
    "    (ecto_sql 3.12.1) lib/ecto/adapters/sql.ex:1096: Ecto.Adapters.SQL.raise_sql_call_error/1\n"
    "    (elixir 1.17.3) lib/enum.ex:1703: Enum.\"-map/2-lists^map/1-1-\"/2\n"
    "    (ecto_sql 3.12.1) lib/ecto/adapters/sql.ex:1203: Ecto.Adapters.SQL.execute_ddl/4\n"
    "    (ecto_sql 3.12.1) lib/ecto/migration/runner.ex:348: Ecto.Migration.Runner.log_and_execute_ddl/3\n"
    "    (elixir 1.17.3) lib/enum.ex:1703: Enum.\"-map/2-lists^map/1-1-\"/2\n"
    "    (ecto_sql 3.12.1) lib/ecto/migration/runner.ex:311: Ecto.Migration.Runner.perform_operation/3\n"
    "    (stdlib 6.1.2) timer.erl:590: :timer.tc/2\n"
    "    (ecto_sql 3.12.1) lib/ecto/migration/runner.ex:25: Ecto.Migration.Runner.run/8\n",
    code=1,
)
s.bash("psql moorings_dev -c \"select count(*) as extra_rows, count(distinct stripe_event_id) as events from payments p where exists (select 1 from payments q where q.stripe_event_id = p.stripe_event_id and q.id < p.id)\"",
       " extra_rows | events\n------------+--------\n         37 |     31\n(1 row)\n")
s.assistant(
    "the index can't be built: the dev db already has duplicates. 37 extra payment rows for 31 events (so 6 events came in three times). "
    "is moorings_dev a prod dump? if so prod has the same problem and the migration has to clean up first. how do you want them deduped?"
)

# ============================================================================================ turn 2
s.user("yes dev is a prod dump from nov 10. dedupe in the migration keep the oldest row per event. refunds point at payments tho so check that first")
s.bash("sed -n '1,20p' priv/repo/migrations/20250703081455_create_refunds.exs",
       "defmodule Moorings.Repo.Migrations.CreateRefunds do\n  use Ecto.Migration\n\n  def change do\n    create table(:refunds) do\n"
       "      add :payment_id, references(:payments, on_delete: :restrict), null: false\n      add :stripe_refund_id, :string, null: false\n"
       "      add :amount_cents, :integer, null: false\n      timestamps(type: :utc_datetime)\n    end\n\n    create index(:refunds, [:payment_id])\n  end\nend\n")
s.bash("psql moorings_dev -c \"select r.id, r.payment_id from refunds r join payments p on p.id = r.payment_id where exists (select 1 from payments q where q.stripe_event_id = p.stripe_event_id and q.id < p.id)\"",
       "  id  | payment_id\n------+------------\n 5521 |      38804\n 5530 |      39110\n(2 rows)\n")
s.write(MIG, '''defmodule Moorings.Repo.Migrations.UniquePaymentsStripeEventId do
  use Ecto.Migration

  # Stripe retried slow webhook answers and every retry inserted another payment. Keep the oldest
  # payment per event: refunds (on_delete: :restrict) are moved onto it before the copies go.
  def up do
    execute """
    UPDATE refunds r SET payment_id = keep.id
    FROM payments dup
    JOIN LATERAL (SELECT min(id) AS id FROM payments WHERE stripe_event_id = dup.stripe_event_id) keep ON true
    WHERE r.payment_id = dup.id AND dup.id <> keep.id
    """

    execute """
    DELETE FROM payments p
    USING payments older
    WHERE older.stripe_event_id = p.stripe_event_id AND older.id < p.id
    """

    create unique_index(:payments, [:stripe_event_id])
  end

  def down do
    drop index(:payments, [:stripe_event_id])
  end
end
''', text="two refunds (5521, 5530) hang on duplicate rows and the fk is on_delete: :restrict, so the migration moves refunds onto the kept row before deleting. up/down instead of change since the cleanup can't be reversed:")
s.bash(
    "mix ecto.migrate",
    "09:58:02.331 [info] == Running 20251124094500 Moorings.Repo.Migrations.UniquePaymentsStripeEventId.up/0 forward\n\n"
    "09:58:02.333 [info] execute \"UPDATE refunds r SET payment_id = keep.id\\nFROM payments dup\\nJOIN LATERAL (SELECT min(id) AS id FROM payments WHERE stripe_event_id = dup.stripe_event_id) keep ON true\\nWHERE r.payment_id = dup.id AND dup.id <> keep.id\\n\"\n\n"
    "09:58:02.351 [info] execute \"DELETE FROM payments p\\nUSING payments older\\nWHERE older.stripe_event_id = p.stripe_event_id AND older.id < p.id\\n\"\n\n"
    "09:58:02.402 [info] create index payments_stripe_event_id_index\n\n"
    "09:58:02.519 [info] == Migrated 20251124094500 in 0.1s\n",
)
s.bash("psql moorings_dev -Atc \"select count(*) from payments; select count(*) from refunds where payment_id not in (select id from payments)\"", "9412\n0\n")
s.edit(P, "    |> validate_required([:booking_id, :stripe_event_id, :amount_cents, :currency])\n",
       "    |> validate_required([:booking_id, :stripe_event_id, :amount_cents, :currency])\n    |> unique_constraint(:stripe_event_id)\n",
       text="migrated, 9,412 payments left and no refund orphaned. now the schema and a test for a replayed event (before touching the handler, to see it fail):")
s.edit(T, '''  test "other events are ignored" do''', '''  test "a replayed event is recorded once and sends one receipt" do
    booking = insert(:booking)
    assert :ok = WebhookHandler.handle(completed(booking, "evt_dup"))
    assert_email_sent(subject: "Your mooring receipt")
    assert :ok = WebhookHandler.handle(completed(booking, "evt_dup"))
    refute_email_sent()
    assert Repo.aggregate(Moorings.Payments.Payment, :count) == 1
  end

  test "other events are ignored" do''')
s.bash(
    "mix test test/moorings/payments",
    "Running ExUnit with seed: 90311, max_cases: 16\n\n"
    ".\n\n"
    "  1) test a replayed event is recorded once and sends one receipt (Moorings.Payments.WebhookHandlerTest)\n"
    "     test/moorings/payments/webhook_handler_test.exs:22\n"
    "     ** (MatchError) no match of right hand side value: {:error, #Ecto.Changeset<action: :insert, changes: %{currency: \"eur\", booking_id: 1184, stripe_event_id: \"evt_dup\", amount_cents: 4500}, errors: [stripe_event_id: {\"has already been taken\", [constraint: :unique, constraint_name: \"payments_stripe_event_id_index\"]}], data: #Moorings.Payments.Payment<>, valid?: false, ...>}\n"
    "     code: assert :ok = WebhookHandler.handle(completed(booking, \"evt_dup\"))\n"
    "     stacktrace:\n"
    "       (moorings 0.9.0) lib/moorings/payments/webhook_handler.ex:10: Moorings.Payments.WebhookHandler.handle/1\n"
    "       test/moorings/payments/webhook_handler_test.exs:26: (test)\n\n"
    "...\n"
    "Finished in 0.4 seconds (0.4s async, 0.00s sync)\n5 tests, 1 failure\n",
    code=2,
)
s.edit(H, '''    {:ok, payment} =
      %Payment{}
      |> Payment.changeset(%{
        booking_id: booking.id,
        stripe_event_id: event_id,
        amount_cents: obj["amount_total"],
        currency: obj["currency"]
      })
      |> Repo.insert()

    {:ok, _} = Bookings.mark_paid(booking, payment)
    Receipt.deliver(booking, payment)
    :ok
  end
''', '''    changeset =
      Payment.changeset(%Payment{}, %{
        booking_id: booking.id,
        stripe_event_id: event_id,
        amount_cents: obj["amount_total"],
        currency: obj["currency"]
      })

    # Stripe resends an event it got no timely 2xx for; the unique index makes the replay a no-op.
    case Repo.insert(changeset, on_conflict: :nothing, conflict_target: :stripe_event_id) do
      {:ok, %Payment{id: nil}} ->
        Logger.warn("duplicate stripe event #{event_id}, ignored")
        :ok

      {:ok, payment} ->
        {:ok, _} = Bookings.mark_paid(booking, payment)
        Receipt.deliver(booking, payment)
        :ok
    end
  end
''', text="fails as expected (the second insert now hits the unique constraint). handler:")
s.bash("mix test test/moorings/payments", "Running ExUnit with seed: 77120, max_cases: 16\n\n.....\nFinished in 0.4 seconds (0.4s async, 0.00s sync)\n5 tests, 0 failures\n")
s.bash("grep -n 'precommit' -A6 mix.exs", "71:      precommit: [\n72-        \"compile --warnings-as-errors\",\n73-        \"deps.unlock --check-unused\",\n74-        \"format --check-formatted\",\n75-        \"credo --strict\",\n76-        \"test\"\n77-      ]\n")
s.bash(
    "mix precommit",
    "Compiling 2 files (.ex)\n"
    "    warning: Logger.warn/1 is deprecated. Use Logger.warning/2 instead\n"
    "    │\n 23 │         Logger.warn(\"duplicate stripe event #{event_id}, ignored\")\n    │                ~\n    │\n"
    "    └─ lib/moorings/payments/webhook_handler.ex:23:16: Moorings.Payments.WebhookHandler.handle/1\n\n"
    "Compilation failed due to warnings while using the --warnings-as-errors option\n",
    code=1,
)
s.edit(H, '        Logger.warn("duplicate stripe event #{event_id}, ignored")\n', '        Logger.info("duplicate stripe event #{event_id}, ignored")\n')
s.bash(
    "mix precommit",
    "Compiling 2 files (.ex)\nGenerated moorings app\n"
    "Checking 148 source files (this might take a while) ...\n\nPlease report incorrect results: https://github.com/rrrene/credo/issues\n\n"
    "Analysis took 2.1 seconds (0.1s to load, 2.0s running 55 checks on 148 files)\n912 mods/funs, found no issues.\n\n"
    + mix_ok(213, "6.3", 5120),
)
s.assistant(
    "idempotent now:\n\n"
    "- `priv/repo/migrations/20251124094500_unique_payments_stripe_event_id.exs` (new, up/down): moves refunds onto the oldest payment of each event, deletes the copies, adds the unique index `payments_stripe_event_id_index`. in prod it will delete the duplicate rows (dev dump had 37 for 31 events)\n"
    "- `Payment.changeset` has `unique_constraint(:stripe_event_id)`\n"
    "- handler inserts with `on_conflict: :nothing, conflict_target: :stripe_event_id`; a replay logs at info and returns :ok without mark_paid or a receipt, so stripe still gets its 200\n"
    "- `mix precommit` green, 213 tests (had used Logger.warn, deprecated, fails --warnings-as-errors; it's Logger.info now)\n\n"
    "the slow answer is still there though: receipt pdf + smtp inside the request, ~11 s."
)

# ============================================================================================ turn 3
s.user("ok good. yeah 11s is the real problem. get the receipt out of the request. Task is fine for now (no oban, same as before)")
s.bash("grep -n 'children = \\[' -A12 lib/moorings/application.ex",
       "10:    children = [\n11-      MooringsWeb.Telemetry,\n12-      Moorings.Repo,\n13-      {DNSCluster, query: Application.get_env(:moorings, :dns_cluster_query) || :ignore},\n"
       "14-      {Phoenix.PubSub, name: Moorings.PubSub},\n15-      {Finch, name: Moorings.Finch},\n16-      MooringsWeb.Endpoint\n17-    ]\n")
s.files["lib/moorings/application.ex"] = "    children = [\n      MooringsWeb.Telemetry,\n      Moorings.Repo,\n      {Phoenix.PubSub, name: Moorings.PubSub},\n      {Finch, name: Moorings.Finch},\n      MooringsWeb.Endpoint\n    ]\n"
s.edit("lib/moorings/application.ex", "      {Finch, name: Moorings.Finch},\n", "      {Finch, name: Moorings.Finch},\n      {Task.Supervisor, name: Moorings.TaskSupervisor},\n",
       text="no Task.Supervisor yet, adding one before the endpoint:")
s.edit(H, "        Receipt.deliver(booking, payment)\n        :ok\n",
       "        # PDF + SMTP took ~11 s inside the request; Stripe only needs the 200.\n"
       "        Task.Supervisor.start_child(Moorings.TaskSupervisor, fn -> Receipt.deliver(booking, payment) end)\n        :ok\n")
s.bash(
    "mix test",
    "Running ExUnit with seed: 24406, max_cases: 16\n\n" + dots(160) + "\n"
    "10:21:07.588 [error] Task #PID<0.1288.0> started from #PID<0.1285.0> terminating\n"
    "** (DBConnection.ConnectionError) could not checkout the connection owned by #PID<0.1285.0>. When using the sandbox, connections are shared, so this may imply another process is using a connection. Reason: connection not available and request was dropped from queue after 486ms.\n"
    "    (ecto_sql 3.12.1) lib/ecto/adapters/sql.ex:1096: Ecto.Adapters.SQL.raise_sql_call_error/1\n"
    "    (moorings 0.9.0) lib/moorings/payments/receipt.ex:6: Moorings.Payments.Receipt.deliver/2\n"
    "    (elixir 1.17.3) lib/task/supervised.ex:101: Task.Supervised.invoke_mfa/2\n"
    "Function: #Function<0.51193317/0 in Moorings.Payments.WebhookHandler.handle/1>\n    Args: []\n"
    + dots(40) + "\n\n"
    "  1) test a completed checkout records a payment and marks the booking paid (Moorings.Payments.WebhookHandlerTest)\n"
    "     test/moorings/payments/webhook_handler_test.exs:15\n"
    "     Assertion failed, no matching message after 0ms\n"
    "     The following variables were pinned:\n       email = %{subject: \"Your mooring receipt\"}\n"
    "     Showing 0 of 0 messages in the mailbox\n"
    "     code: assert_received {:email, ^email}\n"
    "     stacktrace:\n       test/moorings/payments/webhook_handler_test.exs:19: (test)\n\n"
    + dots(11) + "\n"
    "Finished in 6.4 seconds (2.0s async, 4.4s sync)\n213 tests, 1 failure\n",
    code=2,
)
s.assistant(
    "two problems from moving the receipt into a Task, both test-side: the test process finishes before the task sends, so the assert sees an empty mailbox, "
    "and a task that outlives its test loses the sandbox connection (the ConnectionError in the log). "
    "i'd make it configurable: async in dev/prod, inline in test (`config :moorings, :receipts_async, false` in config/test.exs). ok?"
)

# ============================================================================================ turn 4
s.user("wait actualy oban IS in prod since tuesday, ops turned it on and i forgot. so forget the Task thing use oban for the receipt, with retries. smtp flakes anyway")
s.bash("grep -n 'oban' mix.exs config/*.exs",
       "mix.exs:58:      {:oban, \"~> 2.18\"},\nconfig/config.exs:31:config :moorings, Oban,\nconfig/config.exs:32:  engine: Oban.Engines.Basic,\n"
       "config/config.exs:33:  queues: [default: 10, mailers: 5],\nconfig/config.exs:34:  repo: Moorings.Repo\nconfig/test.exs:22:config :moorings, Oban, testing: :manual\n")
s.bash("grep -rn 'Oban' lib --include=*.ex | head", "lib/moorings/application.ex:9:      {Oban, Application.fetch_env!(:moorings, Oban)},\n")
s.bash("ls lib/moorings/workers 2>/dev/null; git log --oneline -3 -- config/config.exs",
       "c91d0e2 config: oban with mailers queue (ops, enabled in prod 2025-11-18)\n7a1b33f config: finch pool size\n0dd4e21 mix phx.gen.auth\n")
s.write("lib/moorings/workers/send_receipt.ex", '''defmodule Moorings.Workers.SendReceipt do
  @moduledoc "Sends a payment receipt outside the Stripe webhook request (SMTP is slow and flaky)."
  use Oban.Worker,
    queue: :mailers,
    max_attempts: 5,
    # A receipt per payment, even if the job gets inserted twice within 5 minutes.
    unique: [period: 300, keys: [:payment_id]]

  alias Moorings.{Bookings, Repo}
  alias Moorings.Payments.{Payment, Receipt}

  @impl Oban.Worker
  def perform(%Oban.Job{args: %{"payment_id" => id}}) do
    payment = Repo.get!(Payment, id)
    booking = Bookings.get_booking!(payment.booking_id)
    Receipt.deliver(booking, payment)
    :ok
  end
end
''', text="oban's already configured (mailers queue, 5 workers) and test.exs has `testing: :manual`. new worker, unique per payment for 5 min, 5 attempts:")
s.edit(H, "        # PDF + SMTP took ~11 s inside the request; Stripe only needs the 200.\n"
       "        Task.Supervisor.start_child(Moorings.TaskSupervisor, fn -> Receipt.deliver(booking, payment) end)\n        :ok\n",
       "        # PDF + SMTP took ~11 s inside the request; Stripe only needs the 200.\n"
       "        {:ok, _job} = %{payment_id: payment.id} |> SendReceipt.new() |> Oban.insert()\n        :ok\n")
s.edit(H, "  alias Moorings.Payments.{Payment, Receipt}\n", "  alias Moorings.Payments.Payment\n  alias Moorings.Workers.SendReceipt\n")
s.edit("lib/moorings/application.ex", "      {Task.Supervisor, name: Moorings.TaskSupervisor},\n", "", text="and the Task.Supervisor goes again:")
s.edit(T, '''    assert Repo.get!(Moorings.Bookings.Booking, booking.id).status == :paid
    assert_email_sent(subject: "Your mooring receipt")
  end''', '''    assert Repo.get!(Moorings.Bookings.Booking, booking.id).status == :paid
    [payment] = Repo.all(Moorings.Payments.Payment)
    assert_enqueued(worker: Moorings.Workers.SendReceipt, args: %{payment_id: payment.id})
  end''')
s.edit(T, '''    assert :ok = WebhookHandler.handle(completed(booking, "evt_dup"))
    assert_email_sent(subject: "Your mooring receipt")
    assert :ok = WebhookHandler.handle(completed(booking, "evt_dup"))
    refute_email_sent()
''', '''    assert :ok = WebhookHandler.handle(completed(booking, "evt_dup"))
    assert :ok = WebhookHandler.handle(completed(booking, "evt_dup"))
    assert [_one] = all_enqueued(worker: Moorings.Workers.SendReceipt)
''')
s.edit(T, "  import Swoosh.TestAssertions\n", "  use Oban.Testing, repo: Moorings.Repo\n")
s.write("test/moorings/workers/send_receipt_test.exs", '''defmodule Moorings.Workers.SendReceiptTest do
  use Moorings.DataCase, async: true
  use Oban.Testing, repo: Moorings.Repo
  import Moorings.Factory
  import Swoosh.TestAssertions

  test "sends the receipt for a payment" do
    payment = insert(:payment)
    assert :ok = perform_job(Moorings.Workers.SendReceipt, %{payment_id: payment.id})
    assert_email_sent(subject: "Your mooring receipt")
  end
end
''')
s.bash(
    "mix test",
    "Running ExUnit with seed: 61893, max_cases: 16\n\n" + dots(131) + "\n\n"
    "  1) test sends the receipt for a payment (Moorings.Workers.SendReceiptTest)\n"
    "     test/moorings/workers/send_receipt_test.exs:7\n"
    "     ** (ExMachina.UndefinedFactoryError) No factory defined for :payment.\n\n"
    "     Please check for typos or define your :payment factory:\n\n         def payment_factory do\n           ...\n         end\n\n"
    "     code: payment = insert(:payment)\n"
    "     stacktrace:\n       (ex_machina 2.8.0) lib/ex_machina.ex:205: ExMachina.build/3\n"
    "       (moorings 0.9.0) test/support/factory.ex:1: Moorings.Factory.insert/1\n"
    "       test/moorings/workers/send_receipt_test.exs:8: (test)\n\n"
    + dots(83) + "\n"
    "Finished in 6.2 seconds (1.9s async, 4.3s sync)\n214 tests, 1 failure\n",
    code=2,
)
s.bash("grep -n '_factory' test/support/factory.ex", "12:  def member_factory do\n21:  def berth_factory do\n29:  def booking_factory do\n")
s.files["test/support/factory.ex"] = "  def booking_factory do\n    %Moorings.Bookings.Booking{member: build(:member), berth: build(:berth), status: :pending, nights: 3}\n  end\nend\n"
s.edit("test/support/factory.ex", "    %Moorings.Bookings.Booking{member: build(:member), berth: build(:berth), status: :pending, nights: 3}\n  end\n",
       "    %Moorings.Bookings.Booking{member: build(:member), berth: build(:berth), status: :pending, nights: 3}\n  end\n\n"
       "  def payment_factory do\n    %Moorings.Payments.Payment{\n      booking: build(:booking),\n      stripe_event_id: sequence(:stripe_event_id, &\"evt_test_#{&1}\"),\n      amount_cents: 4500,\n      currency: \"eur\"\n    }\n  end\n",
       text="no payment factory existed, adding one:")
s.bash("mix precommit",
       "Compiling 3 files (.ex)\nGenerated moorings app\nChecking 150 source files (this might take a while) ...\n\n"
       "Analysis took 2.2 seconds (0.1s to load, 2.1s running 55 checks on 150 files)\n921 mods/funs, found no issues.\n\n" + mix_ok(214, "6.2", 33017))
s.assistant(
    "receipt goes through oban now:\n\n"
    "- `Moorings.Workers.SendReceipt` (`lib/moorings/workers/send_receipt.ex`): queue `mailers`, `max_attempts: 5`, unique per `payment_id` for 300 s\n"
    "- the handler only inserts the job, so the webhook answers right after the db writes\n"
    "- Task.Supervisor removed again, nothing left of the Task version\n"
    "- tests: handler tests assert the enqueued job (and exactly one for a replay), the worker has its own test with `perform_job`; added a `:payment` factory\n\n"
    "precommit green, 214 tests."
)

# ============================================================================================ turn 5
s.user("cool. add a telemetry event for the dupes so we can graph it, [:moorings, :stripe, :duplicate_event]. "
       "charge.refunded prob has the same bug but leave it for now just write it down. then commit 'payments: idempotent stripe webhooks'")
s.bash("grep -n 'def metrics' -A8 lib/moorings_web/telemetry.ex",
       "52:  def metrics do\n53-    [\n54-      # Phoenix Metrics\n55-      summary(\"phoenix.endpoint.start.system_time\",\n56-        unit: {:native, :millisecond}\n57-      ),\n58-      summary(\"phoenix.endpoint.stop.duration\",\n59-        unit: {:native, :millisecond}\n")
s.edit(H, '        Logger.info("duplicate stripe event #{event_id}, ignored")\n',
       '        Logger.info("duplicate stripe event #{event_id}, ignored")\n        :telemetry.execute([:moorings, :stripe, :duplicate_event], %{count: 1}, %{event_id: event_id})\n')
s.files["lib/moorings_web/telemetry.ex"] = "  def metrics do\n    [\n      # Phoenix Metrics\n"
s.edit("lib/moorings_web/telemetry.ex", "  def metrics do\n    [\n      # Phoenix Metrics\n",
       "  def metrics do\n    [\n      # Stripe webhooks answered as replays (see WebhookHandler)\n      counter(\"moorings.stripe.duplicate_event.count\"),\n\n      # Phoenix Metrics\n")
s.bash("grep -rn 'charge.refunded' lib", "lib/moorings/payments/refund.ex:9:  def handle_event(%{\"type\" => \"charge.refunded\", \"id\" => event_id, \"data\" => %{\"object\" => charge}}) do\n")
s.bash("sed -n '9,24p' lib/moorings/payments/refund.ex",
       "  def handle_event(%{\"type\" => \"charge.refunded\", \"id\" => event_id, \"data\" => %{\"object\" => charge}}) do\n"
       "    payment = Repo.get_by!(Payment, stripe_charge_id: charge[\"id\"])\n\n    %Refund{}\n"
       "    |> Refund.changeset(%{payment_id: payment.id, stripe_refund_id: hd(charge[\"refunds\"][\"data\"])[\"id\"], amount_cents: charge[\"amount_refunded\"]})\n"
       "    |> Repo.insert!()\n\n    Logger.info(\"refund recorded for #{event_id}\")\n    :ok\n  end\n")
s.bash("mix precommit", "Compiling 2 files (.ex)\nGenerated moorings app\nChecking 150 source files (this might take a while) ...\n\n"
       "Analysis took 2.1 seconds (0.1s to load, 2.0s running 55 checks on 150 files)\n923 mods/funs, found no issues.\n\n" + mix_ok(214, "6.0", 70154))
s.bash("git add -A && git commit -qm 'payments: idempotent stripe webhooks' && git log --oneline -1 && git show --stat --format= HEAD",
       "4e7a1c9 (HEAD -> rui/stripe-idempotent) payments: idempotent stripe webhooks\n"
       " lib/moorings/payments/payment.ex                                         |  1 +\n"
       " lib/moorings/payments/webhook_handler.ex                                 | 33 +++++++++++++-------\n"
       " lib/moorings/workers/send_receipt.ex                                     | 19 +++++++++++\n"
       " lib/moorings_web/telemetry.ex                                            |  3 ++\n"
       " priv/repo/migrations/20251124094500_unique_payments_stripe_event_id.exs  | 27 ++++++++++++++++\n"
       " test/moorings/payments/webhook_handler_test.exs                          | 15 ++++++---\n"
       " test/moorings/workers/send_receipt_test.exs                              | 12 ++++++++\n"
       " test/support/factory.ex                                                  |  9 ++++++\n"
       " 8 files changed, 106 insertions(+), 13 deletions(-)\n")
s.assistant(
    "committed 4e7a1c9 on rui/stripe-idempotent (not pushed).\n\n"
    "- telemetry: `[:moorings, :stripe, :duplicate_event]` with `%{count: 1}` and the event id as metadata, plus `counter(\"moorings.stripe.duplicate_event.count\")` in MooringsWeb.Telemetry\n\n"
    "left open, not started: `charge.refunded` in `lib/moorings/payments/refund.ex` has the same bug, it `Repo.insert!`s a refund per delivery and `refunds.stripe_refund_id` has no unique index either. "
    "same fix would apply (new migration + on_conflict), but a replay there raises instead of duplicating since the insert! would fail once an index exists.\n\n"
    "before deploying: the new migration deletes duplicate payments in prod (37 rows in the nov 10 dump), worth a db backup first."
)

s.save(HERE / "session.jsonl")
