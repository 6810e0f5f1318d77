import Glibc

/// Offline reverse geocoding: a GPS position to the nearest populated place of GeoNames'
/// cities1000 (places of 1000 people or more) within `maximumDistance`, by looking only at the
/// 1° cells that the circle of that radius touches.
public enum PlaceFinder {
    /// 50 km: twice the 25 km that Immich uses with GeoNames' cities500, as cities1000 has fewer
    /// villages; so a photo taken on a hike, in a national park or on a ferry in sight of the coast
    /// still gets the town it was near, while open sea and wilderness farther from any town get
    /// none rather than a misleading one.
    public static let maximumDistance = 50_000.0
    /// The mean Earth radius, in metres (the sphere distances are measured on).
    static let earthRadius = 6_371_008.8

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
        let table = PlaceTable.builtIn
        let radians = Double.pi / 180
        let reach = maximumDistance / earthRadius / radians          // the radius in degrees of latitude
        // The longitude reach at the box's most poleward latitude; the whole circle near a pole.
        let poleward = min(abs(latitude) + reach, 90)
        let lonReach = poleward >= 89.999 ? 360 : min(reach / cos(poleward * radians), 360)
        let rows = max(Int(floor(latitude - reach + 90)), 0)...min(Int(floor(latitude + reach + 90)), PlaceTable.rows - 1)
        let firstColumn = Int(floor(longitude - lonReach + 180)), lastColumn = Int(floor(longitude + lonReach + 180))
        let columns = lastColumn - firstColumn + 1 >= PlaceTable.columns ? 0...(PlaceTable.columns - 1) : firstColumn...lastColumn
        // Haversine's a = sin²(d/2R), compared as is: it grows with the distance d.
        let limit = pow(sin(maximumDistance / earthRadius / 2), 2)
        let cosLatitude = cos(latitude * radians)
        var best: (index: Int, a: Double)?
        for row in rows {
            for unwrapped in columns {
                let column = (unwrapped % PlaceTable.columns + PlaceTable.columns) % PlaceTable.columns
                for index in table.places(row: row, column: column) {
                    let position = table.position(index, row: row, column: column)
                    let dLat = position.latitude - latitude
                    var dLon = abs(position.longitude - longitude)
                    if dLon > 180 { dLon = 360 - dLon }
                    guard abs(dLat) <= reach, dLon <= lonReach else { continue }
                    let a = pow(sin(dLat * radians / 2), 2)
                        + cosLatitude * cos(position.latitude * radians) * pow(sin(dLon * radians / 2), 2)
                    if a <= limit, a < best?.a ?? .infinity { best = (index, a) }
                }
            }
        }
        return best.map { ($0.index, 2 * earthRadius * asin(min(sqrt($0.a), 1))) }
    }
}
