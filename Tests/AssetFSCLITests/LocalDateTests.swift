import Foundation
import Glibc
import Testing

extension Mounted {
    /// Dates that name an instant but no zone are shown in the daemon's zone (TZ), with the
    /// offset it had then: a daemon in Los Angeles files an Android clip whose movie header says
    /// 2024-01-13T05:40:00Z under 2024-01-12, and one from July at its summer offset.
    @Suite struct LocalDateTests {
        static let zone = "America/Los_Angeles"

        /// An MP4 of a few frames made by ffmpeg at `path`, with the movie header's time `utc`
        /// (none when nil: ffmpeg then leaves the header's time zero, which says nothing).
        static func clip(_ path: String, utc: String?) throws {
            let metadata = utc.map { ["-metadata", "creation_time=" + $0] } ?? []
            let made = Command.run("ffmpeg", ["-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "color=c=blue:s=64x48:d=0.2",
                                              "-c:v", "mpeg4"] + metadata + [path])
            guard made.status == 0 else { throw HarnessError("ffmpeg: \(made.err)") }
        }

        func attribute(_ name: String, _ folder: [UInt8]) -> String? {
            (try? RawFiles.extendedAttribute("user.assetfs.\(name)", of: folder).get()).map { String(decoding: $0, as: UTF8.self) }
        }

        @Test func movieHeaderTimesAreShownInTheDaemonsZone() throws {
            let library = Library(sourceName: "Photos", albums: [Library.Album(name: Array("Clips".utf8), assets: [
                Library.Asset(name: Array("photo".utf8), source: Array("Clips/photo.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
            ])])
            try withScratch(library, changesSource: true) { scratch in
                try Self.clip(scratch.source + "/Clips/winter.mp4", utc: "2024-01-13T05:40:00Z")
                try Self.clip(scratch.source + "/Clips/summer.mp4", utc: "2024-07-13T05:40:00Z")
                var environment = ProcessInfo.processInfo.environment
                environment["TZ"] = Self.zone
                let mount = try scratch.adopt(point: scratch.mountpoint, command: AssetFS.binary,
                                              arguments: ["-o", "cache=\(scratch.cache)", scratch.source, scratch.mountpoint], environment: environment)
                let clips = mount.groups / "Clips"
                let read = eventually(timeout: 30) { attribute("date", clips / "winter") != nil && attribute("date", clips / "summer") != nil }
                #expect(read, "the clips' dates were not read within 30 s")
                #expect(attribute("date", clips / "winter") == "2024-01-12T21:40:00-08:00")
                #expect(attribute("date", clips / "summer") == "2024-07-12T22:40:00-07:00", "summer time")
                #expect(attribute("date_source", clips / "winter") == "movie-header")
                let day = mount.bytes / "dates" / "2024" / "2024-01-12"
                let filed = eventually(timeout: 10) { statErrno(day / "winter") == 0 }
                #expect(filed, "winter is not under dates/2024/2024-01-12: \((RawFiles.names(in: mount.bytes / "dates" / "2024") ?? []).map(\.text))")
                #expect(statErrno(mount.bytes / "dates" / "2024" / "2024-01-13") == ENOENT, "nothing is on the UTC day")
                #expect(statErrno(mount.bytes / "dates" / "2024" / "2024-07-12" / "summer") == 0)
            }
        }
    }
}
