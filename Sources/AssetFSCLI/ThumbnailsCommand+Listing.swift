import AssetFS
import MountModel
import Posix
import Renditions

/// What to seed: every file of the mount, found by walking it from its root, whose listing is the
/// layout's one list of views (`groups/`, the size views, `dates/` and the other views), so
/// no view is named here. A folder with `user.assetfs.source` is an asset folder, wherever it is;
/// the asset's files in every view are one job, drawn from its one picture. A file outside asset
/// folders is the asset file with its inode number (the mount gives a view's file its asset
/// folder's number), else an album's poster.
extension ThumbnailsCommand {
    /// Lists the mount (`readdir` and the asset folders' attributes only, which render nothing)
    /// into jobs, its sizes as its root's `user.assetfs.sizes` tells them.
    static func jobs(mount: FilePath, source: FilePath?) throws(Errno) -> [Job] {
        let told = try? ExtendedAttributes.value(of: String(decoding: MountLayout.sizesAttribute, as: UTF8.self), at: mount)
        let sizes = told.flatMap { try? RenditionSizes(description: String(decoding: $0, as: UTF8.self)) } ?? RenditionSizes()
        var assets: [[UInt8]: Job] = [:]
        /// The asset (its source path) and kind of every file met in an asset folder, by inode number.
        var fileKinds: [UInt64: (asset: [UInt8], kind: Kind)] = [:]
        var elsewhere: [(path: FilePath, entry: DirectoryEntry)] = []
        var folders = [mount]
        while let folder = folders.popLast() {
            let listed: [DirectoryEntry]
            do { listed = try Directory.entries(of: folder) } catch {
                if folder == mount { throw error }
                continue  // gone meanwhile, or not for this user
            }
            for entry in listed.sorted(by: { $0.name.lexicographicallyPrecedes($1.name) }) {
                let path = folder.appending(entry.name)
                guard entry.isDirectory else {
                    elsewhere.append((path, entry))
                    continue
                }
                guard let relative = try? ExtendedAttributes.value(of: String(decoding: MountLayout.sourceAttribute, as: UTF8.self), at: path) else {
                    folders.append(path)
                    continue
                }
                guard let contents = try? Directory.entries(of: path) else { continue }  // gone meanwhile
                var job = assets[relative] ?? newJob(assetFolder: path, relative: relative, thumbnailName: sizes.thumbnail.fileName, source: source)
                for file in contents {
                    guard let kind = kind(ofAssetFile: file.name, sizes: sizes) else { continue }
                    job.files.append(File(path: path.appending(file.name), kind: kind))
                    fileKinds[file.inode] = (relative, kind)
                }
                assets[relative] = job
            }
        }
        var posters: [Job] = []
        for (path, entry) in elsewhere {
            if let file = fileKinds[entry.inode] {
                assets[file.asset]?.files.append(File(path: path, kind: file.kind))
            } else if entry.name == MountLayout.poster {
                posters.append(Job(picture: path, assetFolder: nil, files: [File(path: path, kind: .poster)]))
            }
        }
        let assetJobs = assets.values.filter { $0.files.contains { $0.kind == .thumbnail } }
        return posters + assetJobs.sorted { $0.picture.bytes.lexicographicallyPrecedes($1.picture.bytes) }
    }

    /// An asset's job as its first asset folder met gives it: its picture, its type and (with
    /// `--source`) its photo in SOURCE.
    private static func newJob(assetFolder: FilePath, relative: [UInt8], thumbnailName: [UInt8], source: FilePath?) -> Job {
        let originalType = try? ExtendedAttributes.value(of: String(decoding: PropertyAttribute.type.name, as: UTF8.self), at: assetFolder)
        let sourceFiles = source.map { [File(path: $0.appending(FilePath(bytes: relative)), kind: .source)] } ?? []
        return Job(picture: assetFolder.appending(thumbnailName), assetFolder: assetFolder, files: relative.isEmpty ? [] : sourceFiles,
                   originalType: originalType.map { String(decoding: $0, as: UTF8.self) })
    }

    /// What a file of an asset folder is, by its name; nil for a name the seeding leaves alone.
    private static func kind(ofAssetFile name: [UInt8], sizes: RenditionSizes) -> Kind? {
        if let size = sizes.size(fileNamed: name) { return size.isThumbnail ? .thumbnail : .largerSize }
        if name.starts(with: Array("original.".utf8)) { return .original }
        if MountLayout.motionNames.contains(name) { return .motion }
        return nil
    }
}
