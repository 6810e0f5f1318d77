import Places
import PhotoSource
import SQLiteDatabase
import TestFixtures
import Testing
@testable import Catalog

/// events/ as the catalog keeps it, photo by photo: the names stay while an event only fills up,
/// follow its days, and joins, splits and removals are as `CatalogStore+Events.swift` says.
/// Every `events()` also checks the stored events against the rule applied afresh.
@Suite struct EventsCatalogTests {
    static let bergen = (60.39, 5.32), oslo = (59.91, 10.75)

    /// A trip in Bergen: 20 photos a day from 9:00 to 22:00 on days `days`, ids from `firstID`.
    func trip(_ catalog: EventsCatalog, days: Range<Int>, firstID: Int64 = 1) throws {
        var id = firstID
        for day in days {
            for i in 0..<20 {
                try catalog.place(id, taken(day: day, hour: 9 + 13 * Double(i) / 19), at: Self.bergen, city: "Bergen")
                id += 1
            }
        }
    }

    @Test func aTripIsOneEventAndEverydayShotsTheirOwn() throws {
        let catalog = try EventsCatalog()
        try catalog.place(900, taken(day: -3, hour: 12), city: "Oslo")
        try catalog.place(901, taken(day: -2, hour: 12))
        try trip(catalog, days: 0..<5)
        #expect(try catalog.events().map { "\($0.year)/\($0.name) \($0.photos.count)" }
                == ["2023/2023-08-29 Oslo 1", "2023/2023-08-30 1", "2023/2023-09-01 – 2023-09-05 Bergen 100"])
    }

    /// A photo added inside an event joins it: the event keeps its id and name; the kernel is
    /// told only of the new member.
    @Test func aPhotoInsideAnEventDoesNotRenameIt() throws {
        let catalog = try EventsCatalog()
        try trip(catalog, days: 0..<5)
        let before = try catalog.events()
        let changes = try catalog.place(500, taken(day: 2, hour: 12.2), at: Self.oslo, city: "Oslo")
        let after = try catalog.events()
        #expect(after.map(\.id) == before.map(\.id) && after.map(\.name) == ["2023-09-01 – 2023-09-05 Bergen"])
        #expect(after[0].photos.contains(500))
        #expect(changes == [.viewEntry(view: .events, parent: before[0].id, name: Array("IMG_500".utf8))])
    }

    /// A photo past its last day (or before its first) renames it, in place, with its main place.
    @Test func extendingAnEventPastItsDaysRenamesIt() throws {
        let catalog = try EventsCatalog()
        try trip(catalog, days: 0..<2)
        let id = try catalog.events()[0].id
        let changes = try catalog.place(500, taken(day: 2, hour: 0.5), city: "Voss")
        #expect(try catalog.events().map { "\($0.id) \($0.name)" } == ["\(id) 2023-09-01 – 2023-09-03 Bergen"])
        let entries = changes.compactMap { if case .viewEntry(.events, let parent, let name) = $0 { (parent, text(name)) } else { nil } }
        let year = try #require(entries.first { $0.1 == "2023-09-01 – 2023-09-02 Bergen" }?.0)
        #expect(entries.contains { $0 == (year, "2023-09-01 – 2023-09-03 Bergen") } && entries.contains { $0 == (id, "IMG_500") })
    }

    /// Sparse evening shots in Oslo and a night's in Bergen, 4 h apart, are two events; a photo
    /// in the gap joins them into the earlier (its id, renamed: Oslo has more photos); taken away
    /// again, they split: the earlier part keeps the id, the later is a new event.
    @Test func aPhotoInAGapJoinsTwoEventsAndItsRemovalSplitsThem() throws {
        let catalog = try EventsCatalog()
        for (id, hour) in [(1, 20.0), (2, 21), (3, 22)] { try catalog.place(Int64(id), taken(day: 0, hour: hour), at: Self.oslo, city: "Oslo") }
        for (id, hour) in [(4, 26.0), (5, 27)] { try catalog.place(Int64(id), taken(day: 0, hour: hour), at: Self.oslo, city: "Bergen") }
        let apart = try catalog.events()
        #expect(apart.map(\.name) == ["2023-09-01 Oslo", "2023-09-02 Bergen"])
        try catalog.place(6, taken(day: 0, hour: 24))
        let joined = try catalog.events()
        #expect(joined.map { "\($0.id) \($0.name) \($0.photos)" } == ["\(apart[0].id) 2023-09-01 – 2023-09-02 Oslo [1, 2, 3, 6, 4, 5]"])
        try catalog.remove(6)
        let split = try catalog.events()
        #expect(split.map(\.name) == ["2023-09-01 Oslo", "2023-09-02 Bergen"] && split[0].id == apart[0].id && split[1].id > apart[1].id)
    }

    /// Two sessions of one day join without a new name: the day is the same.
    @Test func joiningEventsOfOneDayKeepsTheEarliersName() throws {
        let catalog = try EventsCatalog()
        for (id, hour) in [(1, 9.0), (2, 10), (3, 15), (4, 16)] { try catalog.place(Int64(id), taken(day: 0, hour: hour)) }
        let apart = try catalog.events()
        #expect(apart.map(\.name) == ["2023-09-01", "2023-09-01 (2)"])
        try catalog.place(5, taken(day: 0, hour: 12.5))
        #expect(try catalog.events().map { "\($0.id) \($0.name)" } == ["\(apart[0].id) 2023-09-01"])
    }

    @Test func removingEveryPhotoLeavesNoEvent() throws {
        let catalog = try EventsCatalog()
        try trip(catalog, days: 0..<2)
        try catalog.place(100, taken(day: 10, hour: 12))
        for id in Array(1...40) + [100] { try catalog.remove(Int64(id)) }
        #expect(try catalog.events().isEmpty)
    }

    /// An event over New Year is in the year it began: shot from New Year's Day on, it moves to
    /// the old year once a photo of New Year's Eve extends it (same id), and the new year's
    /// folder goes.
    @Test func anEventOverNewYearIsInTheYearItBegan() throws {
        let catalog = try EventsCatalog()
        for (id, hour) in [(1, 1.0), (2, 2), (3, 3)] { try catalog.place(Int64(id), taken(day: 122, hour: hour), city: "Bergen") }
        let alone = try catalog.events()
        #expect(alone.map { "\($0.year)/\($0.name)" } == ["2024/2024-01-01 Bergen"])
        try catalog.place(4, taken(day: 121, hour: 23.5))
        #expect(try catalog.events().map { "\($0.id) \($0.year)/\($0.name)" } == ["\(alone[0].id) 2023/2023-12-31 – 2024-01-01 Bergen"])
        try catalog.store.change { db throws(DatabaseError) in
            var years: [String] = []
            try db.query("SELECT name FROM view_folders WHERE view = 1 AND parent = 0") { years.append(text($0.blob(0))) }
            #expect(years == ["2023"])
        }
    }

    /// `record` places a photo by its time and position and names the event by its city; a Live
    /// Photo's movie leaves once paired (its still shows it); a photo changed leaves until read again.
    @Test func recordPlacesPhotosAndTheirChangesTakeThemOut() throws {
        let catalog = try EventsCatalog()
        try catalog.store.change { db throws(DatabaseError) in
            try catalog.add(1, format: .jpeg, db)
            try catalog.add(2, format: .quickTime, db)
            try catalog.add(3, format: .heif, db)
        }
        func read(_ photo: Int64, hour: Double, live: String?) throws {
            var properties = CatalogStore.Properties(date: "2023-09-01T12:00:00", dateSource: .exifOriginal, day: 20230901,
                                                     latitude: 60.39, longitude: 5.32, liveIdentifier: live)
            (properties.taken, properties.place) = (taken(day: 0, hour: hour), Place(country: "Norway", region: "Vestland", city: "Bergen"))
            let row = try #require(catalog.store.read { $0.photo(photo) })
            try catalog.store.record([(row, properties)])
        }
        try read(1, hour: 12, live: nil)
        try read(2, hour: 12.5, live: "L")
        #expect(try catalog.events().map { "\($0.name) \($0.photos)" } == ["2023-09-01 Bergen [1, 2]"])
        try read(3, hour: 12.5, live: "L")
        #expect(try catalog.events().map(\.photos) == [[1, 3]])
        _ = try catalog.store.change { db throws(DatabaseError) in
            try db.query("UPDATE photos SET version = version + 1 WHERE id = 1")
            return try catalog.store.assetFolderChanges(db)
        }
        #expect(try catalog.events().map(\.photos) == [[3]])
    }

    /// A photo moved in time leaves the event of its old time and joins that of its new one.
    @Test func aPhotoMovedInTimeChangesEvents() throws {
        let catalog = try EventsCatalog()
        try trip(catalog, days: 0..<2)
        try catalog.place(500, taken(day: 10, hour: 12))
        try catalog.place(500, taken(day: 1, hour: 12.1))
        #expect(try catalog.events().map(\.photos.count) == [41])
        try catalog.place(500, taken(day: 1, hour: 12.2))
        try catalog.place(500, taken(day: 20, hour: 12))
        #expect(try catalog.events().map(\.photos.count) == [40, 1])
    }
}

/// Whatever the order photos come, go and move in, events/ ends as a fresh build makes it.
@Suite struct EventsOrderTests {
    typealias Shot = (id: Int64, taken: Int64, position: (Double, Double)?, city: String)

    /// A trip in Bergen, two busy days in Oslo then two in Bergen, a month of everyday shots, a
    /// busy New Year's Eve into New Year's Day: about 230 photos.
    func library(_ random: inout SeededGenerator) -> [Shot] {
        var shots: [Shot] = []
        func shoot(days: Range<Int>, perDay: ClosedRange<Int>, hours: ClosedRange<Double>, at position: (Double, Double)?, city: String) {
            for day in days {
                for _ in 0..<Int.random(in: perDay, using: &random) {
                    shots.append((Int64(shots.count + 1), taken(day: day, hour: Double.random(in: hours, using: &random)), position, city))
                }
            }
        }
        shoot(days: 0..<4, perDay: 12...16, hours: 9...21, at: EventsCatalogTests.bergen, city: "Bergen")
        shoot(days: 10..<12, perDay: 12...16, hours: 9...21, at: EventsCatalogTests.oslo, city: "Oslo")
        shoot(days: 12..<14, perDay: 12...16, hours: 9...21, at: EventsCatalogTests.bergen, city: "Bergen")
        shoot(days: 20..<50, perDay: 0...3, hours: 7...23, at: nil, city: "Oslo")
        shoot(days: 121..<122, perDay: 14...14, hours: 17...23.9, at: nil, city: "Trondheim")
        shoot(days: 122..<123, perDay: 14...14, hours: 0.1...12, at: nil, city: "Trondheim")
        return shots
    }

    /// Each event as its photos and its name without a ` (N)` (which the order decides).
    func shown(_ catalog: EventsCatalog) throws -> [String] {
        try catalog.events().map { event in
            let name = event.name.hasSuffix(")") ? String(event.name[..<event.name.lastIndex(of: " ")!]) : event.name
            return "\(name) \(event.photos.sorted())"
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func anyOrderGivesTheEventsOfAFreshBuild(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        let shots = library(&random)
        let fresh = try EventsCatalog()
        for shot in shots.sorted(by: { ($0.taken, $0.id) < ($1.taken, $1.id) }) {
            try fresh.place(shot.id, shot.taken, at: shot.position, city: shot.city)
        }
        let expected = try shown(fresh)
        #expect(expected.count > 20 && expected.contains { $0.contains(" – ") && $0.contains("Bergen") })

        let catalog = try EventsCatalog()
        for shot in shots.shuffled(using: &random) {
            try catalog.place(shot.id, shot.taken, at: shot.position, city: shot.city)
            _ = try catalog.events()
        }
        #expect(try shown(catalog) == expected)
        // A third of them go and come back, a fifth move in time and back.
        let going = shots.shuffled(using: &random).prefix(shots.count / 3)
        for shot in going {
            try catalog.remove(shot.id)
            _ = try catalog.events()
        }
        for shot in going.shuffled(using: &random) {
            try catalog.place(shot.id, shot.taken, at: shot.position, city: shot.city)
            _ = try catalog.events()
        }
        let moving = shots.shuffled(using: &random).prefix(shots.count / 5)
        for shot in moving {
            // Half of them a little (the windows of their old and new times overlap), half anywhere.
            let target = Bool.random(using: &random) ? shot : shots.randomElement(using: &random)!
            try catalog.place(shot.id, target.taken + Int64.random(in: -7200...7200, using: &random), at: target.position, city: target.city)
            _ = try catalog.events()
        }
        for shot in moving.shuffled(using: &random) {
            try catalog.place(shot.id, shot.taken, at: shot.position, city: shot.city)
            _ = try catalog.events()
        }
        #expect(try shown(catalog) == expected)
    }
}
