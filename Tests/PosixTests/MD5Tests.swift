import Testing
import Posix

@Suite struct MD5Tests {
    /// RFC 1321, appendix A.5, and `md5sum` for the longer one.
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func knownDigests(message: String, digest: String) {
        #expect(MD5.hex(Array(message.utf8)) == digest)
    }

    /// Many blocks: `head -c 1000 /dev/zero | tr '\0' a | md5sum`.
    @Test func thousandBytes() {
        #expect(MD5.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1000)) == "cabe45dcc9ae5b66ba86600cca6b8ba8")
    }

    /// Fed in uneven pieces, across block boundaries, the same digest as at once.
    @Test func piecesGiveTheWholeDigest() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        var md5 = MD5()
        var at = 0
        for length in [1, 63, 64, 65, 0, 200, 607] {
            md5.update(Array(message[at..<at + length]))
            at += length
        }
        #expect(md5.finish() == MD5.digest(message))
        // python3 -c "import hashlib; print(hashlib.md5(bytes(i * 7 & 255 for i in range(1000))).hexdigest())"
        #expect(MD5.hex(message) == "de809ff794e91b68f9e91a2b7030bcb0")
    }
}
