import Containers
internal import CExif
import Posix

/// EXIF orientation 1-8. Anything else (missing, 0, out of range, unreadable EXIF) is `.up`.
public enum Orientation: Int, Sendable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

    public init(exifValue: Int) { self = Orientation(rawValue: exifValue) ?? .up }

    /// Orientations 5-8 turn the picture a quarter: width and height swap.
    public var swapsAxes: Bool { rawValue >= 5 }

    /// Where the pixel at (`x`, `y`) of the upright output comes from in the stored image of
    /// `stored` size. (EXIF: 2 mirrors left-right, 3 turns 180°, 4 mirrors top-bottom,
    /// 5 transposes, 6 turns 90° clockwise, 7 transverses, 8 turns 90° counter-clockwise.)
    @inline(__always)
    func sourcePoint(x: Int, y: Int, stored: PixelSize) -> (x: Int, y: Int) {
        let w = stored.width, h = stored.height
        switch self {
        case .up: return (x, y)
        case .upMirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .downMirrored: return (x, h - 1 - y)
        case .leftMirrored: return (y, x)
        case .right: return (y, h - 1 - x)
        case .rightMirrored: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    /// Upright row `y` (`channels` bytes a pixel) of an image whose pixels are stored, rows top
    /// to bottom, as `stored`: what the encoder and decoded pixels are given.
    func uprightRow(_ y: Int, of pixels: UnsafePointer<UInt8>, stored: PixelSize, channels: Int,
                    into row: UnsafeMutablePointer<UInt8>) {
        let width = swapsAxes ? stored.height : stored.width
        for x in 0..<width {
            let source = sourcePoint(x: x, y: y, stored: stored)
            let from = pixels + (source.y * stored.width + source.x) * channels
            for c in 0..<channels { row[x * channels + c] = from[c] }
        }
    }

    /// The IFD0 Orientation of the JPEG open at `file`.
    static func read(from file: FileDescriptor) -> Orientation { JPEGEXIF.read(from: file).orientation }
}

extension Orientation {
    /// The IFD0 Orientation of an EXIF block as PNG's eXIf and WebP's EXIF chunks hold it: a
    /// TIFF structure, with or without the "Exif\0\0" prefix of JPEG's APP1. Parsed by libexif,
    /// as for JPEG; anything unreadable is `.up`.
    static func read(exif block: [UInt8]) -> Orientation {
        guard !block.isEmpty, block.count <= 16 << 20 else { return .up }
        let prefix = Array("Exif\0\0".utf8)
        let bytes = block.starts(with: prefix) ? block : prefix + block
        guard let data = bytes.withUnsafeBufferPointer({ exif_data_new_from_data($0.baseAddress, UInt32($0.count)) }) else { return .up }
        defer { exif_data_unref(data) }
        return Orientation(exifValue: Int(cexif_orientation(data)))
    }
}
