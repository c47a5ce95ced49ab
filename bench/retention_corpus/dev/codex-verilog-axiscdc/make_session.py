# ruff: noqa: E501
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout7b split.

A Chinese-flavoured English hardware engineer has Codex fix the almost_full flag of an AXI-Stream
async FIFO (axis_cdc), add a programmable-full output, clean Verilator -Wall lint and move the
cocotb tests to a pytest runner. Verilator 5.024, cocotb 1.9, make SIM=verilator. ~150 tool calls.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/liwei/hw/axis_cdc"
r = Rollout(CWD, "2026-10-20T02:05:11", seed="axiscdc-almostfull", repo_url="git@git.sinolink.example:fpga/axis_cdc.git")

FIFO = "rtl/axis_async_fifo.sv"
SYNC = "rtl/gray_sync.sv"
TB = "tb/test_axis_async_fifo.py"
MK = "tb/Makefile"
RUN = "tests/test_runner.py"
CI = ".gitlab-ci.yml"

r.files.update({
    FIFO: """// axis_async_fifo: AXI-Stream FIFO across two clock domains (gray-code pointers)
module axis_async_fifo #(
    parameter int DATA_W = 32,
    parameter int USER_W = 1,
    parameter int DEPTH  = 16,
    parameter int AF_LEVEL = 14,
    parameter int SYNC_STAGES = 2
) (
    input  logic              s_clk,
    input  logic              s_rst_n,
    input  logic [DATA_W-1:0] s_axis_tdata,
    input  logic              s_axis_tlast,
    input  logic [USER_W-1:0] s_axis_tuser,
    input  logic              s_axis_tvalid,
    output logic              s_axis_tready,
    output logic              almost_full,

    input  logic              m_clk,
    input  logic              m_rst_n,
    output logic [DATA_W-1:0] m_axis_tdata,
    output logic              m_axis_tlast,
    output logic              m_axis_tvalid,
    input  logic              m_axis_tready
);
    localparam int AW = $clog2(DEPTH);

    logic [DATA_W:0] mem [DEPTH];
    logic [AW:0] wr_bin, wr_gray, rd_bin, rd_gray;
    logic [AW:0] rd_gray_s, wr_gray_m;

    // ---- write side
    wire wr_en = s_axis_tvalid && s_axis_tready;
    always_ff @(posedge s_clk or negedge s_rst_n) begin
        if (!s_rst_n) begin
            wr_bin  <= '0;
            wr_gray <= '0;
        end else if (wr_en) begin
            mem[wr_bin[AW-1:0]] <= {s_axis_tlast, s_axis_tdata};
            wr_bin  <= wr_bin + 1;
            wr_gray <= (wr_bin + 1) ^ ((wr_bin + 1) >> 1);
        end
    end

    gray_sync #(.W(AW+1), .STAGES(SYNC_STAGES)) u_rd2wr (.clk(s_clk), .rst_n(s_rst_n), .d(rd_gray), .q(rd_gray_s));

    assign s_axis_tready = !((wr_gray[AW:AW-1] == ~rd_gray_s[AW:AW-1]) && (wr_gray[AW-2:0] == rd_gray_s[AW-2:0]));
    wire [AW:0] level_w = wr_bin - rd_gray_s;
    assign almost_full = level_w >= AF_LEVEL;

    // ---- read side
    gray_sync #(.W(AW+1), .STAGES(SYNC_STAGES)) u_wr2rd (.clk(m_clk), .rst_n(m_rst_n), .d(wr_gray), .q(wr_gray_m));

    wire empty = (rd_gray == wr_gray_m);
    wire rd_en = m_axis_tvalid && m_axis_tready;
    always_ff @(posedge m_clk or negedge m_rst_n) begin
        if (!m_rst_n) begin
            rd_bin  <= '0;
            rd_gray <= '0;
        end else if (rd_en) begin
            rd_bin  <= rd_bin + 1;
            rd_gray <= (rd_bin + 1) ^ ((rd_bin + 1) >> 1);
        end
    end
    assign m_axis_tvalid = !empty;
    assign {m_axis_tlast, m_axis_tdata} = mem[rd_bin[AW-1:0]];
endmodule
""",
    SYNC: """// gray_sync: multi-flop synchronizer for a gray-coded pointer
module gray_sync #(
    parameter int W = 5,
    parameter int STAGES = 2
) (
    input  logic         clk,
    input  logic         rst_n,
    input  logic [W-1:0] d,
    output logic [W-1:0] q
);
    (* ASYNC_REG = "TRUE" *) logic [W-1:0] ff [STAGES];
    always_ff @(posedge clk or negedge rst_n) begin
        if (!rst_n) begin
            for (int i = 0; i < STAGES; i++) ff[i] <= '0;
        end else begin
            ff[0] <= d;
            for (int i = 1; i < STAGES - 1; i++) ff[i] <= ff[i-1];
        end
    end
    assign q = ff[STAGES-1];
endmodule
""",
    TB: """import random

import cocotb
from cocotb.clock import Clock
from cocotb.triggers import ClockCycles, RisingEdge, Timer


async def reset(dut):
    dut.s_rst_n.value = 0
    dut.m_rst_n.value = 0
    dut.s_axis_tvalid.value = 0
    dut.m_axis_tready.value = 0
    await ClockCycles(dut.s_clk, 4)
    dut.s_rst_n.value = 1
    dut.m_rst_n.value = 1
    await ClockCycles(dut.m_clk, 4)


def start_clocks(dut, s_ns=10, m_ns=13):
    cocotb.start_soon(Clock(dut.s_clk, s_ns, units="ns").start())
    cocotb.start_soon(Clock(dut.m_clk, m_ns, units="ns").start())


async def push(dut, data, last=0):
    dut.s_axis_tdata.value = data
    dut.s_axis_tlast.value = last
    dut.s_axis_tvalid.value = 1
    await RisingEdge(dut.s_clk)
    while not dut.s_axis_tready.value:
        await RisingEdge(dut.s_clk)
    dut.s_axis_tvalid.value = 0


@cocotb.test()
async def test_reset_empty(dut):
    start_clocks(dut)
    await reset(dut)
    assert dut.m_axis_tvalid.value == 0
    assert dut.s_axis_tready.value == 1


@cocotb.test()
async def test_single_beat(dut):
    start_clocks(dut)
    await reset(dut)
    await push(dut, 0xCAFE0001, last=1)
    dut.m_axis_tready.value = 1
    await RisingEdge(dut.m_axis_tvalid)
    assert dut.m_axis_tdata.value == 0xCAFE0001


@cocotb.test()
async def test_fill_to_full(dut):
    start_clocks(dut)
    await reset(dut)
    for i in range(16):
        await push(dut, i)
    await ClockCycles(dut.s_clk, 4)
    assert dut.s_axis_tready.value == 0


@cocotb.test()
async def test_almost_full(dut):
    start_clocks(dut)
    await reset(dut)
    for i in range(16):
        await push(dut, i)
        await ClockCycles(dut.s_clk, 4)
        level = i + 1
        assert int(dut.almost_full.value) == (level >= 14), f"almost_full={int(dut.almost_full.value)} at level {level}"


@cocotb.test()
async def test_random_stream(dut):
    start_clocks(dut, 10, 7)
    await reset(dut)
    sent = [random.getrandbits(32) for _ in range(400)]
    got = []

    async def sink():
        while len(got) < len(sent):
            dut.m_axis_tready.value = random.random() < 0.6
            await RisingEdge(dut.m_clk)
            if dut.m_axis_tvalid.value and dut.m_axis_tready.value:
                got.append(int(dut.m_axis_tdata.value))

    task = cocotb.start_soon(sink())
    for word in sent:
        await push(dut, word)
    await task
    for n, (a, b) in enumerate(zip(sent, got)):
        assert a == b, f"beat {n}: sent {a:#010x} got {b:#010x}"
""",
    MK: """SIM ?= verilator
TOPLEVEL_LANG = verilog
VERILOG_SOURCES = $(PWD)/../rtl/gray_sync.sv $(PWD)/../rtl/axis_async_fifo.sv
TOPLEVEL = axis_async_fifo
MODULE = test_axis_async_fifo
EXTRA_ARGS += --timing -Wno-fatal
include $(shell cocotb-config --makefiles)/Makefile.sim
""",
    CI: """stages: [lint, sim]

lint:
  stage: lint
  image: registry.sinolink.example/fpga/verilator:5.024
  script:
    - verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv

sim:
  stage: sim
  image: registry.sinolink.example/fpga/verilator:5.024
  script:
    - pip install -r requirements.txt
    - make -C tb SIM=verilator
""",
})

def mk_results(lines, total, passed, failed, t):
    head = "\n".join(lines)
    return head + f"\n     0.00ns INFO     cocotb.regression                  ** TESTS={total} PASS={passed} FAIL={failed} SKIP=0 **\n" + f"                                                        ** SIM TIME {t} **\n"

# =========================================================================== turn 1
r.user(
    "Hello, please help. Our axis_async_fifo (rtl/axis_async_fifo.sv) the almost_full flag is wrong, Zhang team report it assert too early, their DMA throttle too much. Need fix it, and also they ask a new output prog_full with threshold parameter PROG_FULL_THRESH, therefore they can set the level themselves. "
    "Some rules first: (a) CI use Verilator 5.024 image, so don't use features only in newer Verilator. (b) No verilator lint_off pragma in the RTL, every -Wall warning must be really fixed. (c) Existing port names must not change, Zhang team top-level connect by name; new port is ok. (d) Testbench keep cocotb 1.9 API, we not upgrade to 2.0 this quarter. "
    "Please first look and run the lint and the tests to see baseline, don't change anything yet."
)
r.run("ls -la; ls rtl tb tests 2>&1; git log --oneline -6", """total 40
drwxr-xr-x  7 liwei liwei 4096 Oct 19 17:40 .
drwxr-xr-x 12 liwei liwei 4096 Sep  2 09:11 ..
drwxr-xr-x  8 liwei liwei 4096 Oct 19 17:41 .git
-rw-r--r--  1 liwei liwei   38 Apr 11  2026 .gitignore
-rw-r--r--  1 liwei liwei  402 Apr 11  2026 .gitlab-ci.yml
-rw-r--r--  1 liwei liwei  911 Jun  5 14:20 README.md
-rw-r--r--  1 liwei liwei   34 Apr 11  2026 requirements.txt
drwxr-xr-x  2 liwei liwei 4096 Jun  5 14:20 rtl
drwxr-xr-x  2 liwei liwei 4096 Oct 19 17:40 tb
rtl:
axis_async_fifo.sv  gray_sync.sv
tb:
Makefile  test_axis_async_fifo.py
ls: cannot access 'tests': No such file or directory
e4b19d2 tb: random stream test with 7ns read clock
7a0c3f5 fifo: AF_LEVEL parameter
31d8e60 gray_sync: ASYNC_REG attribute
c92f7a4 initial axis_async_fifo
""", reasoning="**Exploring the repository layout**")
r.cat(FIFO)
r.cat(SYNC)
r.cat(TB)
r.cat(MK)
r.cat(CI)
r.run("cat requirements.txt README.md", """cocotb==1.9.2
pytest==8.3.3
# axis_cdc

AXI-Stream asynchronous FIFO used between the 156.25 MHz MAC domain and the 250 MHz DMA domain
on the SL-40G card. Gray-code pointers, SYNC_STAGES flops each way.

Ports: see rtl/axis_async_fifo.sv. The top level (sl40g_top, owned by the DMA team) connects by name.

Run the tests: `make -C tb SIM=verilator` (needs cocotb 1.9 and Verilator 5.024).
""")
r.run("verilator --version; python3 -c 'import cocotb; print(cocotb.__version__)'; cocotb-config --version; python3 --version", "Verilator 5.024 2024-04-05 rev v5.024\n1.9.2\n1.9.2\nPython 3.11.9\n")
r.run("grep -rn 'sl40g_top\\|axis_async_fifo' --include=*.sv --include=*.py --include=*.md . | grep -v '^./rtl/axis_async_fifo.sv'", """./README.md:5:on the SL-40G card. Gray-code pointers, SYNC_STAGES flops each way.
./README.md:7:Ports: see rtl/axis_async_fifo.sv. The top level (sl40g_top, owned by the DMA team) connects by name.
./tb/Makefile:4:TOPLEVEL = axis_async_fifo
./tb/test_axis_async_fifo.py:1:import random
""")
r.run("ls -la tb/sim_build 2>/dev/null | head -5; ls tb", """total 5172
drwxr-xr-x 2 liwei liwei    4096 Oct 19 17:40 .
drwxr-xr-x 4 liwei liwei    4096 Oct 20 10:02 ..
-rw-r--r-- 1 liwei liwei    1907 Oct 19 17:40 Vtop.mk
-rw-r--r-- 1 liwei liwei  214330 Oct 19 17:40 Vtop
Makefile  results.xml  sim_build  test_axis_async_fifo.py
""")
r.run("verilator --help 2>/dev/null | grep -A2 -- '-unused-regexp'", """     --unused-regexp <regexp>    Tune UNUSED lint signals
""")
r.run("which fst2vcd gtkwave; pip list 2>/dev/null | grep -i -E 'cocotb|pytest'", """/usr/local/bin/fst2vcd
/usr/bin/gtkwave
cocotb                1.9.2
cocotb-bus            0.2.1
pytest                8.3.3
""")
r.run("grep -rn 'almost_full\\|AF_LEVEL' rtl tb", """rtl/axis_async_fifo.sv:6:    parameter int AF_LEVEL = 14,
rtl/axis_async_fifo.sv:16:    output logic              almost_full,
rtl/axis_async_fifo.sv:48:    assign almost_full = level_w >= AF_LEVEL;
tb/test_axis_async_fifo.py:71:async def test_almost_full(dut):
tb/test_axis_async_fifo.py:77:        assert int(dut.almost_full.value) == (level >= 14), f"almost_full={int(dut.almost_full.value)} at level {level}"
""")
r.run("verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv", """%Warning-UNUSEDSIGNAL: rtl/axis_async_fifo.sv:13:34: Signal is not used: 's_axis_tuser'
                                                    : ... In instance axis_async_fifo
   13 |     input  logic [USER_W-1:0] s_axis_tuser,
      |                                  ^~~~~~~~~~~~
                      ... For warning description see https://verilator.org/warn/UNUSEDSIGNAL?v=5.024
                      ... Use "/* verilator lint_off UNUSEDSIGNAL */" and lint_on around source to disable this message.
%Warning-WIDTHEXPAND: rtl/axis_async_fifo.sv:47:31: Operator SUB expects 5 bits on the RHS, but RHS's VARREF 'rd_gray_s' generates 5 bits.
                                                  : ... In instance axis_async_fifo
%Warning-WIDTHEXPAND: rtl/axis_async_fifo.sv:48:37: Operator GTE expects 32 bits on the LHS, but LHS's VARREF 'level_w' generates 5 bits.
                                                  : ... In instance axis_async_fifo
   48 |     assign almost_full = level_w >= AF_LEVEL;
      |                                  ^~
%Warning-UNUSEDSIGNAL: rtl/gray_sync.sv:11:46: Bits of signal are not used: 'ff'[0]
                                             : ... In instance axis_async_fifo.u_rd2wr
   11 |     (* ASYNC_REG = "TRUE" *) logic [W-1:0] ff [STAGES];
      |                                              ^~
%Error: Exiting due to 4 warning(s)
""", code=1, secs=0.9)
r.run("cd tb && make SIM=verilator 2>&1 | tail -40", mk_results([
"     0.00ns INFO     cocotb.gpi                         ..mbed/gpi_embed.cpp:108  in set_program_name_in_venv        Did not detect Python virtual environment. Using system-wide Python interpreter",
"     0.00ns INFO     cocotb                             Running on Verilator version 5.024 2024-04-05",
"     0.00ns INFO     cocotb                             Seeding Python random module with 1760925978",
"     0.00ns INFO     cocotb.regression                  running test_reset_empty (1/5)",
"   104.00ns INFO     cocotb.regression                  test_reset_empty passed",
"   104.00ns INFO     cocotb.regression                  running test_single_beat (2/5)",
"   221.00ns INFO     cocotb.regression                  test_single_beat passed",
"   221.00ns INFO     cocotb.regression                  running test_fill_to_full (3/5)",
"   612.00ns INFO     cocotb.regression                  test_fill_to_full passed",
"   612.00ns INFO     cocotb.regression                  running test_almost_full (4/5)",
"  1098.00ns INFO     cocotb.regression                  test_almost_full failed",
"                                                        Traceback (most recent call last):",
"                                                          File \"/home/liwei/hw/axis_cdc/tb/test_axis_async_fifo.py\", line 77, in test_almost_full",
"                                                            assert int(dut.almost_full.value) == (level >= 14), f\"almost_full={int(dut.almost_full.value)} at level {level}\"",
"                                                        AssertionError: almost_full=1 at level 3",
"                                                        assert 1 == False",
"                                                         +  where 1 = int(LogicArray('1', Range(0, 'downto', 0)))",
"  1098.00ns INFO     cocotb.regression                  running test_random_stream (5/5)",
" 31877.00ns INFO     cocotb.regression                  test_random_stream passed",
" 31877.00ns INFO     cocotb.regression                  ****************************************************************************************",
"                                                        ** TEST                            STATUS  SIM TIME (ns)  REAL TIME (s)  RATIO (ns/s) **",
"                                                        ****************************************************************************************",
"                                                        ** test_axis_async_fifo.test_reset_empty    PASS         104.00           0.01      9811.32  **",
"                                                        ** test_axis_async_fifo.test_single_beat    PASS         117.00           0.01     10236.22  **",
"                                                        ** test_axis_async_fifo.test_fill_to_full   PASS         391.00           0.02     17209.86  **",
"                                                        ** test_axis_async_fifo.test_almost_full    FAIL         486.00           0.03     16872.07  **",
"                                                        ** test_axis_async_fifo.test_random_stream  PASS       30779.00           1.18     26084.75  **",
"                                                        ****************************************************************************************"], 5, 4, 1, "31877.00 NS"), secs=38.5)
r.run("git status --short; cat .gitignore", "tb/sim_build/\ntb/results.xml\ntb/__pycache__/\n")
r.say(
    "Baseline, nothing changed:\n\n"
    "- Tools: Verilator 5.024, cocotb 1.9.2, Python 3.11.9 (same as the CI image `registry.sinolink.example/fpga/verilator:5.024`).\n"
    "- Lint `verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv`: **4 warnings**, exit 1: UNUSEDSIGNAL `s_axis_tuser` (port is never used), two WIDTHEXPAND on the `level_w` lines 47/48, and UNUSEDSIGNAL `ff[0]` in gray_sync.sv.\n"
    "- Tests `make SIM=verilator` in tb/: 5 tests, **4 pass, test_almost_full fails**: `almost_full=1 at level 3`. That is the bug Zhang team sees.\n\n"
    "Cause, I am fairly sure: line 47 `level_w = wr_bin - rd_gray_s` subtracts a **gray-coded** read pointer from a **binary** write pointer. Gray and binary only agree at 0 and 1, so as soon as the read side has moved a bit the level is garbage, often big, so almost_full goes high too early. The synced read pointer must be converted gray→binary first.\n\n"
    "Also something I noticed in gray_sync.sv: the shift loop is `for (int i = 1; i < STAGES - 1; i++)`. With STAGES=2 that loop runs zero times, so `ff[1]` is never written and stays at reset, and `ff[0]` is unused (that is the lint warning). I think the read/write pointers only get through because ... actually I need to check that, it should not work at all. Let me look before claiming."
)
r.run("sed -n '1,25p' rtl/gray_sync.sv | cat -n | sed -n '12,20p'", """    12	    always_ff @(posedge clk or negedge rst_n) begin
    13	        if (!rst_n) begin
    14	            for (int i = 0; i < STAGES; i++) ff[i] <= '0;
    15	        end else begin
    16	            ff[0] <= d;
    17	            for (int i = 1; i < STAGES - 1; i++) ff[i] <= ff[i-1];
    18	        end
    19	    end
""")
r.run("git log -p --follow -n 2 rtl/gray_sync.sv | head -40", """commit 31d8e60b5a7c2e19f0d4c8a3b6e1f7d2a9c5b0e4
Author: Chen Hao <chen.hao@sinolink.example>
Date:   Tue Jun 3 10:12:44 2026 +0800

    gray_sync: ASYNC_REG attribute

diff --git a/rtl/gray_sync.sv b/rtl/gray_sync.sv
--- a/rtl/gray_sync.sv
+++ b/rtl/gray_sync.sv
@@ -8,13 +8,13 @@ module gray_sync #(
-    logic [W-1:0] ff [STAGES];
+    (* ASYNC_REG = "TRUE" *) logic [W-1:0] ff [STAGES];
     always_ff @(posedge clk or negedge rst_n) begin
         if (!rst_n) begin
             for (int i = 0; i < STAGES; i++) ff[i] <= '0;
         end else begin
             ff[0] <= d;
-            for (int i = 1; i < STAGES; i++) ff[i] <= ff[i-1];
+            for (int i = 1; i < STAGES - 1; i++) ff[i] <= ff[i-1];
         end
     end
""")
r.say(
    "Confirmed a second bug, and it is serious: commit 31d8e60 (\"gray_sync: ASYNC_REG attribute\", Chen Hao, 3 June) changed the loop bound from `i < STAGES` to `i < STAGES - 1`. With the default SYNC_STAGES=2 the last flop `ff[1]` is never loaded, so `q` stays 0 forever. "
    "Then `wr_gray_m` is always 0 → the read side thinks the FIFO is always empty? But test_single_beat passes... Let me check how it passes: probably the test passes by luck because `RisingEdge(m_axis_tvalid)` never fires and... no, the test would hang. I will check in the waveform rather than guess."
)
r.run("cd tb && make SIM=verilator TESTCASE=test_single_beat WAVES=1 EXTRA_ARGS='--timing -Wno-fatal --trace-fst --trace-structs' 2>&1 | grep -E 'PASS|FAIL|Error' ; ls -la sim_build/*.fst", """** test_axis_async_fifo.test_single_beat    PASS         117.00           0.01      9921.40  **
-rw-r--r-- 1 liwei liwei 18544 Oct 20 10:21 sim_build/dump.fst
""", secs=41.0)
r.run("cd tb && python3 - <<'PY'\nfrom pylibfst import *  # noqa\nPY\npip list 2>/dev/null | grep -i -E 'fst|vcd|wave'", "ModuleNotFoundError: No module named 'pylibfst'\nvcdvcd                0.3.0\n", code=1)
r.run("cd tb && fst2vcd sim_build/dump.fst -o /tmp/single.vcd && python3 -c \"from vcdvcd import VCDVCD; v=VCDVCD('/tmp/single.vcd'); import itertools; [print(s, v[s].tv[:6]) for s in ['TOP.axis_async_fifo.u_wr2rd.ff[1]','TOP.axis_async_fifo.u_wr2rd.q','TOP.axis_async_fifo.m_axis_tvalid']]\"", """TOP.axis_async_fifo.u_wr2rd.ff[1] [(0, '0'), (52, '00001')]
TOP.axis_async_fifo.u_wr2rd.q [(0, '0'), (52, '00001')]
TOP.axis_async_fifo.m_axis_tvalid [(0, '0'), (65, '1')]
""", secs=2.4)
r.say(
    "Hmm, `ff[1]` does change at 52 ns. So Verilator still loads it. Reading the RTL again: for STAGES=2 the loop `i < 1` is empty, right, but `ff[0] <= d` and... no, ff[1] should stay 0. Let me check the generated C++ rather than argue with myself."
)
r.run("cd tb && grep -n 'ff__BRA__1\\|u_wr2rd__DOT__ff' sim_build/Vtop___024root__DepSet_*__0.cpp | head -8", """sim_build/Vtop___024root__DepSet_h8a1c2f0e__0.cpp:214:    vlSelf->axis_async_fifo__DOT__u_wr2rd__DOT__ff[1U] = vlSelf->axis_async_fifo__DOT__u_wr2rd__DOT__ff[0U];
sim_build/Vtop___024root__DepSet_h8a1c2f0e__0.cpp:215:    vlSelf->axis_async_fifo__DOT__u_wr2rd__DOT__ff[0U] = vlSelf->axis_async_fifo__DOT__wr_gray;
""")
r.run("git stash list; git diff HEAD --stat; git show HEAD:rtl/gray_sync.sv | sed -n '15,18p'", """            ff[0] <= d;
            for (int i = 1; i < STAGES - 1; i++) ff[i] <= ff[i-1];
""")
r.run("cd tb && ls -la sim_build/ | head; grep -c gray_sync sim_build/Vtop.mk", """total 5172
drwxr-xr-x 2 liwei liwei    4096 Oct 19 17:40 .
drwxr-xr-x 4 liwei liwei    4096 Oct 20 10:21 ..
-rw-r--r-- 1 liwei liwei    1907 Oct 19 17:40 Vtop.mk
-rw-r--r-- 1 liwei liwei  214330 Oct 19 17:40 Vtop
-rw-r--r-- 1 liwei liwei    6112 Oct 19 17:40 Vtop__ver.d
0
""")
r.say(
    "Found why: `tb/sim_build` is **stale**, built on 19 Oct 17:40, and the cocotb makefile did not rebuild when I passed new EXTRA_ARGS for the waves (the .fst is from the old binary; `Vtop.mk` even has no gray_sync reference in my grep because the old build list is different). The simulation we ran is not the RTL in the tree. Therefore all baseline results may be from an old build. I clean and rerun the baseline."
)
r.run("cd tb && make clean && make SIM=verilator 2>&1 | grep -E '\\*\\* test_|TESTS=|Error|Timeout|hang' ", """** test_axis_async_fifo.test_reset_empty    PASS         104.00           0.01      9644.31  **
** test_axis_async_fifo.test_single_beat    FAIL      1000000.00          40.02     24987.50  **
** test_axis_async_fifo.test_fill_to_full   PASS         391.00           0.02     17100.44  **
** test_axis_async_fifo.test_almost_full    FAIL         486.00           0.03     16651.90  **
** test_axis_async_fifo.test_random_stream  FAIL      1000000.00          41.77     23940.11  **
** TESTS=5 PASS=2 FAIL=3 SKIP=0 **
""", secs=124.0)
r.say(
    "Real baseline after `make clean` (the stale sim_build lied to us): **2 pass, 3 fail**. test_single_beat and test_random_stream run until 1 ms sim time (they hang: the read side never sees data, because gray_sync's last flop is never loaded — the 31d8e60 bug). test_almost_full fails as before.\n\n"
    "So in the tree on main today the FIFO cannot pass data at all with SYNC_STAGES=2. Since 3 June. Whoever built a bitstream after that has a broken FIFO, or they used an older sim_build like us. Two fixes needed:\n"
    "1. gray_sync.sv loop back to `i < STAGES`.\n"
    "2. almost_full: convert `rd_gray_s` gray→binary before subtracting.\n\n"
    "Can I go on with both? And I suggest the tests should also hang-protect with a timeout (cocotb `timeout_time` in the decorator), 1 ms sim time is a waste of 40 s each."
)

# =========================================================================== turn 2
r.user(
    "Wah, good catch on the stale sim_build, that one cost us a lot. Yes go on both fixes. Therefore also always make clean before the tests in your runs, I don't trust incremental build. Timeout yes, use 200 us for each test. "
    "For almost_full: the level meaning is number of words written and not yet read, seen from the write side. AF_LEVEL keep default 14, don't change default."
)
r.patch([("update", SYNC, [("""            for (int i = 1; i < STAGES - 1; i++) ff[i] <= ff[i-1];""", """            for (int i = 1; i < STAGES; i++) ff[i] <= ff[i-1];""")])], reasoning="**Fixing the synchronizer loop bound**")
r.patch([("update", FIFO, [("""    wire [AW:0] level_w = wr_bin - rd_gray_s;
    assign almost_full = level_w >= AF_LEVEL;""", """    // gray -> binary of the synced read pointer, then level = words written and not yet read
    logic [AW:0] rd_bin_s;
    always_comb begin
        rd_bin_s[AW] = rd_gray_s[AW];
        for (int i = AW - 1; i >= 0; i--) rd_bin_s[i] = rd_bin_s[i+1] ^ rd_gray_s[i];
    end
    wire [AW:0] level_w = wr_bin - rd_bin_s;
    assign almost_full = level_w >= AF_LEVEL;""")])])
r.run("verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv", """%Warning-UNUSEDSIGNAL: rtl/axis_async_fifo.sv:13:34: Signal is not used: 's_axis_tuser'
                                                    : ... In instance axis_async_fifo
   13 |     input  logic [USER_W-1:0] s_axis_tuser,
      |                                  ^~~~~~~~~~~~
%Warning-WIDTHEXPAND: rtl/axis_async_fifo.sv:54:37: Operator GTE expects 32 bits on the LHS, but LHS's VARREF 'level_w' generates 5 bits.
                                                  : ... In instance axis_async_fifo
   54 |     assign almost_full = level_w >= AF_LEVEL;
      |                                  ^~
%Error: Exiting due to 2 warning(s)
""", code=1, secs=0.8)
r.run("cd tb && make clean && make SIM=verilator 2>&1 | grep -E '\\*\\* test_|TESTS=|Error'", """** test_axis_async_fifo.test_reset_empty    PASS         104.00           0.01      9702.80  **
** test_axis_async_fifo.test_single_beat    PASS         143.00           0.01     10412.66  **
** test_axis_async_fifo.test_fill_to_full   PASS         391.00           0.02     17320.18  **
** test_axis_async_fifo.test_almost_full    PASS         486.00           0.03     16990.25  **
** test_axis_async_fifo.test_random_stream  PASS       32406.00           1.21     26781.00  **
** TESTS=5 PASS=5 FAIL=0 SKIP=0 **
""", secs=44.0)
r.say("Both fixes work: after `make clean`, 5/5 pass. Now the timeouts (200 us each, cocotb 1.9 `@cocotb.test(timeout_time=200, timeout_unit=\"us\")`) and the remaining 2 lint warnings.")
TB_T = TB
for _name in ["test_reset_empty", "test_single_beat", "test_fill_to_full", "test_almost_full", "test_random_stream"]:
    pass
r.patch([("update", TB, [(f"@cocotb.test()\nasync def {n}(", f"@cocotb.test(timeout_time=200, timeout_unit=\"us\")\nasync def {n}(") for n in ["test_reset_empty", "test_single_beat", "test_fill_to_full", "test_almost_full", "test_random_stream"]])])
r.run("cd tb && make clean && make SIM=verilator 2>&1 | grep -E '\\*\\* test_|TESTS=|Error'", """** test_axis_async_fifo.test_reset_empty    PASS         104.00           0.01      9688.12  **
** test_axis_async_fifo.test_single_beat    PASS         143.00           0.01     10380.01  **
** test_axis_async_fifo.test_fill_to_full   PASS         391.00           0.02     17211.73  **
** test_axis_async_fifo.test_almost_full    PASS         486.00           0.03     17002.49  **
** test_axis_async_fifo.test_random_stream  FAIL     200000.00           8.02     24937.66  **
** TESTS=5 PASS=4 FAIL=1 SKIP=0 **
""", secs=52.0)
r.run("cd tb && make SIM=verilator TESTCASE=test_random_stream 2>&1 | sed -n '/running test_random_stream/,/test_random_stream failed/p' | head -30", """     0.00ns INFO     cocotb.regression                  running test_random_stream (1/1)
200000.00ns INFO     cocotb.regression                  test_random_stream failed
                                                        Traceback (most recent call last):
                                                          File "/usr/lib/python3/dist-packages/cocotb/_outcomes.py", line 52, in get
                                                            raise self.error
                                                          File "/usr/lib/python3/dist-packages/cocotb/decorators.py", line 311, in _wrapped_test
                                                            return await cocotb.triggers.with_timeout(...)
                                                        cocotb.result.SimTimeoutError: Test timed out after 200 us (beats received: 312 of 400)
                                                          File "/home/liwei/hw/axis_cdc/tb/test_axis_async_fifo.py", line 93, in test_random_stream
                                                            await task
""", secs=11.0)
r.say(
    "test_random_stream needs 32.4 us normally, but after the timeout patch it stops at 200 us with 312 of 400 beats. Not the timeout itself: the sink now... wait — the earlier run finished at 32406 ns. The difference between the two runs is only the decorator. Let me look at the sink: `dut.m_axis_tready.value = random.random() < 0.6` and the random seed. cocotb seeds from time, so each run has different tready pattern. Probably a real bug depending on the pattern, seed matters. I rerun with the seeds printed."
)
r.run("cd tb && grep -h 'Seeding Python random' results*.log 2>/dev/null; make SIM=verilator TESTCASE=test_random_stream 2>&1 | grep -E 'Seeding|PASS|FAIL' | head -3", """     0.00ns INFO     cocotb                             Seeding Python random module with 1760927413
** test_axis_async_fifo.test_random_stream  PASS       31988.00           1.19     26880.31  **
** TESTS=1 PASS=1 FAIL=0 SKIP=0 **
""", secs=10.5)
for seed, res in [(1760927413, "PASS       31988.00"), (1, "PASS       32110.00"), (7, "PASS       32544.00"), (42, "FAIL      200000.00"), (1733, "FAIL      200000.00"), (2026, "PASS       31871.00")]:
    r.run(f"cd tb && make SIM=verilator TESTCASE=test_random_stream RANDOM_SEED={seed} 2>&1 | grep -E '\\*\\* test_random'", f"** test_axis_async_fifo.test_random_stream  {res}           1.20     26000.00  **\n", secs=10.0)
r.say(
    "Seed-dependent: seeds 42 and 1733 hang (312 beats then nothing), 1, 7, 2026 and the time seed pass. Reproducible with `RANDOM_SEED=42`. I look at the sink and the DUT read path with seed 42."
)
r.run("cd tb && make SIM=verilator TESTCASE=test_random_stream RANDOM_SEED=42 WAVES=1 2>&1 | tail -3 && fst2vcd sim_build/dump.fst -o /tmp/s42.vcd && ls -la /tmp/s42.vcd", """** test_axis_async_fifo.test_random_stream  FAIL      200000.00           8.10     24690.12  **
** TESTS=1 PASS=0 FAIL=1 SKIP=0 **
-rw-r--r-- 1 liwei liwei 9182210 Oct 20 10:48 /tmp/s42.vcd
""", secs=14.0)
r.run("python3 - <<'PY'\nfrom vcdvcd import VCDVCD\nv = VCDVCD('/tmp/s42.vcd')\nfor s in ['TOP.axis_async_fifo.m_axis_tvalid', 'TOP.axis_async_fifo.m_axis_tready', 'TOP.axis_async_fifo.s_axis_tready', 'TOP.axis_async_fifo.s_axis_tvalid']:\n    tv = v[s].tv\n    print(s, tv[-3:])\nPY", """TOP.axis_async_fifo.m_axis_tvalid [(25661, '1'), (25668, '0'), (25675, '1')]
TOP.axis_async_fifo.m_axis_tready [(25640, '1'), (25668, '0'), (25675, '0')]
TOP.axis_async_fifo.s_axis_tready [(25600, '1'), (25610, '0'), (25650, '1')]
TOP.axis_async_fifo.s_axis_tvalid [(25600, '0'), (25620, '1'), (25630, '0')]
""", secs=3.1)
r.say(
    "At the end: m_axis_tvalid=1 but m_axis_tready stays 0 from 25675 ns to 200 us. The **sink** stopped driving tready. And s_axis_tvalid went 0 at 25630 and the source stopped too. So both coroutines stopped — the DUT is fine at that moment (tvalid high, data waiting). Look at `push()`: it sets tvalid, waits one RisingEdge, then loops `while not dut.s_axis_tready.value` — it samples tready *after* the edge, so when tready drops on the same edge the word was accepted, push waits for the next tready and drops tvalid while... This is a testbench bug: push can think a beat was not taken when it was, or take the wrong edge. 312 beats received but 313+ sent: the sink waits forever for beats that were never written because source believes they were.\n\n"
    "Fix in the tb: sample `s_axis_tready` **before** the edge (standard valid/ready handshake in cocotb: set tvalid, `await RisingEdge`, check `tready` that was valid at that edge using `ReadOnly` first). I rewrite push() to wait `await RisingEdge(clk); await ReadOnly()` and accept when tready was 1 at that edge."
)
r.patch([("update", TB, [("""from cocotb.triggers import ClockCycles, RisingEdge, Timer""", """from cocotb.triggers import ClockCycles, ReadOnly, RisingEdge"""), ("""async def push(dut, data, last=0):
    dut.s_axis_tdata.value = data
    dut.s_axis_tlast.value = last
    dut.s_axis_tvalid.value = 1
    await RisingEdge(dut.s_clk)
    while not dut.s_axis_tready.value:
        await RisingEdge(dut.s_clk)
    dut.s_axis_tvalid.value = 0""", """async def push(dut, data, last=0):
    \"\"\"One beat with a proper valid/ready handshake: the beat is taken on the edge where tready was 1.\"\"\"
    dut.s_axis_tdata.value = data
    dut.s_axis_tlast.value = last
    dut.s_axis_tvalid.value = 1
    while True:
        await RisingEdge(dut.s_clk)
        await ReadOnly()
        if dut.s_axis_tready.value:
            break
    await RisingEdge(dut.s_clk)  # leave ReadOnly before driving
    dut.s_axis_tvalid.value = 0""")])])
for seed in [42, 1733, 1, 7]:
    r.run(f"cd tb && make SIM=verilator TESTCASE=test_random_stream RANDOM_SEED={seed} 2>&1 | grep -E '\\*\\* test_random'", f"** test_axis_async_fifo.test_random_stream  PASS       {40000 + seed % 97 * 13}.00           1.52     26100.00  **\n", secs=11.0)
r.run("cd tb && make clean && make SIM=verilator RANDOM_SEED=42 2>&1 | grep -E '\\*\\* test_|TESTS=|Error'", """** test_axis_async_fifo.test_reset_empty    PASS         104.00           0.01      9690.14  **
** test_axis_async_fifo.test_single_beat    PASS         153.00           0.01     10444.60  **
** test_axis_async_fifo.test_fill_to_full   PASS         551.00           0.03     17630.22  **
** test_axis_async_fifo.test_almost_full    FAIL         646.00           0.03     17120.55  **
** test_axis_async_fifo.test_random_stream  PASS       40546.00           1.55     26159.01  **
** TESTS=5 PASS=4 FAIL=1 SKIP=0 **
""", secs=47.0)
r.run("cd tb && make SIM=verilator TESTCASE=test_almost_full RANDOM_SEED=42 2>&1 | sed -n '/running test_almost_full/,/assert 1/p'", """     0.00ns INFO     cocotb.regression                  running test_almost_full (1/1)
   646.00ns INFO     cocotb.regression                  test_almost_full failed
                                                        Traceback (most recent call last):
                                                          File "/home/liwei/hw/axis_cdc/tb/test_axis_async_fifo.py", line 82, in test_almost_full
                                                            assert int(dut.almost_full.value) == (level >= 14), f"almost_full={int(dut.almost_full.value)} at level {level}"
                                                        AssertionError: almost_full=0 at level 14
                                                        assert 0 == True
""", secs=9.0)
r.say(
    "Now with the correct handshake test_almost_full says `almost_full=0 at level 14`. With the old push() each beat was counted one edge late, so the test's own level was right by accident. In the new push there is an extra `await RisingEdge` after the accept, then the test waits `ClockCycles(4)`, total 5 s_clk. The level is from write pointer (immediate) minus the synced read pointer (read side has not read anything, tready=0) so level should be exactly 14 after 14 writes. Let me print level_w."
)
r.run("cd tb && sed -n '74,84p' test_axis_async_fifo.py", "\n".join(r.files[TB].splitlines()[73:84]) + "\n")
r.run("cd tb && make SIM=verilator TESTCASE=test_almost_full RANDOM_SEED=42 COCOTB_LOG_LEVEL=DEBUG EXTRA_ARGS='--timing -Wno-fatal --public-flat-rw' 2>&1 | grep -E 'level_w|wr_bin' | head -5; python3 -c \"print('n/a')\"", """n/a
""", secs=12.0)
r.patch([("update", TB, [("""        level = i + 1
        assert""", """        level = i + 1
        dut._log.info("level=%d wr_bin=%d level_w=%d af=%d", level, int(dut.wr_bin.value), int(dut.level_w.value), int(dut.almost_full.value))
        assert""")])])
r.run("cd tb && make clean >/dev/null && make SIM=verilator TESTCASE=test_almost_full RANDOM_SEED=42 2>&1 | grep -E 'level=' | tail -4", """   563.00ns INFO     cocotb.axis_async_fifo             level=11 wr_bin=11 level_w=11 af=0
   593.00ns INFO     cocotb.axis_async_fifo             level=12 wr_bin=12 level_w=12 af=0
   623.00ns INFO     cocotb.axis_async_fifo             level=13 wr_bin=13 level_w=13 af=0
   646.00ns INFO     cocotb.axis_async_fifo             level=14 wr_bin=14 level_w=14 af=0
""", secs=40.0)
r.say(
    "level_w=14 but af=0. So `level_w >= AF_LEVEL` is false with 14 >= 14? That is the WIDTHEXPAND warning on line 54: `level_w` is 5 bits unsigned, AF_LEVEL is `int` (32-bit signed). Mixed signed/unsigned → compare becomes unsigned 32-bit, that should still be fine for 14... unless the value read is before the combinational update. The log is in the same timestep as the write edge: `ReadOnly` not used here in the test, so `almost_full` is sampled before settle. Therefore it is the test sampling, not RTL. I add `await ReadOnly()` before the assert in test_almost_full."
)
r.patch([("update", TB, [("""        await ClockCycles(dut.s_clk, 4)
        level = i + 1
        dut._log.info("level=%d wr_bin=%d level_w=%d af=%d", level, int(dut.wr_bin.value), int(dut.level_w.value), int(dut.almost_full.value))
        assert""", """        await ClockCycles(dut.s_clk, 4)
        await ReadOnly()
        level = i + 1
        assert""")])])
r.run("cd tb && make clean >/dev/null && make SIM=verilator TESTCASE=test_almost_full RANDOM_SEED=42 2>&1 | grep -E '\\*\\* test_|TESTS='", """** test_axis_async_fifo.test_almost_full    FAIL         646.00           0.03     17004.33  **
** TESTS=1 PASS=0 FAIL=1 SKIP=0 **
""", secs=38.0)
r.run("cd tb && make SIM=verilator TESTCASE=test_almost_full RANDOM_SEED=42 2>&1 | grep -B2 -A8 'Traceback' | head -20", """   646.00ns INFO     cocotb.regression                  test_almost_full failed
                                                        Traceback (most recent call last):
                                                          File "/home/liwei/hw/axis_cdc/tb/test_axis_async_fifo.py", line 73, in test_almost_full
                                                            await push(dut, i)
                                                          File "/home/liwei/hw/axis_cdc/tb/test_axis_async_fifo.py", line 27, in push
                                                            dut.s_axis_tvalid.value = 0
                                                        Exception: Write to object s_axis_tvalid was scheduled during a read-only sync phase.
                                                          File "/usr/lib/python3/dist-packages/cocotb/handle.py", line 420, in _set_value
                                                            raise Exception(...)
                                                        Exception: Write to object s_axis_tvalid was scheduled during a read-only sync phase.
""", secs=9.0)
r.say(
    "Different failure now: `Write to object s_axis_tvalid was scheduled during a read-only sync phase`. The loop ends in ReadOnly (after the assert) and then the next push() writes tdata immediately. Rule: after ReadOnly you must wait a time step before driving. I add `await RisingEdge(dut.s_clk)` at the start of push() only if needed... simpler and clearer: test_almost_full waits `await Timer(1, 'ns')` — no, cleaner is to make push() itself always start on a fresh edge: push begins with `await RisingEdge(dut.s_clk)` only when called from ReadOnly. I'll keep push() simple and put `await RisingEdge(dut.s_clk)` at the end of the loop body in test_almost_full."
)
r.patch([("update", TB, [("""        assert int(dut.almost_full.value) == (level >= 14), f"almost_full={int(dut.almost_full.value)} at level {level}\"""", """        assert int(dut.almost_full.value) == (level >= 14), f"almost_full={int(dut.almost_full.value)} at level {level}"
        await RisingEdge(dut.s_clk)  # leave the ReadOnly phase before the next push""")])])
r.run("cd tb && make clean >/dev/null && for s in 42 1733 1 7 2026; do make SIM=verilator RANDOM_SEED=$s 2>&1 | grep -E 'TESTS='; done", """** TESTS=5 PASS=5 FAIL=0 SKIP=0 **
** TESTS=5 PASS=5 FAIL=0 SKIP=0 **
** TESTS=5 PASS=5 FAIL=0 SKIP=0 **
** TESTS=5 PASS=5 FAIL=0 SKIP=0 **
** TESTS=5 PASS=5 FAIL=0 SKIP=0 **
""", secs=212.0)
r.say(
    "All 5 tests pass for seeds 42, 1733, 1, 7, 2026 (clean build first). Summary of this part:\n"
    "- rtl/gray_sync.sv: loop bound back to `i < STAGES` (the 31d8e60 regression, FIFO could not pass data).\n"
    "- rtl/axis_async_fifo.sv: gray→binary of `rd_gray_s` into `rd_bin_s`, `level_w = wr_bin - rd_bin_s`; AF_LEVEL default stays 14.\n"
    "- tb: `timeout_time=200, timeout_unit=\"us\"` on all tests; push() does a real valid/ready handshake (ReadOnly sample, accept on the edge where tready was 1) — the old push() caused the seed-dependent hang (seeds 42 and 1733); test_almost_full samples in ReadOnly.\n\n"
    "Next: 2 lint warnings left (UNUSEDSIGNAL s_axis_tuser, WIDTHEXPAND on the compare), then prog_full."
)

# =========================================================================== turn 3
r.user("Good. For the tuser: port must stay (rule c). How you want to fix the unused warning without pragma? Tell me first.")
r.say(
    "Options without a lint_off pragma (rule b):\n"
    "1. Carry tuser through the FIFO: store it in mem and add `m_axis_tuser` output. That is a *new* port, allowed, and maybe useful, but it makes every entry USER_W bits wider (BRAM cost) and Zhang team would have to leave it open.\n"
    "2. The usual trick: `wire unused_ok = &{1'b0, s_axis_tuser};` — Verilator does not warn for signals whose names start with `unused` (its default `-unused-regexp` is `*unused*`). No pragma, no hardware.\n\n"
    "I recommend 2. For WIDTHEXPAND: compare in the same width, `{{(32-AW-1){1'b0}}, level_w} >= AF_LEVEL` is ugly; better declare `localparam logic [AW:0] AF_L = AF_LEVEL[AW:0];` and compare `level_w >= AF_L`. That also needs AF_LEVEL <= DEPTH, I can add an elaboration check."
)
r.user("Use option 2 for tuser. Therefore also the localparam compare. And yes add the elaboration check, DEPTH must be power of two too, because the gray pointer logic need it.")
r.patch([("update", FIFO, [("""    localparam int AW = $clog2(DEPTH);
""", """    localparam int AW = $clog2(DEPTH);
    localparam logic [AW:0] AF_L = AF_LEVEL[AW:0];

    // elaboration checks: gray pointers need a power-of-two depth
    if (DEPTH < 4 || (1 << AW) != DEPTH) begin : g_bad_depth
        $error("axis_async_fifo: DEPTH=%0d must be a power of two >= 4", DEPTH);
    end
    if (AF_LEVEL < 1 || AF_LEVEL > DEPTH) begin : g_bad_af
        $error("axis_async_fifo: AF_LEVEL=%0d must be in 1..DEPTH", AF_LEVEL);
    end

    // s_axis_tuser is kept for the sl40g_top port list but not stored (name matches Verilator's unused regexp)
    wire unused_ok = &{1'b0, s_axis_tuser};
"""), ("""    assign almost_full = level_w >= AF_LEVEL;""", """    assign almost_full = level_w >= AF_L;""")])])
r.run("verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv && echo LINT-CLEAN", "LINT-CLEAN\n", secs=0.8)
r.run("verilator --lint-only -Wall -Irtl -GDEPTH=12 rtl/axis_async_fifo.sv; echo rc=$?", """%Error: rtl/axis_async_fifo.sv:31:9: axis_async_fifo: DEPTH=12 must be a power of two >= 4
                                  : ... note: In instance 'axis_async_fifo'
   31 |         $error("axis_async_fifo: DEPTH=%0d must be a power of two >= 4", DEPTH);
      |         ^~~~~~
%Error: Exiting due to 1 error(s)
rc=1
""", secs=0.8)
r.run("verilator --lint-only -Wall -Irtl -GAF_LEVEL=40 rtl/axis_async_fifo.sv; echo rc=$?", """%Error: rtl/axis_async_fifo.sv:34:9: axis_async_fifo: AF_LEVEL=40 must be in 1..DEPTH
                                  : ... note: In instance 'axis_async_fifo'
%Error: Exiting due to 1 error(s)
rc=1
""", secs=0.8)
r.run("verilator --lint-only -Wall -Irtl -GDEPTH=64 -GAF_LEVEL=60 rtl/axis_async_fifo.sv && echo ok64", "ok64\n", secs=0.8)
r.run("cd tb && make clean >/dev/null && make SIM=verilator RANDOM_SEED=42 2>&1 | grep -E 'TESTS='", "** TESTS=5 PASS=5 FAIL=0 SKIP=0 **\n", secs=44.0)
r.say("Lint clean now (`LINT-CLEAN`), the elaboration checks fire for DEPTH=12 and AF_LEVEL=40, DEPTH=64/AF_LEVEL=60 is accepted, 5/5 tests still pass. Now prog_full.")

# =========================================================================== turn 4
r.user(
    "prog_full: parameter PROG_FULL_THRESH, default 12. Output prog_full high when level >= threshold, same write-side level as almost_full. It must be registered (flop output), Zhang team timing at 250 MHz is tight on that path. "
    "Therefore one cycle later than almost_full is acceptable."
)
r.patch([("update", FIFO, [("""    parameter int AF_LEVEL = 14,
""", """    parameter int AF_LEVEL = 14,
    parameter int PROG_FULL_THRESH = 12,
"""), ("""    output logic              almost_full,
""", """    output logic              almost_full,
    output logic              prog_full,
"""), ("""    localparam logic [AW:0] AF_L = AF_LEVEL[AW:0];
""", """    localparam logic [AW:0] AF_L = AF_LEVEL[AW:0];
    localparam logic [AW:0] PF_L = PROG_FULL_THRESH[AW:0];
"""), ("""        $error("axis_async_fifo: AF_LEVEL=%0d must be in 1..DEPTH", AF_LEVEL);
    end
""", """        $error("axis_async_fifo: AF_LEVEL=%0d must be in 1..DEPTH", AF_LEVEL);
    end
    if (PROG_FULL_THRESH < 1 || PROG_FULL_THRESH > DEPTH) begin : g_bad_pf
        $error("axis_async_fifo: PROG_FULL_THRESH=%0d must be in 1..DEPTH", PROG_FULL_THRESH);
    end
"""), ("""    assign almost_full = level_w >= AF_L;""", """    assign almost_full = level_w >= AF_L;

    // prog_full is registered (timing at 250 MHz in sl40g_top): one s_clk later than almost_full
    always_ff @(posedge s_clk or negedge s_rst_n) begin
        if (!s_rst_n) prog_full <= 1'b0;
        else          prog_full <= level_w >= PF_L;
    end""")])], reasoning="**Adding the registered prog_full output**")
r.patch([("update", TB, [("""@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_random_stream(dut):""", """@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_prog_full(dut):
    start_clocks(dut)
    await reset(dut)
    thresh = int(dut.PROG_FULL_THRESH.value)
    for i in range(16):
        await push(dut, i)
        await ClockCycles(dut.s_clk, 4)
        await ReadOnly()
        level = i + 1
        assert int(dut.prog_full.value) == (level >= thresh), f"prog_full={int(dut.prog_full.value)} at level {level}, thresh {thresh}"
        await RisingEdge(dut.s_clk)


@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_random_stream(dut):""")])])
r.run("verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv && echo LINT-CLEAN", "LINT-CLEAN\n", secs=0.8)
r.run("verilator --lint-only -Wall -Irtl -GPROG_FULL_THRESH=0 rtl/axis_async_fifo.sv; echo rc=$?", """%Error: rtl/axis_async_fifo.sv:38:9: axis_async_fifo: PROG_FULL_THRESH=0 must be in 1..DEPTH
                                  : ... note: In instance 'axis_async_fifo'
%Error: Exiting due to 1 error(s)
rc=1
""", secs=0.8)
r.run("verilator --lint-only -Wall -Irtl -GPROG_FULL_THRESH=16 rtl/axis_async_fifo.sv && echo ok-pf16", "ok-pf16\n", secs=0.8)
r.run("cd tb && make clean >/dev/null && make SIM=verilator RANDOM_SEED=42 2>&1 | grep -E '\\*\\* test_|TESTS=|Error'", """** test_axis_async_fifo.test_reset_empty    PASS         104.00           0.01      9702.21  **
** test_axis_async_fifo.test_single_beat    PASS         153.00           0.01     10401.77  **
** test_axis_async_fifo.test_fill_to_full   PASS         551.00           0.03     17518.40  **
** test_axis_async_fifo.test_almost_full    PASS         646.00           0.04     17201.92  **
** test_axis_async_fifo.test_prog_full      FAIL           0.00           0.00         0.00  **
** test_axis_async_fifo.test_random_stream  PASS       40546.00           1.55     26180.04  **
** TESTS=6 PASS=5 FAIL=1 SKIP=0 **
""", secs=49.0)
r.run("cd tb && make SIM=verilator TESTCASE=test_prog_full 2>&1 | sed -n '/running test_prog_full/,/^\\*\\*/p' | head -16", """     0.00ns INFO     cocotb.regression                  running test_prog_full (1/1)
     0.00ns INFO     cocotb.regression                  test_prog_full failed
                                                        Traceback (most recent call last):
                                                          File "/home/liwei/hw/axis_cdc/tb/test_axis_async_fifo.py", line 92, in test_prog_full
                                                            thresh = int(dut.PROG_FULL_THRESH.value)
                                                          File "/usr/lib/python3/dist-packages/cocotb/handle.py", line 370, in __getattr__
                                                            raise AttributeError(f"{self._name} contains no object named {name}")
                                                        AttributeError: axis_async_fifo contains no object named PROG_FULL_THRESH
                                                          File "/usr/lib/python3/dist-packages/cocotb/handle.py", line 365, in __getattr__
                                                            handle = self._sub_handle_key(name)
""", secs=9.0)
r.say("Parameters are not visible through VPI with Verilator unless the design is built with `--public-flat-rw` (or the param marked public). I will not add global public-ness; instead the test reads the threshold from the environment the runner sets, default 12, same as the RTL default.")
r.patch([("update", TB, [("""import random
""", """import os
import random
"""), ("""    thresh = int(dut.PROG_FULL_THRESH.value)""", """    thresh = int(os.environ.get("PROG_FULL_THRESH", "12"))  # Verilator hides parameters from VPI""")])])
r.run("cd tb && make clean >/dev/null && make SIM=verilator RANDOM_SEED=42 2>&1 | grep -E 'TESTS='", "** TESTS=6 PASS=6 FAIL=0 SKIP=0 **\n", secs=46.0)
r.say("6/6 pass including test_prog_full (default PROG_FULL_THRESH=12; the test reads the threshold from the `PROG_FULL_THRESH` environment variable because Verilator hides parameters from VPI).")

# =========================================================================== turn 5
r.user(
    "Next: move to pytest-style runner, tests/test_runner.py with cocotb.runner get_runner, so we can parametrize DEPTH and the thresholds. Parametrize DEPTH 16 and 64 at least. Keep the Makefile working too, some people use it. "
    "And CI should run pytest instead of make."
)
r.run("python3 -c 'import cocotb.runner, inspect; print(inspect.signature(cocotb.runner.Simulator.build)); print(inspect.signature(cocotb.runner.Simulator.test))'", """(self, hdl_library: str = 'top', verilog_sources: Sequence[PathLike | str] = [], vhdl_sources: Sequence[PathLike | str] = [], includes: Sequence[PathLike | str] = [], defines: Mapping[str, object] = {}, parameters: Mapping[str, object] = {}, build_args: Sequence[str | cocotb.runner.VHDL | cocotb.runner.Verilog] = [], hdl_toplevel: str | None = None, always: bool = False, build_dir: PathLike | str = 'sim_build', clean: bool = False, verbose: bool = False, timescale: Tuple[str, str] | None = None, waves: bool | None = None, log_file: PathLike | str | None = None) -> None
(self, test_module: str | Sequence[str], hdl_toplevel: str, hdl_toplevel_library: str = 'top', hdl_toplevel_lang: str | None = None, gpi_interfaces: List[str] | None = None, testcase: str | Sequence[str] | None = None, seed: str | int | None = None, test_args: Sequence[str] = [], plusargs: Sequence[str] = [], extra_env: Mapping[str, str] = {}, waves: bool | None = None, gui: bool | None = None, parameters: Mapping[str, object] | None = None, build_dir: PathLike | str | None = None, test_dir: PathLike | str | None = None, results_xml: str | None = None, pre_cmd: List[str] | None = None, verbose: bool = False, timescale: Tuple[str, str] | None = None, log_file: PathLike | str | None = None) -> Tuple[str, ...]
""")
r.patch([("add", RUN, """\"\"\"pytest entry point for the cocotb tests: `pytest tests/test_runner.py` (Verilator 5.024, cocotb 1.9).\"\"\"

import os
from pathlib import Path

import pytest
from cocotb.runner import get_runner

ROOT = Path(__file__).resolve().parents[1]
SOURCES = [ROOT / "rtl" / "axis_async_fifo.sv"]


@pytest.mark.parametrize("depth,af,pf", [(16, 14, 12), (64, 60, 48)])
def test_axis_async_fifo(depth, af, pf):
    params = {"DEPTH": depth, "AF_LEVEL": af, "PROG_FULL_THRESH": pf}
    runner = get_runner("verilator")
    build_dir = ROOT / "tests" / "sim_build" / f"d{depth}"
    runner.build(
        verilog_sources=SOURCES,
        hdl_toplevel="axis_async_fifo",
        parameters=params,
        build_args=["--timing", "-Wall"],
        build_dir=build_dir,
        always=True,  # never trust an incremental build
    )
    runner.test(
        hdl_toplevel="axis_async_fifo",
        test_module="test_axis_async_fifo",
        test_dir=ROOT / "tb",
        build_dir=build_dir,
        seed=os.environ.get("RANDOM_SEED", "42"),
        extra_env={"FIFO_DEPTH": str(depth), "AF_LEVEL": str(af), "PROG_FULL_THRESH": str(pf)},
    )
""")], reasoning="**Writing the pytest cocotb runner**")
r.run("pytest tests/test_runner.py -v 2>&1 | tail -30", """============================= test session starts ==============================
platform linux -- Python 3.11.9, pytest-8.3.3, pluggy-1.5.0 -- /usr/bin/python3
rootdir: /home/liwei/hw/axis_cdc
collecting ... collected 2 items

tests/test_runner.py::test_axis_async_fifo[16-14-12] FAILED              [ 50%]
tests/test_runner.py::test_axis_async_fifo[64-60-48] FAILED              [100%]

=================================== FAILURES ===================================
________________________ test_axis_async_fifo[16-14-12] ________________________
INFO: Running command perl /usr/local/share/verilator/bin/verilator -cc --exe -Mdir /home/liwei/hw/axis_cdc/tests/sim_build/d16 -DCOCOTB_SIM=1 --top-module axis_async_fifo --vpi --public-flat-rw --prefix Vtop -o axis_async_fifo -LDFLAGS '-Wl,-rpath,/usr/lib/python3/dist-packages/cocotb/libs -L/usr/lib/python3/dist-packages/cocotb/libs -lcocotbvpi_verilator' -GDEPTH=16 -GAF_LEVEL=14 -GPROG_FULL_THRESH=12 --timing -Wall /usr/lib/python3/dist-packages/cocotb/share/lib/verilator/verilator.cpp /home/liwei/hw/axis_cdc/rtl/axis_async_fifo.sv in directory /home/liwei/hw/axis_cdc/tests/sim_build/d16
%Error: /home/liwei/hw/axis_cdc/rtl/axis_async_fifo.sv:67:5: Cannot find file containing module: 'gray_sync'
   67 |     gray_sync #(.W(AW+1), .STAGES(SYNC_STAGES)) u_rd2wr (.clk(s_clk), .rst_n(s_rst_n), .d(rd_gray), .q(rd_gray_s));
      |     ^~~~~~~~~
        ... Looked in:
             /home/liwei/hw/axis_cdc/rtl/gray_sync
             /home/liwei/hw/axis_cdc/rtl/gray_sync.v
             /home/liwei/hw/axis_cdc/rtl/gray_sync.sv
             gray_sync
             gray_sync.v
             gray_sync.sv
%Error: Exiting due to 1 error(s)
subprocess.CalledProcessError: Command '['perl', '/usr/local/share/verilator/bin/verilator', '-cc', '--exe', ...]' returned non-zero exit status 1.
________________________ test_axis_async_fifo[64-60-48] ________________________
(same error)
=========================== short test summary info ============================
FAILED tests/test_runner.py::test_axis_async_fifo[16-14-12] - subprocess.CalledProcessError: Command '['perl', '/usr/local/share/verilator/bin/verilator', '-cc', ...
FAILED tests/test_runner.py::test_axis_async_fifo[64-60-48] - subprocess.CalledProcessError: ...
============================== 2 failes in 1.84s ===============================
""", code=1, secs=2.4)
r.say("`Cannot find file containing module: 'gray_sync'` — I listed only axis_async_fifo.sv in SOURCES; the Makefile has both. Adding rtl/gray_sync.sv first. (The lint in CI works only because of `-Irtl`.)")
r.patch([("update", RUN, [("""SOURCES = [ROOT / "rtl" / "axis_async_fifo.sv"]""", """SOURCES = [ROOT / "rtl" / "gray_sync.sv", ROOT / "rtl" / "axis_async_fifo.sv"]""")])])
r.run("pytest tests/test_runner.py -v 2>&1 | tail -22", """tests/test_runner.py::test_axis_async_fifo[16-14-12] FAILED              [ 50%]
tests/test_runner.py::test_axis_async_fifo[64-60-48] FAILED              [100%]

=================================== FAILURES ===================================
________________________ test_axis_async_fifo[16-14-12] ________________________
%Warning-UNUSEDSIGNAL: /home/liwei/hw/axis_cdc/rtl/axis_async_fifo.sv:44:10: Signal is not used: 'unused_ok'
                                                                            : ... In instance axis_async_fifo
   44 |     wire unused_ok = &{1'b0, s_axis_tuser};
      |          ^~~~~~~~~
                      ... For warning description see https://verilator.org/warn/UNUSEDSIGNAL?v=5.024
%Warning-DECLFILENAME: /usr/lib/python3/dist-packages/cocotb/share/lib/verilator/verilator.cpp ...
%Error: Exiting due to 1 warning(s)
subprocess.CalledProcessError: Command '['perl', '/usr/local/share/verilator/bin/verilator', ...]' returned non-zero exit status 1.
=========================== short test summary info ============================
FAILED tests/test_runner.py::test_axis_async_fifo[16-14-12] - subprocess.CalledProcessError
FAILED tests/test_runner.py::test_axis_async_fifo[64-60-48] - subprocess.CalledProcessError
============================== 2 failed in 2.03s ===============================
""", code=1, secs=2.6)
r.say(
    "Interesting: with `-Wall` in the *build*, Verilator warns UNUSEDSIGNAL on `unused_ok` even though `--lint-only -Wall` did not. The difference: the cocotb runner passes `--public-flat-rw`, and with everything public Verilator's `-unused-regexp` exemption does not apply... it reports it anyway. The build does not need `-Wall` — lint is its own CI job with the exact command — so I drop `-Wall` from build_args and keep `-Wno-fatal` like the Makefile."
)
r.patch([("update", RUN, [("""        build_args=["--timing", "-Wall"],""", """        build_args=["--timing", "-Wno-fatal"],  # lint is the separate `verilator --lint-only -Wall` job""")])])
r.run("pytest tests/test_runner.py -v 2>&1 | tail -8", """collecting ... collected 2 items

tests/test_runner.py::test_axis_async_fifo[16-14-12] PASSED              [ 50%]
tests/test_runner.py::test_axis_async_fifo[64-60-48] FAILED              [100%]

=========================== short test summary info ============================
FAILED tests/test_runner.py::test_axis_async_fifo[64-60-48] - SystemExit: 1 test(s) failed: test_fill_to_full, test_almost_full, test_prog_full
========================= 1 failed, 1 passed in 98.41s =========================
""", code=1, secs=98.6)
r.say("DEPTH=64 fails the three fill tests because the testbench hard-codes 16 beats and 14. They must use FIFO_DEPTH / AF_LEVEL from the environment (the runner already sets them).")
r.patch([("update", TB, [("""@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_reset_empty(dut):""", """DEPTH = int(os.environ.get("FIFO_DEPTH", "16"))
AF_LEVEL = int(os.environ.get("AF_LEVEL", "14"))
PROG_FULL_THRESH = int(os.environ.get("PROG_FULL_THRESH", "12"))  # Verilator hides parameters from VPI


@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_reset_empty(dut):"""), ("""    for i in range(16):
        await push(dut, i)
    await ClockCycles(dut.s_clk, 4)
    assert dut.s_axis_tready.value == 0""", """    for i in range(DEPTH):
        await push(dut, i)
    await ClockCycles(dut.s_clk, 4)
    assert dut.s_axis_tready.value == 0"""), ("""    for i in range(16):
        await push(dut, i)
        await ClockCycles(dut.s_clk, 4)
        await ReadOnly()
        level = i + 1
        assert int(dut.almost_full.value) == (level >= 14)""", """    for i in range(DEPTH):
        await push(dut, i)
        await ClockCycles(dut.s_clk, 4)
        await ReadOnly()
        level = i + 1
        assert int(dut.almost_full.value) == (level >= AF_LEVEL)"""), ("""    thresh = int(os.environ.get("PROG_FULL_THRESH", "12"))  # Verilator hides parameters from VPI
    for i in range(16):""", """    thresh = PROG_FULL_THRESH
    for i in range(DEPTH):""")])])
r.run("pytest tests/test_runner.py -v 2>&1 | tail -5", """tests/test_runner.py::test_axis_async_fifo[16-14-12] PASSED              [ 50%]
tests/test_runner.py::test_axis_async_fifo[64-60-48] PASSED              [100%]

============================== 2 passed in 104.77s (0:01:44) ===============
""", secs=105.0)
r.run("cd tb && make clean >/dev/null && make SIM=verilator 2>&1 | grep -E 'TESTS='", "** TESTS=6 PASS=6 FAIL=0 SKIP=0 **\n", secs=45.0)
r.run("git grep -n 'make -C tb' -- .gitlab-ci.yml README.md", """.gitlab-ci.yml:14:    - make -C tb SIM=verilator
README.md:9:Run the tests: `make -C tb SIM=verilator` (needs cocotb 1.9 and Verilator 5.024).
""")
r.patch([("update", CI, [("""    - pip install -r requirements.txt
    - make -C tb SIM=verilator
""", """    - pip install -r requirements.txt
    - pytest tests/test_runner.py -v --junitxml=report.xml
  artifacts:
    when: always
    reports:
      junit: report.xml
""")])])
r.files[".gitignore"] = "tb/sim_build/\ntb/results.xml\ntb/__pycache__/\n"
r.patch([("update", ".gitignore", [("tb/__pycache__/\n", "tb/__pycache__/\ntests/sim_build/\nreport.xml\n")])])
r.run("python3 -c \"import yaml; d = yaml.safe_load(open('.gitlab-ci.yml')); print(d['sim']['script'])\"", "['pip install -r requirements.txt', 'pytest tests/test_runner.py -v --junitxml=report.xml']\n")
r.say(
    "pytest runner done: tests/test_runner.py builds with `always=True` (fresh build every run, your rule), seed from `RANDOM_SEED` (default 42), parametrized (DEPTH, AF_LEVEL, PROG_FULL_THRESH) = (16, 14, 12) and (64, 60, 48): **2 passed in 104.77 s**. The Makefile still works (6/6). CI `sim` job now runs `pytest tests/test_runner.py -v --junitxml=report.xml` with the JUnit report as artifact; .gitignore has tests/sim_build/ and report.xml."
)

# =========================================================================== turn 6: reversal
r.user(
    "I talked with Zhang. They don't like the `unused_ok` wire, their Spyglass flow complain about it too, and reviewers confused. Therefore we change rule (b): lint_off pragma IS allowed now, but only for UNUSEDSIGNAL and only around the s_axis_tuser port, with a comment why. Remove the unused_ok wire."
)
r.patch([("update", FIFO, [("""    input  logic [USER_W-1:0] s_axis_tuser,
""", """    // s_axis_tuser stays in the port list for sl40g_top (connects by name) but is not stored
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [USER_W-1:0] s_axis_tuser,
    /* verilator lint_on UNUSEDSIGNAL */
"""), ("""
    // s_axis_tuser is kept for the sl40g_top port list but not stored (name matches Verilator's unused regexp)
    wire unused_ok = &{1'b0, s_axis_tuser};
""", "")])], reasoning="**Replacing unused_ok with a scoped lint_off**")
r.run("verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv && echo LINT-CLEAN", "LINT-CLEAN\n", secs=0.8)
r.run("grep -n 'lint_o' rtl/*.sv", """rtl/axis_async_fifo.sv:14:    /* verilator lint_off UNUSEDSIGNAL */
rtl/axis_async_fifo.sv:16:    /* verilator lint_on UNUSEDSIGNAL */
""")
r.run("pytest tests/test_runner.py -q 2>&1 | tail -2", "..                                                                       [100%]\n2 passed in 101.90s (0:01:41)\n", secs=102.0)
r.run("pytest tests/test_runner.py -q -k '64-60-48' 2>&1 | tail -1", "1 passed, 1 deselected in 58.12s\n", secs=58.5)
r.run("grep -rn 'unused' rtl/ || echo no-unused-left", "no-unused-left\n")
r.say("Done: `unused_ok` removed; `/* verilator lint_off UNUSEDSIGNAL */ ... lint_on` only around the s_axis_tuser port with the comment. Lint clean, pytest 2 passed.")

# =========================================================================== turn 7: more verification, CDC stress
r.user("Before commit, please stress the CDC more: clock ratios both directions (fast write slow read, and reverse), and more seeds. I want to see the almost_full never lies. Use seeds 1..20 on the DEPTH=16 case.")
r.patch([("update", TB, [("""@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_random_stream(dut):
    start_clocks(dut, 10, 7)""", """@cocotb.test(timeout_time=400, timeout_unit="us")
async def test_af_never_lies(dut):
    \"\"\"almost_full must be 1 whenever the true level (writes - reads) >= AF_LEVEL; it may stay high a few
    cycles longer after reads (the read pointer takes SYNC_STAGES s_clk to arrive) but never be low too early.\"\"\"
    s_ns, m_ns = (int(x) for x in os.environ.get("CLK_NS", "4,13").split(","))
    start_clocks(dut, s_ns, m_ns)
    await reset(dut)
    written = read = 0

    async def reader():
        nonlocal read
        while True:
            dut.m_axis_tready.value = random.random() < 0.3
            await RisingEdge(dut.m_clk)
            await ReadOnly()
            if dut.m_axis_tvalid.value and dut.m_axis_tready.value:
                read += 1

    cocotb.start_soon(reader())
    for _ in range(600):
        await push(dut, random.getrandbits(32))
        written += 1
        await ReadOnly()
        if written - read >= AF_LEVEL:
            assert dut.almost_full.value == 1, f"almost_full low at true level {written - read}"
        await RisingEdge(dut.s_clk)


@cocotb.test(timeout_time=200, timeout_unit="us")
async def test_random_stream(dut):
    start_clocks(dut, 10, 7)""")])])
r.run("cd tb && make clean >/dev/null && make SIM=verilator TESTCASE=test_af_never_lies RANDOM_SEED=1 2>&1 | grep -E 'TESTS=|Error|assert'", "** TESTS=1 PASS=1 FAIL=0 SKIP=0 **\n", secs=42.0)
FAILS = {13: "almost_full low at true level 14"}
for seed in range(2, 21):
    if seed in FAILS:
        r.run(f"cd tb && make SIM=verilator TESTCASE=test_af_never_lies RANDOM_SEED={seed} 2>&1 | grep -E 'TESTS=|AssertionError'", f"                                                        AssertionError: {FAILS[seed]}\n** TESTS=1 PASS=0 FAIL=1 SKIP=0 **\n", code=0, secs=9.5)
    else:
        r.run(f"cd tb && make SIM=verilator TESTCASE=test_af_never_lies RANDOM_SEED={seed} 2>&1 | grep -E 'TESTS=|AssertionError'", "** TESTS=1 PASS=1 FAIL=0 SKIP=0 **\n", secs=9.5)
r.say("Seed 13 fails: `almost_full low at true level 14` with write clock 4 ns / read clock 13 ns. The other 19 pass. Looking at seed 13 in detail.")
r.run("cd tb && make SIM=verilator TESTCASE=test_af_never_lies RANDOM_SEED=13 WAVES=1 2>&1 | grep -E 'AssertionError' ; fst2vcd sim_build/dump.fst -o /tmp/s13.vcd; grep -n 'AssertionError' results.xml | head -2", """                                                        AssertionError: almost_full low at true level 14
14:      <failure message="AssertionError: almost_full low at true level 14" />
""", secs=11.0)
r.run("python3 - <<'PY'\nfrom vcdvcd import VCDVCD\nv = VCDVCD('/tmp/s13.vcd')\nt_fail = max(t for t, x in v['TOP.axis_async_fifo.s_axis_tvalid'].tv if t < 10**9)\nfor s in ['wr_bin', 'rd_bin', 'rd_gray', 'rd_gray_s', 'rd_bin_s', 'level_w', 'almost_full']:\n    tv = [p for p in v['TOP.axis_async_fifo.' + s].tv if t_fail - 60 <= p[0] <= t_fail]\n    print(s, tv)\nPY", """wr_bin [(3268, '01101'), (3276, '01110')]
rd_bin [(3250, '00000'), (3263, '00001')]
rd_gray [(3250, '00000'), (3263, '00001')]
rd_gray_s [(3252, '00000'), (3272, '00001')]
rd_bin_s [(3252, '00000'), (3272, '00001')]
level_w [(3268, '01101'), (3272, '01100'), (3276, '01101')]
almost_full [(3268, '0')]
""", secs=2.8)
r.say(
    "Seed 13 is not an RTL bug: at 3276 ns wr_bin=14, the read side already read 1 (rd_bin=1 at 3263), so the **true** level is 13, but the test's `read` counter had not yet counted that beat... no wait, that would make the test think the level is *higher* (14) while the RTL says 13. The RTL is right: `read` in the test is incremented in the m_clk ReadOnly after the edge, and the check runs in s_clk ReadOnly; when both are in the same time step the order of coroutines decides. The test counts `read` one m_clk late relative to the RTL's rd_bin. The check is racy, not the FIFO.\n\n"
    "Fix in test: count a read when tvalid&tready is sampled *at* the edge (same ReadOnly the RTL uses) and allow the checker one m_clk of slack: compare against `written - read - 1`. Conservative, still catches an early-low almost_full by more than one beat."
)
r.patch([("update", TB, [("""        if written - read >= AF_LEVEL:
            assert dut.almost_full.value == 1, f"almost_full low at true level {written - read}\"""", """        # `read` can lag the RTL's rd_bin by one beat in the same time step (coroutine order), hence the -1
        if written - read - 1 >= AF_LEVEL:
            assert dut.almost_full.value == 1, f"almost_full low at true level {written - read}\"""")])])
r.run("cd tb && make clean >/dev/null && for s in $(seq 1 20); do printf 'seed %2d ' $s; make SIM=verilator TESTCASE=test_af_never_lies RANDOM_SEED=$s 2>&1 | grep -oE 'PASS=[0-9]+ FAIL=[0-9]+'; done", "\n".join(f"seed {s:2d} PASS=1 FAIL=0" for s in range(1, 21)) + "\n", secs=230.0)
for seed in range(1, 21):
    r.run(f"cd tb && CLK_NS=13,4 make SIM=verilator TESTCASE=test_af_never_lies RANDOM_SEED={seed} 2>&1 | grep -oE 'PASS=[0-9]+ FAIL=[0-9]+'", "PASS=1 FAIL=0\n", secs=11.5)
for seed in (1, 7, 13):
    r.run(f"cd tb && CLK_NS=4,4 make SIM=verilator TESTCASE=test_af_never_lies RANDOM_SEED={seed} 2>&1 | grep -oE 'PASS=[0-9]+ FAIL=[0-9]+'", "PASS=1 FAIL=0\n", secs=11.0)
r.say(
    "CDC stress result: test_af_never_lies (600 writes, reader tready 30 %) passes seeds 1..20 with write 4 ns / read 13 ns and with write 13 ns / read 4 ns (`CLK_NS=13,4`), plus equal clocks 4,4 for seeds 1, 7, 13. The seed-13 failure was a race in the test's read counter (fixed with one beat of slack), not the RTL."
)

# =========================================================================== turn 8: final checks, commit
r.user("OK. Run everything once more clean, then commit on branch fix/axis-fifo-af, message in English. Don't push, I want Chen Hao review the gray_sync change first, since it was his commit.")
r.run("verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv && echo LINT-CLEAN", "LINT-CLEAN\n", secs=0.8)
r.run("rm -rf tb/sim_build tests/sim_build && pytest tests/test_runner.py -v 2>&1 | tail -4", """tests/test_runner.py::test_axis_async_fifo[16-14-12] PASSED              [ 50%]
tests/test_runner.py::test_axis_async_fifo[64-60-48] PASSED              [100%]

============================== 2 passed in 131.06s (0:02:11) ===============
""", secs=131.5)
r.run("cd tb && make clean >/dev/null && make SIM=verilator 2>&1 | grep -E '\\*\\* test_|TESTS='", """** test_axis_async_fifo.test_reset_empty    PASS         104.00           0.01      9702.21  **
** test_axis_async_fifo.test_single_beat    PASS         153.00           0.01     10401.77  **
** test_axis_async_fifo.test_fill_to_full   PASS         551.00           0.03     17518.40  **
** test_axis_async_fifo.test_almost_full    PASS         646.00           0.04     17201.92  **
** test_axis_async_fifo.test_prog_full      PASS         686.00           0.04     17310.88  **
** test_axis_async_fifo.test_af_never_lies  PASS       21980.00           0.97     22659.79  **
** test_axis_async_fifo.test_random_stream  PASS       40546.00           1.55     26180.04  **
** TESTS=7 PASS=7 FAIL=0 SKIP=0 **
""", secs=58.0)
r.run("verilator --lint-only -Wall -Irtl -GSYNC_STAGES=3 rtl/axis_async_fifo.sv && echo LINT-CLEAN-S3", "LINT-CLEAN-S3\n", secs=0.8)
r.run("cd tb && make clean >/dev/null && make SIM=verilator EXTRA_ARGS='--timing -Wno-fatal -GSYNC_STAGES=3' 2>&1 | grep -E 'TESTS='", "** TESTS=7 PASS=7 FAIL=0 SKIP=0 **\n", secs=60.0)
r.run("git diff rtl/gray_sync.sv", """diff --git a/rtl/gray_sync.sv b/rtl/gray_sync.sv
index 5d1f0a2..8c3e9b4 100644
--- a/rtl/gray_sync.sv
+++ b/rtl/gray_sync.sv
@@ -14,7 +14,7 @@ module gray_sync #(
             for (int i = 0; i < STAGES; i++) ff[i] <= '0;
         end else begin
             ff[0] <= d;
-            for (int i = 1; i < STAGES - 1; i++) ff[i] <= ff[i-1];
+            for (int i = 1; i < STAGES; i++) ff[i] <= ff[i-1];
         end
     end
     assign q = ff[STAGES-1];
""")
r.run("git diff .gitlab-ci.yml .gitignore", """diff --git a/.gitignore b/.gitignore
--- a/.gitignore
+++ b/.gitignore
@@ -1,3 +1,5 @@
 tb/sim_build/
 tb/results.xml
 tb/__pycache__/
+tests/sim_build/
+report.xml
diff --git a/.gitlab-ci.yml b/.gitlab-ci.yml
--- a/.gitlab-ci.yml
+++ b/.gitlab-ci.yml
@@ -11,4 +11,8 @@ sim:
   script:
     - pip install -r requirements.txt
-    - make -C tb SIM=verilator
+    - pytest tests/test_runner.py -v --junitxml=report.xml
+  artifacts:
+    when: always
+    reports:
+      junit: report.xml
""")
r.run("git status --short", " M .gitignore\n M .gitlab-ci.yml\n M rtl/axis_async_fifo.sv\n M rtl/gray_sync.sv\n M tb/test_axis_async_fifo.py\n?? tests/\n")
r.run("git diff --stat", """ .gitignore                 |   2 +
 .gitlab-ci.yml             |   6 +-
 rtl/axis_async_fifo.sv     |  40 +++++++++---
 rtl/gray_sync.sv           |   2 +-
 tb/test_axis_async_fifo.py |  87 ++++++++++++++++------
 5 files changed, 104 insertions(+), 33 deletions(-)
""")
r.run("git switch -c fix/axis-fifo-af && git add -A && git commit -qm 'axis_async_fifo: fix almost_full level (gray->binary), registered prog_full, gray_sync loop bound; cocotb pytest runner' && git log --oneline -1", """Switched to a new branch 'fix/axis-fifo-af'
b7e52c9 axis_async_fifo: fix almost_full level (gray->binary), registered prog_full, gray_sync loop bound; cocotb pytest runner
""")
r.say(
    "Committed **b7e52c9** on new branch `fix/axis-fifo-af`, not pushed (Chen Hao should review the gray_sync.sv change, it reverts the loop bound of his 31d8e60).\n\n"
    "Final state: lint clean with `verilator --lint-only -Wall -Irtl rtl/axis_async_fifo.sv`; `pytest tests/test_runner.py` 2 passed (DEPTH 16 and 64); `make -C tb SIM=verilator` 7/7 pass. New port `prog_full` (registered, PROG_FULL_THRESH default 12); existing port names unchanged; AF_LEVEL default still 14."
)
r.user("Thanks. One more: write a short note to Zhang team what changed for them, I paste it in our chat. Short.")
r.say(
    "Note for Zhang team:\n\n"
    "axis_async_fifo (branch fix/axis-fifo-af, b7e52c9, in review):\n"
    "1. almost_full fixed: it was computed from a gray-coded read pointer and went high far too early. Now level = words written and not yet read; AF_LEVEL default still 14.\n"
    "2. New output `prog_full`, parameter PROG_FULL_THRESH (default 12), registered, so one s_clk later than almost_full.\n"
    "3. gray_sync: since 31d8e60 (3 June) the last synchronizer flop was never loaded; any build after that could not pass data. Please rebuild.\n"
    "4. Port names unchanged; s_axis_tuser still in the port list, not stored.\n"
    "5. DEPTH must be a power of two >= 4, AF_LEVEL and PROG_FULL_THRESH in 1..DEPTH (elaboration error otherwise)."
)

r.save(HERE / "session.jsonl")
