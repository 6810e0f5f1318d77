import AssetFS
import Catalog
import MountModel
import DesktopThumbnails
import Dispatch
import Glibc
import PhotoSource
import Posix
import Renditions
import Synchronization

/// Seeding: one job's thumbnails, checked against what is there and drawn from its picture.
extension ThumbnailsCommand {
    /// Files whose thumbnails were written, were valid already, have a failure entry (a photo
    /// assetfs cannot render, or whose rendition cannot be read), and what went wrong otherwise.
    struct Outcome {
        var written = 0
        var current = 0
        var unavailable = 0
        var failed: [String] = []

        mutating func add(_ other: Outcome) {
            written += other.written
            current += other.current
            unavailable += other.unavailable
            failed += other.failed
        }
    }

    struct Seeder: Sendable {
        let store: ThumbnailStore
        let sizes: [ThumbnailSize]
        let force: Bool
        let renderer = Renderer()

        /// Seeds one job's files: stats them, keeps the thumbnails that are valid, and draws the
        /// rest from the job's picture (decoded once per size).
        func seed(_ job: Job) -> Outcome {
            var outcome = Outcome()
            // The photo's modification time: what every file of its asset folder shows.
            let photoTime = job.assetFolder.flatMap { try? FileStatus(path: $0) }.map { seconds($0.modificationNanoseconds) }
            var subjects: [(file: File, subject: ThumbnailSubject)] = []
            for file in job.files {
                if let subject = subject(for: file, in: job, photoTime: photoTime) {
                    subjects.append((file, subject))
                } else {
                    outcome.failed.append("\(file.path): cannot stat it")
                }
            }
            // Done already: valid thumbnails in every size, or our failure entry for this very file.
            var missing: [(file: File, subject: ThumbnailSubject)] = []
            for entry in subjects {
                if !force && sizes.allSatisfy({ store.isCurrent(store.path(of: entry.subject, size: $0), for: entry.subject) }) {
                    outcome.current += 1
                } else if !force && store.isCurrent(store.failurePath(of: entry.subject), for: entry.subject) {
                    outcome.unavailable += 1
                } else {
                    missing.append(entry)
                }
            }
            guard !missing.isEmpty else { return outcome }

            // A broken photo: its renditions show assetfs's placeholder (so their icons do too), but
            // its original and source photo have no picture: a failure entry, as the standard says.
            let broken = job.assetFolder.map { (try? ExtendedAttributes.value(of: String(decoding: MountLayout.errorAttribute, as: UTF8.self), at: $0)) != nil } ?? false
            var pictures: [ThumbnailSize: DecodedImage] = [:]
            var pictureError: String?
            for size in sizes {
                do { pictures[size] = try renderer.decodePixels(job.picture, longestSide: size.pixels) } catch {
                    pictureError = error.description
                    break
                }
            }
            // The first read may have been the render that found the photo broken.
            let brokenNow = broken || job.assetFolder.map { (try? ExtendedAttributes.value(of: String(decoding: MountLayout.errorAttribute, as: UTF8.self), at: $0)) != nil } ?? false
            for (file, subject) in missing {
                let noPicture = pictureError != nil || (brokenNow && [.original, .source, .motion].contains(file.kind))
                do {
                    if noPicture {
                        try store.storeFailure(subject)
                        outcome.unavailable += 1
                        if let pictureError { Log.warning("\(file.path): no thumbnail: \(pictureError)") }
                    } else {
                        for size in sizes {
                            let picture = pictures[size]!
                            try store.store(subject, size: size, pixels: picture.pixels, width: picture.size.width,
                                            height: picture.size.height, channels: picture.channels)
                        }
                        outcome.written += 1
                    }
                } catch {
                    outcome.failed.append(error.description)
                }
            }
            return outcome
        }

        /// What the thumbnails of `file` are checked against. `stat` of everything but a
        /// fullscreen.jpg or a named size's file, which would render it just to learn its size.
        private func subject(for file: File, in job: Job, photoTime: Int64?) -> ThumbnailSubject? {
            let mime = mimeType(of: file, in: job)
            if file.kind == .largerSize {
                guard let photoTime else { return nil }
                return ThumbnailSubject(path: file.path.bytes, modificationSeconds: photoTime, size: nil, mimeType: mime)
            }
            guard let status = try? FileStatus(path: file.path) else {
                // A rendition of a broken photo under -o broken=error fails stat (EIO): a failure entry it gets.
                guard file.kind == .thumbnail, let photoTime else { return nil }
                return ThumbnailSubject(path: file.path.bytes, modificationSeconds: photoTime, size: nil, mimeType: mime)
            }
            return ThumbnailSubject(path: file.path.bytes, modificationSeconds: seconds(status.modificationNanoseconds),
                                    size: status.size, mimeType: mime)
        }

        /// `st_mtime`: whole seconds, rounded down (also before 1970).
        private func seconds(_ nanoseconds: Int64) -> Int64 {
            nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : -((-nanoseconds + 999_999_999) / 1_000_000_000)
        }

        /// `Thumb::Mimetype` of `file`: renditions are JPEGs, an original (and its source photo) is
        /// what its properties say, a motion file is the MP4 or QuickTime movie its name says.
        private func mimeType(of file: File, in job: Job) -> String? {
            switch file.kind {
            case .poster, .thumbnail, .largerSize: return SourceFormat.jpeg.mimeType
            case .original, .source: return job.originalType
            case .motion: return file.path.lastComponent == MountLayout.liveMotion ? SourceFormat.quickTime.mimeType : SourceFormat.mp4.mimeType
            }
        }
    }
}
