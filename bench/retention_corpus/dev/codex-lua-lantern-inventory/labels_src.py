# ruff: noqa: E501
"""Labels for codex-lua-lantern-inventory, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "lantern (LÖVE game): inventory stack merging, per-item max_stack, weight limit in integer grams, v2 save string; old save still crashing",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout4 test split",
    "voice": "terse lower-case, no punctuation, one instruction per line, decisions written \"so: ...\"",
    "toolchain": "Lua on LuaJIT 2.1 (LÖVE 11.5), busted 2.2.0, luacheck 1.1.2, make",
}
COMPACTIONS = [
    ("`add()` now returns `ok, leftover`", 900),
    ("`make test` now runs `lint`", 1500),
]
FACTS = [
    f("l01", "request", "must", "stacks merge wrong when you pick up stuff", "Fix issue 41: picking up items onto a partly full stack overflowed it past the maximum; stacks must cap and the rest go into new stacks.", [r"stacks?", r"\b41\b|max|partial|overflow|merg"], "done"),
    f("l02", "constraint", "must", "runs on love 11.5 so luajit 2.1", "The game runs on LÖVE 11.5 / LuaJIT 2.1: no Lua 5.3 features.", [r"luajit|love 11|l[öo]ve|5\.1", r"5\.3|\bno\b|compat|only"]),
    f("l03", "constraint", "must", "no new rocks", "No new luarocks dependencies.", [r"rocks?|dependenc", r"\bno\b|new|without"]),
    f("l04", "finding", "nice", "pick up 8 arrows with 15 in the bag", "Issue 41: 8 arrows onto 15 gave one stack of 23; 30 torches into an empty bag gave one stack of 30.", [r"\b23\b|\b30\b", r"stack"]),
    f("l05", "error", "should", "unexpected symbol near '/'", "busted could not load src/inventory.lua under LuaJIT: unexpected symbol near '/' (the 5.3 // operator).", [r"unexpected symbol|//", r"inventory\.lua|near|luajit"], "fixed"),
    f("l06", "fix", "should", "`//` is Lua 5.3 integer division", "Replaced // with math.floor(a / b).", [r"math\.floor", r"//|luajit|5\.3|integer division"]),
    f("l07", "error", "should", "setting non-standard global variable 'split_stack'", "luacheck: accidental global split_stack in add(); removed.", [r"split_stack|non-standard global|\bglobal"], "fixed"),
    f("l08", "decision", "must", "so: take what fits, return the leftover count too", "A pickup that does not fully fit takes what fits and returns the leftover count; the world keeps the rest on the ground.", [r"leftover|what fits|\brest\b", r"\badd\b|return|ground"]),
    f("l09", "decision", "should", "`add()` now returns `ok, leftover`", "add() returns ok, leftover (first value still a boolean so callers like ui/debug_console.lua still work); world/pickup.lua leaves item.count = left on the ground and plays the sound if anything was taken.", [r"ok, ?leftover|leftover", r"boolean|callers?|pickup"]),
    f("l10", "decision", "must", "so: max_stack per item from item_db default 20", "max_stack comes from item_db per item, 20 when an item has none.", [r"max_stack", r"item_db|\b20\b|default"]),
    f("l11", "value", "should", "max_stack comes from item_db per item (potion_small 5", "item_db stack sizes: arrow 99, lantern_oil 10, potion_small 5; iron_ore and torch have none (20).", [r"arrow|potion|lantern_oil", r"\b99\b|\b5\b|\b10\b"]),
    f("l12", "error", "should", "my patch also put a `max` field into every new slot", "A spec failed because new slots got a stray max field; slots hold only id and count (the save format serialises slots).", [r"\bmax\b.{0,30}field|stray|only id and count|hold only", r"slots?"], "fixed"),
    f("l13", "decision", "must", "so: weight limit 50 per player", "Weight limit 50 kg per player; add() also takes only what fits by weight; item_db weights are kg.", [r"weight", r"\b50\b"]),
    f("l14", "error", "should", "Floating point: 50 / 0.05 is 999.99999999999989", "Floating point: 50 / 0.05 = 999.99999999999989, so only 999 of 1000 arrows fitted (spec 'fills exactly to 50 kg' failed).", [r"999\.9|999\b|float", r"0\.05|arrow|\b50\b"], "fixed"),
    f("l15", "decision", "must", "Weight limit in: 50 kg per inventory", "Weights are computed internally in integer grams (kg * 1000 rounded, limit 50000 g) so they are exact; item_db stays in kg and inv:weight() still returns kg for hud.lua.", [r"gram|50000|integer", r"weight"]),
    f("l16", "value", "should", "About 0.94 µs per `add()`", "add() costs about 0.94 µs (1e6 calls in 0.94 s, two thirds in grams()); ~50 µs per frame for 50 items, under 0.3% of a frame; left as is.", [r"0\.94|0\.61|50 ?µs|0\.3 ?%", r"\badd|grams|frame|µs"]),
    f("l17", "request", "should", "put luacheck in the makefile test target", "make test (all CI runs) now runs a lint target (luacheck src spec main.lua conf.lua) before busted.", [r"luacheck|lint", r"\bmake\b|Makefile"], "done"),
    f("l18", "value", "nice", "max_line_length = 120", ".luacheckrc: std luajit+love, max_line_length 120, lib/ excluded; .busted runs with luajit.", [r"\b120\b", r"line|length|luacheck"]),
    f("l19", "error", "should", "src/ui/hud.lua:134:121: line is too long (131 > 120)", "luacheck in make test flagged src/ui/hud.lua:134 (131 > 120 columns); the line was split.", [r"hud\.lua|line is too long|\b131\b", r"long|\b120\b|131|split"], "fixed"),
    f("l20", "value", "nice", "Luacheck: 1.1.2", "Tools: LuaJIT 2.1.1713484068, busted 2.2.0, luacheck 1.1.2.", [r"2\.2\.0|1\.1\.2|2\.1\.1713484068", r"busted|luacheck|luajit"]),
    f("l21", "request", "must", "inv:serialize() -> string", "inv:serialize() -> string and Inventory.deserialize(s) for the save file, plain text, no library or rocks.", [r"serializ", r"deserializ|string|save"], "done"),
    f("l22", "constraint", "must", "old saves from 0.3 must still load", "Saves from 0.3 must still load (inventory written like torch=3,arrow=40).", [r"0\.3|\bv1\b|old saves?", r"load|torch=3|compat"]),
    f("l23", "decision", "should", "serialize() writes `2;torch:20,torch:3,arrow:40`", "v2 format: '2;' then id:count per slot in slot order; 0.3 entries are re-added through add() so oversized stacks get split.", [r"2;|\bv2\b|version", r"id:count|torch:|slot order|format"]),
    f("l24", "error", "must", "slot1.sav loads; slot2.sav crashes later in the HUD", "Open: loading saves/slot2.sav crashes in hud.lua draw_quickbar with src/inventory.lua:75: attempt to index local 'slot' (a nil value); its line has an empty entry (torch=3,,arrow=12); cause not found; the user debugs it tomorrow.", [r"slot2|attempt to index|nil value", r"crash|hud|quickbar|open|not (found|understood)"], "open"),
    f("l25", "constraint", "should", "commit what works leave save.lua uncommitted", "src/save.lua stays modified and uncommitted.", [r"save\.lua", r"uncommitted|not commit|leave|left"]),
    f("l26", "value", "should", "Committed f71c0d8", "Committed f71c0d8 (inventory, pickup, hud line, Makefile, specs).", [r"f71c0d8"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
