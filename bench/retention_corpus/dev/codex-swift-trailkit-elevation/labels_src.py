# ruff: noqa: E501
"""Labels for codex-swift-trailkit-elevation, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
# the corpus: its writers are in synth/
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "TrailKit (Swift package): GPS-noise-free elevation gain (5 m hysteresis), Linux CI build (FoundationXML, case-sensitive fixture), rounding added then removed",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout3 test split",
    "voice": "French-flavoured English ('Bonjour', 'Attention:', 'please do not modify', 'I changed my idea'), decisions written 'So: ...'; one request reversed",
    "toolchain": "Swift 5.10 Swift Package Manager, swift build / swift test (XCTest), swift:5.10-jammy docker image for the Linux CI job",
}
COMPACTIONS = [
    ("Fixed:\n\n- `Sources/TrailKit/Elevation.swift` (new)", 1500),
    ("The Linux job should be green now", 700),
]
FACTS = [
    f("t01", "request", "must", "the elevation gain of the tracks is much too big", "Fix the elevation gain, much too high because of GPS altitude noise: Mont Ventoux from Bédoin showed 2870 m, Strava says 1610 m.", [r"elevation ?gain|elevationGain|\bgain\b", r"noise|too (big|high|large)|2,?870|1,?610|jitter"], "done"),
    f("t02", "constraint", "must", "the public API of TrailKit (Track, TrackPoint, Track.elevationGain) must not break", "TrailKit's public API (Track, TrackPoint, Track.elevationGain) must not break: the iOS app uses it and cannot be released this week.", [r"\bAPI\b|source[- ]compatib", r"break|additive|release|compatib", r"Track|iOS|\bapp\b"]),
    f("t03", "constraint", "must", "And no external dependency in Package.swift please", "No external dependency in Package.swift: the package stays pure Swift.", [r"dependenc|pure Swift", r"Package\.swift|pure Swift"]),
    f("t04", "value", "nice", "Executed 38 tests, with 0 failures", "38 tests passed before the change.", [r"\b38 tests"]),
    f("t05", "value", "should", "elevation gain:  2870.4 m", "trailkit-cli stats on the Ventoux fixture before: 4812 points, 21.43 km, gain 2870.4 m.", [r"2,?870"]),
    f("t06", "finding", "must", "You are right, it is the noise.", "Cause: elevationGain summed every positive delta between consecutive points; the ±3 m GPS jitter counted as climb.", [r"positive (delta|difference|step)|every (small )?(up|positive)|each (small )?up|\bsum", r"noise|jitter|±3|3 m"]),
    f("t07", "value", "nice", "the jitter alone adds about 1260 m to the real climb", "The jitter alone added about 1260 m on the Ventoux track.", [r"1,?260"]),
    f("t08", "decision", "must", "So: hysteresis with 5 m by default", "Hysteresis with a 5 m default threshold: count a climb only once the altitude is more than 5 m from the anchor.", [r"hysteresis|anchor|threshold", r"\b5 ?m\b|5\.0|five"]),
    f("t09", "decision", "should", "The new function with the parameter is ok", "Additive API is fine: new elevationGain(threshold:); the elevationGain property keeps name and type and returns the corrected value by default (the app does not change).", [r"elevationGain\(threshold|threshold:|additive|new (function|method|overload)", r"default|corrected|keep"]),
    f("t10", "request", "should", "And please round the result to whole meters", "Round elevationGain to whole metres ('1 604,3 m' looks ugly). Reversed later: no rounding.", [r"whole met(re|er)s?|\.rounded\(\)|round(ed)? (it |the result )?to (whole )?met"], "reversed"),
    f("t11", "error", "should", "testSlowSteadyClimbIsCountedFully] : XCTAssertEqual failed", "First version compared each single step with the threshold: the slow-climb test got 0.0 instead of 200 and Ventoux 1498 m.", [r"1,?498|SlowSteadyClimb|slow (steady )?climb|0\.0.{0,40}200"], "fixed"),
    f("t12", "fix", "should", "The threshold must be measured from an anchor", "Fix: measure the threshold from an anchor altitude (hysteresis), not per step.", [r"anchor", r"threshold|step|hysteresis"]),
    f("t13", "value", "should", "elevation gain:  1604.0 m", "After the fix: Ventoux 1604 m (Strava 1610), Calanques 742 m.", [r"1,?604", r"ventoux|gain|strava|1,?610"]),
    f("t14", "state", "must", "- `Sources/TrailKit/Elevation.swift` (new)", "Sources/TrailKit/Elevation.swift (new): elevationGain(threshold:) with hysteresis and Track.defaultElevationThreshold = 5.0; the Track.elevationGain property delegates to it.", [r"Elevation\.swift|defaultElevationThreshold", r"threshold|hysteresis"]),
    f("t15", "path", "nice", "- `Tests/TrailKitTests/ElevationTests.swift` (new)", "Tests/TrailKitTests/ElevationTests.swift: flat jitter gives 0, slow 2 m/point climb counts fully, Ventoux within 40 m of Strava.", [r"ElevationTests"]),
    f("t16", "value", "nice", "41 tests pass. Package.swift unchanged", "41 tests pass after the change; Package.swift unchanged.", [r"\b41 tests"]),
    f("t17", "request", "should", "The CI job on Linux (the swift:5.10 image) is red", "Make the Linux CI job (swift:5.10 image) green; it was red since Marc added it, before this change.", [r"\blinux\b", r"swift:5\.10|\bCI\b|\bjob\b"], "done"),
    f("t18", "constraint", "must", "please do not modify .github/workflows", "Do not modify .github/workflows (maintained by Marc); fix the code only.", [r"\.github/workflows|workflow|ci\.yml", r"not (modify|touch|change|edit)|don.?t|untouched|unchanged|Marc|only the code|without touching"]),
    f("t19", "command", "should", "swift:5.10-jammy swift build --build-tests 2>&1", "Reproduce the Linux job locally: docker run --rm -v \"$PWD\":/src -w /src swift:5.10-jammy swift build --build-tests / swift test --parallel --skip-build.", [r"swift:5\.10-jammy|docker", r"swift (build|test)"]),
    f("t20", "error", "should", "error: cannot find type 'XMLParserDelegate' in scope", "Linux build error: cannot find type 'XMLParserDelegate' / 'XMLParser' in scope (GPXParser.swift).", [r"XMLParser", r"cannot find|not in Foundation|FoundationXML|Linux"], "fixed"),
    f("t21", "fix", "should", "So: a conditional import in GPXParser.swift", "Fix: #if canImport(FoundationXML) import FoundationXML in GPXParser.swift (XMLParser lives there in swift-corelibs-foundation).", [r"FoundationXML"]),
    f("t22", "error", "should", "XCTUnwrap failed: expected non-nil value", "Then on Linux only, GPXParserTests.testParsesTime failed: XCTUnwrap nil for resource 'Ventoux-Bedoin' (file is ventoux-bedoin.gpx, Linux is case-sensitive).", [r"testParsesTime|XCTUnwrap|Ventoux-Bedoin|case[- ]?sensitiv"], "fixed"),
    f("t23", "fix", "should", "So: I correct the name in the test", "Fix: resource name corrected to ventoux-bedoin in the test (Mac disk case-insensitive, ext4 not).", [r"case[- ]?(in)?sensitive|Ventoux-Bedoin|ventoux-bedoin", r"test|name|resource"]),
    f("t24", "finding", "nice", "    container: swift:5.10-jammy", "ci.yml: macos-14 job runs swift test --parallel; linux job runs in container swift:5.10-jammy: swift build --build-tests, then swift test --parallel --skip-build.", [r"macos-14|ubuntu-22\.04|--skip-build|swift:5\.10"]),
    f("t25", "decision", "must", "Finally I changed my idea for the rounding", "No rounding in elevationGain after all: return the precise Double (the app formats with MeasurementFormatter, and rounding made segment sums differ from the total).", [r"\bround(ed|ing)?\b", r"no rounding|not round|without round|precise|MeasurementFormatter|segment|remov"], "done"),
    f("t26", "finding", "nice", "Sources/TrailKit/Segment.swift:41:", "Segment.swift uses elevationGain per segment, so segment gains must add up to the track's.", [r"Segment(\.swift)?", r"elevationGain|gain|add up|sum"]),
    f("t27", "request", "must", "the same hysteresis for the descent (elevationLoss)", "Open, later: the same hysteresis for the descent (elevationLoss) for the next app version.", [r"elevationLoss|descent|\bloss\b", r"later|not (now|started|yet)|next version|open|hysteresis"], "open"),
    f("t28", "value", "should", "Committed as 5d0c2ae", "Committed as 5d0c2ae on fix/elevation-noise, not pushed.", [r"5d0c2ae|fix/elevation-noise"]),
    f("t29", "value", "nice", "elevation gain:  1604.3 m", "Unrounded final value for Ventoux: 1604.3 m.", [r"1,?604\.3"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)
