# ruff: noqa: E501
"""Labels for codex-fortran-porewater, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "porewater (2D sediment porewater diffusion, CN + ADI): variable-porosity MMS failure, SIGFPE on a non-square grid, faster y sweep, mass-balance drift; conservative form still open",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout5b test split",
    "voice": "a sediment geochemist: numbered points, numbers in every message (tolerances, grid sizes, timings), acceptance criteria stated as numbers",
    "toolchain": "modern Fortran (real64, iso_fortran_env), fpm 0.10.1, gfortran 13.2 (release/debug profiles, -fcheck=all, -ffpe-trap), test-drive, gprof",
}
COMPACTIONS = [
    ("`sweep_y` looped `j = 1, nx` instead of `ny`", 1000),
    ("Current state: 29.4-29.6 s per 1-day run", 1200),
    ("Back to the known-good state: all 9 tests pass", 1200),
]
FACTS = [
    f("f01", "request", "must", "(1) `fpm test` fails: the manufactured-solution test for variable porosity", "Fix the failing manufactured-solution (MMS) test for variable porosity, which broke after depth-dependent porosity phi(z) (0.80 at the surface to ~0.50 at 30 cm) was added.", [r"manufactured|\bMMS\b", r"porosity|phi"], "done"),
    f("f02", "request", "must", "(2) The real run on the Eckernförde Bay transect", "Fix the SIGFPE in the real run config/bay_400x300.nml (Eckernförde Bay transect); the old 300x300 grid ran fine.", [r"SIGFPE|400 ?x ?300|bay_400x300", r"crash|dies|SIGFPE|fix|run"], "done"),
    f("f03", "constraint", "must", "Please keep everything real64 via iso_fortran_env", "Everything stays real64 via iso_fortran_env and must compile cleanly with gfortran 13.2 on the cluster (module gcc/13.2.0).", [r"real64|iso_fortran_env|gfortran 13|13\.2", r"keep|compile|cluster|double|all"]),
    f("f04", "constraint", "should", "no new dependencies except test-drive which is only a dev-dependency", "No new dependencies; test-drive is only a dev-dependency.", [r"dependenc", r"test-drive|\bno\b|new"]),
    f("f05", "constraint", "should", "Boundary conditions: zero flux on all walls for now", "Boundary conditions: zero flux on all walls for now (Jonas is working on a boundary-condition branch).", [r"zero[- ]flux", r"walls?|bound"]),
    f("f06", "finding", "should", "The 1D failure is a discretisation bug, not a tolerance problem", "Cause of the MMS failure: cn_step_1d used the porosity of one neighbouring cell (phi(i-1), phi(i)) as the face value instead of the face mean, so the scheme was first order (observed 0.98); adi.f90 already used 0.5*(phi(i)+phi(i+1)). Fixed with the arithmetic face mean.", [r"face", r"mean|0\.5 ?\*|first order|0\.98"], "fixed"),
    f("f07", "value", "should", "With the face mean the scheme is second order again", "After the fix the MMS errors are 8.27e-5, 2.07e-5, 5.17e-6, 1.29e-6 at nx = 64, 128, 256, 512 (order 2.00); constant porosity gives 3.9e-6 at nx = 128.", [r"2\.07|8\.27|5\.17", r"order|error|nx"]),
    f("f08", "decision", "must", "Take (a): tolerance 5e-5 at nx = 128", "MMS variable-porosity tolerance raised to 5e-5 at nx = 128 (larger error constant, not a bug); the constant case keeps 1e-5.", [r"5e-5|5\.0+E-05|5 ?x ?10", r"toleran|nx ?= ?128|128"]),
    f("f09", "decision", "should", "keep the order test with the threshold 1.9", "Keep the convergence-order test with threshold 1.9 (it catches bugs like this one) and print the observed order on every run.", [r"order", r"1\.9"]),
    f("f10", "error", "should", "#4  0x5603b2e1f0a9 in __adi_MOD_sweep_y", "Release run: SIGFPE (floating-point exception) trapped in thomas at tridiag.f90:20 (zero pivot), but the salient frame in the middle of the backtrace is sweep_y at adi.f90:68; FPM_FFLAGS has -O3 -march=znver3 -ffpe-trap=invalid,zero,overflow.", [r"SIGFPE|floating[- ]point exception", r"sweep_y|thomas|tridiag|adi\.f90"], "fixed"),
    f("f11", "error", "should", "Fortran runtime error: Index '301' of dimension 2 of array 'phi' above upper bound of 300", "With the debug profile (-fcheck=all): Index '301' of dimension 2 of array 'phi' above upper bound of 300 at adi.f90:62.", [r"301|upper bound|bounds?", r"phi|adi|dimension|sweep_y"], "fixed"),
    f("f12", "fix", "must", "Found it: in `sweep_y` the inner loop runs", "Fix: sweep_y's inner loop ran j = 1, nx instead of ny (invisible on square grids); a new non_square_grid test (48 x 32) fails with the old line and passes now.", [r"sweep_y|loop", r"\bny\b|non[_ -]?square|48 ?x ?32"]),
    f("f13", "error", "nice", "Error: Function 'ieee_is_finite' at (1) has no IMPLICIT type", "Test compile error: ieee_is_finite has no IMPLICIT type; fixed with use ieee_arithmetic in the test.", [r"ieee_is_finite|ieee_arithmetic|IMPLICIT type"], "fixed"),
    f("f14", "value", "should", "The 400 x 300 bay run now completes", "The bay run (400 x 300, dx 2.5 mm, dy 1.0 mm, dt 0.5 s, 172800 steps = 1 day) took 41.2 s in the release profile before optimisation.", [r"41\.2", r"\bs\b|second|wall|run|time"]),
    f("f15", "constraint", "must", "I need a single 1-day run under 30 s on one core", "A 1-day run must take under 30 s on one core: the paper ensemble is 200 members (porosity and D_free perturbed) of 10 days (1728000 steps) each.", [r"30 ?s\b|30 seconds", r"under|below|target|<|one core|1-day"]),
    f("f16", "constraint", "must", "No OpenMP please", "No OpenMP or threads inside a member: the ensemble runs as a SLURM array, one member per core, 128 cores per node.", [r"OpenMP|thread", r"\bno\b|\bnot\b|without|SLURM|one core"]),
    f("f17", "finding", "should", "59% of the time is in `sweep_y`", "gprof: 59% of the time in sweep_y, 27% in sweep_x; sweep_y walked c(i, :) with stride nx (400 doubles) and made a temporary copy for thomas.", [r"59 ?%|stride", r"sweep_y|y sweep"]),
    f("f18", "decision", "should", "y sweep rewritten: **41.2 s → 29.6 s**", "sweep_y now runs the Thomas recurrence for all columns at once (j outer, i inner, contiguous, vectorised): 41.2 s -> ~29.5 s (29.3-29.9), fields identical to the old ones within 2.2e-16.", [r"29\.[3-9]|2\.2e-16", r"\bs\b|second|identical|diff|sweep"]),
    f("f19", "request", "should", "leave the precomputation for later", "Precomputing the face coefficients once per run (TODO in adi.f90) is left for later, after Jonas has merged his boundary-condition branch.", [r"precomput|face coefficients?", r"later|Jonas|TODO|after|open"], "open"),
    f("f20", "constraint", "must", "I want to keep the adi_step interface stable until Jonas has merged", "adi_step's interface must stay unchanged until Jonas has merged his boundary-condition branch (he calls adi_step directly); internal changes are fine.", [r"adi_step", r"interface|signature|unchanged|stable|Jonas"]),
    f("f21", "request", "must", "For the paper I need a diagnostic", "Mass-balance diagnostic: relative change of total solute mass (integral of phi*C) printed every output interval; acceptance criterion for the paper: conserved to 1e-12 relative over a 1-day zero-flux run.", [r"1e-12|1\.0E-12|10\^-12", r"mass|conserv|criterion"]),
    f("f22", "decision", "should", "I'll compute the total with compensated (Kahan–Neumaier) summation", "mass_total uses Neumaier (Kahan) compensated summation so the diagnostic's own rounding (~1e-13 with a plain sum over 120000 cells) does not pollute it.", [r"Kahan|Neumaier|compensated", r"sum|mass|diagnostic"]),
    f("f23", "finding", "must", "Interesting: with the compensated sum the 1-hour value drops to 2.5e-15", "With the compensated sum the drift is 2.5e-15 after 1 h but still 3.66e-12 after 1 day: real solver drift, so the 1e-12 criterion is not met.", [r"3\.66|3\.7e-12", r"day|drift|mass|criterion|1e-12"]),
    f("f24", "value", "should", "Confirmed linear: 3.7e-13, 7.4e-13, 1.8e-12, 3.7e-12", "Mass drift grows linearly with steps, about 2.1e-17 relative per step (3.7e-11 for a 10-day run).", [r"2\.1e-17|3\.7e-11", r"step|10-day|linear|per"]),
    f("f25", "decision", "must", "(a), definitely, reviewers in our field do look at this", "Fix the drift by solving for the conserved quantity u = phi*C (internals only, interface unchanged), in cn_step_1d as well, and the MMS order must stay second order.", [r"u ?= ?phi ?\*? ?C|phi ?\* ?C|conservative", r"1D|cn_step_1d|internal|order|solv|form"], synthesis=True),
    f("f26", "error", "should", "The x sweep in u form breaks `symmetric_gaussian`", "First attempt at the u = phi*C form in the 2D x sweep broke the symmetric_gaussian test (max error 6.0e-3 vs tolerance 1e-6); cause not found, only that hunk was reverted (not git checkout, which would have lost the uncommitted fixes).", [r"symmetric_gaussian|6\.0+E-03|6\.0e-3", r"break|broke|fail|revert"], "open"),
    f("f27", "finding", "nice", "No, the original was already implicit-only in each half-step", "The adi.f90 comment says Peaceman-Rachford, but the code is a locally one-dimensional splitting (implicit half-steps, rhs = C); the comment is inaccurate.", [r"Peaceman|locally one-dimensional", r"comment|inaccurate|not|implicit"]),
    f("f28", "state", "must", "Back to the known-good state: all 9 tests pass", "State at the end: all 9 tests pass, bay run ~29.7 s, drift 3.66e-12 per day; the conservative u = phi*C rewrite is not done. Next: do it in cn_step_1d first, check the MMS order test, then port to 2D.", [r"u ?= ?phi|conservative|u form", r"not done|next|1D|cn_step_1d|first"], "open"),
    f("f29", "value", "should", "Committed on branch `variable-porosity` (not pushed)", "Work is committed on branch variable-porosity (not pushed): 5c0b7e9 fixes, 1e6a2f4 NOTES.md with the numbers and open items, then b93d1c0.", [r"variable-porosity|5c0b7e9|1e6a2f4|b93d1c0"]),
    f("f30", "constraint", "should", "no internet there, so no fpm dependency fetching either", "The user continues offline on a ship: no fpm dependency fetching; test-drive v0.5.0 is already in build/dependencies, so keep the build/ folder.", [r"offline|internet|build/dependencies|ship", r"fetch|test-drive|build|internet|keep"]),
    f("f31", "value", "must", "so for the paper runs D_free must be 1.75e-9", "Paper runs need D_free = 1.75e-9 m2/s (sulfate at 6 °C bottom water in June); config/bay_400x300.nml keeps 1.96e-9 (10 °C) and must not be changed, the user makes a separate config.", [r"1\.75", r"D_free|diffusiv|6 ?°|config"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
