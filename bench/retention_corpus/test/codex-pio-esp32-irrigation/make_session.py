# ruff: noqa: E501
"""Writes session.jsonl and labels.json: a Codex CLI rollout written by hand for the heldout8a split.

A warm Nigerian-English maker ("abeg no touch X" rules, each with a reason) has Codex add pump
hysteresis and a dry-run guard to oko-drip, PlatformIO firmware for an ESP32 drip-irrigation
controller, with Unity tests on the native env (pio test -e native).
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

CWD = "/home/chinedu/projects/oko-drip"
r = Rollout(CWD, "2026-11-21T07:12:00", seed="okodrip-hysteresis", repo_url="git@github.com:okodrip/oko-drip.git")

INI = "platformio.ini"
MAIN = "src/main.cpp"
PL_H = "lib/pump_logic/pump_logic.h"
PL_C = "lib/pump_logic/pump_logic.cpp"
TEST = "test/test_pump_logic/test_main.cpp"

r.files.update({
    INI: """[platformio]
default_envs = esp32dev

[env:esp32dev]
platform = espressif32@6.7.0
board = esp32dev
framework = arduino
monitor_speed = 115200
upload_speed = 921600
board_build.partitions = min_spiffs.csv
build_flags = -DCORE_DEBUG_LEVEL=1 -DOKO_SITE_ID=7

[env:native]
platform = native
test_framework = unity
""",
    MAIN: """#include <Arduino.h>
#include "sensors.h"

static const int PUMP_PIN = 26;
static const int SOIL_PIN = 34;
static const float ON_BELOW = 40.0;

void setup() {
  Serial.begin(115200);
  pinMode(PUMP_PIN, OUTPUT);
  digitalWrite(PUMP_PIN, LOW);
}

void loop() {
  float moisture = readSoilPercent(SOIL_PIN);
  if (moisture < ON_BELOW) {
    digitalWrite(PUMP_PIN, HIGH);
  } else {
    digitalWrite(PUMP_PIN, LOW);
  }
  Serial.printf("soil=%.1f pump=%d\\n", moisture, digitalRead(PUMP_PIN));
  delay(2000);
}
""",
})

# ===================================================================== turn 1
r.user(
    "Good morning o! Abeg I need your help on oko-drip. The pump dey chatter: when soil moisture is around 40% the relay clicks on and off every 2 seconds, e don burn one relay already for the Ikorodu farm. I want hysteresis: pump ON when moisture below 38%, OFF only when it reach 45%. "
    "Also add dry-run protection: if pump has been ON for more than 15 minutes continuous, switch it off and lock out for 30 minutes, because when the borehole tank is empty the pump runs dry and heats up.\n\n"
    "Some rules:\n- abeg no touch the [env:esp32dev] section of platformio.ini, na the production board config and the partition table must stay min_spiffs, OTA depends on am.\n"
    "- abeg no use Arduino String anywhere, heap fragmentation dey kill us after some days of uptime.\n"
    "- no delay() in the new logic, the web config portal needs the loop free.\n"
    "I want unit tests with Unity that run with pio test -e native so I fit run them without the board. Thank you!"
)
r.run("git status --short; git log --oneline -4; ls -R src lib test include 2>/dev/null", """ M data/config.json
d41c2e7 sensors: capacitive soil v2 calibration
9f03b18 ota: switch to min_spiffs partitions
5a7e1c0 web: config portal on AP mode
2b6d9aa initial
src:
main.cpp
sensors.cpp
sensors.h
web_portal.cpp
web_portal.h

lib:
README

test:
README

include:
README
""")
r.cat(INI)
r.cat(MAIN)
r.run("sed -n '1,40p' src/sensors.cpp", """#include <Arduino.h>
#include "sensors.h"

// capacitive v2 probe, calibrated 2026-10 at the Ikorodu site
static const int RAW_DRY = 3180;
static const int RAW_WET = 1420;

float readSoilPercent(int pin) {
  int raw = analogRead(pin);
  float pct = 100.0f * (RAW_DRY - raw) / (RAW_DRY - RAW_WET);
  if (pct < 0) pct = 0;
  if (pct > 100) pct = 100;
  return pct;
}
""")
r.run("pio --version; pio test -e native 2>&1 | tail -5", """PlatformIO Core, version 6.1.16
Verbosity level can be increased via `-v` command line option
Collected 0 tests

Error: Nothing to test (no tests found in the 'test' folder)
""", code=1)
r.say(
    "Baseline: PlatformIO Core 6.1.16, no tests yet (`test/` only has the README), and `data/config.json` has an uncommitted change I will leave alone. Plan:\n"
    "1. Put the decision logic in a plain C++ library `lib/pump_logic` (no Arduino.h, no String) so the native env can compile it: `PumpLogic` takes moisture and a millisecond clock and returns whether the pump should be on. Hysteresis 38/45, max run 15 min, lockout 30 min.\n"
    "2. `main.cpp` calls it with `millis()` and replaces `delay(2000)` with a millis-based 2 s tick.\n"
    "3. Unity tests in `test/test_pump_logic/`.\n"
    "The `[env:native]` section I may need to touch (e.g. build flags for the test); `[env:esp32dev]` I will not touch."
)
r.patch([
    ("add", PL_H, """#pragma once
#include <stdint.h>

// Pump decision logic, free of Arduino so it builds on the native env.
struct PumpConfig {
  float on_below_pct;      // switch on under this moisture
  float off_at_pct;        // switch off at or above this moisture
  uint32_t max_run_ms;     // dry-run guard: max continuous run
  uint32_t lockout_ms;     // after the guard trips
};

enum class PumpState : uint8_t { Off, On, Lockout };

class PumpLogic {
 public:
  explicit PumpLogic(const PumpConfig& cfg);
  // Feed one moisture reading at time now_ms; returns true if the pump must be on.
  bool update(float moisture_pct, uint32_t now_ms);
  PumpState state() const { return state_; }

 private:
  PumpConfig cfg_;
  PumpState state_ = PumpState::Off;
  uint32_t since_ms_ = 0;
};
"""),
    ("add", PL_C, """#include "pump_logic.h"

PumpLogic::PumpLogic(const PumpConfig& cfg) : cfg_(cfg) {}

bool PumpLogic::update(float moisture_pct, uint32_t now_ms) {
  switch (state_) {
    case PumpState::Off:
      if (moisture_pct < cfg_.on_below_pct) {
        state_ = PumpState::On;
        since_ms_ = now_ms;
      }
      break;
    case PumpState::On:
      if (moisture_pct >= cfg_.off_at_pct) {
        state_ = PumpState::Off;
      } else if (now_ms - since_ms_ > cfg_.max_run_ms) {
        state_ = PumpState::Lockout;
        since_ms_ = now_ms;
      }
      break;
    case PumpState::Lockout:
      if (now_ms - since_ms_ > cfg_.lockout_ms) {
        state_ = PumpState::Off;
      }
      break;
  }
  return state_ == PumpState::On;
}
"""),
    ("add", TEST, """#include <unity.h>
#include "pump_logic.h"

static const PumpConfig CFG = {38.0f, 45.0f, 15UL * 60 * 1000, 30UL * 60 * 1000};

void test_turns_on_below_38(void) {
  PumpLogic p(CFG);
  TEST_ASSERT_FALSE(p.update(39.0f, 0));
  TEST_ASSERT_TRUE(p.update(37.9f, 2000));
}

void test_no_chatter_between_38_and_45(void) {
  PumpLogic p(CFG);
  p.update(37.0f, 0);
  TEST_ASSERT_TRUE(p.update(40.0f, 2000));
  TEST_ASSERT_TRUE(p.update(44.9f, 4000));
  TEST_ASSERT_FALSE(p.update(45.0f, 6000));
  TEST_ASSERT_FALSE(p.update(40.0f, 8000));
}

void test_dry_run_guard_locks_out(void) {
  PumpLogic p(CFG);
  p.update(30.0f, 0);
  TEST_ASSERT_TRUE(p.update(30.0f, 15UL * 60 * 1000));
  TEST_ASSERT_FALSE(p.update(30.0f, 15UL * 60 * 1000 + 2000));
  TEST_ASSERT_EQUAL(PumpState::Lockout, p.state());
  TEST_ASSERT_FALSE(p.update(30.0f, 44UL * 60 * 1000));
  TEST_ASSERT_TRUE(p.update(30.0f, 46UL * 60 * 1000));
}

int main(int argc, char** argv) {
  UNITY_BEGIN();
  RUN_TEST(test_turns_on_below_38);
  RUN_TEST(test_no_chatter_between_38_and_45);
  RUN_TEST(test_dry_run_guard_locks_out);
  return UNITY_END();
}
"""),
])
r.run("pio test -e native 2>&1 | tail -25", """Verbosity level can be increased via `-v` command line option
Collected 1 tests

Processing test_pump_logic in native environment
--------------------------------------------------------------------------------
Building...
test/test_pump_logic/test_main.cpp: In function 'void test_dry_run_guard_locks_out()':
test/test_pump_logic/test_main.cpp:26:3: note: in expansion of macro 'TEST_ASSERT_EQUAL'
   26 |   TEST_ASSERT_EQUAL(PumpState::Lockout, p.state());
      |   ^~~~~~~~~~~~~~~~~
.pio/libdeps/native/Unity/src/unity_internals.h:883:113: error: cannot convert 'PumpState' to 'UNITY_INT' {aka 'long long int'} in argument passing
  883 | #define UNITY_TEST_ASSERT_EQUAL_INT(expected, actual, line, message) UnityAssertEqualNumber((UNITY_INT)(expected), (UNITY_INT)(actual), (message), (UNITY_LINE_TYPE)(line), UNITY_DISPLAY_STYLE_INT)
      |                                                                                                                 ^
*** [.pio/build/native/test/test_pump_logic/test_main.o] Error 1
Building stage has failed, see errors above. Use `pio test -vvv` option to enable verbose output.
---------------- native:test_pump_logic [ERRORED] Took 1.84 seconds ----------------

==================================== SUMMARY ====================================
Environment    Test             Status    Duration
-------------  ---------------  --------  ------------
native         test_pump_logic  ERRORED   00:00:01.842
=================== 1 failed, 0 succeeded in 00:00:01.842 ===================
""", code=1)
r.say("Unity's TEST_ASSERT_EQUAL casts to an integer and `PumpState` is a scoped enum, so it will not convert. I'll compare as integers with `TEST_ASSERT_EQUAL_INT((int)PumpState::Lockout, (int)p.state())`.")
r.patch([("update", TEST, [("  TEST_ASSERT_EQUAL(PumpState::Lockout, p.state());", "  TEST_ASSERT_EQUAL_INT((int)PumpState::Lockout, (int)p.state());")])])
r.run("pio test -e native 2>&1 | tail -14", """Processing test_pump_logic in native environment
--------------------------------------------------------------------------------
Building...
Testing...
test/test_pump_logic/test_main.cpp:41: test_turns_on_below_38	[PASSED]
test/test_pump_logic/test_main.cpp:42: test_no_chatter_between_38_and_45	[PASSED]
test/test_pump_logic/test_main.cpp:33: test_dry_run_guard_locks_out: Expected TRUE Was FALSE	[FAILED]
---------------- native:test_pump_logic [FAILED] Took 1.21 seconds ----------------

==================================== SUMMARY ====================================
Environment    Test             Status    Duration
-------------  ---------------  --------  ------------
native         test_pump_logic  FAILED    00:00:01.213
================== 3 test cases: 1 failed, 2 succeeded in 00:00:01.213 ==================
""", code=1)
r.say(
    "Line 33 is the last assertion: after the lockout expires (45 min mark) I expected the pump straight back ON, but the lockout branch only goes to `Off`; the next reading then switches it on. So at 46 min `update` returns false once. "
    "Two options: (a) leaving lockout goes via Off and re-evaluates the same reading (pump on immediately if still dry), or (b) keep one reading's delay. For a dry tank (a), restarting straight into the same dry tank, is exactly what we want to avoid repeating fast, but the 30-min lockout already spaces it. I'll do (a) so the behaviour is simple: after lockout it behaves like Off with that reading."
)
r.patch([("update", PL_C, [("""    case PumpState::Lockout:
      if (now_ms - since_ms_ > cfg_.lockout_ms) {
        state_ = PumpState::Off;
      }
      break;""", """    case PumpState::Lockout:
      if (now_ms - since_ms_ > cfg_.lockout_ms) {
        state_ = PumpState::Off;
        return update(moisture_pct, now_ms);  // re-evaluate as Off
      }
      break;""")])])
r.run("pio test -e native 2>&1 | tail -6", """test/test_pump_logic/test_main.cpp:41: test_turns_on_below_38	[PASSED]
test/test_pump_logic/test_main.cpp:42: test_no_chatter_between_38_and_45	[PASSED]
test/test_pump_logic/test_main.cpp:43: test_dry_run_guard_locks_out	[PASSED]
---------------- native:test_pump_logic [PASSED] Took 1.19 seconds ----------------
================== 3 test cases: 3 succeeded in 00:00:01.190 ==================
""")
r.say("Native tests: 3/3 pass. Lockout now re-evaluates the reading when it ends (pump back on at once if still below 38%). Next: wire it into main.cpp without delay().")

# ===================================================================== turn 2
r.user(
    "Chai, you too sabi! Two things. One, abeg make the thresholds and the times come from data/config.json, the farmers adjust am from the portal; the key names are pump_on_below, pump_off_at, max_run_min, lockout_min. "
    "But that config.json change wey dey uncommitted na my own work for Epe site, no commit am. Two, millis() go overflow after 49 days, make sure the guard no go mad then, some of our boards run for months."
)
r.run("cat data/config.json; grep -n 'config\\|json' src/web_portal.cpp | head -20", """{
  "site": "epe-02",
  "wifi_ap": "oko-drip-setup",
  "soil_pin": 34,
  "pump_on_below": 36,
  "pump_off_at": 44,
  "max_run_min": 20,
  "lockout_min": 30
}
12:#include <ArduinoJson.h>
31:static StaticJsonDocument<512> cfgDoc;
44:bool loadConfig() {
45:  File f = SPIFFS.open("/config.json", "r");
58:float cfgFloat(const char* key, float dflt) { return cfgDoc[key] | dflt; }
59:int cfgInt(const char* key, int dflt) { return cfgDoc[key] | dflt; }
""")
r.say(
    "The portal already loads `/config.json` from SPIFFS into a StaticJsonDocument<512> (no heap String) and has `cfgFloat`/`cfgInt` helpers, so main.cpp reads the four keys with the 38/45/15/30 defaults. Your local config.json (epe-02: 36/44/20/30) stays uncommitted.\n\n"
    "On the overflow: `now_ms - since_ms_` with both `uint32_t` is modular, so the difference stays right across the 49.7-day wrap as long as a single interval is under 49 days. I'll add a test that starts just before the wrap to prove it."
)
r.patch([("update", MAIN, [("""#include <Arduino.h>
#include "sensors.h"

static const int PUMP_PIN = 26;
static const int SOIL_PIN = 34;
static const float ON_BELOW = 40.0;
""", """#include <Arduino.h>
#include "sensors.h"
#include "web_portal.h"
#include "pump_logic.h"

static const int PUMP_PIN = 26;
static const int SOIL_PIN = 34;
static const uint32_t TICK_MS = 2000;

static PumpLogic* pump = nullptr;
static uint32_t lastTick = 0;
"""), ("""  digitalWrite(PUMP_PIN, LOW);
}
""", """  digitalWrite(PUMP_PIN, LOW);
  loadConfig();
  static PumpLogic logic(PumpConfig{
      cfgFloat("pump_on_below", 38.0f), cfgFloat("pump_off_at", 45.0f),
      (uint32_t)cfgInt("max_run_min", 15) * 60UL * 1000UL,
      (uint32_t)cfgInt("lockout_min", 30) * 60UL * 1000UL});
  pump = &logic;
}
"""), ("""  float moisture = readSoilPercent(SOIL_PIN);
  if (moisture < ON_BELOW) {
    digitalWrite(PUMP_PIN, HIGH);
  } else {
    digitalWrite(PUMP_PIN, LOW);
  }
  Serial.printf("soil=%.1f pump=%d\\n", moisture, digitalRead(PUMP_PIN));
  delay(2000);
}""", """  uint32_t now = millis();
  if (now - lastTick < TICK_MS) {
    handlePortal();
    return;
  }
  lastTick = now;
  float moisture = readSoilPercent(SOIL_PIN);
  bool on = pump->update(moisture, now);
  digitalWrite(PUMP_PIN, on ? HIGH : LOW);
  Serial.printf("soil=%.1f pump=%d state=%d\\n", moisture, on, (int)pump->state());
}""")])])
r.patch([("update", TEST, [("""int main(int argc, char** argv) {""", """void test_guard_survives_millis_wrap(void) {
  PumpLogic p(CFG);
  const uint32_t start = 0xFFFFFFFFUL - 60000UL;  // one minute before the wrap
  p.update(30.0f, start);
  TEST_ASSERT_TRUE(p.update(30.0f, start + 10UL * 60 * 1000));  // wrapped, 10 min on
  TEST_ASSERT_FALSE(p.update(30.0f, start + 16UL * 60 * 1000));  // guard trips at 15 min
  TEST_ASSERT_EQUAL_INT((int)PumpState::Lockout, (int)p.state());
}

int main(int argc, char** argv) {"""), ("""  RUN_TEST(test_dry_run_guard_locks_out);
""", """  RUN_TEST(test_dry_run_guard_locks_out);
  RUN_TEST(test_guard_survives_millis_wrap);
""")])])
r.run("pio test -e native 2>&1 | tail -7", """test/test_pump_logic/test_main.cpp:50: test_turns_on_below_38	[PASSED]
test/test_pump_logic/test_main.cpp:51: test_no_chatter_between_38_and_45	[PASSED]
test/test_pump_logic/test_main.cpp:52: test_dry_run_guard_locks_out	[PASSED]
test/test_pump_logic/test_main.cpp:53: test_guard_survives_millis_wrap	[PASSED]
---------------- native:test_pump_logic [PASSED] Took 1.22 seconds ----------------
================== 4 test cases: 4 succeeded in 00:00:01.222 ==================
""")
r.run("pio run -e esp32dev 2>&1 | tail -22", """Processing esp32dev (platform: espressif32@6.7.0; board: esp32dev; framework: arduino)
--------------------------------------------------------------------------------
Verbose mode can be enabled via `-v, --verbose` option
CONFIGURATION: https://docs.platformio.org/page/boards/espressif32/esp32dev.html
PLATFORM: Espressif 32 (6.7.0) > Espressif ESP32 Dev Module
HARDWARE: ESP32 240MHz, 320KB RAM, 4MB Flash
PACKAGES:
 - framework-arduinoespressif32 @ 3.20016.0 (2.0.16)
 - tool-esptoolpy @ 1.40501.0 (4.5.1)
 - toolchain-xtensa-esp32 @ 8.4.0+2021r2-patch5
LDF: Library Dependency Finder -> https://bit.ly/configure-pio-ldf
Found 36 compatible libraries
Scanning dependencies...
Dependency Graph
|-- ArduinoJson @ 6.21.5
|-- pump_logic
|-- SPIFFS @ 2.0.0
|-- WiFi @ 2.0.0
|-- WebServer @ 2.0.0
Compiling .pio/build/esp32dev/src/main.cpp.o
src/main.cpp: In function 'void loop()':
src/main.cpp:31:5: error: 'handlePortal' was not declared in this scope; did you mean 'startPortal'?
   31 |     handlePortal();
      |     ^~~~~~~~~~~~
      |     startPortal
*** [.pio/build/esp32dev/src/main.cpp.o] Error 1
========================== [FAILED] Took 6.88 seconds ==========================
""", code=1)
r.run("grep -n 'void\\|bool\\|float\\|int ' src/web_portal.h", """4:void startPortal();
5:void servePortalOnce();
6:bool loadConfig();
7:float cfgFloat(const char* key, float dflt);
8:int cfgInt(const char* key, int dflt);
""")
r.say("The portal's per-loop function is `servePortalOnce()`, not `handlePortal()`; I guessed the name. Fixing main.cpp.")
r.patch([("update", MAIN, [("    handlePortal();", "    servePortalOnce();")])])
r.run("pio run -e esp32dev 2>&1 | tail -6", """Linking .pio/build/esp32dev/firmware.elf
Retrieving maximum program size .pio/build/esp32dev/firmware.elf
Checking size .pio/build/esp32dev/firmware.elf
Advanced Memory Usage is available via "PlatformIO Home > Project Inspect"
RAM:   [=         ]  14.2% (used 46612 bytes from 327680 bytes)
Flash: [========  ]  81.6% (used 1604329 bytes from 1966080 bytes)
========================= [SUCCESS] Took 21.40 seconds =========================
""")
r.run("git diff --stat; git status --short", """ src/main.cpp | 31 ++++++++++++++++++++++---------
 data/config.json | 6 +++---
 2 files changed, 22 insertions(+), 9 deletions(-)
 M data/config.json
 M src/main.cpp
?? lib/pump_logic/
?? test/test_pump_logic/
""")
r.say(
    "esp32dev builds: RAM 14.2% (46612 B), Flash 81.6% (1604329 of 1966080 B, the min_spiffs app slot). `platformio.ini` untouched. Native: 4/4 including the millis wrap test. main.cpp now ticks every 2 s off `millis()`, calls `servePortalOnce()` between ticks, and reads the four config keys with 38/45/15/30 defaults. data/config.json is still only your local change."
)

# ===================================================================== turn 3
r.user(
    "Wonderful. Before we commit: I flash one board here on my table, I go watch serial. Abeg give me the command. Also one thing I forget: the relay board is active LOW on the new v3 boards (Ikorodu get v3), but old v2 boards are active HIGH. Make e configurable from config.json key relay_active_low, default false so v2 no change."
)
r.patch([("update", MAIN, [("""static PumpLogic* pump = nullptr;
static uint32_t lastTick = 0;
""", """static PumpLogic* pump = nullptr;
static uint32_t lastTick = 0;
static bool relayActiveLow = false;  // v3 relay boards are active LOW

static void setPump(bool on) {
  digitalWrite(PUMP_PIN, (on != relayActiveLow) ? HIGH : LOW);
}
"""), ("""  pinMode(PUMP_PIN, OUTPUT);
  digitalWrite(PUMP_PIN, LOW);
  loadConfig();
""", """  loadConfig();
  relayActiveLow = cfgInt("relay_active_low", 0) != 0;
  pinMode(PUMP_PIN, OUTPUT);
  setPump(false);
"""), ("""  digitalWrite(PUMP_PIN, on ? HIGH : LOW);""", """  setPump(on);""")])])
r.run("pio run -e esp32dev 2>&1 | tail -3 && pio test -e native 2>&1 | tail -1", """RAM:   [=         ]  14.2% (used 46612 bytes from 327680 bytes)
Flash: [========  ]  81.6% (used 1604381 bytes from 1966080 bytes)
========================= [SUCCESS] Took 9.12 seconds =========================
================== 4 test cases: 4 succeeded in 00:00:01.207 ==================
""")
r.say(
    "`relay_active_low` (0/1 in config.json, default 0 so v2 boards behave as before) is read in setup() before the pin is driven, so a v3 board never glitches the relay ON at boot; `setPump()` inverts the level when it is set.\n\n"
    "To flash and watch (board on USB): `pio run -e esp32dev -t upload --upload-port /dev/ttyUSB0 && pio device monitor -e esp32dev -p /dev/ttyUSB0`. Upload speed 921600 comes from the esp32dev env. The SPIFFS config is separate: `pio run -e esp32dev -t uploadfs` only if you want your config.json on that board."
)
r.user("I run am. Look the serial log, e be like say something no correct, the pump never off even when I put the probe inside water:\n\nsoil=97.3 pump=1 state=1\nsoil=97.4 pump=1 state=1\nsoil=31.0 pump=1 state=1\nsoil=97.2 pump=1 state=1\n\nAnd the relay LED is off but pump=1. This board na v3 and I set relay_active_low 1 in config.")
r.run("grep -n 'relay_active_low\\|pump_off_at' data/config.json; grep -n 'cfgFloat\\|cfgInt' -A3 src/web_portal.cpp | sed -n '1,12p'", """6:  "pump_off_at": 44,
58:float cfgFloat(const char* key, float dflt) { return cfgDoc[key] | dflt; }
59:int cfgInt(const char* key, int dflt) { return cfgDoc[key] | dflt; }
""")
r.say(
    "Two separate things in that log:\n"
    "1. `relay LED off but pump=1` is expected on a v3 board: `pump=1` is the logical state, the pin is LOW (active-low relay = energised). If the relay LED is off while the pin is LOW, the relay is not active-low or `relay_active_low` was not loaded.\n"
    "2. Your local data/config.json has `pump_off_at` 44 but no `relay_active_low` at all, and I need to know which config the board actually has."
)
r.run("git diff data/config.json; pio run -e esp32dev -t buildfs 2>&1 | tail -2; ls -la data/", """diff --git a/data/config.json b/data/config.json
index 3c1f0a2..9e47b18 100644
--- a/data/config.json
+++ b/data/config.json
@@ -1,9 +1,7 @@
 {
-  "site": "ikorodu-01",
+  "site": "epe-02",
   "wifi_ap": "oko-drip-setup",
-  "soil_pin": 34
+  "soil_pin": 34,
+  "pump_on_below": 36,
+  "pump_off_at": 44,
+  "max_run_min": 20,
+  "lockout_min": 30
 }
Building FS image from 'data' directory to .pio/build/esp32dev/spiffs.bin
/config.json
total 12
drwxr-xr-x 2 chinedu chinedu 4096 Nov 21 08:40 .
drwxr-xr-x 9 chinedu chinedu 4096 Nov 21 08:41 .
-rw-r--r-- 1 chinedu chinedu  173 Nov 21 08:02 config.json
""")
r.say(
    "The pump keys are only in your local data/config.json (epe-02 values, no `relay_active_low`), and the board never got `relay_active_low` unless you uploaded the FS image. Most likely: the board still has the old SPIFFS config (ikorodu-01, no pump keys, no relay key). Then `relayActiveLow=false`, pump=1 drives the pin HIGH, which on an active-low v3 relay means OFF. That matches 'LED off but pump=1'.\n\n"
    "But `pump=1` with soil=97.3 is a real bug in my code: once ON, it should go OFF at >= 45. Let me check the state machine with that exact sequence."
)
r.run("cat > /tmp/seq.cpp <<'X'\n#include <cstdio>\n#include \"pump_logic.h\"\nint main(){PumpLogic p({38,45,900000,1800000});float s[]={31.0f,97.3f,97.4f,31.0f,97.2f};unsigned t=0;for(float m:s){bool on=p.update(m,t);printf(\"%.1f %d %d\\n\",m,on,(int)p.state());t+=2000;}}\nX\ng++ -std=c++17 -Ilib/pump_logic /tmp/seq.cpp lib/pump_logic/pump_logic.cpp -o /tmp/seq && /tmp/seq", """31.0 1 1
97.3 0 0
97.4 0 0
31.0 1 1
97.2 0 0
""")
r.say(
    "On the host the logic switches off at 97.3, so `PumpLogic` is fine. The board printed `pump=1` at 97.3, so on the board the config must have given `pump_off_at` a silly value: with the old ikorodu-01 SPIFFS config the key is missing and `cfgDoc[key] | dflt` returns the default 45... unless the key exists with a string value. I can't see the board's SPIFFS from here. Simplest check: print the loaded config once at boot."
)
r.patch([("update", MAIN, [("""  pump = &logic;
}""", """  pump = &logic;
  Serial.printf("cfg on<%.1f off>=%.1f run=%dmin lock=%dmin activeLow=%d\\n",
                cfgFloat("pump_on_below", 38.0f), cfgFloat("pump_off_at", 45.0f),
                cfgInt("max_run_min", 15), cfgInt("lockout_min", 30), (int)relayActiveLow);
}""")])])
r.user("I upload the fs and flash again. Boot line: cfg on<36.0 off>=44.0 run=20min lock=30min activeLow=0\nthen soil=96.8 pump=0 state=0. So na the old spiffs. But activeLow=0 even though... ah wait, I never add relay_active_low inside my config.json. My bad. I add am now with 1, relay dey work well well. Ok commit, but remember the rule about my config.json. Branch fix/pump-hysteresis.")
r.run("pio test -e native 2>&1 | tail -1 && pio run -e esp32dev 2>&1 | tail -1 && git switch -c fix/pump-hysteresis && git add lib/pump_logic test/test_pump_logic src/main.cpp && git commit -qm 'pump: hysteresis 38/45 and dry-run guard (15 min run, 30 min lockout) from config; millis tick instead of delay; relay_active_low' && git status --short && git log --oneline -1", """================== 4 test cases: 4 succeeded in 00:00:01.211 ==================
========================= [SUCCESS] Took 8.95 seconds =========================
Switched to a new branch 'fix/pump-hysteresis'
 M data/config.json
6c2f9e4 pump: hysteresis 38/45 and dry-run guard (15 min run, 30 min lockout) from config; millis tick instead of delay; relay_active_low
""")
r.say("Committed 6c2f9e4 on fix/pump-hysteresis (lib/pump_logic, test/test_pump_logic, src/main.cpp). data/config.json is still uncommitted and platformio.ini untouched. Not pushed. Native 4/4, esp32dev builds.")

r.save(HERE / "session.jsonl")

META = {
    "title": "oko-drip (PlatformIO ESP32 drip irrigation): pump hysteresis 38/45 + dry-run guard (15 min / 30 min lockout) in lib/pump_logic, Unity tests on native, config keys, relay_active_low; 6c2f9e4 on fix/pump-hysteresis, not pushed",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8a test split",
    "voice": "warm Nigerian-English maker (\"abeg no touch X\" rules with reasons, \"Chai\", \"na\", \"e be like say\")",
    "toolchain": "PlatformIO Core 6.1.16, espressif32@6.7.0 Arduino on esp32dev, native env + Unity via pio test -e native, ArduinoJson 6, SPIFFS",
}
COMPACTIONS = [
    ("Native tests: 3/3 pass. Lockout now re-evaluates", 1000),
    ("esp32dev builds: RAM 14.2% (46612 B)", 1000),
    ("On the host the logic switches off at 97.3", 1000),
]
FACTS = [
    f("o01", "request", "must", "I want hysteresis: pump ON when moisture below 38%", "Pump hysteresis: ON when soil moisture is below 38%, OFF only at 45% (the relay chattered around 40%, one relay burnt at Ikorodu).", [r"hysteresis|38", r"45"], "done"),
    f("o02", "request", "must", "if pump has been ON for more than 15 minutes continuous", "Dry-run protection: if the pump runs more than 15 min continuously, switch off and lock out for 30 min (empty borehole tank runs the pump dry).", [r"dry.?run|guard|lock ?out", r"15|30"], "done"),
    f("o03", "constraint", "must", "abeg no touch the [env:esp32dev] section of platformio.ini", "Do not touch the [env:esp32dev] section of platformio.ini: production board config; partitions must stay min_spiffs because OTA depends on it.", [r"esp32dev|platformio\.ini", r"touch|untouched|min_spiffs|OTA"]),
    f("o04", "constraint", "must", "abeg no use Arduino String anywhere", "No Arduino String anywhere: heap fragmentation after days of uptime.", [r"String", r"heap|fragment|no |not"]),
    f("o05", "constraint", "must", "no delay() in the new logic", "No delay() in the new logic: the web config portal needs the loop free.", [r"delay", r"portal|loop|no |millis"]),
    f("o06", "request", "should", "I want unit tests with Unity that run with pio test -e native", "Unit tests with Unity that run on the native env (pio test -e native), no board needed.", [r"Unity|pio test", r"native"], "done"),
    f("o07", "decision", "should", "Put the decision logic in a plain C++ library `lib/pump_logic`", "Decision logic lives in plain C++ lib/pump_logic (PumpLogic::update(moisture, now_ms), states Off/On/Lockout), free of Arduino.h so the native env builds it.", [r"pump_logic|PumpLogic", r"Arduino|native|lib|plain"]),
    f("o08", "path", "should", "*** Add File: lib/pump_logic/pump_logic.h", "New lib/pump_logic/pump_logic.h and pump_logic.cpp (PumpConfig, PumpState, PumpLogic) and test/test_pump_logic/test_main.cpp (Unity tests).", [r"pump_logic\.(h|cpp)|test_pump_logic|test_main"]),
    f("o09", "command", "must", "pio test -e native 2>&1 | tail -6", "Tests: pio test -e native; latest 4 test cases pass.", [r"pio test", r"native"]),
    f("o10", "error", "should", "error: cannot convert 'PumpState' to 'UNITY_INT'", "First native build failed: TEST_ASSERT_EQUAL cannot convert scoped enum 'PumpState' to 'UNITY_INT'; fixed with TEST_ASSERT_EQUAL_INT and int casts.", [r"UNITY_INT|PumpState|TEST_ASSERT_EQUAL", r"convert|INT|cast"], "fixed"),
    f("o11", "error", "should", "test_dry_run_guard_locks_out: Expected TRUE Was FALSE", "test_dry_run_guard_locks_out failed (Expected TRUE Was FALSE): leaving lockout only went to Off, so the pump came on one reading late.", [r"test_dry_run_guard_locks_out|Expected TRUE", r"lockout|fail|late|Off|TRUE"], "fixed"),
    f("o12", "decision", "should", "I'll do (a) so the behaviour is simple", "When the lockout ends the same reading is re-evaluated as Off (pump back on at once if still below the on threshold).", [r"lockout|lock ?out", r"re-?evaluat|as Off|at once|immediately"]),
    f("o13", "request", "must", "make the thresholds and the times come from data/config.json", "Thresholds and times come from data/config.json keys pump_on_below, pump_off_at, max_run_min, lockout_min (farmers adjust them in the portal).", [r"pump_on_below|pump_off_at|max_run_min|lockout_min", r"config"], "done"),
    f("o14", "constraint", "must", "na my own work for Epe site, no commit am", "Do not commit data/config.json: the uncommitted change is the user's own work for the Epe site (epe-02: 36/44/20/30).", [r"config\.json", r"commit|Epe|epe-02|uncommitted"]),
    f("o15", "request", "should", "millis() go overflow after 49 days", "The guard must survive the millis() wrap after ~49 days (boards run for months).", [r"millis|wrap|overflow|49"], "done"),
    f("o16", "finding", "should", "`now_ms - since_ms_` with both `uint32_t` is modular", "uint32_t now_ms - since_ms_ is modular, so intervals stay correct across the 49.7-day millis wrap; proven by test_guard_survives_millis_wrap (starts one minute before the wrap).", [r"modular|unsigned|uint32|wrap", r"millis|49|overflow|wrap"]),
    f("o17", "value", "nice", "StaticJsonDocument<512> (no heap String)", "Config is loaded from SPIFFS /config.json into a StaticJsonDocument<512> in web_portal.cpp with helpers cfgFloat/cfgInt; defaults in main.cpp 38/45/15/30.", [r"StaticJsonDocument|cfgFloat|cfgInt"]),
    f("o18", "path", "should", "main.cpp now ticks every 2 s off `millis()`", "src/main.cpp: 2 s tick off millis() instead of delay(2000), servePortalOnce() between ticks, PumpLogic built from config in setup().", [r"main\.cpp", r"millis|tick|servePortalOnce|delay"]),
    f("o19", "error", "should", "error: 'handlePortal' was not declared in this scope", "esp32dev build failed: 'handlePortal' was not declared (guessed name); the portal's per-loop function is servePortalOnce().", [r"handlePortal|servePortalOnce", r"declared|name|instead|servePortalOnce"], "fixed"),
    f("o20", "command", "must", "pio run -e esp32dev 2>&1 | tail -6", "Board build: pio run -e esp32dev; latest SUCCESS.", [r"pio run", r"esp32dev"]),
    f("o21", "value", "nice", "Flash: [========  ]  81.6% (used 1604329 bytes", "esp32dev size: RAM 14.2% (46612 B of 327680), Flash 81.6% (about 1604329-1604381 B of 1966080, min_spiffs app slot).", [r"81\.6|1604329|1604381|46612|14\.2"]),
    f("o22", "request", "must", "Make e configurable from config.json key relay_active_low", "Relay polarity configurable via config.json key relay_active_low (v3 boards at Ikorodu are active LOW, v2 active HIGH), default false so v2 boards do not change.", [r"relay_active_low|active.?low", r"v3|v2|default|config"], "done"),
    f("o23", "decision", "should", "is read in setup() before the pin is driven", "relay_active_low is read in setup() before the pin is driven (no relay glitch at boot); setPump() inverts the level.", [r"relay_active_low|setPump|active.?low", r"setup|boot|glitch|invert"]),
    f("o24", "command", "should", "pio run -e esp32dev -t upload --upload-port /dev/ttyUSB0", "Flash and watch: pio run -e esp32dev -t upload --upload-port /dev/ttyUSB0 && pio device monitor -e esp32dev -p /dev/ttyUSB0; config goes to the board separately with pio run -e esp32dev -t uploadfs.", [r"upload|device monitor|uploadfs", r"ttyUSB0|esp32dev"]),
    f("o25", "error", "must", "the pump never off even when I put the probe inside water", "On the board the pump never switched off (soil=97.3 pump=1) and the relay LED was off although pump=1 (v3 board).", [r"97\.3|never (switch(ed)? )?off|pump=1|LED", r"pump|relay|board"], "fixed"),
    f("o26", "finding", "should", "Most likely: the board still has the old SPIFFS config", "Cause: the board still had the old SPIFFS config (ikorodu-01, no pump or relay keys) because the FS image was not uploaded; the pin was driven active-high on an active-low relay.", [r"SPIFFS|uploadfs|FS image|old config", r"ikorodu|old|config|relay"]),
    f("o27", "finding", "nice", "On the host the logic switches off at 97.3, so `PumpLogic` is fine", "A host run of the exact sequence (g++ /tmp/seq.cpp) switched off at 97.3: PumpLogic itself was fine.", [r"host|seq\.cpp|g\+\+", r"fine|switch|off|PumpLogic"]),
    f("o28", "path", "nice", "cfg on<%.1f off>=%.1f run=%dmin lock=%dmin activeLow=%d", "main.cpp prints the loaded config once at boot ('cfg on<… off>=… run=… lock=… activeLow=…').", [r"cfg on<|boot|print", r"config|cfg|activeLow"]),
    f("o29", "state", "should", "So na the old spiffs.", "Confirmed on the board: boot line cfg on<36.0 off>=44.0 run=20min lock=30min activeLow=0 (old SPIFFS until uploadfs); with relay_active_low 1 added the relay works.", [r"old spiffs|activeLow|uploadfs|36\.0", r"spiffs|relay|config|work"]),
    f("o30", "request", "must", "Ok commit, but remember the rule about my config.json. Branch fix/pump-hysteresis.", "Commit on branch fix/pump-hysteresis, without data/config.json.", [r"fix/pump-hysteresis", r"commit|branch"], "done"),
    f("o31", "state", "must", "Committed 6c2f9e4 on fix/pump-hysteresis", "Committed 6c2f9e4 on fix/pump-hysteresis (lib/pump_logic, test/test_pump_logic, src/main.cpp); config.json still uncommitted, platformio.ini untouched, not pushed.", [r"6c2f9e4|fix/pump-hysteresis", r"commit|push|branch"]),
    f("o32", "value", "nice", "PlatformIO Core, version 6.1.16", "PlatformIO Core 6.1.16; espressif32 6.7.0, Arduino core 2.0.16; baseline had no tests.", [r"6\.1\.16|6\.7\.0|2\.0\.16"]),
    f("o33", "value", "nice", "static const int RAW_DRY = 3180;", "Soil probe calibration in sensors.cpp: RAW_DRY 3180, RAW_WET 1420 (capacitive v2, Ikorodu 2026-10); pump on GPIO 26, soil on GPIO 34.", [r"3180|1420|RAW_DRY|RAW_WET"]),
]
dump(HERE, META, COMPACTIONS, FACTS)
