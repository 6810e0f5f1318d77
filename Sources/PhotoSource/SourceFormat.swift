/// The formats assetfs shows, one registry entry each: its facts (name, MIME type, extensions),
/// its signatures, and what the rest of assetfs asks of a format (may it hold motion, can its
/// tracks be listed from its boxes). The decoder that renders it and the reader of its metadata
/// are registered under it by the targets that own them, which this one cannot see
/// (`PhotoDecoder.builtIn`, `EmbeddedMetadata.readers`). The catalog stores the raw value.
///
/// Formats are recognised from a file's first bytes, never from its name. Photos: every RAW
/// container LibRaw reads by its own signature, and the TIFF-based ones (NEF, ARW, DNG, PEF, ...)
/// from a plain TIFF by the marks of their IFDs (`TIFFRawMarks`), or failing those by a RAW
/// extension. Videos: the containers FFmpeg opens, recognised as "may hold video" (an MP4 of
/// sound only is told apart by its tracks, `ISOBaseMediaFile.trackHandlers`); a file is a video
/// only when no photo format claims it (a HEIC Motion Photo is a photo). Pure: no I/O, no C library.
public struct SourceFormat: RawRepresentable, Hashable, Sendable, CaseIterable, CustomStringConvertible {
    /// The entry, shared by every copy: a catalog row holds one reference, not the whole entry.
    private let entry: Entry

    private final class Entry: Sendable {
        let rawValue: String
        let facts: Facts
        let signatures: [Signature]
        let mayHoldMotion: Bool
        let isISOMedia: Bool

        init(_ rawValue: String, _ facts: Facts, _ signatures: [Signature], _ mayHoldMotion: Bool, _ isISOMedia: Bool) {
            (self.rawValue, self.facts, self.signatures, self.mayHoldMotion, self.isISOMedia) = (rawValue, facts, signatures, mayHoldMotion, isISOMedia)
        }
    }

    /// The name the catalog stores.
    public var rawValue: String { entry.rawValue }
    public var facts: Facts { entry.facts }
    /// What tells its files apart, each at its rank (`Signature.Rank`).
    public var signatures: [Signature] { entry.signatures }
    /// Whether a file of it may be a Motion Photo (a still with an MP4 inside: Google's, Samsung's).
    public var mayHoldMotion: Bool { entry.mayHoldMotion }
    /// Whether it is an ISO base media video, whose tracks can be listed without FFmpeg.
    public var isISOMedia: Bool { entry.isISOMedia }

    public init(_ rawValue: String, facts: Facts, signatures: [Signature], mayHoldMotion: Bool = false, isISOMedia: Bool = false) {
        entry = Entry(rawValue, facts, signatures, mayHoldMotion, isISOMedia)
    }

    /// The registered format stored as `rawValue`.
    public init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = format
    }

    /// The registry, in the order `assetfs formats` lists it: a new format is one entry here.
    public static let allCases: [SourceFormat] = [.jpeg, .heif, .avif, .png, .webp, .gif, .tiff, .raw,
                                                  .quickTime, .mp4, .m4v, .threeGPP, .matroska, .webM, .avi,
                                                  .mpegTransportStream, .mpegProgramStream]

    /// A format is its name: two values of one name are one format.
    public static func == (a: SourceFormat, b: SourceFormat) -> Bool { a.entry === b.entry || a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { rawValue }

    /// Whether its renditions are poster frames and its properties a container's.
    public var isVideo: Bool { facts.isVideo }

    /// How many leading bytes `sniff` looks at (fewer is fine for a short file): enough for the
    /// IFDs a TIFF-based RAW puts first (one page read either way).
    public static let headLength = 16 << 10

    /// The format among `formats` whose signature `head` (the file's first bytes, up to
    /// `headLength`) carries, or nil: the signatures are tried rank by rank, in `formats`' order
    /// within a rank. `fileName` (the last path component, any case) only settles TIFF-signature
    /// files: a RAW extension makes them `.raw`, anything else `.tiff`.
    public static func sniff(_ head: [UInt8], fileName: [UInt8], among formats: [SourceFormat] = allCases) -> SourceFormat? {
        let sniffed = Signature.Head(head, fileName: fileName)
        for rank in Signature.Rank.allCases where rank.isISO == sniffed.isISO || rank == .distinct {
            for format in formats where format.signatures.contains(where: { $0.rank == rank && $0.matches(sniffed) }) {
                return format
            }
        }
        return nil
    }
}
