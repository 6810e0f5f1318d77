import Foundation
import Posix
import Testing
@testable import Renditions

/// Videos cut short at several points (index at the start or at the end, one stream or several):
/// each gives a poster or a content failure, quickly, never a crash, a hang or a read error.
@Suite struct TruncatedVideoTests {
    @Test(arguments: ["video/iPhone6_gps_rot90.mov", "video/Android_gps_3frames.mp4", "video/h264_ac3.mkv", "video/vp9_642x642.webm",
                      "video/h264_mp3.avi", "video/hdr10_pq_av1_portrait.mp4"])
    func truncatedVideosFailCleanly(_ relative: String) throws {
        let bytes = try #require(TestData.bytes(relative))
        for fraction in [0.02, 0.3, 0.6, 0.95] {
            let cut = Array(bytes.prefix(Int(Double(bytes.count) * fraction)))
            let outcome = withHangGuard(seconds: 30, "\(relative) cut to \(cut.count) bytes") { () -> String in
                guard let memory = try? OwnedFileDescriptor.memoryFile(holding: cut) else { return "no memory file" }
                do {
                    _ = try VideoPoster().render(memory.descriptor, spec: RenditionSpec(longestSide: 256), name: relative)
                    return "poster"
                } catch {
                    return (error as? RenditionError)?.isContentFailure == true ? "content failure" : "\(error)"
                }
            }
            #expect(["poster", "content failure"].contains(outcome?.value ?? "hang"), "\(relative) cut to \(cut.count) bytes: \(String(describing: outcome))")
        }
    }

    /// A poster's failure is told as a video's, with the likely cause: a MOV cut before its index.
    @Test func aCutMOVSaysItIsAnIncompleteVideo() throws {
        let bytes = try #require(TestData.bytes("video/iPhone6_gps_rot90.mov"))
        let cut = try OwnedFileDescriptor.memoryFile(holding: Array(bytes.prefix(bytes.count / 2)))
        #expect {
            try VideoPoster().render(cut.descriptor, spec: RenditionSpec(longestSide: 256), name: "cut.mov")
        } throws: { error in
            "\(error)" == "cut.mov: corrupt video: incomplete file (no moov box: still being copied or truncated)"
        }
    }
}
