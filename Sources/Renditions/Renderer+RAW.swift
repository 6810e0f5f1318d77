import Posix
import PhotoSource

/// Camera RAW: LibRaw's development of the sensor data, or the largest embedded preview
/// (a JPEG or bitmap LibRaw offers, a TIFF-based RAW's own previews, a CRW's CIFF records).
extension Renderer {
    /// Camera RAW: the largest embedded preview through the JPEG path when it is at least the
    /// target size (oriented by the RAW's own orientation), else a half-size decode.
    func renderRAW(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition {
        let raw: RAWDecoder
        do {
            raw = try RAWDecoder(file: file, path: name)
        } catch {
            // A RAW LibRaw refuses may still hold a preview JPEG, found without LibRaw.
            guard error.kind != .unreadable else { throw error }
            if let preview = CR3Preview.find(in: file) ?? CIFFPreview.find(in: file) {
                return try renderJPEG(inMemory: preview.jpeg, spec: spec, name: name, orientation: preview.orientation)
            }
            if let rendition = try renderLargestTIFFPreview(file, spec: spec, name: name) { return rendition }
            throw error
        }
        try checkPixels(raw.size, name: name)
        try checkPixels(raw.rawSize, name: name)
        let wanted = min(spec.longestSide, max(raw.size.width, raw.size.height))
        func renderPreview(atLeast side: Int) throws(RenditionError) -> Rendition? {
            switch raw.preview {
            case .jpeg(let bytes):
                let preview: OwnedFileDescriptor
                do { preview = try OwnedFileDescriptor.memoryFile(holding: bytes) } catch { throw RenditionError(.unreadable, path: name, reason: "\(error)") }
                guard let decoder = try? JPEGDecoder(file: preview.descriptor, path: name), let header = try? decoder.readHeader(),
                      max(header.size.width, header.size.height) >= side else { return nil }
                return try renderJPEG(decoder, header: header, spec: spec, name: name, orientation: raw.orientation, colour: raw.previewColour)
            case .bitmap(let size):
                guard max(size.width, size.height) >= side, let rows = raw.bitmapPreview() else { return nil }
                return try finish(rows, target: size.fitted(longestSide: spec.longestSide), reduce: true,
                                  orientation: raw.orientation, colour: raw.previewColour, spec: spec, name: name)
            case nil:
                return nil
            }
        }
        if let rendition = try renderPreview(atLeast: wanted) { return rendition }
        do throws(RenditionError) {
            // A file with less than one bit per photosite has lost its sensor data (stripped or
            // truncated): LibRaw would fill the gap with uninitialised memory, a different picture
            // every time. Real RAW compression stays far above that (lossy formats ~6-8 bits).
            let fileBytes: Int64
            do { fileBytes = try file.status().size } catch { throw RenditionError(.unreadable, path: name, reason: error.description) }
            guard fileBytes * 8 >= Int64(raw.rawSize.width) * Int64(raw.rawSize.height) else {
                throw RenditionError(.corrupt, path: name,
                                     reason: "RAW: sensor data missing (\(fileBytes) bytes for \(raw.rawSize) photosites) and no usable preview")
            }
            let reservation = try reserve(raw.halfSizeDecodeBytes, for: "a half-size RAW decode", name: name)
            defer { withExtendedLifetime(reservation) {} }
            let rows = try raw.decodeHalfSize()
            return try finish(rows, target: rows.size.fitted(longestSide: spec.longestSide), reduce: true,
                              orientation: .up, colour: nil, spec: spec, name: name)
        } catch {
            // A smaller preview beats nothing when it is a real picture, not a placeholder of a few pixels.
            if let rendition = try? renderPreview(atLeast: 160) { return rendition }
            // A CRW's thumbnail record, which LibRaw does not offer.
            if let preview = CIFFPreview.find(in: file) {
                return try renderJPEG(inMemory: preview.jpeg, spec: spec, name: name, orientation: raw.orientation, colour: raw.previewColour)
            }
            throw error
        }
    }

    func renderJPEG(inMemory jpeg: [UInt8], spec: RenditionSpec, name: String, orientation: Orientation?,
                            colour: ColourTransform? = nil) throws(RenditionError) -> Rendition {
        let memory: OwnedFileDescriptor
        do { memory = try OwnedFileDescriptor.memoryFile(holding: jpeg) } catch { throw RenditionError(.unreadable, path: name, reason: "\(error)") }
        return try renderJPEG(memory.descriptor, spec: spec, name: name, orientation: orientation, colour: colour)
    }

    /// The largest embedded JPEG of a TIFF-based RAW that libjpeg reads (lossless raw strips and
    /// placeholders fall out), at least 160 px on its long side, oriented by IFD0 and in IFD0's
    /// colours where it has no profile of its own.
    func renderLargestTIFFPreview(_ file: FileDescriptor, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition? {
        guard let found = TIFFPreviews.find(in: file) else { return nil }
        var best: (bytes: [UInt8], pixels: Int)?
        for candidate in found.candidates {
            guard let head = try? file.read(upTo: min(candidate.length, 1 << 16), at: candidate.offset), head.starts(with: [0xFF, 0xD8]),
                  let probe = try? OwnedFileDescriptor.memoryFile(holding: head) else { continue }
            guard let size = try? JPEGDecoder(file: probe.descriptor, path: name).readHeader().size, max(size.width, size.height) >= 160,
                  size.width * size.height > best?.pixels ?? 0,
                  let bytes = try? file.read(upTo: candidate.length, at: candidate.offset), bytes.count == candidate.length else { continue }
            best = (bytes, size.width * size.height)
        }
        guard let best else { return nil }
        return try renderJPEG(inMemory: best.bytes, spec: spec, name: name, orientation: found.orientation,
                              colour: ColourTransform.from(icc: found.iccProfile, channels: 3))
    }
}
