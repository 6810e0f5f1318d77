/// Where a photo was taken, by name: the populated place nearest its GPS position and that
/// place's first-level region and country, as GeoNames names them (English or local Latin script).
/// A place without a first-level region (a city-state such as Singapore) has its country's name
/// as its region, so every place has three names.
public struct Place: Hashable, Sendable {
    public let country: String
    public let region: String
    public let city: String

    public init(country: String, region: String, city: String) {
        self.country = country
        self.region = region
        self.city = city
    }
}
