// swift-tools-version:6.0
import PackageDescription

/// One executable, `assetfs`. C stays at the edge: system-library targets (CLinux: the Linux calls
/// glibc does not wrap; CSQLite, CFUSE, CExif) and one small C bridge per decoding library (CJPEG,
/// whose fatal errors arrive by longjmp; CPNG, CGIF, CWebP, CTIFF, CRaw, CHEIF, CVideo, CLCMS), each
/// returning a failure's kind (CBridgeFailure's, which Swift maps) and a message for people.
///
/// Everything is built with checked arithmetic except `RenditionsKernels`: the resampler's
/// horizontal pass and its rounding to bytes, raw-pointer loops over sizes that checked code in
/// `Renditions` validates. Without -Ounchecked there, a 1920 px render takes 5-9% more
/// instructions, a 256 px one under 1% (the rounding vectorises only without its range check);
/// bench/unchecked-bench.sh measures it.
///
/// A debug build optimises that target too (-O, checks kept): its SIMD vectors, unoptimised, made
/// a debug render of a 24 MP photo at 1920 px take 41 s, and the ASan daemons of the tests are
/// debug builds.
let unchecked: [SwiftSetting] = [.unsafeFlags(["-Ounchecked"], .when(configuration: .release)),
                                 .unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "assetfs",
    products: [.executable(name: "assetfs", targets: ["assetfs"])],
    targets: [
        .systemLibrary(name: "CFUSE", pkgConfig: "fuse3", providers: [.apt(["libfuse3-dev"])]),
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CExif", pkgConfig: "libexif", providers: [.apt(["libexif-dev"])]),
        .systemLibrary(name: "CLinux"),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // What a bridge's failure is (BRIDGE_FAILURE_*), for Swift to act on without reading its message.
        .target(name: "CBridgeFailure"),
        .target(name: "CJPEG", dependencies: ["CBridgeFailure"], linkerSettings: [.linkedLibrary("jpeg")]),
        // One small C target per image library (issue 10), each catching its library's errors.
        .target(name: "CLCMS", linkerSettings: [.linkedLibrary("lcms2")]),
        .target(name: "CPNG", dependencies: ["CBridgeFailure"], linkerSettings: [.linkedLibrary("png16")]),
        .target(name: "CWebP", dependencies: ["CBridgeFailure"], linkerSettings: [.linkedLibrary("webp"), .linkedLibrary("webpdemux")]),
        .target(name: "CGIF", dependencies: ["CBridgeFailure"], linkerSettings: [.linkedLibrary("gif")]),
        .target(name: "CLoadOnFirstUse", linkerSettings: [.linkedLibrary("dl")]),  // dlopen for the four below
        // libtiff, libheif and LibRaw: loaded on first use, like FFmpeg below. Linked, libtiff and LibRaw
        // brought nine more libraries to every start of assetfs (every `render` of a JPEG).
        .target(name: "CTIFF", dependencies: ["CLoadOnFirstUse", "CBridgeFailure"]),
        .target(name: "CHEIF", dependencies: ["CLoadOnFirstUse", "CBridgeFailure"]),
        .target(name: "CRaw", dependencies: ["CLoadOnFirstUse", "CBridgeFailure"]),
        // Videos (issue 20): FFmpeg 5.1's demuxers, decoders and scaler, read through our own I/O,
        // loaded on first use (dlopen) like libheif: linked, they were 115 more libraries at every start.
        .target(name: "CVideo", dependencies: ["CLoadOnFirstUse", "CBridgeFailure"]),

        .target(name: "Posix", dependencies: ["CLinux"]),
        // The container walkers (TIFF structures, ISO boxes, PNG chunks, CR3 metadata boxes): read
        // where they lie, no C library; the scanner, the renderer and the properties share them.
        .target(name: "Containers", dependencies: ["Posix"]),
        // The resampler's AVX2 code, chosen at run time (the file builds for any CPU).
        .target(name: "CResampleKernels"),
        .target(name: "RenditionsKernels", dependencies: ["CResampleKernels"], swiftSettings: unchecked),
        .target(name: "Renditions", dependencies: ["CBridgeFailure", "CJPEG", "CExif", "CLCMS", "CPNG", "CWebP", "CGIF", "CTIFF", "CHEIF", "CRaw",
                                                  "Video", "Containers", "Posix", "PhotoSource", "RenditionsKernels"]),
        .target(name: "PhotoSource", dependencies: ["Containers", "Posix"]),
        .target(name: "Video", dependencies: ["CBridgeFailure", "CVideo", "Containers", "Posix"]),
        .target(name: "PhotoProperties", dependencies: ["CExif", "Containers", "PhotoSource", "Video", "Posix"]),
        // Offline reverse geocoding (issue 31's places/): GeoNames' populated places, built into the
        // binary by CPlaces (tools/make-places.py makes its table; GEONAMES.md: licence, attribution).
        .target(name: "CPlaces", exclude: ["places.bin", "GEONAMES.md"]),
        .target(name: "Places", dependencies: ["CPlaces"]),
        .target(name: "Catalog", dependencies: ["PhotoSource", "Places", "SQLiteDatabase", "Posix"]),
        // The mount's shape, defined once: the layout and its names, the sizes, inode numbers, the
        // tree over the catalog's rows, and what the kernel must forget when rows change.
        .target(name: "MountModel", dependencies: ["Catalog", "PhotoSource", "Renditions"]),
        .target(name: "SQLiteDatabase", dependencies: ["CSQLite", "Posix"]),
        .target(name: "RenditionCache", dependencies: ["SQLiteDatabase", "Posix"]),
        .target(name: "AssetFS", dependencies: ["MountModel", "Catalog", "PhotoSource", "PhotoProperties", "Places", "Renditions", "RenditionCache", "SQLiteDatabase", "Posix"]),
        .target(name: "FUSEAdapter", dependencies: ["CFUSE", "AssetFS", "Catalog", "MountModel", "Posix"]),
        .target(name: "DesktopThumbnails", dependencies: ["CLibPNG", "Posix"]),
        .target(name: "AssetFSCLI", dependencies: ["FUSEAdapter", "AssetFS", "MountModel", "Catalog", "Renditions", "RenditionCache", "PhotoSource", "Posix", "DesktopThumbnails"]),
        .executableTarget(name: "assetfs", dependencies: ["AssetFSCLI", "Posix"]),
        // bench/video-bench.sh's poster maker, until the command line renders videos.
        // bench/places-bench.sh's timer of the place finder.
        .executableTarget(name: "places-lookup", dependencies: ["Places"], path: "bench/places-lookup"),
        .executableTarget(name: "video-poster", dependencies: ["Renditions", "Video", "Posix"], path: "bench/video-poster"),

        // Names Tests/Fixtures (the vendored test photos) for the test targets that read them, and
        // holds what tests share (a seeded random generator).
        .target(name: "TestFixtures", path: "Tests/TestFixtures"),
        .testTarget(name: "PosixTests", dependencies: ["Posix"]),
        .testTarget(name: "ContainersTests", dependencies: ["Containers", "Posix"]),
        .testTarget(name: "VideoTests", dependencies: ["Video", "CBridgeFailure", "CVideo", "Containers", "Posix", "TestFixtures"]),
        .testTarget(name: "RenditionsTests", dependencies: ["CBridgeFailure", "Containers", "Video", "Renditions", "RenditionsKernels", "Posix", "PhotoSource", "TestFixtures"]),
        .testTarget(name: "PhotoSourceTests", dependencies: ["PhotoSource", "Posix"]),
        .testTarget(name: "PhotoPropertiesTests", dependencies: ["Containers", "Video", "PhotoProperties", "PhotoSource", "Renditions", "Posix", "TestFixtures"]),
        .testTarget(name: "PlacesTests", dependencies: ["Places"]),
        .testTarget(name: "CatalogTests", dependencies: ["Catalog", "Places", "PhotoSource", "SQLiteDatabase", "Posix", "TestFixtures"]),
        .testTarget(name: "MountModelTests", dependencies: ["MountModel", "Catalog", "Places", "PhotoSource", "Posix", "SQLiteDatabase", "TestFixtures"]),
        .testTarget(name: "SQLiteDatabaseTests", dependencies: ["SQLiteDatabase", "Posix"]),
        .testTarget(name: "RenditionCacheTests", dependencies: ["RenditionCache", "SQLiteDatabase", "Posix"]),
        .testTarget(name: "AssetFSTests", dependencies: ["Containers", "AssetFS", "Places", "MountModel", "Catalog", "PhotoSource", "PhotoProperties", "Renditions", "RenditionCache", "Posix", "SQLiteDatabase", "TestFixtures"]),
        .testTarget(name: "FUSEAdapterTests", dependencies: ["FUSEAdapter", "AssetFS", "MountModel", "CFUSE", "Posix"]),
        .testTarget(name: "DesktopThumbnailsTests", dependencies: ["DesktopThumbnails", "Posix"]),
        .testTarget(name: "AssetFSCLITests", dependencies: ["AssetFSCLI", "MountModel", "AssetFS", "PhotoSource", "Renditions", "Containers", "assetfs", "Posix", "TestFixtures"]),
    ]
)
