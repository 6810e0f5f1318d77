import Testing
@testable import Catalog
@testable import PhotoSource

func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

/// How source file names become asset names, before any catalog holds them.
@Suite struct NamingTests {
    @Test func assetNamesDropTheExtensionUnlessThatClashes() {
        let names = Naming.assetNames(files: ["IMG_1.JPG", "IMG_2.jpg", "IMG_2.jpeg", "a", "a.jpg", "thumbnail.jpg.jpg", "thumbnail.jpg", ".jpg"].map {
            (Array($0.utf8), SourceFormat.jpeg)
        }, reserved: [Array("thumbnail.jpg".utf8)])
        #expect(names.map(text) == ["IMG_1", "IMG_2.jpg", "IMG_2.jpeg", "a", "a.jpg", "thumbnail.jpg.jpg", "thumbnail", ".jpg"])
    }

    /// A Live Photo as Apple exports it: the still keeps the stem, the movie its full name (it
    /// leaves the album once paired); three files of one stem all keep their full names.
    @Test func aStillBesideItsMovieKeepsTheStem() {
        let files: [(String, SourceFormat)] = [("IMG_7.HEIC", .heif), ("IMG_7.MOV", .quickTime), ("IMG_8.JPG", .jpeg), ("IMG_8.MOV", .quickTime),
                                               ("IMG_8.mp4", .mp4), ("IMG_9.MOV", .quickTime), ("IMG_9.MP4", .mp4)]
        let names = Naming.assetNames(files: files.map { (Array($0.0.utf8), $0.1) }, reserved: [])
        #expect(names.map(text) == ["IMG_7", "IMG_7.MOV", "IMG_8.JPG", "IMG_8.MOV", "IMG_8.mp4", "IMG_9.MOV", "IMG_9.MP4"])
    }

    /// The names are a function of the files: in whatever order they are given (the order they
    /// came to SOURCE), each file gets the same, unique name, never a reserved one.
    @Test func assetNamesDoNotDependOnTheOrderOfTheFiles() {
        let files: [(String, SourceFormat)] = [("thumbnail.jpg", .jpeg), ("thumbnail.png", .png), ("thumbnail.jpg (2).jpg", .jpeg)]
        let reserved = [Array("thumbnail.jpg".utf8)]
        var results: Set<[String: String]> = []
        for order in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let names = Naming.assetNames(files: order.map { (Array(files[$0].0.utf8), files[$0].1) }, reserved: reserved)
            results.insert(Dictionary(uniqueKeysWithValues: zip(order.map { files[$0].0 }, names.map(text))))
        }
        #expect(results == [["thumbnail.jpg": "thumbnail.jpg (3)", "thumbnail.png": "thumbnail.png", "thumbnail.jpg (2).jpg": "thumbnail.jpg (2)"]])
    }
}
