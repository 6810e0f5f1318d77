import DesktopThumbnails
import Testing

/// Expected URIs are literals printed by GLib 2.74's own `gio info` (its `uri:` line, which is
/// `g_file_get_uri`, that is `g_filename_to_uri`) for files made with these names.
@Suite struct FileURITests {
    private func uri(_ path: [UInt8]) -> String { FileURI.uri(ofAbsolutePath: path) }
    private func uri(_ path: String) -> String { uri(Array(path.utf8)) }

    @Test func spaceAndFullwidthSolidus() {
        #expect(uri("/tmp/urichk/a b") == "file:///tmp/urichk/a%20b")
        #expect(uri("/tmp/urichk/Trip 2024／sub") == "file:///tmp/urichk/Trip%202024%EF%BC%8Fsub")
    }

    @Test func bytesThatAreNotUTF8() {
        #expect(uri(Array("/tmp/urichk/bad".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8)) == "file:///tmp/urichk/bad%FF%FE.jpg")
    }

    @Test func reservedAndUnreservedPunctuation() {
        let name = "/tmp/urichk/été #1 100% ?x=1&y=2;z [a] {b} |c| ^d` \"q\" <l> \\w ~!$'()*+,-.:=@_.jpg"
        #expect(uri(name) == "file:///tmp/urichk/%C3%A9t%C3%A9%20%231%20100%25%20%3Fx=1&y=2%3Bz%20%5Ba%5D%20%7Bb%7D%20%7Cc%7C%20%5Ed%60%20%22q%22%20%3Cl%3E%20%5Cw%20~!$'()*+,-.:=@_.jpg")
    }

    @Test func controlCharacters() {
        #expect(uri("/tmp/urichk/new\nline\ttab\u{7F}") == "file:///tmp/urichk/new%0Aline%09tab%7F")
    }

    /// One name holding every byte but NUL and `/`, in order.
    @Test func everyByte() {
        let name = Array("/tmp/urichk/".utf8) + (1...255).map(UInt8.init).filter { $0 != UInt8(ascii: "/") }
        let gio = "file:///tmp/urichk/%01%02%03%04%05%06%07%08%09%0A%0B%0C%0D%0E%0F%10%11%12%13%14%15%16%17%18%19%1A%1B%1C%1D%1E%1F%20!%22%23$%25&'()*+,-.0123456789:%3B%3C=%3E%3F@ABCDEFGHIJKLMNOPQRSTUVWXYZ%5B%5C%5D%5E_%60abcdefghijklmnopqrstuvwxyz%7B%7C%7D~%7F"
            + (0x80...0xFF).map { "%" + String($0, radix: 16, uppercase: true) }.joined()
        #expect(uri(name) == gio)
    }

    @Test func thumbnailNamesAreTheMD5OfTheURI() {
        // The example of the Thumbnail Managing Standard ("Thumbnail Saving").
        #expect(ThumbnailSubject(path: Array("/home/jens/photos/me.png".utf8), modificationSeconds: 0, size: nil).thumbnailName
                == "c6ee772d9e49320e97ec29a7eb5b1697.png")
        // `printf %s URI | md5sum`.
        #expect(ThumbnailSubject(path: Array("/tmp/urichk/a b".utf8), modificationSeconds: 0, size: nil).thumbnailName
                == "4d19704ae33afe56b6c8bbecf180ab91.png")
        #expect(ThumbnailSubject(path: Array("/tmp/urichk/bad".utf8) + [0xFF, 0xFE] + Array(".jpg".utf8), modificationSeconds: 0, size: nil)
                .thumbnailName == "f4e5ef23622a005193f56b3e53a82b86.png")
    }
}
