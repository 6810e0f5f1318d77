import CPlaces

/// The GeoNames table built into the binary (CPlaces' places.bin), read in place: nothing is
/// copied or parsed at start, and only the pages a lookup touches are read from the binary.
/// The layout is tools/make-places.py's (that script's comment is its description).
struct PlaceTable: @unchecked Sendable {  // immutable bytes of the binary's read-only data
    /// The cells are 1° of latitude by 1° of longitude.
    static let rows = 180, columns = 360
    /// A place's offset in its cell, in 1/65536 of a degree.
    static let offsetScale = 65536.0

    private let bytes: UnsafeRawBufferPointer
    let placeCount: Int
    private let cells, latitudes, longitudes, names, regions, regionNames, regionCountries, countryNames, pool: Int

    /// The built-in table.
    static let builtIn = PlaceTable(UnsafeRawBufferPointer(start: assetfs_places_pointer(), count: Int(assetfs_places_size)))

    init(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 32 && Array(bytes[0..<4]) == Array("APL1".utf8), "the place table is not a table (tools/make-places.py)")
        self.bytes = bytes
        let header = (1...4).map { Int(UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))) }
        let (places, regionCount, countryCount, poolBytes) = (header[0], header[1], header[2], header[3])
        func aligned(_ offset: Int) -> Int { (offset + 3) & ~3 }
        placeCount = places
        cells = 32
        latitudes = cells + 4 * (Self.rows * Self.columns + 1)
        longitudes = aligned(latitudes + 2 * places)
        names = aligned(longitudes + 2 * places)
        regions = names + 4 * places
        regionNames = aligned(regions + 2 * places)
        regionCountries = regionNames + 4 * regionCount
        countryNames = aligned(regionCountries + 2 * regionCount)
        pool = countryNames + 4 * countryCount
        precondition(pool + poolBytes == bytes.count, "the place table's sections do not add up to its size")
    }

    /// The cell of a position (the north pole's in the last row, 180° E in the first column).
    static func cell(latitude: Double, longitude: Double) -> (row: Int, column: Int) {
        (min(Int((latitude + 90).rounded(.down)), rows - 1), Int((longitude + 180).rounded(.down)) % columns)
    }

    /// The places of cell (`row`, `column`): indices into the place arrays.
    func places(row: Int, column: Int) -> Range<Int> {
        let cell = row * Self.columns + column
        return Int(u32(cells, cell))..<Int(u32(cells, cell + 1))
    }

    /// The places of cell (`row`, `column`) within `latitudes` (a cell's places are sorted by
    /// latitude): found by two binary searches.
    func places(row: Int, column: Int, latitudes: ClosedRange<Double>) -> Range<Int> {
        let all = places(row: row, column: column)
        let south = Double(row - 90)
        let low = ((latitudes.lowerBound - south) * Self.offsetScale).rounded(.up)
        let high = ((latitudes.upperBound - south) * Self.offsetScale).rounded(.down)
        guard !all.isEmpty, high >= 0, low <= 65535, low <= high else { return all.startIndex..<all.startIndex }
        return firstPlace(in: all, atLeast: max(low, 0))..<firstPlace(in: all, atLeast: min(high, 65535) + 1)
    }

    /// The first place of `range` whose latitude offset is at least `offset`.
    private func firstPlace(in range: Range<Int>, atLeast offset: Double) -> Int {
        var (low, high) = (range.lowerBound, range.upperBound)
        while low < high {
            let middle = (low + high) / 2
            if Double(u16(latitudes, middle)) < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Place `index`'s position in degrees, given its cell.
    func position(_ index: Int, row: Int, column: Int) -> (latitude: Double, longitude: Double) {
        (Double(row - 90) + Double(u16(latitudes, index)) / Self.offsetScale,
         Double(column - 180) + Double(u16(longitudes, index)) / Self.offsetScale)
    }

    func place(_ index: Int) -> Place {
        let region = Int(u16(regions, index))
        return Place(country: name(u32(countryNames, Int(u16(regionCountries, region)))),
                     region: name(u32(regionNames, region)), city: name(u32(names, index)))
    }

    private func name(_ offset: UInt32) -> String {
        let start = pool + Int(offset)
        let count = Int(bytes[start])
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[(start + 1)..<(start + 1 + count)]), as: UTF8.self)
    }

    private func u32(_ section: Int, _ index: Int) -> UInt32 {
        UInt32(littleEndian: bytes.load(fromByteOffset: section + 4 * index, as: UInt32.self))
    }

    private func u16(_ section: Int, _ index: Int) -> UInt16 {
        UInt16(littleEndian: bytes.load(fromByteOffset: section + 2 * index, as: UInt16.self))
    }
}
