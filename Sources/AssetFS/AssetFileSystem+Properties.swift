import Places
import Catalog
import MountModel
import PhotoProperties
import PhotoSource
import Posix
import SQLiteDatabase

/// Photos' properties: read once per version of a photo (in the background after a scan, or on
/// the first request for one of its attributes), kept in the catalog, shown as extended
/// attributes of its asset folders and as its place in the `dates/` timeline.
extension AssetFileSystem {
    /// Starts reading, on a lowered-priority thread after every synchronize, the properties of photos
    /// that have none yet; `invalidate` is where what the kernel must forget goes. Call once the
    /// mount serves.
    public func readPropertiesInBackground() {
        let kernel = kernel, background = background
        background.start({ [weak self] shouldContinue, invalidate in
            self?.readPendingProperties(shouldContinue: shouldContinue, hashingShouldContinue: { !background.isPassWanted },
                                        invalidate: invalidate)
        }, invalidate: { kernel($0) })
    }

    /// Reads and stores the properties of every photo that has none yet, `pageSize` photos to a
    /// transaction (so days appear as their photos are read: a quarter of a second's worth at
    /// 2,000 a second; every commit makes each reader read its rows and pages again), then makes
    /// the content ids and the rendition digests of copies while `hashingShouldContinue` too (the
    /// background ends them when a change is waiting: a photo edited meanwhile would otherwise
    /// wait, undated, for the whole library to be hashed). Returns how many properties were stored.
    @discardableResult
    public func readPendingProperties(pageSize: Int = 512, shouldContinue: () -> Bool = { true },
                                      hashingShouldContinue: () -> Bool = { true },
                                      invalidate: ([Invalidation]) -> Void = { _ in }) -> Int {
        var after: Int64 = 0, stored = 0
        takeoutTitles.forget()  // a JSON changed since the last pass is read again
        while shouldContinue() {
            let page = catalog.read { $0.undatedPhotos(after: after, limit: pageSize) }
            guard let last = page.last else { break }
            after = last.id
            var batch: [(photo: CatalogStore.PhotoRow, properties: CatalogStore.Properties)] = []
            for row in page {
                guard shouldContinue() else { break }
                // A snapshot for the sidecars' names only: none is held while files are read.
                let sidecars = catalog.read { $0.sidecarNames(inFolder: row.folder) }
                if let read = readProperties(row, sidecars: sidecars) { batch.append((row, Self.stored(read))) }
            }
            do throws(DatabaseError) {
                invalidate(tree.invalidations(for: try catalog.record(batch)))
                stored += batch.count
            } catch {
                backlog.note(error)  // they stay queued: read again on the next pass
                break
            }
        }
        func hashing() -> Bool { shouldContinue() && hashingShouldContinue() }
        makePendingContentIDs(shouldContinue: hashing, invalidate: invalidate)
        makePendingRenditionDigests(shouldContinue: hashing)
        return stored
    }

    /// The properties of a photo: stored, else read now and stored (a photo that cannot be opened
    /// now shows what is known, its mtime, and is read again later).
    func properties(of row: CatalogStore.PhotoRow, in catalog: borrowing CatalogSnapshot) -> CatalogStore.Properties {
        if let stored = catalog.properties(ofPhoto: row.id) { return stored }
        let read = readAndStoreProperties(row, sidecars: catalog.sidecarNames(inFolder: row.folder))
        catalog.seeOwnWrites()  // the snapshot began before: the rest of its request sees them
        return catalog.properties(ofPhoto: row.id) ?? read
    }

    /// Reads a photo's properties (`sidecars`: the names of its folder's) and stores them, telling
    /// the kernel what that changed; what was read, or what is known of a photo that cannot be
    /// opened now (its mtime: it is read again later).
    func readAndStoreProperties(_ row: CatalogStore.PhotoRow, sidecars: Set<[UInt8]>) -> CatalogStore.Properties {
        guard let read = readProperties(row, sidecars: sidecars) else {
            return Self.stored(.unreadable(modificationNanoseconds: row.photo.identity.modificationNanoseconds, mediaType: row.photo.format.mimeType))
        }
        do throws(DatabaseError) {
            background.send(tree.invalidations(for: try catalog.record([(row, Self.stored(read))])))
        } catch {
            backlog.note(error)
        }
        return Self.stored(read)
    }

    /// An asset folder's files follow its photo's properties (a Motion Photo shows motion.mp4):
    /// a photo the background has not read yet is read before its folder is listed or looked
    /// into (`request(preparing:)`). The photo `id` if it may hold motion and has no properties
    /// stored.
    func photoLackingProperties(_ id: Int64, in catalog: borrowing CatalogSnapshot) -> CatalogStore.PhotoRow? {
        guard let row = catalog.photo(id), row.photo.format.mayHoldMotion, row.motionFacts == .unread else { return nil }
        return row
    }

    /// Reads a photo's properties, completed by its sidecar (`PhotoProperties.complete(with:)`),
    /// then by the date in its name where it still has only its mtime; nil when it cannot be opened
    /// now (changed since the scan: its folder is read again; or away). One it may not read gets
    /// what the catalog knows. `sidecars`: the names of the sidecars in its folder.
    func readProperties(_ row: CatalogStore.PhotoRow, sidecars: Set<[UInt8]>) -> PhotoProperties? {
        guard var properties = readEmbeddedProperties(row.photo) else { return nil }
        if let sidecar = sidecar(of: row, among: sidecars) { properties.complete(with: sidecar) }
        properties.complete(withDateIn: row.photo.fileName)
        return properties
    }

    private func readEmbeddedProperties(_ photo: Photo) -> PhotoProperties? {
        let file: OwnedFileDescriptor
        do { file = try sourceFiles.open(photo) } catch {
            switch error {
            case .changed:
                checkFolder(photo.relativePath.parent)
                return nil
            case .unavailable(let errno):
                guard errno == .permissionDenied else { return nil }
                return .unreadable(modificationNanoseconds: photo.identity.modificationNanoseconds, mediaType: photo.format.mimeType)
            }
        }
        return PhotoProperties.read(from: file.descriptor, modificationNanoseconds: photo.identity.modificationNanoseconds, format: photo.format)
    }

    /// Queues the properties an older reader stored to be read again, in the background like a new
    /// photo's (an upgrade may read EXIF from files it dated by their mtime).
    static func readOutdatedPropertiesAgain(_ catalog: CatalogStore) {
        do {
            try catalog.readPropertiesAgain(unlessReadBy: PhotoProperties.readerVersion)
        } catch {
            Log.warning("\(catalog.path): cannot queue photo properties to be read again: \(error)")
        }
    }

    static func stored(_ properties: PhotoProperties) -> CatalogStore.Properties {
        var stored = CatalogStore.Properties(date: properties.date.iso8601, dateSource: properties.date.source, day: properties.date.dayNumber,
                                             width: properties.width, height: properties.height, mediaType: properties.mediaType,
                                             camera: properties.camera,
                                             latitude: properties.location?.latitude, longitude: properties.location?.longitude,
                                             duration: properties.duration, codec: properties.codec,
                                             motion: properties.motion.map { $0.offset..<($0.offset + $0.length) },
                                             liveIdentifier: properties.liveIdentifier)
        stored.taken = properties.date.localSeconds
        stored.place = properties.location.flatMap { PlaceFinder.place(latitude: $0.latitude, longitude: $0.longitude) }
        (stored.keywords, stored.people, stored.rating, stored.favorite) = (properties.keywords, properties.people, properties.rating, properties.favorite)
        return stored
    }
}

/// The extended attributes of an asset folder that show its photo's properties.
public enum PropertyAttribute: CaseIterable, Sendable {
    case date, dateSource, width, height, type, camera, location, duration, codec, motion
    /// The content id (`ContentID`): what `ids/<id>` resolves.
    case id

    public var name: [UInt8] {
        let suffix: String
        switch self {
        case .date: suffix = "date"
        case .dateSource: suffix = "date_source"
        case .width: suffix = "width"
        case .height: suffix = "height"
        case .type: suffix = "type"
        case .camera: suffix = "camera"
        case .location: suffix = "location"
        case .duration: suffix = "duration"
        case .codec: suffix = "codec"
        case .motion: suffix = "motion"
        case .id: suffix = "id"
        }
        return MountLayout.propertyAttribute(suffix)
    }

    /// Its value, or nil when the photo does not tell.
    func value(_ properties: CatalogStore.Properties) -> [UInt8]? {
        switch self {
        case .date: return Array(properties.date.utf8)
        case .dateSource: return Array(properties.dateSource.name.utf8)
        case .width: return properties.width.map { Array(String($0).utf8) }
        case .height: return properties.height.map { Array(String($0).utf8) }
        case .type: return properties.mediaType.map { Array($0.utf8) }
        case .camera: return properties.camera
        case .location:
            guard let latitude = properties.latitude, let longitude = properties.longitude else { return nil }
            return Array(Coordinates(latitude: latitude, longitude: longitude).text.utf8)
        case .duration: return properties.duration.map { Array(Self.seconds($0).utf8) }
        case .codec: return properties.codec.map { Array($0.utf8) }
        case .motion: return MountLayout.motionName(properties)
        case .id: return properties.contentID.map { Array($0.description.utf8) }
        }
    }

    /// Seconds to the millisecond, `12.345`: what ffprobe and exiftool print, and exact to compare.
    static func seconds(_ value: Double) -> String {
        let milliseconds = Int((max(0, value) * 1000).rounded())
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
