import MountModel
import Posix
import Renditions

/// `assetfs render [--size N] [--quality Q] INPUT OUTPUT`: one rendition, like vipsthumbnail.
struct RenderCommand {
    /// A mount's thumbnail unless told otherwise.
    var spec = MountOptions().spec(MountOptions().sizes.thumbnail)
    var input = FilePath("")
    var output = "-"

    /// The defaults, as `usage` tells them.
    private init() {}

    init(arguments: [String]) throws(UsageError) {
        var positional: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "--size", "-s":
                spec.longestSide = try Self.number(rest.popFirst(), for: argument, in: 1...65535)
            case "--quality", "-q":
                spec.quality = try Self.number(rest.popFirst(), for: argument, in: 1...100)
            case "-":
                positional.append(argument)
            case let option where option.hasPrefix("-"):
                throw UsageError("render: unknown option '\(option)' (see 'assetfs render --help')")
            default:
                positional.append(argument)
            }
        }
        guard positional.count == 2 else { throw UsageError("render: expected INPUT and OUTPUT, e.g. 'assetfs render photo.jpg thumb.jpg'") }
        input = FilePath(positional[0])
        output = positional[1]
        try Self.checkDistinct(input: input, output: output)
    }

    /// Writing OUTPUT truncates it first: were it INPUT (by another name, a symbolic or a hard
    /// link), the photo would be gone before it is read.
    static func checkDistinct(input: FilePath, output: String) throws(UsageError) {
        guard output != "-", let outputStatus = try? FileStatus(path: FilePath(output)),
              let inputStatus = try? FileStatus(path: input) else { return }
        if outputStatus.device == inputStatus.device && outputStatus.inode == inputStatus.inode {
            throw UsageError("render: OUTPUT '\(output)' is INPUT '\(input)' (the same file); give another OUTPUT, e.g. 'assetfs render photo.jpg thumb.jpg'")
        }
    }

    static func number(_ text: String?, for option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int {
        guard let text, let value = Int(text), range.contains(value) else {
            throw UsageError("\(option) needs a number from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    static let usage = """
        usage: assetfs render [--size N] [--quality Q] INPUT OUTPUT
          Writes a JPEG of INPUT whose longest side is at most N pixels (default \(Self().spec.longestSide)),
          upright (EXIF orientation applied), at quality Q (default \(Self().spec.quality)). OUTPUT '-' is stdout.
        """

    func run() -> Int32 {
        let rendition: Rendition
        do {
            rendition = try Renderer().render(input, spec: spec)
        } catch {
            Log.error(error.description)
            return 1
        }
        for warning in rendition.warnings { Log.warning("\(input): \(warning)") }
        if let reason = rendition.previewReason { Log.warning("\(input): \(reason)") }
        do {
            if output == "-" {
                try FileDescriptor.standardOutput.writeAll(rendition.jpeg)
            } else {
                let file = try OwnedFileDescriptor.create(FilePath(output))
                try file.writeAll(rendition.jpeg)
                try file.close()  // a write the filesystem failed only now fails the command too
            }
        } catch {
            Log.error("\(output): cannot write: \(error)")
            return 1
        }
        return 0
    }
}
