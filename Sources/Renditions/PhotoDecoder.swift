import PhotoSource
import Posix

/// How the files of a photo format become renditions: registered under the format here, where
/// the decoders are (its other facts are its `SourceFormat` entry's, in PhotoSource, which cannot
/// see them). A video's renditions are poster frames, whatever its container (`VideoPoster`).
public struct PhotoDecoder: Sendable {
    public typealias Render = @Sendable (Renderer, FileDescriptor, RenditionSpec, String) throws(RenditionError) -> Rendition
    let render: Render

    public init(_ render: @escaping Render) { self.render = render }

    /// The decoder of each photo format of the registry (`RendererTests` checks none is missing).
    static let builtIn: [SourceFormat: PhotoDecoder] = [
        .jpeg: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderJPEG(file, spec: spec, name: name, orientation: nil) },
        .heif: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderHEIF(file, spec: spec, name: name, format: "HEIF") },
        .avif: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderHEIF(file, spec: spec, name: name, format: "AVIF") },
        .png: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderPNG(file, spec: spec, name: name) },
        .webp: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderWebP(file, spec: spec, name: name) },
        .gif: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderGIF(file, spec: spec, name: name) },
        .tiff: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderTIFF(file, spec: spec, name: name) },
        .raw: PhotoDecoder { (renderer, file, spec, name) throws(RenditionError) in try renderer.renderRAW(file, spec: spec, name: name) },
    ]
}

extension Renderer {
    /// This renderer, recognising `format` too (after the registry's formats, within its rank)
    /// and rendering it with `decoder`: how a format is added without touching the others.
    public func adding(_ format: SourceFormat, decoder: PhotoDecoder) -> Renderer {
        var renderer = self
        renderer.formats.append(format)
        renderer.decoders[format] = decoder
        return renderer
    }
}
