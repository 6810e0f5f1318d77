import Containers
import Testing
import Posix
@testable import Renditions

/// LibRaw reads a small file from memory and a larger one as it parses it (RAWDecoder.inMemoryBytes):
/// the fixtures are all small, so each is read both ways here, which must agree in everything.
@Suite struct RAWDataStreamTests {
    static let files = ["raw/Fujifilm_S5Pro_stripped.raf", "raw/Nikon_D70_stripped.nef", "raw/Panasonic_LX3_stripped.rw2",
                        "raw/Sony_A7III_truncated.arw", "raw/Canon_R6_pruned.cr3", "raw/Nikon_Z9_jxl.dng",
                        "raw/iPhone12Pro_ProRAW_truncated.dng"]

    /// What one way of reading gives: the header, the preview, and the half-size decode's pixels
    /// (or the failures, by their text).
    struct Reading: Equatable {
        var size = PixelSize(width: 0, height: 0), rawSize = PixelSize(width: 0, height: 0)
        var orientation = Orientation.up
        var preview = "", pixels: [UInt8] = [], failure = ""
    }

    static func read(_ file: String, inMemoryLimit: Int) throws -> Reading {
        let source = try OwnedFileDescriptor.openReadOnly(FilePath(TestData.path(file)))
        var reading = Reading()
        do {
            let raw = try RAWDecoder(file: source.descriptor, path: file, inMemoryLimit: inMemoryLimit)
            reading.size = raw.size
            reading.rawSize = raw.rawSize
            reading.orientation = raw.orientation
            reading.preview = String(describing: raw.preview)
            let rows = try raw.decodeHalfSize()
            var row = [UInt8](repeating: 0, count: rows.size.width * rows.layout.inputChannels)
            while try row.withUnsafeMutableBufferPointer({ try rows.readRows(into: $0.baseAddress!, count: 1) }) == 1 { reading.pixels += row }
        } catch {
            reading.failure = String(describing: error)
        }
        return reading
    }

    @Test(arguments: files)
    func memoryAndStreamAgree(_ file: String) throws {
        let inMemory = try Self.read(file, inMemoryLimit: RAWDecoder.inMemoryBytes)
        let streamed = try Self.read(file, inMemoryLimit: 0)
        #expect(inMemory == streamed, "\(file): \(inMemory.failure) / \(streamed.failure)")
    }
}
