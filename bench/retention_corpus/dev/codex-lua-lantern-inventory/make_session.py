# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout4 split.

A terse lower-case game developer (no punctuation, decisions written "so: ...") has Codex fix stack
merging in a LÖVE game's inventory module, add per-item stack sizes and a weight limit, and a
save-string format; loading old saves still fails at the end. busted under LuaJIT (syntax errors from
5.3 operators, assertion diffs), luacheck warnings. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/tove/games/lantern"
r = Rollout(CWD, "2026-05-02T20:31:44", seed="lantern-inventory", repo_url="git@codeberg.org:tove/lantern.git")
INV = "src/inventory.lua"
DB = "src/item_db.lua"
SPEC = "spec/inventory_spec.lua"

r.files.update({
    INV: """local Inventory = {}
Inventory.__index = Inventory

local MAX_STACK = 20

function Inventory.new(size)
  return setmetatable({ slots = {}, size = size or 24 }, Inventory)
end

-- adds count items of id; returns true when everything fit
function Inventory:add(id, count)
  local total = 0
  for _, slot in ipairs(self.slots) do
    if slot.id == id and slot.count < MAX_STACK then
      slot.count = slot.count + count
      return true
    end
  end
  if #self.slots >= self.size then return false end
  table.insert(self.slots, { id = id, count = count })
  return true
end

function Inventory:count(id)
  local n = 0
  for _, slot in ipairs(self.slots) do
    if slot.id == id then n = n + slot.count end
  end
  return n
end

return Inventory
""",
    DB: """-- item definitions; weight in kg
return {
  arrow        = { name = "Arrow",          max_stack = 99, weight = 0.05 },
  potion_small = { name = "Small potion",   max_stack = 5,  weight = 0.3 },
  lantern_oil  = { name = "Lantern oil",    max_stack = 10, weight = 0.5 },
  iron_ore     = { name = "Iron ore",                       weight = 2.0 },
  torch        = { name = "Torch",                          weight = 0.4 },
}
""",
    SPEC: """local Inventory = require("src.inventory")

describe("inventory", function()
  it("adds to an empty inventory", function()
    local inv = Inventory.new(4)
    assert.is_true(inv:add("torch", 3))
    assert.are.equal(3, inv:count("torch"))
  end)

  it("refuses when full", function()
    local inv = Inventory.new(1)
    assert.is_true(inv:add("torch", 1))
    assert.is_false(inv:add("iron_ore", 1))
  end)
end)
""",
})

BUSTED = "busted"


def busted(out: str, code: int = 0, cmd: str = BUSTED, reasoning: str | None = None) -> None:
    r.run(cmd, out, code=code, secs=0.4, reasoning=reasoning)


# ============================================================================================ turn 1
r.user(
    "stacks merge wrong when you pick up stuff and a stack is already partly full see issue 41\n"
    "fix it + specs\n"
    "runs on love 11.5 so luajit 2.1 no 5.3 stuff\n"
    "no new rocks"
)
r.run("ls; cat .busted .luacheckrc", "README.md\nconf.lua\nlib\nmain.lua\nspec\nsrc\nreturn {\n  _all = { lua = \"luajit\", lpath = \"./?.lua;./?/init.lua\" },\n  default = { ROOT = { \"spec\" } },\n}\nstd = \"luajit+love\"\nmax_line_length = 120\nexclude_files = { \"lib/\" }\nglobals = { \"love\" }\n", reasoning="**Looking at the project**\n\nTest and lint config first.")
r.run("git log --oneline -3", "a0c4e19 pickup radius 24px\n5d7f2b0 lantern oil item\n19e3c88 v0.3 save format\n")
r.cat(INV)
r.cat(SPEC)
r.run("gh issue view 41 --repo tove/lantern 2>/dev/null || cat docs/issues/41.md", "#41 stacks overflow past max\n\npick up 8 arrows with 15 in the bag: you get one stack of 23\npick up 30 torches into an empty bag: one stack of 30\nshould be: 20 max per stack, rest into new stacks\n")
r.run("luajit -v && busted --version && luacheck --version", "LuaJIT 2.1.1713484068 -- Copyright (C) 2005-2023 Mike Pall. https://luajit.org/\n2.2.0\nLuacheck: 1.1.2\nLua: LuaJIT 2.1.1713484068\nArgparse: 0.7.1\nLuaFileSystem: 1.8.0\n")
busted("●●\n2 successes / 0 failures / 0 errors / 0 pending : 0.002915 seconds\n")
r.patch([("update", SPEC, [("""  it("refuses when full", function()""", """  it("fills a partial stack up to max_stack before opening a new one", function()
    local inv = Inventory.new(4)
    inv:add("torch", 15)
    assert.is_true(inv:add("torch", 8))
    assert.are.equal(20, inv.slots[1].count)
    assert.are.equal(3, inv.slots[2].count)
  end)

  it("splits a big pickup into several stacks", function()
    local inv = Inventory.new(4)
    assert.is_true(inv:add("torch", 45))
    assert.are.same({ 20, 20, 5 }, { inv.slots[1].count, inv.slots[2].count, inv.slots[3].count })
  end)

  it("refuses when full", function()""")])])
busted("""●●◼◼
2 successes / 2 failures / 0 errors / 0 pending : 0.004410 seconds

Failure → spec/inventory_spec.lua @ 10
inventory fills a partial stack up to max_stack before opening a new one
spec/inventory_spec.lua:14: Expected objects to be equal.
Passed in:
(number) 23
Expected:
(number) 20

Failure → spec/inventory_spec.lua @ 18
inventory splits a big pickup into several stacks
spec/inventory_spec.lua:21: Expected objects to be the same.
Passed in:
(table: 0x41c8d2a0) {
  [1] = 45 }
Expected:
(table: 0x41c8d1f8) {
  [1] = 20
  [2] = 20
  [3] = 5 }
""", code=1)
r.patch([("update", INV, [("""-- adds count items of id; returns true when everything fit
function Inventory:add(id, count)
  local total = 0
  for _, slot in ipairs(self.slots) do
    if slot.id == id and slot.count < MAX_STACK then
      slot.count = slot.count + count
      return true
    end
  end
  if #self.slots >= self.size then return false end
  table.insert(self.slots, { id = id, count = count })
  return true
end
""", """-- adds count items of id: tops up partial stacks first, then opens new ones
-- returns true when everything fit
function Inventory:add(id, count)
  for _, slot in ipairs(self.slots) do
    if count == 0 then break end
    if slot.id == id and slot.count < MAX_STACK then
      local put = math.min(MAX_STACK - slot.count, count)
      slot.count = slot.count + put
      count = count - put
    end
  end
  local needed = (count + MAX_STACK - 1) // MAX_STACK
  if #self.slots + needed > self.size then return false end
  while count > 0 do
    local put = math.min(MAX_STACK, count)
    split_stack = { id = id, count = put }
    table.insert(self.slots, split_stack)
    count = count - put
  end
  return true
end
""")])], reasoning="**Fixing add**\n\nTop up partial stacks, then open new ones.")
busted("""
0 successes / 0 failures / 1 error / 0 pending : 0.0 seconds

Error → spec/inventory_spec.lua @ 1
spec/inventory_spec.lua
spec/inventory_spec.lua:1: error loading module 'src.inventory' from file './src/inventory.lua':
	./src/inventory.lua:22: unexpected symbol near '/'
stack traceback:
	[C]: in function 'require'
	spec/inventory_spec.lua:1: in main chunk
""", code=1)
r.say("`//` is Lua 5.3 integer division, LuaJIT doesn't parse it (my mistake, you said no 5.3). Using `math.floor(a / b)`, which gives the same result for these positive integers.")
r.patch([("update", INV, [("  local needed = (count + MAX_STACK - 1) // MAX_STACK\n", "  local needed = math.floor((count + MAX_STACK - 1) / MAX_STACK)\n")])])
busted("●●●●\n4 successes / 0 failures / 0 errors / 0 pending : 0.003120 seconds\n")
r.run("luacheck src spec", """Checking src/inventory.lua                        1 warning

    src/inventory.lua:26:5: setting non-standard global variable 'split_stack'

Checking src/item_db.lua                          OK
Checking spec/inventory_spec.lua                  OK

Total: 1 warning / 0 errors in 3 files
""", code=1)
r.patch([("update", INV, [("    split_stack = { id = id, count = put }\n    table.insert(self.slots, split_stack)\n", "    table.insert(self.slots, { id = id, count = put })\n")])])
r.run("luacheck src spec", "Checking src/inventory.lua                        OK\nChecking src/item_db.lua                          OK\nChecking spec/inventory_spec.lua                  OK\n\nTotal: 0 warnings / 0 errors in 3 files\n")
busted("●●●●\n4 successes / 0 failures / 0 errors / 0 pending : 0.003008 seconds\n")
r.say(
    "Issue 41 fixed: `add()` tops up partial stacks of the same item first, then opens new stacks of at most 20; 45 torches give 20/20/5. "
    "If the new stacks don't fit it returns false, but the partial stacks it already topped up stay topped up. That's the one behaviour question: should a pickup that doesn't fully fit take nothing, or take what fits?\n\n"
    "On the way: `//` broke under LuaJIT (fixed with math.floor), and luacheck caught an accidental global `split_stack` (the old unused `total` is gone too). busted 4/4, luacheck clean."
)

# ============================================================================================ turn 2
r.user("so: take what fits, return the leftover count too so the world keeps the rest on the ground")
r.patch([("update", INV, [
    ("-- returns true when everything fit\n", "-- returns ok, leftover: ok is true when everything fit, leftover is what did not\n"),
    ("""  local needed = math.floor((count + MAX_STACK - 1) / MAX_STACK)
  if #self.slots + needed > self.size then return false end
  while count > 0 do
""", """  while count > 0 and #self.slots < self.size do
"""),
    ("""    count = count - put
  end
  return true
end
""", """    count = count - put
  end
  return count == 0, count
end
"""),
])])
r.patch([("update", SPEC, [("""  it("refuses when full", function()""", """  it("takes what fits and returns the leftover", function()
    local inv = Inventory.new(2)
    local ok, left = inv:add("torch", 50)
    assert.is_false(ok)
    assert.are.equal(10, left)
    assert.are.equal(40, inv:count("torch"))
  end)

  it("refuses when full", function()""")])])
busted("●●●●●\n5 successes / 0 failures / 0 errors / 0 pending : 0.003551 seconds\n")
r.run("grep -rn ':add(' src main.lua | grep -v '^src/inventory.lua'", "src/world/pickup.lua:17:  if player.inv:add(item.id, item.count) then\nsrc/ui/debug_console.lua:41:    inv:add(args[1], tonumber(args[2]) or 1)\n")
r.run("sed -n '10,26p' src/world/pickup.lua", "function M.try_pickup(player, item)\n  if item.picked then return end\n  local dist = util.dist(player.x, player.y, item.x, item.y)\n  if dist > PICKUP_RADIUS then return end\n  -- play sound and remove the item when the inventory took it\n  if player.inv:add(item.id, item.count) then\n    sfx.play(\"pickup\")\n    item.picked = true\n  end\nend\n")
r.files["src/world/pickup.lua"] = "function M.try_pickup(player, item)\n  if item.picked then return end\n  local dist = util.dist(player.x, player.y, item.x, item.y)\n  if dist > PICKUP_RADIUS then return end\n  -- play sound and remove the item when the inventory took it\n  if player.inv:add(item.id, item.count) then\n    sfx.play(\"pickup\")\n    item.picked = true\n  end\nend\n"
r.patch([("update", "src/world/pickup.lua", [("""  if player.inv:add(item.id, item.count) then
    sfx.play("pickup")
    item.picked = true
  end
""", """  local ok, left = player.inv:add(item.id, item.count)
  if left < item.count then sfx.play("pickup") end
  if ok then
    item.picked = true
  else
    item.count = left -- the rest stays on the ground
  end
""")])])
busted("●●●●●\n5 successes / 0 failures / 0 errors / 0 pending : 0.003377 seconds\n")
r.say(
    "`add()` now returns `ok, leftover`: it takes what fits and `leftover` is the count that didn't. I kept the first return value a boolean so callers that only test it (ui/debug_console.lua) still work. "
    "src/world/pickup.lua uses the leftover: the item stays on the ground with `count = left`, and the pickup sound plays if anything was taken."
)

# ============================================================================================ turn 3
r.user("so: max_stack per item from item_db default 20 when missing")
r.cat(DB)
r.patch([("update", INV, [
    ("local Inventory = {}\n", "local item_db = require(\"src.item_db\")\n\nlocal Inventory = {}\n"),
    ("local MAX_STACK = 20\n", "local DEFAULT_MAX_STACK = 20\n\nlocal function max_stack(id)\n  local def = item_db[id]\n  return def and def.max_stack or DEFAULT_MAX_STACK\nend\n"),
    ("function Inventory:add(id, count)\n  for _, slot", "function Inventory:add(id, count)\n  local max = max_stack(id)\n  for _, slot"),
    ("    if slot.id == id and slot.count < MAX_STACK then\n      local put = math.min(MAX_STACK - slot.count, count)", "    if slot.id == id and slot.count < max then\n      local put = math.min(max - slot.count, count)"),
    ("    local put = math.min(MAX_STACK, count)\n", "    local put = math.min(max, count)\n"),
    ("    table.insert(self.slots, { id = id, count = put })\n", "    table.insert(self.slots, { id = id, count = put, max = max })\n"),
])])
r.patch([("update", SPEC, [("""  it("refuses when full", function()""", """  it("uses the item's max_stack", function()
    local inv = Inventory.new(4)
    inv:add("potion_small", 12)
    assert.are.same({ 5, 5, 2 }, { inv.slots[1].count, inv.slots[2].count, inv.slots[3].count })
  end)

  it("uses 99 for arrows and 20 for items without max_stack", function()
    local inv = Inventory.new(4)
    inv:add("arrow", 120)
    inv:add("iron_ore", 25)
    assert.are.same({ { id = "arrow", count = 99 }, { id = "arrow", count = 21 }, { id = "iron_ore", count = 20 }, { id = "iron_ore", count = 5 } }, inv.slots)
  end)

  it("refuses when full", function()""")])])
busted("""●●●●●●◼
6 successes / 1 failure / 0 errors / 0 pending : 0.004802 seconds

Failure → spec/inventory_spec.lua @ 43
inventory uses 99 for arrows and 20 for items without max_stack
spec/inventory_spec.lua:47: Expected objects to be the same.
Passed in:
(table: 0x40a6d100) {
 *[1] = {
    [count] = 99
    [id] = 'arrow'
   *[max] = 99 }
  [2] = {
    [count] = 21
    [id] = 'arrow'
    [max] = 99 }
  [3] = {
    [count] = 20
    [id] = 'iron_ore'
    [max] = 20 }
  [4] = {
    [count] = 5
    [id] = 'iron_ore'
    [max] = 20 } }
Expected:
(table: 0x40a6d188) {
 *[1] = {
    [count] = 99
    [id] = 'arrow'
   *[max] = nil } }
""", code=1)
r.run("grep -n 'max' src/inventory.lua", "5:local DEFAULT_MAX_STACK = 20\n7:local function max_stack(id)\n9:  return def and def.max_stack or DEFAULT_MAX_STACK\n17:  local max = max_stack(id)\n20:    if slot.id == id and slot.count < max then\n21:      local put = math.min(max - slot.count, count)\n29:    local put = math.min(max, count)\n30:    table.insert(self.slots, { id = id, count = put, max = max })\n")
r.say("The counts are right (99, 21, 20, 5) but my patch also put a `max` field into every new slot (line 30). Slots should hold only id and count: the save format will serialise slots and a per-slot max would go stale when item_db changes. Removing it.", reasoning="**The stray field**")
r.patch([("update", INV, [("    table.insert(self.slots, { id = id, count = put, max = max })\n", "    table.insert(self.slots, { id = id, count = put })\n")])])
busted("●●●●●●●\n7 successes / 0 failures / 0 errors / 0 pending : 0.004452 seconds\n")
r.run("luacheck src spec", "Checking src/inventory.lua                        OK\nChecking src/item_db.lua                          OK\nChecking spec/inventory_spec.lua                  OK\n\nTotal: 0 warnings / 0 errors in 3 files\n")
r.say("max_stack comes from item_db per item (potion_small 5, lantern_oil 10, arrow 99), 20 when an item has none (iron_ore, torch). A stray `max` field in new slots made the arrows spec fail; slots hold only `id` and `count` again. busted 7/7, luacheck clean.")

# ============================================================================================ turn 4
r.user("nice")

# ============================================================================================ turn 5
r.user("so: weight limit 50 per player\nadd takes what fits by weight too\nweight in item_db is kg")
r.patch([("update", INV, [
    ("function Inventory.new(size)\n  return setmetatable({ slots = {}, size = size or 24 }, Inventory)\nend\n",
     "function Inventory.new(size, max_weight)\n  return setmetatable({ slots = {}, size = size or 24, max_weight = max_weight or 50 }, Inventory)\nend\n\nlocal function weight_of(id)\n  local def = item_db[id]\n  return def and def.weight or 0\nend\n\nfunction Inventory:weight()\n  local w = 0\n  for _, slot in ipairs(self.slots) do w = w + weight_of(slot.id) * slot.count end\n  return w\nend\n"),
    ("  local max = max_stack(id)\n", "  local max = max_stack(id)\n  local unit = weight_of(id)\n  if unit > 0 then\n    local room = math.floor((self.max_weight - self:weight()) / unit)\n    if room < count then\n      local _, left = self:add_unchecked(id, math.max(room, 0), max)\n      return false, count - math.max(room, 0) + left\n    end\n  end\n  return self:add_unchecked(id, count, max)\nend\n\nfunction Inventory:add_unchecked(id, count, max)\n"),
])])
r.patch([("update", SPEC, [("""  it("refuses when full", function()""", """  it("stops at the weight limit", function()
    local inv = Inventory.new(24, 50)
    local ok, left = inv:add("iron_ore", 30)
    assert.is_false(ok)
    assert.are.equal(5, left)
    assert.are.equal(50, inv:weight())
  end)

  it("fills exactly to 50 kg with light items", function()
    local inv = Inventory.new(24, 50)
    local ok, left = inv:add("arrow", 1000)
    assert.is_true(ok)
    assert.are.equal(0, left)
    assert.are.equal(1000, inv:count("arrow"))
  end)

  it("refuses when full", function()""")])])
busted("""●●●●●●●●◼
8 successes / 1 failure / 0 errors / 0 pending : 0.006120 seconds

Failure → spec/inventory_spec.lua @ 59
inventory fills exactly to 50 kg with light items
spec/inventory_spec.lua:62: Expected objects to be the same.
Passed in:
(boolean) false
Expected:
(boolean) true
""", code=1)
r.run("luajit -e 'print(string.format(\"%.17g\", 0.05*1000), math.floor(50/0.05), string.format(\"%.17g\", 50/0.05))'", "50.000000000000007\n999\n999.99999999999989\n")
r.say(
    "Floating point: 50 / 0.05 is 999.99999999999989 in binary doubles, so floor gives 999 and the 1000th arrow 'doesn't fit'. Epsilons would leak into every comparison; I'd rather store weights as integer grams: "
    "item_db stays in kg for you, the inventory converts once with `math.floor(kg * 1000 + 0.5)` and the limit is 50000 g. Integers are exact in doubles up to 2^53, far beyond any inventory."
)
r.patch([("update", INV, [
    ("local function weight_of(id)\n  local def = item_db[id]\n  return def and def.weight or 0\nend\n",
     "-- grams, as integers: kg from item_db would drift in floating point (50 / 0.05 ~= 999.999...)\nlocal function weight_of(id)\n  local def = item_db[id]\n  return def and def.weight and math.floor(def.weight * 1000 + 0.5) or 0\nend\n"),
    ("max_weight = max_weight or 50 }", "max_weight = math.floor((max_weight or 50) * 1000 + 0.5) }"),
    ("function Inventory:weight()\n  local w = 0\n  for _, slot in ipairs(self.slots) do w = w + weight_of(slot.id) * slot.count end\n  return w\nend\n",
     "-- in kg, for the UI\nfunction Inventory:weight()\n  local g = 0\n  for _, slot in ipairs(self.slots) do g = g + weight_of(slot.id) * slot.count end\n  return g / 1000\nend\n\nfunction Inventory:grams()\n  local g = 0\n  for _, slot in ipairs(self.slots) do g = g + weight_of(slot.id) * slot.count end\n  return g\nend\n"),
    ("    local room = math.floor((self.max_weight - self:weight()) / unit)\n", "    local room = math.floor((self.max_weight - self:grams()) / unit)\n"),
])])
busted("●●●●●●●●●\n9 successes / 0 failures / 0 errors / 0 pending : 0.005870 seconds\n")
r.run("luacheck src spec", "Checking src/inventory.lua                        OK\nChecking src/item_db.lua                          OK\nChecking spec/inventory_spec.lua                  OK\n\nTotal: 0 warnings / 0 errors in 3 files\n")
r.run("grep -rn 'weight' src/ui/*.lua | head -3", "src/ui/hud.lua:58:  love.graphics.print(string.format(\"%.1f / 50 kg\", player.inv:weight()), x, y)\n")
r.say("Weight limit in: 50 kg per inventory (`Inventory.new(size, max_weight)`), computed in integer grams internally so 1000 arrows at 0.05 kg fit exactly; `add()` takes what fits by weight and returns the rest as leftover. `inv:weight()` still returns kg for hud.lua. 9/9 specs.")

# ============================================================================================ turn 6
r.user("ok\nhow slow is add now with the weight loop its called every frame in the pickup radius")
r.run("luajit -e 'package.path=\"./?.lua;\"..package.path; local I=require(\"src.inventory\"); local i=I.new(24); for k=1,20 do i:add(\"torch\",3) end; local t=os.clock(); for k=1,1e6 do i:add(\"arrow\",1); i.slots[#i.slots].count=0 end; print(os.clock()-t)'", "0.94\n")
r.run("luajit -e 'package.path=\"./?.lua;\"..package.path; local I=require(\"src.inventory\"); local i=I.new(24); for k=1,20 do i:add(\"torch\",3) end; local t=os.clock(); for k=1,1e6 do i:grams() end; print(os.clock()-t)'", "0.61\n")
r.say("About 0.94 µs per `add()` with 20 full-ish slots (1e6 calls in 0.94 s under LuaJIT), two thirds of it in `grams()` walking all slots. Even 50 items in range per frame is ~50 µs, under 0.3% of a 16.7 ms frame. I'd leave it; caching the total weight would need every slot change to go through the inventory.")
r.user("leave it")

# ============================================================================================ turn 6b
r.user("put luacheck in the makefile test target ci only runs make test")
r.run("cat Makefile", "LUA ?= luajit\n\n.PHONY: test run\n\ntest:\n\tbusted\n\nrun:\n\tlove .\n")
r.files["Makefile"] = "LUA ?= luajit\n\n.PHONY: test run\n\ntest:\n\tbusted\n\nrun:\n\tlove .\n"
r.patch([("update", "Makefile", [(".PHONY: test run\n\ntest:\n\tbusted\n", ".PHONY: test lint run\n\ntest: lint\n\tbusted\n\nlint:\n\tluacheck src spec main.lua conf.lua\n")])])
r.run("make test", """luacheck src spec main.lua conf.lua
Checking src/inventory.lua                        OK
Checking src/item_db.lua                          OK
Checking src/save.lua                             OK
Checking src/ui/debug_console.lua                 OK
Checking src/ui/hud.lua                           1 warning

    src/ui/hud.lua:134:121: line is too long (131 > 120)

Checking src/world/pickup.lua                     OK
Checking spec/inventory_spec.lua                  OK
Checking main.lua                                 OK
Checking conf.lua                                 OK

Total: 1 warning / 0 errors in 9 files
make: *** [Makefile:8: lint] Error 1
""", code=2)
r.run("sed -n '134p' src/ui/hud.lua", "  love.graphics.printf(string.format(\"%s  x%d\", item_db[slot.id].name, slot.count), x + 4, y + QUICKBAR_SLOT - 14, QUICKBAR_SLOT - 8, \"right\")\n")
r.files["src/ui/hud.lua"] = "  love.graphics.printf(string.format(\"%s  x%d\", item_db[slot.id].name, slot.count), x + 4, y + QUICKBAR_SLOT - 14, QUICKBAR_SLOT - 8, \"right\")\n"
r.patch([("update", "src/ui/hud.lua", [("  love.graphics.printf(string.format(\"%s  x%d\", item_db[slot.id].name, slot.count), x + 4, y + QUICKBAR_SLOT - 14, QUICKBAR_SLOT - 8, \"right\")\n", "  local label = string.format(\"%s  x%d\", item_db[slot.id].name, slot.count)\n  love.graphics.printf(label, x + 4, y + QUICKBAR_SLOT - 14, QUICKBAR_SLOT - 8, \"right\")\n")])])
r.run("make test", "luacheck src spec main.lua conf.lua\nTotal: 0 warnings / 0 errors in 9 files\nbusted\n●●●●●●●●●\n9 successes / 0 failures / 0 errors / 0 pending : 0.005902 seconds\n")
r.say("`make test` now runs `lint` (luacheck src spec main.lua conf.lua) before busted. It found one old line in src/ui/hud.lua:134 over the 120-column limit from .luacheckrc; split it. Both pass.")

# ============================================================================================ turn 7
r.user("save format next\ninv:serialize() -> string and Inventory.deserialize(s)\nplain text no lib no rocks\nold saves from 0.3 must still load they look like torch=3,arrow=40")
r.run("ls saves/ && head -c 200 saves/slot1.sav", "slot1.sav\nslot2.sav\nv=1\nplayer.x=412.5\nplayer.y=96\ninv=torch=3,arrow=40,potion_small=2\nquest.lantern=2\n")
r.run("grep -rn 'inv=' src/save.lua", "src/save.lua:31:    lines[#lines + 1] = \"inv=\" .. table.concat(parts, \",\")\nsrc/save.lua:58:      elseif key == \"inv\" then player.inv = load_inv_v1(value)\n")
r.run("sed -n '60,80p' src/save.lua", "local function load_inv_v1(s)\n  local inv = Inventory.new(24)\n  for id, n in s:gmatch(\"([%w_]+)=(%d+)\") do\n    inv.slots[#inv.slots + 1] = { id = id, count = tonumber(n) }\n  end\n  return inv\nend\n")
r.patch([("update", INV, [("function Inventory:count(id)", """-- v2 save format: "2;" followed by id:count pairs in slot order, e.g. "2;torch:3,arrow:40"
function Inventory:serialize()
  local parts = {}
  for i, slot in ipairs(self.slots) do parts[i] = slot.id .. ":" .. slot.count end
  return "2;" .. table.concat(parts, ",")
end

-- reads v2 and the 0.3 (v1) format "torch=3,arrow=40"; v1 stacks may exceed max_stack, so they are re-added
function Inventory.deserialize(s, size, max_weight)
  local inv = Inventory.new(size, max_weight)
  if s:sub(1, 2) == "2;" then
    for id, n in s:sub(3):gmatch("([%w_]+):(%d+)") do
      inv.slots[#inv.slots + 1] = { id = id, count = tonumber(n) }
    end
  else
    for id, n in s:gmatch("([%w_]+)=(%d+)") do
      inv:add(id, tonumber(n))
    end
  end
  return inv
end

function Inventory:count(id)""")])])
r.patch([("add", "spec/save_spec.lua", """local Inventory = require("src.inventory")

describe("inventory save format", function()
  it("round-trips v2", function()
    local inv = Inventory.new(24)
    inv:add("torch", 23)
    inv:add("arrow", 40)
    local back = Inventory.deserialize(inv:serialize())
    assert.are.same(inv.slots, back.slots)
    assert.are.equal("2;torch:20,torch:3,arrow:40", inv:serialize())
  end)

  it("loads a 0.3 save and re-stacks it", function()
    local inv = Inventory.deserialize("torch=3,arrow=140,potion_small=2")
    assert.are.equal(140, inv:count("arrow"))
    assert.are.same({ 3, 99, 41, 2 }, { inv.slots[1].count, inv.slots[2].count, inv.slots[3].count, inv.slots[4].count })
  end)

  it("loads the real slot1.sav inventory line", function()
    local f = assert(io.open("saves/slot1.sav"))
    local line = f:read("*a"):match("\\ninv=([^\\n]*)")
    f:close()
    local inv = Inventory.deserialize(line)
    assert.are.equal(40, inv:count("arrow"))
  end)
end)
""")])
busted("●●●●●●●●●●●●\n12 successes / 0 failures / 0 errors / 0 pending : 0.007731 seconds\n")
r.say("serialize() writes `2;torch:20,torch:3,arrow:40` (version prefix, then id:count per slot in slot order); deserialize() reads that and the 0.3 format `torch=3,arrow=40`, re-adding 0.3 entries through add() so their oversized stacks get split. 12 specs pass; now wiring it into src/save.lua.")
r.files["src/save.lua"] = "    lines[#lines + 1] = \"inv=\" .. table.concat(parts, \",\")\n      elseif key == \"inv\" then player.inv = load_inv_v1(value)\n"
r.patch([("update", "src/save.lua", [
    ("    lines[#lines + 1] = \"inv=\" .. table.concat(parts, \",\")\n", "    lines[#lines + 1] = \"inv=\" .. player.inv:serialize()\n"),
    ("      elseif key == \"inv\" then player.inv = load_inv_v1(value)\n", "      elseif key == \"inv\" then player.inv = Inventory.deserialize(value)\n"),
])])
r.run("love . --load saves/slot2.sav --headless-smoke 2>&1 | tail -5", """Error: src/inventory.lua:75: attempt to index local 'slot' (a nil value)
stack traceback:
	[string "boot.lua"]:345: in function 'error'
	src/inventory.lua:75: in function 'count'
	src/ui/hud.lua:61: in function 'draw_quickbar'
	src/ui/hud.lua:12: in function 'draw'
	main.lua:88: in function 'draw'
	[string "boot.lua"]:618: in function <[string "boot.lua"]:594>
""", code=1)
r.run("grep '^inv=' saves/slot2.sav", "inv=torch=3,,arrow=12,lantern_oil=1\n")
r.run("sed -n '56,62p' src/ui/hud.lua", "function M.draw_quickbar(inv, x, y)\n  for i = 1, 8 do\n    local id = player.quick[i]\n    if id then\n      local n = inv:count(id)\n      draw_slot(x + (i - 1) * QUICKBAR_SLOT, y, id, n)\n")
r.run("busted spec/save_spec.lua", "●●●\n3 successes / 0 failures / 0 errors / 0 pending : 0.002114 seconds\n")
r.say(
    "slot1.sav loads; slot2.sav crashes later in the HUD: `src/inventory.lua:75: attempt to index local 'slot' (a nil value)` (from `count`, called by hud.lua:61 `draw_quickbar`). "
    "slot2's line has an empty entry (`torch=3,,arrow=12`), but the gmatch skips that, so the nil slot must come from somewhere else, probably the quickbar indexing slots by position (1-8) on an inventory that now has fewer or differently ordered slots after re-stacking. I haven't found it yet."
)

# ============================================================================================ turn 8
r.user("stop there its late\ncommit what works leave save.lua uncommitted\nill debug slot2 tomorrow")
r.run("git status --short", " M Makefile\n M spec/inventory_spec.lua\n M src/inventory.lua\n M src/save.lua\n M src/ui/hud.lua\n M src/world/pickup.lua\n?? spec/save_spec.lua\n")
r.run("git add Makefile src/ui/hud.lua src/inventory.lua src/world/pickup.lua spec/inventory_spec.lua spec/save_spec.lua && git commit -qm 'inventory: stack by item max_stack, weight limit in grams, leftover from add, v2 save string' && git status --short && git log --oneline -1", " M src/save.lua\nf71c0d8 inventory: stack by item max_stack, weight limit in grams, leftover from add, v2 save string\n")
r.say("Committed f71c0d8 (inventory, pickup, hud line, Makefile, specs). src/save.lua is left modified and uncommitted. Open: slot2.sav crashes in hud.lua's quickbar with `attempt to index local 'slot' (a nil value)` at inventory.lua:75; not understood yet.")

r.save(HERE / "session.jsonl")
