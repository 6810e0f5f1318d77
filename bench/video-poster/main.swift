import Foundation
import Posix
import Renditions
import Video

/// `video-poster FILE LONGEST_SIDE OUTPUT.jpg`: one poster, as the mount will make it, for
/// bench/video-bench.sh. `video-poster --idle` loads the same libraries, FFmpeg's included (the
/// bridge loads them on first use: an empty file is offered to it), and makes nothing: the
/// baseline its peak RSS is measured against, as a daemon that has served a video holds them.
let arguments = CommandLine.arguments
if arguments.count == 2, arguments[1] == "--idle" {
    let empty = try OwnedFileDescriptor.memoryFile(holding: [])
    _ = try? VideoSummary.read(empty.descriptor, name: "empty")
    exit(0)
}
guard arguments.count == 4, let side = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: video-poster FILE LONGEST_SIDE OUTPUT.jpg | --idle\n".utf8))
    exit(2)
}
do {
    let file = try OwnedFileDescriptor.openReadOnly(FilePath(arguments[1]))
    let poster = try VideoPoster().render(file.descriptor, spec: RenditionSpec(longestSide: side), name: arguments[1])
    try Data(poster.jpeg).write(to: URL(fileURLWithPath: arguments[3]))
} catch {
    FileHandle.standardError.write(Data("video-poster: \(error)\n".utf8))
    exit(1)
}
