# ruff: noqa: E501, RUF005  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout3 retention split.

A French developer ("Bonjour", "Attention:", "so: ...", "I changed my idea") has Codex fix a noisy
GPS elevation gain in a Swift package (hysteresis instead of summing every positive delta), keep
the public API source-compatible, make the package build on the Linux CI image (FoundationXML),
and then reverses an earlier request to round the gain. swift build / swift test (XCTest), docker.
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))

import files as F  # noqa: E402
from synth.codex_writer import Rollout  # noqa: E402

CWD = "/Users/camille/dev/TrailKit"
r = Rollout(CWD, "2025-11-25T10:02:44", seed="trailkit-elevation", repo_url="git@github.com:sentiers-app/TrailKit.git")
TRACK = "Sources/TrailKit/Track.swift"
GPX = "Sources/TrailKit/GPXParser.swift"
ELEV = "Sources/TrailKit/Elevation.swift"
TT = "Tests/TrailKitTests/TrackTests.swift"
ET = "Tests/TrailKitTests/ElevationTests.swift"
r.files.update({"Package.swift": F.PACKAGE, TRACK: F.TRACK, GPX: F.PARSER, TT: F.TRACK_TESTS, "Tests/TrailKitTests/GPXParserTests.swift": F.GPX_TESTS})

SUITES = [
    ("GPXParserTests", ["testParsesNameAndPoints", "testMissingElevationIsNil", "testParsesTime", "testRejectsBrokenXML", "testMultipleSegmentsAreJoined"]),
    ("DistanceTests", ["testZeroForSinglePoint", "testKnownDistanceParisLyon", "testHaversineSymmetric"]),
    ("TrackTests", ["testFlatTrackHasNoGain", "testSteadyClimb"]),
]


def xctest(suites: list[tuple[str, list[str]]], extra: int, failed: dict[str, str] | None = None, build: str = "Build complete! (3.88s)", stamp: str = "10:14") -> str:
    failed = failed or {}
    out = ["Building for debugging...", build, f"Test Suite 'All tests' started at 2025-11-25 {stamp}:02.118.", f"Test Suite 'TrailKitPackageTests.xctest' started at 2025-11-25 {stamp}:02.119."]
    n = extra
    for suite, cases in suites:
        out.append(f"Test Suite '{suite}' started at 2025-11-25 {stamp}:02.120.")
        for c in cases:
            n += 1
            name = f"-[TrailKitTests.{suite} {c}]"
            out.append(f"Test Case '{name}' started.")
            if c in failed:
                out.append(failed[c])
                out.append(f"Test Case '{name}' failed (0.412 seconds).")
            else:
                out.append(f"Test Case '{name}' passed (0.002 seconds).")
        out.append(f"Test Suite '{suite}' {'failed' if any(c in failed for c in cases) else 'passed'} at 2025-11-25 {stamp}:02.431.")
    out.append(f"\t (plus {extra} more test cases in FitExportTests, SegmentTests, SpeedTests: passed)")
    nf = len(failed)
    verdict = "failed" if nf else "passed"
    out.append(f"Test Suite 'All tests' {verdict} at 2025-11-25 {stamp}:02.811.")
    out.append(f"\t Executed {n} tests, with {nf} failure{'s' if nf != 1 else ''} (0 unexpected) in 0.684 (0.690) seconds")
    return "\n".join(out) + "\n"


# ------------------------------------------------------------------ turn 1
r.user(
    "Bonjour! I have a problem with TrailKit: the elevation gain of the tracks is much too big. For the Mont Ventoux track from Bédoin "
    "(it is in the test fixtures) we show 2870 m and Strava says 1610 m. I think it is the noise of the GPS altitude. Can you look?\n\n"
    "Attention: the public API of TrailKit (Track, TrackPoint, Track.elevationGain) must not break, the iOS app uses it and we cannot release "
    "a new app version this week. And no external dependency in Package.swift please, the package stays pure Swift.",
    pause=0,
)
r.run("ls && ls Sources/TrailKit Tests/TrailKitTests Tests/TrailKitTests/Fixtures",
      "LICENSE\nPackage.swift\nREADME.md\nSources\nTests\n"
      "Sources/TrailKit:\nFitExport.swift\nGPXParser.swift\nSegment.swift\nSpeed.swift\nTrack.swift\n\n"
      "Tests/TrailKitTests:\nDistanceTests.swift\nFitExportTests.swift\nFixtures\nGPXParserTests.swift\nSegmentTests.swift\nSpeedTests.swift\nTrackTests.swift\n\n"
      "Tests/TrailKitTests/Fixtures:\ncalanques-marseilleveyre.gpx\nflat-loire.gpx\nventoux-bedoin.gpx\n",
      reasoning="**Reading the package**\n\nFind where elevation gain is computed and which fixtures exist.")
r.cat("Package.swift")
r.cat(TRACK)
r.sed(GPX, 1, 60)
r.run("swift test 2>&1 | tail -3", "Test Suite 'All tests' passed at 2025-11-25 10:06:40.502.\n\t Executed 38 tests, with 0 failures (0 unexpected) in 0.611 (0.617) seconds\n", secs=21.4)
r.run("swift run trailkit-cli stats Tests/TrailKitTests/Fixtures/ventoux-bedoin.gpx",
      "Building for debugging...\nBuild complete! (1.02s)\nname:            Ventoux par Bédoin\npoints:          4812\ndistance:        21.43 km\nelevation gain:  2870.4 m\nmin/max ele:     296.0 m / 1909.6 m\nrecorded:        2025-06-14 06:12:09 +0000 ... 2025-06-14 09:01:55 +0000\n", secs=3.2)
r.run("grep -o '<ele>[^<]*' Tests/TrailKitTests/Fixtures/ventoux-bedoin.gpx | sed -n '1200,1215p' | tr '\\n' ' '",
      "<ele>1020.4 <ele>1023.1 <ele>1019.8 <ele>1024.6 <ele>1021.2 <ele>1025.9 <ele>1022.0 <ele>1026.3 <ele>1023.7 <ele>1027.5 <ele>1024.1 <ele>1028.8 <ele>1025.0 <ele>1029.9 <ele>1026.6 <ele>1030.2 \n")
r.say(
    "You are right, it is the noise. `Track.elevationGain` sums every positive difference between two consecutive points. The GPS altitude jitters by "
    "±3 m from one point to the next (see points 1200-1215: up 2.7, down 3.3, up 4.8, ...), so on a track of 4812 points each small up counts, each "
    "down is ignored, and the jitter alone adds about 1260 m to the real climb (2870 m instead of ~1610 m).\n\n"
    "Proposal: hysteresis, as most GPS devices do. Keep an anchor altitude and count a climb only when the altitude moves more than a threshold "
    "(5 m) away from the anchor; then the anchor follows. Real climbs are counted fully, jitter under the threshold is ignored.\n\n"
    "For the API: `elevationGain` keeps its name and type (`Double`, metres). I would add `elevationGain(threshold:)` for callers who want another "
    "threshold; it is additive, so the app compiles without changes. Is that ok for you? 38 tests pass today.",
    reasoning="**Noise explanation**\n\nUp/down alternation of ~3 m; counting only positive deltas sums the noise.",
)

# ------------------------------------------------------------------ turn 2
r.user(
    "Ok I understand, thank you. So: hysteresis with 5 m by default, like you propose. The new function with the parameter is ok, additive is fine. "
    "But `elevationGain` must give the corrected value by default, the app will not change its code. And please round the result to whole meters, "
    "in the app we see \"1 604,3 m\" and it is ugly."
)
ELEV_V1 = '''import Foundation

extension Track {
    /// Default threshold for `elevationGain`, in metres: GPS altitude jitters by a few metres between fixes.
    public static let defaultElevationThreshold = 5.0

    /// Total climb in metres, ignoring altitude changes smaller than `threshold`.
    public func elevationGain(threshold: Double) -> Double {
        let elevations = points.compactMap(\\.elevation)
        return zip(elevations, elevations.dropFirst()).reduce(0) { sum, pair in
            let delta = pair.1 - pair.0
            return delta > threshold ? sum + delta : sum
        }
    }
}
'''
r.patch([
    ("add", ELEV, ELEV_V1),
    ("update", TRACK, [("    /// Total climb in metres.\n    public var elevationGain: Double {\n        let elevations = points.compactMap(\\.elevation)\n        return zip(elevations, elevations.dropFirst()).reduce(0) { sum, pair in\n            sum + max(0, pair.1 - pair.0)\n        }\n    }\n",
                       "    /// Total climb in metres, rounded to whole metres, with GPS noise filtered out (see Elevation.swift).\n    public var elevationGain: Double {\n        elevationGain(threshold: Track.defaultElevationThreshold).rounded()\n    }\n")]),
], reasoning="**First version**\n\nThreshold on each delta; property delegates with the default.")
ELEV_TESTS = '''import XCTest
@testable import TrailKit

final class ElevationTests: XCTestCase {
    private func fixture(_ name: String) throws -> Track {
        let url = try XCTUnwrap(Bundle.module.url(forResource: name, withExtension: "gpx", subdirectory: "Fixtures"))
        return try GPXParser.parse(Data(contentsOf: url))
    }

    func testNoiseOnFlatGroundIsIgnored() {
        let jitter = [0.0, 2.8, -1.9, 3.1, -2.5, 2.2, -3.0, 1.7]
        let pts = jitter.map { TrackPoint(latitude: 47.3, longitude: 0.7, elevation: 40 + $0, time: nil) }
        XCTAssertEqual(Track(name: "loire", points: pts).elevationGain, 0)
    }

    func testSlowSteadyClimbIsCountedFully() {
        let pts = (0...100).map { TrackPoint(latitude: 44.17, longitude: 5.27, elevation: 300 + Double($0) * 2, time: nil) }
        XCTAssertEqual(Track(name: "ramp", points: pts).elevationGain, 200)
    }

    func testVentouxGainCloseToReference() throws {
        // Strava shows 1610 m for this ride.
        XCTAssertEqual(try fixture("ventoux-bedoin").elevationGain, 1610, accuracy: 40)
    }
}
'''
r.patch([("add", ET, ELEV_TESTS)])
r.run(
    "swift test 2>&1 | grep -v '^\\[' ",
    xctest(SUITES + [("ElevationTests", ["testNoiseOnFlatGroundIsIgnored", "testSlowSteadyClimbIsCountedFully", "testVentouxGainCloseToReference"])], 28, failed={
        "testSlowSteadyClimbIsCountedFully": "/Users/camille/dev/TrailKit/Tests/TrailKitTests/ElevationTests.swift:18: error: -[TrailKitTests.ElevationTests testSlowSteadyClimbIsCountedFully] : XCTAssertEqual failed: (\"0.0\") is not equal to (\"200.0\")",
        "testVentouxGainCloseToReference": "/Users/camille/dev/TrailKit/Tests/TrailKitTests/ElevationTests.swift:23: error: -[TrailKitTests.ElevationTests testVentouxGainCloseToReference] : XCTAssertEqual failed: (\"1498.0\") is not equal to (\"1610.0\") +/- (\"40.0\") - ",
    }, build="[5/8] Compiling TrailKit Elevation.swift\nBuild complete! (4.12s)"),
    code=1,
    secs=19.8,
)
r.say(
    "Two failures, both from my first version: it compares each single step with the threshold, so a slow climb of 2 m per point is never counted "
    "(0 instead of 200) and the Ventoux gives 1498 m, too low now. The threshold must be measured from an anchor, not per step. I fix it."
)
ELEV_V2_BODY = '''    /// Total climb in metres, ignoring altitude changes smaller than `threshold`.
    ///
    /// Hysteresis: the anchor only moves once the altitude is more than `threshold` away from it, and a move up
    /// counts fully. Jitter around a level is ignored; a slow climb is counted once it has added up.
    public func elevationGain(threshold: Double) -> Double {
        var elevations = points.compactMap(\\.elevation).makeIterator()
        guard var anchor = elevations.next() else { return 0 }
        var gain = 0.0
        while let e = elevations.next() {
            if e - anchor > threshold {
                gain += e - anchor
                anchor = e
            } else if anchor - e > threshold {
                anchor = e
            }
        }
        return gain
    }
'''
r.patch([("update", ELEV, [('''    /// Total climb in metres, ignoring altitude changes smaller than `threshold`.
    public func elevationGain(threshold: Double) -> Double {
        let elevations = points.compactMap(\\.elevation)
        return zip(elevations, elevations.dropFirst()).reduce(0) { sum, pair in
            let delta = pair.1 - pair.0
            return delta > threshold ? sum + delta : sum
        }
    }
''', ELEV_V2_BODY)])])
r.run("swift test 2>&1 | tail -2", "Test Suite 'All tests' passed at 2025-11-25 10:19:31.244.\n\t Executed 41 tests, with 0 failures (0 unexpected) in 0.702 (0.708) seconds\n", secs=18.9)
r.run("swift run trailkit-cli stats Tests/TrailKitTests/Fixtures/ventoux-bedoin.gpx | grep gain && swift run trailkit-cli stats Tests/TrailKitTests/Fixtures/calanques-marseilleveyre.gpx | grep gain",
      "elevation gain:  1604.0 m\nelevation gain:  742.0 m\n", secs=4.0)
r.run("git diff --stat", " Sources/TrailKit/Track.swift | 8 ++------\n 1 file changed, 2 insertions(+), 6 deletions(-)\n")
r.say(
    "Fixed:\n\n"
    "- `Sources/TrailKit/Elevation.swift` (new): `elevationGain(threshold:)` with hysteresis, and `Track.defaultElevationThreshold = 5.0`\n"
    "- `Track.elevationGain` keeps name and type, now returns `elevationGain(threshold: 5).rounded()`, so the app gets the corrected value in whole metres without code change\n"
    "- `Tests/TrailKitTests/ElevationTests.swift` (new): jitter on flat ground gives 0, a slow 2 m/point climb counts fully, Ventoux within 40 m of Strava\n\n"
    "Ventoux: 1604 m now (Strava 1610 m, before 2870 m). Calanques: 742 m. 41 tests pass. Package.swift unchanged, no dependency."
)

# ------------------------------------------------------------------ turn 3
r.user(
    "Super, merci! Another thing now. The CI job on Linux (the swift:5.10 image) is red since Marc added it last week, it was already red before "
    "your change. Can you look? I have docker on this Mac.\n\n"
    "Attention: the workflow file is maintained by Marc, please do not modify .github/workflows, only the code."
)
r.run("cat .github/workflows/ci.yml",
      "name: ci\non: [push, pull_request]\njobs:\n  macos:\n    runs-on: macos-14\n    steps:\n      - uses: actions/checkout@v4\n      - run: swift test --parallel\n"
      "  linux:\n    runs-on: ubuntu-22.04\n    container: swift:5.10-jammy\n    steps:\n      - uses: actions/checkout@v4\n      - run: swift build --build-tests\n      - run: swift test --parallel --skip-build\n")
r.run(
    "docker run --rm -v \"$PWD\":/src -w /src swift:5.10-jammy swift build --build-tests 2>&1 | tail -25",
    "Fetching nothing, no dependencies\n"
    "Building for debugging...\n"
    "[0/9] Write sources\n[2/9] Write swift-version--58304C5D6DBC2206.txt\n[4/12] Compiling TrailKit Elevation.swift\n"
    "/src/Sources/TrailKit/GPXParser.swift:4:43: error: cannot find type 'XMLParserDelegate' in scope\n"
    "public final class GPXParser: NSObject, XMLParserDelegate {\n"
    "                                        ^~~~~~~~~~~~~~~~~\n"
    "/src/Sources/TrailKit/GPXParser.swift:15:22: error: cannot find 'XMLParser' in scope\n"
    "        let parser = XMLParser(data: data)\n"
    "                     ^~~~~~~~~\n"
    "/src/Sources/TrailKit/GPXParser.swift:21:35: error: cannot find type 'XMLParser' in scope\n"
    "    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {\n"
    "                                  ^~~~~~~~~\n"
    "/src/Sources/TrailKit/GPXParser.swift:30:35: error: cannot find type 'XMLParser' in scope\n"
    "    public func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }\n"
    "                                  ^~~~~~~~~\n"
    "/src/Sources/TrailKit/GPXParser.swift:32:35: error: cannot find type 'XMLParser' in scope\n"
    "    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {\n"
    "                                  ^~~~~~~~~\n"
    "[5/12] Compiling TrailKit FitExport.swift\n[6/12] Compiling TrailKit Segment.swift\n"
    "error: fatalError\n",
    code=1,
    secs=96.0,
    reasoning="**Linux build**\n\nReproduce the CI job with the same image.",
)
r.say(
    "On Linux, `XMLParser` is not in `Foundation`: swift-corelibs-foundation puts it in a separate module, `FoundationXML`. On macOS/iOS it is in Foundation, "
    "that is why only the Linux job fails. So: a conditional import in GPXParser.swift, nothing else changes for Apple platforms."
)
r.patch([("update", GPX, [("import Foundation\n\n/// Reads", "import Foundation\n#if canImport(FoundationXML)\n// swift-corelibs-foundation (Linux) ships XMLParser in its own module.\nimport FoundationXML\n#endif\n\n/// Reads")])])
r.run(
    "docker run --rm -v \"$PWD\":/src -w /src swift:5.10-jammy bash -c 'swift build --build-tests && swift test --parallel --skip-build' 2>&1 | tail -12",
    "[11/12] Compiling TrailKitTests TrackTests.swift\n[12/12] Linking TrailKitPackageTests.xctest\nBuild complete! (61.20s)\n"
    "[1/41] Testing TrailKitTests.DistanceTests/testHaversineSymmetric\n[2/41] Testing TrailKitTests.GPXParserTests/testParsesTime\n"
    "[17/41] Testing TrailKitTests.ElevationTests/testVentouxGainCloseToReference\n"
    "[18/41] Testing TrailKitTests.GPXParserTests/testParsesNameAndPoints\n"
    "error: 1 test failed:\n    GPXParserTests.testParsesTime\n"
    "TrailKitTests/GPXParserTests.swift:27: error: GPXParserTests.testParsesTime : XCTUnwrap failed: expected non-nil value of type \"URL\" - \n"
    "[41/41] Testing TrailKitTests.TrackTests/testSteadyClimb\n",
    code=1,
    secs=140.0,
)
r.run("sed -n '25,32p' Tests/TrailKitTests/GPXParserTests.swift; ls Tests/TrailKitTests/Fixtures | grep -i ventoux",
      "    func testParsesTime() throws {\n        let url = try XCTUnwrap(Bundle.module.url(forResource: \"Ventoux-Bedoin\", withExtension: \"gpx\", subdirectory: \"Fixtures\"))\n"
      "        let track = try GPXParser.parse(Data(contentsOf: url))\n        let expected = Date(timeIntervalSince1970: 1_749_881_529)\n"
      "        XCTAssertEqual(track.points.first?.time, expected)\n    }\n"
      "ventoux-bedoin.gpx\n")
r.say(
    "It builds now; one test fails only on Linux: `testParsesTime` asks for the resource `Ventoux-Bedoin` but the file is `ventoux-bedoin.gpx`. "
    "The Mac file system is case-insensitive, so it was found there; the ext4 file system in the container is case-sensitive, so `Bundle.module.url` returns nil. "
    "So: I correct the name in the test (it is a test file, not the workflow).",
    reasoning="**Case sensitivity**\n\nAPFS default is case-insensitive, Linux is not.",
)
r.patch([("update", "Tests/TrailKitTests/GPXParserTests.swift", [("forResource: \"Ventoux-Bedoin\"", "forResource: \"ventoux-bedoin\"")])])
r.run("docker run --rm -v \"$PWD\":/src -w /src swift:5.10-jammy bash -c 'swift build --build-tests && swift test --parallel --skip-build' 2>&1 | tail -3 && swift test 2>&1 | tail -1",
      "Build complete! (58.73s)\n[41/41] Testing TrailKitTests.TrackTests/testSteadyClimb\nTest Suite 'All tests' passed.\n"
      "\t Executed 41 tests, with 0 failures (0 unexpected) in 0.695 (0.701) seconds\n", secs=150.0)
r.run("git status --short", " M Sources/TrailKit/GPXParser.swift\n M Sources/TrailKit/Track.swift\n M Tests/TrailKitTests/GPXParserTests.swift\n?? Sources/TrailKit/Elevation.swift\n?? Tests/TrailKitTests/ElevationTests.swift\n")
r.say(
    "The Linux job should be green now, without touching .github/workflows:\n\n"
    "1. `GPXParser.swift` imports `FoundationXML` when it exists (`#if canImport(FoundationXML)`): on Linux `XMLParser` lives there.\n"
    "2. `GPXParserTests.testParsesTime` loaded `Ventoux-Bedoin` but the fixture is `ventoux-bedoin.gpx`: fine on the case-insensitive Mac disk, nil on Linux. Name corrected in the test.\n\n"
    "In the swift:5.10-jammy container: build ok, 41 tests pass; on macOS also 41. Nothing committed yet."
)

# ------------------------------------------------------------------ turn 4
r.user(
    "Perfect, thank you. Finally I changed my idea for the rounding: the app team says they format the number themselves with MeasurementFormatter "
    "(in French it gives \"1 604 m\"), and the rounding makes the sum of the segments different from the total. So please no rounding in "
    "elevationGain, give the precise Double. Sorry for that!\n\n"
    "And for later, not now: the same hysteresis for the descent (elevationLoss), we need it for the next version of the app. "
    "Then you can commit, on a branch fix/elevation-noise, message in english."
)
r.run("grep -rn 'elevationGain' Sources Tests | grep -v '^Sources/TrailKit/Elevation.swift'",
      "Sources/TrailKit/Track.swift:28:    /// Total climb in metres, rounded to whole metres, with GPS noise filtered out (see Elevation.swift).\n"
      "Sources/TrailKit/Track.swift:29:    public var elevationGain: Double {\n"
      "Sources/TrailKit/Track.swift:30:        elevationGain(threshold: Track.defaultElevationThreshold).rounded()\n"
      "Sources/TrailKit/Segment.swift:41:        Track(name: name, points: points).elevationGain\n"
      "Tests/TrailKitTests/ElevationTests.swift:15:        XCTAssertEqual(Track(name: \"loire\", points: pts).elevationGain, 0)\n"
      "Tests/TrailKitTests/ElevationTests.swift:20:        XCTAssertEqual(Track(name: \"ramp\", points: pts).elevationGain, 200)\n"
      "Tests/TrailKitTests/ElevationTests.swift:24:        XCTAssertEqual(try fixture(\"ventoux-bedoin\").elevationGain, 1610, accuracy: 40)\n"
      "Tests/TrailKitTests/TrackTests.swift:11:        XCTAssertEqual(Track(name: \"climb\", points: pts).elevationGain, 100, accuracy: 0.001)\n")
r.patch([("update", TRACK, [("    /// Total climb in metres, rounded to whole metres, with GPS noise filtered out (see Elevation.swift).\n    public var elevationGain: Double {\n        elevationGain(threshold: Track.defaultElevationThreshold).rounded()\n    }\n",
                              "    /// Total climb in metres, with GPS noise filtered out (see Elevation.swift). Not rounded: the app formats it,\n    /// and segment gains must add up to the track's.\n    public var elevationGain: Double {\n        elevationGain(threshold: Track.defaultElevationThreshold)\n    }\n")])],
        reasoning="**Remove rounding**\n\nSegment.swift also uses elevationGain; unrounded values add up.")
r.run("swift test 2>&1 | tail -1 && swift run trailkit-cli stats Tests/TrailKitTests/Fixtures/ventoux-bedoin.gpx | grep gain",
      "\t Executed 41 tests, with 0 failures (0 unexpected) in 0.688 (0.694) seconds\nelevation gain:  1604.3 m\n", secs=22.0)
r.run("git switch -c fix/elevation-noise && git add -A && git commit -qm 'Filter GPS noise from elevation gain (5 m hysteresis); build on Linux (FoundationXML, fixture name case)' && git log --oneline -1",
      "Switched to a new branch 'fix/elevation-noise'\n5d0c2ae Filter GPS noise from elevation gain (5 m hysteresis); build on Linux (FoundationXML, fixture name case)\n")
r.say(
    "Done:\n\n"
    "- No more rounding: `elevationGain` returns the precise value (Ventoux 1604.3 m); segment gains in Segment.swift add up to the total again.\n"
    "- Committed as 5d0c2ae on `fix/elevation-noise` (not pushed).\n\n"
    "Noted for later, not started: `elevationLoss` with the same hysteresis (an `elevationLoss(threshold:)` next to `elevationGain(threshold:)` in Elevation.swift would be the natural place)."
)

r.save(HERE / "session.jsonl")
