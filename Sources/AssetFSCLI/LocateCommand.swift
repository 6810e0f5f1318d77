import Catalog
import MountModel
import PhotoSource
import Posix

/// `assetfs locate [-0] [-o OPTIONS] FILE...`: from files of SOURCE back to the mount, answered
/// from the catalog without walking the mount. A FILE's SOURCE is the nearest folder above it
/// that has a catalog of its own (the default cache's, or the one `-o cache=` names); its mount,
/// if any, is found in the mount table.
struct LocateCommand {
    static let usage = """
        usage: assetfs locate [-0] [-o OPTIONS] FILE...
        Every path of the mount that shows each FILE of a SOURCE assetfs has scanned: its asset
        folder in groups/, its file in each size's view, its day in dates/ and its place in the
        other views, and ids/<id>; for a Live Photo's movie, its still's motion.mov. Paths start
        with MOUNTPOINT where SOURCE is mounted (else they are from the mount's root), one per
        line, quoted as 'ls -b' does; with several FILEs each one's paths follow a line 'FILE:'.
        -0: 'FILE NUL PATH NUL' for every path. Give -o cache=FILE and sizes= as the mount was
        given them. Exit status 1 when a FILE is not shown (skipped, with the reason) or is not
        in a scanned SOURCE.
        """
    let configuration: Configuration
    let files: [String]
    let nulTerminated: Bool

    init(arguments: [String]) throws(UsageError) {
        let parsed = try SubcommandArguments(arguments, allowedFlags: ["--null"], command: "locate")
        guard !parsed.positional.isEmpty else { throw UsageError(Self.usage) }
        configuration = try Configuration(options: parsed.options)
        files = parsed.positional
        nulTerminated = parsed.flags.contains("--null")
    }

    /// What the catalog says of one file.
    enum Answer {
        case shown([[UInt8]])
        case skipped(SkipReason)
        case unknown
    }

    func run() -> Int32 {
        var readers: [FilePath: CatalogReader?] = [:], stores: [FilePath: CatalogStore] = [:], mounts: [MountTable.Entry]?
        var status: Int32 = 0, output: [UInt8] = []
        let tree = MountTree(sizes: configuration.mount.sizes)
        for (index, file) in files.enumerated() {
            // The folder's real path and the name as given: a FILE that is a link is itself, not where it leads.
            let given = FilePath(file)
            let real = MountCommand.realPath(given.parent.isEmpty ? FilePath(".") : given.parent).appending(given.lastComponent)
            guard let reader = catalog(of: real, opened: &readers) else {
                Log.error("locate: \(file): not in a SOURCE assetfs has scanned (give -o cache=FILE if its mount was given one)")
                status = 1
                continue
            }
            let source = reader.source
            let relative = FilePath(bytes: Array(real.bytes.dropFirst(source.bytes.count + 1)))
            let ask = { (snapshot: borrowing CatalogSnapshot) -> Answer in
                if let row = snapshot.photo(at: relative) { return .shown(tree.paths(showing: row, in: snapshot)) }
                return snapshot.skipReason(at: relative).map { .skipped($0) } ?? .unknown
            }
            let answer: Answer
            if reader.isCurrent {
                answer = reader.read(ask)
            } else {
                let store = stores[source] ?? configuration.catalogOpener(for: source)()
                stores[source] = store
                answer = store.read(ask)
            }
            switch answer {
            case .shown(let paths):
                if mounts == nil { mounts = (try? MountTable.entries()) ?? [] }
                let base = mountpoint(of: source, in: mounts ?? []).map { $0.bytes + [0x2F] } ?? []
                let name = Array(file.utf8)
                if !nulTerminated, files.count > 1 { output += (index > 0 ? [0x0A] : []) + SkippedCommand.escaped(name) + Array(":\n".utf8) }
                for path in paths {
                    output += nulTerminated ? name + [0] + base + path + [0] : SkippedCommand.escaped(base + path) + [0x0A]
                }
            case .skipped(let reason):
                Log.error("locate: \(file): not shown, skipped as \(reason.rawValue): \(reason.explanation)")
                status = 1
            case .unknown:
                Log.error("locate: \(file): not in the catalog of \(source) (not a file of it, or not scanned yet)")
                status = 1
            }
        }
        try? FileDescriptor.standardOutput.writeAll(output)
        return status
    }

    /// The catalog of the nearest folder above `file` whose catalog (as the options place it) is
    /// of that folder, read through one connection: each catalog file is opened once a run.
    private func catalog(of file: FilePath, opened: inout [FilePath: CatalogReader?]) -> CatalogReader? {
        var folder = file.parent
        while !folder.isEmpty {
            let path = configuration.catalogPath(for: folder)
            if opened[path] == nil { opened[path] = .some(CatalogReader(path: path)) }
            if let reader = opened[path] ?? nil, reader.source == folder { return reader }
            guard folder.bytes != [0x2F] else { return nil }
            folder = folder.parent
        }
        return nil
    }

    /// Where `source` is mounted, if it is, among the mount table's `entries`.
    private func mountpoint(of source: FilePath, in entries: [MountTable.Entry]) -> FilePath? {
        entries.first { $0.type == Array("fuse.assetfs".utf8) && MountCommand.realPath(FilePath(bytes: $0.source)) == source }
            .map { FilePath(bytes: $0.mountpoint) }
    }
}
