import Foundation
import PhotoSource
import Posix
import Testing
@testable import Renditions
import Video

/// What every shared video's container says, against expectations.csv: the upright size
/// (display matrix, mirror and aspect applied), the duration, the codecs, HDR; and the content
/// sniffing a scanner will call, which must leave every photo a photo.
@Suite struct VideoSummaryTests {
    @Test(arguments: VideoPosterTests.videos) func summaryMatchesExpectations(_ video: Expectation) throws {
        let file = try OwnedFileDescriptor.openReadOnly(TestData.filePath(video.file))
        guard video.decodes != .no else {
            #expect(throws: VideoError.self) { try VideoSummary.read(file.descriptor, name: video.file) }
            return
        }
        let summary = try VideoSummary.read(file.descriptor, name: video.file)
        #expect(summary.uprightSize == video.upright, "\(video.file)")
        #expect(summary.hasVideo == (video.upright != nil))
        if let duration = TestData.column("duration_s", of: video.file).flatMap(Double.init) {
            #expect(abs((summary.duration ?? -1) - duration) < 0.002, "\(video.file): \(String(describing: summary.duration)) s")
        }
        let codecs = TestData.column("codec", of: video.file)?.split(separator: "+").map(String.init) ?? []
        #expect(Set([summary.codec, summary.audioCodec].compactMap { $0 }) == Set(codecs), "\(video.file): \(codecs)")
        #expect(summary.rotation == Int(TestData.column("rotation", of: video.file) ?? ""), "\(video.file)")
        let hdr = ["video/hlg10_1080p.mp4": "hlg", "video/iPhone14Pro_dolbyvision_hlg_rot90.mov": "hlg", "video/hdr10_pq_av1_portrait.mp4": "pq"]
        #expect(summary.hdr == hdr[video.file], "\(video.file)")
    }

    @Test(arguments: VideoPosterTests.videos) func sniffedByContent(_ video: Expectation) throws {
        let head = TestData.prefix(video.file, count: SourceFormat.headLength)
        let expected: [String: SourceFormat] = ["mov": .quickTime, "mp4": .mp4, "3gp": .threeGPP, "mkv": .matroska, "webm": .webM, "avi": .avi]
        let ext = (video.file as NSString).pathExtension
        // The name plays no part: the same bytes under another name are the same container.
        #expect(SourceFormat.sniff(head, fileName: Array("clip.jpg".utf8)) == expected[ext], "\(video.file)")
    }

    /// Every photo of the fixtures stays a photo: video signatures never claim one.
    @Test func noPhotoIsTakenForAVideo() {
        let photos = TestData.expectations.filter { !$0.file.hasPrefix("video/") }
        #expect(photos.count > 90)
        for photo in photos {
            let head = TestData.prefix(photo.file, count: SourceFormat.headLength)
            let name = Array((photo.file as NSString).lastPathComponent.utf8)
            #expect(SourceFormat.sniff(head, fileName: name)?.isVideo != true, "\(photo.file)")
        }
    }

    /// Containers without a shared sample, from their published signatures.
    @Test func otherContainers() {
        func padded(_ bytes: [UInt8], to count: Int = 512) -> [UInt8] { bytes + [UInt8](repeating: 0, count: max(0, count - bytes.count)) }
        var ts = [UInt8](repeating: 0xFF, count: 564)
        for packet in 0..<3 { ts[packet * 188] = 0x47 }
        #expect(SourceFormat.sniff(ts, fileName: []) == .mpegTransportStream)
        var m2ts = [UInt8](repeating: 0xFF, count: 576)
        for packet in 0..<3 { m2ts[4 + packet * 192] = 0x47 }
        #expect(SourceFormat.sniff(m2ts, fileName: []) == .mpegTransportStream)
        #expect(SourceFormat.sniff(padded([0, 0, 1, 0xBA, 0x44]), fileName: []) == .mpegProgramStream)
        #expect(SourceFormat.sniff(padded([0, 0, 0, 0x18] + Array("ftypM4V ".utf8)), fileName: []) == .m4v)
        #expect(SourceFormat.sniff(padded([0, 0, 0, 8] + Array("wide".utf8)), fileName: []) == .quickTime)
        #expect(SourceFormat.sniff(padded(Array("RIFF\0\0\0\0AVI LIST".utf8)), fileName: []) == .avi)
        #expect(SourceFormat.sniff(padded(Array("RIFF\0\0\0\0WAVEfmt ".utf8)), fileName: []) == nil)
        #expect(SourceFormat.sniff(padded([0, 0, 0, 0x18] + Array("ftypheic".utf8)), fileName: []) == .heif)
    }
}
