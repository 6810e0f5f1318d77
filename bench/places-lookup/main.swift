import Glibc
import Places

/// `places-lookup COUNT`: bench/places-bench.sh's timer of PlaceFinder. Prints, tab-separated:
/// the first lookup in this process (the table's pages not touched yet: its "load") and the peak
/// RSS then, the mean time per lookup over COUNT positions of each kind, how many found a place,
/// and the peak RSS at the end (the positions' arrays, 16 bytes each, included).
let count = CommandLine.arguments.count == 2 ? Int(CommandLine.arguments[1]) ?? 0 : 0
guard count > 0 else {
    print("usage: places-lookup COUNT")
    exit(2)
}

func now() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

func peakRSS() -> Int {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return usage.ru_maxrss
}

/// `value` with two decimals.
func decimals(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100)"
}

/// A fixed seeded sequence (SplitMix64), the same positions on every run.
struct Sequence {
    var state: UInt64 = 31
    mutating func unit() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
    }
}
var random = Sequence()

let start = now()
_ = PlaceFinder.place(latitude: 60.39, longitude: 5.32)
print("first lookup (load)\t\(decimals((now() - start) * 1e6)) µs\tpeak RSS \(peakRSS()) KiB")

/// Photos' positions: within ±0.3° of one of 24 cities of every continent (dense Tokyo and Paris,
/// sparse Reykjavík and Nairobi); anywhere: uniform over the globe's area (mostly sea).
let cities: [(Double, Double)] = [(48.857, 2.352), (51.507, -0.128), (52.52, 13.405), (41.902, 12.496), (60.391, 5.322),
    (64.147, -21.943), (40.713, -74.006), (34.052, -118.244), (37.746, -119.533), (19.433, -99.133), (-22.907, -43.173),
    (-34.604, -58.382), (35.676, 139.65), (31.23, 121.474), (28.614, 77.209), (1.284, 103.852), (13.756, 100.502),
    (-33.869, 151.209), (-36.848, 174.763), (-1.292, 36.822), (30.044, 31.236), (-33.925, 18.424), (25.205, 55.271), (55.756, 37.617)]
let nearCities = (0..<count).map { _ in
    let city = cities[Int(random.unit() * Double(cities.count))]
    return (city.0 + random.unit() * 0.6 - 0.3, city.1 + random.unit() * 0.6 - 0.3)
}
let anywhere = (0..<count).map { _ in (asin(random.unit() * 2 - 1) * 180 / Double.pi, random.unit() * 360 - 180) }

for (kind, positions) in [("near cities", nearCities), ("anywhere", anywhere)] {
    var found = 0
    let begin = now()
    for (latitude, longitude) in positions where PlaceFinder.place(latitude: latitude, longitude: longitude) != nil {
        found += 1
    }
    let each = (now() - begin) / Double(count) * 1e6
    print("\(kind)\t\(decimals(each)) µs per lookup\t\(found) of \(count) found")
}

print("peak RSS at the end\t\(peakRSS() / 1024) MiB")
