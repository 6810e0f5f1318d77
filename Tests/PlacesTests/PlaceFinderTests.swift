import Glibc
import Testing
@testable import Places

/// The built-in GeoNames table and the 50 km rule, on positions whose answer is known.
@Suite struct PlaceFinderTests {
    @Test(arguments: [
        (60.3913, 5.3221, Place(country: "Norway", region: "Vestland", city: "Bergen")),
        (52.52, 13.405, Place(country: "Germany", region: "State of Berlin", city: "Mitte")),
        (64.1466, -21.9426, Place(country: "Iceland", region: "Capital Region", city: "Reykjavík")),
        (40.7484, -73.9857, Place(country: "United States", region: "New York", city: "Times Square")),
        (37.7459, -119.5332, Place(country: "United States", region: "California", city: "Yosemite Valley")),
        (-34.6037, -58.3816, Place(country: "Argentina", region: "Buenos Aires F.D.", city: "Buenos Aires")),
        (-1.2921, 36.8219, Place(country: "Kenya", region: "Nairobi County", city: "Nairobi")),
        (-33.8568, 151.2153, Place(country: "Australia", region: "New South Wales", city: "The Rocks")),
        (35.6595, 139.7005, Place(country: "Japan", region: "Tokyo", city: "Sakuragaokachō")),
    ])
    func aPositionIsNamedByItsNearestTown(latitude: Double, longitude: Double, expected: Place) {
        #expect(PlaceFinder.place(latitude: latitude, longitude: longitude) == expected)
    }

    @Test func aCityStateIsItsOwnRegion() {
        #expect(PlaceFinder.place(latitude: 1.2839, longitude: 103.8515) == Place(country: "Singapore", region: "Singapore", city: "Singapore"))
    }

    @Test func openSeaAndAntarcticaAreNoPlace() {
        #expect(PlaceFinder.place(latitude: 30, longitude: -40) == nil)          // mid-Atlantic
        #expect(PlaceFinder.place(latitude: -40, longitude: -120) == nil)        // South Pacific
        #expect(PlaceFinder.place(latitude: -77.85, longitude: 166.67) == nil)   // McMurdo Station
        #expect(PlaceFinder.place(latitude: 0.01, longitude: 0.01) == nil)       // Gulf of Guinea
    }

    @Test func polesAndTheFarNorth() {
        #expect(PlaceFinder.place(latitude: 90, longitude: 0) == nil)
        #expect(PlaceFinder.place(latitude: -90, longitude: 45) == nil)
        #expect(PlaceFinder.place(latitude: 89.9, longitude: 123) == nil)
        #expect(PlaceFinder.place(latitude: 78.25, longitude: 15.5) == Place(country: "Svalbard and Jan Mayen", region: "Svalbard", city: "Longyearbyen"))
    }

    @Test func theNearestTownMayLieAcrossTheAntimeridian() {
        let egvekinot = Place(country: "Russia", region: "Chukotka", city: "Egvekinot")   // at 179.118° W
        #expect(PlaceFinder.place(latitude: 66.32, longitude: 179.9) == egvekinot)
        #expect(PlaceFinder.place(latitude: 66.32, longitude: 180) == egvekinot)
        #expect(PlaceFinder.place(latitude: 66.32, longitude: -180) == egvekinot)
        let distance = PlaceFinder.nearest(latitude: 66.32, longitude: 179.9)?.distance ?? 0
        #expect(abs(distance - 43_836) < 50)   // the haversine distance over the line, not around the world
    }

    @Test func zeroZeroAndImpossibleCoordinatesAreNoPlace() {
        #expect(PlaceFinder.place(latitude: 0, longitude: 0) == nil)
        #expect(PlaceFinder.place(latitude: -0.0, longitude: 0) == nil)
        for (latitude, longitude) in [(90.0001, 0.0), (-91, 10), (45, 180.0001), (45, -181), (.nan, 10), (10, .nan),
                                      (.infinity, 0), (45, -.infinity), (1e300, 1e300)] {
            #expect(PlaceFinder.place(latitude: latitude, longitude: longitude) == nil)
        }
        #expect(PlaceFinder.place(latitude: 60.3913, longitude: 5.3221 + 360) == nil)   // not wrapped into range
    }

    /// The cell search finds what comparing every place of the table finds: positions near random
    /// towns (within about 70 km, so some fall beyond the limit), near the antimeridian and the poles.
    @Test func theGridSearchAgreesWithComparingEveryPlace() {
        let table = PlaceTable.builtIn
        var everyPlace: [(index: Int, latitude: Double, longitude: Double)] = []
        for row in 0..<PlaceTable.rows {
            for column in 0..<PlaceTable.columns {
                for index in table.places(row: row, column: column) {
                    let position = table.position(index, row: row, column: column)
                    everyPlace.append((index, position.latitude, position.longitude))
                }
            }
        }
        #expect(everyPlace.count == table.placeCount)
        var random = SplitMix(seed: 31)
        var queries: [(Double, Double)] = (0..<80).map { _ in
            let town = everyPlace[Int(random.next() % UInt64(everyPlace.count))]
            return (max(-90, min(90, town.latitude + random.unit() * 1.2 - 0.6)),
                    (town.longitude + random.unit() * 1.2 - 0.6 + 540).truncatingRemainder(dividingBy: 360) - 180)
        }
        queries += (0..<30).map { _ in (random.unit() * 40 - 20, 179.5 + random.unit()) }.map { ($0.0, $0.1 > 180 ? $0.1 - 360 : $0.1) }
        queries += (0..<15).map { _ in (80 + random.unit() * 10, random.unit() * 360 - 180) }
        var found = 0
        for (latitude, longitude) in queries {
            let nearest = everyPlace.map { distance(latitude, longitude, $0.latitude, $0.longitude) }.min() ?? .infinity
            let result = PlaceFinder.nearest(latitude: latitude, longitude: longitude)
            if nearest <= PlaceFinder.maximumDistance {
                found += 1
                #expect(abs((result?.distance ?? -1) - nearest) < 0.01, "at \(latitude), \(longitude)")
            } else {
                #expect(result == nil, "at \(latitude), \(longitude)")
            }
        }
        #expect(found > 50)
    }

    private func distance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let r = Double.pi / 180
        let a = pow(sin((lat2 - lat1) * r / 2), 2) + cos(lat1 * r) * cos(lat2 * r) * pow(sin((lon2 - lon1) * r / 2), 2)
        return 2 * PlaceFinder.earthRadius * asin(min(sqrt(a), 1))
    }
}

/// A small seeded generator, so the sampled positions are the same on every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
