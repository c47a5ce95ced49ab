# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a pi v3 session written by hand for a held-out split.

A terse, lower-case user has the agent find why Tidewell.jl's `predict` got ~3x slower (a
`Constituent` struct with an abstract `speed::Real` field), make the struct parametric, add Aqua.jl
and JET.jl checks, and chase a Julia 1.10-only tolerance failure that is still open at the end.
Long Pkg.test logs, MethodError and JET traces with the salient line in the middle; most calls are
routine reads, greps and repeated test runs.
Run: python make_session.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/ola/code/Tidewell.jl"
s = PiSession(CWD, "2026-03-04T08:12:00", seed="tidewell-harmonics")

PROJECT = '''name = "Tidewell"
uuid = "6a3e1f52-90b1-4c7e-8d2f-3b5a71c0e944"
authors = ["Ola Nygaard <ola@tidewell.dev>"]
version = "0.5.1"

[deps]
Dates = "ade2ca70-3891-5945-98fb-dc099432e06a"
LinearAlgebra = "37e2e46d-f89d-539d-b4ee-838fcccc9c8e"
Printf = "de0858da-6303-5e67-8744-51eddeeeb8d7"
StaticArrays = "90137ffa-7385-5640-81b9-e52037218182"

[compat]
julia = "1.10"
'''
TESTPROJECT = '''[deps]
Dates = "ade2ca70-3891-5945-98fb-dc099432e06a"
Test = "8dfed614-e22c-5e08-85e1-65c5234f0b40"
'''
MAIN = '''module Tidewell

using Dates
using LinearAlgebra
using StaticArrays

export Constituent, TideModel, predict, highs_and_lows

include("astro.jl")
include("constituents.jl")
include("nodal.jl")
include("predict.jl")
include("extrema.jl")

end # module
'''
CONST = '''"""
    Constituent(name, amplitude, phase, speed)

One harmonic constituent: amplitude in metres, phase (Greenwich epoch) in degrees,
speed in degrees per hour.
"""
struct Constituent
    name::String
    amplitude::Float64
    phase::Float64
    speed::Real
end

Constituent(name::AbstractString, amplitude, phase) =
    Constituent(String(name), amplitude, phase, standard_speed(name))

const STANDARD_SPEEDS = Dict(
    "M2" => 28.9841042, "S2" => 30.0, "N2" => 28.4397295, "K2" => 30.0821373,
    "K1" => 15.0410686, "O1" => 13.9430356, "P1" => 14.9589314, "Q1" => 13.3986609,
    "M4" => 57.9682084, "MS4" => 58.9841042, "M6" => 86.9523127, "SA" => 0.0410686,
)

standard_speed(name) = get(STANDARD_SPEEDS, uppercase(name)) do
    throw(ArgumentError("unknown constituent $(name); pass the speed explicitly"))
end

struct TideModel
    station::String
    datum_offset::Float64
    constituents::Vector{Constituent}
end
'''
NODAL = '''# Nodal corrections (f, u) per constituent, Schureman's tables.
const NODAL_NAMES = ["M2", "S2", "N2", "K2", "K1", "O1", "P1", "Q1", "M4", "MS4", "M6", "SA"]

function nodal_factors(t::DateTime)
    N = lunar_node_longitude(t)
    f = zeros(length(NODAL_NAMES))
    u = zeros(length(NODAL_NAMES))
    for (i, name) in enumerate(NODAL_NAMES)
        f[i], u[i] = schureman(name, N)
    end
    return f, u
end

function nodal_correction(c, f, u)
    i = findfirst(==(uppercase(c.name)), NODAL_NAMES)
    return f[i], u[i] + 0.0
end
'''
PREDICT = '''"""
    predict(model, times) -> Vector{Float64}

Water level (metres above chart datum) at each time.
"""
function predict(model::TideModel, times::AbstractVector{DateTime})
    f, u = nodal_factors(times[1])
    epoch = DateTime(year(times[1]))
    out = Vector{Float64}(undef, length(times))
    for (k, t) in enumerate(times)
        hours = (t - epoch) / Hour(1)
        h = model.datum_offset
        for c in model.constituents
            fc, uc = nodal_correction(c, f, u)
            h += fc * c.amplitude * cosd(c.speed * hours + uc - c.phase)
        end
        out[k] = h
    end
    return out
end
'''
ASTRO = '''# Astronomical arguments (degrees), Meeus ch. 47 simplified.
function lunar_node_longitude(t::DateTime)
    T = (datetime2julian(t) - 2451545.0) / 36525
    return mod(125.04452 - 1934.136261 * T, 360)
end

function schureman(name, N)
    if name in ("M2", "N2", "M4", "MS4", "M6")
        f = 1.0004 - 0.0373 * cosd(N) + 0.0002 * cosd(2N)
        u = -2.14 * sind(N)
    elseif name in ("K1",)
        f = 1.0060 + 0.1150 * cosd(N) - 0.0088 * cosd(2N)
        u = -8.86 * sind(N) + 0.68 * sind(2N)
    elseif name in ("O1", "Q1")
        f = 1.0089 + 0.1871 * cosd(N) - 0.0147 * cosd(2N)
        u = 10.80 * sind(N) - 1.34 * sind(2N)
    elseif name == "K2"
        f = 1.0241 + 0.2863 * cosd(N) + 0.0083 * cosd(2N)
        u = -17.74 * sind(N) + 0.68 * sind(2N)
    elseif name in ("S2", "P1", "SA")
        f, u = 1.0, 0.0
    end
    return f, u
end
'''
EXTREMA = '''"""
    highs_and_lows(model, from, to; step=Minute(6))

Times and heights of high and low water between `from` and `to`.
"""
function highs_and_lows(model::TideModel, from::DateTime, to::DateTime; step=Minute(6))
    ts = collect(from:step:to)
    h = predict(model, ts)
    out = Tuple{DateTime,Float64,Symbol}[]
    for i in 2:length(h)-1
        if h[i] > h[i-1] && h[i] >= h[i+1]
            push!(out, (ts[i], h[i], :high))
        elseif h[i] < h[i-1] && h[i] <= h[i+1]
            push!(out, (ts[i], h[i], :low))
        end
    end
    return out
end
'''
RUNTESTS = '''using Tidewell
using Test
using Dates

@testset "Tidewell" begin
    include("test_constituents.jl")
    include("test_nodal.jl")
    include("test_predict.jl")
    include("test_extrema.jl")
end
'''
TCONST = '''@testset "constituents" begin
    c = Constituent("M2", 1.21, 45.0)
    @test c.speed ≈ 28.9841042
    @test_throws ArgumentError Constituent("ZZ9", 0.1, 0.0)
    c2 = Constituent("M2", 1, 45)
    @test c2.amplitude == 1.0
    m = TideModel("Bergen", 0.92, [c, Constituent("S2", 0.42, 81.0)])
    @test length(m.constituents) == 2
end
'''
TPRED = '''@testset "predict" begin
    bergen = TideModel("Bergen", 0.92, [
        Constituent("M2", 0.4112, 331.2), Constituent("S2", 0.1406, 5.7),
        Constituent("N2", 0.0871, 310.4), Constituent("K1", 0.0503, 161.0),
        Constituent("O1", 0.0342, 339.8),
    ])
    ts = DateTime(2024, 1, 1):Hour(1):DateTime(2024, 1, 2)
    h = predict(bergen, collect(ts))
    @test length(h) == 25
    @test h[1] ≈ 1.2345812 atol = 1e-6
    @test maximum(h) ≈ 1.5411203 atol = 1e-6
end
'''
s.files.update({
    "Project.toml": PROJECT, "test/Project.toml": TESTPROJECT, "src/Tidewell.jl": MAIN,
    "src/constituents.jl": CONST, "src/nodal.jl": NODAL, "src/predict.jl": PREDICT,
    "src/astro.jl": ASTRO, "src/extrema.jl": EXTREMA, "test/runtests.jl": RUNTESTS,
    "test/test_constituents.jl": TCONST, "test/test_predict.jl": TPRED,
    "test/test_nodal.jl": '@testset "nodal" begin\n    f, u = Tidewell.nodal_factors(DateTime(2024, 1, 1))\n    @test length(f) == 12\n    @test all(0.7 .< f .< 1.3)\nend\n',
    "test/test_extrema.jl": '@testset "extrema" begin\n    m = TideModel("X", 0.0, [Constituent("M2", 1.0, 0.0)])\n    ex = highs_and_lows(m, DateTime(2024,1,1), DateTime(2024,1,2))\n    @test count(e -> e[3] == :high, ex) == 2\nend\n',
    "docs/src/index.md": "# Tidewell.jl\n\n```julia\nusing Tidewell, Dates\nm = TideModel(\"Bergen\", 0.92, [Constituent(\"M2\", 0.41, 331.2)])\npredict(m, collect(DateTime(2024):Hour(1):DateTime(2024,1,2)))\n```\n",
    "bench/bench_predict.jl": "using Tidewell, Dates, BenchmarkTools\ninclude(joinpath(@__DIR__, \"stations.jl\"))\nts = collect(DateTime(2024):Hour(1):DateTime(2024,12,31,23))\n@btime predict($BERGEN, $ts)\n",
    "CHANGELOG.md": "# Changelog\n\n## 0.5.1\n- `highs_and_lows` keyword `step`.\n\n## 0.5.0\n- Nodal corrections for K2.\n",
})

CI_YML = """name: CI
on:
  push:
    branches: [main]
  pull_request:
jobs:
  test:
    name: test (${{ matrix.version }})
    runs-on: ubuntu-latest
    strategy:
      fail-fast: false
      matrix:
        version: ['1.10', '1.11']
    steps:
      - uses: actions/checkout@v4
      - uses: julia-actions/setup-julia@v2
        with:
          version: ${{ matrix.version }}
      - uses: julia-actions/cache@v2
      - uses: julia-actions/julia-buildpkg@v1
      - uses: julia-actions/julia-runtest@v1
  docs:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: julia-actions/setup-julia@v2
        with:
          version: '1.11'
      - run: julia --project=docs -e 'using Pkg; Pkg.develop(path="."); Pkg.instantiate(); include("docs/make.jl")'
"""
STATIONS = """const BERGEN = TideModel("Bergen", 0.92, [
    Constituent("M2", 0.4112, 331.2), Constituent("S2", 0.1406, 5.7),
    Constituent("N2", 0.0871, 310.4), Constituent("K1", 0.0503, 161.0),
    Constituent("O1", 0.0342, 339.8),
])
const TROMSO = TideModel("Tromsø", 1.66, [Constituent(n, a, p) for (n, a, p) in (("M2", 0.9521, 3.1), ("S2", 0.3340, 41.7), ("N2", 0.1905, 341.0), ("K2", 0.0921, 38.2), ("K1", 0.0612, 174.4), ("O1", 0.0301, 12.6), ("P1", 0.0188, 170.9), ("Q1", 0.0071, 305.5))])
const STAVANGER = TideModel("Stavanger", 0.55, [Constituent(n, a, p) for (n, a, p) in (("M2", 0.1712, 294.0), ("S2", 0.0602, 340.1), ("K1", 0.0411, 150.2), ("O1", 0.0389, 322.5))])
const NARVIK = TideModel("Narvik", 1.71, [Constituent(n, a, p) for (n, a, p) in (("M2", 0.9902, 12.4), ("S2", 0.3511, 51.0), ("N2", 0.1983, 350.2), ("K2", 0.0966, 47.1), ("K1", 0.0640, 180.3), ("O1", 0.0288, 19.0), ("P1", 0.0201, 178.4), ("Q1", 0.0066, 311.9), ("M4", 0.0120, 88.0))])
"""


# --- routine helpers: real greps/listings over the virtual tree ---------------------------------
def rg(pattern: str, where: str = "src test", text: str | None = None) -> None:
    rx = re.compile(pattern)
    roots = where.split()
    hits = []
    for path in sorted(s.files):
        if not any(path == r or path.startswith(r.rstrip("/") + "/") for r in roots):
            continue
        for n, line in enumerate(s.files[path].splitlines(), 1):
            if rx.search(line):
                hits.append(f"{path}:{n}:{line}")
    s.bash(f"rg -n '{pattern}' {where}", "\n".join(hits) if hits else "", code=0 if hits else 1, text=text)


def sed(path: str, a: int, b: int, text: str | None = None) -> None:
    lines = s.files[path].splitlines()[a - 1 : b]
    s.bash(f"sed -n '{a},{b}p' {path}", "\n".join(lines), text=text)


def ls(d: str, text: str | None = None) -> None:
    names = sorted({p[len(d) + 1 :].split("/")[0] + ("/" if "/" in p[len(d) + 1 :] else "") for p in s.files if p.startswith(d + "/")})
    s.bash(f"ls {d}", "\n".join(names), text=text)


def wc(paths: list[str]) -> None:
    rows = [f"{len(s.files[p].splitlines()):>5} {p}" for p in paths]
    total = sum(len(s.files[p].splitlines()) for p in paths)
    s.bash("wc -l " + " ".join(paths), "\n".join([*rows, f"{total:>5} total"]))


TESTSETS = ["constituents", "nodal", "predict", "extrema"]


def pkg_test(counts: dict[str, tuple[int, int]], secs: str, extra: str = "", fail_block: str = "", code: int = 0, aqua: bool = False, jet: bool = False, text: str | None = None) -> None:
    head = (
        "     Testing Tidewell\n"
        "      Status `/tmp/jl_Qf3a1X/Project.toml`\n"
        "  [ade2ca70] Dates\n  [6a3e1f52] Tidewell v0.5.1 `~/code/Tidewell.jl`\n  [8dfed614] Test\n"
        + ("  [4c88cf16] Aqua v0.8.9\n" if aqua else "")
        + ("  [c3a54625] JET v0.9.12\n" if jet else "")
        + "      Status `/tmp/jl_Qf3a1X/Manifest.toml`\n"
        "  [90137ffa] StaticArrays v1.9.8\n  [1e83bf80] StaticArraysCore v1.4.3\n"
        "  [56f22d72] Artifacts v1.11.0\n  [2a0f44e3] Base64 v1.11.0\n  [ade2ca70] Dates v1.11.0\n"
        "  [b77e0a4c] InteractiveUtils v1.11.0\n  [37e2e46d] LinearAlgebra v1.11.0\n  [56ddb016] Logging v1.11.0\n"
        "  [d6f4376e] Markdown v1.11.0\n  [de0858da] Printf v1.11.0\n  [9a3f8284] Random v1.11.0\n"
        "  [ea8e919c] SHA v0.7.0\n  [9e88b42a] Serialization v1.11.0\n  [8dfed614] Test v1.11.0\n"
        "  [4ec0a83e] Unicode v1.11.0\n  [e66e0078] CompilerSupportLibraries_jll v1.1.1+0\n"
        "  [4536629a] OpenBLAS_jll v0.3.27+1\n  [8e850b90] libblastrampoline_jll v5.11.0+0\n"
        "Precompiling project...\n    958.2 ms  ✓ Tidewell\n  1 dependency successfully precompiled in 2 seconds. 4 already precompiled.\n"
        "     Testing Running tests...\n"
    )
    tot_p = sum(p for p, _ in counts.values())
    tot = sum(t for _, t in counts.values())
    rows = [f"Test Summary:      | Pass  {'Fail  ' if tot_p != tot else ''}Total  Time", f"Tidewell          | {tot_p:>4}  {str(tot - tot_p) + '     ' if tot_p != tot else ''}{tot:>5}  {secs}"]
    for name, (p, t) in counts.items():
        rows.append(f"  {name:<15} | {p:>4}  {str(t - p) + '     ' if tot_p != tot and p != t else ('      ' if tot_p != tot else '')}{t:>5}  {0.4 + len(name) / 10:.1f}s")
    tail = "     Testing Tidewell tests passed \n" if not code else "ERROR: LoadError: Some tests did not pass: " + f"{tot_p} passed, {tot - tot_p} failed, 0 errored, 0 broken.\nin expression starting at /home/ola/code/Tidewell.jl/test/runtests.jl:5\nERROR: Package Tidewell errored during testing\n"
    s.bash("julia --project -e 'using Pkg; Pkg.test()'", head + fail_block + extra + "\n".join(rows) + "\n" + tail, code=code, text=text)


# ============================================================================================ turn 1
s.user(
    "tidewell predict got slow, like 3x vs 0.4. find out why\n"
    "public api stays as is: predict, Constituent, TideModel, highs_and_lows. downstream (harbourwatch) calls them\n"
    "julia compat stays 1.10, dont bump it\n"
    "no new runtime deps. test-only deps fine",
    pause=0,
)
s.assistant("Looking at the package layout first.")
ls("src")
ls("test")
s.reads(["Project.toml", "src/Tidewell.jl"])
s.read("src/predict.jl")
s.read("src/constituents.jl")
s.read("src/nodal.jl")
wc(["src/astro.jl", "src/constituents.jl", "src/nodal.jl", "src/predict.jl", "src/extrema.jl"])
s.bash("git log --oneline -8", "c41e7a2 (HEAD -> main, tag: v0.5.1) highs_and_lows: step keyword\n8be1d90 nodal: K2 corrections\n2f0c5b3 Constituent: accept any Real speed (custom constituents)\n77ad0e1 docs: Bergen example\n5d1b9a8 (tag: v0.4.2) CI: test 1.10 and 1.11\n0a6c3f4 extrema: >= on the right\ne93f217 predict: precompute nodal factors once\n1c0b7d2 initial harmonics")
s.bash("git show --stat 2f0c5b3", "commit 2f0c5b3d8e1a\nAuthor: Kari Lunde <kari@tidewell.dev>\nDate:   Tue Jan 20 14:02:11 2026 +0100\n\n    Constituent: accept any Real speed (custom constituents)\n\n src/constituents.jl | 2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)")
s.bash("git show 2f0c5b3 -- src/constituents.jl | tail -8", "@@ -9,7 +9,7 @@ struct Constituent\n     name::String\n     amplitude::Float64\n     phase::Float64\n-    speed::Float64\n+    speed::Real\n end\n \n Constituent(name::AbstractString, amplitude, phase) =")
s.assistant("Suspicious: `speed::Real` is an abstract field type. Baseline tests and a benchmark before touching anything.")
pkg_test({"constituents": (5, 5), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1)}, "3.4s")
s.read("bench/bench_predict.jl")
s.bash("julia --project=bench bench/bench_predict.jl",
       "  14.212 ms (43803 allocations: 1.31 MiB)")
s.bash("git stash -q && git checkout -q v0.4.2 && julia --project=bench bench/bench_predict.jl; git checkout -q main && git stash pop -q",
       "  4.611 ms (3 allocations: 68.62 KiB)")
WARNTYPE = (
    "MethodInstance for Tidewell.predict(::TideModel, ::Vector{DateTime})\n"
    "  from predict(model::TideModel, times::AbstractVector{DateTime}) @ Tidewell ~/code/Tidewell.jl/src/predict.jl:6\n"
    "Arguments\n  #self#::Core.Const(Tidewell.predict)\n  model::TideModel\n  times::Vector{DateTime}\n"
    "Locals\n  @_4::Union{Nothing, Tuple{Tuple{Int64, DateTime}, Tuple{Int64, Int64}}}\n"
    "  out::Vector{Float64}\n  epoch::DateTime\n  u::Vector{Float64}\n  f::Vector{Float64}\n"
    "  @_9::Union{Nothing, Tuple{Constituent, Int64}}\n  @_10::Int64\n  t::DateTime\n  k::Int64\n"
    "  hours::Float64\n  h::Any\n  c::Constituent\n  uc::Float64\n  fc::Float64\n"
    "Body::Vector{Float64}\n"
    "1 ─ %1  = Tidewell.nodal_factors::Core.Const(Tidewell.nodal_factors)\n"
    "│   %2  = Base.getindex(times, 1)::DateTime\n"
    "│   %3  = (%1)(%2)::Tuple{Vector{Float64}, Vector{Float64}}\n"
    "│   %4  = Base.indexed_iterate(%3, 1)::Core.PartialStruct(Tuple{Vector{Float64}, Int64}, Any[Vector{Float64}, Core.Const(2)])\n"
    "│         (f = Core.getfield(%4, 1))\n"
    "│         (@_6 = Core.getfield(%4, 2))\n"
    "│   %7  = Base.indexed_iterate(%3, 2, @_6::Core.Const(2))::Core.PartialStruct(Tuple{Vector{Float64}, Int64}, Any[Vector{Float64}, Core.Const(3)])\n"
    "│         (u = Core.getfield(%7, 1))\n"
    "│   %9  = Tidewell.DateTime::Core.Const(DateTime)\n"
    "│   %10 = Tidewell.year::Core.Const(Dates.year)\n"
    "│   %11 = Base.getindex(times, 1)::DateTime\n"
    "│   %12 = (%10)(%11)::Int64\n"
    "│         (epoch = (%9)(%12))\n"
    "│   %14 = Core.apply_type(Tidewell.Vector, Tidewell.Float64)::Core.Const(Vector{Float64})\n"
    "│   %15 = Tidewell.length(times)::Int64\n"
    "│         (out = (%14)(Tidewell.undef, %15))\n"
    "│   %17 = Tidewell.enumerate(times)::Base.Iterators.Enumerate{Vector{DateTime}}\n"
    "│         (@_4 = Base.iterate(%17))\n"
    "│   %19 = (@_4 === nothing)::Bool\n"
    "│   %20 = Base.not_int(%19)::Bool\n"
    "└──       goto #7 if not %20\n"
    "2 ┄ %22 = @_4::Tuple{Tuple{Int64, DateTime}, Tuple{Int64, Int64}}\n"
    "│   %23 = Core.getfield(%22, 1)::Tuple{Int64, DateTime}\n"
    "│   %28 = (t - epoch)::Millisecond\n"
    "│   %29 = Tidewell.Hour(1)::Hour\n"
    "│         (hours = %28 / %29)\n"
    "│         (h = Base.getproperty(model, :datum_offset))\n"
    "│   %32 = Base.getproperty(model, :constituents)::Vector{Constituent}\n"
    "│         (@_9 = Base.iterate(%32))\n"
    "│   %34 = (@_9 === nothing)::Bool\n"
    "└──       goto #5 if not %35\n"
    "3 ┄ %37 = @_9::Tuple{Constituent, Int64}\n"
    "│         (c = Core.getfield(%37, 1))\n"
    "│   %40 = Tidewell.nodal_correction(c, f, u)::Tuple{Float64, Float64}\n"
    "│   %45 = Base.getproperty(c, :amplitude)::Float64\n"
    "│   %46 = (fc * %45)::Float64\n"
    "│   %47 = Base.getproperty(c, :speed)::Real\n"
    "│   %48 = (%47 * hours)::Any\n"
    "│   %49 = (%48 + uc)::Any\n"
    "│   %50 = Base.getproperty(c, :phase)::Float64\n"
    "│   %51 = (%49 - %50)::Any\n"
    "│   %52 = Tidewell.cosd(%51)::Any\n"
    "│   %53 = (%46 * %52)::Any\n"
    "│         (h = h + %53)\n"
    "│         (@_9 = Base.iterate(%32, %55))\n"
    "│   %57 = (@_9 === nothing)::Bool\n"
    "└──       goto #4 if not %58\n"
    "4 ─       goto #3\n"
    "5 ┄       Base.setindex!(out, h, k)\n"
    "│         (@_4 = Base.iterate(%17, %61))\n"
    "│   %63 = (@_4 === nothing)::Bool\n"
    "└──       goto #7 if not %64\n"
    "6 ─       goto #2\n"
    "7 ┄       return out\n"
)
s.bash("julia --project -e 'using Tidewell, Dates, InteractiveUtils; include(\"bench/stations.jl\"); @code_warntype predict(BERGEN, collect(DateTime(2024):Hour(1):DateTime(2024,1,2)))'", WARNTYPE)
s.assistant(
    "Found it. In the `@code_warntype` output the loop body reads `Base.getproperty(c, :speed)::Real`, and from there "
    "`speed * hours`, `cosd(...)` and the accumulator `h` are all `::Any`, so every term is boxed and dispatched at run time. "
    "That comes from 2f0c5b3 (Kari, January), which changed `speed::Float64` to `speed::Real` in `struct Constituent` to allow custom constituents.\n\n"
    "Numbers: main takes 14.212 ms with 43803 allocations (1.31 MiB) for a year of hourly values at Bergen; v0.4.2 took 4.611 ms with 3 allocations. So about 3.1x, which matches what you saw.\n\n"
    "Two ways to fix it:\n1. Go back to `speed::Float64` and convert in the constructor.\n2. Make it parametric, `Constituent{T<:Real}`, and keep the model's vector concretely typed.\n\n"
    "Option 1 is the smaller change. Which do you want?"
)

# ============================================================================================ turn 2
s.user("1. Float64 everywhere, no parametric. keep Constituent(name, amp, phase) 3-arg working, harbourwatch uses that form a lot\nalso add a PrecompileTools workload for predict while ur there")
s.assistant("Switching the field back to `Float64` with a converting inner constructor.")
s.edit("src/constituents.jl",
       "struct Constituent\n    name::String\n    amplitude::Float64\n    phase::Float64\n    speed::Real\nend",
       "struct Constituent\n    name::String\n    amplitude::Float64\n    phase::Float64\n    speed::Float64\n    Constituent(name::AbstractString, amplitude::Real, phase::Real, speed::Real) =\n        new(String(name), float(amplitude), float(phase), float(speed))\nend")
rg("Constituent\\(", "src test docs")
pkg_test({"constituents": (5, 5), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1)}, "3.1s")
s.bash("julia --project=bench bench/bench_predict.jl", "  4.402 ms (3 allocations: 68.62 KiB)")
s.assistant("Back to 4.402 ms and 3 allocations, slightly faster than v0.4.2. Now the PrecompileTools workload; that is a new runtime dependency, so checking first what it would add.")
s.bash("julia --project -e 'using Pkg; Pkg.add(\"PrecompileTools\"; preserve=Pkg.PRESERVE_ALL)' --dry-run 2>&1 | tail -4", "ERROR: unknown option `--dry-run`")
s.bash("git diff --stat", " src/constituents.jl | 4 +++-\n 1 file changed, 3 insertions(+), 1 deletion(-)")
s.assistant(
    "Speed fix done: `speed` is `Float64` again and an inner constructor converts any `Real` for all four fields, so `Constituent(\"M2\", 1, 45)` still works and the 3-arg outer constructor is unchanged. "
    "Tests 11/11 green.\n\nOne question before the PrecompileTools workload: PrecompileTools would be a new runtime dependency in `[deps]`, and you said no new runtime deps. Add it anyway, or skip?"
)

# ============================================================================================ turn 2b (filler)
s.user("does anything else read c.speed or rely on it being Real")
for pat in ["\\.speed", "speed", "::Real", "Real\\b", "standard_speed"]:
    rg(pat, "src test docs bench")
s.read("src/extrema.jl")
s.read("test/test_constituents.jl")
s.bash("cd ../harbourwatch && rg -n '\\.speed|Constituent\\(' src | head -20", "src/stations.jl:41:    TideModel(row[\"name\"], row[\"z0\"], Any[Constituent(c[\"name\"], c[\"amp\"], c[\"phase\"]) for c in row[\"constituents\"]])\nsrc/custom.jl:12:    Constituent(\"MK3\", amp, phase, 44.0251729)\nsrc/custom.jl:19:    Constituent(\"2MS6\", amp, phase, 87.9682084)")
s.bash("cd ../harbourwatch && git log --oneline -3", "a81f0e2 custom shallow-water constituents\n5c2d9e1 stations from json\n10b7f3a bump Tidewell 0.5")
s.bash("cd ../harbourwatch && grep -A3 '\\[compat\\]' Project.toml", "[compat]\nTidewell = \"0.5\"\njulia = \"1.10\"")
s.assistant("Only `predict` reads `c.speed`. harbourwatch passes Float64 literals for its custom constituents (MK3 44.0251729, 2MS6 87.9682084) in src/custom.jl, so converting to `Float64` changes nothing for them. Its compat is `Tidewell = \"0.5\"`, so a 0.5.2 patch release reaches it.")

# ============================================================================================ turn 3
s.user("hm right. never mind the precompile thing, drop it\nadd Aqua tests instead, test deps only")
s.assistant("Adding Aqua.jl to the test environment only.")
s.read("test/Project.toml")
s.bash("julia --project=test -e 'using Pkg; Pkg.add(\"Aqua\")'", "   Resolving package versions...\n    Updating `~/code/Tidewell.jl/test/Project.toml`\n  [4c88cf16] + Aqua v0.8.9\n    Updating `~/code/Tidewell.jl/test/Manifest.toml`\n  [4c88cf16] + Aqua v0.8.9\n  [8dfed614] + Test v1.11.0\nPrecompiling project...\n   1234.5 ms  ✓ Aqua\n  1 dependency successfully precompiled in 2 seconds")
s.files["test/Project.toml"] = '[deps]\nAqua = "4c88cf16-eb10-579e-8560-4a9242c79595"\nDates = "ade2ca70-3891-5945-98fb-dc099432e06a"\nTest = "8dfed614-e22c-5e08-85e1-65c5234f0b40"\n'
s.bash("cat .gitignore", "Manifest.toml\n/docs/build/\n/bench/Manifest.toml\n")
s.write("test/test_aqua.jl", 'using Aqua\n\n@testset "Aqua" begin\n    Aqua.test_all(Tidewell)\nend\n')
s.edit("test/runtests.jl", '    include("test_extrema.jl")\n', '    include("test_extrema.jl")\n    include("test_aqua.jl")\n')
AQUA_FAIL = (
    "Aqua: Test Failed at /home/ola/.julia/packages/Aqua/9p8ck/src/stale_deps.jl:31\n"
    "  Expression: isempty(stale_deps)\n"
    "   Evaluated: isempty(Base.PkgId[Base.PkgId(Base.UUID(\"de0858da-6303-5e67-8744-51eddeeeb8d7\"), \"Printf\")])\n"
    "Stacktrace:\n [1] macro expansion\n   @ ~/.julia/juliaup/julia-1.11.2+0.x64.linux.gnu/share/julia/stdlib/v1.11/Test/src/Test.jl:680 [inlined]\n"
    " [2] test_stale_deps(pkg::Base.PkgId; kwargs::@Kwargs{})\n   @ Aqua ~/.julia/packages/Aqua/9p8ck/src/stale_deps.jl:31\n"
    " [3] macro expansion\n   @ ~/.julia/packages/Aqua/9p8ck/src/stale_deps.jl:16 [inlined]\n"
    "Aqua: Test Failed at /home/ola/.julia/packages/Aqua/9p8ck/src/deps_compat.jl:61\n"
    "  Expression: isempty(result)\n"
    "   Evaluated: isempty(Base.PkgId[Base.PkgId(Base.UUID(\"90137ffa-7385-5640-81b9-e52037218182\"), \"StaticArrays\")])\n"
    "  Context: Tidewell [6a3e1f52] does not declare a compat entry for the following deps:\n"
    "  StaticArrays [90137ffa]\n"
    "Stacktrace:\n [1] macro expansion\n   @ ~/.julia/juliaup/julia-1.11.2+0.x64.linux.gnu/share/julia/stdlib/v1.11/Test/src/Test.jl:680 [inlined]\n"
    " [2] test_deps_compat(pkg::Base.PkgId, deps_type_name::String; kwargs::@Kwargs{})\n   @ Aqua ~/.julia/packages/Aqua/9p8ck/src/deps_compat.jl:61\n"
)
pkg_test({"constituents": (5, 5), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1), "Aqua": (9, 11)}, "38.0s", fail_block=AQUA_FAIL, code=1, aqua=True)
rg("Printf|@sprintf|@printf", "src")
rg("SVector|SMatrix|StaticArrays", "src")
s.assistant(
    "Aqua finds two things (9 of 11 pass): `Printf` is a stale dep (nothing in `src/` uses it) and `StaticArrays` has no `[compat]` entry. "
    "StaticArrays isn't used in `src/` either apart from `using StaticArrays` in the module. Removing Printf from `[deps]` and adding a compat bound for StaticArrays, 1.9 is what the manifest resolves."
)
s.edit("Project.toml", 'Printf = "de0858da-6303-5e67-8744-51eddeeeb8d7"\n', "")
s.edit("Project.toml", 'julia = "1.10"\n', 'StaticArrays = "1.5"\njulia = "1.10"\n')
pkg_test({"constituents": (5, 5), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1), "Aqua": (11, 11)}, "37.2s", aqua=True)
s.assistant("Aqua is green now: Printf removed from `[deps]`, `StaticArrays = \"1.5\"` in `[compat]`, and `julia = \"1.10\"` left as it was. The PrecompileTools idea is dropped, as you said. Full suite 22/22.")

# ============================================================================================ turn 4
s.user("why 1.5 for staticarrays and not 1.9")
s.bash("git log -S'SVector' --oneline -- src | tail -2", "9f3d2aa astro: SVector for the (f,u) pair\n1c0b7d2 initial harmonics")
s.bash("git show 9f3d2aa --stat | head -5", "commit 9f3d2aa17c04\nAuthor: Ola Nygaard <ola@tidewell.dev>\nDate:   Mon Sep 8 10:41:20 2025 +0200\n\n    astro: SVector for the (f,u) pair")
s.assistant("1.5 for StaticArrays was a guess at the oldest version that still works. Nothing in `src/` uses anything newer than `SVector`, which every 1.x has, so 1.5 doesn't narrow the resolver for anyone on an older manifest. If you'd rather only claim what CI actually tests, 1.9 is the honest bound. I'm keeping 1.5 unless you say otherwise.")

s.user("ok 1.5 then. lol the office coffee machine died again so im on tea today. next: JET")
s.assistant("Tea it is. Adding JET.jl to the test env and running `report_package` first, outside the test suite.")
s.bash("julia --project=test -e 'using Pkg; Pkg.add(\"JET\")'", "   Resolving package versions...\n    Updating `~/code/Tidewell.jl/test/Project.toml`\n  [c3a54625] + JET v0.9.12\n    Updating `~/code/Tidewell.jl/test/Manifest.toml`\n  [c3a54625] + JET v0.9.12\n  [da1fd8a2] + CodeTracking v1.3.6\n  [aa1ae85d] + JuliaInterpreter v0.9.36\n  [6f1432cf] + LoweredCodeUtils v3.0.5\n  [295af30f] + Revise v3.6.4\nPrecompiling project...\n  19 dependencies successfully precompiled in 71 seconds")
s.files["test/Project.toml"] = '[deps]\nAqua = "4c88cf16-eb10-579e-8560-4a9242c79595"\nDates = "ade2ca70-3891-5945-98fb-dc099432e06a"\nJET = "c3a54625-cd67-489e-a8e7-0a5a0ff4e31b"\nTest = "8dfed614-e22c-5e08-85e1-65c5234f0b40"\n'
JET1 = (
    "[toplevel-info] virtualized the context of Main (took 0.011 sec)\n"
    "[toplevel-info] entered into /home/ola/code/Tidewell.jl/src/Tidewell.jl\n"
    "[toplevel-info] entered into /home/ola/code/Tidewell.jl/src/astro.jl\n"
    "[toplevel-info]  exited from /home/ola/code/Tidewell.jl/src/astro.jl (took 0.004 sec)\n"
    "[toplevel-info] entered into /home/ola/code/Tidewell.jl/src/constituents.jl\n"
    "[toplevel-info]  exited from /home/ola/code/Tidewell.jl/src/constituents.jl (took 0.006 sec)\n"
    "[toplevel-info] entered into /home/ola/code/Tidewell.jl/src/nodal.jl\n"
    "[toplevel-info]  exited from /home/ola/code/Tidewell.jl/src/nodal.jl (took 0.002 sec)\n"
    "[toplevel-info] entered into /home/ola/code/Tidewell.jl/src/predict.jl\n"
    "[toplevel-info]  exited from /home/ola/code/Tidewell.jl/src/predict.jl (took 0.002 sec)\n"
    "[toplevel-info] entered into /home/ola/code/Tidewell.jl/src/extrema.jl\n"
    "[toplevel-info]  exited from /home/ola/code/Tidewell.jl/src/extrema.jl (took 0.003 sec)\n"
    "[toplevel-info]  exited from /home/ola/code/Tidewell.jl/src/Tidewell.jl (took 0.031 sec)\n"
    "[toplevel-info] analyzing from top-level definitions (18 methods)\n"
    "[toplevel-info] analyzed 18 top-level definitions (took 2.904 sec)\n"
    "═════ 3 possible errors found ═════\n"
    "┌ predict(model::TideModel, times::AbstractVector{DateTime}) @ Tidewell /home/ola/code/Tidewell.jl/src/predict.jl:14\n"
    "│┌ nodal_correction(c::Constituent, f::Vector{Float64}, u::Vector{Float64}) @ Tidewell /home/ola/code/Tidewell.jl/src/nodal.jl:17\n"
    "││┌ getindex(A::Vector{Float64}, i::Nothing) @ Base ./essentials.jl:13\n"
    "│││ no matching method found `getindex(::Vector{Float64}, ::Nothing)`: f[i::Nothing]\n"
    "││└────────────────────\n"
    "┌ nodal_factors(t::DateTime) @ Tidewell /home/ola/code/Tidewell.jl/src/nodal.jl:9\n"
    "│┌ schureman(name::String, N::Float64) @ Tidewell /home/ola/code/Tidewell.jl/src/astro.jl:25\n"
    "││ local variable `f` may be undefined: f\n"
    "│└────────────────────\n"
    "┌ nodal_factors(t::DateTime) @ Tidewell /home/ola/code/Tidewell.jl/src/nodal.jl:9\n"
    "│┌ schureman(name::String, N::Float64) @ Tidewell /home/ola/code/Tidewell.jl/src/astro.jl:25\n"
    "││ local variable `u` may be undefined: u\n"
    "│└────────────────────\n"
)
s.bash("julia --project=test -e 'using JET; report_package(\"Tidewell\"; target_defined_modules=true)'", JET1)
s.read("src/astro.jl")
rg("NODAL_NAMES|STANDARD_SPEEDS", "src")
s.assistant(
    "JET reports 3 possible errors:\n\n"
    "1. `nodal_correction` (src/nodal.jl:17): `findfirst` returns `nothing` for a constituent not in `NODAL_NAMES`, then `f[nothing]` is a MethodError. Any custom constituent (the reason for 2f0c5b3) would hit this, including harbourwatch's MK3 and 2MS6 in src/custom.jl: their `predict` calls would throw on main today.\n"
    "2./3. `schureman` (src/astro.jl:25): `f` and `u` may be undefined when the name matches no branch.\n\n"
    "Fix for 1: constituents without a nodal entry get f=1, u=0 (no correction), which is what the other harmonic packages do. For 2/3 an `else` branch returning `(1.0, 0.0)`. Doing both."
)
s.edit("src/nodal.jl", "    i = findfirst(==(uppercase(c.name)), NODAL_NAMES)\n    return f[i], u[i] + 0.0",
       "    i = findfirst(==(uppercase(c.name)), NODAL_NAMES)\n    i === nothing && return 1.0, 0.0  # no nodal entry: no correction\n    return f[i], u[i]")
s.edit("src/astro.jl", "    elseif name in (\"S2\", \"P1\", \"SA\")\n        f, u = 1.0, 0.0\n    end",
       "    else  # S2, P1, SA and anything without a nodal term\n        f, u = 1.0, 0.0\n    end")
s.bash("julia --project=test -e 'using JET; report_package(\"Tidewell\"; target_defined_modules=true)' 2>&1 | tail -3",
       "[toplevel-info] analyzing from top-level definitions (18 methods)\n[toplevel-info] analyzed 18 top-level definitions (took 2.611 sec)\nNo errors detected")
s.write("test/test_jet.jl", 'using JET\n\n@testset "JET" begin\n    JET.test_package(Tidewell; target_defined_modules=true)\nend\n')
s.edit("test/runtests.jl", '    include("test_aqua.jl")\n', '    include("test_aqua.jl")\n    include("test_jet.jl")\n')
pkg_test({"constituents": (5, 5), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1), "Aqua": (11, 11), "JET": (1, 1)}, "49.8s", aqua=True, jet=True)
s.assistant("JET is clean now (`No errors detected`): custom constituents get no nodal correction instead of a MethodError, and `schureman` has an `else` branch. `test/test_jet.jl` runs `JET.test_package`; full suite 23/23 on 1.11.2.")

# ============================================================================================ turn 5
s.user("jet on 1.10 too? ci runs both")
s.bash("julia +1.10 --project=test -e 'using Pkg; Pkg.instantiate()' 2>&1 | tail -6",
       "ERROR: Unsatisfiable requirements detected for package JET [c3a54625]:\n JET [c3a54625] log:\n ├─possible versions are: 0.0.1-0.9.12 or uninstalled\n ├─restricted to versions * by project [a1b2c3d4], leaving only versions: 0.0.1-0.9.12\n └─restricted by julia compatibility requirements to versions: 0.0.1-0.8.29 or uninstalled, leaving only versions: 0.0.1-0.8.29",
       code=1)
s.assistant("JET 0.9 needs Julia 1.11; on 1.10 the resolver falls back to 0.8.x. JET's output and false positives differ between minor versions, so running it on both tends to be flaky. Options: run JET only on 1.11 (skip with a `VERSION` check), or pin 0.8 for 1.10. I'd do the first.")
s.user("jet only on 1.11, skip on 1.10")
s.write("test/test_jet.jl", 'if VERSION >= v"1.11"\n    using JET\n    @testset "JET" begin\n        JET.test_package(Tidewell; target_defined_modules=true)\n    end\nelse\n    @info "JET checks run on Julia 1.11+ only"\nend\n')
s.bash("cat test/Project.toml", s.files["test/Project.toml"])
s.write("test/Project.toml", s.files["test/Project.toml"] + '\n[compat]\nJET = "0.9"\n')
s.bash("julia +1.10 --project=test -e 'using Pkg; Pkg.instantiate()' 2>&1 | tail -2", "ERROR: Unsatisfiable requirements detected for package JET [c3a54625]:\n └─restricted by julia compatibility requirements to versions: 0.0.1-0.8.29 or uninstalled", code=1)
s.assistant("Even with the runtime skip, 1.10 can't resolve the test env while JET is in `[deps]` with compat 0.9. Moving JET out of test/Project.toml: the JET test adds it to a temporary environment on 1.11 only.")
s.edit("test/Project.toml", 'JET = "c3a54625-cd67-489e-a8e7-0a5a0ff4e31b"\n', "")
s.edit("test/Project.toml", '\n[compat]\nJET = "0.9"\n', "")
s.write("test/test_jet.jl", 'if VERSION >= v"1.11"\n    using Pkg\n    Pkg.activate(; temp=true)\n    Pkg.add(name="JET", version="0.9"); Pkg.develop(path=joinpath(@__DIR__, ".."))\n    using JET\n    @testset "JET" begin\n        JET.test_package(Tidewell; target_defined_modules=true)\n    end\nelse\n    @info "JET checks run on Julia 1.11+ only"\nend\n')
pkg_test({"constituents": (5, 5), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1), "Aqua": (11, 11), "JET": (1, 1)}, "58.3s", aqua=True, jet=False)

V110_FAIL = (
    "predict: Test Failed at /home/ola/code/Tidewell.jl/test/test_predict.jl:10\n"
    "  Expression: ≈(h[1], 1.2345812, atol = 1.0e-6)\n"
    "   Evaluated: 1.2345795 ≈ 1.2345812 (atol=1.0e-6)\n"
    "Stacktrace:\n [1] macro expansion\n   @ ~/.julia/juliaup/julia-1.10.7+0.x64.linux.gnu/share/julia/stdlib/v1.10/Test/src/Test.jl:672 [inlined]\n"
    " [2] macro expansion\n   @ ~/code/Tidewell.jl/test/test_predict.jl:10 [inlined]\n"
    " [3] macro expansion\n   @ ~/.julia/juliaup/julia-1.10.7+0.x64.linux.gnu/share/julia/stdlib/v1.10/Test/src/Test.jl:1577 [inlined]\n"
    " [4] top-level scope\n   @ ~/code/Tidewell.jl/test/test_predict.jl:2\n"
    "[ Info: JET checks run on Julia 1.11+ only\n"
)
s.bash("julia +1.10 --project -e 'using Pkg; Pkg.test()' 2>&1 | tail -22",
       "     Testing Running tests...\n" + V110_FAIL +
       "Test Summary:      | Pass  Fail  Total  Time\nTidewell          |   21     1     22  29.7s\n  constituents    |    5            5  0.8s\n  nodal           |    2            2  0.2s\n  predict         |    2     1      3  1.1s\n  extrema         |    1            1  0.5s\n  Aqua            |   11           11  27.1s\nERROR: LoadError: Some tests did not pass: 21 passed, 1 failed, 0 errored, 0 broken.",
       code=1)
s.bash("git stash -q && julia +1.10 --project -e 'using Pkg; Pkg.test()' 2>&1 | grep -A2 'Test Summary'; git stash pop -q",
       "Test Summary: | Pass  Fail  Total  Time\nTidewell      |   10     1     11  3.9s\n  predict     |    2     1      3  1.0s")
s.assistant(
    "On 1.10.7 one assertion fails that passes on 1.11: `test/test_predict.jl:10`, `h[1]` is 1.2345795 against the stored 1.2345812, off by 1.7e-6 with `atol = 1e-6`. "
    "It fails on a clean `main` too (stash check), so it's not from today's changes; it predates the session. Most likely the `cosd` for large arguments or the `DateTime`→hours division differs between 1.10 and 1.11. I haven't changed the test."
)

# ============================================================================================ turn 6: filler investigation
s.user("look into it but dont just loosen atol, want to know why")
s.read("test/test_predict.jl")
for (a, b) in [(1, 8), (9, 13)]:
    sed("test/test_predict.jl", a, b)
s.bash("julia +1.10 -e 'println(cosd(28.9841042 * 8760.0 + 0.0 - 331.2))'", "0.6912874039620561")
s.bash("julia +1.11 -e 'println(cosd(28.9841042 * 8760.0 + 0.0 - 331.2))'", "0.6912874039620561")
s.bash("julia +1.10 -e 'using Dates; println((DateTime(2024,1,1) - DateTime(2024)) / Hour(1))'", "0.0")
s.bash("julia +1.10 -e 'println(cosd(1.0e6 + 0.1))'; julia +1.11 -e 'println(cosd(1.0e6 + 0.1))'", "-0.984807753012208\n-0.984807753012208")
s.bash("julia +1.10 --project -e 'using Tidewell, Dates; f,u = Tidewell.nodal_factors(DateTime(2024)); println(f[1:3]); println(u[1:3])'", "[0.9628394731022, 1.0, 0.9628394731022]\n[-1.9573081902117, 0.0, -1.9573081902117]")
s.bash("julia +1.11 --project -e 'using Tidewell, Dates; f,u = Tidewell.nodal_factors(DateTime(2024)); println(f[1:3]); println(u[1:3])'", "[0.9628394731022, 1.0, 0.9628394731022]\n[-1.9573081902117, 0.0, -1.9573081902117]")
s.bash("julia +1.10 -e 'println(datetime2julian(DateTime(2024)))'; julia +1.11 -e 'using Dates; println(datetime2julian(DateTime(2024)))'", "ERROR: UndefVarError: `datetime2julian` not defined\n2.4603105e6")
s.assistant("Identical so far: `cosd`, the nodal factors and the epoch arithmetic give the same bits on both versions. Next suspect is the order of summation in the inner loop (SIMD/FMA contraction differs between LLVM 15 and 16).")
for v in ["1.10", "1.11"]:
    s.bash(f"julia +{v} --project -e 'using Tidewell, Dates, InteractiveUtils; include(\"bench/stations.jl\"); code_llvm(stdout, Tidewell.predict, (TideModel, Vector{{DateTime}}); debuginfo=:none)' | grep -c fmul",
           "14" if v == "1.10" else "11")
s.bash("julia +1.10 --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); println(predict(BERGEN, [DateTime(2024)])[1])'", "1.2345795")
s.bash("julia +1.11 --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); println(predict(BERGEN, [DateTime(2024)])[1])'", "1.2345812")
s.bash("julia +1.10 --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); m = BERGEN; println(m.datum_offset + sum(c -> Tidewell.nodal_correction(c, Tidewell.nodal_factors(DateTime(2024))...)[1] * c.amplitude * cosd(-c.phase + Tidewell.nodal_correction(c, Tidewell.nodal_factors(DateTime(2024))...)[2]), m.constituents))'", "1.2345795")
s.assistant("Not the loop either: a plain `sum` outside `predict` gives 1.2345795 on 1.10 as well. So the difference is in something both paths share that I haven't isolated yet. Reading astro.jl and the lunar node code again.")
s.read("src/astro.jl")
s.bash("julia +1.10 -e 'using Dates; t = DateTime(2024); T = (Dates.datetime2julian(t) - 2451545.0) / 36525; println(T); println(mod(125.04452 - 1934.136261 * T, 360))'", "0.2399726214921287\n300.9076628141521")
s.bash("julia +1.11 -e 'using Dates; t = DateTime(2024); T = (Dates.datetime2julian(t) - 2451545.0) / 36525; println(T); println(mod(125.04452 - 1934.136261 * T, 360))'", "0.2399726214921287\n300.9076628141521")
s.bash("julia +1.10 -e 'println(sind(300.9076628141521)); println(cosd(2*300.9076628141521))'; julia +1.11 -e 'println(sind(300.9076628141521)); println(cosd(2*300.9076628141521))'",
       "-0.8578819411032415\n-0.47151862015043786\n-0.8578819411032414\n-0.47151862015043786")
s.assistant("There is one: `sind(300.9076628141521)` differs in the last bit between 1.10 (…2415) and 1.11 (…2414). That alone is ~1e-16, far too small for 1.7e-6, so it isn't the whole story either. I'll keep digging but this is not found yet.")

# ============================================================================================ turn 7
s.user("ok park it, note it as open. meanwhile harbourwatch: can we avoid breaking their TideModel(station, offset, Vector{Any}) call? they build the vector from json")
rg("TideModel\\(", "src test docs")
s.bash("cd ../harbourwatch && rg -n 'TideModel\\(' src | head", "src/stations.jl:41:    TideModel(row[\"name\"], row[\"z0\"], Any[Constituent(c[\"name\"], c[\"amp\"], c[\"phase\"]) for c in row[\"constituents\"]])\nsrc/stations.jl:88:    return TideModel(name, z0, cs)")
s.bash("julia --project -e 'using Tidewell; m = TideModel(\"X\", 0.0, Any[Constituent(\"M2\", 1.0, 0.0)]); println(typeof(m.constituents))'", "Vector{Constituent}", text="Both calls pass a `Vector{Any}`. Trying that exact shape on the current tree.")
s.bash("git stash -q && julia --project -e 'using Tidewell; m = TideModel(\"X\", 0.0, Any[Constituent(\"M2\", 1.0, 0.0)]); println(typeof(m.constituents))'; git stash pop -q", "Vector{Constituent}")
s.bash("git stash list", "")
s.edit("test/test_constituents.jl", "    @test length(m.constituents) == 2\n",
       "    @test length(m.constituents) == 2\n    m2 = TideModel(\"HW\", 0.1, Any[c])  # harbourwatch builds the vector from JSON\n    @test m2.constituents isa Vector{Constituent}\n")
pkg_test({"constituents": (7, 7), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1), "Aqua": (11, 11), "JET": (1, 1)}, "57.9s", aqua=True)
s.assistant("Yes: `TideModel(station, offset, Vector{Any})` still works, the field converts to `Vector{Constituent}`. Added a regression test for exactly harbourwatch's call. 25/25 on 1.11.")

# ============================================================================================ turn 8: routine sweep
s.user("good. do a pass over the rest of src for other abstract fields or Any")
for p in ["src/extrema.jl", "src/predict.jl", "src/nodal.jl", "src/constituents.jl"]:
    s.read(p)
for pat in ["::Real$", "::Any", "::AbstractFloat", "Vector\\{Any\\}", "Dict\\(", "global ", "const "]:
    rg(pat)
s.bash("julia --project -e 'using Tidewell, Test, Dates; include(\"bench/stations.jl\"); ts = collect(DateTime(2024):Hour(1):DateTime(2024,1,8)); @inferred predict(BERGEN, ts); @inferred highs_and_lows(BERGEN, ts[1], ts[end]); println(\"inferred ok\")'", "inferred ok")
s.bash("julia --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); using BenchmarkTools; @btime highs_and_lows($BERGEN, DateTime(2024), DateTime(2024,2))'", "  612.880 μs (19 allocations: 250.41 KiB)")
s.assistant(
    "Sweep done. No other abstract fields: `TideModel` is concrete, `STANDARD_SPEEDS` is a `Dict{String,Float64}` const, no globals. "
    "`@inferred` passes for `predict` and `highs_and_lows`. `highs_and_lows` for a month at 6-minute steps: 612.880 μs, 19 allocations; nothing to do there."
)

# ============================================================================================ turn 8b: CI review (filler)
s.files[".github/workflows/CI.yml"] = CI_YML
s.files["bench/stations.jl"] = STATIONS
s.user("ci yml still ok with the aqua/jet stuff? look but dont change anything there, kari owns ci")
ls(".github/workflows")
s.read(".github/workflows/CI.yml")
for pat in ["julia-version|version:", "Pkg.test|julia-runtest", "coverage", "matrix"]:
    rg(pat, ".github")
s.bash("gh run list --limit 5", "STATUS  TITLE                                          WORKFLOW  BRANCH  EVENT  ID           ELAPSED  AGE\n✓       highs_and_lows: step keyword               CI        main    push   13290417712  4m12s    3d\n✓       nodal: K2 corrections                      CI        main    push   13101927530  4m03s    9d\nX       Constituent: accept any Real speed (custom  CI        main    push   12871530921  3m58s    37d\n✓       docs: Bergen example                       CI        main    push   12840011877  3m41s    38d\n✓       CI: test 1.10 and 1.11                     CI        main    push   12700234519  3m55s    44d")
s.bash("gh run view 12871530921 --log-failed | tail -14", "test (1.10)\tRun tests\tpredict: Test Failed at /home/runner/work/Tidewell.jl/Tidewell.jl/test/test_predict.jl:10\ntest (1.10)\tRun tests\t  Expression: ≈(h[1], 1.2345812, atol = 1.0e-6)\ntest (1.10)\tRun tests\t   Evaluated: 1.2345795 ≈ 1.2345812 (atol=1.0e-6)\ntest (1.10)\tRun tests\tTest Summary: | Pass  Fail  Total  Time\ntest (1.10)\tRun tests\tTidewell      |   10     1     11  4.2s\ntest (1.10)\tRun tests\tERROR: LoadError: Some tests did not pass: 10 passed, 1 failed, 0 errored, 0 broken.")
s.bash("gh run view 13290417712 --json jobs -q '.jobs[] | .name + \" \" + .conclusion'", "test (1.10) success\ntest (1.11) success\ndocs success")
s.bash("git log --oneline -3 -- test/test_predict.jl", "2f0c5b3 Constituent: accept any Real speed (custom constituents)\n77ad0e1 docs: Bergen example\n1c0b7d2 initial harmonics")
s.bash("git show 2f0c5b3 -- test/test_predict.jl | head -3", "")
s.bash("git log -1 --format=%H%n%s 8be1d90 -- test/", "8be1d90c2e1d40e6a0c0b9e31a7d55a2c9f0e1b7\nnodal: K2 corrections")
s.assistant(
    "CI.yml needs no change: it runs `julia-actions/julia-runtest` on 1.10 and 1.11, which picks up test/runtests.jl, so Aqua runs on both and JET only on 1.11 via the `VERSION` check. Not touched.\n\n"
    "Side finding from `gh run list`: the 1.10 job already failed once, on 2f0c5b3 (run 12871530921), with the same `test_predict.jl:10` mismatch; later runs are green on 1.10, so it's intermittent in CI or depends on the runner CPU."
)

# ============================================================================================ turn 8c: benches (filler)
s.user("bench all 4 stations before/after pls")
for st, before, after in [("BERGEN", "14.212 ms (43803 allocations: 1.31 MiB)", "4.402 ms (3 allocations: 68.62 KiB)"),
                          ("TROMSO", "22.904 ms (70083 allocations: 2.10 MiB)", "6.981 ms (3 allocations: 68.62 KiB)"),
                          ("STAVANGER", "11.377 ms (35043 allocations: 1.05 MiB)", "3.530 ms (3 allocations: 68.62 KiB)"),
                          ("NARVIK", "25.610 ms (78843 allocations: 2.36 MiB)", "7.840 ms (3 allocations: 68.62 KiB)")]:
    s.bash(f"git stash -q && julia --project=bench -e 'include(\"bench/bench_predict.jl\"); @btime predict(${st}, $ts)'; git stash pop -q", "  " + before)
    s.bash(f"julia --project=bench -e 'include(\"bench/bench_predict.jl\"); @btime predict(${st}, $ts)'", "  " + after)
s.assistant(
    "A year of hourly values, before → after:\n\n| station | constituents | before | after |\n|---|---:|---:|---:|\n| Bergen | 5 | 14.212 ms | 4.402 ms |\n| Tromsø | 8 | 22.904 ms | 6.981 ms |\n| Stavanger | 4 | 11.377 ms | 3.530 ms |\n| Narvik | 9 | 25.610 ms | 7.840 ms |\n\n"
    "A steady 3.2-3.3x everywhere, and allocations down from tens of thousands to 3 per call."
)

# ============================================================================================ turn 8d: flakiness (filler)
s.user("run the suite 3 times, aqua took 38s earlier which is weird")
for secs in ["56.1s", "55.7s", "57.0s"]:
    pkg_test({"constituents": (7, 7), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1), "Aqua": (11, 11), "JET": (1, 1)}, secs, aqua=True)
s.bash("julia --project=test -e 'using Aqua, Tidewell; @time Aqua.test_ambiguities(Tidewell)' 2>&1 | tail -2", "Test Summary: | Pass  Total  Time\nAmbiguities   |    1      1  26.8s\n 26.812490 seconds (12.30 M allocations: 801.5 MiB, 4.12% gc time, 98.71% compilation time)")
s.assistant("Stable: 56-57 s for the whole suite. Almost all of Aqua's time is `test_ambiguities` (26.8 s, nearly all compilation), which spawns a fresh Julia process; that's normal for Aqua and not flaky.")

# ============================================================================================ turn 9
s.user("changelog + bump to 0.5.2. and update docs/src/index.md example to show a custom constituent, later not now")
s.read("CHANGELOG.md")
s.edit("CHANGELOG.md", "# Changelog\n\n", "# Changelog\n\n## 0.5.2\n- `predict` is fast again: `Constituent.speed` is `Float64` (regressed to `Real` in 0.5.0, ~3x slower).\n- Constituents without a nodal entry get no nodal correction instead of a MethodError.\n- Removed unused `Printf` dependency; `StaticArrays` compat 1.5.\n- Aqua.jl and JET.jl (Julia 1.11+) checks in the test suite.\n\n")
s.edit("Project.toml", 'version = "0.5.1"', 'version = "0.5.2"')
s.bash("git diff --stat", " CHANGELOG.md              |  7 +++++++\n Project.toml              |  5 ++---\n src/astro.jl              |  4 ++--\n src/constituents.jl       |  4 +++-\n src/nodal.jl              |  3 ++-\n test/Project.toml         |  1 +\n test/runtests.jl          |  2 ++\n test/test_aqua.jl         |  5 +++++\n test/test_constituents.jl |  2 ++\n test/test_jet.jl          | 11 +++++++++++\n 10 files changed, 39 insertions(+), 6 deletions(-)")
pkg_test({"constituents": (7, 7), "nodal": (2, 2), "predict": (3, 3), "extrema": (1, 1), "Aqua": (11, 11), "JET": (1, 1)}, "56.4s", aqua=True)
s.assistant("CHANGELOG has a 0.5.2 entry and Project.toml says 0.5.2. The docs example with a custom constituent is noted for later, not done.")

# ============================================================================================ turn 10
s.user("commit, dont tag yet. tag after 1.10 thing is fixed")
s.bash("git add -A && git commit -qm 'Constituent.speed back to Float64; Aqua + JET; no nodal MethodError for custom constituents' && git log --oneline -1",
       "e5b27c9 (HEAD -> main) Constituent.speed back to Float64; Aqua + JET; no nodal MethodError for custom constituents")
s.bash("git status --short", "")
s.assistant("Committed e5b27c9 on main, no tag.")

# ============================================================================================ turn 11: more 1.10 digging (filler)
s.user("back to the 1.10 thing")
for _i, (cmd, out) in enumerate([
    ("julia +1.10 --version", "julia version 1.10.7"),
    ("julia +1.11 --version", "julia version 1.11.2"),
    ("julia +1.10 -e 'println(Base.Math.FMA_NATIVE)'", "ERROR: UndefVarError: `FMA_NATIVE` not defined"),
    ("julia +1.10 -e 'println(Sys.CPU_NAME)'", "znver3"),
    ("julia +1.10 --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); for c in BERGEN.constituents; println(c.name, \" \", c.speed) end'", "M2 28.9841042\nS2 30.0\nN2 28.4397295\nK1 15.0410686\nO1 13.9430356"),
    ("julia +1.11 --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); for c in BERGEN.constituents; println(c.name, \" \", c.speed) end'", "M2 28.9841042\nS2 30.0\nN2 28.4397295\nK1 15.0410686\nO1 13.9430356"),
    ("julia +1.10 --project -e 'using Tidewell, Dates; f,u = Tidewell.nodal_factors(DateTime(2024)); println(f); println(u)'", "[0.9628394731022, 1.0, 0.9628394731022, 1.0874551093177, 0.9395106245501, 0.9016617221812, 1.0, 0.9016617221812, 0.9628394731022, 0.9628394731022, 0.9628394731022, 1.0]\n[-1.9573081902117, 0.0, -1.9573081902117, 15.9014460192, 7.5922771830, -9.2271300117, 0.0, -9.2271300117, -1.9573081902117, -1.9573081902117, -1.9573081902117, 0.0]"),
    ("julia +1.11 --project -e 'using Tidewell, Dates; f,u = Tidewell.nodal_factors(DateTime(2024)); println(f); println(u)'", "[0.9628394731022, 1.0, 0.9628394731022, 1.0874551093177, 0.9395106245501, 0.9016617221812, 1.0, 0.9016617221812, 0.9628394731022, 0.9628394731022, 0.9628394731022, 1.0]\n[-1.9573081902117, 0.0, -1.9573081902117, 15.9014460192, 7.5922771830, -9.2271300117, 0.0, -9.2271300117, -1.9573081902117, -1.9573081902117, -1.9573081902117, 0.0]"),
    ("cat bench/stations.jl | head -12", "const BERGEN = TideModel(\"Bergen\", 0.92, [\n    Constituent(\"M2\", 0.4112, 331.2), Constituent(\"S2\", 0.1406, 5.7),\n    Constituent(\"N2\", 0.0871, 310.4), Constituent(\"K1\", 0.0503, 161.0),\n    Constituent(\"O1\", 0.0342, 339.8),\n])"),
]):
    s.bash(cmd, out)
s.bash("julia +1.10 --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); for c in BERGEN.constituents; fc, uc = Tidewell.nodal_correction(c, Tidewell.nodal_factors(DateTime(2024))...); println(c.name, \" \", fc * c.amplitude * cosd(uc - c.phase)) end'",
       "M2 0.3343710318420991\nS2 0.1399046963700417\nN2 0.0616541880119412\nK1 -0.0449361200107155\nO1 0.0385853762211147")
s.bash("julia +1.11 --project -e 'using Tidewell, Dates; include(\"bench/stations.jl\"); for c in BERGEN.constituents; fc, uc = Tidewell.nodal_correction(c, Tidewell.nodal_factors(DateTime(2024))...); println(c.name, \" \", fc * c.amplitude * cosd(uc - c.phase)) end'",
       "M2 0.3343710318420991\nS2 0.1399046963700417\nN2 0.0616541880119412\nK1 -0.0449344288540411\nO1 0.0385853762211147")
s.assistant(
    "Narrowed down: every term matches bit for bit except K1, which is -0.0449361200107155 on 1.10 and -0.0449344288540411 on 1.11, a difference of 1.7e-6 (the whole failure). "
    "K1's nodal `u` and `f` are identical on both, so it's `cosd(uc - c.phase)` with `uc - c.phase` = 7.5922771830 - 161.0 = -153.407…; `cosd` of a negative argument in that range. I'll look at how `cosd` reduces negative degrees in 1.10 next."
)
s.bash("julia +1.10 -e 'println(cosd(-153.407722817)); println(cosd(153.407722817))'; julia +1.11 -e 'println(cosd(-153.407722817)); println(cosd(153.407722817))'",
       "-0.8934047213461302\n-0.8942389873100548\n-0.8942389873100548\n-0.8942389873100548")
s.assistant(
    "That's the culprit: on 1.10.7, `cosd(-153.407722817)` returns -0.8934047… while `cosd(153.407722817)` returns -0.8942389…; cosine is even, so 1.10 is wrong for that negative argument and 1.11 is right. "
    "Looks like a `cosd` range-reduction bug for negative degrees in 1.10. Workaround would be `cosd(mod(x, 360))` in `predict`, but I haven't made that change or checked whether it's a known Julia issue. Still open."
)

# ============================================================================================ turn 12
s.user("dont patch around julia bugs in predict without asking. find the julia issue first. i'll check tomorrow")
s.bash("julia +1.10 -e 'using InteractiveUtils; @less cosd(-1.0)' 2>&1 | head -3", "ERROR: no terminal editor; set JULIA_EDITOR")
s.bash("julia +1.10 -e 'using InteractiveUtils; println(functionloc(cosd, (Float64,)))'", "(\"/cache/build/builder-amdci4-2/julialang/julia-release-1-dot-10/usr/share/julia/base/special/trig.jl\", 1191)")
s.assistant(
    "Not patched. Where things stand:\n\n"
    "- Committed e5b27c9 on main (not tagged; tag v0.5.2 waits for the 1.10 failure).\n"
    "- Still open: `test/test_predict.jl:10` fails on Julia 1.10.7 (1.2345795 vs 1.2345812). Root cause found so far: `cosd(-153.407722817)` differs from `cosd(153.407722817)` on 1.10 only (K1 term). The matching upstream Julia issue is not found yet; `cosd` lives in base/special/trig.jl:1191 on 1.10. No workaround applied, none without your OK.\n"
    "- Still to do later: docs/src/index.md example with a custom constituent."
)

# ============================================================================================ turn 13
s.user("fine. sum up where we are, short")
s.bash("git log --oneline -2", "e5b27c9 (HEAD -> main) Constituent.speed back to Float64; Aqua + JET; no nodal MethodError for custom constituents\nc41e7a2 (tag: v0.5.1) highs_and_lows: step keyword")
s.bash("git status --short", "")
s.assistant(
    "- Done: predict regression fixed (speed::Float64, ~3.2x faster, 3 allocations), Aqua + JET checks, Printf removed, StaticArrays compat 1.5, CHANGELOG and version 0.5.2, committed e5b27c9 (no tag).\n"
    "- Open: the 1.10-only failure at test_predict.jl:10, traced to `cosd` of a negative argument on 1.10.7; upstream issue not found, nothing patched.\n"
    "- Later: docs example with a custom constituent; tag v0.5.2 once the 1.10 failure is sorted."
)

s.save(HERE / "session.jsonl")
print(f"{len(s.lines)} entries, {s.calls} tool calls")
