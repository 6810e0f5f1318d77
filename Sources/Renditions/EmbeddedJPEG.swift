/// A RAW's preview JPEG found by walking its container (LibRaw refuses the file or does not know
/// the record), with the orientation the container gives it.
struct EmbeddedJPEG {
    var jpeg: [UInt8]
    var orientation: Orientation
}
