@testable import PhotoProperties
import PhotoSource
import Testing

/// Every photo format of the registry has its metadata reader; a video's metadata is FFmpeg's.
@Suite struct MetadataReaderTests {
    @Test func everyPhotoFormatHasAReader() {
        #expect(Set(EmbeddedMetadata.readers.keys) == Set(SourceFormat.allCases.filter { !$0.isVideo }))
    }
}
