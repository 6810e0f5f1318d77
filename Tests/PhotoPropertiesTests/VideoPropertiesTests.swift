import Foundation
import PhotoSource
import Posix
import Renditions
import Video
import TestFixtures
import Testing
@testable import PhotoProperties

/// Video properties against exiftool's reading of every video in Tests/Fixtures/video that has
/// pictures: Keys:CreationDate (else QuickTime:CreateDate), QuickTime:Duration,
/// Keys:GPSCoordinates (else UserData:GPSCoordinates), Composite:Rotation, Keys make and model,
/// Keys:ContentIdentifier. (Sizes, codecs and HDR are checked against expectations.csv in
/// RenditionsTests' VideoSummaryTests.) Matroska files have no date: their DateUTC is when they
/// were muxed (h264_ac3.mkv: a 2025 remux of a 2016 clip), not when they were recorded.
@Suite struct VideoPropertiesTests {
    static let videos = ["Android_gps_3frames.mp4", "black_10s.mp4", "h264_ac3.mkv", "h264_mp3.avi", "hdr10_pq_av1_portrait.mp4",
                         "hevc_small.mp4", "hlg10_1080p.mp4", "iPhone14Pro_dolbyvision_hlg_rot90.mov", "iPhone6_gps_rot90.mov",
                         "iPhone6s_livephoto.mov", "rotate_and_reflect.mp4", "sample_qcif.3gp", "vp9_642x642.webm"].map { "video/" + $0 }

    @Test(arguments: videos) func propertiesMatchExiftool(_ relative: String) throws {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(relative)))
        let ours = try VideoProperties.read(file.descriptor, name: relative)
        let tags = try Exiftool.tags(relative, ["-Keys:CreationDate", "-QuickTime:CreateDate", "-QuickTime:Duration", "-Keys:GPSCoordinates",
                                                 "-UserData:GPSCoordinates", "-Keys:Make", "-Keys:Model",
                                                 "-Keys:ContentIdentifier"])

        // exiftool prints "2023:05:09 12:41:46+01:00"; the movie header's time is UTC (zero:
        // none), which its QuickTimeUTC option shows in this process's zone, as assetfs does.
        let headerIsSet = tags["QuickTime:CreateDate"].map { !$0.hasPrefix("0000") } ?? false
        let local = headerIsSet ? try Exiftool.tags(relative, ["-QuickTime:CreateDate", "-api", "QuickTimeUTC=1"])["QuickTime:CreateDate"] : nil
        let expectedDate = tags["Keys:CreationDate"] ?? local
        #expect(ours.date?.iso8601 == expectedDate.map(Exiftool.iso8601), "\(relative): date")
        #expect(ours.date?.source == (tags["Keys:CreationDate"] != nil ? .quickTime : expectedDate != nil ? .movieHeader : nil))
        if let duration = tags["QuickTime:Duration"].flatMap(Double.init) {
            #expect(abs((ours.duration ?? -1) - duration) < 0.002, "\(relative): duration \(String(describing: ours.duration)) against \(duration)")
        }
        let gps = (tags["Keys:GPSCoordinates"] ?? tags["UserData:GPSCoordinates"])?.split(separator: " ").compactMap { Double($0) }
        #expect(ours.location.map { [$0.latitude, $0.longitude] }.map { zip($0, gps ?? []).allSatisfy { abs($0 - $1) < 1e-4 } && gps?.count ?? 0 >= 2 }
                    ?? (gps == nil), "\(relative): location \(String(describing: ours.location)) against \(String(describing: gps))")
        let camera = [tags["Keys:Make"], tags["Keys:Model"]].compactMap { $0 }
        #expect(ours.camera.map { String(decoding: $0, as: UTF8.self) } == (camera.isEmpty ? nil : camera.joined(separator: " ")))
        #expect(ours.livePhotoIdentifier == tags["Keys:ContentIdentifier"])
    }

    /// Rotation against exiftool's Composite:Rotation, through the summary the properties come from.
    @Test(arguments: videos) func rotationMatchesExiftool(_ relative: String) throws {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(relative)))
        let summary = try VideoSummary.read(file.descriptor, name: relative)
        let tags = try Exiftool.tags(relative, ["-Composite:Rotation"])
        #expect(summary.rotation == Int(tags["Composite:Rotation"] ?? "0"), "\(relative)")
        #expect(summary.mirrored == (relative == "video/rotate_and_reflect.mp4"))
    }

    @Test func typesComeFromTheContent() throws {
        let expected = ["video/iPhone6_gps_rot90.mov": "video/quicktime", "video/Android_gps_3frames.mp4": "video/mp4",
                        "video/sample_qcif.3gp": "video/3gpp", "video/h264_ac3.mkv": "video/x-matroska",
                        "video/vp9_642x642.webm": "video/webm", "video/h264_mp3.avi": "video/x-msvideo"]
        for (relative, type) in expected {
            let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path(relative)))
            #expect(try VideoProperties.read(file.descriptor, name: relative).mediaType == type, "\(relative)")
        }
    }

    @Test func audioOnlyHasNoVideoProperties() throws {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.path("video/audio_only.mp4")))
        #expect { try VideoProperties.read(file.descriptor, name: "audio_only.mp4") } throws: {
            ($0 as? VideoError)?.kind == .noPictures
        }
    }

    @Test func iso6709Forms() {
        #expect(VideoProperties.iso6709("+32.0929+034.8620+028.516/") == Coordinates(latitude: 32.0929, longitude: 34.862))
        #expect(VideoProperties.iso6709("+51.4169-000.0806/") == Coordinates(latitude: 51.4169, longitude: -0.0806))
        let minutes = VideoProperties.iso6709("+4041.40-07400.00/")
        #expect(minutes.map { abs($0.latitude - 40.69) < 1e-9 && abs($0.longitude + 74) < 1e-9 } == true)
        #expect(VideoProperties.iso6709("+00.0000+000.0000/") == nil)
        #expect(VideoProperties.iso6709("garbage") == nil)
    }

    /// Streams FFmpeg reports as 0x0 (found by fuzzing, Fuzz/crashes): the size is unknown, never 0.
    @Test(arguments: ["crash-video-properties-0x0-mpeg4-vol-truncated.mov", "crash-video-properties-0x0-vp8-two-tracks.webm",
                      "crash-video-properties-0x0-avi.avi", "crash-video-properties-0x0-mpegts.ts"])
    func aStreamOfNoSizeHasNoSize(_ name: String) throws {
        let file = try OwnedFileDescriptor.openReadOnly(FilePath(Fixtures.packageRoot + "/Fuzz/crashes/" + name))
        let head = try file.read(upTo: SourceFormat.headLength, at: 0)
        let format = try #require(SourceFormat.sniff(head, fileName: Array(name.utf8)))
        #expect(format.isVideo)
        let properties = PhotoProperties.read(from: file.descriptor, modificationNanoseconds: 0, format: format)
        #expect(properties.width == nil && properties.height == nil, "\(name): \(String(describing: properties.width))x\(String(describing: properties.height))")
    }
}

/// exiftool's reading of a fixture: `-s -G1 -n` lines as "Group:Tag" → value.
enum Exiftool {
    static func tags(_ relative: String, _ arguments: [String]) throws -> [String: String] {
        try tags(path: Fixtures.path(relative), arguments)
    }

    static func tags(path: String, _ arguments: [String]) throws -> [String: String] {
        let output = try run(["exiftool", "-s", "-G1", "-n", "-a"] + arguments + [path])
        var tags: [String: String] = [:]
        for line in output.split(separator: "\n") {
            guard line.hasPrefix("["), let close = line.firstIndex(of: "]"), let colon = line.range(of: " : ") else { continue }
            let group = line[line.index(after: line.startIndex)..<close]
            let name = line[line.index(after: close)..<colon.lowerBound].trimmingCharacters(in: .whitespaces)
            tags["\(group):\(name)"] = tags["\(group):\(name)"] ?? String(line[colon.upperBound...])
        }
        return tags
    }

    /// "2023:05:09 12:41:46+01:00" as ISO 8601.
    static func iso8601(_ date: String) -> String {
        var characters = Array(date)
        for index in [4, 7] where index < characters.count { characters[index] = "-" }
        if characters.count > 10 { characters[10] = "T" }
        return String(characters)
    }

    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
