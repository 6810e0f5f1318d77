internal import CExif
import Posix

/// What a JPEG's EXIF says about its pixels: which way up they are, and whether they are Adobe
/// RGB without a profile saying so (a camera set to Adobe RGB: EXIF colour space 2, or
/// "uncalibrated" with DCF's interoperability index "R03", the DCF option file).
struct JPEGEXIF {
    var orientation = Orientation.up
    var isAdobeRGB = false

    /// Feeds libexif's loader in chunks until it has the whole EXIF block (which may be far from
    /// the start of the file); nothing readable is the defaults.
    static func read(from file: FileDescriptor) -> JPEGEXIF {
        guard let loader = exif_loader_new() else { return JPEGEXIF() }
        defer { exif_loader_unref(loader) }
        let chunk = 16384
        let limit: Int64 = 4 << 20  // EXIF lives in APP segments (64 KiB each); stop looking long before the data
        var offset: Int64 = 0
        while offset < limit {
            guard var bytes = try? file.read(upTo: chunk, at: offset), !bytes.isEmpty else { break }
            let wantsMore = bytes.withUnsafeMutableBufferPointer { exif_loader_write(loader, $0.baseAddress, UInt32($0.count)) }
            if wantsMore == 0 { break }
            offset += Int64(bytes.count)
        }
        guard let data = exif_loader_get_data(loader) else { return JPEGEXIF() }
        defer { exif_data_unref(data) }
        return JPEGEXIF(orientation: Orientation(exifValue: Int(cexif_orientation(data))), isAdobeRGB: cexif_is_adobe_rgb(data) != 0)
    }
}
