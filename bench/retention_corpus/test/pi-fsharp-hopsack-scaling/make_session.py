# ruff: noqa: E501
"""Writes session.jsonl and labels.json: a pi v3 session written by hand for the heldout8a split.

A brewer-developer who quotes the assistant's lines back ("> ...") and answers under each quote has
pi add recipe scaling to hopsack, an F# / .NET 8 brewing library + CLI: units of measure, Tinseth
IBU kept constant by adjusting hops, FsCheck properties via paket, Fantomas, an Argu CLI command.
The "don't touch Hopsack.Cli" rule is withdrawn later. ~150 tool calls.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402
from synth.pi_writer import PiSession  # noqa: E402

CWD = "/home/ines/src/hopsack"
s = PiSession(CWD, "2026-11-24T08:05:00", seed="hopsack-scale")

CORE_PROJ = "src/Hopsack.Core/Hopsack.Core.fsproj"
UNITS = "src/Hopsack.Core/Units.fs"
RECIPE = "src/Hopsack.Core/Recipe.fs"
BITTER = "src/Hopsack.Core/Bitterness.fs"
GRAV = "src/Hopsack.Core/Gravity.fs"
SCALE = "src/Hopsack.Core/Scaling.fs"
TEST_PROJ = "tests/Hopsack.Tests/Hopsack.Tests.fsproj"
T_MAIN = "tests/Hopsack.Tests/Main.fs"
T_BITTER = "tests/Hopsack.Tests/BitternessTests.fs"
T_GRAV = "tests/Hopsack.Tests/GravityTests.fs"
T_SCALE = "tests/Hopsack.Tests/ScalingTests.fs"
PAKET = "paket.dependencies"
TEST_REFS = "tests/Hopsack.Tests/paket.references"
TOOLS = ".config/dotnet-tools.json"
CLI_PROJ = "src/Hopsack.Cli/Hopsack.Cli.fsproj"
CLI = "src/Hopsack.Cli/Program.fs"
DBP = "Directory.Build.props"
PALE = "recipes/cascade-pale.json"

s.files.update({
    CORE_PROJ: """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>net8.0</TargetFramework>
    <GenerateDocumentationFile>true</GenerateDocumentationFile>
  </PropertyGroup>
  <ItemGroup>
    <Compile Include="Units.fs" />
    <Compile Include="Recipe.fs" />
    <Compile Include="Gravity.fs" />
    <Compile Include="Bitterness.fs" />
  </ItemGroup>
  <Import Project="..\\..\\.paket\\Paket.Restore.targets" />
</Project>
""",
    UNITS: """namespace Hopsack.Core

/// Litres.
[<Measure>] type L
/// Grams.
[<Measure>] type g
/// Kilograms.
[<Measure>] type kg
/// Minutes.
[<Measure>] type min
/// Hours.
[<Measure>] type h

module Units =
    let gPerKg = 1000.0<g/kg>
    let minPerH = 60.0<min/h>
""",
    RECIPE: """namespace Hopsack.Core

type Fermentable =
    { Name: string
      Amount: float<kg>
      /// Points per kilogram per litre (PKL), e.g. Maris Otter 301.
      Pkl: float }

type HopAddition =
    { Name: string
      Amount: float<g>
      AlphaAcid: float
      Time: float<min> }

type Recipe =
    { Name: string
      BatchSize: float<L>
      BoilTime: float<min>
      Efficiency: float
      Fermentables: Fermentable list
      Hops: HopAddition list }
""",
    GRAV: """namespace Hopsack.Core

module Gravity =
    /// Original gravity points (e.g. 48.0 for 1.048) at the given volume.
    let points (efficiency: float) (volume: float<L>) (fermentables: Fermentable list) =
        let total = fermentables |> List.sumBy (fun f -> float f.Amount * f.Pkl)
        total * efficiency / float volume

    let toSg (points: float) = 1.0 + points / 1000.0
""",
    BITTER: """namespace Hopsack.Core

module Bitterness =
    /// Tinseth utilisation for a boil gravity (SG) and a boil time.
    let utilisation (boilSg: float) (time: float<min>) =
        let bigness = 1.65 * 0.000125 ** (boilSg - 1.0)
        let boilFactor = (1.0 - exp (-0.04 * float time)) / 4.15
        bigness * boilFactor

    /// IBU of one addition into a post-boil volume.
    let ibu (boilSg: float) (volume: float<L>) (hop: HopAddition) =
        utilisation boilSg hop.Time * hop.AlphaAcid * float hop.Amount * 1000.0 / float volume

    let total (boilSg: float) (volume: float<L>) (hops: HopAddition list) =
        hops |> List.sumBy (ibu boilSg volume)
""",
    TEST_PROJ: """<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <OutputType>Exe</OutputType>
    <TargetFramework>net8.0</TargetFramework>
  </PropertyGroup>
  <ItemGroup>
    <Compile Include="GravityTests.fs" />
    <Compile Include="BitternessTests.fs" />
    <Compile Include="Main.fs" />
  </ItemGroup>
  <ItemGroup>
    <ProjectReference Include="..\\..\\src\\Hopsack.Core\\Hopsack.Core.fsproj" />
  </ItemGroup>
  <Import Project="..\\..\\.paket\\Paket.Restore.targets" />
</Project>
""",
    T_MAIN: """module Main

open Expecto

[<EntryPoint>]
let main argv =
    Tests.runTestsInAssemblyWithCLIArgs [] argv
""",
    T_BITTER: """module BitternessTests

open Expecto
open Hopsack.Core

let cascade60 = { Name = "Cascade"; Amount = 40.0<g>; AlphaAcid = 0.065; Time = 60.0<min> }

[<Tests>]
let tests =
    testList "bitterness" [
        test "tinseth utilisation at 1.050, 60 min" {
            Expect.floatClose Accuracy.medium (Bitterness.utilisation 1.050 60.0<min>) 0.2306 "util"
        }
        test "40 g Cascade 6.5% for 60 min in 20 L" {
            Expect.floatClose Accuracy.low (Bitterness.ibu 1.050 20.0<L> cascade60) 29.98 "ibu"
        }
    ]
""",
    T_GRAV: """module GravityTests

open Expecto
open Hopsack.Core

[<Tests>]
let tests =
    testList "gravity" [
        test "5 kg Maris Otter at 75% in 23 L" {
            let mo = { Name = "Maris Otter"; Amount = 5.0<kg>; Pkl = 301.0 }
            Expect.floatClose Accuracy.low (Gravity.points 0.75 23.0<L> [ mo ]) 49.08 "points"
        }
    ]
""",
    PAKET: """source https://api.nuget.org/v3/index.json
storage: none
framework: net8.0

nuget FSharp.Core ~> 8.0
nuget Expecto ~> 10.2
nuget Expecto.FsCheck ~> 10.2
nuget Thoth.Json.Net ~> 12.0
""",
    TEST_REFS: """Expecto
FSharp.Core
""",
    TOOLS: """{
  "version": 1,
  "isRoot": true,
  "tools": {
    "paket": { "version": "8.0.3", "commands": ["paket"] },
    "fantomas": { "version": "6.3.4", "commands": ["fantomas"] }
  }
}
""",
    PALE: """{
  "name": "Cascade Pale",
  "batchSize": 20.0,
  "boilTime": 60,
  "efficiency": 0.72,
  "fermentables": [
    { "name": "Maris Otter", "amount": 4.2, "pkl": 301 },
    { "name": "Crystal 60", "amount": 0.25, "pkl": 284 }
  ],
  "hops": [
    { "name": "Cascade", "amount": 21, "alphaAcid": 0.065, "time": 60 },
    { "name": "Cascade", "amount": 30, "alphaAcid": 0.065, "time": 10 }
  ]
}
""",
})

TEST_CMD = "dotnet run --project tests/Hopsack.Tests"


def expecto(passed: int, ms: int, failed: int = 0, errored: int = 0) -> str:
    return (f"[08:{10 + passed % 40:02d}:{ms % 60:02d} INF] EXPECTO? Running tests... <Expecto>\n"
            f"[08:{10 + passed % 40:02d}:{(ms + 1) % 60:02d} INF] EXPECTO! {passed + failed + errored} tests run in 00:00:00.{ms:07d} for miscellaneous - "
            f"{passed} passed, 0 ignored, {failed} failed, {errored} errored. {'Success!' if not failed and not errored else 'ERROR!'} <Expecto>")


# ===================================================================== turn 1
s.user(
    "Morning. hopsack needs recipe scaling: take a recipe at its batch size and scale it to a target volume. Grains and hops scale with volume, but I want the IBU recalculated with Tinseth afterwards, because our kettle's boil-off doesn't scale with the batch and the boil gravity moves.\n\n"
    "Ground rules:\n"
    "- packages only through paket. Never `dotnet add package`, it bypasses paket.lock and broke CI last month.\n"
    "- Fantomas has to pass (`dotnet fantomas --check .`), CI runs it.\n"
    "- Hopsack.Core stays pure: no IO, no printfn, no DateTime.Now in there.\n"
    "- Don't touch Hopsack.Cli. Mateus is refactoring it on his branch and we'd conflict.\n"
    "- Units of measure for volumes and masses, no bare floats in the public API."
)
s.bash("git status --short; git branch --show-current; git log --oneline -6", """main
a71c3d2 bitterness: Tinseth utilisation
6e0b9f4 gravity: points from PKL and efficiency
51d8a2c units: L, g, kg, min, h
0c4e7f1 cli: read recipe json with Thoth
9aa12b0 paket: expecto, thoth
3d5f6e8 initial""")
s.bash("ls -R src tests recipes | head -40; cat global.json", """src:
Hopsack.Cli
Hopsack.Core

src/Hopsack.Cli:
Hopsack.Cli.fsproj
Program.fs
RecipeFile.fs
paket.references

src/Hopsack.Core:
Bitterness.fs
Gravity.fs
Hopsack.Core.fsproj
Recipe.fs
Units.fs
paket.references

tests:
Hopsack.Tests

tests/Hopsack.Tests:
BitternessTests.fs
GravityTests.fs
Hopsack.Tests.fsproj
Main.fs
paket.references

recipes:
amber-ale.json
cascade-pale.json
dry-stout.json
{
  "sdk": { "version": "8.0.403", "rollForward": "latestFeature" }
}""")
for p in [CORE_PROJ, UNITS, RECIPE, GRAV, BITTER, TEST_PROJ, T_BITTER, T_GRAV, T_MAIN, PAKET, TOOLS]:
    s.read(p)
s.bash("cat paket.lock | head -30", """STORAGE: NONE
RESTRICTION: == net8.0
NUGET
  remote: https://api.nuget.org/v3/index.json
    Expecto (10.2.1)
      FSharp.Core (>= 7.0.200)
      Mono.Cecil (>= 0.11.4 < 1.0)
    Expecto.FsCheck (10.2.1)
      Expecto (>= 10.2.1)
      FsCheck (>= 2.16.5 < 3.0)
    FsCheck (2.16.6)
      FSharp.Core (>= 4.2.3)
    FSharp.Core (8.0.400)
    Mono.Cecil (0.11.5)
    Thoth.Json.Net (12.0)
      FSharp.Core (>= 4.7.2)
      Newtonsoft.Json (>= 11.0.2)
    Newtonsoft.Json (13.0.3)""")
s.bash("cat src/Hopsack.Core/paket.references src/Hopsack.Cli/paket.references", """FSharp.Core
FSharp.Core
Thoth.Json.Net""")
s.bash("dotnet --version; dotnet tool restore", """8.0.403
Tool 'paket' (version '8.0.3') was restored. Available commands: paket
Tool 'fantomas' (version '6.3.4') was restored. Available commands: fantomas

Restore was successful.""")
s.bash("dotnet build 2>&1 | tail -5", """  Hopsack.Core -> /home/ines/src/hopsack/src/Hopsack.Core/bin/Debug/net8.0/Hopsack.Core.dll
  Hopsack.Cli -> /home/ines/src/hopsack/src/Hopsack.Cli/bin/Debug/net8.0/Hopsack.Cli.dll
  Hopsack.Tests -> /home/ines/src/hopsack/tests/Hopsack.Tests/bin/Debug/net8.0/Hopsack.Tests.dll

Build succeeded.
    0 Warning(s)
    0 Error(s)""")
s.bash(TEST_CMD + " 2>&1 | tail -3", expecto(3, 412))
s.bash("dotnet fantomas --check . ; echo exit=$?", "exit=0")
s.bash("grep -rn 'BatchSize\\|BoilTime' src --include=*.fs", """src/Hopsack.Core/Recipe.fs:19:    { Name: string
src/Hopsack.Core/Recipe.fs:20:      BatchSize: float<L>
src/Hopsack.Core/Recipe.fs:21:      BoilTime: float<min>
src/Hopsack.Cli/RecipeFile.fs:22:          BatchSize = get.Required.Field "batchSize" Decode.float * 1.0<L>
src/Hopsack.Cli/RecipeFile.fs:23:          BoilTime = get.Required.Field "boilTime" Decode.float * 1.0<min>""")
s.bash("grep -rn 'Bitterness\\.' src tests --include=*.fs", """src/Hopsack.Cli/Program.fs:31:    let ibu = Bitterness.total sg recipe.BatchSize recipe.Hops
tests/Hopsack.Tests/BitternessTests.fs:12:            Expect.floatClose Accuracy.medium (Bitterness.utilisation 1.050 60.0<min>) 0.2306 "util"
tests/Hopsack.Tests/BitternessTests.fs:15:            Expect.floatClose Accuracy.low (Bitterness.ibu 1.050 20.0<L> cascade60) 29.98 "ibu\"""")
s.bash("sed -n 20,45p src/Hopsack.Cli/Program.fs", """let report (recipe: Recipe) =
    let og = Gravity.points recipe.Efficiency recipe.BatchSize recipe.Fermentables
    let sg = Gravity.toSg og
    let ibu = Bitterness.total sg recipe.BatchSize recipe.Hops
    printfn "%s: OG %.3f, IBU %.1f" recipe.Name (Gravity.toSg og) ibu

[<EntryPoint>]
let main argv =
    match argv with
    | [| "report"; path |] -> RecipeFile.load path |> Result.map report |> ignore; 0
    | _ -> eprintfn "usage: hopsack report <recipe.json>"; 2""")
s.bash("cat recipes/cascade-pale.json", s.files[PALE])
s.bash("jq -c '.hops[] | [.name, .amount, .time]' recipes/amber-ale.json recipes/dry-stout.json", """["Fuggles",38,60]
["East Kent Goldings",20,15]
["Target",45,75]
["East Kent Goldings",15,15]""")
s.bash("cat .github/workflows/ci.yml", """name: ci
on: [push, pull_request]
jobs:
  build:
    runs-on: ubuntu-24.04
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-dotnet@v4
        with: { global-json-file: global.json }
      - run: dotnet tool restore
      - run: dotnet fantomas --check .
      - run: dotnet paket restore
      - run: dotnet build -c Release
      - run: dotnet run -c Release --project tests/Hopsack.Tests""")
s.bash("git branch -r; git log --oneline -2 origin/mateus/cli-argu", """  origin/HEAD -> origin/main
  origin/main
  origin/mateus/cli-argu
f02b6e1 cli: Argu subcommands (report, validate)
aa81c35 cli: split RecipeFile decoders""")
s.bash("grep -rn 'mutable\\|printfn\\|System.IO' src/Hopsack.Core", "(no output)")
s.assistant(
    "Baseline: .NET SDK 8.0.403, paket 8.0.3, Fantomas 6.3.4; build clean, Expecto 3/3, `fantomas --check` clean. Note the CLI computes IBU with the OG at batch size as the boil gravity, which is what Tinseth's 'bigness' wants only approximately.\n\n"
    "Plan, with questions:\n"
    "1. New `Scaling.fs` in Hopsack.Core with `scale : Kettle -> float<L> -> Recipe -> Recipe`. Placement in the fsproj: after Recipe.fs and before Bitterness.fs?\n"
    "2. Should the boil volume scale with the batch, or keep the boil-off rate fixed in L/h?\n"
    "3. Round hop and grain amounts in Core, or keep full precision?\n"
    "4. Tests as a new `ScalingTests.fs` in Hopsack.Tests, Expecto like the others."
)

# ===================================================================== turn 2
s.user(
    "> Placement in the fsproj: after Recipe.fs and before Bitterness.fs?\n\n"
    "After Bitterness.fs, it's going to need Tinseth.\n\n"
    "> Should the boil volume scale with the batch, or keep the boil-off rate fixed in L/h?\n\n"
    "Fixed. The kettle boils off 3.5 L/h whatever is in it, and we lose 1.5 L to trub and hop debris. Pre-boil = target + boil-off x boil time + trub. Put the kettle numbers in a Kettle record, don't hard-code them.\n\n"
    "> Round hop and grain amounts in Core, or keep full precision?\n\n"
    "Full precision in Core. Rounding (hops to 0.5 g, grains to 10 g) is a presentation thing, for later.\n\n"
    "> Tests as a new `ScalingTests.fs`\n\n"
    "Yes."
)
s.bash("grep -rn 'minPerH\\|gPerKg' src tests", """src/Hopsack.Core/Units.fs:14:    let gPerKg = 1000.0<g/kg>
src/Hopsack.Core/Units.fs:15:    let minPerH = 60.0<min/h>""")
s.write(SCALE, """namespace Hopsack.Core

/// The kettle a recipe is brewed in: what it boils off and what stays behind.
type Kettle =
    { BoilOff: float<L/h>
      TrubLoss: float<L> }

module Scaling =
    /// Pre-boil volume for a post-boil target in this kettle.
    let preBoil (kettle: Kettle) (boilTime: float<min>) (target: float<L>) =
        target + kettle.BoilOff * (boilTime / Units.minPerH) + kettle.TrubLoss

    /// Scale grains and hops linearly from the recipe's batch size to `target`.
    let scale (kettle: Kettle) (target: float<L>) (recipe: Recipe) =
        let factor = target / recipe.BatchSize

        { recipe with
            BatchSize = target
            Fermentables = recipe.Fermentables |> List.map (fun f -> { f with Amount = f.Amount * factor })
            Hops = recipe.Hops |> List.map (fun h -> { h with Amount = h.Amount * factor }) }
""")
s.edit(CORE_PROJ, """    <Compile Include="Recipe.fs" />
""", """    <Compile Include="Recipe.fs" />
    <Compile Include="Scaling.fs" />
""")
s.bash("dotnet build src/Hopsack.Core 2>&1 | tail -4", """  Hopsack.Core -> /home/ines/src/hopsack/src/Hopsack.Core/bin/Debug/net8.0/Hopsack.Core.dll

Build succeeded.
    0 Warning(s)""")
s.assistant("Builds. I put Scaling.fs after Recipe.fs for now since this first cut does not call Tinseth yet; it moves after Bitterness.fs when the IBU part goes in. Now the IBU recalculation: boil gravity from the pre-boil volume.")
s.edit(SCALE, """    /// Scale grains and hops linearly from the recipe's batch size to `target`.
    let scale (kettle: Kettle) (target: float<L>) (recipe: Recipe) =""", """    /// Boil gravity (SG) of a recipe in this kettle: the extract diluted in the pre-boil volume.
    let boilSg (kettle: Kettle) (recipe: Recipe) =
        let pre = preBoil kettle recipe.BoilTime recipe.BatchSize
        Gravity.points recipe.Efficiency pre recipe.Fermentables |> Gravity.toSg

    /// IBU of the recipe at its batch size, with the kettle's boil gravity.
    let ibu (kettle: Kettle) (recipe: Recipe) =
        Bitterness.total (boilSg kettle recipe) recipe.BatchSize recipe.Hops

    /// Scale grains and hops linearly from the recipe's batch size to `target`.
    let scale (kettle: Kettle) (target: float<L>) (recipe: Recipe) =""")
s.bash("dotnet build src/Hopsack.Core 2>&1 | grep -E 'error|Warn|Build' | head", """/home/ines/src/hopsack/src/Hopsack.Core/Scaling.fs(16,9): error FS0039: The value, namespace, type or module 'Gravity' is not defined. Maybe you want one of the following:
   Gravity
/home/ines/src/hopsack/src/Hopsack.Core/Scaling.fs(20,9): error FS0039: The value, namespace, type or module 'Bitterness' is not defined.
Build FAILED.""", code=1)
s.assistant("FS0039 for `Gravity` and `Bitterness`: F# compiles in fsproj order and Scaling.fs sits before both. As you said, it belongs after Bitterness.fs.")
s.edit(CORE_PROJ, """    <Compile Include="Recipe.fs" />
    <Compile Include="Scaling.fs" />
    <Compile Include="Gravity.fs" />
    <Compile Include="Bitterness.fs" />
""", """    <Compile Include="Recipe.fs" />
    <Compile Include="Gravity.fs" />
    <Compile Include="Bitterness.fs" />
    <Compile Include="Scaling.fs" />
""")
s.bash("dotnet build src/Hopsack.Core 2>&1 | tail -3", """Build succeeded.
    0 Warning(s)
    0 Error(s)""")
s.write(T_SCALE, """module ScalingTests

open Expecto
open Hopsack.Core

let kettle = { BoilOff = 3.5<L/h>; TrubLoss = 1.5<L> }

let pale =
    { Name = "Cascade Pale"
      BatchSize = 20.0<L>
      BoilTime = 60.0<min>
      Efficiency = 0.72
      Fermentables =
        [ { Name = "Maris Otter"; Amount = 4.2<kg>; Pkl = 301.0 }
          { Name = "Crystal 60"; Amount = 0.25<kg>; Pkl = 284.0 } ]
      Hops =
        [ { Name = "Cascade"; Amount = 21.0<g>; AlphaAcid = 0.065; Time = 60.0<min> }
          { Name = "Cascade"; Amount = 30.0<g>; AlphaAcid = 0.065; Time = 10.0<min> } ] }

[<Tests>]
let tests =
    testList "scaling" [
        test "pre-boil for 20 L, 60 min" {
            Expect.equal (Scaling.preBoil kettle 60.0<min> 20.0<L>) 25.0<L> "20 + 3.5 + 1.5"
        }
        test "grain scales linearly to 45 L" {
            let scaled = Scaling.scale kettle 45.0<L> pale
            Expect.equal scaled.Fermentables.[0].Amount 9.45<kg> "4.2 * 2.25"
        }
        test "scaling keeps the IBU" {
            let scaled = Scaling.scale kettle 45.0<L> pale
            Expect.floatClose Accuracy.medium (Scaling.ibu kettle scaled) (Scaling.ibu kettle pale) "ibu"
        }
    ]
""")
s.edit(TEST_PROJ, """    <Compile Include="BitternessTests.fs" />
""", """    <Compile Include="BitternessTests.fs" />
    <Compile Include="ScalingTests.fs" />
""")
s.bash(TEST_CMD + " 2>&1 | tail -20", """[08:22:41 INF] EXPECTO? Running tests... <Expecto>
[08:22:41 ERR] scaling/grain scales linearly to 45 L failed in 00:00:00.0040000.
4.2 * 2.25. Actual value was 9.450000000000001 but had expected it to be 9.45.
   at ScalingTests.tests@30.Invoke(Unit unitVar) in /home/ines/src/hopsack/tests/Hopsack.Tests/ScalingTests.fs:line 30
[08:22:41 ERR] scaling/scaling keeps the IBU failed in 00:00:00.0010000.
ibu. Expected difference to be less than 1.000000e-006 for relative and less than 1.000000e-006 for absolute.
Actual value was 33.71648 but had expected it to be 36.90415.
   at ScalingTests.tests@34.Invoke(Unit unitVar) in /home/ines/src/hopsack/tests/Hopsack.Tests/ScalingTests.fs:line 34
[08:22:41 INF] EXPECTO! 6 tests run in 00:00:00.0893215 for miscellaneous - 4 passed, 0 ignored, 2 failed, 0 errored. ERROR! <Expecto>""", code=1)
s.assistant(
    "Two failures:\n"
    "- `9.450000000000001` vs `9.45`: float equality in my test; it should be `Expect.floatClose`.\n"
    "- The real one: IBU 36.90 at 20 L becomes **33.72 at 45 L** with linear hops. That is exactly your boil-off point: pre-boil is 25 L for 20 L (25% extra) but only 50 L for 45 L (11% extra), so the boil gravity is higher at 45 L, Tinseth's bigness factor drops, utilisation drops, IBU drops about 8.6%.\n\n"
    "So linear hops do not keep the bitterness. Do you want `scale` to correct hop amounts so the IBU matches the original (each addition multiplied by the same IBU ratio), or to keep linear hops and just report the new IBU?"
)
s.edit(T_SCALE, """            Expect.equal scaled.Fermentables.[0].Amount 9.45<kg> "4.2 * 2.25\"""", """            Expect.floatClose Accuracy.high (float scaled.Fermentables.[0].Amount) 9.45 "4.2 * 2.25\"""")
s.bash("grep -n 'floatClose' tests/Hopsack.Tests/*.fs | wc -l", "5")

# ===================================================================== turn 3
s.user(
    "> So linear hops do not keep the bitterness.\n\n"
    "Ha, that's the whole reason I asked for Tinseth. Correct the hops so the IBU matches. Same ratio for every addition is fine, that's what the brewers do by hand.\n\n"
    "> IBU 36.90 at 20 L becomes 33.72 at 45 L\n\n"
    "Keep that number in a comment in the test, it's a nice sanity check. Also: a target of zero or negative litres should be an error, not a crash. Use Result, we don't throw in Core."
)
s.edit(SCALE, """    /// Scale grains and hops linearly from the recipe's batch size to `target`.
    let scale (kettle: Kettle) (target: float<L>) (recipe: Recipe) =
        let factor = target / recipe.BatchSize

        { recipe with
            BatchSize = target
            Fermentables = recipe.Fermentables |> List.map (fun f -> { f with Amount = f.Amount * factor })
            Hops = recipe.Hops |> List.map (fun h -> { h with Amount = h.Amount * factor }) }
""", """type ScaleError = NonPositiveVolume of float<L>

    /// Scale grains linearly from the recipe's batch size to `target`, then correct every hop
    /// addition by one ratio so the Tinseth IBU in this kettle matches the original.
    let scale (kettle: Kettle) (target: float<L>) (recipe: Recipe) : Result<Recipe, ScaleError> =
        if target <= 0.0<L> then
            Error(NonPositiveVolume target)
        else
            let factor = target / recipe.BatchSize

            let linear =
                { recipe with
                    BatchSize = target
                    Fermentables = recipe.Fermentables |> List.map (fun f -> { f with Amount = f.Amount * factor })
                    Hops = recipe.Hops |> List.map (fun h -> { h with Amount = h.Amount * factor }) }

            let correction = ibu kettle recipe / ibu kettle linear

            Ok
                { linear with
                    Hops = linear.Hops |> List.map (fun h -> { h with Amount = h.Amount * correction }) }
""")
s.bash("dotnet build src/Hopsack.Core 2>&1 | grep -E 'error|Build' | head -4", """/home/ines/src/hopsack/src/Hopsack.Core/Scaling.fs(29,5): error FS0010: Unexpected keyword 'type' in binding. Expected incomplete structured construct at or before this point or other token.
Build FAILED.""", code=1)
s.assistant("FS0010: a `type` cannot sit inside the `Scaling` module's let-bindings at that indentation. ScaleError goes at namespace level next to Kettle.")
s.edit(SCALE, """type ScaleError = NonPositiveVolume of float<L>

""", "")
s.edit(SCALE, """      TrubLoss: float<L> }
""", """      TrubLoss: float<L> }

/// Why a recipe could not be scaled.
type ScaleError = NonPositiveVolume of float<L>
""")
s.bash("dotnet build src/Hopsack.Core 2>&1 | tail -2", """    0 Warning(s)
    0 Error(s)""")
s.rewrite(T_SCALE, ("""        test "grain scales linearly to 45 L" {
            let scaled = Scaling.scale kettle 45.0<L> pale
""", """        test "grain scales linearly to 45 L" {
            let scaled = Scaling.scale kettle 45.0<L> pale |> Result.defaultWith (failwithf "%A")
"""), ("""        test "scaling keeps the IBU" {
            let scaled = Scaling.scale kettle 45.0<L> pale
            Expect.floatClose""", """        test "scaling keeps the IBU" {
            // linear hops alone gave 33.72 IBU at 45 L against 36.90 at 20 L (boil-off is fixed)
            let scaled = Scaling.scale kettle 45.0<L> pale |> Result.defaultWith (failwithf "%A")
            Expect.floatClose"""), ("""        }
    ]
""", """        }
        test "hops are corrected upwards at 45 L" {
            let scaled = Scaling.scale kettle 45.0<L> pale |> Result.defaultWith (failwithf "%A")
            Expect.floatClose Accuracy.low (float scaled.Hops.[0].Amount) 51.68 "21 g * 2.25 * 1.0937"
        }
        test "zero litres is an error" {
            Expect.equal (Scaling.scale kettle 0.0<L> pale) (Error(NonPositiveVolume 0.0<L>)) "error"
        }
    ]
"""))
s.bash(TEST_CMD + " 2>&1 | tail -6", """[08:31:02 INF] EXPECTO? Running tests... <Expecto>
[08:31:02 ERR] scaling/hops are corrected upwards at 45 L failed in 00:00:00.0030000.
21 g * 2.25 * 1.0937. Expected difference to be less than 1.000000e-003 for relative and less than 1.000000e-003 for absolute.
Actual value was 51.67766 but had expected it to be 51.68.
   at ScalingTests.tests@39.Invoke(Unit unitVar) in /home/ines/src/hopsack/tests/Hopsack.Tests/ScalingTests.fs:line 39
[08:31:02 INF] EXPECTO! 8 tests run in 00:00:00.0921334 for miscellaneous - 7 passed, 0 ignored, 1 failed, 0 errored. ERROR! <Expecto>""", code=1)
s.assistant("51.67766 vs my hand-rounded 51.68 with Accuracy.low (1e-3 relative is 0.05 g, so it should pass)... it does not because Expecto's `Accuracy.low` is absolute 1e-3 AND relative 1e-3 combined as `absolute + relative * |expected|`? No: the message says both must hold at 1e-3; the absolute difference is 0.0023. I'll put the exact value in the test.")
s.edit(T_SCALE, """(float scaled.Hops.[0].Amount) 51.68 "21 g * 2.25 * 1.0937\"""", """(float scaled.Hops.[0].Amount) 51.6777 "21 g * 2.25 * 1.09366\"""")
s.bash(TEST_CMD + " 2>&1 | tail -1", expecto(8, 918))
s.bash("dotnet fantomas --check . ; echo exit=$?", """src/Hopsack.Core/Scaling.fs needs formatting
tests/Hopsack.Tests/ScalingTests.fs needs formatting
exit=99""", code=0)
s.bash("dotnet fantomas src tests && dotnet fantomas --check . ; echo exit=$?", """Processed files: 11
exit=0""")
s.bash("git diff --stat", """ src/Hopsack.Core/Hopsack.Core.fsproj       |  1 +
 tests/Hopsack.Tests/Hopsack.Tests.fsproj   |  1 +
 2 files changed, 2 insertions(+)""")
s.assistant(
    "Scaling in Core: `Kettle { BoilOff: float<L/h>; TrubLoss: float<L> }`, `ScaleError = NonPositiveVolume`, `Scaling.preBoil`, `Scaling.boilSg`, `Scaling.ibu` and `Scaling.scale : Kettle -> float<L> -> Recipe -> Result<Recipe, ScaleError>`. Grains linear; hops linear times one correction ratio (1.0937 for the pale ale at 45 L, so 21 g becomes 51.68 g instead of 47.25 g). Expecto 8/8, Fantomas clean after formatting two files. No new packages, Cli untouched."
)

# ===================================================================== turn 4
s.user(
    "> Grains linear; hops linear times one correction ratio\n\n"
    "Good. Can we have a property test too: scaling to the same volume changes nothing, and scaling up then back down gets the original back. Expecto.FsCheck is already in paket.dependencies I think, just not referenced by the tests."
)
s.bash("grep -n FsCheck paket.dependencies paket.lock tests/Hopsack.Tests/paket.references", """paket.dependencies:7:nuget Expecto.FsCheck ~> 10.2
paket.lock:8:    Expecto.FsCheck (10.2.1)
paket.lock:10:      FsCheck (>= 2.16.5 < 3.0)
paket.lock:11:    FsCheck (2.16.6)""")
s.assistant("Right: Expecto.FsCheck 10.2.1 (FsCheck 2.16.6) is locked but only referenced nowhere. I'll add it to the test project's paket.references and let paket regenerate the restore targets; no `dotnet add`.")
s.edit(TEST_REFS, """Expecto
""", """Expecto
Expecto.FsCheck
""")
s.bash("dotnet paket install 2>&1 | tail -6", """Paket version 8.0.3+4f0a6e7b3c
Resolving dependency graph...
Updated packages:
  Group Main:
    - FsCheck: 3.0.0-rc3 (updated from 2.16.6)
Installing into projects:
Total time taken: 2 seconds""")
s.bash("dotnet build tests/Hopsack.Tests 2>&1 | grep -E 'error|warn' | head -5", """/home/ines/src/hopsack/.paket/Paket.Restore.targets(171,5): error : Package Expecto.FsCheck 10.2.1 requires FsCheck (>= 2.16.5 < 3.0) but FsCheck 3.0.0-rc3 was resolved. [/home/ines/src/hopsack/tests/Hopsack.Tests/Hopsack.Tests.fsproj]
/home/ines/src/hopsack/.paket/Paket.Restore.targets(171,5): error : Restore failed, see above.""", code=1)
s.bash("git diff paket.lock | head -20", """diff --git a/paket.lock b/paket.lock
index 8c1d0e2..41aa3b7 100644
--- a/paket.lock
+++ b/paket.lock
@@ -1,5 +1,6 @@
 STORAGE: NONE
 RESTRICTION: == net8.0
+PRERELEASES: true
 NUGET
   remote: https://api.nuget.org/v3/index.json
@@ -8,5 +9,5 @@
     Expecto.FsCheck (10.2.1)
       Expecto (>= 10.2.1)
       FsCheck (>= 2.16.5 < 3.0)
-    FsCheck (2.16.6)
+    FsCheck (3.0.0-rc3)
       FSharp.Core (>= 4.2.3)""")
s.bash("cat ~/.config/Paket/paket.config 2>/dev/null; env | grep -i paket", """PAKET_PRERELEASES=true""")
s.assistant(
    "`dotnet paket install` re-resolved and picked **FsCheck 3.0.0-rc3**, breaking Expecto.FsCheck's `< 3.0` bound: your shell has `PAKET_PRERELEASES=true` set, so paket considered prereleases. I'll reset paket.lock and pin FsCheck explicitly in paket.dependencies so it cannot drift: `nuget FsCheck ~> 2.16`."
)
s.bash("git checkout paket.lock", "Updated 1 path from the index")
s.edit(PAKET, """nuget Expecto.FsCheck ~> 10.2
""", """nuget Expecto.FsCheck ~> 10.2
nuget FsCheck ~> 2.16
""")
s.bash("PAKET_PRERELEASES= dotnet paket install 2>&1 | tail -4 && git diff --stat paket.lock paket.dependencies", """Resolving dependency graph...
Installing into projects:
 - Creating model and downloading packages.
Total time taken: 1 second
 paket.dependencies | 1 +
 paket.lock         | 1 +
 2 files changed, 2 insertions(+)""")
s.bash("grep -n 'FsCheck' paket.lock", """8:    Expecto.FsCheck (10.2.1)
10:      FsCheck (>= 2.16.5 < 3.0)
11:    FsCheck (2.16.6)
13:    FsCheck (2.16.6) - ~> 2.16""")
s.bash("dotnet paket show-installed-packages 2>/dev/null | grep -i fscheck", """Main FsCheck - 2.16.6
Main Expecto.FsCheck - 10.2.1""")
s.bash("dotnet build tests/Hopsack.Tests 2>&1 | tail -3", """Build succeeded.
    0 Warning(s)
    0 Error(s)""")
s.write("tests/Hopsack.Tests/ScalingProperties.fs", """module ScalingProperties

open Expecto
open FsCheck
open Hopsack.Core
open ScalingTests

let volume = Gen.choose (5, 500) |> Gen.map (fun l -> float l * 1.0<L>) |> Arb.fromGen

let close (a: Recipe) (b: Recipe) =
    List.forall2 (fun (x: HopAddition) (y: HopAddition) -> abs (x.Amount - y.Amount) < 1e-6<g>) a.Hops b.Hops
    && List.forall2 (fun (x: Fermentable) (y: Fermentable) -> abs (x.Amount - y.Amount) < 1e-9<kg>) a.Fermentables b.Fermentables

[<Tests>]
let properties =
    testList "scaling properties" [
        testProperty "same volume is identity" <| fun () ->
            Scaling.scale kettle pale.BatchSize pale = Ok pale
        testProperty "up then down round-trips" <| Prop.forAll volume (fun v ->
            match Scaling.scale kettle v pale |> Result.bind (Scaling.scale kettle pale.BatchSize) with
            | Ok back -> close back pale
            | Error _ -> false)
    ]
""")
s.edit(TEST_PROJ, """    <Compile Include="ScalingTests.fs" />
""", """    <Compile Include="ScalingTests.fs" />
    <Compile Include="ScalingProperties.fs" />
""")
s.bash(TEST_CMD + " 2>&1 | tail -12", """[08:47:10 INF] EXPECTO? Running tests... <Expecto>
[08:47:10 ERR] scaling properties/same volume is identity failed in 00:00:00.0310000.
Failed after 1 test. Parameters:

Result:
  False
Focus on error:
	etestProperty (1865288075, 296976521) "same volume is identity"
[08:47:11 INF] EXPECTO! 10 tests run in 00:00:00.4127750 for miscellaneous - 9 passed, 0 ignored, 1 failed, 0 errored. ERROR! <Expecto>""", code=1)
s.bash("dotnet fsi --quiet --exec <(printf '#r \"src/Hopsack.Core/bin/Debug/net8.0/Hopsack.Core.dll\"\\nopen Hopsack.Core\\n#load \"tests/Hopsack.Tests/ScalingTests.fs\"\\nlet (Ok r) = Scaling.scale ScalingTests.kettle 20.0<L> ScalingTests.pale\\nprintfn \"%%.17g\" (float r.Hops.[0].Amount)\\n')", """21.000000000000004""")
s.assistant("The identity property fails on structural equality: at the same volume the correction ratio is `ibu/ibu` which is 1.0000000000000002, so 21 g comes back as 21.000000000000004 g. The property should use the same tolerance `close` as the round trip, not `=`.")
s.edit("tests/Hopsack.Tests/ScalingProperties.fs", """            Scaling.scale kettle pale.BatchSize pale = Ok pale""", """            match Scaling.scale kettle pale.BatchSize pale with
            | Ok same -> close same pale
            | Error _ -> false""")
s.bash(TEST_CMD + " 2>&1 | tail -1", expecto(10, 436))
s.bash("dotnet fantomas src tests && dotnet fantomas --check . ; echo exit=$?", """Processed files: 12
exit=0""")
s.assistant("Properties in `tests/Hopsack.Tests/ScalingProperties.fs`: identity at the same volume and up-then-down round trip over 5..500 L, both with a tolerance (the IBU correction ratio is not exactly 1.0 in floats). Expecto 10/10, Fantomas clean. paket.dependencies now pins `nuget FsCheck ~> 2.16`; paket.lock keeps FsCheck 2.16.6. Careful with `PAKET_PRERELEASES=true` in your shell: that is what pulled 3.0.0-rc3.")

# ===================================================================== turn 5
s.user(
    "> Careful with `PAKET_PRERELEASES=true` in your shell\n\n"
    "Oh, that's from the Fable experiment. I'll unset it. Commit what we have on a branch `feat/scaling`, one commit, message up to you.\n\n"
    "Also, before you do: does the scaled recipe's OG stay the same? It should, grains are linear, but check it on all three recipes in recipes/."
)
s.bash("git switch -c feat/scaling", "Switched to a new branch 'feat/scaling'")
for name, _og, _ibu in [("amber-ale", "1.052", "27.4"), ("cascade-pale", "1.047", "36.9"), ("dry-stout", "1.042", "41.2")]:
    s.bash(f"jq -c '{{name, batchSize, boilTime, efficiency}}' recipes/{name}.json", f'{{"name":"{name.replace("-", " ").title()}","batchSize":{23.0 if name == "amber-ale" else 20.0 if name == "cascade-pale" else 19.0},"boilTime":{75 if name == "dry-stout" else 60},"efficiency":{0.7 if name == "dry-stout" else 0.72}}}')
s.write("/tmp/og_check.fsx", """#r "src/Hopsack.Core/bin/Debug/net8.0/Hopsack.Core.dll"
#r "nuget: Thoth.Json.Net, 12.0.0"
#load "src/Hopsack.Cli/RecipeFile.fs"
open Hopsack.Core
let kettle = { BoilOff = 3.5<L/h>; TrubLoss = 1.5<L> }
for path in System.IO.Directory.GetFiles "recipes" do
    let r = RecipeFile.load path |> Result.defaultWith failwith
    let og (x: Recipe) = Gravity.points x.Efficiency x.BatchSize x.Fermentables |> Gravity.toSg
    for v in [ 10.0<L>; 45.0<L>; 120.0<L> ] do
        let s = Scaling.scale kettle v r |> Result.defaultWith (failwithf "%A")
        printfn "%-14s %5.0f L  OG %.4f -> %.4f  IBU %.2f -> %.2f" r.Name v (og r) (og s) (Scaling.ibu kettle r) (Scaling.ibu kettle s)
""")
s.bash("dotnet fsi /tmp/og_check.fsx", """Amber Ale         10 L  OG 1.0521 -> 1.0521  IBU 27.38 -> 27.38
Amber Ale         45 L  OG 1.0521 -> 1.0521  IBU 27.38 -> 27.38
Amber Ale        120 L  OG 1.0521 -> 1.0521  IBU 27.38 -> 27.38
Cascade Pale      10 L  OG 1.0473 -> 1.0473  IBU 36.90 -> 36.90
Cascade Pale      45 L  OG 1.0473 -> 1.0473  IBU 36.90 -> 36.90
Cascade Pale     120 L  OG 1.0473 -> 1.0473  IBU 36.90 -> 36.90
Dry Stout         10 L  OG 1.0418 -> 1.0418  IBU 41.21 -> 41.21
Dry Stout         45 L  OG 1.0418 -> 1.0418  IBU 41.21 -> 41.21
Dry Stout        120 L  OG 1.0418 -> 1.0418  IBU 41.21 -> 41.21""")
s.assistant("OG unchanged on all three recipes at 10, 45 and 120 L (Amber 1.0521, Pale 1.0473, Stout 1.0418), IBU held (27.38, 36.90, 41.21). The script loads RecipeFile.fs from the Cli read-only; nothing in Cli changed.")
s.bash("dotnet fantomas --check . && " + TEST_CMD + " 2>&1 | tail -1 && git add -A src/Hopsack.Core tests paket.dependencies paket.lock && git commit -qm 'core: recipe scaling with fixed kettle boil-off; hops corrected to keep Tinseth IBU; FsCheck properties' && git log --oneline -1", expecto(10, 441) + "\n4be91c7 core: recipe scaling with fixed kettle boil-off; hops corrected to keep Tinseth IBU; FsCheck properties")
s.assistant("Committed 4be91c7 on feat/scaling (Core, tests, paket.dependencies, paket.lock). Not pushed.")

# ===================================================================== turn 6
s.user(
    "> Not pushed.\n\n"
    "Leave it for now.\n\n"
    "Change of plan on the CLI: Mateus merged his refactor into main an hour ago (it's Argu now). So forget what I said about not touching Hopsack.Cli. Rebase on main and add `hopsack scale <recipe.json> --to <litres>` that prints the scaled recipe. This is where the rounding goes: hops to 0.5 g, grains to 10 g. Kettle numbers as options with our defaults (3.5 L/h, 1.5 L)."
)
s.bash("git show --stat --oneline origin/main -1 | head -8", """e7d21a9 cli: Argu subcommands (report, validate)
 src/Hopsack.Cli/Hopsack.Cli.fsproj |  1 +
 src/Hopsack.Cli/Program.fs         | 58 +++++++++++++++++++++++++++------
 src/Hopsack.Cli/paket.references   |  1 +
 3 files changed, 49 insertions(+), 11 deletions(-)""")
s.bash("git fetch -q origin && git log --oneline main..origin/main", """e7d21a9 cli: Argu subcommands (report, validate)
c39f0b8 paket: Argu 6.2
5b1e4a7 cli: split RecipeFile decoders""")
s.bash("git rebase origin/main 2>&1 | tail -6", """Auto-merging paket.dependencies
CONFLICT (content): Merge conflict in paket.lock
error: could not apply 4be91c7... core: recipe scaling with fixed kettle boil-off; hops corrected to keep Tinseth IBU; FsCheck properties
hint: Resolve all conflicts manually, mark them as resolved with
hint: "git add/rm <conflicted files>", then run "git rebase --continue".
Could not apply 4be91c7... core: recipe scaling with fixed kettle boil-off; hops corrected to keep Tinseth IBU; FsCheck properties""", code=1)
s.bash("git diff --name-only --diff-filter=U; sed -n '1,30p' paket.lock | grep -n '<<<<<<<\\|>>>>>>>\\|=======' ", """paket.lock
14:<<<<<<< HEAD
17:=======
19:>>>>>>> 4be91c7 (core: recipe scaling with fixed kettle boil-off; hops corrected to keep Tinseth IBU; FsCheck properties)""")
s.bash("cat paket.dependencies | tail -4", """nuget Expecto.FsCheck ~> 10.2
nuget FsCheck ~> 2.16
nuget Thoth.Json.Net ~> 12.0
nuget Argu ~> 6.2""")
s.assistant("paket.dependencies merged cleanly (Argu ~> 6.2 from main plus our FsCheck pin). paket.lock is generated, so rather than hand-merging markers I take main's lock and let paket re-resolve with our dependencies file.")
s.bash("git checkout origin/main -- paket.lock && PAKET_PRERELEASES= dotnet paket install 2>&1 | tail -2 && grep -n 'Argu\\|FsCheck (' paket.lock && git add paket.lock && GIT_EDITOR=true git rebase --continue 2>&1 | tail -1", """ - Creating model and downloading packages.
Total time taken: 2 seconds
5:    Argu (6.2.4)
13:    FsCheck (2.16.6)
15:    FsCheck (2.16.6) - ~> 2.16
Successfully rebased and updated refs/heads/feat/scaling.""")
s.bash("git log --oneline -4", """b80c4d1 core: recipe scaling with fixed kettle boil-off; hops corrected to keep Tinseth IBU; FsCheck properties
e7d21a9 cli: Argu subcommands (report, validate)
c39f0b8 paket: Argu 6.2
5b1e4a7 cli: split RecipeFile decoders""")
s.files[CLI] = """module Program

open Argu
open Hopsack.Core

type ReportArgs =
    | [<MainCommand; ExactlyOnce>] Recipe of path: string
    interface IArgParserTemplate with
        member a.Usage =
            match a with
            | Recipe _ -> "recipe JSON file"

type ValidateArgs =
    | [<MainCommand; ExactlyOnce>] Recipe of path: string
    interface IArgParserTemplate with
        member a.Usage =
            match a with
            | Recipe _ -> "recipe JSON file"

type Command =
    | [<CliPrefix(CliPrefix.None)>] Report of ParseResults<ReportArgs>
    | [<CliPrefix(CliPrefix.None)>] Validate of ParseResults<ValidateArgs>
    interface IArgParserTemplate with
        member c.Usage =
            match c with
            | Report _ -> "print OG and IBU of a recipe"
            | Validate _ -> "check a recipe file"

let report (recipe: Recipe) =
    let og = Gravity.points recipe.Efficiency recipe.BatchSize recipe.Fermentables
    let ibu = Bitterness.total (Gravity.toSg og) recipe.BatchSize recipe.Hops
    printfn "%s: OG %.3f, IBU %.1f" recipe.Name (Gravity.toSg og) ibu
    0

let run (cmd: ParseResults<Command>) =
    match cmd.GetSubCommand() with
    | Report a -> RecipeFile.load (a.GetResult ReportArgs.Recipe) |> Result.map report |> Result.defaultWith (fun e -> eprintfn "%s" e; 1)
    | Validate a -> RecipeFile.load (a.GetResult ValidateArgs.Recipe) |> Result.map (fun _ -> 0) |> Result.defaultWith (fun e -> eprintfn "%s" e; 1)

[<EntryPoint>]
let main argv =
    let parser = ArgumentParser.Create<Command>(programName = "hopsack")
    try
        run (parser.ParseCommandLine argv)
    with :? ArguParseException as e ->
        eprintfn "%s" e.Message
        2
"""
s.read(CLI)
s.bash("cat src/Hopsack.Cli/Hopsack.Cli.fsproj | grep Compile; cat src/Hopsack.Cli/paket.references", """    <Compile Include="RecipeFile.fs" />
    <Compile Include="Program.fs" />
FSharp.Core
Thoth.Json.Net
Argu""")
s.bash("dotnet build 2>&1 | tail -3 && " + TEST_CMD + " 2>&1 | tail -1", """    0 Warning(s)
    0 Error(s)
""" + expecto(10, 452))
s.edit(CLI, """type Command =""", """type ScaleArgs =
    | [<MainCommand; ExactlyOnce>] Recipe of path: string
    | [<Mandatory; AltCommandLine("-t")>] To of litres: float
    | Boil_Off of litres_per_hour: float
    | Trub_Loss of litres: float
    interface IArgParserTemplate with
        member a.Usage =
            match a with
            | Recipe _ -> "recipe JSON file"
            | To _ -> "target batch size in litres"
            | Boil_Off _ -> "kettle boil-off in L/h (default 3.5)"
            | Trub_Loss _ -> "trub and hop loss in L (default 1.5)"

type Command =""")
s.edit(CLI, """    | [<CliPrefix(CliPrefix.None)>] Validate of ParseResults<ValidateArgs>
    interface""", """    | [<CliPrefix(CliPrefix.None)>] Validate of ParseResults<ValidateArgs>
    | [<CliPrefix(CliPrefix.None)>] Scale of ParseResults<ScaleArgs>
    interface""")
s.edit(CLI, """            | Validate _ -> "check a recipe file\"""", """            | Validate _ -> "check a recipe file"
            | Scale _ -> "scale a recipe to a new batch size\"""")
s.edit(CLI, """let run (cmd: ParseResults<Command>) =""", """/// Presentation rounding: hops to 0.5 g, grains to 10 g (Core keeps full precision).
let roundTo (step: float) (x: float) = System.Math.Round(x / step) * step

let printScaled (kettle: Kettle) (r: Recipe) =
    let pre = Scaling.preBoil kettle r.BoilTime r.BatchSize
    printfn "%s at %.1f L (pre-boil %.2f L)" r.Name r.BatchSize pre

    for f in r.Fermentables do
        printfn "  %-14s %6.2f kg" f.Name (roundTo 0.01 (float f.Amount))

    for h in r.Hops do
        printfn "  %-14s %6.1f g @ %.0f min" h.Name (roundTo 0.5 (float h.Amount)) h.Time

    printfn "  IBU %.1f" (Scaling.ibu kettle r)
    0

let scale (a: ParseResults<ScaleArgs>) =
    let kettle =
        { BoilOff = a.GetResult(Boil_Off, defaultValue = 3.5)
          TrubLoss = a.GetResult(Trub_Loss, defaultValue = 1.5) }

    match RecipeFile.load (a.GetResult ScaleArgs.Recipe) with
    | Error e -> eprintfn "%s" e; 1
    | Ok recipe ->
        match Scaling.scale kettle (a.GetResult To) recipe with
        | Ok scaled -> printScaled kettle scaled
        | Error(NonPositiveVolume v) -> eprintfn "target must be positive, got %.1f L" v; 2

let run (cmd: ParseResults<Command>) =""")
s.edit(CLI, """    | Validate a -> RecipeFile.load (a.GetResult ValidateArgs.Recipe) |> Result.map (fun _ -> 0) |> Result.defaultWith (fun e -> eprintfn "%s" e; 1)
""", """    | Validate a -> RecipeFile.load (a.GetResult ValidateArgs.Recipe) |> Result.map (fun _ -> 0) |> Result.defaultWith (fun e -> eprintfn "%s" e; 1)
    | Scale a -> scale a
""")
s.bash("dotnet build src/Hopsack.Cli 2>&1 | grep -E 'error|Build' | head -6", """/home/ines/src/hopsack/src/Hopsack.Cli/Program.fs(69,21): error FS0001: This expression was expected to have type
    'float<L/h>'
but here has type
    'float'
/home/ines/src/hopsack/src/Hopsack.Cli/Program.fs(70,22): error FS0001: This expression was expected to have type
    'float<L>'
Build FAILED.""", code=1)
s.assistant("FS0001: Argu hands back plain floats, and `Kettle` wants `float<L/h>` / `float<L>` (your units-of-measure rule doing its job). The boundary is the right place to attach units: multiply by `1.0<L/h>` and `1.0<L>` where the arguments are read, same as RecipeFile does for batchSize.")
s.edit(CLI, """        { BoilOff = a.GetResult(Boil_Off, defaultValue = 3.5)
          TrubLoss = a.GetResult(Trub_Loss, defaultValue = 1.5) }""", """        { BoilOff = a.GetResult(Boil_Off, defaultValue = 3.5) * 1.0<L/h>
          TrubLoss = a.GetResult(Trub_Loss, defaultValue = 1.5) * 1.0<L> }""")
s.bash("dotnet build src/Hopsack.Cli 2>&1 | grep -E 'error|Build' | head -6", """/home/ines/src/hopsack/src/Hopsack.Cli/Program.fs(74,38): error FS0001: This expression was expected to have type
    'float<L>'
but here has type
    'float'
Build FAILED.""", code=1)
s.edit(CLI, """        match Scaling.scale kettle (a.GetResult To) recipe with""", """        match Scaling.scale kettle (a.GetResult To * 1.0<L>) recipe with""")
s.bash("dotnet build src/Hopsack.Cli 2>&1 | tail -3", """Build succeeded.
    0 Warning(s)
    0 Error(s)""")
s.bash("dotnet run --project src/Hopsack.Cli -- scale recipes/cascade-pale.json --to 45", """Cascade Pale at 45.0 L (pre-boil 50.00 L)
  Maris Otter      9.45 kg
  Crystal 60       0.56 kg
  Cascade          51.5 g @ 60 min
  Cascade          74.0 g @ 10 min
  IBU 36.9""")
s.assistant(
    "Works, but two things are off against what you asked:\n"
    "- grains print to 0.01 kg, you said round grains to **10 g** — that is 0.01 kg, so 9.45 kg is right and 0.5625 kg prints as 0.56. OK.\n"
    "- hops: 51.68 g → 51.5 g, 73.82 g → 74.0 g (0.5 g steps). OK.\n"
    "- The IBU line prints the unrounded recipe's IBU (36.9), not the IBU of the rounded amounts the brewer will actually weigh out. With 51.5/74.0 g it would be 36.87. Show both or just the rounded one?"
)
s.bash("dotnet run --project src/Hopsack.Cli -- scale recipes/dry-stout.json --to 0; echo exit=$?", """target must be positive, got 0.0 L
exit=2""")
s.bash("dotnet run --project src/Hopsack.Cli -- scale recipes/dry-stout.json 2>&1; echo exit=$?", """ERROR: missing parameter '--to'.
USAGE: hopsack scale [--help] --to <litres> [--boil-off <litres_per_hour>] [--trub-loss <litres>] <path>

exit=2""")

# ===================================================================== turn 7
s.user(
    "> Show both or just the rounded one?\n\n"
    "Just the IBU of the rounded one, that's what ends up in the beer. And print it with one decimal like report does.\n\n"
    "> `--boil-off`, `--trub-loss`\n\n"
    "Fine. Also add `--json` so the brewery app can take the output; same rounding. Keep the Thoth encoders in RecipeFile.fs next to the decoders."
)
s.edit(CLI, """    printfn "  IBU %.1f" (Scaling.ibu kettle r)
    0""", """    printfn "  IBU %.1f" (Scaling.ibu kettle (rounded r))
    0""")
s.edit(CLI, """let printScaled (kettle: Kettle) (r: Recipe) =""", """/// The recipe as the brewer weighs it out.
let rounded (r: Recipe) =
    { r with
        Fermentables = r.Fermentables |> List.map (fun f -> { f with Amount = roundTo 0.01 (float f.Amount) * 1.0<kg> })
        Hops = r.Hops |> List.map (fun h -> { h with Amount = roundTo 0.5 (float h.Amount) * 1.0<g> }) }

let printScaled (kettle: Kettle) (r: Recipe) =""")
s.bash("sed -n '1,40p' src/Hopsack.Cli/RecipeFile.fs", """module RecipeFile

open Thoth.Json.Net
open Hopsack.Core

let fermentable: Decoder<Fermentable> =
    Decode.object (fun get ->
        { Name = get.Required.Field "name" Decode.string
          Amount = get.Required.Field "amount" Decode.float * 1.0<kg>
          Pkl = get.Required.Field "pkl" Decode.float })

let hop: Decoder<HopAddition> =
    Decode.object (fun get ->
        { Name = get.Required.Field "name" Decode.string
          Amount = get.Required.Field "amount" Decode.float * 1.0<g>
          AlphaAcid = get.Required.Field "alphaAcid" Decode.float
          Time = get.Required.Field "time" Decode.float * 1.0<min> })

let recipe: Decoder<Recipe> =
    Decode.object (fun get ->
        { Name = get.Required.Field "name" Decode.string
          BatchSize = get.Required.Field "batchSize" Decode.float * 1.0<L>
          BoilTime = get.Required.Field "boilTime" Decode.float * 1.0<min>
          Efficiency = get.Required.Field "efficiency" Decode.float
          Fermentables = get.Required.Field "fermentables" (Decode.list fermentable)
          Hops = get.Required.Field "hops" (Decode.list hop) })

let load (path: string) : Result<Recipe, string> =
    System.IO.File.ReadAllText path |> Decode.fromString recipe""")
s.files["src/Hopsack.Cli/RecipeFile.fs"] = """module RecipeFile

open Thoth.Json.Net
open Hopsack.Core

let load (path: string) : Result<Recipe, string> =
    System.IO.File.ReadAllText path |> Decode.fromString recipe
"""
s.edit("src/Hopsack.Cli/RecipeFile.fs", """let load (path: string) : Result<Recipe, string> =""", """let encode (r: Recipe) =
    Encode.object
        [ "name", Encode.string r.Name
          "batchSize", Encode.float (float r.BatchSize)
          "boilTime", Encode.float (float r.BoilTime)
          "efficiency", Encode.float r.Efficiency
          "fermentables",
          r.Fermentables
          |> List.map (fun f -> Encode.object [ "name", Encode.string f.Name; "amount", Encode.float (float f.Amount); "pkl", Encode.float f.Pkl ])
          |> Encode.list
          "hops",
          r.Hops
          |> List.map (fun h ->
              Encode.object
                  [ "name", Encode.string h.Name
                    "amount", Encode.float (float h.Amount)
                    "alphaAcid", Encode.float h.AlphaAcid
                    "time", Encode.float (float h.Time) ])
          |> Encode.list ]

let load (path: string) : Result<Recipe, string> =""")
s.edit(CLI, """    | Trub_Loss of litres: float
    interface""", """    | Trub_Loss of litres: float
    | Json
    interface""")
s.edit(CLI, """            | Trub_Loss _ -> "trub and hop loss in L (default 1.5)\"""", """            | Trub_Loss _ -> "trub and hop loss in L (default 1.5)"
            | Json -> "print the scaled recipe as JSON (rounded)\"""")
s.edit(CLI, """        | Ok scaled -> printScaled kettle scaled""", """        | Ok scaled when a.Contains Json -> printfn "%s" (Encode.toString 2 (RecipeFile.encode (rounded scaled))); 0
        | Ok scaled -> printScaled kettle scaled""")
s.bash("dotnet build src/Hopsack.Cli 2>&1 | grep -E 'error|Build' | head -4", """/home/ines/src/hopsack/src/Hopsack.Cli/Program.fs(88,59): error FS0039: The value, namespace, type or module 'Encode' is not defined.
Build FAILED.""", code=1)
s.edit(CLI, """open Argu
open Hopsack.Core
""", """open Argu
open Thoth.Json.Net
open Hopsack.Core
""")
s.bash("dotnet build src/Hopsack.Cli 2>&1 | tail -2", """    0 Warning(s)
    0 Error(s)""")
s.bash("dotnet run --project src/Hopsack.Cli -- scale recipes/cascade-pale.json --to 45", """Cascade Pale at 45.0 L (pre-boil 50.00 L)
  Maris Otter      9.45 kg
  Crystal 60       0.56 kg
  Cascade          51.5 g @ 60 min
  Cascade          74.0 g @ 10 min
  IBU 36.9""")
s.bash("dotnet run --project src/Hopsack.Cli -- scale recipes/cascade-pale.json --to 45 --json", """{
  "name": "Cascade Pale",
  "batchSize": 45,
  "boilTime": 60,
  "efficiency": 0.72,
  "fermentables": [
    {
      "name": "Maris Otter",
      "amount": 9.450000000000001,
      "pkl": 301
    },
    {
      "name": "Crystal 60",
      "amount": 0.56,
      "pkl": 284
    }
  ],
  "hops": [
    {
      "name": "Cascade",
      "amount": 51.5,
      "alphaAcid": 0.065,
      "time": 60
    },
    {
      "name": "Cascade",
      "amount": 74,
      "alphaAcid": 0.065,
      "time": 10
    }
  ]
}""")
s.assistant("JSON works, but `9.450000000000001`: `Round(x/0.01)*0.01` reintroduces float noise. Rounding via `Math.Round(x, 2)` for grains (decimal places) avoids it; hops at 0.5 g steps are exact in binary anyway.")
s.edit(CLI, """        Fermentables = r.Fermentables |> List.map (fun f -> { f with Amount = roundTo 0.01 (float f.Amount) * 1.0<kg> })""", """        Fermentables = r.Fermentables |> List.map (fun f -> { f with Amount = System.Math.Round(float f.Amount, 2) * 1.0<kg> })""")
s.bash("dotnet run --project src/Hopsack.Cli -- scale recipes/cascade-pale.json --to 45 --json | jq -c '[.fermentables[].amount, .hops[].amount]'", """[9.45,0.56,51.5,74]""")
s.bash("dotnet run --project src/Hopsack.Cli -- scale recipes/amber-ale.json --to 23 | head -3", """Amber Ale at 23.0 L (pre-boil 28.00 L)
  Maris Otter      4.80 kg
  Munich           0.60 kg""")
s.bash("for r in amber-ale dry-stout; do dotnet run --project src/Hopsack.Cli -- scale recipes/$r.json --to 120 | tail -1; done", """  IBU 27.4
  IBU 41.2""")
s.bash("dotnet fantomas --check . ; echo exit=$?", """src/Hopsack.Cli/Program.fs needs formatting
src/Hopsack.Cli/RecipeFile.fs needs formatting
exit=99""")
s.bash("dotnet fantomas src tests && dotnet fantomas --check . ; echo exit=$?", """Processed files: 13
exit=0""")
s.bash(TEST_CMD + " 2>&1 | tail -1", expecto(10, 447))
s.assistant(
    "CLI done: `hopsack scale <recipe.json> --to <litres> [--boil-off 3.5] [--trub-loss 1.5] [--json]`. Output uses `rounded` (grains to 0.01 kg via Math.Round(x, 2), hops to 0.5 g) and the IBU printed is the IBU of the rounded amounts. `RecipeFile.encode` sits next to the decoders. Pale ale at 45 L: 9.45 kg Maris Otter, 0.56 kg Crystal 60, Cascade 51.5 g @60 and 74.0 g @10, IBU 36.9, pre-boil 50.00 L. Fantomas reformatted Program.fs and RecipeFile.fs; tests 10/10."
)

# ===================================================================== turn 8
s.user(
    "> the IBU printed is the IBU of the rounded amounts\n\n"
    "Good. CI also builds Release with warnings as errors, run that before you commit. And there should be a test for the CLI rounding somewhere, even a small one."
)
s.read(DBP, text="""<Project>
  <PropertyGroup>
    <LangVersion>8.0</LangVersion>
    <TreatWarningsAsErrors Condition="'$(Configuration)' == 'Release'">true</TreatWarningsAsErrors>
    <OtherFlags>$(OtherFlags) --warnon:1182 --warnon:3390</OtherFlags>
  </PropertyGroup>
</Project>
""")
s.bash("dotnet build -c Release 2>&1 | grep -E 'error|warn|Build' | head -8", """/home/ines/src/hopsack/src/Hopsack.Cli/Program.fs(48,9): error FS1182: The value 'pre' is unused [/home/ines/src/hopsack/src/Hopsack.Cli/Hopsack.Cli.fsproj]
/home/ines/src/hopsack/src/Hopsack.Core/Scaling.fs(3,1): error FS3390: This XML comment is invalid: unknown parameter 'kettle' [/home/ines/src/hopsack/src/Hopsack.Core/Hopsack.Core.fsproj]
Build FAILED.""", code=1)
s.bash("sed -n 44,52p src/Hopsack.Cli/Program.fs; sed -n 1,8p src/Hopsack.Core/Scaling.fs", """let printScaled (kettle: Kettle) (r: Recipe) =
    let pre = Scaling.preBoil kettle r.BoilTime r.BatchSize
    printfn "%s at %.1f L (pre-boil %.2f L)" r.Name r.BatchSize pre

    for f in (rounded r).Fermentables do
        let pre = f.Amount
        printfn "  %-14s %6.2f kg" f.Name (float f.Amount)
namespace Hopsack.Core

/// The kettle a recipe is brewed in: what it boils off and what stays behind.
/// <param name="kettle">unused</param>
type Kettle =
    { BoilOff: float<L/h>
      TrubLoss: float<L> }
""")
s.assistant("Two Release-only errors (TreatWarningsAsErrors in Release, with --warnon:1182 unused values and --warnon:3390 XML docs):\n- FS1182: Fantomas' reformat did not cause it; an earlier edit of mine left a shadowing `let pre = f.Amount` in the fermentables loop. Remove it.\n- FS3390: a stray `<param name=\"kettle\">` in Kettle's doc comment (a record has no parameters). Remove it.")
s.files[CLI] = s.files[CLI].replace("""    for f in r.Fermentables do
        printfn "  %-14s %6.2f kg" f.Name (roundTo 0.01 (float f.Amount))""", """    for f in (rounded r).Fermentables do
        let pre = f.Amount
        printfn "  %-14s %6.2f kg" f.Name (float f.Amount)""")
s.edit(CLI, """        let pre = f.Amount
""", "")
s.files[SCALE] = s.files[SCALE].replace("""/// The kettle a recipe is brewed in: what it boils off and what stays behind.
""", """/// The kettle a recipe is brewed in: what it boils off and what stays behind.
/// <param name="kettle">unused</param>
""")
s.edit(SCALE, """/// <param name="kettle">unused</param>
""", "")
s.bash("dotnet build -c Release 2>&1 | tail -3", """Build succeeded.
    0 Warning(s)
    0 Error(s)""")
s.bash("grep -n 'ProjectReference' tests/Hopsack.Tests/Hopsack.Tests.fsproj", """12:    <ProjectReference Include="..\\..\\src\\Hopsack.Core\\Hopsack.Core.fsproj" />""")
s.assistant("The test project only references Core. For a CLI rounding test I'd reference Hopsack.Cli too (an Exe referencing an Exe works in .NET 8 for F#, it just copies both). Alternative: move `rounded` into Core. Since you want rounding out of Core, I'll reference the Cli project.")
s.edit(TEST_PROJ, """    <ProjectReference Include="..\\..\\src\\Hopsack.Core\\Hopsack.Core.fsproj" />""", """    <ProjectReference Include="..\\..\\src\\Hopsack.Core\\Hopsack.Core.fsproj" />
    <ProjectReference Include="..\\..\\src\\Hopsack.Cli\\Hopsack.Cli.fsproj" />""")
s.write("tests/Hopsack.Tests/CliRoundingTests.fs", """module CliRoundingTests

open Expecto
open Hopsack.Core
open ScalingTests

[<Tests>]
let tests =
    testList "cli rounding" [
        test "hops to 0.5 g, grains to 10 g" {
            let scaled = Scaling.scale kettle 45.0<L> pale |> Result.defaultWith (failwithf "%A")
            let r = Program.rounded scaled
            Expect.equal [ for h in r.Hops -> float h.Amount ] [ 51.5; 74.0 ] "hops"
            Expect.equal [ for f in r.Fermentables -> float f.Amount ] [ 9.45; 0.56 ] "grains"
        }
    ]
""")
s.edit(TEST_PROJ, """    <Compile Include="ScalingProperties.fs" />
""", """    <Compile Include="ScalingProperties.fs" />
    <Compile Include="CliRoundingTests.fs" />
""")
s.bash(TEST_CMD + " 2>&1 | tail -4", """/home/ines/src/hopsack/tests/Hopsack.Tests/Main.fs(6,5): error FS0433: A function labeled with the 'EntryPointAttribute' attribute must be the last declaration in the last file in the compilation list.
/home/ines/src/hopsack/src/Hopsack.Cli/Program.fs(95,5): warning FS2003: Two entry points found: Hopsack.Cli 'Program.main' is referenced from Hopsack.Tests

The build failed. Fix the build errors and run again.""", code=1)
s.assistant("Referencing the Cli exe drags its `[<EntryPoint>]` into the picture (FS0433 / two entry points). That is the sign this was the wrong approach. Cleaner: the rounding is presentation but pure, so put it in a small `Presentation.fs` in the Cli... which still needs the reference. Honest options: (a) move `rounded` to a `Hopsack.Core.Presentation` module (pure, no IO, but it is rounding in Core), (b) split Cli into Cli + a library. I'll undo the reference and ask.")
s.edit(TEST_PROJ, """    <ProjectReference Include="..\\..\\src\\Hopsack.Core\\Hopsack.Core.fsproj" />
    <ProjectReference Include="..\\..\\src\\Hopsack.Cli\\Hopsack.Cli.fsproj" />""", """    <ProjectReference Include="..\\..\\src\\Hopsack.Core\\Hopsack.Core.fsproj" />""")
s.edit(TEST_PROJ, """    <Compile Include="CliRoundingTests.fs" />
""", "")
s.bash("rm tests/Hopsack.Tests/CliRoundingTests.fs && " + TEST_CMD + " 2>&1 | tail -1", expecto(10, 455))
s.assistant("Back to 10/10 with the reference and test removed. Where should the rounding live so it can be tested: (a) `Hopsack.Core.Presentation` (pure function, but rounding in Core), or (b) a new `Hopsack.Cli.Lib` library project?")

# ===================================================================== turn 9
s.user(
    "> (a) `Hopsack.Core.Presentation` (pure function, but rounding in Core)\n\n"
    "(a). My rule was about the numbers Core computes with, not about having a rounding function there. Scaling itself must stay unrounded."
)
s.write("src/Hopsack.Core/Presentation.fs", """namespace Hopsack.Core

/// Rounding for output only: what the brewer weighs out. Scaling never calls this.
module Presentation =
    let private roundTo (step: float) (x: float) = System.Math.Round(x / step) * step

    let rounded (r: Recipe) =
        { r with
            Fermentables = r.Fermentables |> List.map (fun f -> { f with Amount = System.Math.Round(float f.Amount, 2) * 1.0<kg> })
            Hops = r.Hops |> List.map (fun h -> { h with Amount = roundTo 0.5 (float h.Amount) * 1.0<g> }) }
""")
s.edit(CORE_PROJ, """    <Compile Include="Scaling.fs" />
""", """    <Compile Include="Scaling.fs" />
    <Compile Include="Presentation.fs" />
""")
s.edit(CLI, """/// Presentation rounding: hops to 0.5 g, grains to 10 g (Core keeps full precision).
let roundTo (step: float) (x: float) = System.Math.Round(x / step) * step

/// The recipe as the brewer weighs it out.
let rounded (r: Recipe) =
    { r with
        Fermentables = r.Fermentables |> List.map (fun f -> { f with Amount = System.Math.Round(float f.Amount, 2) * 1.0<kg> })
        Hops = r.Hops |> List.map (fun h -> { h with Amount = roundTo 0.5 (float h.Amount) * 1.0<g> }) }

""", """let rounded = Presentation.rounded

""")
s.write("tests/Hopsack.Tests/PresentationTests.fs", """module PresentationTests

open Expecto
open Hopsack.Core
open ScalingTests

[<Tests>]
let tests =
    testList "presentation" [
        test "hops to 0.5 g, grains to 10 g" {
            let scaled = Scaling.scale kettle 45.0<L> pale |> Result.defaultWith (failwithf "%A")
            let r = Presentation.rounded scaled
            Expect.equal [ for h in r.Hops -> float h.Amount ] [ 51.5; 74.0 ] "hops"
            Expect.equal [ for f in r.Fermentables -> float f.Amount ] [ 9.45; 0.56 ] "grains"
        }
        test "scaling itself stays unrounded" {
            let scaled = Scaling.scale kettle 45.0<L> pale |> Result.defaultWith (failwithf "%A")
            Expect.isFalse (float scaled.Hops.[0].Amount = 51.5) "unrounded"
        }
    ]
""")
s.edit(TEST_PROJ, """    <Compile Include="ScalingProperties.fs" />
""", """    <Compile Include="ScalingProperties.fs" />
    <Compile Include="PresentationTests.fs" />
""")
s.bash(TEST_CMD + " 2>&1 | tail -1", expecto(12, 463))
s.bash("dotnet build -c Release 2>&1 | tail -2 && dotnet fantomas --check . ; echo exit=$?", """    0 Warning(s)
    0 Error(s)
src/Hopsack.Core/Presentation.fs needs formatting
exit=99""")
s.bash("dotnet fantomas src/Hopsack.Core/Presentation.fs && dotnet fantomas --check . ; echo exit=$?", """Processed files: 1
exit=0""")
s.bash("dotnet run --project src/Hopsack.Cli -c Release -- scale recipes/cascade-pale.json --to 45 | tail -3", """  Cascade          51.5 g @ 60 min
  Cascade          74.0 g @ 10 min
  IBU 36.9""")
s.assistant("`Presentation.rounded` now in Hopsack.Core (Presentation.fs after Scaling.fs), used by the CLI; Scaling stays unrounded (a test asserts it). Expecto 12/12, Release build with warnings-as-errors clean, Fantomas clean.")

# ===================================================================== turn 10
s.user(
    "> Expecto 12/12, Release build with warnings-as-errors clean, Fantomas clean.\n\n"
    "Commit the CLI part as a second commit and push the branch. No PR, I'll write the description myself tonight."
)
s.bash("git status --short", """ M src/Hopsack.Cli/Program.fs
 M src/Hopsack.Cli/RecipeFile.fs
 M src/Hopsack.Core/Hopsack.Core.fsproj
 M src/Hopsack.Core/Scaling.fs
 M tests/Hopsack.Tests/Hopsack.Tests.fsproj
?? src/Hopsack.Core/Presentation.fs
?? tests/Hopsack.Tests/PresentationTests.fs""")
s.bash("git diff --stat", """ src/Hopsack.Cli/Program.fs               | 71 ++++++++++++++++++++++++++++++++++-
 src/Hopsack.Cli/RecipeFile.fs            | 21 ++++++++++
 src/Hopsack.Core/Hopsack.Core.fsproj     |  1 +
 src/Hopsack.Core/Scaling.fs              |  1 -
 tests/Hopsack.Tests/Hopsack.Tests.fsproj |  1 +
 5 files changed, 93 insertions(+), 2 deletions(-)""")
s.bash("git diff src/Hopsack.Core/Scaling.fs", """diff --git a/src/Hopsack.Core/Scaling.fs b/src/Hopsack.Core/Scaling.fs
index 2d41c0e..8f03a9b 100644
--- a/src/Hopsack.Core/Scaling.fs
+++ b/src/Hopsack.Core/Scaling.fs
@@ -1,7 +1,6 @@
 namespace Hopsack.Core
 
 /// The kettle a recipe is brewed in: what it boils off and what stays behind.
-/// <param name="kettle">unused</param>
 type Kettle =
     { BoilOff: float<L/h>
       TrubLoss: float<L> }""")
s.bash("git add -A src tests && git commit -qm 'cli: hopsack scale --to/--boil-off/--trub-loss/--json; Presentation.rounded (hops 0.5 g, grains 10 g)' && git push -u origin feat/scaling 2>&1 | tail -3 && git log --oneline -3", """To github.com:brewhaus/hopsack.git
 * [new branch]      feat/scaling -> feat/scaling
branch 'feat/scaling' set up to track 'origin/feat/scaling'.
d93f2e6 cli: hopsack scale --to/--boil-off/--trub-loss/--json; Presentation.rounded (hops 0.5 g, grains 10 g)
b80c4d1 core: recipe scaling with fixed kettle boil-off; hops corrected to keep Tinseth IBU; FsCheck properties
e7d21a9 cli: Argu subcommands (report, validate)""")
s.bash("gh run list --branch feat/scaling --limit 1", """STATUS  TITLE                                                     WORKFLOW  BRANCH        EVENT  ID          ELAPSED  AGE
*       cli: hopsack scale --to/--boil-off/--trub-loss/--json...  ci        feat/scaling  push   9182734412  12s      now""")
s.bash("gh run watch 9182734412 --exit-status 2>&1 | tail -9", """Refreshing run status every 3 seconds. Press Ctrl+C to quit.

✓ feat/scaling ci · 9182734412
Triggered via push less than a minute ago

JOBS
✓ build in 1m38s (ID 25870311904)
  ✓ Run dotnet fantomas --check .
  ✓ Run dotnet build -c Release""")
s.bash("gh run view 9182734412 --log 2>/dev/null | grep -E 'EXPECTO!' | cut -c1-160", """build	Run dotnet run -c Release --project tests/Hopsack.Tests	2026-11-24T10:41:17.5523011Z [10:41:17 INF] EXPECTO! 12 tests run in 00:00:00.6102238 for miscellaneous - 12 passed, 0 ignored, 0 failed, 0 errored. Success! <Expecto>""")
s.assistant("Pushed feat/scaling: b80c4d1 (Core scaling + properties, rebased on Mateus's Argu refactor) and d93f2e6 (CLI scale + Presentation). No PR opened. CI run 9182734412 is green (fantomas, Release build, 12/12 Expecto).")

s.save(HERE / "session.jsonl")
print("tool calls:", s.calls)

META = {
    "title": "hopsack (F# brewing library + CLI): recipe scaling with fixed kettle boil-off, hops corrected to keep Tinseth IBU, FsCheck properties via paket, `hopsack scale` Argu command with presentation rounding; b80c4d1 + d93f2e6 pushed on feat/scaling, no PR",
    "format": "pi",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout8a test split",
    "voice": "brewer-developer who quotes the assistant's lines (\"> ...\") and answers under each quote; withdraws the don't-touch-Cli rule",
    "toolchain": ".NET SDK 8.0.403, F# with units of measure, Expecto 10.2.1 + Expecto.FsCheck (FsCheck 2.16.6), paket 8.0.3, Fantomas 6.3.4, Argu 6.2.4, Thoth.Json.Net",
}
COMPACTIONS = [
    ("Scaling in Core: `Kettle { BoilOff: float<L/h>; TrubLoss: float<L> }`", 1500),
    ("Committed 4be91c7 on feat/scaling", 1500),
    ("Back to 10/10 with the reference and test removed", 1500),
]
FACTS = [
    f("h01", "request", "must", "hopsack needs recipe scaling", "Add recipe scaling to hopsack: scale a recipe to a target volume; grains and hops scale, IBU recalculated with Tinseth because the kettle's boil-off does not scale and the boil gravity moves.", [r"scal", r"Tinseth|IBU"], "done"),
    f("h02", "constraint", "must", "packages only through paket. Never `dotnet add package`", "Packages only through paket, never `dotnet add package` (it bypasses paket.lock and broke CI last month).", [r"paket", r"dotnet add|only|never|lock"]),
    f("h03", "constraint", "must", "Fantomas has to pass (`dotnet fantomas --check .`)", "Fantomas must pass (`dotnet fantomas --check .`); CI runs it.", [r"fantomas", r"check|pass|CI|clean"]),
    f("h04", "constraint", "must", "Hopsack.Core stays pure: no IO, no printfn", "Hopsack.Core stays pure: no IO, no printfn, no DateTime.Now.", [r"Core", r"pure|no IO|printfn"]),
    f("h05", "constraint", "must", "Don't touch Hopsack.Cli. Mateus is refactoring it", "First rule: don't touch Hopsack.Cli (Mateus was refactoring it on his branch). Withdrawn later once his Argu refactor was merged.", [r"Cli", r"touch|Mateus|withdraw|revers|forget|no longer"], "reversed"),
    f("h06", "constraint", "must", "Units of measure for volumes and masses, no bare floats", "Units of measure for volumes and masses; no bare floats in the public API (units are attached at the CLI/JSON boundary with * 1.0<L> etc.).", [r"units? of measure|<L>|bare float", r"volume|mass|float|API|boundary"]),
    f("h07", "value", "nice", "Baseline: .NET SDK 8.0.403, paket 8.0.3, Fantomas 6.3.4", "Baseline: .NET SDK 8.0.403, paket 8.0.3, Fantomas 6.3.4; build clean, Expecto 3/3, fantomas check clean.", [r"8\.0\.403|8\.0\.3|6\.3\.4"]),
    f("h08", "decision", "should", "After Bitterness.fs, it's going to need Tinseth.", "Scaling.fs goes after Bitterness.fs in Hopsack.Core.fsproj (F# compile order; it uses Gravity and Tinseth).", [r"Scaling\.fs|compile order|fsproj", r"after|Bitterness|order"]),
    f("h09", "value", "must", "The kettle boils off 3.5 L/h whatever is in it, and we lose 1.5 L to trub", "Kettle: boil-off fixed at 3.5 L/h, trub/hop loss 1.5 L; pre-boil = target + boil-off x boil time + trub; numbers in a Kettle record, not hard-coded.", [r"3\.5|1\.5", r"boil.?off|trub|kettle|pre-?boil"]),
    f("h10", "preference", "should", "Full precision in Core. Rounding (hops to 0.5 g, grains to 10 g)", "Full precision in Core's scaling; rounding (hops to 0.5 g, grains to 10 g) is presentation only.", [r"0\.5 ?g|10 ?g|round", r"precision|presentation|hops|grain|output"]),
    f("h11", "path", "should", "namespace Hopsack.Core\\n\\n/// The kettle a recipe is brewed in", "New src/Hopsack.Core/Scaling.fs: Kettle record, ScaleError, Scaling.preBoil, boilSg, ibu and scale : Kettle -> float<L> -> Recipe -> Result<Recipe, ScaleError>.", [r"Scaling\.fs|Scaling\.scale|Kettle", r"preBoil|boilSg|Result|Kettle|scale"]),
    f("h12", "error", "should", "Scaling.fs(16,9): error FS0039: The value, namespace, type or module 'Gravity' is not defined", "Build failed with FS0039 ('Gravity'/'Bitterness' not defined) because Scaling.fs was listed before them in the fsproj; fixed by moving it after Bitterness.fs.", [r"FS0039|not defined", r"order|after|Bitterness|fsproj"], "fixed"),
    f("h13", "finding", "must", "IBU 36.90 at 20 L becomes **33.72 at 45 L** with linear hops", "Linear hops lose bitterness: pale ale IBU 36.90 at 20 L becomes 33.72 at 45 L, because fixed boil-off makes pre-boil 25 L for 20 L but only 50 L for 45 L, so boil gravity is higher and Tinseth utilisation lower.", [r"33\.72|36\.90?", r"IBU|linear|boil|utilisation"]),
    f("h14", "request", "must", "Correct the hops so the IBU matches. Same ratio for every addition", "scale must correct hop amounts so the IBU matches the original, one ratio for every addition.", [r"hop", r"ratio|correct|match|IBU"], "done"),
    f("h15", "request", "should", "a target of zero or negative litres should be an error, not a crash. Use Result", "A zero or negative target volume returns an error (Result, NonPositiveVolume), never throws: Core does not throw.", [r"NonPositiveVolume|zero|negative|non-?positive", r"Result|Error|throw"], "done"),
    f("h16", "error", "nice", "error FS0010: Unexpected keyword 'type' in binding", "FS0010 'Unexpected keyword type in binding': ScaleError was declared inside the Scaling module's bindings; moved to namespace level next to Kettle.", [r"FS0010|Unexpected keyword", r"type|ScaleError|namespace"], "fixed"),
    f("h17", "value", "should", "1.0937 for the pale ale at 45 L, so 21 g becomes 51.68 g", "Hop correction ratio for the pale ale at 45 L is 1.0937: 21 g of Cascade @60 becomes 51.68 g (linear would be 47.25 g).", [r"1\.093|51\.6[78]", r"ratio|correct|hop|Cascade|g\b"]),
    f("h18", "command", "must", "dotnet run --project tests/Hopsack.Tests 2>&1 | tail -4", "Tests: dotnet run --project tests/Hopsack.Tests (Expecto); latest 12/12 pass.", [r"dotnet run --project tests|Hopsack\.Tests|Expecto", r"12|pass|test"]),
    f("h19", "command", "must", "dotnet fantomas src/Hopsack.Core/Presentation.fs && dotnet fantomas --check", "Format: dotnet fantomas src tests, then dotnet fantomas --check . (exit 99 means files need formatting); latest clean.", [r"fantomas", r"--check|src tests|format"]),
    f("h20", "request", "should", "Can we have a property test too: scaling to the same volume changes nothing", "Property tests: scaling to the same volume changes nothing; scaling up then back down returns the original.", [r"propert|FsCheck", r"same volume|identity|round.?trip|up then down"], "done"),
    f("h21", "error", "must", "requires FsCheck (>= 2.16.5 < 3.0) but FsCheck 3.0.0-rc3 was resolved", "dotnet paket install resolved FsCheck 3.0.0-rc3, breaking Expecto.FsCheck 10.2.1's FsCheck (>= 2.16.5 < 3.0); cause: PAKET_PRERELEASES=true in the user's shell (from a Fable experiment).", [r"3\.0\.0-rc3|PAKET_PRERELEASES|< ?3\.0", r"FsCheck|prerelease|paket"], "fixed"),
    f("h22", "fix", "must", "pin FsCheck explicitly in paket.dependencies so it cannot drift", "Fix: paket.lock reset and `nuget FsCheck ~> 2.16` pinned in paket.dependencies; Expecto.FsCheck added to tests/Hopsack.Tests/paket.references; lock keeps FsCheck 2.16.6.", [r"FsCheck ~> 2\.16|2\.16\.6|pin", r"paket|FsCheck"]),
    f("h23", "path", "should", "module ScalingProperties", "New tests/Hopsack.Tests/ScalingProperties.fs (identity and up-then-down round trip over 5..500 L, with a tolerance) and ScalingTests.fs.", [r"ScalingProperties|ScalingTests", r"propert|round|identity|test"]),
    f("h24", "finding", "should", "the correction ratio is `ibu/ibu` which is 1.0000000000000002", "The identity property failed on structural equality: at the same volume the ratio is 1.0000000000000002 (21 g -> 21.000000000000004 g); properties compare with a tolerance.", [r"1\.0000000000000002|21\.000000000000004|tolerance|structural", r"identity|equal|ratio|tolerance"]),
    f("h25", "finding", "nice", "OG unchanged on all three recipes at 10, 45 and 120 L", "Check on all three recipes at 10/45/120 L: OG unchanged (Amber 1.0521, Pale 1.0473, Stout 1.0418) and IBU held (27.38, 36.90, 41.21).", [r"OG|1\.0521|1\.0473|1\.0418", r"unchanged|same|held|three"]),
    f("h26", "request", "must", "So forget what I said about not touching Hopsack.Cli", "Mateus merged his Argu refactor into main: rebase on main and add `hopsack scale <recipe.json> --to <litres>`; rounding goes there; kettle numbers as options with defaults 3.5 L/h and 1.5 L.", [r"hopsack scale|scale .*--to|--to", r"Cli|rebase|Argu|litres"], "done"),
    f("h27", "fix", "should", "rather than hand-merging markers I take main's lock and let paket re-resolve", "Rebase conflict in paket.lock resolved by taking origin/main's lock and re-running paket install (Argu 6.2.4, FsCheck 2.16.6); feat/scaling's first commit became b80c4d1 on top of e7d21a9.", [r"paket\.lock", r"conflict|origin/main|re-?resolv|rebase"]),
    f("h28", "error", "should", "Program.fs(69,21): error FS0001: This expression was expected to have type", "CLI build failed with FS0001 (float vs float<L/h> / float<L>): Argu returns plain floats; fixed by attaching units at the boundary (* 1.0<L/h>, * 1.0<L>).", [r"FS0001|float<L", r"Argu|unit|1\.0<L|boundary|float"], "fixed"),
    f("h29", "value", "should", "Pale ale at 45 L: 9.45 kg Maris Otter", "Pale ale scaled to 45 L: pre-boil 50.00 L, Maris Otter 9.45 kg, Crystal 60 0.56 kg, Cascade 51.5 g @60 and 74.0 g @10, IBU 36.9.", [r"9\.45|51\.5|74\.0|50\.00", r"45|Cascade|Maris|kg|g\b"]),
    f("h30", "preference", "should", "Just the IBU of the rounded one", "The printed IBU is that of the rounded amounts (what goes in the beer), one decimal like report.", [r"round", r"IBU"]),
    f("h31", "request", "should", "Also add `--json` so the brewery app can take the output", "Add --json output (same rounding) for the brewery app; Thoth encoders live in RecipeFile.fs next to the decoders.", [r"--json|json", r"Thoth|encode|RecipeFile|round"], "done"),
    f("h32", "fix", "nice", "`9.450000000000001`: `Round(x/0.01)*0.01` reintroduces float noise", "JSON showed 9.450000000000001 from Round(x/0.01)*0.01; grains now rounded with Math.Round(x, 2).", [r"9\.450000000000001|Math\.Round|float noise", r"round|grain|noise"]),
    f("h33", "command", "should", "cascade-pale.json --to 45 --json\"}", "Run: dotnet run --project src/Hopsack.Cli -- scale recipes/cascade-pale.json --to 45 [--json]; --to 0 exits 2 with 'target must be positive', missing --to is an Argu usage error.", [r"Hopsack\.Cli|hopsack scale|scale recipes", r"--to|cascade-pale|json"]),
    f("h34", "constraint", "must", "CI also builds Release with warnings as errors, run that before you commit", "Run the Release build with warnings as errors (dotnet build -c Release; Directory.Build.props adds --warnon:1182 --warnon:3390) before committing.", [r"Release|warnings? as errors|TreatWarningsAsErrors", r"build|commit|CI"]),
    f("h35", "error", "should", "error FS1182: The value 'pre' is unused", "Release build failed: FS1182 unused 'pre' in Program.fs (a shadowing leftover) and FS3390 invalid XML doc param on Kettle; both removed, Release builds clean.", [r"FS1182|FS3390|unused", r"pre|XML|param|Release"], "fixed"),
    f("h36", "error", "should", "error FS0433: A function labeled with the 'EntryPointAttribute'", "Referencing Hopsack.Cli from the tests failed (FS0433 EntryPoint / two entry points); reference and CliRoundingTests removed.", [r"FS0433|EntryPoint|two entry points", r"Cli|reference|test"], "fixed"),
    f("h37", "decision", "must", "(a). My rule was about the numbers Core computes with", "Rounding lives in Hopsack.Core as a pure Presentation module (option a): the rule is about the numbers Core computes with; Scaling itself stays unrounded.", [r"Presentation", r"Core|round|unrounded|pure"]),
    f("h38", "path", "should", "module Presentation =", "New src/Hopsack.Core/Presentation.fs (Presentation.rounded, after Scaling.fs in the fsproj), used by the CLI; tests/Hopsack.Tests/PresentationTests.fs asserts rounding and that Scaling stays unrounded.", [r"Presentation(\.fs|\.rounded|Tests)", r"round|Core|CLI|test"]),
    f("h39", "path", "should", "Processed files: 13", "src/Hopsack.Cli/Program.fs: Argu ScaleArgs (--to/-t, --boil-off, --trub-loss, --json), Scale subcommand, printScaled; src/Hopsack.Cli/RecipeFile.fs: RecipeFile.encode.", [r"Program\.fs|RecipeFile|ScaleArgs|printScaled", r"Argu|scale|encode|subcommand"], synthesis=True),
    f("h40", "request", "must", "Commit the CLI part as a second commit and push the branch. No PR", "Commit the CLI part as a second commit and push feat/scaling; no PR (the user writes the description).", [r"push|PR|pull request", r"feat/scaling|branch|no PR|second commit"], "done"),
    f("h42", "state", "nice", "Triggered via push less than a minute ago", "CI run 9182734412 on feat/scaling is green (fantomas check, Release build, Expecto 12/12).", [r"9182734412|CI", r"green|pass|success|✓|12"]),
    f("h43", "command", "should", "dotnet build -c Release 2>&1 | tail -3", "Release check: dotnet build -c Release (TreatWarningsAsErrors in Release); latest Build succeeded, 0 warnings.", [r"dotnet build -c Release|-c Release", r"Release"]),
    f("h44", "command", "should", "git checkout origin/main -- paket.lock && PAKET_PRERELEASES= dotnet paket install", "Dependencies: PAKET_PRERELEASES= dotnet paket install (with the env var cleared) after editing paket.dependencies / paket.references; never dotnet add package.", [r"paket install", r"PAKET_PRERELEASES|paket"]),
    f("h41", "state", "must", "Pushed feat/scaling: b80c4d1", "Pushed feat/scaling to github.com:brewhaus/hopsack: b80c4d1 (Core scaling + properties, rebased on main's Argu refactor) and d93f2e6 (CLI scale + Presentation); no PR opened.", [r"d93f2e6|b80c4d1|feat/scaling", r"push|PR|commit"]),
]
dump(HERE, META, COMPACTIONS, FACTS)
