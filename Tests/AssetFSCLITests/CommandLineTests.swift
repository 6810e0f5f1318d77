@testable import AssetFSCLI
import Foundation
import MountModel
import PhotoSource
import Glibc
import Testing

/// The command line without mounting: each mistake is one line on stderr and a failing exit.
@Suite struct CommandLineTests {
    /// Runs assetfs with `arguments` ({source}, {mnt}, {file}, {nowhere} replaced by real paths in a
    /// scratch folder) and checks: non-zero exit, exactly one stderr line, naming every word of `naming`.
    func expectUsageError(_ arguments: [String], naming: [String], sourceLocation: SourceLocation = #_sourceLocation) throws {
        try withScratch(.small) { scratch in
            let file = scratch.source + "/Holiday/beach.jpg"
            func expand(_ text: String) -> String {
                text.replacingOccurrences(of: "{source}", with: scratch.source).replacingOccurrences(of: "{mnt}", with: scratch.mountpoint)
                    .replacingOccurrences(of: "{file}", with: file).replacingOccurrences(of: "{nowhere}", with: scratch.path + "/nowhere")
            }
            let replaced = arguments.map(expand)
            let result = AssetFS.run(replaced, timeout: 60, mayLeaveDaemon: true, sourceLocation: sourceLocation)
            if Mount.isMounted(scratch.mountpoint) {
                Issue.record("assetfs \(replaced.joined(separator: " ")) mounted despite the error", sourceLocation: sourceLocation)
                Mount(point: scratch.mountpoint).unmount(sourceLocation: sourceLocation)
            }
            let shown = "assetfs \(arguments.joined(separator: " ")) → exit \(result.status), stderr:\n\(result.err)"
            #expect(result.status != 0, "\(shown)", sourceLocation: sourceLocation)
            #expect(result.errorLines.count == 1, "expected exactly one line on stderr: \(shown)", sourceLocation: sourceLocation)
            for word in naming {
                let expanded = expand(word)
                #expect(result.err.contains(expanded), "stderr should name '\(expanded)': \(shown)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func noArguments() throws { try expectUsageError([], naming: ["SOURCE"]) }
    @Test func missingSourceFolder() throws { try expectUsageError(["{nowhere}", "{mnt}"], naming: ["{nowhere}"]) }
    @Test func sourceIsAFile() throws { try expectUsageError(["{file}", "{mnt}"], naming: ["{file}", "not a folder"]) }
    @Test func mountpointNotGiven() throws { try expectUsageError(["{source}"], naming: ["MOUNTPOINT"]) }
    @Test func mountpointDoesNotExist() throws { try expectUsageError(["{source}", "{nowhere}"], naming: ["{nowhere}"]) }
    @Test func unknownMountOption() throws { try expectUsageError(["-o", "bogus_opt", "{source}", "{mnt}"], naming: ["bogus_opt"]) }
    @Test func unknownMountOptionAfterArguments() throws { try expectUsageError(["{source}", "{mnt}", "-o", "bogus_opt"], naming: ["bogus_opt"]) }
    @Test func badOptionValue() throws { try expectUsageError(["-o", "thumbnail_size=abc", "{source}", "{mnt}"], naming: ["thumbnail_size"]) }
    @Test func decodeMemoryTooSmall() throws { try expectUsageError(["-o", "decode_memory=1M", "{source}", "{mnt}"], naming: ["decode_memory=1M"]) }
    @Test func tooManyArguments() throws { try expectUsageError(["{source}", "{mnt}", "extra"], naming: ["extra"]) }
    @Test func unknownWarmOption() throws { try expectUsageError(["warm", "-o", "bogus_opt", "{source}"], naming: ["bogus_opt"]) }
    @Test func warmWithoutSource() throws { try expectUsageError(["warm"], naming: ["SOURCE"]) }
    @Test func statsOfSomethingNotMounted() throws { try expectUsageError(["stats", "{source}"], naming: ["{source}"]) }
    @Test func unknownFlag() throws { try expectUsageError(["-x"], naming: ["unknown option -x"]) }
    @Test func unknownLongFlagBeforeArguments() throws { try expectUsageError(["--bogus", "{source}", "{mnt}"], naming: ["unknown option --bogus"]) }

    /// OUTPUT is INPUT under its own name, a symbolic link or a hard link: refused, INPUT intact.
    @Test func renderNeverOverwritesItsInput() throws {
        try withScratch(.small) { scratch in
            let input = scratch.path + "/in.jpg"
            let photo = try TestData.contents("cameras/Casio_EX-S1.jpg")
            try RawFiles.write(photo, to: Array(input.utf8))
            #expect(symlink(input, scratch.path + "/symbolic.jpg") == 0)
            #expect(link(input, scratch.path + "/hard.jpg") == 0)
            for output in [input, scratch.path + "/symbolic.jpg", scratch.path + "/hard.jpg", scratch.path + "/../\(URL(fileURLWithPath: scratch.path).lastPathComponent)/in.jpg"] {
                let result = AssetFS.run(["render", input, output], timeout: 60)
                #expect(result.status != 0, "render \(input) \(output) → exit 0")
                #expect(result.errorLines.count == 1 && result.err.contains("same file"), "render \(output): \(result.err)")
                #expect((try? RawFiles.read(Array(input.utf8)).get()) == photo, "the input changed after render to \(output)")
            }
            let other = AssetFS.run(["render", input, scratch.path + "/out.jpg"], timeout: 60)
            #expect(other.status == 0, "render to another file: \(other.err)")
        }
    }

    /// Every option, as its declaration says (name, value, help with its default), is in `--help`
    /// and, word for word, in the manual's copy of it (docs/manual.md).
    @Test func helpAndTheManualShowTheOptionDeclarations() throws {
        let manual = try Documentation.read("docs/manual.md")
        let options = MountOption.helpLines(indent: 5).joined(separator: "\n")
        #expect(Help.text.contains(options))
        #expect(manual.contains(Help.text), "docs/manual.md's copy of --help is not --help:\n\(Help.text)")
        for flag in ["--help", "-h"] {
            let result = AssetFS.run([flag], timeout: 60)
            #expect(result.status == 0, "\(flag): exit \(result.status) \(result.err)")
            let text = result.out + result.err
            #expect(text.contains(options), "\(flag) does not list the options as they are declared")
            #expect(text.contains("SOURCE") && text.contains("MOUNTPOINT"))
            for signal in ["SIGHUP", "SIGINT", "SIGTERM"] { #expect(text.contains(signal), "\(flag) does not say what \(signal) does") }
        }
    }

    /// The format table and the skip reasons, as `assetfs formats` prints them, are the manual's
    /// (docs/manual.md).
    @Test func formatsAndTheManualShowTheFormatTable() throws {
        let manual = try Documentation.read("docs/manual.md")
        let result = AssetFS.run(["formats"], timeout: 60)
        #expect(result.status == 0 && result.out == FormatsCommand.text + "\n", "\(result.status) \(result.err)")
        #expect(manual.contains(FormatsCommand.text), "docs/manual.md's format list is not 'assetfs formats':\n\(FormatsCommand.text)")
        for format in SourceFormat.allCases {
            #expect(result.out.contains(format.facts.mimeType) && result.out.contains(" .\(format.usualExtension)"), "\(format)")
        }
        for reason in SkipReason.allCases { #expect(result.out.contains("  \(reason.rawValue) "), "\(reason)") }
        // Every skipped_ count README or the manual names is one `assetfs stats` prints.
        let keys = Set(SkipReason.allCases.map(\.statisticsKey))
        let named = (manual + (try Documentation.read("README.md"))).matches(of: /skipped_[a-z_]+/).map { String($0.output) }
        #expect(named.allSatisfy { keys.contains($0) }, "the docs name a skipped_ count stats does not print: \(Set(named).subtracting(keys))")
    }

    @Test func version() {
        for flag in ["--version", "-V"] {
            let result = AssetFS.run([flag], timeout: 60)
            #expect(result.status == 0, "\(flag): exit \(result.status) \(result.err)")
            #expect(result.out.range(of: #"^assetfs [0-9]+\.[0-9]+\.[0-9]+\n$"#, options: .regularExpression) != nil, "\(flag): '\(result.out)'")
        }
    }
}

extension Mounted {
    /// What the subcommands beside a mount print.
    @Suite struct SubcommandTests {
        @Test func everySubcommandAnswersHelp() {
            for command in ["render", "warm", "stats", "thumbnails", "cache", "skipped", "broken", "formats"] {
                let result = AssetFS.run([command, "--help"], timeout: 60)
                #expect(result.status == 0 && result.out.contains("usage: assetfs \(command)"), "\(command) --help: \(result.status) \(result.out) \(result.err)")
            }
        }

        /// A name holding a newline and a tab must not print as a line of its own.
        @Test func skippedQuotesNamesAsLsBDoesOrEndsThemWithNul() throws {
            try withScratch(.small, changesSource: true) { scratch in
                let name = "notes\nvideo\tfake.txt"
                try RawFiles.write(Array("hello".utf8), to: Array((scratch.source + "/" + name).utf8))
                try scratch.mount().unmount()
                let quoted = AssetFS.run(["skipped", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                let line = try #require(quoted.out.split(separator: "\n").first { $0.contains("notes") })
                #expect(line == "not-a-photo\t\(scratch.source.replacingOccurrences(of: " ", with: "\\ "))/notes\\nvideo\\tfake.txt")
                #expect(!quoted.out.split(separator: "\n").contains { $0.hasPrefix("video") })
                let raw = AssetFS.run(["skipped", "-0", "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                #expect(raw.out.split(separator: "\0").contains { $0 == "not-a-photo\t\(scratch.source)/\(name)" }, "skipped -0: \(raw.out)")
            }
        }

        /// `cache stats` of a SOURCE never mounted says there is no cache and creates none.
        @Test func cacheCommandsOfANeverMountedSourceCreateNothing() throws {
            try withScratch(.small) { scratch in
                for action in ["stats", "check"] {
                    let result = AssetFS.run(["cache", action, "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                    #expect(result.status != 0 && result.err.contains("no cache"), "cache \(action): \(result.status) \(result.out) \(result.err)")
                    #expect(access(scratch.cache, F_OK) != 0, "cache \(action) created \(scratch.cache)")
                }
                for action in ["clear", "prune"] {  // nothing to do, and no error
                    let result = AssetFS.run(["cache", action, "-o", "cache=\(scratch.cache)", scratch.source], timeout: 60)
                    #expect(result.status == 0 && result.out.contains("nothing to \(action)"), "cache \(action): \(result.status) \(result.out) \(result.err)")
                    #expect(access(scratch.cache, F_OK) != 0, "cache \(action) created \(scratch.cache)")
                }
            }
        }
    }
}
