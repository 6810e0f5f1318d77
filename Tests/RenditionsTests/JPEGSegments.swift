/// The marker segments of a JPEG up to its first scan.
enum JPEGSegments {
    struct Segment { var marker: UInt8; var payload: ArraySlice<UInt8> }
    struct Malformed: Error { var offset: Int }

    static func markers(of jpeg: [UInt8]) throws -> [Segment] {
        guard jpeg.starts(with: [0xFF, 0xD8]) else { throw Malformed(offset: 0) }
        var segments: [Segment] = []
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else { throw Malformed(offset: i) }
            let marker = jpeg[i + 1]
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            guard length >= 2, i + 2 + length <= jpeg.count else { throw Malformed(offset: i) }
            segments.append(Segment(marker: marker, payload: jpeg[(i + 4)..<(i + 2 + length)]))
            if marker == 0xDA { return segments }
            i += 2 + length
        }
        throw Malformed(offset: i)
    }
}
