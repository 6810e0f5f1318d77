import Catalog
import MountModel
import PhotoSource
import Posix
import RenditionCache
import Renditions

/// Renditions of the tree: what a rendition node shows (a photo's rendition, or an album's
/// poster, the first of its photos that renders), settled through the pipeline, and the
/// placeholder a broken photo shows.
extension AssetFileSystem {
    /// What a rendition node shows: one photo's rendition, or for an album poster the thumbnail
    /// of the first of its photos that renders.
    enum RenditionTarget {
        /// At the priority of its size: a thumbnail never waits behind a bigger size.
        case one(RenditionRequest, priority: WorkPriority)
        case firstRendering(album: Int64)
    }

    /// A target's settled content: the request whose rendition it shows and its size, or (every
    /// candidate broken) the placeholder's, or why there is nothing to show now.
    struct Settled: Sendable {
        var request: RenditionRequest?
        var size: Int
    }

    /// `interruption`: the request's caller may go, and then nobody waits for the render.
    func settle(_ target: RenditionTarget, as caller: Credentials, interruption: Interruption.Source? = nil,
                completion: @escaping @Sendable (Result<Settled, RenditionFailure>) -> Void) {
        switch target {
        case .one(let request, let priority):
            pipeline.size(request, priority: priority, interruption: interruption) { [self] result in
                switch result {
                case .success(let size): completion(.success(Settled(request: request, size: size)))
                case .failure(.broken(let reason)): completion(placeholder(for: reason))
                case .failure(let failure): completion(.failure(failure))
                }
            }
        case .firstRendering(let album):
            settleFirst(album: album, after: 0, brokenReason: nil, as: caller, interruption: interruption, completion: completion)
        }
    }

    /// Tries the album's photos in order; a broken one is passed over, any other failure stops the
    /// search (so the choice never depends on a passing error, and the poster's size stays stable).
    /// A photo `caller` may not read is neither rendered for them nor shown to them.
    private func settleFirst(album: Int64, after: Int64, brokenReason: String?, as caller: Credentials, interruption: Interruption.Source?,
                             completion: @escaping @Sendable (Result<Settled, RenditionFailure>) -> Void) {
        // The photo and whether the caller may see it, from one state of the catalog.
        let (first, shown, permitted) = catalog.read { catalog in
            let row = catalog.photos(inFolder: album, after: after, limit: 1).first
            let thumbnail = row.map { Node.file(photo: $0.id, kind: .rendition(size: options.sizes.thumbnail.slot), version: Node.shownVersion($0.version)) }
            return (row, row.flatMap { source(.rendition(size: options.sizes.thumbnail.slot), of: $0, in: catalog) },
                    thumbnail.map { permits($0, as: caller, in: catalog) } ?? false)
        }
        guard let row = first, let shown else { return completion(placeholder(for: brokenReason ?? "no photos")) }
        guard permitted else {
            return completion(.failure(.unavailable(.posterDenied, reason: "the album's poster shows a photo its reader may not read")))
        }
        let request = RenditionRequest(shown.row, spec: options.spec(options.sizes.thumbnail))
        pipeline.size(request, priority: .thumbnail, interruption: interruption) { [self] result in
            switch result {
            case .success(let size): completion(.success(Settled(request: request, size: size)))
            case .failure(.broken(let reason)):
                settleFirst(album: album, after: row.id, brokenReason: reason, as: caller, interruption: interruption, completion: completion)
            case .failure(let failure): completion(.failure(failure))
            }
        }
    }

    /// What a broken photo shows: the placeholder, unless `-o broken=error`.
    private func placeholder(for reason: String) -> Result<Settled, RenditionFailure> {
        guard options.brokenPhotos == .placeholder, let bytes = Renderer.placeholder else { return .failure(.broken(reason: reason)) }
        return .success(Settled(request: nil, size: bytes.count))
    }
}
