import Containers

/// Camera RAW: every container LibRaw reads, by its own signature (CR3 by its ISO brand), and the
/// TIFF-based ones by CR2's mark, the marks of their IFDs (`TIFFRawMarks`) or a RAW extension.
extension SourceFormat {
    public static let raw = SourceFormat("raw", facts: Facts(name: "camera RAW", isVideo: false, mimeType: "image/x-dcraw", extensions: rawExtensions),
                                         signatures: [.isoBrands(["crx "], .isoMajorBrand), Signature(.container, isRAW)])

    /// Every camera RAW extension of the containers LibRaw reads (docs/manual.md names their cameras);
    /// `raw` (Panasonic's and Leica's before RW2) first, the neutral name of one without any.
    private static let rawExtensions = ["raw", "cr2", "cr3", "crw", "nef", "nrw", "arw", "srf", "sr2", "dng", "orf", "rw2", "rwl",
                                        "raf", "pef", "srw", "mrw", "iiq", "3fr", "fff", "mef", "mos", "erf", "dcr", "kdc", "x3f"]

    private static func isRAW(_ head: Signature.Head) -> Bool {
        if head.at(0, "FUJIFILMCCD-RAW") { return true }                                    // RAF
        if head.at(0, "IIRO") || head.at(0, "IIRS") || head.at(0, "MMOR") { return true }   // ORF
        if head.at(0, [0x49, 0x49, 0x55, 0x00]) { return true }                            // RW2 ("IIU")
        if head.at(0, [0x00, 0x4D, 0x52, 0x4D]) { return true }                            // MRW
        if head.at(0, "FOVb") { return true }                                               // X3F
        if (head.at(0, "II") || head.at(0, "MM")) && head.at(6, "HEAPCCDR") { return true } // CRW (CIFF)
        if phaseOne(head.bytes) { return true }                                             // IIQ
        if otherRAWSignatures.contains(where: { head.at($0.offset, $0.bytes) }) { return true }
        guard head.isClassicTIFF || head.isBigTIFF else { return false }
        if head.isClassicTIFF && (head.at(8, "CR") || TIFFRawMarks.found(in: head.bytes)) { return true }  // CR2, or marked
        return rawExtensions.contains(head.fileExtension)
    }

    /// A Phase One raw block (IIQ and its older TIFFs) where LibRaw looks for one: "IIII" or
    /// "MMMM" in the first 32 bytes, followed by "Raw" as a 32-bit value in that byte order.
    private static func phaseOne(_ head: [UInt8]) -> Bool {
        let window = Array(head.prefix(32))
        for (marker, order) in [("IIII", ByteOrder.littleEndian), ("MMMM", .bigEndian)] {
            guard let start = window.firstRange(ofBytes: Array(marker.utf8))?.lowerBound, start + 8 <= head.count else { continue }
            if order.integer(head, at: start + 4, count: 4) >> 8 == 0x526177 { return true }
        }
        return false
    }

    /// The rarer containers LibRaw reads by a signature of their own.
    private static let otherRAWSignatures: [(offset: Int, bytes: [UInt8])] = [
        (25, Array("ARECOYK".utf8)),                            // Contax N Digital (Kyocera)
        (0, Array("DSC-Image".utf8)),                           // Rollei d530flex
        (0, Array("PWAD".utf8)),                                // Sinar IA
        (0, Array("NOKIARAW".utf8)),                            // Nokia
        (0, [0x00, 0x01, 0x00, 0x01, 0x00, 0x40]),              // Nokia (older)
        (0, Array("qktk\0".utf8)), (0, Array("qktn\0".utf8)),   // Apple QuickTake 100, 150
        (0, Array("PXN\0".utf8)),                               // Logitech Fotoman Pixtura
    ]
}
