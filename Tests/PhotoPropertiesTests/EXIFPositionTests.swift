import Foundation
import PhotoSource
import Posix
import TestFixtures
import Testing
@testable import PhotoProperties

/// EXIF GPS as exiftool writes it: a position, and 0,0 (a GPS without a fix), which is none, as
/// XMP, Takeout and QuickTime read it.
@Suite struct EXIFPositionTests {
    static func location(gps latitude: Double, _ longitude: Double) throws -> Coordinates? {
        let path = NSTemporaryDirectory() + "exif-position-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jpg"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try FileManager.default.copyItem(atPath: Fixtures.path("cameras/Kodak_DX4330.jpg"), toPath: path)
        let written = "exiftool -q -q -overwrite_original -n -GPSLatitude=\(abs(latitude)) -GPSLatitudeRef=\(latitude < 0 ? "S" : "N")"
            + " -GPSLongitude=\(abs(longitude)) -GPSLongitudeRef=\(longitude < 0 ? "W" : "E") '\(path)'"
        #expect(system(written) == 0)
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(path))
        return PhotoProperties.read(from: file.descriptor, modificationNanoseconds: 0, format: .jpeg).location
    }

    @Test func aPositionIsRead() throws {
        let location = try #require(try Self.location(gps: -33.856784, 151.215297))
        #expect(location.text == "-33.856784,151.215297")
    }

    @Test func zeroZeroIsNone() throws {
        #expect(try Self.location(gps: 0, 0) == nil)
    }
}
