import Glibc

/// Offline reverse geocoding: a GPS position to the nearest populated place of GeoNames'
/// cities1000 (places of 1000 people or more) within `maximumDistance`, by looking only at the
/// 1° cells that the circle of that radius touches, the position's own cell first (its places
/// within about 5 km first): the nearest place found narrows the search of the rest to the
/// latitudes still in reach.
public enum PlaceFinder {
    /// 50 km: twice the 25 km that Immich uses with GeoNames' cities500, as cities1000 has fewer
    /// villages; so a photo taken on a hike, in a national park or on a ferry in sight of the coast
    /// still gets the town it was near, while open sea and wilderness farther from any town get
    /// none rather than a misleading one.
    public static let maximumDistance = 50_000.0
    /// The mean Earth radius, in metres (the sphere distances are measured on).
    static let earthRadius = 6_371_008.8
    private static let radians = Double.pi / 180

    /// The place nearest `latitude`, `longitude` (degrees, WGS 84 as EXIF gives them) within
    /// `maximumDistance`; nil for none, for coordinates outside ±90 / ±180 or not numbers, and
    /// for 0,0 (what a camera without a fix writes, not a place).
    public static func place(latitude: Double, longitude: Double) -> Place? {
        nearest(latitude: latitude, longitude: longitude).map { PlaceTable.builtIn.place($0.index) }
    }

    /// The nearest place's index in the table and its distance in metres.
    static func nearest(latitude: Double, longitude: Double) -> (index: Int, distance: Double)? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              latitude != 0 || longitude != 0 else { return nil }
        var search = Search(latitude: latitude, longitude: longitude)
        let (ownRow, ownColumn) = PlaceTable.cell(latitude: latitude, longitude: longitude)
        search.scan(row: ownRow, column: ownColumn, within: 0.05)
        search.scan(row: ownRow, column: ownColumn)
        let reach = search.reach   // degrees of latitude: the limit, or less once a place is found
        let lonReach = search.longitudeReach(reach)
        let rows = max(Int(floor(latitude - reach + 90)), 0)...min(Int(floor(latitude + reach + 90)), PlaceTable.rows - 1)
        let firstColumn = Int(floor(longitude - lonReach + 180)), lastColumn = Int(floor(longitude + lonReach + 180))
        let columns = lastColumn - firstColumn + 1 >= PlaceTable.columns ? 0...(PlaceTable.columns - 1) : firstColumn...lastColumn
        for row in rows {
            for unwrapped in columns {
                let column = (unwrapped % PlaceTable.columns + PlaceTable.columns) % PlaceTable.columns
                if row != ownRow || column != ownColumn { search.scan(row: row, column: column) }
            }
        }
        return search.best.map { ($0, 2 * earthRadius * asin(min(sqrt(search.bestA), 1))) }
    }

    /// One lookup's nearest place so far, compared by haversine's a = sin²(d/2R), which grows
    /// with the distance d.
    private struct Search {
        let latitude, longitude, cosLatitude: Double
        var best: Int?
        var bestA = pow(sin(maximumDistance / earthRadius / 2), 2)

        init(latitude: Double, longitude: Double) {
            (self.latitude, self.longitude) = (latitude, longitude)
            cosLatitude = cos(latitude * radians)
        }

        /// How far in latitude (degrees) a place nearer than the best so far may lie.
        var reach: Double { 2 * asin(min(sqrt(bestA), 1)) / radians }

        /// How far in longitude it may lie: at the most poleward latitude within `reach`; all the
        /// way round near a pole.
        func longitudeReach(_ reach: Double) -> Double {
            let poleward = min(abs(latitude) + reach, 90)
            return poleward >= 89.999 ? 360 : min(reach / cos(poleward * radians), 360)
        }

        /// Compares the places of a cell within `limit` degrees of latitude (and the best so far's reach).
        mutating func scan(row: Int, column: Int, within limit: Double = 180) {
            let table = PlaceTable.builtIn
            let reach = min(self.reach, limit), lonReach = longitudeReach(reach)
            for index in table.places(row: row, column: column, latitudes: (latitude - reach)...(latitude + reach)) {
                let position = table.position(index, row: row, column: column)
                var dLon = abs(position.longitude - longitude)
                if dLon > 180 { dLon = 360 - dLon }
                guard dLon <= lonReach else { continue }
                let dLat = position.latitude - latitude
                let a = pow(sin(dLat * radians / 2), 2) + cosLatitude * cos(position.latitude * radians) * pow(sin(dLon * radians / 2), 2)
                if a < bestA || (a == bestA && best == nil) { (best, bestA) = (index, a) }
            }
        }
    }
}
