// swift-tools-version:6.0
import PackageDescription

/// One executable, `assetfs`. C stays at the edge: three system-library targets and one
/// small C target (`CJPEG`) for libjpeg, whose fatal errors arrive by longjmp.
///
/// Everything is built with checked arithmetic except `RenditionsKernels`: the resampler's
/// horizontal pass and its rounding to bytes, raw-pointer loops over sizes that checked code in
/// `Renditions` validates. Without -Ounchecked there, a 1920 px render takes 5-9% more
/// instructions, a 256 px one under 1% (the rounding vectorises only without its range check);
/// bench/unchecked-bench.sh measures it.
let unchecked: [SwiftSetting] = [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]

let package = Package(
    name: "assetfs",
    products: [.executable(name: "assetfs", targets: ["assetfs"])],
    targets: [
        .systemLibrary(name: "CFUSE", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .target(name: "CJPEG", linkerSettings: [.linkedLibrary("jpeg")]),

        .target(name: "Posix"),
        .target(name: "RenditionsKernels", swiftSettings: unchecked),
        .target(name: "Renditions", dependencies: ["CJPEG", "CExif", "Posix", "RenditionsKernels"]),
        .target(name: "PhotoSource", dependencies: ["Posix"]),
        .target(name: "Catalog", dependencies: ["PhotoSource"]),
        .target(name: "RenditionCache", dependencies: ["CSQLite", "Posix"]),
        .target(name: "AssetFS", dependencies: ["Catalog", "PhotoSource", "Renditions", "RenditionCache", "Posix"]),
        .target(name: "FUSEAdapter", dependencies: ["CFUSE", "AssetFS", "Posix"]),
        .target(name: "AssetFSCLI", dependencies: ["FUSEAdapter", "AssetFS", "Renditions", "RenditionCache", "PhotoSource", "Posix"]),
        .executableTarget(name: "assetfs", dependencies: ["AssetFSCLI"]),

        .testTarget(name: "PosixTests", dependencies: ["Posix"]),
        .testTarget(name: "RenditionsTests", dependencies: ["Renditions", "RenditionsKernels", "Posix"]),
        .testTarget(name: "PhotoSourceTests", dependencies: ["PhotoSource", "Posix"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "PhotoSource"]),
        .testTarget(name: "RenditionCacheTests", dependencies: ["RenditionCache", "Posix"]),
        .testTarget(name: "AssetFSTests", dependencies: ["AssetFS", "Renditions", "RenditionCache", "Posix"]),
        .testTarget(name: "AssetFSCLITests", dependencies: ["AssetFSCLI", "assetfs", "Posix"]),
    ]
)
