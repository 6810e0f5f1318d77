import PhotoSource
@testable import Renditions
import Testing

/// Every photo format of the registry has its decoder; videos have none (their renditions are poster frames).
@Suite struct PhotoDecoderTests {
    @Test func everyPhotoFormatHasADecoder() {
        #expect(Set(PhotoDecoder.builtIn.keys) == Set(SourceFormat.allCases.filter { !$0.isVideo }))
    }
}
