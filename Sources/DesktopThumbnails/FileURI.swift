/// `file://` URIs of local paths, made byte for byte as GLib's `g_filename_to_uri(path, NULL, …)`
/// makes them (and so as `g_file_get_uri` of a local file, which GNOME Files, Thunar and Nemo hash
/// to find a thumbnail): the path's bytes, each one outside GLib's "unsafe path" set written as
/// `%XX` with upper-case hex. Non-UTF-8 bytes are escaped like any other byte ≥ 0x80; the path is
/// never normalised.
public enum FileURI {
    /// The URI of the absolute path `path` (raw bytes, as the kernel has them).
    public static func uri(ofAbsolutePath path: [UInt8]) -> String {
        var out: [UInt8] = Array("file://".utf8)
        out.reserveCapacity(out.count + path.count * 3)
        // g_escape_file_uri adds a "/" when the escaped path does not start with one.
        if path.first != UInt8(ascii: "/") { out.append(UInt8(ascii: "/")) }
        for byte in path {
            if isKeptAsIs(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)  // all ASCII by now
    }

    /// GLib's `acceptable[]` table (glib/gconvert.c) under its `UNSAFE_PATH` mask: letters, digits
    /// and `! $ & ' ( ) * + , - . / : = @ _ ~`. Everything else (controls, space, `" # % ; < > ? [
    /// \ ] ^ \` { | }`, DEL, bytes ≥ 0x80) is escaped.
    static func isKeptAsIs(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return keptPunctuation.contains(byte)
        }
    }

    private static let keptPunctuation: Set<UInt8> = Set("!$&'()*+,-./:=@_~".utf8)
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}
