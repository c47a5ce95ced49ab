# ruff: noqa: E501
"""Starting contents of the files the session reads (a Phoenix 1.7 / Ecto app, written for the heldout3 split)."""

HANDLER = '''defmodule Moorings.Payments.WebhookHandler do
  @moduledoc "Turns verified Stripe events into payments and booking updates."
  alias Moorings.{Bookings, Repo}
  alias Moorings.Payments.{Payment, Receipt}
  require Logger

  def handle(%{"type" => "checkout.session.completed", "id" => event_id, "data" => %{"object" => obj}}) do
    booking = Bookings.get_booking!(obj["metadata"]["booking_id"])

    {:ok, payment} =
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

  def handle(%{"type" => type}) do
    Logger.debug("ignoring stripe event #{type}")
    :ok
  end
end
'''

PAYMENT = '''defmodule Moorings.Payments.Payment do
  use Ecto.Schema
  import Ecto.Changeset

  schema "payments" do
    field :stripe_event_id, :string
    field :amount_cents, :integer
    field :currency, :string
    belongs_to :booking, Moorings.Bookings.Booking
    timestamps(type: :utc_datetime)
  end

  def changeset(payment, attrs) do
    payment
    |> cast(attrs, [:booking_id, :stripe_event_id, :amount_cents, :currency])
    |> validate_required([:booking_id, :stripe_event_id, :amount_cents, :currency])
  end
end
'''

CONTROLLER = '''defmodule MooringsWeb.StripeWebhookController do
  use MooringsWeb, :controller
  alias Moorings.Payments.WebhookHandler

  # The raw body is kept by MooringsWeb.CacheBodyReader (endpoint.ex) for signature checks.
  def create(conn, _params) do
    with {:ok, event} <- Moorings.Stripe.verify(conn),
         :ok <- WebhookHandler.handle(event) do
      send_resp(conn, 200, "ok")
    else
      {:error, :bad_signature} -> send_resp(conn, 400, "bad signature")
    end
  end
end
'''

HANDLER_TEST = '''defmodule Moorings.Payments.WebhookHandlerTest do
  use Moorings.DataCase, async: true
  import Moorings.Factory
  import Swoosh.TestAssertions
  alias Moorings.Payments.WebhookHandler

  defp completed(booking, event_id) do
    %{
      "id" => event_id,
      "type" => "checkout.session.completed",
      "data" => %{"object" => %{"amount_total" => 4500, "currency" => "eur", "metadata" => %{"booking_id" => booking.id}}}
    }
  end

  test "a completed checkout records a payment and marks the booking paid" do
    booking = insert(:booking)
    assert :ok = WebhookHandler.handle(completed(booking, "evt_test_1"))
    assert Repo.get!(Moorings.Bookings.Booking, booking.id).status == :paid
    assert_email_sent(subject: "Your mooring receipt")
  end

  test "other events are ignored" do
    assert :ok = WebhookHandler.handle(%{"type" => "invoice.created"})
  end
end
'''
