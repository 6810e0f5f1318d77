import Glibc

// Where a run of bytes first occurs, by memchr and memcmp over the contiguous storage.
// The generic `firstRange(of:)` (the standard library's, or Foundation's for `DataProtocol`)
// compares element by element through protocol witnesses and allocates as it goes: on XMP
// packets it was a tenth of a properties read's time, the largest single cost of the fuzzer's
// JPEG target.

extension ArraySlice<UInt8> {
    /// The indices of the first occurrence of `needle`, or nil; an empty needle is found at the start.
    public func firstRange(ofBytes needle: [UInt8]) -> Range<Int>? {
        guard !needle.isEmpty else { return startIndex..<startIndex }
        let offset = withUnsafeBytes { haystack in needle.withUnsafeBytes { firstOffset(of: $0, in: haystack) } }
        return offset.map { (startIndex + $0)..<(startIndex + $0 + needle.count) }
    }
}

extension Array<UInt8> {
    /// The indices of the first occurrence of `needle`, or nil; an empty needle is found at the start.
    public func firstRange(ofBytes needle: [UInt8]) -> Range<Int>? {
        self[...].firstRange(ofBytes: needle)
    }
}

/// The offset of `needle` (not empty) in `haystack`: memchr finds each candidate first byte, memcmp checks the rest.
private func firstOffset(of needle: UnsafeRawBufferPointer, in haystack: UnsafeRawBufferPointer) -> Int? {
    guard let base = haystack.baseAddress, let wanted = needle.baseAddress, needle.count <= haystack.count else { return nil }
    let first = Int32(needle[0]), lastStart = haystack.count - needle.count
    var at = 0
    while at <= lastStart {
        guard let hit = memchr(base + at, first, lastStart - at + 1) else { return nil }
        at = base.distance(to: UnsafeRawPointer(hit))
        if memcmp(base + at, wanted, needle.count) == 0 { return at }
        at += 1
    }
    return nil
}
