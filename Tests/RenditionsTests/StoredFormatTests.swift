import PhotoSource
import Posix
import Renditions
import Testing

/// A mount renders a photo as the format its catalog stored (sniffed once, by the scanner): the
/// format given is the one decoded, and renders as the sniffing path does.
@Suite struct StoredFormatTests {
    @Test func theFormatGivenIsTheOneDecoded() throws {
        let path = TestData.filePath("cameras/Nikon_D5000.jpg")
        let file = try OwnedFileDescriptor.openReadOnly(path)
        let spec = RenditionSpec(longestSide: 256)
        let sniffed = try Renderer().render(file.descriptor, spec: spec, name: path.description)
        let told = try Renderer().render(file.descriptor, format: .jpeg, spec: spec, name: path.description)
        #expect(told.jpeg == sniffed.jpeg)
        // Told it is a PNG, the PNG decoder reads it, and refuses it: nothing sniffs it again.
        #expect(throws: RenditionError.self) { try Renderer().render(file.descriptor, format: .png, spec: spec, name: path.description) }
    }
}
