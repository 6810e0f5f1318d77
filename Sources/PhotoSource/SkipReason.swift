/// Why a file of SOURCE is not shown: what `assetfs skipped` prints, what `assetfs stats`
/// counts (`statisticsKey`) and what `assetfs formats` and the manual (docs/manual.md) explain,
/// from this one list.
public enum SkipReason: String, Error, Sendable, CaseIterable {
    case hidden
    case audioOnly = "audio-only"
    case notAPhoto = "not-a-photo"
    case unreadable
    case special
    case linkedFolder = "linked-folder"
    case sidecar
    case housekeeping

    /// The reason in a sentence.
    public var explanation: String {
        switch self {
        case .hidden: "a dot-file or dot-folder (.DS_Store, AppleDouble ._* files)"
        case .audioOnly: "an MP4 or QuickTime file of sound only (a voice memo, an audiobook)"
        case .notAPhoto: "content of no photo or video format above (a document, a text file)"
        case .unreadable: "it could not be opened or read"
        case .special: "not a regular file (a FIFO, a socket, a device), or a link leading out of SOURCE"
        case .linkedFolder: "a link to (or bind mount of) a folder shown under its own path, or a link loop"
        case .sidecar: "an XMP or JSON file holding a photo's date and place, or an Apple .AAE edit list"
        case .housekeeping: "a folder NAS and systems keep for themselves (@eaDir, #recycle, $RECYCLE.BIN)"
        }
    }

    /// Its count's name in `assetfs stats` (`skipped_audio_only`).
    public var statisticsKey: String { "skipped_" + String(rawValue.map { $0 == "-" ? "_" : $0 }) }
}
