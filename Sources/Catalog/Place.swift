/// Where a photo was taken, as named places (reverse-geocoded from its position): the path of
/// its folder under `places/`.
public struct Place: Sendable, Hashable {
    public var country: String
    /// The first-level region (state, province), when known.
    public var region: String?
    public var city: String?

    public init(country: String, region: String? = nil, city: String? = nil) {
        (self.country, self.region, self.city) = (country, region, city)
    }
}
