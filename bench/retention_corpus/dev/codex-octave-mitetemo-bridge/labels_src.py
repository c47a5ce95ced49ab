# ruff: noqa: E501
"""Labels for codex-octave-mitetemo-bridge, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "mitetemo (Octave/MATLAB footbridge accelerometer toolbox): bandpass normalised to Nyquist as a high/low-pass cascade, peak_freq via Welch PSD, spectrum plot dropped, CI fixed with MOxUnit + matlab-compat job; e52a9d1 pushed on fix/bandpass-nyquist",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout7b test split",
    "voice": "Kenyan-English structural engineer (Habari, Sawa, Asante sana, \"kindly\"), drops the plot request (\"forget the plot\")",
    "toolchain": "GNU Octave 8.4.0 + signal 1.4.5, MATLAB R2023b compatibility, MOxUnit 1.2.1, docker gnuoctave/octave:8.4.0, GitLab CI",
}
COMPACTIONS = [
    ("bandpass: 4/4 tests pass. Now peak_freq.", 1200),
    ("All 7 tests pass. On the real record FB07-Z", 1200),
    ("In the clean image: `package signal is not installed`", 1200),
]
FACTS = [
    f("m01", "request", "must", "the bandpass is giving us rubbish for the higher band", "Fix mitetemo.bandpass: the 12-15 Hz deck modes almost vanish after filtering (only the ~2 Hz first mode survives).", [r"bandpass", r"12|15|deck|higher band|rubbish|modes?"], "done"),
    f("m02", "request", "must", "Then I want a function peak_freq that gives the dominant frequency", "Add peak_freq returning the dominant frequency of a record.", [r"peak_freq", r"dominant|frequency"], "done"),
    f("m03", "request", "should", "and also a plot of the spectrum with the peak marked, for the monthly report", "Originally also a spectrum plot with the peak marked for the monthly report; later dropped (Grafana panel instead).", [r"plot|spectrum"], "reversed"),
    f("m04", "constraint", "must", "the code must run in both Octave 8.4 and MATLAB R2023b, my boss Otieno uses MATLAB", "Code must run in both Octave 8.4 and MATLAB R2023b (Otieno uses MATLAB): no Octave-only syntax (no # comments, no endfunction, no !=).", [r"MATLAB", r"Octave|R2023b|both"]),
    f("m05", "constraint", "must", "And only butter, filtfilt and pwelch from the signal toolbox", "Only butter, filtfilt and pwelch from the Signal Processing Toolbox (per-function MATLAB licence list; zp2sos and hamming not on it).", [r"butter|filtfilt|pwelch|licen[cs]e", r"only|licen[cs]e|zp2sos|hamming"]),
    f("m06", "value", "should", "Sampling rate of all our sensors is 200 Hz", "All sensors sample at 200 Hz.", [r"200 ?Hz|fs ?= ?200"]),
    f("m07", "finding", "must", "Measured gain, band [0.5 20] at fs 200", "Bug: butter(order, band/fs) normalised the corners to fs instead of Nyquist (fs/2), so [0.5 20] Hz was really ~[0.25 10] Hz: band edges at half the requested frequencies, killing the 12-15 Hz modes.", [r"Nyquist|fs ?/ ?2|band ?/ ?fs|half", r"corner|band|edge|normali"]),
    f("m08", "constraint", "should", "filtfilt squares the response, so at the corner we get 0.5 not 0.707", "filtfilt applies the filter twice: amplitude gain at a corner is 0.5, not 0.707; tests must expect that.", [r"0\.5|0\.707", r"filtfilt|corner|twice|square"]),
    f("m09", "request", "should", "Also the records have a DC offset from the sensor, sometimes 0.02", "Remove the sensor DC offset (up to ~0.02 m/s^2) in bandpass.", [r"DC|offset|mean", r"0\.02|remov|sensor"], "done"),
    f("m10", "command", "must", "moxunit_set_path; exit(~run_tests())\\\" 2>&1 | tail -3", "Tests: octave --no-gui --quiet --eval \"addpath('/opt/MOxUnit/MOxUnit'); moxunit_set_path; exit(~run_tests())\" (run_tests.m does pkg load signal in Octave); latest OK (passed=7).", [r"run_tests|moxunit", r"octave|passed|OK"]),
    f("m11", "error", "nice", "index (0.5,_): subscripts must be either integers 1 to (2^63)-1 or logicals", "test_corners_and_first_mode first errored 'index (0.5,_): subscripts must be either integers ...' from a loop indexing by frequency; rewritten with an explicit index k.", [r"index \(0\.5|subscripts|explicit index", r"loop|index|subscript"], "fixed"),
    f("m12", "finding", "should", "Found it. A pole radius of **0.9987**", "A single order-4 band-pass [b,a] with a 0.5 Hz corner at fs 200 is badly conditioned (pole radius 0.9987); SOS design (zp2sos) would fix it but is not licensed.", [r"0\.9987|condition|zp2sos|second-order", r"pole|condition|SOS|sections"]),
    f("m13", "decision", "must", "Go with (b) the cascade. Therefore the order means order of each of the two filters", "Decision: bandpass = Butterworth high-pass at f_lo cascaded with low-pass at f_hi (only butter + filtfilt); ORDER (default 4) is the order of each filter, documented in the help text.", [r"cascade|high-?pass.{0,40}low-?pass", r"order|each|butter"]),
    f("m14", "finding", "should", "Single pass gives exactly 0.7071 amplitude, as expected. filtfilt gives **0.4662 instead of 0.5000**", "Upper corner (20 Hz) measures 0.4662 with filtfilt although one pass is 0.7071 and freqz gives |H|^2 = 0.5000: a 7 % shortfall not explained.", [r"0\.4662|7 ?%", r"20 ?Hz|corner|filtfilt|unexplained|not (yet )?explained"]),
    f("m15", "decision", "should", "Sawa, that is honest, I like it. Do like that, and put a TODO with your numbers", "Test the low corner tightly (0.5 +- 0.03), the 20 Hz corner only loosely (0.4..0.6), 2.3 Hz > 0.98, with a TODO in tests/test_bandpass.m recording the numbers for someone to look at later.", [r"TODO", r"corner|0\.4662|numbers|loose"], "open"),
    f("m16", "path", "should", "function [f_peak, p_peak, f, pxx] = peak_freq(x, fs, search_band, nfft)", "+mitetemo/peak_freq.m: [f_peak, p_peak, f, pxx] = peak_freq(x, fs, search_band=[0.5 20], nfft=4096); Welch PSD with explicit Hamming window of nfft, 50 % overlap (Octave and MATLAB defaults differ), parabolic refine on log-PSD; tests/test_peak_freq.m has 3 tests.", [r"peak_freq", r"pwelch|Welch|Hamming|4096|parabol"]),
    f("m17", "error", "must", "operator -: nonconformant arguments (op1 is 1x24001, op2 is 24001x1)\n  error: called from\n      peak_freq at line 14", "Row-vector input failed 'operator -: nonconformant arguments (op1 is 1x24001, op2 is 24001x1)', really inside pwelch line 412 (MOxUnit's trace hid the frame): x was still a row.", [r"nonconformant|1x24001", r"row|pwelch|peak_freq"], "fixed"),
    f("m18", "fix", "should", "I'll make both functions do `x = x(:); x = x - mean(x);` in two statements", "Fix: make x a column and remove the mean in two statements (x = x(:); x = x - mean(x);) since in Octave 'x = x(:) - mean(x)' gave a 1xN result (not explained).", [r"x\(:\)", r"two statements|mean|column"]),
    f("m19", "value", "must", "dominant frequency 2.306 Hz", "Real record FB07-Z (Thika Road footbridge 7, 14 Mar 2026 02:00, 600 s, 120000 samples): dominant 2.306 Hz, second mode 6.874 Hz (4-10 Hz), deck mode 13.418 Hz (10-20 Hz), RMS 0.0094 m/s^2.", [r"2\.306|6\.874|13\.418"]),
    f("m20", "request", "must", "Ah wait, forget the plot.", "Forget the plot: the monthly report takes the PSD from Grafana (Otieno's team builds a panel); no plotting code in the toolbox, peak_freq just returns f and pxx.", [r"plot|Grafana", r"forget|no plot|drop|not|Grafana"]),
    f("m21", "request", "should", "But please add to the CI the tests, and check the MATLAB side somehow", "Add the tests to CI and check MATLAB compatibility somehow (no MATLAB on the machine).", [r"CI|MATLAB", r"test|compat|check"], "done"),
    f("m22", "finding", "should", "Careful: `hamming` is also Signal Toolbox in MATLAB!", "hamming (and possibly rms in the tests) are Signal Toolbox functions in MATLAB: replaced with the formula 0.54 - 0.46*cos(...) in peak_freq and sqrt(mean(v.^2)) in the tests.", [r"hamming|rms", r"formula|0\.54|sqrt\(mean|licen|Signal"]),
    f("m23", "finding", "must", "The CI job already runs the suite, but it can never have worked", "The existing CI test job could never have worked: the gnuoctave/octave:8.4.0 image has no /opt/MOxUnit and signal was downloaded every run.", [r"CI|pipeline", r"never|MOxUnit|red"]),
    f("m24", "error", "should", "In the clean image: `package signal is not installed`", "In the clean CI image 'package signal is not installed' (run_tests line 4): pkg prefix only sets the install dir; fixed by also setting pkg local_list .octave_pkg/octave_packages in both steps.", [r"signal is not installed|local_list", r"pkg|local_list|prefix"], "fixed"),
    f("m25", "path", "should", "CI fixed and checked in the same image", ".gitlab-ci.yml: matlab-compat lint job (grep for Octave-only syntax on alpine) + test job cloning MOxUnit 1.2.1, installing control + signal into cached .octave_pkg; .gitignore has .octave_pkg/.", [r"matlab-compat|\.octave_pkg|MOxUnit 1\.2\.1|1\.2\.1", r"CI|job|cache|grep"]),
    f("m26", "command", "should", "docker run --rm -v \\\"$PWD\\\":/w -w /w gnuoctave/octave:8.4.0 bash -c 'git clone -q --depth 1 -b 1.2.1 https://github.com/MOxUnit/MOxUnit.git /opt/MOxUnit && octave --no-gui --eval \\\"pkg prefix .octave_pkg .octave_pkg; pkg local_list", "CI check locally: docker run gnuoctave/octave:8.4.0 with MOxUnit 1.2.1 clone and pkg local_list .octave_pkg; latest OK (passed=7).", [r"docker|gnuoctave", r"8\.4\.0|MOxUnit|local_list"]),
    f("m27", "command", "nice", "printf\\\\(' +mitetemo/*.m tests/*.m run_tests.m; echo rc=$?", "Compat grep: grep -nE for '#', '!=', endfunction/endif/endfor/endwhile, ++, +=, printf( over +mitetemo, tests, run_tests.m; no hits (rc=1).", [r"grep", r"endfunction|!=|#|printf|compat"]),
    f("m28", "request", "should", "Commit please, one commit, branch fix/bandpass-nyquist", "One commit on branch fix/bandpass-nyquist; the message must say old bandpass results are wrong by a factor 2 at the band edges; push (user opens the MR from the web).", [r"fix/bandpass-nyquist|factor 2|half", r"commit|push|message"], "done"),
    f("m29", "state", "must", "Committed **e52a9d1** on `fix/bandpass-nyquist` and pushed", "Committed e52a9d1 on fix/bandpass-nyquist and pushed; message warns every earlier bandpass result had its band edges at half the requested frequencies.", [r"e52a9d1"]),
    f("m30", "state", "should", "Left open: the unexplained 7 % at the upper corner", "Open: the unexplained 7 % at the upper corner (TODO in tests) and the unexplained 'x = x(:) - mean(x)' shape result in Octave.", [r"7 ?%|x\(:\) - mean|upper corner", r"open|unexplained|TODO|not explained|avoided"]),
    f("m31", "value", "nice", "signal  |  1.4.5", "Local toolchain: GNU Octave 8.4.0, signal package 1.4.5, MOxUnit in /opt/MOxUnit.", [r"1\.4\.5|8\.4\.0"]),
    f("m32", "path", "should", "Fix: normalise to Nyquist. I also add a test", "tests/test_bandpass.m gained test_corners_and_first_mode and test_removes_dc (4 tests); +mitetemo/bandpass.m normalises to Nyquist and removes the mean.", [r"test_bandpass|test_corners|test_removes_dc|corner", r"Nyquist|test"]),
    f("m33", "fix", "should", "bandpass used band/fs instead of band/(fs/2)", "bandpass fix: corners divided by Nyquist (nyq = fs/2), mean removed, high-pass then low-pass with filtfilt.", [r"band ?/ ?\(fs ?/ ?2\)|nyq|Nyquist", r"bandpass|high|low|corner"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
