# ruff: noqa: E501
"""Labels for codex-godot-mossbarrow-inventory, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "Mossbarrow (Godot 4.3 GDScript farming game): pause on focus loss, inventory stacking, versioned JSON save by item id, save on sleep; GUT headless, gdtoolkit",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7a test split",
    "voice": "voice-to-text dictation: no punctuation, homophones (\"right the tests\" for write), re-asks a request finished at the start",
    "toolchain": "Godot 4.3 headless (--import, --script), GUT 9.3.0 via gut_cmdln.gd, gdtoolkit 4.3.1 (gdlint, gdformat), git",
}
COMPACTIONS = [
    ("Tests in place and failing for the right reason", 1200),
    ("5/5 now. The earlier failure was a stale compiled script", 1200),
    ("Newer-version saves are refused:", 1200),
]
FACTS = [
    f("c01", "request", "must", "can you make the game pause when the window loses focus", "Pause the game when the window loses focus (alt-tab), using Godot's notification, not a timer hack.", [r"pause", r"focus|alt.?tab"], "done"),
    f("c02", "fix", "should", "Done: `scripts/game.gd` now handles", "scripts/game.gd: _notification pauses the tree on NOTIFICATION_APPLICATION_FOCUS_OUT and unpauses on FOCUS_IN; game root is PROCESS_MODE_ALWAYS, the Clock autoload stays pausable so crops stop growing.", [r"FOCUS_OUT|FOCUS_IN|paused|notification", r"game\.gd|PROCESS_MODE_ALWAYS|Clock"]),
    f("c03", "value", "nice", "0c4d2a7 add GUT 9.3.0\n5e1b8f3", "Godot 4.3.stable.official.77dcf97d8, GUT 9.3.0.", [r"4\.3|9\.3\.0"]),
    f("c04", "finding", "should", "gdscript/warnings/unsafe_property_access=2", "project.godot treats untyped declarations and unsafe property/method access as errors; autoloads Events, Audio, Clock already exist.", [r"unsafe|untyped|warning", r"error|=2|\b2\b"]),
    f("c05", "request", "must", "inventory stacking right now add just takes the first empty slot", "Inventory stacking: items stack up to ItemData.max_stack, overflow into the next slot, add returns what did not fit.", [r"stack", r"max.?stack|overflow|didnt fit|return"], "done"),
    f("c06", "constraint", "must", "dont make the inventory an autoload", "Do not make the inventory (or new code) an autoload: too many singletons already.", [r"autoload|singleton", r"\bnot?\b|don|avoid|too many"]),
    f("c07", "constraint", "must", "dont edit the tscn files by hand", "Never edit .tscn files by hand (Godot rewrites them).", [r"tscn|scene", r"hand|edit|not|don"]),
    f("c08", "preference", "should", "also right the tests first then the code", "Write the tests first, then the code (dictated as 'right').", [r"test", r"first|before"]),
    f("c09", "error", "should", "Identifier \"Inventory\" not declared in the current scope", "GUT parse error: Identifier \"Inventory\"/\"ItemData\" not declared: the class_name cache (.godot/global_script_class_cache.cfg) did not exist because .godot/ is gitignored.", [r"not declared|Identifier", r"Inventory|ItemData"], "fixed"),
    f("c10", "command", "must", "A headless import builds it", "Run godot --headless --import (builds the class_name cache) before GUT, and again after editing class_name scripts.", [r"--import|headless import", r"class|cache|before|GUT"]),
    f("c11", "command", "must", "gdlint scripts && godot --headless -s addons/gut/gut_cmdln.gd", "Tests: godot --headless -s addons/gut/gut_cmdln.gd -gexit (dirs from .gutconfig.json, res://test/unit); latest 9/9 passing.", [r"gut_cmdln|GUT", r"headless|gexit"]),
    f("c12", "error", "should", "The property \"id\" is not present on the inferred type \"Variant\"", "Parse error (unsafe property access is an error): slot[\"item\"].id on a Variant in inventory.gd:27; fixed with a typed local var held: ItemData.", [r"unsafe|Variant", r"\bid\b|property"], "fixed"),
    f("c13", "decision", "should", "I'll keep the strict warnings and type the access", "Keep the strict warning settings; type Dictionary accesses instead of relaxing them.", [r"strict|warning|unsafe_property_access", r"keep|type"]),
    f("c14", "error", "should", "[Failed]:  [0] expected to equal [51]", "test_add_returns_leftover_when_full failed ([0] expected 51) though add returned 51 outside GUT; passed on the next full run.", [r"\b51\b", r"leftover|expected|full"], "fixed"),
    f("c15", "finding", "should", "5/5 now. The earlier failure was a stale compiled script", "Cause: GUT loaded a stale compiled inventory.gd cached under .godot; hence always --import before GUT after editing class_name scripts.", [r"stale|cache|\.godot", r"script|compiled|import"]),
    f("c16", "path", "must", "Stacking done: `Inventory.add(item, count) -> int`", "scripts/inventory/inventory.gd: Inventory.add(item, count) -> int tops up matching stacks, then fills empty slots, capped at max(max_stack, 1), returns the leftover, emits changed only when something was stored (24 slots).", [r"Inventory|inventory\.gd|add", r"leftover|max_stack|stack"]),
    f("c17", "path", "should", "*** Add File: test/unit/test_inventory.gd", "New test/unit/test_inventory.gd: stacking, overflow, unstackable, leftover-when-full tests.", [r"test_inventory"]),
    f("c18", "request", "must", "next save and load the inventory to user save json", "Save and load the inventory to user://save.json.", [r"save", r"load|json"], "done"),
    f("c19", "constraint", "must", "the save needs a version field", "The save file must carry a version field (format will change later).", [r"version", r"save|field|format"]),
    f("c20", "constraint", "must", "dont store resource paths store the item id", "Store item ids in the save, never resource paths (the .tres files get renamed).", [r"\bids?\b", r"path|tres|resource"]),
    f("c21", "decision", "should", "unknown ids are skipped with `push_warning`", "Items are resolved by id from res://items/*.tres at load time; unknown ids are skipped with push_warning (a removed item must not brick a save).", [r"unknown", r"skip|warn"]),
    f("c22", "error", "should", "Passing Tests     6", "GUT: 'Trying to assign value of type 'float' to a variable of type 'int'' at save_game.gd:32 (JSON.parse_string gives floats); fixed with int() on slot and count.", [r"float", r"\bint\b"], "fixed"),
    f("c23", "value", "should", "app_userdata/Mossbarrow/save.json", "Save file user://save.json (~/.local/share/godot/app_userdata/Mossbarrow/save.json): {\"version\": 1, \"slots\": [{\"slot\", \"id\", \"count\"}]}.", [r"save\.json", r"version|slots|user://|app_userdata"]),
    f("c24", "path", "must", "*** Add File: scripts/save/save_game.gd", "New scripts/save/save_game.gd: class_name SaveGame with static save_inventory/load_inventory (not an autoload), VERSION = 1.", [r"save_game|SaveGame", r"VERSION|static|\bid\b|res://items"]),
    f("c25", "path", "should", "*** Add File: test/unit/test_save_game.gd", "New test/unit/test_save_game.gd: roundtrip, version and no paths, unknown id skipped, newer version refused.", [r"test_save_game"]),
    f("c26", "request", "must", "it should refuse not load half of it", "A save whose version is newer than the build's must be refused, not half-loaded.", [r"newer|bigger|version", r"refuse|not load|half"], "done"),
    f("c27", "fix", "should", "Newer-version saves are refused:", "load_inventory returns null and push_errors when the file version > SaveGame.VERSION (1); test added; GUT 9/9.", [r"null|push_error|refus", r"version"]),
    f("c28", "request", "should", "also lint it we use gd toolkit", "Lint with gdtoolkit (gdlint, gdformat).", [r"lint|gd ?toolkit|gdformat"], "done"),
    f("c29", "error", "should", "scripts/save/save_game.gd:30: Error: Max allowed line length", "gdlint: max-line-length (100) exceeded at save_game.gd (103); push_error call split over lines. gdformat reformatted inventory.gd and test_save_game.gd.", [r"line length|max-line-length|\b100\b|103"], "fixed"),
    f("c30", "command", "should", "gdlint scripts test && gdformat --check scripts test && godot", "gdlint scripts test && gdformat --check scripts test: clean (gdlint 4.3.1).", [r"gdlint|gdformat"]),
    f("c31", "state", "must", "Committed 8e4c1d7 (includes the focus-pause change", "Committed 8e4c1d7 'inventory stacking and save file' (includes the focus pause in game.gd); .godot/ stays ignored.", [r"8e4c1d7"]),
    f("c32", "request", "should", "the save should happen when you sleep in the bed", "Save when the player sleeps: the bed emits Events.slept; hook it up without editing .tscn.", [r"sleep|slept|bed", r"save|hook|connect"], "done"),
    f("c33", "fix", "should", "Hooked in code: `game.gd` connects `Events.slept`", "game.gd connects Events.slept to _on_slept, which calls SaveGame.save_inventory(inventory); no .tscn touched.", [r"slept|_on_slept", r"save|connect"]),
    f("c34", "state", "must", "Committed b19f6a2; GUT 9/9", "Committed b19f6a2 'save inventory when sleeping'.", [r"b19f6a2"]),
    f("c35", "finding", "should", "That's already done — it was the first thing you asked today", "The user re-asked for pause on alt-tab at the end; it was already done (first request) and committed in 8e4c1d7; an older export would not have it.", [r"already|done|8e4c1d7", r"pause|focus|alt"]),
    f("c36", "value", "nice", "id = &\"turnip\"\nmax_stack = 50", "Item ids / max_stack: carrot_seed 99, carrot 99, hoe 1, turnip 50.", [r"turnip|hoe|carrot", r"\b50\b|\b99\b|max_stack"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
