# ruff: noqa: E501
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout7b split.

A Kenyan-English structural-monitoring engineer has Codex fix the band-pass filter and add a
dominant-frequency estimate to mitetemo, a GNU Octave / MATLAB-compatible toolbox for footbridge
accelerometer data, with MOxUnit tests. A spectrum plot is asked for and then dropped ("forget the
plot"). Octave 8.4 + signal package, MATLAB R2023b compatibility, MOxUnit, GitLab CI.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/wanjiru/work/mitetemo"
r = Rollout(CWD, "2026-09-02T06:40:00", seed="mitetemo-peakfreq", repo_url="git@gitlab.kenha-shm.example:shm/mitetemo.git")

BP = "+mitetemo/bandpass.m"
RMS = "+mitetemo/rms_window.m"
PF = "+mitetemo/peak_freq.m"
TBP = "tests/test_bandpass.m"
TPF = "tests/test_peak_freq.m"
RUNT = "run_tests.m"
CI = ".gitlab-ci.yml"
OCT = "octave --no-gui --quiet --eval"

r.files.update({
    BP: """function y = bandpass(x, fs, band, order)
%BANDPASS Zero-phase Butterworth band-pass of accelerometer samples.
%   y = mitetemo.bandpass(x, fs, [f_lo f_hi], order)
if nargin < 4
    order = 4;
end
[b, a] = butter(order, band / fs, 'bandpass');
y = filtfilt(b, a, x);
end
""",
    RMS: """function r = rms_window(x, fs, win_s)
%RMS_WINDOW Running RMS over windows of win_s seconds (non-overlapping).
n = round(win_s * fs);
k = floor(numel(x) / n);
r = sqrt(mean(reshape(x(1:k*n), n, k) .^ 2, 1));
end
""",
    TBP: """function test_suite = test_bandpass
try
    test_functions = localfunctions();
catch
end
initTestSuite;
end

function test_passband_gain
fs = 200;
t = (0:1/fs:20)';
x = sin(2*pi*5*t);
y = mitetemo.bandpass(x, fs, [0.5 20]);
mid = 1000:3000;
assertElementsAlmostEqual(rms(y(mid)), rms(x(mid)), 'absolute', 1e-2);
end

function test_stopband
fs = 200;
t = (0:1/fs:20)';
x = sin(2*pi*50*t);
y = mitetemo.bandpass(x, fs, [0.5 20]);
assertTrue(rms(y(1000:3000)) < 0.05);
end
""",
    RUNT: """function ok = run_tests
%RUN_TESTS Run the MOxUnit suite (Octave and MATLAB).
if exist('OCTAVE_VERSION', 'builtin')
    pkg load signal
end
addpath(pwd);
addpath(fullfile(pwd, 'tests'));
ok = moxunit_runtests('tests', '-verbose');
end
""",
    CI: """test:
  image: gnuoctave/octave:8.4.0
  script:
    - octave --no-gui --eval "pkg install -forge signal" >/dev/null
    - octave --no-gui --eval "addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())"
""",
})

# ===================================================================== turn 1
r.user(
    "Habari. I need help with mitetemo, our toolbox for the accelerometers on the Thika Road footbridges. There is a problem: the bandpass is giving us rubbish for the higher band, the deck has modes around 12 to 15 Hz and after filtering they are almost gone, only the first mode around 2 Hz survives. Kindly check it. "
    "Then I want a function peak_freq that gives the dominant frequency of a record, and also a plot of the spectrum with the peak marked, for the monthly report. "
    "Note: the code must run in both Octave 8.4 and MATLAB R2023b, my boss Otieno uses MATLAB. So no Octave-only things, no # comments, no endfunction, no != . And only butter, filtfilt and pwelch from the signal toolbox, that is what our MATLAB licence has. Tests are MOxUnit. Sampling rate of all our sensors is 200 Hz."
)
r.run("ls -R | head -30; git log --oneline -5", """.:
+mitetemo
.gitlab-ci.yml
README.md
data
run_tests.m
tests

./+mitetemo:
bandpass.m
rms_window.m

./data:
fb07_2026-03-14_0200.csv
fb07_2026-03-14_0200.meta

./tests:
test_bandpass.m
b81f2c0 rms_window: non-overlapping windows
6d0e3a7 tests: moxunit suite
1a9f4e2 bandpass: zero phase
0c3d11b initial
""", reasoning="**Exploring the toolbox**")
r.cat(BP)
r.cat(TBP)
r.cat(RUNT)
r.cat(CI)
r.run("cat data/fb07_2026-03-14_0200.meta; head -3 data/fb07_2026-03-14_0200.csv; wc -l data/fb07_2026-03-14_0200.csv", """sensor=FB07-Z
location=Thika Road footbridge 7 (Roysambu), midspan, vertical
fs=200
units=m/s^2
start=2026-03-14T02:00:00+03:00
duration_s=600
t,acc
0.000,0.00312
0.005,0.00287
120001 data/fb07_2026-03-14_0200.csv
""")
r.run("octave --version | head -1; " + OCT + " \"pkg list signal\"; ls /opt/MOxUnit/MOxUnit | head -3", """GNU Octave, version 8.4.0
Package Name  | Version | Installation directory
--------------+---------+-----------------------
      signal  |  1.4.5  | /usr/share/octave/packages/signal-1.4.5
initTestSuite.m
moxunit_runtests.m
moxunit_set_path.m
""")
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"", """suite: 2 tests
test_passband_gain: passed (0.041 s)
test_stopband: passed (0.028 s)
--------------------------------------------------

OK (passed=2)
""", secs=3.2)
r.say(
    "First look. The tests pass (2/2) but they only check 5 Hz and 50 Hz, not the low band. And I see the bug, I think: `butter(order, band / fs, 'bandpass')`. Butterworth in both Octave and MATLAB wants the cut-off **normalised to Nyquist** (fs/2), not to fs. So [0.5 20]/200 gives [0.0025 0.1] which means 0.25–10 Hz actual... wait, that would keep 2 Hz. Let me measure instead of guessing."
)
r.run(OCT + " \"pkg load signal; addpath(pwd); fs=200; t=(0:1/fs:60)'; for f=[0.25 0.5 2 2.3 5 10 12 15 20], x=sin(2*pi*f*t); y=mitetemo.bandpass(x,fs,[0.5 20]); g=rms(y(2000:10000))/rms(x(2000:10000)); printf('%5.1f Hz  gain %.3f\\n', f, g); end\"", """  0.2 Hz  gain 0.498
  0.5 Hz  gain 0.941
  2.0 Hz  gain 1.000
  2.3 Hz  gain 1.000
  5.0 Hz  gain 0.998
 10.0 Hz  gain 0.501
 12.0 Hz  gain 0.221
 15.0 Hz  gain 0.063
 20.0 Hz  gain 0.004
""", secs=2.1)
r.say(
    "Measured gain, band [0.5 20] at fs 200: 0.25 Hz → 0.498, 2 Hz → 1.0, 10 Hz → 0.501, 12 Hz → 0.22, 15 Hz → 0.063, 20 Hz → 0.004. So the real pass band is about **0.25–10 Hz**, exactly half of what was asked: the corners land at band/2. Cause confirmed: `band / fs` must be `band / (fs/2)`. That is why your 12–15 Hz deck modes are almost gone while the 2 Hz mode survives; with filtfilt (applied twice) the effective order is 8, so above the (wrong) 10 Hz corner everything drops fast.\n\n"
    "Fix: normalise to Nyquist. I also add a test that checks the gain at the corners (−3 dB twice because of filtfilt → about 0.5 at the corners) and at 2.3 Hz."
)

# ===================================================================== turn 2
r.user("Eeh, that one has been there since last year! OK fix it. But careful, filtfilt squares the response, so at the corner we get 0.5 not 0.707, your test should know that. Also the records have a DC offset from the sensor, sometimes 0.02, make sure it is removed.")
r.patch([("update", BP, [("""[b, a] = butter(order, band / fs, 'bandpass');
y = filtfilt(b, a, x);""", """% butter wants corners normalised to Nyquist (fs/2), not to fs
[b, a] = butter(order, band / (fs / 2), 'bandpass');
x = x(:);
x = x - mean(x);   % sensor DC offset (up to ~0.02 m/s^2)
y = filtfilt(b, a, x);""")])], reasoning="**Normalising to Nyquist**")
r.patch([("update", TBP, [("""function test_stopband""", """function test_corners_and_first_mode
% filtfilt applies the filter twice: gain at a -3 dB corner is 0.707^2 = 0.5
fs = 200;
t = (0:1/fs:60)';
band = [0.5 20];
for f = [band 2.3]
    x = sin(2*pi*f*t);
    y = mitetemo.bandpass(x, fs, band);
    g(f == [band 2.3]) = rms(y(2000:10000)) / rms(x(2000:10000));
end
assertElementsAlmostEqual(g(1:2), [0.5 0.5], 'absolute', 0.03);
assertTrue(g(3) > 0.98);
end

function test_removes_dc
fs = 200;
t = (0:1/fs:20)';
x = 0.02 + sin(2*pi*3*t);
y = mitetemo.bandpass(x, fs, [0.5 20]);
assertTrue(abs(mean(y(1000:3000))) < 1e-3);
end

function test_stopband""")])])
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"", """suite: 4 tests
test_passband_gain: passed (0.040 s)
test_corners_and_first_mode: error (0.102 s)
  index (0.5,_): subscripts must be either integers 1 to (2^63)-1 or logicals
  error: called from
      test_bandpass>test_corners_and_first_mode at line 26 column 5
      moxunit_function_handle_test_case>run at line 54 column 13
      run at line 91 column 17
test_removes_dc: passed (0.031 s)
test_stopband: passed (0.029 s)
--------------------------------------------------

FAILED (passed=3, errors=1)
""", code=1, secs=3.6)
r.say("My test is wrong: `g(f == [band 2.3])` is fine logically but at line 26 it is indexing `g` before it exists with... no, the message is `index (0.5,_)`, so Octave parsed `g(f == [band 2.3])`... actually line 26 is `x = sin(2*pi*f*t)`? Let me see the line numbers rather than guess.")
r.run("sed -n '20,30p' tests/test_bandpass.m | cat -n", """     1	fs = 200;
     2	t = (0:1/fs:60)';
     3	band = [0.5 20];
     4	for f = [band 2.3]
     5	    x = sin(2*pi*f*t);
     6	    y = mitetemo.bandpass(x, fs, band);
     7	    g(f == [band 2.3]) = rms(y(2000:10000)) / rms(x(2000:10000));
     8	end
     9	assertElementsAlmostEqual(g(1:2), [0.5 0.5], 'absolute', 0.03);
    10	assertTrue(g(3) > 0.98);
""")
r.say("Line 26 is the `g(...)` assignment: `f` shadows nothing, but `rms` ... no — the variable `t` is fine. The actual problem: MOxUnit runs with `rms` from the signal package? The index `(0.5,_)` means something named like a variable is indexed with 0.5: `x(2000:10000)` no... `y = mitetemo.bandpass(...)` returns... I'll stop guessing: rewrite the loop with an explicit index, which is clearer anyway.")
r.patch([("update", TBP, [("""for f = [band 2.3]
    x = sin(2*pi*f*t);
    y = mitetemo.bandpass(x, fs, band);
    g(f == [band 2.3]) = rms(y(2000:10000)) / rms(x(2000:10000));
end""", """freqs = [band 2.3];
g = zeros(size(freqs));
for k = 1:numel(freqs)
    x = sin(2*pi*freqs(k)*t);
    y = mitetemo.bandpass(x, fs, band);
    g(k) = rms(y(2000:10000)) / rms(x(2000:10000));
end""")])])
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"", """suite: 4 tests
test_passband_gain: passed (0.039 s)
test_corners_and_first_mode: failure (0.096 s)
  inputs are not equal within absolute tolerance 0.03

  First input: 1x2 double
      0.5001    0.4522

  Second input: 1x2 double
      0.5000    0.5000

  error: called from
      assertElementsAlmostEqual at line 91 column 5
      test_bandpass>test_corners_and_first_mode at line 30 column 1
test_removes_dc: passed (0.031 s)
test_stopband: passed (0.029 s)
--------------------------------------------------

FAILED (passed=3, errors=0, failures=1)
""", code=1, secs=3.5)
r.say(
    "Progress: the low corner is now right (0.5001 at 0.5 Hz) and 2.3 Hz passes > 0.98. The **upper corner is 0.4522**, not 0.5. At 20 Hz with fs 200 the bilinear transform warps a bit (20 Hz is 0.2 of Nyquist); Octave's `butter` does not pre-warp for digital filters the way analog design would... it does pre-warp. Let me compare with a direct check of `freqz` to know if it is the filter or my test (the 2000:10000 window at 20 Hz is fine, many cycles)."
)
r.run(OCT + " \"pkg load signal; [b,a]=butter(4,[0.5 20]/100,'bandpass'); [h,w]=freqz(b,a,[0.5 20],200); disp(abs(h).^2)\"", """   0.5000   0.5000
""", secs=1.4)
r.say("freqz says exactly 0.5 at both corners, so the filter is right and my measurement at 20 Hz is off: `t = (0:1/fs:60)'` is a column but `x - mean(x)`... fine. Ahh, I see: 20 Hz sampled at 200 Hz is exactly 10 samples per cycle, and the *start* transient of filtfilt is mirrored; the RMS window 2000:10000 starts after 10 s, so no. Let me look at y directly.")
r.run(OCT + " \"pkg load signal; addpath(pwd); fs=200; t=(0:1/fs:60)'; x=sin(2*pi*20*t); y=mitetemo.bandpass(x,fs,[0.5 20]); printf('%d %d | %d %d\\n', size(x), size(y)); printf('%.4f\\n', rms(y(2000:10000))/rms(x(2000:10000)), max(abs(y(2000:10000))))\"", """12001 1 | 12001 1
0.4522
0.6724
""", secs=1.3)
r.run(OCT + " \"pkg load signal; fs=200; [b,a]=butter(4,[0.5 20]/100,'bandpass'); [h,~]=freqz(b,a,[19.9 20 20.1],200); disp(abs(h).^2); [b2,a2]=butter(4,[0.5 20]/100,'bandpass'); disp(max(abs(roots(a2))))\"", """   0.5118   0.5000   0.4883
   0.9987
""", secs=1.4)
r.say(
    "Found it. A pole radius of **0.9987**: the low corner at 0.5 Hz (0.005 of Nyquist) with order 4 band-pass (8 poles) makes a very narrow, badly conditioned [b, a] polynomial. freqz on the same [b, a] says 0.5, but filtering with the transfer-function form accumulates round-off, and the measured upper-corner gain is 0.452. The standard fix, and it works the same in MATLAB and Octave: design in **second-order sections** (`[z,p,k] = butter(...)`, `zp2sos`, then `filtfilt(sos, g, x)`).\n\n"
    "But: `zp2sos` is a Signal Toolbox function, and you said only butter, filtfilt and pwelch are licensed in MATLAB. Options: (a) ask Otieno if zp2sos is available (it is part of the same Signal Processing Toolbox, so if they have butter they have zp2sos); (b) split into a high-pass 0.5 Hz and a low-pass 20 Hz, each order 4, in cascade; each is well conditioned, uses only butter and filtfilt."
)

# ===================================================================== turn 3
r.user("The licence is per-function list from our procurement, don't ask me why, zp2sos is not on it. Go with (b) the cascade. Therefore the order means order of each of the two filters, write that in the help text.")
r.patch([("update", BP, [("""function y = bandpass(x, fs, band, order)
%BANDPASS Zero-phase Butterworth band-pass of accelerometer samples.
%   y = mitetemo.bandpass(x, fs, [f_lo f_hi], order)
if nargin < 4
    order = 4;
end
% butter wants corners normalised to Nyquist (fs/2), not to fs
[b, a] = butter(order, band / (fs / 2), 'bandpass');
x = x(:);
x = x - mean(x);   % sensor DC offset (up to ~0.02 m/s^2)
y = filtfilt(b, a, x);""", """function y = bandpass(x, fs, band, order)
%BANDPASS Zero-phase Butterworth band-pass of accelerometer samples.
%   y = mitetemo.bandpass(x, fs, [f_lo f_hi], order)
%   Implemented as a high-pass at f_lo cascaded with a low-pass at f_hi, each a
%   Butterworth of ORDER (default 4), applied with filtfilt (zero phase, gain 0.5
%   at each corner). A single band-pass [b, a] is badly conditioned for f_lo
%   near 0.5 Hz at fs = 200 Hz, and zp2sos is not on our MATLAB licence.
if nargin < 4
    order = 4;
end
nyq = fs / 2;   % butter wants corners normalised to Nyquist, not to fs
x = x(:);
x = x - mean(x);   % sensor DC offset (up to ~0.02 m/s^2)
[bh, ah] = butter(order, band(1) / nyq, 'high');
[bl, al] = butter(order, band(2) / nyq, 'low');
y = filtfilt(bl, al, filtfilt(bh, ah, x));""")])])
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"", """suite: 4 tests
test_passband_gain: passed (0.044 s)
test_corners_and_first_mode: failure (0.101 s)
  inputs are not equal within absolute tolerance 0.03

  First input: 1x2 double
      0.4981    0.4662

  Second input: 1x2 double
      0.5000    0.5000

  error: called from
      assertElementsAlmostEqual at line 91 column 5
      test_bandpass>test_corners_and_first_mode at line 30 column 1
test_removes_dc: passed (0.034 s)
test_stopband: passed (0.030 s)
--------------------------------------------------

FAILED (passed=3, errors=0, failures=1)
""", code=1, secs=3.6)
r.say("Still 0.466 at 20 Hz, so conditioning was not the whole story. With a cascade the two responses *overlap*: at 20 Hz the high-pass (0.5 Hz) contributes its own tiny loss, and — more important — at exactly 20 Hz, 10 samples per cycle, my RMS ratio over 2000:10000 (8001 samples, 800.1 cycles) is fine... Let me measure the cascade analytically with freqz of each stage to separate filter from measurement.")
r.run(OCT + " \"pkg load signal; fs=200; [bh,ah]=butter(4,0.5/100,'high'); [bl,al]=butter(4,20/100,'low'); f=[0.5 2.3 20]; hh=abs(freqz(bh,ah,f,fs)).^2; hl=abs(freqz(bl,al,f,fs)).^2; disp([hh; hl; hh.*hl])\"", """   0.5000   0.9998   1.0000
   1.0000   1.0000   0.5000
   0.5000   0.9998   0.5000
""", secs=1.3)
r.run(OCT + " \"pkg load signal; addpath(pwd); fs=200; t=(0:1/fs:60)'; x=sin(2*pi*20*t); y=mitetemo.bandpass(x,fs,[0.5 20]); for w={2000:10000, 2001:10000, 2000:10002, 3000:9000}, printf('%6d..%6d  %.4f\\n', w{1}(1), w{1}(end), rms(y(w{1}))/rms(x(w{1}))); end\"", """  2000..  10000  0.4662
  2001..  10000  0.4662
  2000..  10002  0.4662
  3000..  9000  0.4662
""", secs=1.5)
r.say(
    "Both stages are exactly 0.5 at their corner and the product is 0.5 at 20 Hz analytically, and the measurement is stable over windows (0.4662). So the difference is *amplitude* vs *power*: freqz gives |H|² = 0.5 per single pass, so one pass has amplitude gain 0.707, and **filtfilt applies it twice**, amplitude 0.707² = 0.5, power 0.25. My rms ratio is an amplitude ratio, so the expected corner value with filtfilt is **0.5 in amplitude**, which matches the low corner 0.498. The 20 Hz value 0.466 comes from the high-pass too: 0.9998 power... no, tiny. Hmm, 0.466 vs 0.5 is 7 %.\n\n"
    "I need to be honest: I don't fully understand the remaining 7 % at the top corner yet. The filter itself is right per freqz. I suspect filtfilt's edge padding (Octave's filtfilt pads 3·(nfilt−1) samples and uses a different initial-condition method from MATLAB's), but that only affects the ends, not the middle. Let me compare against an FFT-domain ideal to be sure."
)
r.run(OCT + " \"pkg load signal; fs=200; [bl,al]=butter(4,20/100,'low'); t=(0:1/fs:60)'; x=sin(2*pi*20*t); y1=filter(bl,al,x); y2=filtfilt(bl,al,x); printf('one pass %.4f  filtfilt %.4f  expected %.4f %.4f\\n', rms(y1(2000:10000))/rms(x(2000:10000)), rms(y2(2000:10000))/rms(x(2000:10000)), abs(freqz(bl,al,20,fs)), abs(freqz(bl,al,20,fs))^2)\"", """one pass 0.7071  filtfilt 0.4662  expected 0.7071 0.5000
""", secs=1.3)
r.run(OCT + " \"pkg load signal; which filtfilt; type filtfilt\" | sed -n '60,80p'", """'filtfilt' is a function from the file /usr/share/octave/packages/signal-1.4.5/filtfilt.m
  ## Filter the data once forward, then reverse and filter again.
  ## Compute initial conditions from the first values of the signal.
  lrefl = 3 * (max (length (a), length (b)) - 1);
  ...
  for (c = 1:columns (x))
    v = [2*x(1,c)-x((lrefl+1):-1:2,c); x(:,c); 2*x(end,c)-x((end-1):-1:end-lrefl,c)];
    v = filter (b, a, v, si*v(1));
    v = flipud (filter (b, a, flipud (v), si*v(end)));
    y(:,c) = v((lrefl+1):(lrefl+n));
  endfor
""")
r.say(
    "Single pass gives exactly 0.7071 amplitude, as expected. filtfilt gives **0.4662 instead of 0.5000**: that is a 20 Hz sine sampled at 200 Hz... the odd-reflection padding `2*x(1)-x(...)` is standard and MATLAB does the same. I could go on, but the top corner at 20 Hz is a guard above the 12–15 Hz deck modes, not a measurement. Proposal: test the **low corner** tightly (0.5 ± 0.03), test 2.3 Hz > 0.98, and for 20 Hz test only that it is between 0.4 and 0.6, with a comment that the 7 % is not yet explained. I don't want to hide it."
)

# ===================================================================== turn 4
r.user("Sawa, that is honest, I like it. Do like that, and put a TODO with your numbers so someone can look later. Let us move to peak_freq now, time is going.")
r.patch([("update", TBP, [("""assertElementsAlmostEqual(g(1:2), [0.5 0.5], 'absolute', 0.03);
assertTrue(g(3) > 0.98);""", """assertElementsAlmostEqual(g(1), 0.5, 'absolute', 0.03);
% TODO: upper corner measures 0.4662 with filtfilt (one pass 0.7071 = |H| as expected,
% freqz gives |H|^2 = 0.5000 at 20 Hz). The 7 % shortfall is not explained yet; the
% deck modes we report are below 15 Hz, so only a loose bound is checked here.
assertTrue(g(2) > 0.4 && g(2) < 0.6);
assertTrue(g(3) > 0.98);""")])])
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\" | tail -3", """--------------------------------------------------

OK (passed=4)
""", secs=3.4)
r.say("bandpass: 4/4 tests pass. Now peak_freq. Plan: Welch PSD with an explicit window so Octave and MATLAB agree (defaults differ: MATLAB pwelch uses 8 segments with 50 % overlap, Octave's signal pwelch defaults to a different segment length), then the max in a search band, refined by parabolic interpolation on the log-PSD. And the spectrum plot for the report.")
r.patch([("add", PF, """function [f_peak, p_peak, f, pxx] = peak_freq(x, fs, search_band, nfft)
%PEAK_FREQ Dominant frequency of an accelerometer record from its Welch PSD.
%   [f_peak, p_peak, f, pxx] = mitetemo.peak_freq(x, fs, [f_lo f_hi], nfft)
%   Hamming window of nfft samples (default 4096), 50 % overlap, same in Octave
%   and MATLAB (their pwelch defaults differ). The peak bin is refined with a
%   parabola through the log-PSD of its neighbours.
if nargin < 3 || isempty(search_band)
    search_band = [0.5 20];
end
if nargin < 4
    nfft = 4096;
end
x = x(:) - mean(x);
win = hamming(nfft);
[pxx, f] = pwelch(x, win, nfft / 2, nfft, fs);
in = find(f >= search_band(1) & f <= search_band(2));
[~, k] = max(pxx(in));
k = in(k);
if k > 1 && k < numel(pxx)
    l = log(pxx(k-1:k+1));
    d = 0.5 * (l(1) - l(3)) / (l(1) - 2*l(2) + l(3));
else
    d = 0;
end
df = f(2) - f(1);
f_peak = f(k) + d * df;
p_peak = pxx(k);
end
""")], reasoning="**Writing peak_freq with explicit Welch parameters**")
r.patch([("add", TPF, """function test_suite = test_peak_freq
try
    test_functions = localfunctions();
catch
end
initTestSuite;
end

function test_single_sine
fs = 200;
t = (0:1/fs:300)';
x = 0.01 * sin(2*pi*2.31*t) + 0.002 * randn(size(t));
assertElementsAlmostEqual(mitetemo.peak_freq(x, fs), 2.31, 'absolute', 0.01);
end

function test_search_band_ignores_strong_low_drift
fs = 200;
t = (0:1/fs:300)';
x = 0.05 * sin(2*pi*0.2*t) + 0.01 * sin(2*pi*4.7*t);
assertElementsAlmostEqual(mitetemo.peak_freq(x, fs, [1 20]), 4.7, 'absolute', 0.01);
end

function test_row_vector_input
fs = 200;
t = 0:1/fs:120;
x = sin(2*pi*6.1*t);
assertElementsAlmostEqual(mitetemo.peak_freq(x, fs), 6.1, 'absolute', 0.01);
end
""")])
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"", """suite: 7 tests
test_passband_gain: passed (0.041 s)
test_corners_and_first_mode: passed (0.099 s)
test_removes_dc: passed (0.032 s)
test_stopband: passed (0.029 s)
test_single_sine: passed (0.311 s)
test_search_band_ignores_strong_low_drift: passed (0.290 s)
test_row_vector_input: error (0.004 s)
  operator -: nonconformant arguments (op1 is 1x24001, op2 is 24001x1)
  error: called from
      peak_freq at line 14 column 3
      test_peak_freq>test_row_vector_input at line 29 column 1
      moxunit_function_handle_test_case>run at line 54 column 13
--------------------------------------------------

FAILED (passed=6, errors=1)
""", code=1, secs=5.1)
r.say("Row vector input: `nonconformant arguments (op1 is 1x24001, op2 is 24001x1)` at peak_freq line 14: `x(:) - mean(x)` — wait, mean of a row is a scalar. The 1x24001 is `x` ... no, `x(:)` is the column. Line 14 is `x = x(:) - mean(x);`... Octave counts lines including the help block; line 14 is actually... let me not guess, print it.")
r.run("sed -n '14p' +mitetemo/peak_freq.m", "x = x(:) - mean(x);\n")
r.run(OCT + " \"x = 0:0.5:2; y = x(:) - mean(x); disp(size(y)); z = x(:) - mean(x(:)); disp(size(z))\"", "   5   1\n   5   1\n")
r.say("That line works on its own with a row vector, so the error is not where the line number points. The stack says `peak_freq at line 14`, but pwelch's own call would appear *above* peak_freq in the trace; it doesn't. Hmm, `t = 0:1/fs:120` is 1x24001 — in the **test**, `x = sin(2*pi*6.1*t)` is a row, fine. Unless... the call `mitetemo.peak_freq(x, fs)` resolved to a stale copy. Checking which file Octave uses.")
r.run(OCT + " \"addpath(pwd); which mitetemo.peak_freq\"; ls -la +mitetemo/ ~/.octave_hist 2>/dev/null | head; find / -name 'peak_freq.m' -path '*mitetemo*' 2>/dev/null", """'mitetemo.peak_freq' is a function from the file /home/wanjiru/work/mitetemo/+mitetemo/peak_freq.m
total 20
drwxr-xr-x 2 wanjiru wanjiru 4096 Sep  2 10:12 .
drwxr-xr-x 6 wanjiru wanjiru 4096 Sep  2 09:58 ..
-rw-r--r-- 1 wanjiru wanjiru  912 Sep  2 10:06 bandpass.m
-rw-r--r-- 1 wanjiru wanjiru 1033 Sep  2 10:12 peak_freq.m
-rw-r--r-- 1 wanjiru wanjiru  191 Mar  4  2026 rms_window.m
/home/wanjiru/work/mitetemo/+mitetemo/peak_freq.m
/home/wanjiru/home/old/mitetemo/+mitetemo/peak_freq.m
""")
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; pkg load signal; addpath(pwd); dbstop if error; t=0:1/200:120; x=sin(2*pi*6.1*t); try, mitetemo.peak_freq(x, 200); catch e, disp(e.message); for s=e.stack', printf('%s:%d\\n', s.name, s.line); end, end\"", """operator -: nonconformant arguments (op1 is 1x24001, op2 is 24001x1)
pwelch:412
peak_freq:15
""", secs=1.8)
r.say(
    "With the full stack the real place shows up: **pwelch line 412**, called from peak_freq line 15. (MOxUnit's trace drops frames from packages, and Octave counted the line of the pwelch call one off.) Octave's pwelch (signal 1.4.5) fails when the *window* is a column and... no, `x` is a column after line 14. Look: op1 is 1x24001: pwelch got a row. Because line 14 reassigns `x`, but I wrote `x = x(:) - mean(x)` and then pass `x`... that is the column. Unless line 14 did not run: the `if nargin` blocks... OK here is the thing — in the test file, `test_row_vector_input` passes `t` as row, and `sin(2*pi*6.1*t)` is a row: the error message op1 1x24001 vs op2 24001x1 is inside pwelch, subtracting the mean of the **window-detrended** segment. Octave pwelch detrends with `x - mean(x)` over a row/column mix when x is a column and the window is a row? `hamming(nfft)` returns a column in both. I will simply test it in isolation."
)
r.run(OCT + " \"pkg load signal; x=randn(24001,1); w=hamming(4096); [p,f]=pwelch(x,w,2048,4096,200); disp(size(p)); x2=randn(1,24001); [p,f]=pwelch(x2(:)-mean(x2),w,2048,4096,200); disp(size(p)); [p,f]=pwelch(x2-mean(x2),w,2048,4096,200)\" 2>&1 | tail -4", """   2049      1
   2049      1
error: operator -: nonconformant arguments (op1 is 1x24001, op2 is 24001x1)
error: called from
""", secs=1.6)
r.say(
    "Reproduced in isolation: pwelch works for a column, fails for a row with that exact message. So inside peak_freq `x` must still be a row when pwelch sees it, meaning line 14 `x = x(:) - mean(x)` is not what runs... and then I saw it: the file I wrote has `x = x(:) - mean(x);` **before** `if nargin < 4` in the editor view, but the function signature line counts — anyway the file on disk is the one `which` reports. Let me print the lines around 12-16 with numbers."
)
r.run("cat -n +mitetemo/peak_freq.m | sed -n '9,17p'", """     9	    search_band = [0.5 20];
    10	end
    11	if nargin < 4
    12	    nfft = 4096;
    13	end
    14	x = x(:) - mean(x);
    15	win = hamming(nfft);
    16	[pxx, f] = pwelch(x, win, nfft / 2, nfft, fs);
""")
r.run(OCT + " \"x=0:0.5:2; x = x(:) - mean(x); disp(size(x)); y=0:0.5:2; m=mean(y); y = y(:) - m; disp(size(y))\"", "   1   5\n   5   1\n")
r.say(
    "There it is, and it is a real Octave/MATLAB difference worth knowing: in `x = x(:) - mean(x)` with a row `x`, Octave evaluates... the result is **1x5**, not 5x1. `x(:)` is 5x1, `mean(x)` of the row is a scalar, so it should broadcast to 5x1. Unless mean of the *column* is taken after x changed — no, the assignment happens last. The result 1x5 is surprising; I cannot explain it right now, and it does not matter: computing the mean separately gives the right 5x1. I'll make both functions do `x = x(:); x = x - mean(x);` in two statements, which is unambiguous in both Octave and MATLAB. bandpass already does it in two lines."
)
r.patch([("update", PF, [("""x = x(:) - mean(x);""", """x = x(:);            % column first, then remove the mean (two statements on purpose)
x = x - mean(x);""")])])
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"", """suite: 7 tests
test_passband_gain: passed (0.040 s)
test_corners_and_first_mode: passed (0.101 s)
test_removes_dc: passed (0.031 s)
test_stopband: passed (0.030 s)
test_single_sine: passed (0.309 s)
test_search_band_ignores_strong_low_drift: passed (0.288 s)
test_row_vector_input: passed (0.112 s)
--------------------------------------------------

OK (passed=7)
""", secs=5.0)
r.run(OCT + " \"pkg load signal; addpath(pwd); d=dlmread('data/fb07_2026-03-14_0200.csv', ',', 1, 0); x=d(:,2); y=mitetemo.bandpass(x,200,[0.5 20]); [fp,pp]=mitetemo.peak_freq(y,200,[1 10]); printf('samples %d  peak %.3f Hz  psd %.3g  rms %.4f\\n', numel(x), fp, pp, rms(y)); [fp2]=mitetemo.peak_freq(y,200,[4 10]); printf('second %.3f Hz\\n', fp2); printf('deck %.3f Hz\\n', mitetemo.peak_freq(y,200,[10 20]))\"", """samples 120000  peak 2.306 Hz  psd 4.18e-05  rms 0.0094
second 6.874 Hz
deck 13.418 Hz
""", secs=4.2)
r.say(
    "All 7 tests pass. On the real record FB07-Z (14 March 2026, 02:00, 600 s, 120000 samples), after bandpass [0.5 20]: **dominant frequency 2.306 Hz** (PSD 4.18e-05 (m/s²)²/Hz), RMS 0.0094 m/s²; searching 4–10 Hz gives a second mode at **6.874 Hz**, and 10–20 Hz a deck mode at **13.418 Hz** (now visible with the corrected band).\n\n"
    "Now the spectrum plot for the report: I would add `mitetemo.plot_spectrum(f, pxx, f_peak)` with semilogy and a marker; it needs to work headless in CI (`figure('visible','off')`, print to PNG)."
)

# ===================================================================== turn 5
r.user("Ah wait, forget the plot. Otieno says the monthly report will take the PSD from our Grafana now, they are building a panel. So no plotting code in the toolbox, just return f and pxx like you did. But please add to the CI the tests, and check the MATLAB side somehow, I don't want Otieno to find surprises.")
r.run("git status --short; git diff --stat", """ M +mitetemo/bandpass.m
 M tests/test_bandpass.m
?? +mitetemo/peak_freq.m
?? tests/test_peak_freq.m
""")
r.run("grep -nE '#|!=|endfunction|endif|endfor|\\+\\+|\\+=|printf\\(' +mitetemo/*.m tests/*.m run_tests.m", "")
r.run("which matlab mlint 2>/dev/null; ls /usr/local/MATLAB 2>/dev/null || echo no-matlab", "no-matlab\n")
r.say(
    "No MATLAB on this machine, so I cannot run it. What I checked for MATLAB compatibility instead: grep for Octave-only syntax (`#` comments, `!=`, `endfunction`/`endif`/`endfor`, `++`, `+=`, `printf`) over +mitetemo, tests and run_tests.m: **no hits**. Functions used: butter, filtfilt, pwelch, hamming, freqz only in my shell checks (not in the code). Careful: `hamming` is also Signal Toolbox in MATLAB! It is not on your list of three. I replace it with the formula `0.54 - 0.46*cos(2*pi*(0:n-1)'/(n-1))`, identical to MATLAB's symmetric hamming.\n\n"
    "Also the tests use `rms`, which in MATLAB R2023b is in core (since R2022a?) — I am not sure, in older MATLAB it was Signal Toolbox. I'll replace `rms` in the tests with `sqrt(mean(v.^2))` to be safe."
)
r.patch([("update", PF, [("""win = hamming(nfft);""", """win = 0.54 - 0.46 * cos(2*pi*(0:nfft-1)' / (nfft - 1));   % = hamming(nfft); hamming is not on our MATLAB licence""")])])
r.run("sed -i 's/\\brms(\\([^)]*\\))/sqrt(mean(\\1 .^ 2))/g' tests/test_bandpass.m && grep -n 'rms\\|sqrt(mean' tests/test_bandpass.m", """16:assertElementsAlmostEqual(sqrt(mean(y(mid) .^ 2)), sqrt(mean(x(mid) .^ 2)), 'absolute', 1e-2);
28:    g(k) = sqrt(mean(y(2000:10000) .^ 2)) / sqrt(mean(x(2000:10000) .^ 2));
52:assertTrue(sqrt(mean(y(1000:3000) .^ 2)) < 0.05);
""")
r.run(OCT + " \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\" 2>&1 | tail -3", """--------------------------------------------------

OK (passed=7)
""", secs=5.0)
r.run("cat .gitlab-ci.yml; git log -3 --format='%h %s' -- .gitlab-ci.yml", """test:
  image: gnuoctave/octave:8.4.0
  script:
    - octave --no-gui --eval "pkg install -forge signal" >/dev/null
    - octave --no-gui --eval "addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())"
6d0e3a7 tests: moxunit suite
""")
r.say(
    "The CI job already runs the suite, but it can never have worked: the gnuoctave/octave:8.4.0 image has no MOxUnit at /opt/MOxUnit (that path exists only on this machine), and `pkg install -forge signal` downloads on every run. Was the pipeline red all along? I'll fix the job: clone MOxUnit at a pinned tag, install signal once, and add a compatibility grep job so Octave-only syntax fails CI even without a MATLAB runner."
)
r.patch([("update", CI, [("""test:
  image: gnuoctave/octave:8.4.0
  script:
    - octave --no-gui --eval "pkg install -forge signal" >/dev/null
    - octave --no-gui --eval "addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())"
""", """stages: [lint, test]

matlab-compat:
  stage: lint
  image: alpine:3.20
  script:
    # Octave-only syntax that MATLAB R2023b rejects; the code must run in both
    - "! grep -nE '^[[:space:]]*#|!=|endfunction|endif|endfor|endwhile|\\\\+\\\\+|\\\\+=|printf\\\\(' +mitetemo/*.m tests/*.m run_tests.m"

test:
  stage: test
  image: gnuoctave/octave:8.4.0
  cache:
    key: octave-signal-1.4.5
    paths: [.octave_pkg/]
  before_script:
    - git clone --depth 1 -b 1.2.1 https://github.com/MOxUnit/MOxUnit.git /opt/MOxUnit
    - octave --no-gui --eval "pkg prefix .octave_pkg .octave_pkg; pkg install -forge control signal" >/dev/null
  script:
    - octave --no-gui --eval "pkg prefix .octave_pkg .octave_pkg; addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())"
""")])])
r.run("docker run --rm -v \"$PWD\":/w -w /w gnuoctave/octave:8.4.0 bash -c 'git clone -q --depth 1 -b 1.2.1 https://github.com/MOxUnit/MOxUnit.git /opt/MOxUnit && octave --no-gui --eval \"pkg prefix .octave_pkg .octave_pkg; pkg install -forge control signal\" >/dev/null 2>&1; octave --no-gui --eval \"pkg prefix .octave_pkg .octave_pkg; addpath(\\x27/opt/MOxUnit/MOxUnit\\x27); moxunit_set_path; exit(~run_tests())\"' 2>&1 | tail -14", """error: package signal is not installed
error: called from
    load_packages at line 47 column 7
    pkg at line 640 column 7
    run_tests at line 4 column 5
--------------------------------------------------
""", code=1, secs=212.0)
r.say("In the clean image: `package signal is not installed`, from run_tests line 4 (`pkg load signal`). The install step went to `.octave_pkg` but `pkg load` looks in the default local/global lists; `pkg prefix` sets where packages are installed, not the list file. Need `pkg local_list .octave_pkg/octave_packages` too, in both steps.")
r.patch([("update", CI, [("""    - octave --no-gui --eval "pkg prefix .octave_pkg .octave_pkg; pkg install -forge control signal" >/dev/null""", """    - octave --no-gui --eval "pkg prefix .octave_pkg .octave_pkg; pkg local_list .octave_pkg/octave_packages; pkg install -forge control signal" >/dev/null"""), ("""    - octave --no-gui --eval "pkg prefix .octave_pkg .octave_pkg; addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"""", """    - octave --no-gui --eval "pkg local_list .octave_pkg/octave_packages; addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\"""")])])
r.run("docker run --rm -v \"$PWD\":/w -w /w gnuoctave/octave:8.4.0 bash -c 'git clone -q --depth 1 -b 1.2.1 https://github.com/MOxUnit/MOxUnit.git /opt/MOxUnit && octave --no-gui --eval \"pkg prefix .octave_pkg .octave_pkg; pkg local_list .octave_pkg/octave_packages; pkg install -forge control signal\" >/dev/null 2>&1; octave --no-gui --eval \"pkg local_list .octave_pkg/octave_packages; addpath(\\x27/opt/MOxUnit/MOxUnit\\x27); moxunit_set_path; exit(~run_tests())\"' 2>&1 | tail -4", """test_row_vector_input: passed (0.120 s)
--------------------------------------------------

OK (passed=7)
""", secs=205.0)
r.run("grep -nE '^[[:space:]]*#|!=|endfunction|endif|endfor|endwhile|\\+\\+|\\+=|printf\\(' +mitetemo/*.m tests/*.m run_tests.m; echo rc=$?", "rc=1\n")
r.run("echo '.octave_pkg/' >> .gitignore 2>/dev/null || echo '.octave_pkg/' > .gitignore; cat .gitignore", ".octave_pkg/\n")
r.say(
    "CI fixed and checked in the same image (gnuoctave/octave:8.4.0): 7/7 pass after installing `control` + `signal` into a cached `.octave_pkg` with `pkg local_list`. New `matlab-compat` lint job fails on Octave-only syntax (grep finds nothing now, rc=1 means no hits). `.octave_pkg/` is in .gitignore. No plotting code, as you said: peak_freq returns `f` and `pxx` for Grafana or whoever."
)

# ===================================================================== turn 6
r.user("Asante sana. Commit please, one commit, branch fix/bandpass-nyquist, and write in the message that old results from bandpass are wrong by factor 2 in the band edges, people must know. Push it too, I will do MR from web.")
r.run("git switch -c fix/bandpass-nyquist && git add -A && git commit -q -F - <<'MSG'\nbandpass: normalise corners to Nyquist; add peak_freq; fix CI\n\nbandpass used band/fs instead of band/(fs/2): every result filtered with\nmitetemo.bandpass before this commit had its band edges at HALF the\nrequested frequencies (e.g. [0.5 20] Hz was really about [0.25 10] Hz).\nRe-run any analysis that used it.\n\n- bandpass: high-pass + low-pass cascade (each ORDER), DC removed\n- peak_freq: Welch PSD, explicit Hamming 4096 / 50 %, parabolic refine\n- tests: corners, DC, peak_freq (7 MOxUnit tests)\n- CI: MOxUnit 1.2.1, signal from cache, matlab-compat syntax job\nMSG\ngit log --oneline -1 && git push -u origin fix/bandpass-nyquist 2>&1 | tail -4", """Switched to a new branch 'fix/bandpass-nyquist'
e52a9d1 bandpass: normalise corners to Nyquist; add peak_freq; fix CI
remote:
remote: To create a merge request for fix/bandpass-nyquist, visit:
remote:   https://gitlab.kenha-shm.example/shm/mitetemo/-/merge_requests/new?merge_request%5Bsource_branch%5D=fix/bandpass-nyquist
branch 'fix/bandpass-nyquist' set up to track 'origin/fix/bandpass-nyquist'.
""")
r.say(
    "Committed **e52a9d1** on `fix/bandpass-nyquist` and pushed; the MR link is in the output. The message says clearly that every earlier bandpass result had its band edges at half the requested frequencies ([0.5 20] was really about [0.25 10] Hz) and must be re-run.\n\n"
    "Left open: the unexplained 7 % at the upper corner (TODO in tests/test_bandpass.m with the numbers), and the odd `x = x(:) - mean(x)` shape result in Octave, which I avoided rather than explained."
)

r.save(HERE / "session.jsonl")
