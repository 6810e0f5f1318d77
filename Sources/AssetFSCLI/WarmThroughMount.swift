import Dispatch
import Glibc
import Posix
import Synchronization

/// `assetfs warm` while SOURCE is mounted with the same cache: every rendition is read through
/// the mount instead of rendered here, so the mount's daemon makes each missing one once (readers
/// of a rendition it is making wait for it), stores it, and stays the only process that keeps the
/// catalog. Renditions are those of the mount's options.
struct WarmThroughMount {
    let mountpoint: FilePath
    let fullscreen: Bool

    func run() throws(UsageError) -> Int32 {
        let files = try renditionFiles()
        try? FileDescriptor.standardError.writeAll(Array("SOURCE is mounted on \(mountpoint): reading its renditions through it\n".utf8))
        let progress = Progress(total: files.count)
        let failed = Mutex<[String]>([])
        let workers = ProcessEnvironment.processorCount
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for index in stride(from: worker, to: files.count, by: workers) {
                if let error = Self.readWhole(files[index]) { failed.withLock { $0.append("\(files[index]): \(error)") } }
                progress.advance()
            }
        }
        progress.finish()
        let failures = failed.withLock { $0 }
        print("read \(files.count - failures.count) renditions through the mount on \(mountpoint), failed \(failures.count)")
        for reason in failures.sorted() { print("  failed: \(reason)") }
        return failures.isEmpty ? 0 : 1
    }

    /// Every file of the mount's thumbnails/ (and fullscreen/) view.
    private func renditionFiles() throws(UsageError) -> [FilePath] {
        let views = [Array("thumbnails".utf8)] + (fullscreen ? [Array("fullscreen".utf8)] : [])
        var files: [FilePath] = []
        for view in views {
            let top = mountpoint.appending(view)
            let albums: [DirectoryEntry]
            do { albums = try Directory.entries(of: top) } catch {
                throw UsageError("SOURCE is mounted on \(mountpoint) with this cache, and warm reads through that mount, but "
                                 + "\(top) cannot be listed: \(error). Run warm as the user who mounted it, or give it -o cache=FILE of its own")
            }
            for album in albums {
                let folder = top.appending(album.name)
                files += ((try? Directory.entries(of: folder)) ?? []).map { folder.appending($0.name) }
            }
        }
        return files
    }

    /// Reads `file` to its end (which makes the daemon render and store it); the error, if any.
    private static func readWhole(_ file: FilePath) -> Errno? {
        do {
            let descriptor = try FileDescriptor.openReadOnly(file)
            defer { descriptor.close() }
            var offset: Int64 = 0
            while true {
                let chunk = try descriptor.read(upTo: 128 << 10, at: offset)
                if chunk.isEmpty { return nil }
                offset += Int64(chunk.count)
            }
        } catch {
            return error
        }
    }
}
