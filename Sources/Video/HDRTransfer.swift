/// The HDR transfers (H.273 codes) assetfs tone-maps: named by a video's stream header or a
/// HEIF's nclx box; Renditions holds the mapping itself (`HDRToneMapping.swift`).
public enum HDRTransfer: Int, Sendable {
    /// SMPTE ST 2084.
    case pq = 16
    /// ARIB STD-B67.
    case hlg = 18
}
