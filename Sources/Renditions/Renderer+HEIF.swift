import Containers
import Posix

/// HEIC and AVIF: decoded whole by libheif (transforms applied, EXIF orientation not applied
/// again); when libheif refuses the photo, its largest thumbnail item instead.
extension Renderer {
    func renderHEIF(_ file: FileDescriptor, spec: RenditionSpec, name: String, format: String) throws(RenditionError) -> Rendition {
        let refusal: RenditionError
        do throws(HEIFDecoder.Failure) {
            return try renderHEIFPrimary(file, spec: spec, name: name, format: format)
        } catch where error.refusedByLibheif {
            refusal = error.error
        } catch {
            throw error.error
        }
        guard let thumbnail = HEIFThumbnailItem(file: file),
              let heif = try? HEIFDecoder(file: file, path: name, format: format, edits: thumbnail.edits) else { throw refusal }
        try checkPixels(heif.size, name: name)
        let reservation = try reserve(heif.decodeBytes(heif.size), for: "a \(format) thumbnail decode", name: name)
        defer { withExtendedLifetime(reservation) {} }
        guard let rows = try? heif.decode(thumbnail: false, format: format) else { throw refusal }
        var rendition = try finish(rows, target: heif.size.fitted(longestSide: spec.longestSide), reduce: true, orientation: .up,
                                   colour: heif.colour, spec: spec, name: name)
        rendition.previewReason = "shown from its \(heif.size) thumbnail item (a preview): libheif \(HEIFDecoder.libraryVersion) cannot show the photo: \(refusal.reason)"
        return rendition
    }

    /// The primary image, from the thumbnail item when that is at least the target size.
    private func renderHEIFPrimary(_ file: FileDescriptor, spec: RenditionSpec, name: String, format: String) throws(HEIFDecoder.Failure) -> Rendition {
        let heif = try HEIFDecoder(file: file, path: name, format: format)
        try notLibheif { () throws(RenditionError) in try checkPixels(heif.size, name: name) }
        let target = heif.size.fitted(longestSide: spec.longestSide)
        if let thumbnail = heif.thumbnail, thumbnail.width >= target.width, thumbnail.height >= target.height {
            let reservation = try notLibheif { () throws(RenditionError) -> MemoryBudget.Reservation? in
                try reserve(heif.decodeBytes(thumbnail), for: "a \(format) thumbnail decode", name: name)
            }
            defer { withExtendedLifetime(reservation) {} }
            if let rows = try? heif.decode(thumbnail: true, format: format) {
                return try notLibheif { () throws(RenditionError) in
                    try finish(rows, target: target, reduce: true, orientation: .up, colour: heif.thumbnailColour, spec: spec, name: name)
                }
            }
        }
        let reservation = try notLibheif { () throws(RenditionError) -> MemoryBudget.Reservation? in
            try reserve(heif.decodeBytes(heif.size), for: "a \(format) decode", name: name)
        }
        defer { withExtendedLifetime(reservation) {} }
        let rows = try heif.decode(thumbnail: false, format: format)
        return try notLibheif { () throws(RenditionError) in
            try finish(rows, target: target, reduce: true, orientation: .up, colour: heif.colour, spec: spec, name: name)
        }
    }

    /// A step of a HEIF render that is not libheif's (the pixel cap, the budget, resampling): its
    /// failure is no reason to show a thumbnail item instead.
    private func notLibheif<T: ~Copyable>(_ step: () throws(RenditionError) -> T) throws(HEIFDecoder.Failure) -> T {
        do throws(RenditionError) { return try step() } catch { throw HEIFDecoder.Failure(error: error, refusedByLibheif: false) }
    }
}
