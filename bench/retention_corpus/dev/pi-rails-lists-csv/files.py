# ruff: noqa: E501
"""Files of the shelfie Rails app at the start of the session (written by hand)."""

CONTROLLER = '''class ListsController < ApplicationController
  before_action :authenticate_user!
  before_action :set_list, only: %i[show edit update destroy]

  def index
    @lists = current_user.lists.order(updated_at: :desc)
  end

  def show
    @items = @list.list_items.order(created_at: :asc)
  end

  private

  def set_list
    @list = current_user.lists.find(params[:id])
  end
end
'''

LIST_MODEL = '''class List < ApplicationRecord
  belongs_to :user
  has_many :list_items, dependent: :destroy
  has_many :books, through: :list_items

  validates :name, presence: true, length: { maximum: 120 }
end
'''

ITEM_MODEL = '''class ListItem < ApplicationRecord
  belongs_to :list, touch: true
  belongs_to :book

  validates :book_id, uniqueness: { scope: :list_id }
end
'''

BOOK_MODEL = '''class Book < ApplicationRecord
  belongs_to :author
  has_many :list_items
  has_one_attached :cover

  def display_title
    subtitle.present? ? "#{title}: #{subtitle}" : title
  end
end
'''

SHOW_VIEW = '''<h1><%= @list.name %></h1>
<p class="meta"><%= pluralize(@items.size, "book") %></p>
<ul class="books">
  <% @items.each do |item| %>
    <li>
      <%= image_tag item.book.cover.variant(:thumb) if item.book.cover.attached? %>
      <strong><%= item.book.display_title %></strong>
      by <%= item.book.author.name %>
      <span class="added"><%= time_ago_in_words(item.created_at) %> ago</span>
    </li>
  <% end %>
</ul>
'''

REQUEST_SPEC = '''require "rails_helper"

RSpec.describe "Lists", type: :request do
  let(:user) { create(:user) }
  let(:list) { create(:list, user: user) }

  before { sign_in user }

  describe "GET /lists/:id" do
    it "shows the books in the order they were added" do
      first = create(:list_item, list: list, created_at: 2.days.ago)
      second = create(:list_item, list: list, created_at: 1.day.ago)
      get list_path(list)
      expect(response.body.index(first.book.title)).to be < response.body.index(second.book.title)
    end

    it "is not found for another user's list" do
      other = create(:list)
      get list_path(other)
      expect(response).to have_http_status(:not_found)
    end
  end
end
'''
