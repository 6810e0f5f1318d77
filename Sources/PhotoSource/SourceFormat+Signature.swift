import Containers

extension SourceFormat {
    /// One way a format's files are recognised: a test of their first bytes, tried at its rank.
    public struct Signature: Sendable {
        /// When a signature is tried: the ranks in order, and within one the registry's order.
        /// Ranks are what settle a file two tests would claim (a TIFF header that is also a RAW's,
        /// an ISO file whose brands name two formats, a GIF that looks like a transport stream).
        public enum Rank: Int, Sendable, CaseIterable {
            /// Bytes of its own at the start, before anything else is looked at (JPEG's SOI).
            case distinct
            /// An ISO base media file (`ftyp` at 4, decided by its brands alone) of this major brand.
            case isoMajorBrand
            /// One among whose compatible brands is this format's.
            case isoCompatibleBrand
            /// One with a brand of this format's family (HEIF's generic brands), after every format's own brands.
            case isoFamilyBrand
            /// A video whose major brand names its kind, when no photo brand claimed the file.
            case isoVideoBrand
            /// Any other ISO file.
            case isoAny
            /// A container signature of its own, not ISO (camera RAWs), before the plain TIFF.
            case container
            /// A TIFF header no RAW claimed.
            case tiff
            /// A video container, after every photo's.
            case video

            var isISO: Bool { (Rank.isoMajorBrand.rawValue...Rank.isoAny.rawValue).contains(rawValue) }
        }

        public let rank: Rank
        public let matches: @Sendable (Head) -> Bool

        public init(_ rank: Rank, _ matches: @escaping @Sendable (Head) -> Bool) {
            (self.rank, self.matches) = (rank, matches)
        }

        /// An ISO file with one of `brands` where `rank` looks: among its compatible brands at
        /// `.isoCompatibleBrand`, major or compatible at `.isoFamilyBrand`, else its major brand.
        public static func isoBrands(_ brands: Set<String>, _ rank: Rank) -> Signature {
            Signature(rank) { head in
                guard let type = head.fileType else { return false }
                let major = brands.contains(type.major), compatible = type.compatible.contains(where: brands.contains)
                switch rank {
                case .isoCompatibleBrand: return compatible
                case .isoFamilyBrand: return major || compatible
                default: return major
                }
            }
        }

        /// The first bytes of a file, as signatures test them.
        public struct Head: Sendable {
            public let bytes: [UInt8]
            /// The file name's extension, lower case ("" without one).
            public let fileExtension: String
            /// An ISO file's ftyp box: its major brand and the compatible brands in the head.
            public let fileType: (major: String, compatible: [String])?

            /// Whether it is an ISO base media file (`ftyp` at 4), which its brands alone decide.
            public var isISO: Bool { at(4, "ftyp") }

            init(_ bytes: [UInt8], fileName: [UInt8]) {
                self.bytes = bytes
                let dot = fileName.lastIndex(of: UInt8(ascii: "."))
                fileExtension = dot.map { String(decoding: fileName[($0 + 1)...].asciiLowercased, as: UTF8.self) } ?? ""
                fileType = Self.fileType(bytes)
            }

            /// Whether `expected` lies at `offset`.
            public func at(_ offset: Int, _ expected: [UInt8]) -> Bool {
                offset >= 0 && bytes.count >= offset + expected.count && bytes[offset..<offset + expected.count].elementsEqual(expected)
            }

            public func at(_ offset: Int, _ ascii: String) -> Bool { at(offset, Array(ascii.utf8)) }

            /// The major brand, then the compatible brands up to the ftyp box's end or the head's.
            private static func fileType(_ head: [UInt8]) -> (major: String, compatible: [String])? {
                guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
                func brand(_ offset: Int) -> String { String(decoding: head[offset..<offset + 4], as: UTF8.self) }
                let end = min(head.count, ByteOrder.bigEndian.integer(head, at: 0, count: 4))
                return (brand(8), stride(from: 16, through: end - 4, by: 4).map(brand))
            }
        }
    }
}
