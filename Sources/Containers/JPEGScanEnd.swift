import Glibc

/// Finds the end of a JPEG's scans (its EOI marker) in bytes given in pieces from its first SOS
/// marker on, as they are read: entropy-coded data escapes 0xFF with 0x00 and holds restart
/// markers; segments between a progressive JPEG's scans (DHT, SOS) are skipped by their lengths,
/// so bytes in them that look like EOI are not taken for it.
public struct JPEGScanEnd {
    private enum State {
        case entropy, afterFF, lengthHigh, lengthLow(high: Int), segment(remaining: Int)
    }
    private var state = State.entropy

    public init() {}

    /// How many bytes of `piece` belong to the scans (up to and including EOI), or nil when the
    /// end is not in it.
    public mutating func end(in piece: UnsafeRawBufferPointer) -> Int? {
        var at = 0
        while at < piece.count {
            switch state {
            case .entropy:
                guard let base = piece.baseAddress, let found = memchr(base + at, 0xFF, piece.count - at) else { return nil }
                at = base.distance(to: UnsafeRawPointer(found)) + 1
                state = .afterFF
            case .afterFF:
                let marker = piece[at]
                at += 1
                switch marker {
                case 0xD9: return at
                case 0xFF: break  // fill
                case 0x00, 0x01, 0xD0...0xD7: state = .entropy  // a stuffed 0xFF, TEM, a restart marker
                default: state = .lengthHigh
                }
            case .lengthHigh:
                state = .lengthLow(high: Int(piece[at]))
                at += 1
            case .lengthLow(let high):
                let length = high << 8 | Int(piece[at])
                at += 1
                state = length > 2 ? .segment(remaining: length - 2) : .entropy
            case .segment(let remaining):
                let skipped = min(remaining, piece.count - at)
                at += skipped
                state = remaining == skipped ? .entropy : .segment(remaining: remaining - skipped)
            }
        }
        return nil
    }
}
