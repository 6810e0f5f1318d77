import PhotoSource
import Posix
import Renditions

/// Why a rendition is not there.
public enum RenditionFailure: Error, Sendable, Equatable {
    /// The photo itself cannot be rendered (remembered until it changes; logged once).
    case broken(reason: String)
    /// Not this time: the photo could not be opened or read, or changed under the render, or the
    /// mount is stopping. Never remembered: the next request tries again.
    case unavailable(RequestFailure, reason: String)
}

/// What makes a rendition from an open photo of a known format (the one the catalog stored):
/// the `Renderer`, or a stand-in in tests.
public protocol RenditionMaking: Sendable {
    func render(_ file: FileDescriptor, format: SourceFormat, spec: RenditionSpec, name: String) throws(RenditionError) -> Rendition
}

extension Renderer: RenditionMaking {}
