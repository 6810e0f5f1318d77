import MountModel
import TestFixtures
import Testing
@testable import Catalog
@testable import PhotoSource

/// What a file of a folder says about itself, as the background reading would record it.
struct FileFacts {
    var name: String
    var day: Int
    var date: String
    var dateSource: DateSource = .exifOriginal
    var latitude: Double?
    var longitude: Double?
    var liveIdentifier: String?
}

extension ScratchCatalog {
    /// Records the properties of every photo not yet read that `facts` describes.
    @discardableResult
    func record(_ facts: [FileFacts]) throws -> [Invalidation] {
        let byName = Dictionary(uniqueKeysWithValues: facts.map { ($0.name, $0) })
        let batch = store.read { $0.undatedPhotos(after: 0, limit: 10_000) }.compactMap { row -> (photo: CatalogStore.PhotoRow, properties: CatalogStore.Properties)? in
            guard let fact = byName[text(row.photo.fileName)] else { return nil }
            return (row, CatalogStore.Properties(date: fact.date, dateSource: fact.dateSource, day: fact.day, latitude: fact.latitude, longitude: fact.longitude,
                                                 liveIdentifier: fact.liveIdentifier))
        }
        return tree.invalidations(for: try store.record(batch))
    }

    /// Everything the mount shows of album `album` and of the timeline, in a form that does not
    /// depend on row ids: each asset's name, file, files and date and place, each day's names.
    func shown(album: String) -> [String] {
        var result: [String] = []
        if let folder = node("groups/\(album)") {
            for name in names(folder) where name != "thumbnail.jpg" {
                guard let asset = node("groups/\(album)/\(name)"), let row = store.read({ tree.photo(for: asset, in: $0) }) else { continue }
                let properties = store.read { $0.properties(ofPhoto: row.id) }
                result.append("\(name) <- \(text(row.photo.fileName)) \(names(asset)) \(properties?.date ?? "-") \(properties?.latitude.map { "\($0)" } ?? "-"),\(properties?.longitude.map { "\($0)" } ?? "-")")
            }
        }
        for year in names(.viewTop(.dates)) {
            for day in names(node("dates/\(year)")!) {
                result.append("dates/\(year)/\(day): \(names(node("dates/\(year)/\(day)")!).sorted())")
            }
        }
        return result.sorted()
    }
}

/// Live Photos (a still and its MOV, paired by content identifier) in a catalog that changes.
@Suite struct LivePhotoTests {
    static let still = FileFacts(name: "IMG_0020.HEIC", day: 20210411, date: "2021-04-11T00:00:01", liveIdentifier: "A")
    static let movie = FileFacts(name: "IMG_0020.MOV", day: 20210410, date: "2021-04-10T23:59:59-07:00", dateSource: .quickTime,
                                 latitude: 37.331, longitude: -122.03, liveIdentifier: "A")

    /// A folder's files as they come, as a phone sync, MTP or `cp` delivers them.
    static let folder: [FileFacts] = [
        still, movie,
        FileFacts(name: "IMG_0021.JPG", day: 20210411, date: "2021-04-11T08:00:00+02:00", latitude: 1, longitude: 2, liveIdentifier: "B"),
        FileFacts(name: "IMG_0021.MOV", day: 20210411, date: "2021-04-11T08:00:00+02:00", dateSource: .quickTime, liveIdentifier: "B"),
        // Three of one stem: all keep their full names; the HEIC and the MOV pair.
        FileFacts(name: "IMG_0022.HEIC", day: 20210412, date: "2021-04-12T09:00:00", liveIdentifier: "C"),
        FileFacts(name: "IMG_0022.MOV", day: 20210412, date: "2021-04-12T09:00:00+01:00", dateSource: .quickTime, liveIdentifier: "C"),
        FileFacts(name: "IMG_0022.JPG", day: 20210412, date: "2021-04-12T09:00:00"),
        FileFacts(name: "IMG_0023.JPG", day: 20210413, date: "2021-04-13T10:00:00"),
        FileFacts(name: "IMG_0023.png", day: 20210413, date: "2021-04-13T10:00:00"),
        // A MOV of a Live Photo whose still is not there, and plain videos.
        FileFacts(name: "IMG_0024.MOV", day: 20210414, date: "2021-04-14T11:00:00+02:00", dateSource: .quickTime, liveIdentifier: "D"),
        FileFacts(name: "clip.MOV", day: 20210415, date: "2021-04-15T12:00:00+02:00", dateSource: .quickTime),
        FileFacts(name: "clip.mp4", day: 20210415, date: "2021-04-15T12:00:00"),
    ]

    /// Issue 29 item 4: the names a mount shows do not depend on the order its tree was built
    /// in. Files arrive and leave in a random order (the properties read now and then, as the
    /// background would); once all is read, the mount shows what a catalog made afresh from the
    /// final folder shows.
    @Test func namesAreThoseOfAFreshScanWhateverTheOrderOfArrival() throws {
        for seed in UInt64(1)...60 {
            var random = SeededGenerator(state: seed)
            let catalog = try ScratchCatalog(parent: "/dev/shm")
            var present: Set<String> = []
            var history: [String] = []
            for _ in 0..<18 {
                let file = Self.folder.randomElement(using: &random)!.name
                if present.contains(file) {
                    guard Bool.random(using: &random) else { continue }
                    present.remove(file)
                    history.append("-\(file)")
                } else {
                    present.insert(file)
                    history.append("+\(file)")
                }
                try catalog.apply("L", Array(present))
                if Bool.random(using: &random) { try catalog.record(Self.folder) }
            }
            try catalog.record(Self.folder)
            let fresh = try ScratchCatalog(parent: "/dev/shm")
            try fresh.apply("L", Array(present))
            try fresh.record(Self.folder)
            let (built, expected) = (catalog.shown(album: "L"), fresh.shown(album: "L"))
            #expect(built == expected, "seed \(seed), \(history.joined(separator: " ")):\n\(built)\nafresh:\n\(expected)")
            if built != expected { break }
        }
    }

    /// Issue 29 item 4, as reported: the MOV first takes IMG_0020, the still arriving then
    /// takes it over (not `IMG_0020 (2)`); the still gone, the MOV is IMG_0020 again.
    @Test func aStillArrivingAfterItsMovieTakesTheName() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_0020.MOV"])
        try catalog.record(Self.folder)
        let album = try #require(catalog.node("groups/L"))
        let movieNode = try #require(catalog.node("groups/L/IMG_0020"))
        let update = try catalog.apply("L", ["IMG_0020.MOV", "IMG_0020.HEIC"])
        #expect(catalog.invalidations(update).contains(.entry(parent: album.inode, name: Array("IMG_0020".utf8))))
        try catalog.record(Self.folder)
        #expect(catalog.names(album) == ["thumbnail.jpg", "IMG_0020"])
        #expect(catalog.names(try #require(catalog.node("groups/L/IMG_0020"))).last == "motion.mov")
        try catalog.apply("L", ["IMG_0020.MOV"])
        #expect(catalog.names(album) == ["thumbnail.jpg", "IMG_0020"])
        #expect(catalog.node("groups/L/IMG_0020") == movieNode)
    }

    /// Issue 29 item 3: whatever makes or breaks a pair tells the kernel to forget the still's
    /// asset folders' listing and their `motion.mov` (here the MOV deleted).
    @Test func theKernelForgetsTheMotionFileOfABrokenPair() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_0020.HEIC", "IMG_0020.MOV"])
        let made = try catalog.record(Self.folder)
        let asset = try #require(catalog.node("groups/L/IMG_0020"))
        let still = try #require(catalog.store.read { catalog.tree.photo(for: asset, in: $0) }).id
        let motion = Invalidation.entry(parent: asset.inode, name: Array("motion.mov".utf8))
        #expect(made.contains(motion) && made.contains(.inode(asset.inode)))
        #expect(catalog.names(asset).contains("motion.mov"))
        let broken = catalog.invalidations(try catalog.apply("L", ["IMG_0020.HEIC"]))
        #expect(broken.contains(motion), "the still's motion.mov stays in the kernel's cache")
        #expect(broken.contains(.inode(asset.inode)))
        let version = try #require(catalog.store.read { catalog.tree.photo(for: asset, in: $0) }).version
        #expect(broken.contains(.inode(Node.file(photo: still, kind: .motion, version: version).inode)), "its attributes (size) too")
        // Its member under dates/ is forgotten with what it holds (it leaves, a new version).
        #expect(broken.contains(.entry(parent: catalog.node("dates/2021/2021-04-11")?.inode ?? 0, name: Array("IMG_0020".utf8))))
        #expect(!catalog.names(asset).contains("motion.mov"))
    }

    /// A Motion Photo read again without its video (a newer reader, a rewritten file read at the
    /// same version) loses `motion.mp4`, and the kernel is told.
    @Test func theKernelForgetsAMotionPhotosVideoThatWent() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("M", ["moving.jpg"])
        let row = try #require(catalog.store.read { $0.undatedPhotos(after: 0, limit: 1) }.first)
        var properties = CatalogStore.Properties(date: "2024-01-01T00:00:00", dateSource: .exifOriginal, day: 20240101, motion: 100..<200)
        let asset = Node.asset(row.id)
        let motion = Invalidation.entry(parent: asset.inode, name: Array("motion.mp4".utf8))
        #expect(catalog.tree.invalidations(for: try catalog.store.record([(row, properties)])).contains(motion))
        properties.motion = nil
        #expect(catalog.tree.invalidations(for: try catalog.store.record([(row, properties)])).contains(motion))
    }

    /// Issue 29 item 5: the still takes what it lacks from its MOV (a place, a UTC offset), and
    /// the MOV's own day, different from the still's, is no day of the timeline; the pair
    /// broken, the still is read again (what it took goes).
    @Test func aPairSharesWhatItKnows() throws {
        let catalog = try ScratchCatalog()
        try catalog.apply("L", ["IMG_0020.HEIC", "IMG_0020.MOV"])
        let invalidations = try catalog.record(Self.folder)
        let asset = try #require(catalog.node("groups/L/IMG_0020"))
        let still = try #require(catalog.store.read { catalog.tree.photo(for: asset, in: $0) })
        let properties = try #require(catalog.store.read { $0.properties(ofPhoto: still.id) })
        #expect(properties.date == "2021-04-11T00:00:01-07:00")
        #expect(properties.latitude == Self.movie.latitude && properties.longitude == Self.movie.longitude)
        #expect(properties.lentByMovie == [.place, .utcOffset])
        let own = properties.withoutWhatItsMovieLent
        #expect(own.date == Self.still.date && own.latitude == nil && own.longitude == nil && own.place == nil, "what the still says itself")
        let year = try #require(catalog.node("dates/2021"))
        #expect(catalog.names(year) == ["2021-04-11"], "a day made only by the hidden MOV")
        #expect(catalog.node("dates/2021/2021-04-10") == nil)
        #expect(invalidations.contains(.entry(parent: year.inode, name: Array("2021-04-10".utf8))))
        try catalog.apply("L", ["IMG_0020.HEIC"])
        #expect(catalog.store.read { $0.undatedPhotos(after: 0, limit: 10) }.map(\.id) == [still.id])
        try catalog.record(Self.folder)
        #expect(catalog.store.read { $0.properties(ofPhoto: still.id) }?.latitude == nil)
    }
}
