/// File names as bytes (not necessarily UTF-8): the few comparisons names need, without decoding.
extension Collection where Element == UInt8 {
    /// A–Z turned to a–z; every other byte as it is.
    var asciiLowercased: [UInt8] { map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 } }

    func hasSuffix(_ suffix: [UInt8]) -> Bool { count >= suffix.count && suffix.elementsEqual(self.suffix(suffix.count)) }
}
