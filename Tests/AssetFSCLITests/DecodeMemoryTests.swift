import Foundation
import Glibc
import Testing
@testable import AssetFSCLI

/// `-o decode_memory=`: the budget whole-image decodes share, a quarter of the RAM on a small machine.
@Suite struct DecodeMemoryOptionTests {
    @Test func theDefaultIs512MOrAQuarterOfASmallMachinesRAM() {
        let mib = 1 << 20
        #expect(Configuration.defaultDecodeMemory(physicalMemory: 24 << 30) == 512 * mib)
        #expect(Configuration.defaultDecodeMemory(physicalMemory: 2 << 30) == 512 * mib)
        #expect(Configuration.defaultDecodeMemory(physicalMemory: 1 << 30) == 256 * mib, "a 1 GiB Raspberry Pi")
        #expect(Configuration.defaultDecodeMemory(physicalMemory: 32 * mib) == 16 * mib, "never below the minimum")
        #expect(Configuration.defaultDecodeMemory(physicalMemory: 0) == 512 * mib, "RAM unknown")
    }

    @Test func aSizeIsParsedAndTooSmallOrBadOnesAreRefused() throws {
        #expect(try Configuration(options: [(key: "decode_memory", value: "64M")]).decodeMemory == 64 << 20)
        #expect(try Configuration(options: [(key: "decode_memory", value: "1.5G")]).decodeMemory == 1536 << 20)
        for bad in ["1M", "lots", ""] {
            #expect(throws: UsageError.self, "decode_memory=\(bad)") { try Configuration(options: [(key: "decode_memory", value: bad)]) }
        }
    }
}

extension Mounted {
    /// A photo that needs more than the whole decode budget waits until it can run alone, then
    /// renders (issue 18: the budget throttles, it does not refuse), and the others render too.
    @Suite struct DecodeMemoryTests {
        @Test func aPhotoOverTheBudgetRendersAlone() throws {
            let library = Library(sourceName: "Photos", albums: [
                Library.Album(name: Array("Big".utf8), assets: [
                    Library.Asset(name: Array("baseline".utf8), source: Array("Big/baseline.jpg".utf8), sample: "cameras/Casio_EX-S1.jpg"),
                ]),
            ])
            try withScratch(library, changesSource: true) { scratch in
                // 4000x3000 progressive: its coefficients alone take about 36 MiB.
                let made = Command.run("convert", ["-size", "4000x3000", "gradient:navy-orange", "-interlace", "JPEG", "-quality", "90",
                                                   scratch.source + "/Big/progressive.jpg"])
                try #require(made.status == 0, "convert: \(made.err)")
                let thumbnail = Array((scratch.mountpoint + "/groups/Big/progressive/thumbnail.jpg").utf8)

                let mount = try scratch.mount(options: ["decode_memory=16M", "broken=error"])
                let bytes = try RawFiles.read(thumbnail).get()
                #expect(bytes.starts(with: [0xFF, 0xD8]), "rendered alone over a 16 MiB budget")
                #expect((try? RawFiles.read(mount.groups / "Big" / "baseline" / "thumbnail.jpg").get())?.starts(with: [0xFF, 0xD8]) == true,
                        "a baseline JPEG streams within any budget")
                let stats = try mount.stats()
                #expect(stats.renderFailures == 0)
                #expect(stats.renders == 2)
            }
        }
    }
}
