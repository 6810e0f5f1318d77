import Catalog
import PhotoSource

/// Something the kernel cached that a source change made wrong, to be dropped with libfuse's
/// `notify_inval_entry` / `notify_inval_inode` (sent outside request handlers).
public enum Invalidation: Equatable, Sendable {
    case entry(parent: UInt64, name: [UInt8])
    case inode(UInt64)

    /// Everything that differs between two trees: names gone or changed, files whose source
    /// changed, and folders whose listing changed.
    static func between(_ old: Catalog, _ new: Catalog) -> [Invalidation] {
        let before = Snapshot(old), after = Snapshot(new)
        var result: [Invalidation] = []
        for (path, entry) in before.entries.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            if after.entries[path]?.fingerprint != entry.fingerprint {
                result.append(.entry(parent: entry.parent, name: entry.name))
                result.append(.inode(entry.inode))
            }
        }
        return result
    }

    private struct Snapshot {
        struct Entry {
            var inode: UInt64
            var parent: UInt64
            var name: [UInt8]
            var fingerprint: Int
        }
        var entries: [[UInt8]: Entry] = [:]

        init(_ tree: Catalog) {
            visit(tree, .root, parent: Catalog.rootInode, name: [])
        }

        mutating func visit(_ tree: Catalog, _ node: Node, parent: UInt64, name: [UInt8]) {
            var hasher = Hasher()
            let children = tree.children(of: node)
            switch node {
            case .root, .groups, .view: break
            case .album(let a), .viewAlbum(_, let a): hasher.combine(tree.albums[a].source.ownership)
            case .poster(let a): hasher.combine(tree.albums[a].source.photos)
            case .asset(let a, let i), .file(let a, let i, _), .viewFile(_, let a, let i): hasher.combine(tree.photo(album: a, asset: i))
            }
            for child in children ?? [] { hasher.combine(child.name) }
            let inode = tree.inode(of: node)
            entries[tree.path(of: node)] = Entry(inode: inode, parent: parent, name: name, fingerprint: hasher.finalize())
            for child in children ?? [] { visit(tree, child.node, parent: inode, name: child.name) }
        }
    }
}
