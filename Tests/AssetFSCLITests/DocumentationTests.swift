@testable import AssetFSCLI
import Foundation
import Testing

/// The pages a user reads, in the repository: README.md, docs/, the systemd unit.
enum Documentation {
    static let root = #filePath.components(separatedBy: "/Tests/")[0]

    static func read(_ path: String) throws -> String {
        try String(contentsOfFile: root + "/" + path, encoding: .utf8)
    }

    /// The manual without its copy of `--help`: what it says of an option in its own words.
    static func manualProse() throws -> String {
        try read("docs/manual.md").replacingOccurrences(of: Help.text, with: "")
    }

    /// Every `/etc/fstab` line (six fields, of type fuse.assetfs) in `text`, a comment's too, with
    /// where it is.
    static func fstabLines(in text: String, of page: String) -> [(page: String, fields: [String])] {
        text.split(separator: "\n").map { $0.drop { $0 == "#" }.split(whereSeparator: \.isWhitespace).map(String.init) }
            .filter { $0.count == 6 && $0[2] == "fuse.assetfs" }
            .map { (page, $0) }
    }
}

/// The manual page and the manual (docs/manual.md) say the same things, and the manual page's
/// examples are lines the program takes.
extension ManualPageTests {
    /// Every command and every option the manual page lists has its entry in docs/manual.md: a
    /// command its `- \`assetfs COMMAND` item, an option words of the manual's own (its copy of
    /// `--help` does not count).
    @Test func everyCommandAndOptionOfTheManualPageIsInTheManual() throws {
        let page = ManualPage.text()
        let prose = try Documentation.manualProse()
        let commands = page.split(separator: "\n").filter { $0.hasPrefix(".SS ") && !$0.hasPrefix(".SS Mount options") }
            .map { String($0.dropFirst(4)) }
        #expect(commands == Help.subcommands, "the manual page's COMMANDS: \(commands)")
        for command in commands {
            #expect(prose.contains("\n- `assetfs \(command)"), "docs/manual.md has no item for assetfs \(command)")
        }
        let optionsSection = try #require(page.firstRange(of: ".SS Mount options").flatMap { start in
            page[start.upperBound...].firstRange(of: ".SH COMMANDS").map { page[start.upperBound..<$0.lowerBound] }
        })
        let options = optionsSection.matches(of: /\.TP\n\\fB([a-z_]+)\\fR/).map { String($0.output.1) }
        #expect(Set(MountOption.all.map(\.name)).isSubset(of: options), "the manual page's options: \(options)")
        for option in options {
            let inProse = prose.firstMatch(of: try Regex("`[^`\n]*\\b\(option)\\b[^`\n]*`")) != nil
            #expect(inProse, "docs/manual.md does not say anything of -o \(option) beyond its --help copy")
        }
    }

    /// Every fstab line shown (the manual page's EXAMPLES, README, the manual, the systemd unit's
    /// comment) is one mount.fuse3 passes on whole: six fields, an absolute SOURCE and
    /// MOUNTPOINT, and options that are assetfs's own, FUSE's standard ones or mount(8)'s.
    @Test func everyFstabLineShownUsesOptionsAssetfsTakes() throws {
        let fuse: Set = ["allow_other", "allow_root", "auto_unmount", "default_permissions", "fsname", "subtype", "max_read", "ro"]
        let mount: Set = ["nofail", "noauto", "auto", "user", "users", "_netdev", "defaults"]
        var lines = Documentation.fstabLines(in: ManualPage.text(), of: "assetfs manual")
        for page in ["README.md", "docs/manual.md", "mount-scripts/assetfs@.service"] {
            lines += Documentation.fstabLines(in: try Documentation.read(page), of: page)
        }
        #expect(lines.contains { $0.page == "assetfs manual" }, "the manual page's EXAMPLES has no fstab line")
        for (page, fields) in lines {
            #expect(fields[0].hasPrefix("/") && fields[1].hasPrefix("/") && fields[4] == "0" && fields[5] == "0", "\(page): \(fields)")
            for option in fields[3].split(separator: ",") {
                let key = String(option.prefix { $0 != "=" })
                #expect(MountOption.keys().contains(key) || fuse.contains(key) || mount.contains(key) || key.hasPrefix("x-systemd."),
                        "\(page): fstab option \(key) is neither assetfs's nor FUSE's nor mount(8)'s")
            }
            let ownOptions = fields[3].split(separator: ",").filter { MountOption.keys().contains(String($0.prefix { $0 != "=" })) }
            let own = ownOptions.map { option in (String(option.prefix { $0 != "=" }), String(option.drop { $0 != "=" }.dropFirst())) }
            #expect(throws: Never.self, "\(page): \(fields[3])") { try Configuration(options: own) }
        }
    }

    /// FILES names every file assetfs writes or reads for the user: the cache and its catalog,
    /// the lock, the log's places, fstab, fuse.conf, the systemd unit, the desktop's thumbnails.
    @Test func theFilesSectionNamesTheFilesAssetfsKeeps() {
        let files = ManualPage.files.joined(separator: "\n")
        for name in [".catalog.sqlite", ".catalog.lock", "assetfs/assetfs.log", "/var/log/assetfs/assetfs.log", "/etc/fstab",
                     "/etc/fuse.conf", "assetfs@.service", "thumbnails"] {
            #expect(files.contains(name), "FILES does not name \(name)")
        }
    }
}

/// README is what a newcomer reads: short, the two commands first, and where the rest is.
@Suite struct ReadmeTests {
    @Test func readmeIsAnIntroductionWithItsTwoCommandsAndPointers() throws {
        let readme = try Documentation.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count <= 300, "README has \(lines.count) lines: the manual belongs in docs/manual.md")
        let sections = lines.filter { $0.hasPrefix("## ") }
        #expect(sections.first == "## Start here", "README's first section is \(sections.first ?? "none")")
        let startHere = readme.components(separatedBy: "## Start here")[1].components(separatedBy: "\n## ")[0]
        let block = startHere.components(separatedBy: "```sh\n")[1].components(separatedBy: "```")[0]
        let commands = block.split(separator: "\n").map { $0.split(separator: "#")[0].trimmingCharacters(in: .whitespaces) }
        #expect(commands == ["mount-scripts/assetfs", "mount-scripts/test"], "Start here gives \(commands)")
        #expect(readme.contains("man assetfs"))
        #expect(try Documentation.read(".ci/run").contains("mount-scripts/test"), "CI does not run README's test command")
        for page in ["docs/manual.md", "docs/performance.md", "docs/development.md"] {
            #expect(readme.contains("(\(page))"), "README does not point to \(page)")
            #expect(FileManager.default.fileExists(atPath: Documentation.root + "/" + page), "\(page) is missing")
        }
    }
}
