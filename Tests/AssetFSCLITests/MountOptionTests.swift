@testable import AssetFSCLI
import MountModel
import Renditions
import Testing

/// `-o` options are declared once (`MountOption.all`): these tests hold the parser, the defaults
/// and the documentation to the declarations, without mounting.
@Suite struct MountOptionTests {
    /// A value for every declared option that differs from its default. An option declared
    /// without an entry here fails `everyOptionIsAppliedAndDocumented`.
    static let examples: [String: String] = [
        "cache": "/var/cache/pictures.sqlite", "cache_size": "2G", "decode_memory": "64M", "thumbnail_size": "300",
        "fullscreen_size": "2560", "sizes": "medium:1024", "quality": "70", "follow_symlinks": "",
        "show_housekeeping": "", "broken": "error", "views": "dates+favorites", "log": "/var/log/assetfs.log", "recheck": "30",
    ]

    @Test func everyOptionIsAppliedAndDocumented() throws {
        let help = MountOption.helpLines(indent: 5).joined(separator: "\n")
        for option in MountOption.all {
            let value = try #require(Self.examples[option.name], "no example value for -o \(option.name): add one")
            let configuration = try Configuration(options: [(option.name, value)])
            #expect(configuration != Configuration(), "-o \(option.name)=\(value) changed nothing")
            #expect(help.contains(option.usage), "--help does not list \(option.usage)")
            #expect(ManualPage.text().contains("\\fB" + ManualPage.escaped(option.name) + "\\fR"), "the manual page does not list \(option.usage)")
        }
        #expect(Set(Self.examples.keys) == Set(MountOption.all.map(\.name)), "examples for options that are not declared")
    }

    /// The default an option's help states is what a mount gets without it: giving it changes nothing.
    @Test func everyStatedDefaultIsTheDefault() throws {
        for option in MountOption.all {
            guard case .value(let text) = option.defaultValue else { continue }
            #expect(try Configuration(options: [(option.name, text)]) == Configuration(), "-o \(option.name)=\(text) is not the default")
        }
        let defaults = Configuration()
        #expect(defaults.mount.sizes.thumbnail.longestSide == 256 && defaults.mount.sizes.fullscreen.longestSide == 1920)
        #expect(defaults.mount.quality == RenditionSpec.defaultQuality && defaults.cacheSize == 1 << 30)
        #expect(Help.text.contains("longest side 256 px") && Help.text.contains("longest side 1920 px"))
        #expect(RenderCommand.usage.contains("(default 256)") && RenderCommand.usage.contains("(default 85)"))
    }

    /// `-o views=` takes view names joined by + (none: groups/ alone) and refuses others.
    @Test func viewsAreChosenByName() throws {
        #expect(try Configuration(options: [("views", "dates+favorites")]).mount.views == [.dates, .favorites])
        #expect(try Configuration(options: [("views", "none")]).mount.views.isEmpty)
        #expect(throws: UsageError.self) { try Configuration(options: [("views", "dates+groups")]) }
    }

    /// A size's range is RenditionSizes' for every way of giving it (thumbnail_size was capped
    /// at 8192 while a named size could be 16384).
    @Test func sidesHaveOneRange() throws {
        let widest = RenditionSizes.longestSides.upperBound
        for name in ["thumbnail_size", "fullscreen_size"] {
            #expect(try Configuration(options: [(name, String(widest))]) != Configuration())
            #expect(throws: UsageError.self) { try Configuration(options: [(name, String(widest + 1))]) }
        }
        #expect(try Configuration(options: [("sizes", "huge:\(widest)")]).mount.sizes.all.count == 3)
    }

    /// What it takes to add an option: one declaration. The parser takes it and applies it,
    /// `--help` and the manual page document it, and without the declaration it is refused.
    @Test func anOptionAddedToTheDeclarationsIsParsedAppliedAndDocumented() throws {
        let added = MountOption.number("rescan_pause", "SECONDS", in: 1...60, "a test option", sets: \.recheckSeconds)
        let declarations = MountOption.all + [added]
        #expect(try Configuration(options: [("rescan_pause", "7")], declarations: declarations).recheckSeconds == 7)
        #expect(throws: UsageError.self) { try Configuration(options: [("rescan_pause", "61")], declarations: declarations) }
        #expect(MountOption.keys(declarations).contains("rescan_pause"))
        #expect(MountOption.helpLines(declarations, indent: 2).contains { $0.contains("rescan_pause=SECONDS") && $0.contains("a test option (default 600)") })
        #expect(ManualPage.text(declarations).contains("rescan_pause"))
        #expect(throws: UsageError.self) { try Configuration(options: [("rescan_pause", "7")]) }
        #expect(!MountOption.keys().contains("rescan_pause"))
    }

    @Test func sizesAreReadAndWrittenInBinaryUnits() {
        #expect(ByteSize.bytes("512M") == 512 << 20 && ByteSize.bytes("1.5G") == 1536 << 20 && ByteSize.bytes("100000") == 100_000)
        #expect(ByteSize.bytes("2gb") == 2 << 30 && ByteSize.bytes("lots") == nil && ByteSize.bytes("") == nil && ByteSize.bytes("-1M") == nil)
        #expect(ByteSize.text(1 << 30) == "1G" && ByteSize.text(512 << 20) == "512M" && ByteSize.text(1000) == "1000")
    }
}

/// `assetfs manual` is a manual page groff reads without a warning, and it says what `--help` says.
@Suite struct ManualPageTests {
    @Test func theManualPageIsCleanRoffWithEveryCommand() throws {
        let result = AssetFS.run(["manual"], timeout: 60)
        #expect(result.status == 0 && result.out == ManualPage.text(), "\(result.status) \(result.err)")
        let groff = Command.bash("groff -man -Tutf8 -ww -z 2>&1", stdin: result.stdout, timeout: 60)
        #expect(groff.status == 0 && groff.out.isEmpty, "groff: \(groff.out)")
        for command in Help.subcommands { #expect(result.out.contains(".SS \(command)\n"), "no COMMANDS entry for \(command)") }
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "SIGNALS", "FILES", "EXAMPLES"] {
            #expect(result.out.contains(".SH \(section)\n"), "no \(section) section")
        }
    }
}
