# ruff: noqa: E501
"""Labels for pi-elixir-moorings-webhooks, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "moorings (Phoenix/Ecto): idempotent Stripe webhooks, dedupe migration, receipt via Task then Oban, telemetry",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3 test split",
    "voice": "terse, typos and almost no punctuation ('stripe webhooks get procesed twice', 'wait actualy oban IS in prod'); reverses its own 'no oban' rule",
    "toolchain": "Elixir 1.17 / Phoenix + Ecto (PostgreSQL), mix test (ExUnit), mix precommit (warnings-as-errors, credo), Oban, ExMachina",
}
COMPACTIONS = [
    ("the slow answer is still there though", 1200),
    ("receipt goes through oban now:", 800),
]
FACTS = [
    f("m01", "request", "must", "make the handler idempotent pls", "Make the Stripe webhook handler idempotent: events get processed twice (booking 8812 has two payment rows and two receipts).", [r"idempot|duplicat|twice|replay", r"webhook|stripe|event"], "done"),
    f("m02", "constraint", "must", "dont edit migrations already in priv/repo/migrations", "Never edit migrations already in priv/repo/migrations (they are deployed); only add new ones.", [r"migration", r"deployed|don.?t (edit|touch|change)|never (edit|touch|change)|only (add )?new|untouched|existing"]),
    f("m03", "constraint", "should", "and no oban we dont run it in prod yet", "No Oban: not running in prod yet. Reversed later (Oban has been in prod since Tuesday).", [r"\boban\b", r"prod"], "reversed"),
    f("m04", "value", "nice", "booking 8812 has 2 payment rows", "Example: booking 8812 had two payment rows (40177, 40178) for event evt_1QGm2LFz8sKq0TbXw3, 12 s apart.", [r"8812"]),
    f("m05", "finding", "must", "what happened with booking 8812", "Root cause: the first delivery took 11.2 s to answer (receipt PDF + SMTP inside the request), Stripe resent the event, and nothing prevented a second insert.", [r"11(\.\d)? ?s\b|11,?204|11 seconds", r"receipt|smtp|pdf|retr|resen|slow"]),
    f("m06", "value", "nice", "212 tests, 0 failures", "Before the change: 212 tests, all passing.", [r"\b212 tests"]),
    f("m07", "finding", "should", "add :stripe_event_id, :string, null: false", "payments.stripe_event_id had no unique index (only null: false in the create migration).", [r"stripe_event_id", r"null: false|no (unique )?index|not unique|without (a )?unique|lacked|missing|had no"]),
    f("m08", "decision", "must", "plan:\n1. new migration with a unique index", "Plan: new migration with a unique index on payments.stripe_event_id; insert with on_conflict: :nothing on it and skip mark_paid/receipt for a replay.", [r"on_conflict|unique[ _]index|unique constraint", r"stripe_event_id|event"]),
    f("m09", "error", "should", "ERROR 23505 (unique_violation)", "mix ecto.migrate failed: ERROR 23505 unique_violation, could not create unique index payments_stripe_event_id_index (duplicates exist).", [r"23505|unique_violation|could not create unique index|duplicat", r"index|migrat"], "fixed"),
    f("m10", "value", "should", "         37 |     31", "The dev DB had 37 extra payment rows for 31 events (6 events delivered three times).", [r"\b37\b", r"\b31\b|duplicat|extra"]),
    f("m11", "finding", "should", "yes dev is a prod dump from nov 10", "moorings_dev is a prod dump from Nov 10, so prod has the same duplicates.", [r"dump|snapshot|copy of prod", r"prod"]),
    f("m12", "decision", "must", "dedupe in the migration keep the oldest row per event", "Dedupe inside the new migration, keeping the oldest payment row per event.", [r"oldest|lowest id|min\(id\)|earliest", r"dedup|duplicat|delet|keep"]),
    f("m13", "finding", "must", "two refunds (5521, 5530) hang on duplicate rows", "refunds.payment_id is on_delete: :restrict and refunds 5521/5530 pointed at duplicate rows: the migration moves refunds onto the kept payment before deleting the copies.", [r"refund", r"restrict|re-?point|mov|5521|5530|kept|oldest"]),
    f("m14", "decision", "should", "up/down instead of change since the cleanup", "The migration uses up/down instead of change: the cleanup cannot be reversed (down only drops the index).", [r"up/down|up and down|\bdown\b|irreversib|can.?t be reversed|not reversible", r"migration|cleanup|index"]),
    f("m15", "path", "must", "`priv/repo/migrations/20251124094500_unique_payments_stripe_event_id.exs` (new, up/down)", "New migration: priv/repo/migrations/20251124094500_unique_payments_stripe_event_id.exs.", [r"20251124094500|unique_payments_stripe_event_id"]),
    f("m16", "value", "nice", "migrated, 9,412 payments left", "After migrating, the dev DB has 9,412 payments and no orphaned refund.", [r"9,?412"]),
    f("m17", "error", "should", "** (MatchError) no match of right hand side value", "The new replay test failed first (as intended): MatchError on {:error, changeset} 'has already been taken' from the plain Repo.insert in webhook_handler.ex.", [r"MatchError|already been taken"], "fixed"),
    f("m18", "fix", "should", "fails as expected (the second insert now hits", "Fix: Repo.insert(changeset, on_conflict: :nothing, conflict_target: :stripe_event_id); {:ok, %Payment{id: nil}} means a replay, answered :ok without side effects.", [r"on_conflict", r"id: nil|:nothing|conflict_target"]),
    f("m19", "command", "should", "71:      precommit: [", "Check with mix precommit: compile --warnings-as-errors, deps.unlock --check-unused, format --check-formatted, credo --strict, test.", [r"precommit", r"warnings-as-errors|credo|format"]),
    f("m20", "error", "nice", "warning: Logger.warn/1 is deprecated", "mix precommit failed on the deprecated Logger.warn (warnings-as-errors); now Logger.info.", [r"Logger\.warn\b|deprecat"], "fixed"),
    f("m21", "request", "should", "get the receipt out of the request", "Take the receipt e-mail out of the webhook request (the ~11 s answer is the real problem).", [r"receipt", r"out of the (webhook )?request|off the (webhook )?request|async|background|oban|\bjob|worker|queue|\btask"], "done"),
    f("m22", "decision", "should", "Task is fine for now (no oban, same as before)", "First: send the receipt from a Task (no Oban). Reversed: Oban instead, the Task version was removed.", [r"\btasks?\b", r"oban|receipt"], "reversed"),
    f("m23", "error", "should", "could not checkout the connection owned by", "With the Task version, tests failed: the receipt assert saw an empty mailbox and a task outliving its test hit DBConnection.ConnectionError (sandbox).", [r"ConnectionError|could not checkout|sandbox.{0,40}(connection|owner)|empty mailbox|no matching message"], "fixed"),
    f("m24", "decision", "must", "wait actualy oban IS in prod since tuesday", "Oban IS in prod (since Tuesday): use Oban for the receipt, with retries (SMTP flakes).", [r"\boban\b", r"receipt|retr|prod|worker|job"], "done"),
    f("m25", "finding", "nice", "config/config.exs:33:  queues: [default: 10, mailers: 5]", "Oban was already configured: queues default 10 / mailers 5, config/test.exs testing: :manual.", [r"mailers", r"queue|testing|manual|\b5\b"]),
    f("m26", "state", "must", "- `Moorings.Workers.SendReceipt` (`lib/moorings/workers/send_receipt.ex`)", "Moorings.Workers.SendReceipt (lib/moorings/workers/send_receipt.ex): queue mailers, max_attempts 5, unique per payment_id for 300 s; the handler only enqueues it.", [r"SendReceipt|send_receipt", r"mailers|max_attempts|attempts|unique|300"]),
    f("m27", "decision", "nice", "- Task.Supervisor removed again", "The Task.Supervisor added for the Task version was removed again.", [r"Task\.Supervisor|TaskSupervisor", r"remov|drop|gone|revert|no longer"]),
    f("m28", "error", "nice", "No factory defined for :payment", "ExMachina.UndefinedFactoryError for :payment in the worker test; a payment_factory was added to test/support/factory.ex.", [r"factory", r"payment"], "fixed"),
    f("m29", "value", "nice", "precommit green, 214 tests.", "After the Oban change: precommit green, 214 tests.", [r"\b214 tests"]),
    f("m30", "request", "should", "add a telemetry event for the dupes", "Telemetry event [:moorings, :stripe, :duplicate_event] for replays, with a counter metric in MooringsWeb.Telemetry.", [r"duplicate_event", r"telemetry|counter|metric"], "done"),
    f("m31", "request", "must", "left open, not started: `charge.refunded`", "Open: charge.refunded (lib/moorings/payments/refund.ex) has the same duplicate bug (refunds.stripe_refund_id not unique); left for later.", [r"charge\.refunded|refund", r"open|not started|later|leave|left|same bug|follow"], "open"),
    f("m32", "value", "should", "committed 4e7a1c9 on rui/stripe-idempotent", "Committed as 4e7a1c9 'payments: idempotent stripe webhooks' on rui/stripe-idempotent, not pushed.", [r"4e7a1c9"]),
    f("m33", "finding", "should", "before deploying: the new migration deletes duplicate payments", "Before deploying: the migration deletes duplicate payments in prod; take a DB backup first.", [r"backup", r"prod|deploy|migration"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
