# ruff: noqa: E501
"""Starting contents of the files the session reads (a Swift package, written for the heldout3 split)."""

PACKAGE = '''// swift-tools-version:5.9
import PackageDescription

let package = Package(
    name: "TrailKit",
    platforms: [.iOS(.v16), .macOS(.v13)],
    products: [
        .library(name: "TrailKit", targets: ["TrailKit"]),
        .executable(name: "trailkit-cli", targets: ["TrailKitCLI"]),
    ],
    targets: [
        .target(name: "TrailKit"),
        .executableTarget(name: "TrailKitCLI", dependencies: ["TrailKit"]),
        .testTarget(name: "TrailKitTests", dependencies: ["TrailKit"], resources: [.copy("Fixtures")]),
    ]
)
'''

TRACK = '''import Foundation

public struct TrackPoint: Equatable, Sendable {
    public let latitude: Double
    public let longitude: Double
    public let elevation: Double?
    public let time: Date?

    public init(latitude: Double, longitude: Double, elevation: Double?, time: Date?) {
        self.latitude = latitude
        self.longitude = longitude
        self.elevation = elevation
        self.time = time
    }
}

public struct Track: Sendable {
    public let name: String
    public let points: [TrackPoint]

    public init(name: String, points: [TrackPoint]) {
        self.name = name
        self.points = points
    }

    /// Total distance in metres (haversine between consecutive points).
    public var distance: Double {
        zip(points, points.dropFirst()).reduce(0) { $0 + haversine($1.0, $1.1) }
    }

    /// Total climb in metres.
    public var elevationGain: Double {
        let elevations = points.compactMap(\\.elevation)
        return zip(elevations, elevations.dropFirst()).reduce(0) { sum, pair in
            sum + max(0, pair.1 - pair.0)
        }
    }
}

func haversine(_ a: TrackPoint, _ b: TrackPoint) -> Double {
    let r = 6_371_000.0
    let dLat = (b.latitude - a.latitude) * .pi / 180
    let dLon = (b.longitude - a.longitude) * .pi / 180
    let h = sin(dLat / 2) * sin(dLat / 2) + cos(a.latitude * .pi / 180) * cos(b.latitude * .pi / 180) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * r * asin(min(1, sqrt(h)))
}
'''

PARSER = '''import Foundation

/// Reads <trk><trkseg><trkpt lat lon><ele/><time/></trkpt> from GPX 1.1.
public final class GPXParser: NSObject, XMLParserDelegate {
    private var points: [TrackPoint] = []
    private var name = ""
    private var text = ""
    private var lat = 0.0, lon = 0.0
    private var ele: Double?
    private var time: Date?
    private let iso = ISO8601DateFormatter()

    public static func parse(_ data: Data) throws -> Track {
        let delegate = GPXParser()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        guard parser.parse() else { throw parser.parserError ?? CocoaError(.fileReadCorruptFile) }
        return Track(name: delegate.name, points: delegate.points)
    }

    public func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        text = ""
        if name == "trkpt" {
            lat = Double(attributes["lat"] ?? "") ?? 0
            lon = Double(attributes["lon"] ?? "") ?? 0
            ele = nil
            time = nil
        }
    }

    public func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    public func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        switch name {
        case "ele": ele = Double(text.trimmingCharacters(in: .whitespacesAndNewlines))
        case "time": time = iso.date(from: text.trimmingCharacters(in: .whitespacesAndNewlines))
        case "name" where points.isEmpty: name = text
        case "trkpt": points.append(TrackPoint(latitude: lat, longitude: lon, elevation: ele, time: time))
        default: break
        }
    }
}
'''

TRACK_TESTS = '''import XCTest
@testable import TrailKit

final class TrackTests: XCTestCase {
    func testFlatTrackHasNoGain() {
        let pts = (0..<10).map { TrackPoint(latitude: 44.17, longitude: 5.27 + Double($0) * 0.001, elevation: 300, time: nil) }
        XCTAssertEqual(Track(name: "flat", points: pts).elevationGain, 0)
    }

    func testSteadyClimb() {
        let pts = (0..<11).map { TrackPoint(latitude: 44.17, longitude: 5.27, elevation: 300 + Double($0) * 10, time: nil) }
        XCTAssertEqual(Track(name: "climb", points: pts).elevationGain, 100, accuracy: 0.001)
    }
}
'''

GPX_TESTS = '''import XCTest
@testable import TrailKit

final class GPXParserTests: XCTestCase {
    private let sample = """
    <gpx version="1.1"><trk><name>Test</name><trkseg>
    <trkpt lat="44.17" lon="5.27"><ele>300.0</ele></trkpt>
    <trkpt lat="44.18" lon="5.28"></trkpt>
    </trkseg></trk></gpx>
    """

    func testParsesNameAndPoints() throws {
        let track = try GPXParser.parse(Data(sample.utf8))
        XCTAssertEqual(track.name, "Test")
        XCTAssertEqual(track.points.count, 2)
    }

    func testMissingElevationIsNil() throws {
        XCTAssertNil(try GPXParser.parse(Data(sample.utf8)).points[1].elevation)
    }

    func testRejectsBrokenXML() {
        XCTAssertThrowsError(try GPXParser.parse(Data("<gpx><trk>".utf8)))
    }

    func testParsesTime() throws {
        let url = try XCTUnwrap(Bundle.module.url(forResource: "Ventoux-Bedoin", withExtension: "gpx", subdirectory: "Fixtures"))
        let track = try GPXParser.parse(Data(contentsOf: url))
        let expected = Date(timeIntervalSince1970: 1_749_881_529)
        XCTAssertEqual(track.points.first?.time, expected)
    }
}
'''
