# ruff: noqa: E501
"""Labels for pi-julia-tidewell-harmonics, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "Tidewell.jl (tidal harmonics): predict 3x slower from an abstract Constituent field, Aqua.jl and JET.jl checks, a Julia 1.10-only test failure",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the round-4 held-out split (heldout4b)",
    "voice": "terse, lower-case, one instruction a line; says never mind to its own request; small talk",
    "toolchain": "Julia 1.10 / 1.11 (juliaup), Pkg.test, Aqua.jl 0.8, JET.jl 0.9, BenchmarkTools, @code_warntype, gh CLI",
}
COMPACTIONS = [
    ("Aqua is green now: Printf removed", 3000),
    ("Yes: `TideModel(station, offset, Vector{Any})` still works", 3000),
    ("Committed e5b27c9 on main, no tag.", 3000),
]
FACTS = [
    f("j01", "request", "must", "tidewell predict got slow, like 3x vs 0.4", "Find why predict got about 3x slower than 0.4 (fixed in this session).", [r"predict", r"slow|3 ?x|3\.\d ?x|regress|faster"], "done"),
    f("j02", "constraint", "must", "public api stays as is: predict, Constituent, TideModel", "The public API stays as it is (predict, Constituent, TideModel, highs_and_lows): harbourwatch calls them.", [r"\bAPI\b|signature|harbourwatch", r"predict|Constituent|TideModel|highs_and_lows"]),
    f("j03", "constraint", "must", "julia compat stays 1.10, dont bump it", "Julia compat stays 1.10; do not bump it.", [r"compat|minimum|bump", r"1\.10"]),
    f("j04", "constraint", "must", "no new runtime deps. test-only deps fine", "No new runtime dependencies; test-only dependencies are fine.", [r"runtime", r"dep", r"\bno\b|\bnot\b|only|avoid"]),
    f("j05", "finding", "must", "Found it. In the `@code_warntype` output", "Cause of the slowdown: `struct Constituent` had `speed::Real` (abstract field, from commit 2f0c5b3), so the predict loop was type-unstable (::Any, boxing).", [r"speed", r"::Real|abstract|\bReal\b", r"unstable|instabil|::Any|\bAny\b|box"]),
    f("j06", "value", "should", "Numbers: main takes 14.212 ms with 43803 allocations", "Benchmark (Bergen, a year hourly): main 14.212 ms / 43803 allocations vs v0.4.2 4.611 ms / 3 allocations (~3.1x).", [r"14\.2|43803|4\.61", r"ms|alloc"]),
    f("j07", "decision", "must", "1. Float64 everywhere, no parametric", "Decision: make `speed` a Float64 again (converting constructor), not a parametric Constituent.", [r"Float64", r"speed|field|Constituent|parametric"]),
    f("j08", "constraint", "must", "keep Constituent(name, amp, phase) 3-arg working", "Keep the 3-argument Constituent(name, amp, phase) working; harbourwatch uses it a lot.", [r"3-arg|three-arg|3 arg|\(name, ?amp(litude)?, ?phase\)", r"Constituent|keep|work"]),
    f("j09", "request", "should", "never mind the precompile thing, drop it", "PrecompileTools workload for predict: asked for, then dropped (never mind) because it would be a new runtime dep. Not pending.", [r"precompil", r"drop|never mind|\bnot\b|skip|cancel|withdr"], "reversed"),
    f("j10", "fix", "should", "Back to 4.402 ms and 3 allocations", "Fix: speed::Float64 with an inner constructor converting any Real; Bergen bench 4.402 ms, 3 allocations.", [r"4\.40|3 allocations", r"ms|alloc|speed|Float64"]),
    f("j11", "request", "must", "add Aqua tests instead, test deps only", "Add Aqua.jl tests, as a test-only dependency (test/test_aqua.jl, done).", [r"Aqua", r"test"], "done"),
    f("j12", "error", "should", "does not declare a compat entry for the following deps", "Aqua failures (9/11): Printf is a stale dependency, StaticArrays has no [compat] entry.", [r"Printf|StaticArrays", r"stale|compat"], "fixed"),
    f("j13", "fix", "should", "Aqua is green now: Printf removed", "Fix: Printf removed from [deps]; StaticArrays compat added; julia compat left at 1.10.", [r"Printf|StaticArrays", r"remov|compat|1\.5"]),
    f("j14", "decision", "nice", "1.5 for StaticArrays was a guess", "StaticArrays compat bound is 1.5 (oldest that works), kept after the user agreed.", [r"StaticArrays", r"1\.5"]),
    f("j15", "error", "must", "no matching method found `getindex(::Vector{Float64}, ::Nothing)`", "JET: nodal_correction (src/nodal.jl) indexes f[nothing] when findfirst finds no nodal entry: MethodError for any custom constituent, including harbourwatch's MK3 and 2MS6.", [r"nothing", r"nodal_correction|findfirst|getindex|nodal"], "fixed"),
    f("j16", "fix", "must", "JET is clean now (`No errors detected`)", "Fix: constituents without a nodal entry get no nodal correction (f=1, u=0) instead of a MethodError; schureman got an else branch. JET clean.", [r"nodal|schureman", r"no (nodal )?correction|f ?= ?1|1\.0, ?0\.0|else|without|custom"]),
    f("j17", "error", "nice", "local variable `f` may be undefined", "JET: in schureman (src/astro.jl) f and u may be undefined when no branch matches.", [r"schureman|astro", r"undefined|else|branch"], "fixed"),
    f("j18", "decision", "must", "jet only on 1.11, skip on 1.10", "JET checks run on Julia 1.11 only, skipped on 1.10.", [r"JET", r"1\.11", r"only|skip"]),
    f("j19", "fix", "should", "Even with the runtime skip, 1.10 can't resolve", "JET is not in test/Project.toml (1.10 cannot resolve JET 0.9); test_jet.jl adds it in a temporary env on 1.11.", [r"JET", r"temp|Project\.toml|resolve"]),
    f("j20", "error", "must", "On 1.10.7 one assertion fails that passes on 1.11", "Open: on Julia 1.10 test/test_predict.jl:10 fails, h[1] = 1.2345795 vs 1.2345812 with atol 1e-6 (passes on 1.11).", [r"1\.10", r"test_predict|1\.2345795|1\.2345812|atol"], "open"),
    f("j21", "finding", "should", "On 1.10.7 one assertion fails that passes on 1.11", "The 1.10 failure also happens on a clean main: it predates this session's changes.", [r"1\.10", r"clean main|predat|not from|already|before|stash"]),
    f("j22", "constraint", "must", "look into it but dont just loosen atol", "Do not just loosen atol; find the reason for the 1.10 failure.", [r"atol|toleranc", r"loosen|widen|relax|\bnot\b|don"]),
    f("j23", "constraint", "must", "can we avoid breaking their TideModel(station, offset, Vector{Any}) call", "Don't break harbourwatch's TideModel(station, offset, Vector{Any}) call (they build the vector from JSON).", [r"Vector\{Any\}|Any\[|Vector of Any", r"TideModel|harbourwatch"]),
    f("j24", "finding", "should", "Yes: `TideModel(station, offset, Vector{Any})` still works", "TideModel with a Vector{Any} still works (converts to Vector{Constituent}); a regression test for harbourwatch's call was added.", [r"Vector\{Any\}|\bAny\b", r"test|convert|works"]),
    f("j25", "value", "nice", "`highs_and_lows` for a month at 6-minute steps", "Sweep: no other abstract fields; @inferred passes; highs_and_lows for a month takes 612.880 μs, 19 allocations.", [r"612|inferred|abstract", r"highs_and_lows|sweep|μs|field"]),
    f("j26", "constraint", "should", "look but dont change anything there, kari owns ci", "Don't change the CI workflow: Kari owns CI.", [r"\bCI\b|\.yml|workflow", r"kari|don.?t|\bnot\b|owns|untouched"]),
    f("j27", "finding", "should", "Side finding from `gh run list`", "CI's 1.10 job already failed once with the same test_predict.jl:10 mismatch (run 12871530921, on 2f0c5b3); intermittent in CI.", [r"12871530921|2f0c5b3|intermittent|already failed", r"1\.10|fail"]),
    f("j28", "value", "should", "A year of hourly values, before → after", "Four-station benchmark: Bergen 14.212→4.402 ms, Tromsø 22.904→6.981, Stavanger 11.377→3.530, Narvik 25.610→7.840; 3.2-3.3x, 3 allocations.", [r"Tromsø|Tromso|Narvik|Stavanger|6\.981|7\.840|3\.53", r"ms|\dx|faster"]),
    f("j29", "finding", "nice", "Stable: 56-57 s for the whole suite", "Suite takes 56-57 s; most of Aqua's time is test_ambiguities (26.8 s compilation), not flaky.", [r"ambigu|26\.8|5[67] ?s", r"aqua|suite|flak|stable"]),
    f("j30", "request", "should", "changelog + bump to 0.5.2", "CHANGELOG entry and version bump to 0.5.2 (done).", [r"0\.5\.2", r"changelog|bump|version"], "done"),
    f("j31", "request", "should", "update docs/src/index.md example to show a custom constituent", "Later: update the docs/src/index.md example to show a custom constituent (not done).", [r"docs|index\.md", r"custom|example"], "open"),
    f("j32", "value", "must", "Committed e5b27c9 on main, no tag.", "Committed e5b27c9 on main, not tagged.", [r"e5b27c9"]),
    f("j33", "constraint", "must", "commit, dont tag yet. tag after 1.10 thing is fixed", "Don't tag v0.5.2 until the Julia 1.10 failure is fixed.", [r"\btag", r"1\.10|until|after|not yet|don|no tag"]),
    f("j34", "finding", "must", "That's the culprit: on 1.10.7", "The 1.7e-6 gap is the K1 term: on 1.10.7 cosd(-153.407722817) differs from cosd(153.407722817) (1.11 is right); a cosd bug for negative degrees on 1.10.", [r"cosd", r"negative|-153|1\.10|K1"]),
    f("j35", "constraint", "must", "dont patch around julia bugs in predict without asking", "Don't patch around Julia bugs in predict (e.g. cosd(mod(x,360))) without asking; find the upstream Julia issue first. User checks tomorrow.", [r"patch|workaround|work around|mod\(", r"ask|without|issue|upstream"]),
    f("j36", "state", "must", "- Open: the 1.10-only failure at test_predict.jl:10", "Open at the end: 1.10-only failure at test_predict.jl:10, traced to cosd of a negative argument; no upstream issue found, nothing patched.", [r"1\.10", r"open|not found|still|nothing patched", r"cosd|test_predict"]),
    f("j37", "finding", "nice", "There is one: `sind(300.9076628141521)` differs", "sind(300.9076628141521) differs in the last bit between 1.10 and 1.11, too small (1e-16) to explain the failure.", [r"sind", r"last bit|too small|1e-16"]),
    f("j38", "finding", "nice", "Only `predict` reads `c.speed`", "Only predict reads c.speed; harbourwatch passes Float64 speeds for custom constituents (MK3, 2MS6) and has compat Tidewell = \"0.5\".", [r"harbourwatch", r"MK3|2MS6|compat|custom"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
