import Testing
@testable import Catalog

/// Local seconds of `day` days after 2023-09-01 at `hour` (fractions allowed).
func taken(day: Int, hour: Double) -> Int64 { 19601 * 86400 + Int64(day) * 86400 + Int64(hour * 3600) }

extension EventRule {
    /// The events of a whole sorted sequence (a fresh build): each as the range of its photos.
    static func events(_ photos: [Photo]) -> [Range<Int>] {
        var result: [Range<Int>] = [], start = 0
        for (i, link) in links(photos, fromStart: true, toEnd: true).enumerated() where link == false {
            result.append(start..<(i + 1))
            start = i + 1
        }
        return photos.isEmpty ? [] : result + [start..<photos.count]
    }
}

/// The clustering rule and the names of events, before any catalog holds them.
@Suite struct EventRuleTests {
    /// `perDay` photos a day, evenly from 9:00 to 21:00, at a place if given.
    func shots(days: Range<Int>, perDay: Int, at place: (Double, Double)? = nil) -> [EventRule.Photo] {
        days.flatMap { day in
            (0..<perDay).map { i in
                EventRule.Photo(taken: taken(day: day, hour: 9 + 12 * Double(i) / Double(max(1, perDay - 1))), latitude: place?.0, longitude: place?.1)
            }
        }
    }

    @Test func aTripShotByTheDozenIsOneEventAcrossItsNights() {
        let trip = shots(days: 0..<5, perDay: 30)
        #expect(EventRule.events(trip) == [0..<150])
    }

    /// Four photos a day for a month (8:00, 12:30, 18:00, 21:00): never an event across a night,
    /// let alone one for the month; the evening's two shots are one outing.
    @Test func anEverydayShooterGetsNoEndlessEvent() {
        let hours = [8.0, 12.5, 18, 21]
        let photos = (0..<30).flatMap { day in hours.map { EventRule.Photo(taken: taken(day: day, hour: $0)) } }
        let events = EventRule.events(photos)
        #expect(events.count == 30 * 3)
        #expect(events.allSatisfy { EventRule.day(photos[$0.first!].taken) == EventRule.day(photos[$0.last!].taken) })
    }

    /// Everyday shots before and after a trip stay out of it; a day without photos ends it.
    @Test func aTripStandsApartFromEverydayShotsAndAnEmptyDayEndsIt() {
        let before = [EventRule.Photo(taken: taken(day: -1, hour: 19))]
        let trip = shots(days: 0..<3, perDay: 20), more = shots(days: 4..<6, perDay: 20)
        let after = [EventRule.Photo(taken: taken(day: 6, hour: 20))]
        #expect(EventRule.events(before + trip + more + after) == [0..<1, 1..<61, 61..<101, 101..<102])
    }

    /// Busy days 400 km apart (Oslo, then Bergen): an event per city; a short hop overnight stays one.
    @Test func movingOnOvernightFarAwayStartsAnEvent() {
        let oslo = (59.91, 10.75), bergen = (60.39, 5.32), drammen = (59.74, 10.20)
        #expect(EventRule.events(shots(days: 0..<2, perDay: 20, at: oslo) + shots(days: 2..<4, perDay: 20, at: bergen)) == [0..<40, 40..<80])
        #expect(EventRule.events(shots(days: 0..<2, perDay: 20, at: oslo) + shots(days: 2..<4, perDay: 20, at: drammen)) == [0..<80])
        #expect(abs(EventRule.distance(oslo.0, oslo.1, bergen.0, bergen.1) - 305_000) < 5_000)
    }

    /// Photos within three hours are one outing, whatever lies around them and wherever they were.
    @Test func photosWithinThreeHoursAreAlwaysLinked() {
        let photos = [EventRule.Photo(taken: taken(day: 0, hour: 10), latitude: 0.5, longitude: 0.5),
                      EventRule.Photo(taken: taken(day: 0, hour: 13), latitude: 40, longitude: 100),
                      EventRule.Photo(taken: taken(day: 0, hour: 16.01))]
        #expect(EventRule.events(photos) == [0..<2, 2..<3])
    }

    /// A link needs `reach` photos on each side; a slice that does not hold them leaves it open.
    @Test func aLinkIsDecidedOnlyWithItsWholeReach() {
        let photos = shots(days: 0..<2, perDay: 12)
        let night = 11
        let inner = Array(photos[(night - EventRule.reach + 1)...(night + EventRule.reach)])
        #expect(EventRule.links(inner, fromStart: false, toEnd: false).enumerated().compactMap { $0.element == nil ? nil : $0.offset } == [EventRule.reach - 1])
        #expect(EventRule.links(inner, fromStart: false, toEnd: false)[EventRule.reach - 1] == true)
        #expect(EventRule.links(Array(photos[3...]), fromStart: true, toEnd: true)[night - 3] == false)
    }

    @Test func namesSayTheDatesAndThePlace() {
        let first = EventRule.day(taken(day: 0, hour: 9))
        #expect(text(EventRule.name(firstDay: first, lastDay: first + 4, place: "Bergen")) == "2023-09-01 – 2023-09-05 Bergen")
        #expect(text(EventRule.name(firstDay: first, lastDay: first, place: "Bergen")) == "2023-09-01 Bergen")
        #expect(text(EventRule.name(firstDay: first, lastDay: first + 122, place: nil)) == "2023-09-01 – 2024-01-01")
        #expect(text(EventRule.name(firstDay: first, lastDay: first, place: "")) == "2023-09-01")
        #expect(text(EventRule.name(firstDay: 0, lastDay: 0, place: "A/B\u{0}C")) == "1970-01-01 A／BC")
        #expect(text(EventRule.name(firstDay: -1, lastDay: -1, place: nil)) == "1969-12-31")
        #expect(text(EventRule.name(firstDay: first, lastDay: first, place: " / ")) == "2023-09-01 ／")
        #expect(text(EventRule.name(firstDay: first, lastDay: first, place: "..")) == "2023-09-01")
        let long = EventRule.name(firstDay: first, lastDay: first, place: String(repeating: "é", count: 150))
        #expect(long.count <= Naming.maxNameBytes && long.starts(with: Naming.ellipsis))
    }

    /// An event over New Year is under the year it began.
    @Test func daysAndYearsOfLocalTimes() {
        #expect(EventRule.day(-1) == -1 && EventRule.day(0) == 0 && EventRule.day(86399) == 0 && EventRule.day(-86400) == -1 && EventRule.day(-86401) == -2)
        let newYearsEve = EventRule.day(taken(day: 121, hour: 23))
        #expect(text(EventRule.dayName(newYearsEve)) == "2023-12-31" && text(EventRule.yearName(ofDay: newYearsEve)) == "2023")
        #expect(text(EventRule.yearName(ofDay: newYearsEve + 1)) == "2024" && text(EventRule.dayName(EventRule.day(951_782_400))) == "2000-02-29")
    }

    @Test func theMainPlaceIsTheMostFrequentCityThenTheFirstReached() {
        #expect(EventRule.mainPlace([("Oslo", 3, 50), ("Bergen", 5, 70), ("Voss", 1, 10)]) == "Bergen")
        #expect(EventRule.mainPlace([("Oslo", 5, 50), ("Bergen", 5, 70), ("Voss", 5, 10)]) == "Voss")
        #expect(EventRule.mainPlace([]) == nil)
    }
}
