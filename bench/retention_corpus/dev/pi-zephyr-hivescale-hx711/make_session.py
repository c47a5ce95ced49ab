# ruff: noqa: E501
"""Writes session.jsonl: a pi v3 session written by hand for the heldout7b split.

A terse senior embedded engineer (answers "yes", "revert", "ship") has pi add a median filter
against BLE-induced spikes to hivescale, Zephyr firmware for a beehive scale (HX711 load cell,
nRF52840). west build, twister on native_sim, Kconfig, ztest. A logging preference (printk only)
is withdrawn later. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/mkowal/fw/hivescale"
s = PiSession(CWD, "2026-11-17T07:55:00", seed="hivescale-median")

WF_C = "app/src/weight_filter.c"
WF_H = "app/src/weight_filter.h"
MAIN = "app/src/main.c"
KC = "app/Kconfig"
PRJ = "app/prj.conf"
T_C = "tests/weight_filter/src/main.c"
T_YML = "tests/weight_filter/testcase.yaml"
T_CMK = "tests/weight_filter/CMakeLists.txt"

s.files.update({
    WF_H: """#ifndef WEIGHT_FILTER_H
#define WEIGHT_FILTER_H
#include <stdint.h>

struct weight_filter {
	int32_t ema_mg;      /* exponential moving average, milligrams */
	int32_t tare_counts; /* HX711 counts at zero load */
	bool primed;
};

void weight_filter_init(struct weight_filter *f, int32_t tare_counts);
/* feed one raw HX711 reading, returns filtered weight in grams */
int32_t weight_filter_feed(struct weight_filter *f, int32_t raw_counts);

#endif
""",
    WF_C: """#include <zephyr/kernel.h>
#include "weight_filter.h"

/* counts per gram, from the 2025 calibration with the 20 kg reference */
#define COUNTS_PER_G_X10 22804
#define EMA_SHIFT 3

void weight_filter_init(struct weight_filter *f, int32_t tare_counts)
{
	f->ema_mg = 0;
	f->tare_counts = tare_counts;
	f->primed = false;
}

int32_t weight_filter_feed(struct weight_filter *f, int32_t raw_counts)
{
	int32_t mg = (int32_t)(((int64_t)(raw_counts - f->tare_counts) * 10000) / COUNTS_PER_G_X10);

	if (!f->primed) {
		f->ema_mg = mg;
		f->primed = true;
	} else {
		f->ema_mg += (mg - f->ema_mg) >> EMA_SHIFT;
	}
	return f->ema_mg / 1000;
}
""",
    KC: """source "Kconfig.zephyr"

config HIVESCALE_SAMPLE_MS
	int "HX711 sample period (ms)"
	default 500
""",
    PRJ: """CONFIG_GPIO=y
CONFIG_BT=y
CONFIG_BT_PERIPHERAL=y
CONFIG_BT_DEVICE_NAME="hive-07"
CONFIG_PRINTK=y
CONFIG_LOG=n
CONFIG_HEAP_MEM_POOL_SIZE=0
""",
    T_C: """#include <zephyr/ztest.h>
#include "weight_filter.h"

#define TARE 81234

static int32_t counts(int32_t grams) { return TARE + (grams * 22804) / 10; }

ZTEST(weight_filter, test_zero)
{
	struct weight_filter f;
	weight_filter_init(&f, TARE);
	zassert_equal(weight_filter_feed(&f, TARE), 0);
}

ZTEST(weight_filter, test_first_reading_primes)
{
	struct weight_filter f;
	weight_filter_init(&f, TARE);
	zassert_equal(weight_filter_feed(&f, counts(41230)), 41230);
}

ZTEST(weight_filter, test_ema_converges)
{
	struct weight_filter f;
	weight_filter_init(&f, TARE);
	weight_filter_feed(&f, counts(40000));
	for (int i = 0; i < 60; i++) {
		weight_filter_feed(&f, counts(41000));
	}
	zassert_within(weight_filter_feed(&f, counts(41000)), 41000, 2);
}

ZTEST_SUITE(weight_filter, NULL, NULL, NULL, NULL, NULL);
""",
    T_YML: """tests:
  hivescale.weight_filter:
    platform_allow:
      - native_sim
    integration_platforms:
      - native_sim
    tags: hivescale
""",
    T_CMK: """cmake_minimum_required(VERSION 3.20.0)
find_package(Zephyr REQUIRED HINTS $ENV{ZEPHYR_BASE})
project(weight_filter_test)
target_sources(app PRIVATE src/main.c ../../app/src/weight_filter.c)
target_include_directories(app PRIVATE ../../app/src)
""",
})

TW_HEAD = """INFO    - Using Ninja..
INFO    - Zephyr version: v3.7.0
INFO    - Using 'zephyr' toolchain.
INFO    - Building initial testsuite list...
INFO    - Writing JSON report /home/mkowal/fw/hivescale/twister-out/testplan.json
"""

# ===================================================================== turn 1
s.user("hx711 weight jumps ~30 g when BLE advertises. spikes, single samples. add a median (5) before the EMA in weight_filter. static only, no heap. printk only, no LOG module, flash is tight. twister on native_sim must stay green.")
s.bash("git log --oneline -5; git status --short; west --version; ls app/src tests", """c8e1a04 ble: adv weight every 10 s
4b7f2d9 weight_filter: EMA, tare
91aa0c3 hx711: bit-bang driver
0e5c7b1 initial
West version: v1.2.0
app/src:
ble_adv.c  hx711.c  hx711.h  main.c  weight_filter.c  weight_filter.h
tests:
weight_filter
""")
s.reads([WF_H, WF_C])
s.reads([KC, PRJ])
s.reads([T_C, T_YML, T_CMK])
s.bash("west twister -T tests -p native_sim --inline-logs 2>&1 | tail -8", TW_HEAD + """INFO    - 1 test scenarios (1 configurations) selected, 0 configurations filtered (0 by static filter, 0 at runtime).
INFO    - 1 of 1 executed test configurations passed (100.00%), 0 failed, 0 errored, with no warnings in 14.31 seconds.
INFO    - 3 of 3 executed test cases passed (100.00%) on 1 out of total 1 platforms (100.00%).
""")
s.bash("west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto 2>&1 | tail -6", """[212/214] Linking C executable zephyr/zephyr.elf
Memory region         Used Size  Region Size  %age Used
           FLASH:      231852 B         1 MB     22.11%
             RAM:       41220 B       256 KB     15.72%
        IDT_LIST:          0 GB        32 KB      0.00%
[214/214] Generating files from /home/mkowal/fw/hivescale/build/nrf/zephyr/zephyr.elf for board: nrf52840dk
""")
s.bash("grep -n 'flash\\|partition\\|slot' app/boards/*.overlay app/pm_static.yml 2>/dev/null | head", """app/pm_static.yml:3:mcuboot_primary:
app/pm_static.yml:4:  address: 0xc000
app/pm_static.yml:5:  size: 0x3e000
app/pm_static.yml:9:mcuboot_secondary:
app/pm_static.yml:11:  size: 0x3e000
""")
s.assistant(
    "Baseline: twister native_sim 3/3 pass (Zephyr v3.7.0, west 1.2.0). nRF52840 build: FLASH 231852 B used. The app slot in pm_static.yml is 0x3e000 = 253952 B (mcuboot primary), so **22100 B of headroom** — that's the \"flash is tight\".\n\n"
    "Plan: median of the last 5 raw counts in a static ring inside `struct weight_filter` (no heap), then EMA as today. Window size via Kconfig `HIVESCALE_MEDIAN_N` default 5, odd only. Until the ring is full, use the median of what we have. OK?"
)

# ===================================================================== turn 2
s.user("yes")
s.edit(WF_H, """struct weight_filter {
	int32_t ema_mg;      /* exponential moving average, milligrams */
	int32_t tare_counts; /* HX711 counts at zero load */
	bool primed;
};""", """#include <stdbool.h>

#ifndef CONFIG_HIVESCALE_MEDIAN_N
#define CONFIG_HIVESCALE_MEDIAN_N 5
#endif

struct weight_filter {
	int32_t ema_mg;      /* exponential moving average, milligrams */
	int32_t tare_counts; /* HX711 counts at zero load */
	bool primed;
	int32_t ring[CONFIG_HIVESCALE_MEDIAN_N]; /* last raw counts, for the median */
	uint8_t n;           /* samples in ring (<= MEDIAN_N) */
	uint8_t head;
};""")
s.edit(WF_C, """#include <zephyr/kernel.h>
#include "weight_filter.h\"""", """#include <zephyr/kernel.h>
#include <stdlib.h>
#include "weight_filter.h"

BUILD_ASSERT(CONFIG_HIVESCALE_MEDIAN_N % 2 == 1, "HIVESCALE_MEDIAN_N must be odd");

static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

static int32_t median_push(struct weight_filter *f, int32_t v)
{
	int32_t tmp[CONFIG_HIVESCALE_MEDIAN_N];

	f->ring[f->head] = v;
	f->head = (f->head + 1) % CONFIG_HIVESCALE_MEDIAN_N;
	if (f->n < CONFIG_HIVESCALE_MEDIAN_N) {
		f->n++;
	}
	memcpy(tmp, f->ring, f->n * sizeof(int32_t));
	qsort(tmp, f->n, sizeof(int32_t), cmp_i32);
	return tmp[f->n / 2];
}""")
s.edit(WF_C, """	f->primed = false;
}""", """	f->primed = false;
	f->n = 0;
	f->head = 0;
}""")
s.edit(WF_C, """	int32_t mg = (int32_t)(((int64_t)(raw_counts - f->tare_counts) * 10000) / COUNTS_PER_G_X10);""", """	int32_t med = median_push(f, raw_counts);
	int32_t mg = (int32_t)(((int64_t)(med - f->tare_counts) * 10000) / COUNTS_PER_G_X10);""")
s.edit(KC, """config HIVESCALE_SAMPLE_MS
	int "HX711 sample period (ms)"
	default 500
""", """config HIVESCALE_SAMPLE_MS
	int "HX711 sample period (ms)"
	default 500

config HIVESCALE_MEDIAN_N
	int "Median window for raw HX711 samples (odd)"
	range 1 15
	default 5
	help
	  Median over the last N raw readings before the EMA; removes single-sample
	  spikes (about 30 g) seen while the radio advertises.
""")
s.edit(T_C, """ZTEST_SUITE(weight_filter, NULL, NULL, NULL, NULL, NULL);""", """ZTEST(weight_filter, test_single_spike_rejected)
{
	struct weight_filter f;
	int32_t w = 0;

	weight_filter_init(&f, TARE);
	for (int i = 0; i < 10; i++) {
		w = weight_filter_feed(&f, counts(41230));
	}
	w = weight_filter_feed(&f, counts(41260)); /* +30 g BLE spike */
	zassert_equal(w, 41230, "spike leaked: %d", w);
	w = weight_filter_feed(&f, counts(41230));
	zassert_equal(w, 41230);
}

ZTEST(weight_filter, test_step_passes_after_three)
{
	struct weight_filter f;
	int32_t w = 0;

	weight_filter_init(&f, TARE);
	for (int i = 0; i < 10; i++) {
		weight_filter_feed(&f, counts(40000));
	}
	/* a real step (bees returning): after 3 of 5 samples the median moves */
	weight_filter_feed(&f, counts(40500));
	weight_filter_feed(&f, counts(40500));
	w = weight_filter_feed(&f, counts(40500));
	zassert_true(w > 40000, "median did not follow a real step: %d", w);
}

ZTEST_SUITE(weight_filter, NULL, NULL, NULL, NULL, NULL);""")
s.bash("west twister -T tests -p native_sim --inline-logs 2>&1 | tail -30", TW_HEAD + """INFO    - 1 test scenarios (1 configurations) selected, 0 configurations filtered (0 by static filter, 0 at runtime).
ERROR   - native_sim/native       tests/weight_filter/hivescale.weight_filter        FAILED Build failure
INFO    - ------ Build log ------
[1/118] Preparing syscall dependency handling
...
[96/118] Building C object CMakeFiles/app.dir/src/main.c.obj
[97/118] Building C object CMakeFiles/app.dir/home/mkowal/fw/hivescale/app/src/weight_filter.c.obj
FAILED: CMakeFiles/app.dir/home/mkowal/fw/hivescale/app/src/weight_filter.c.obj
ccache /usr/bin/gcc -DKERNEL -D__ZEPHYR__=1 ... -m32 -c /home/mkowal/fw/hivescale/app/src/weight_filter.c
/home/mkowal/fw/hivescale/app/src/weight_filter.c: In function 'median_push':
/home/mkowal/fw/hivescale/app/src/weight_filter.c:24:9: error: implicit declaration of function 'memcpy' [-Werror=implicit-function-declaration]
   24 |         memcpy(tmp, f->ring, f->n * sizeof(int32_t));
      |         ^~~~~~
/home/mkowal/fw/hivescale/app/src/weight_filter.c:3:1: note: include '<string.h>' or provide a declaration of 'memcpy'
/home/mkowal/fw/hivescale/app/src/weight_filter.c:25:9: warning: implicit declaration of function 'qsort' ...
cc1: some warnings being treated as errors
ninja: build stopped: subcommand failed.
INFO    - ------ Build log end ------
INFO    - 0 of 1 executed test configurations passed (0.00%), 0 failed, 1 errored, with no warnings in 9.87 seconds.
""", code=1)
s.edit(WF_C, """#include <stdlib.h>
#include "weight_filter.h\"""", """#include <stdlib.h>
#include <string.h>
#include "weight_filter.h\"""", text="`implicit declaration of function 'memcpy'`: missing <string.h>.")
s.bash("west twister -T tests -p native_sim --inline-logs 2>&1 | tail -4", TW_HEAD.splitlines()[-1] + """
INFO    - 1 test scenarios (1 configurations) selected, 0 configurations filtered (0 by static filter, 0 at runtime).
INFO    - 1 of 1 executed test configurations passed (100.00%), 0 failed, 0 errored, with no warnings in 15.02 seconds.
INFO    - 5 of 5 executed test cases passed (100.00%) on 1 out of total 1 platforms (100.00%).
""")
s.bash("west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto 2>&1 | grep -E 'FLASH|RAM|error|warning'", """           FLASH:      233604 B         1 MB     22.28%
             RAM:       41260 B       256 KB     15.74%
""")
s.bash("arm-zephyr-eabi-nm --size-sort -S build/nrf/zephyr/zephyr.elf | grep -iE 'qsort|median|cmp_i32|memcpy' ", """0003a1c4 00000018 t cmp_i32
000298f0 0000002c T memcpy
0003a1dc 00000058 t median_push
00029c88 000005ac T qsort_r
00029c64 00000022 T qsort
""")
s.assistant(
    "Twister 5/5 on native_sim (2 new: single +30 g spike rejected, real step followed after 3 samples). Build error on the way was a missing `<string.h>` for memcpy.\n\n"
    "Flash: 233604 B, **+1752 B**, of which qsort/qsort_r are 1486 B (picolibc's qsort). For N=5 an insertion sort would be ~60 B. Headroom now 20348 B."
)

# ===================================================================== turn 3
s.user("revert the qsort")
s.edit(WF_C, """static int cmp_i32(const void *a, const void *b)
{
	int32_t x = *(const int32_t *)a, y = *(const int32_t *)b;
	return (x > y) - (x < y);
}

""", "", text="Replacing qsort with an insertion sort on the small copy.")
s.edit(WF_C, """	memcpy(tmp, f->ring, f->n * sizeof(int32_t));
	qsort(tmp, f->n, sizeof(int32_t), cmp_i32);
	return tmp[f->n / 2];""", """	memcpy(tmp, f->ring, f->n * sizeof(int32_t));
	/* insertion sort: N <= 15, and qsort costs ~1.5 KB of flash */
	for (int i = 1; i < f->n; i++) {
		int32_t v = tmp[i];
		int j = i - 1;

		while (j >= 0 && tmp[j] > v) {
			tmp[j + 1] = tmp[j];
			j--;
		}
		tmp[j + 1] = v;
	}
	return tmp[f->n / 2];""")
s.edit(WF_C, """#include <stdlib.h>
#include <string.h>""", """#include <string.h>""")
s.bash("west twister -T tests -p native_sim --inline-logs 2>&1 | tail -2", """INFO    - 1 of 1 executed test configurations passed (100.00%), 0 failed, 0 errored, with no warnings in 14.88 seconds.
INFO    - 5 of 5 executed test cases passed (100.00%) on 1 out of total 1 platforms (100.00%).
""")
s.bash("west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto 2>&1 | grep -E 'FLASH|RAM'; arm-zephyr-eabi-nm -S build/nrf/zephyr/zephyr.elf | grep -ciE 'qsort'", """           FLASH:      232036 B         1 MB     22.13%
             RAM:       41260 B       256 KB     15.74%
0
""")
s.assistant("qsort gone. FLASH 232036 B (+184 B over baseline), headroom 21916 B. Twister 5/5.")

# ===================================================================== turn 4
s.user("run it on native_sim with the recorded trace. tests/data/hive07_adv.csv")
s.bash("head -4 tests/data/hive07_adv.csv; wc -l tests/data/hive07_adv.csv; grep -n 'HX711_TRACE\\|trace' app/src/hx711.c | head", """ms,counts,adv
0,94093611,0
500,94093702,0
1000,94094185,1
1441 tests/data/hive07_adv.csv
12:#ifdef CONFIG_HX711_TRACE_REPLAY
13:/* native_sim: replay counts from a CSV given with --trace=<file> */
41:#endif
""")
s.bash("west build -b native_sim app -d build/sim -p auto -- -DCONFIG_HX711_TRACE_REPLAY=y 2>&1 | tail -2 && ./build/sim/zephyr/zephyr.exe --trace=tests/data/hive07_adv.csv --stop_at=720 2>&1 | grep -E 'weight' | awk 'NR%120==1' | head -12", """[171/171] Linking C executable zephyr/zephyr.exe
-- Build files have been written to: /home/mkowal/fw/hivescale/build/sim
weight=41230 g raw=94093611
weight=41229 g raw=94094820
weight=41230 g raw=94093700
weight=41231 g raw=94093902
weight=41230 g raw=94094913
weight=41232 g raw=94093655
weight=41233 g raw=94093781
weight=41234 g raw=94093799
weight=41236 g raw=94094890
weight=41237 g raw=94093866
weight=41238 g raw=94093902
weight=41240 g raw=94094001
""")
s.bash("./build/sim/zephyr/zephyr.exe --trace=tests/data/hive07_adv.csv --stop_at=720 2>&1 | grep weight | awk '{print $1}' | cut -d= -f2 | sort -n | uniq -c | sort -k2n | awk '{print $2\": \"$1}' | sed -n '1p;$p'; git stash -q && west build -b native_sim app -d build/sim0 -p auto -- -DCONFIG_HX711_TRACE_REPLAY=y >/dev/null 2>&1 && ./build/sim0/zephyr/zephyr.exe --trace=tests/data/hive07_adv.csv --stop_at=720 2>&1 | grep weight | awk '{print $1}' | cut -d= -f2 | sort -n | sed -n '1p;$p'; git stash pop -q && git status --short", """41228: 3
41241: 2
41221
41262
 M app/Kconfig
 M app/src/weight_filter.c
 M app/src/weight_filter.h
 M tests/weight_filter/src/main.c
""")
s.assistant(
    "Replay of hive07_adv.csv (1440 samples, 720 s, native_sim, `CONFIG_HX711_TRACE_REPLAY=y`):\n"
    "- with median: weight stays **41228–41241 g**, a slow 10 g drift (evening, bees returning), no steps at advertising.\n"
    "- without (stashed, old filter): **41221–41262 g**, the 30 g spikes leak through the EMA as ~+25/−9 g bumps.\n\n"
    "Changes stayed uncommitted; stash popped cleanly."
)

# ===================================================================== turn 5
s.user("good. LOG module is fine after all, we have 21K. use LOG_DBG for the raw+median, LOG_INF weight. drop printk in that path.")
s.bash("grep -n 'printk' app/src/*.c", """app/src/main.c:38:		printk("weight=%d g raw=%d\\n", w, raw);
app/src/ble_adv.c:51:	printk("adv: %d g\\n", grams);
""")
s.files[MAIN] = """#include <zephyr/kernel.h>
#include "hx711.h"
#include "weight_filter.h"

void ble_adv_weight(int32_t grams);

static struct weight_filter wf;

int main(void)
{
	int32_t raw;
	int32_t w;

	hx711_init();
	hx711_read(&raw);
	weight_filter_init(&wf, CONFIG_HIVESCALE_TARE_COUNTS);

	while (1) {
		if (hx711_read(&raw) == 0) {
			w = weight_filter_feed(&wf, raw);
			ble_adv_weight(w);
		}
		k_msleep(CONFIG_HIVESCALE_SAMPLE_MS);
	}
	return 0;
}
"""
s.edit(PRJ, """CONFIG_PRINTK=y
CONFIG_LOG=n""", """CONFIG_PRINTK=y
CONFIG_LOG=y
CONFIG_LOG_MODE_MINIMAL=y
CONFIG_LOG_DEFAULT_LEVEL=3""")
s.edit(WF_C, """#include <zephyr/kernel.h>
#include <string.h>""", """#include <zephyr/kernel.h>
#include <zephyr/logging/log.h>
#include <string.h>

LOG_MODULE_REGISTER(weight_filter, CONFIG_LOG_DEFAULT_LEVEL);""")
s.edit(WF_C, """	int32_t med = median_push(f, raw_counts);""", """	int32_t med = median_push(f, raw_counts);

	LOG_DBG("raw=%d median=%d", raw_counts, med);""")
s.bash("sed -i 's|\\t\\tprintk(\"weight=%d g raw=%d\\\\n\", w, raw);|\\t\\tLOG_INF(\"weight=%d g\", w);|' app/src/main.c && grep -n 'LOG_\\|printk' app/src/main.c", """38:		LOG_INF("weight=%d g", w);
""")
s.bash("west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto 2>&1 | grep -E 'error|FLASH|RAM' | head -8", """/home/mkowal/fw/hivescale/app/src/main.c:38:3: error: implicit declaration of function 'LOG_INF' [-Werror=implicit-function-declaration]
           FLASH:      232036 B         1 MB     22.13%
""", code=1)
s.assistant("main.c has no `LOG_MODULE_REGISTER` / `<zephyr/logging/log.h>` (the FLASH line is the stale previous image). Adding both.")
s.edit(MAIN, """#include <zephyr/kernel.h>
#include "hx711.h\"""", """#include <zephyr/kernel.h>
#include <zephyr/logging/log.h>
#include "hx711.h"

LOG_MODULE_REGISTER(hivescale, CONFIG_LOG_DEFAULT_LEVEL);""")
s.bash("west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto 2>&1 | grep -E 'error|FLASH|RAM' | head -8", """           FLASH:      236988 B         1 MB     22.60%
             RAM:       41804 B       256 KB     15.95%
""")
s.bash("west twister -T tests -p native_sim --inline-logs 2>&1 | tail -2", """INFO    - 1 of 1 executed test configurations passed (100.00%), 0 failed, 0 errored, with no warnings in 15.40 seconds.
INFO    - 5 of 5 executed test cases passed (100.00%) on 1 out of total 1 platforms (100.00%).
""")
s.assistant(
    "LOG in, minimal mode: FLASH 236988 B (+4952 B for logging), headroom **16964 B**; RAM 41804 B. Build error on the way: main.c lacked `LOG_MODULE_REGISTER`. Twister 5/5.\n\n"
    "ble_adv.c:51 still has `printk(\"adv: %d g\")` — outside the weight path, left as is. Convert it too?"
)

# ===================================================================== turn 6
s.user("no. leave it. twister on the nrf too? we have the board on usb.")
s.bash("nrfjprog --ids; ls /dev/ttyACM*", "1050123456\n/dev/ttyACM0  /dev/ttyACM1\n")
s.bash("west twister -T tests -p nrf52840dk/nrf52840 --device-testing --device-serial /dev/ttyACM0 --inline-logs 2>&1 | tail -22", """INFO    - 1 test scenarios (1 configurations) selected, 1 configurations filtered (1 by static filter, 0 at runtime).
INFO    - 0 of 0 executed test configurations passed (0.00%), 0 failed, 0 errored, with no warnings in 1.02 seconds.
INFO    - 0 of 0 executed test cases passed (0.00%) on 0 out of total 1 platforms (0.00%).
""")
s.assistant("Filtered: testcase.yaml has `platform_allow: native_sim` only. Adding nrf52840dk/nrf52840 to platform_allow (not to integration_platforms, so CI stays native_sim only).")
s.edit(T_YML, """    platform_allow:
      - native_sim
""", """    platform_allow:
      - native_sim
      - nrf52840dk/nrf52840
""")
s.bash("west twister -T tests -p nrf52840dk/nrf52840 --device-testing --device-serial /dev/ttyACM0 --inline-logs 2>&1 | tail -24", """INFO    - 1 test scenarios (1 configurations) selected, 0 configurations filtered (0 by static filter, 0 at runtime).
INFO    - Adding tasks to the queue...
INFO    - Added initial list of jobs to queue
ERROR   - nrf52840dk/nrf52840     tests/weight_filter/hivescale.weight_filter        FAILED Timeout (device 60.0s)
INFO    - ------ Device log ------
*** Booting Zephyr OS build v3.7.0 ***
Running TESTSUITE weight_filter
===================================================================
START - test_ema_converges
 PASS - test_ema_converges in 0.001 seconds
===================================================================
START - test_first_reading_primes
 PASS - test_first_reading_primes in 0.001 seconds
===================================================================
START - test_single_spike_rejected
E: ***** MPU FAULT *****
E:   Stacking error (context area might be not valid)
E: r0/a1:  0x00000000  r1/a2:  0x20001f40  r2/a3:  0x00000014
E: Faulting instruction address (r15/pc): 0x00003c1e
E: >>> ZEPHYR FATAL ERROR 2: Stack overflow on CPU 0
E: Current thread: 0x20000a18 (test_weight_filter)
INFO    - ------ Device log end ------
INFO    - 0 of 1 executed test configurations passed (0.00%), 0 failed, 1 errored, with no warnings in 71.44 seconds.
""", code=1)
s.assistant(
    "On the board: `Stack overflow on CPU 0` in the ztest thread, in test_single_spike_rejected. native_sim never saw it (host stack). `struct weight_filter` is now 4+4+1+20+2 ≈ 36 B, plus median_push's tmp[] 20 B, plus LOG_DBG args: small; but the ztest thread stack default is 1024 B and LOG_DBG in minimal mode formats on the caller's stack with printk's cbvprintf, ~600+ B. Options: raise `CONFIG_ZTEST_STACK_SIZE=2048` in the test's prj.conf, or compile the test with LOG level INF so LOG_DBG is gone. The app's main thread (CONFIG_MAIN_STACK_SIZE) would hit the same with DBG enabled in the field."
)
s.bash("cat tests/weight_filter/prj.conf; grep -n 'MAIN_STACK' app/prj.conf build/nrf/zephyr/.config", """CONFIG_ZTEST=y
build/nrf/zephyr/.config:97:CONFIG_MAIN_STACK_SIZE=1024
""")
s.user("ztest stack 2048. main stack 2048 too.")
s.bash("printf 'CONFIG_ZTEST_STACK_SIZE=2048\\nCONFIG_LOG=y\\nCONFIG_LOG_MODE_MINIMAL=y\\n' >> tests/weight_filter/prj.conf && printf 'CONFIG_MAIN_STACK_SIZE=2048\\n' >> app/prj.conf && cat tests/weight_filter/prj.conf && tail -1 app/prj.conf", """CONFIG_ZTEST=y
CONFIG_ZTEST_STACK_SIZE=2048
CONFIG_LOG=y
CONFIG_LOG_MODE_MINIMAL=y
CONFIG_MAIN_STACK_SIZE=2048
""")
s.bash("west twister -T tests -p nrf52840dk/nrf52840 --device-testing --device-serial /dev/ttyACM0 --inline-logs 2>&1 | tail -2; west twister -T tests -p native_sim 2>&1 | tail -1", """INFO    - 1 of 1 executed test configurations passed (100.00%), 0 failed, 0 errored, with no warnings in 38.12 seconds.
INFO    - 5 of 5 executed test cases passed (100.00%) on 1 out of total 1 platforms (100.00%).
INFO    - 5 of 5 executed test cases passed (100.00%) on 1 out of total 1 platforms (100.00%).
""")
s.bash("west build -b nrf52840dk/nrf52840 app -d build/nrf -p auto 2>&1 | grep -E 'error|FLASH|RAM'", """           FLASH:      236988 B         1 MB     22.60%
             RAM:       42828 B       256 KB     16.34%
""")
s.assistant("Board: 5/5 with ZTEST_STACK_SIZE=2048. native_sim 5/5. App: MAIN_STACK_SIZE=2048, RAM 42828 B (+1024), FLASH unchanged 236988 B.")

# ===================================================================== turn 7
s.user("ship. branch, not main")
s.bash("git diff --stat && git switch -c hx711-median && git add -A app tests && git commit -qm 'weight_filter: median of N (Kconfig HIVESCALE_MEDIAN_N=5) before EMA against BLE spikes; LOG minimal; main/ztest stacks 2048' && git push -u origin hx711-median 2>&1 | tail -3 && git log --oneline -1", """ app/Kconfig                          | 10 +++++++
 app/prj.conf                         |  5 +++-
 app/src/main.c                       |  5 +++-
 app/src/weight_filter.c              | 38 +++++++++++++++++++++++++-
 app/src/weight_filter.h              | 11 ++++++++
 tests/weight_filter/prj.conf         |  3 ++
 tests/weight_filter/src/main.c       | 31 +++++++++++++++++++++
 tests/weight_filter/testcase.yaml    |  1 +
 8 files changed, 100 insertions(+), 4 deletions(-)
Switched to a new branch 'hx711-median'
To gitlab.apiary.example:fw/hivescale.git
 * [new branch]      hx711-median -> hx711-median
branch 'hx711-median' set up to track 'origin/hx711-median'.
3f9c0d2 weight_filter: median of N (Kconfig HIVESCALE_MEDIAN_N=5) before EMA against BLE spikes; LOG minimal; main/ztest stacks 2048
""")
s.assistant("Shipped: 3f9c0d2 on branch hx711-median, pushed. Not merged, not flashed to the hives.")

s.save(HERE / "session.jsonl")
