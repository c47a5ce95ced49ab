# ruff: noqa: E501
"""Labels for pi-zephyr-hivescale-hx711, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "hivescale (Zephyr beehive scale, HX711 + nRF52840): median-of-5 before the EMA against BLE spikes (Kconfig HIVESCALE_MEDIAN_N), qsort reverted to insertion sort, LOG minimal replaces printk in the weight path, stacks 2048; 3f9c0d2 pushed on hx711-median",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7b test split",
    "voice": "terse senior embedded engineer, single-word answers (\"yes\", \"revert the qsort\", \"ship\"), withdraws the printk-only preference",
    "toolchain": "Zephyr v3.7.0, west 1.2.0, twister on native_sim and nrf52840dk (device testing), ztest, Kconfig, arm-zephyr-eabi, picolibc",
}
COMPACTIONS = [
    ("Twister 5/5 on native_sim (2 new: single +30 g spike rejected", 1000),
    ("Replay of hive07_adv.csv (1440 samples, 720 s", 1000),
    ("On the board: `Stack overflow on CPU 0` in the ztest thread", 1000),
]
FACTS = [
    f("z01", "request", "must", "hx711 weight jumps ~30 g when BLE advertises", "HX711 weight jumps ~30 g (single-sample spikes) while BLE advertises: add a median of 5 before the EMA in weight_filter.", [r"median", r"30 ?g|spike|BLE|EMA"], "done"),
    f("z02", "constraint", "must", "static only, no heap. printk only, no LOG module", "Static memory only, no heap (CONFIG_HEAP_MEM_POOL_SIZE=0).", [r"static|heap|malloc", r"only|no "]),
    f("z03", "preference", "must", "printk only, no LOG module, flash is tight", "First preference: printk only, no LOG module, because flash is tight. Withdrawn later: LOG module is fine.", [r"printk|LOG", r"only|no LOG|withdraw|fine|revers|instead"], "reversed"),
    f("z04", "constraint", "must", "twister on native_sim must stay green", "twister on native_sim must stay green.", [r"twister", r"native_sim"]),
    f("z05", "command", "must", "west twister -T tests -p native_sim --inline-logs 2>&1 | tail -30", "Tests: west twister -T tests -p native_sim --inline-logs; latest 5 of 5 test cases pass.", [r"west twister|twister", r"native_sim|5 of 5|5/5"]),
    f("z06", "value", "must", "so **22100 B of headroom**", "Flash budget: app slot (mcuboot_primary in app/pm_static.yml) is 0x3e000 = 253952 B; baseline image 231852 B, i.e. 22100 B headroom.", [r"0x3e000|253952|22100|headroom", r"flash|slot|headroom|B\b"]),
    f("z07", "decision", "should", "Plan: median of the last 5 raw counts in a static ring", "Design (approved with 'yes'): median of the last N raw counts in a static ring inside struct weight_filter, then the EMA as before; N via Kconfig HIVESCALE_MEDIAN_N default 5, odd only (BUILD_ASSERT), median of what is there until the ring fills.", [r"ring|HIVESCALE_MEDIAN_N|Kconfig", r"median|static|odd|5"]),
    f("z08", "path", "should", "Median window for raw HX711 samples (odd)", "app/Kconfig: new HIVESCALE_MEDIAN_N (int, range 1..15, default 5); weight_filter.h adds ring/n/head to struct weight_filter.", [r"HIVESCALE_MEDIAN_N", r"Kconfig|default|range|15|5"]),
    f("z09", "error", "should", "error: implicit declaration of function 'memcpy' [-Werror=implicit-function-declaration]", "First twister build failed: weight_filter.c: implicit declaration of function 'memcpy' (-Werror); fixed by including <string.h>.", [r"memcpy|string\.h", r"implicit|include|string\.h"], "fixed"),
    f("z10", "path", "should", "ZTEST(weight_filter, test_single_spike_rejected)", "tests/weight_filter/src/main.c: new ztests test_single_spike_rejected (+30 g spike does not leak) and test_step_passes_after_three (real step followed after 3 of 5).", [r"test_single_spike_rejected|test_step_passes_after_three|spike rejected"]),
    f("z11", "finding", "should", "Flash: 233604 B, **+1752 B**, of which qsort/qsort_r are 1486 B", "With qsort the image was 233604 B (+1752 B), qsort/qsort_r being ~1486 B of picolibc.", [r"qsort", r"1486|1752|1\.5 ?KB|flash|233604"]),
    f("z12", "request", "must", "revert the qsort", "Revert the qsort: median uses an insertion sort on a small copy instead (qsort gone from the image).", [r"qsort|insertion sort", r"revert|insertion|remov|no qsort|gone|instead"], "done"),
    f("z13", "command", "should", "west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto 2>&1 | grep -E 'FLASH|RAM'; arm-zephyr-eabi-nm", "Target build: west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto (check FLASH/RAM lines, arm-zephyr-eabi-nm for symbol sizes); latest FLASH 236988 B, RAM 42828 B.", [r"west build", r"nrf52840|build/nrf"]),
    f("z14", "state", "nice", "qsort gone. FLASH 232036 B (+184 B over baseline), headroom 21916 B.", "After the insertion sort: FLASH 232036 B (+184 B over baseline), headroom 21916 B, twister 5/5.", [r"232036|21916|\+184"]),
    f("z15", "request", "should", "run it on native_sim with the recorded trace. tests/data/hive07_adv.csv", "Replay the recorded trace tests/data/hive07_adv.csv on native_sim.", [r"hive07_adv|trace|replay"], "done"),
    f("z16", "command", "should", "west build -b native_sim app -d build/sim -p auto -- -DCONFIG_HX711_TRACE_REPLAY=y", "Trace replay: west build -b native_sim app -d build/sim -p auto -- -DCONFIG_HX711_TRACE_REPLAY=y, then ./build/sim/zephyr/zephyr.exe --trace=tests/data/hive07_adv.csv --stop_at=720.", [r"TRACE_REPLAY|--trace|zephyr\.exe", r"native_sim|hive07|trace"]),
    f("z17", "finding", "must", "with median: weight stays **41228–41241 g**", "Replay result (1440 samples, 720 s): with the median the weight stays 41228-41241 g (slow ~10 g drift, no steps at advertising); the old filter gave 41221-41262 g with ~+25/-9 g bumps.", [r"41228|41241|41221|41262", r"median|without|old|spike|bump"]),
    f("z18", "preference", "must", "good. LOG module is fine after all, we have 21K.", "LOG module is fine after all (21K headroom): LOG_DBG for raw + median, LOG_INF for the weight, drop printk in that path (prj.conf CONFIG_LOG=y, LOG_MODE_MINIMAL, LOG_DEFAULT_LEVEL=3).", [r"LOG", r"LOG_DBG|LOG_INF|minimal|fine|printk"]),
    f("z19", "error", "should", "main.c has no `LOG_MODULE_REGISTER`", "nrf build failed: main.c:38 implicit declaration of function 'LOG_INF'; fixed by including <zephyr/logging/log.h> and LOG_MODULE_REGISTER(hivescale) in main.c.", [r"LOG_INF|LOG_MODULE_REGISTER|logging/log\.h", r"implicit|main\.c|register|include"], "fixed"),
    f("z20", "value", "should", "LOG in, minimal mode: FLASH 236988 B (+4952 B for logging), headroom **16964 B**", "With LOG minimal: FLASH 236988 B (+4952 B for logging), headroom 16964 B.", [r"236988|16964|4952"]),
    f("z21", "decision", "should", "ble_adv.c:51 still has `printk(", "ble_adv.c keeps its printk('adv: %d g') (outside the weight path): user said leave it.", [r"ble_adv|adv:", r"printk|leave|keep"]),
    f("z22", "request", "should", "twister on the nrf too? we have the board on usb.", "Run twister on the real nrf52840dk board too (on USB, /dev/ttyACM0).", [r"nrf52840|board|device", r"twister|device-testing|ttyACM0"], "done"),
    f("z23", "fix", "should", "Filtered: testcase.yaml has `platform_allow: native_sim` only", "testcase.yaml: nrf52840dk/nrf52840 added to platform_allow only (not integration_platforms, so CI stays native_sim only); before, twister filtered the board out.", [r"platform_allow|testcase\.yaml", r"nrf52840|integration|CI|filter"]),
    f("z24", "error", "must", "E: >>> ZEPHYR FATAL ERROR 2: Stack overflow on CPU 0", "On the board, test_single_spike_rejected crashed: MPU FAULT, 'ZEPHYR FATAL ERROR 2: Stack overflow on CPU 0' in the ztest thread (1024 B default; LOG_DBG formatting on the caller's stack); native_sim did not show it.", [r"stack overflow|MPU FAULT|FATAL ERROR", r"ztest|board|stack|thread|nrf"], "fixed"),
    f("z25", "decision", "must", "ztest stack 2048. main stack 2048 too.", "Stacks raised: CONFIG_ZTEST_STACK_SIZE=2048 (tests/weight_filter/prj.conf, plus LOG minimal) and CONFIG_MAIN_STACK_SIZE=2048 in app/prj.conf (was 1024).", [r"2048", r"stack|ZTEST_STACK|MAIN_STACK"]),
    f("z26", "command", "should", "--inline-logs 2>&1 | tail -2; west twister -T tests -p native_sim", "Board tests: west twister -T tests -p nrf52840dk/nrf52840 --device-testing --device-serial /dev/ttyACM0; latest 5 of 5 pass.", [r"device-testing|ttyACM0|device-serial"]),
    f("z27", "state", "should", "Board: 5/5 with ZTEST_STACK_SIZE=2048.", "After the stack change: board 5/5, native_sim 5/5, app RAM 42828 B (+1024), FLASH 236988 B.", [r"42828|5/5", r"RAM|board|native_sim"]),
    f("z28", "request", "must", "ship. branch, not main", "'ship. branch, not main': commit and push on a branch, not main (done: new branch hx711-median; not merged, not flashed to the hives).", [r"ship|push|hx711-median", r"branch|not main"], "done"),
    f("z29", "state", "must", "Shipped: 3f9c0d2 on branch hx711-median, pushed", "Shipped 3f9c0d2 on branch hx711-median, pushed to gitlab.apiary.example:fw/hivescale; not merged, not flashed.", [r"3f9c0d2|hx711-median"]),
    f("z30", "value", "nice", "#define COUNTS_PER_G_X10 22804", "Calibration: COUNTS_PER_G_X10 = 22804 (2280.4 counts per gram, 2025 calibration with the 20 kg reference); EMA_SHIFT 3.", [r"22804|2280\.4"]),
    f("z31", "value", "nice", "Baseline: twister native_sim 3/3 pass (Zephyr v3.7.0, west 1.2.0)", "Baseline: twister native_sim 3/3 (Zephyr v3.7.0, west 1.2.0); nRF52840 FLASH 231852 B.", [r"v?3\.7\.0|231852|3/3"]),
    f("z32", "path", "should", "insertion sort: N <= 15, and qsort costs ~1.5 KB of flash", "app/src/weight_filter.c: median_push (static ring copy + insertion sort), LOG_MODULE_REGISTER(weight_filter) with LOG_DBG raw/median, BUILD_ASSERT odd N.", [r"median_push|insertion sort|weight_filter\.c", r"insertion|ring|median"]),
    f("z33", "finding", "nice", "The app's main thread (CONFIG_MAIN_STACK_SIZE) would hit the same", "The app's main thread (MAIN_STACK_SIZE 1024) would overflow the same way with DBG logging enabled in the field.", [r"MAIN_STACK_SIZE|main thread", r"same|overflow|DBG|1024"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
