// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "sheetsync",
    platforms: [.macOS(.v15)],  // Synchronization.Mutex
    products: [
        .executable(name: "sheetsync", targets: ["sheetsync"]),
        .executable(name: "sheetsync-emulator", targets: ["sheetsync-emulator"]),
        .library(name: "SheetSync", targets: ["SheetSync"]),
        .library(name: "SheetsEmulator", targets: ["SheetsEmulator"]),
        // The fuzz targets' entry points, for the libFuzzer executables of Fuzz/Package.swift (FUZZING.md).
        .library(name: "FuzzEntries", targets: ["FuzzEntries"]),
    ],
    // An application pins: these are the versions the test suite ran against (docs/dependencies.md).
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/apple/swift-crypto", exact: "3.12.3"),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", exact: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    ],
    targets: [
        // libcurl's headers only: the library is opened on the first Google request (CCurl/shim.h), so
        // that no command pays for loading it and its 30 libraries at start (docs/performance.md).
        .systemLibrary(name: "CCurl"),
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(name: "CFileSystem"),
        .systemLibrary(name: "CZlibCRC", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        .systemLibrary(name: "CSQLiteConfig", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "Interchange"),
        .target(name: "SheetValues"),
        .target(name: "SheetSyncCore", dependencies: ["SheetValues", "Interchange"]),
        // Bank statements (OFX, QIF, CAMT.053, bank CSV): bytes in, entries out, no I/O.
        .target(name: "Statements", dependencies: ["SheetSyncCore", "CLibXML2"]),
        .target(
            name: "Workbook",
            dependencies: [
                "SheetValues", "Interchange", "CLibXML2", "CFileSystem", "CZlibCRC",
            ]
        ),
        .target(
            name: "GoogleAPI",
            dependencies: [
                "CCurl", "Interchange",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SheetSyncStore",
            dependencies: [
                "SheetSyncCore", "SheetValues", "Interchange", .product(name: "GRDB", package: "GRDB.swift"),
                // SQLite's C API for the engine's bulk writes (RawStatement.swift).
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                // sqlite3_config, which is variadic (SQLiteProcessSettings.swift).
                "CSQLiteConfig",
            ]
        ),
        .target(
            name: "SheetSync",
            dependencies: [
                "SheetSyncCore", "SheetValues", "Interchange", "Workbook", "GoogleAPI", "SheetSyncStore", "Statements",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "sheetsync",
            dependencies: [
                "SheetSync", "SheetSyncCore", "SheetSyncStore", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SheetsEmulator",
            dependencies: [
                "Interchange",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            resources: [.copy("Discovery")]
        ),
        .executableTarget(name: "sheetsync-emulator", dependencies: ["SheetsEmulator"]),
        .testTarget(name: "InterchangeTests", dependencies: ["Interchange"]),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "SheetSyncCoreTests", dependencies: ["SheetSyncCore", "SheetValues", "TestSupport"]),
        .testTarget(
            name: "WorkbookTests", dependencies: ["Workbook", "SheetValues", "SheetSyncCore", "TestSupport"], resources: [.copy("Fixtures")]
        ),
        .testTarget(name: "StatementsTests", dependencies: ["Statements", "SheetSyncCore"], resources: [.copy("Fixtures")]),
        .testTarget(
            name: "GoogleAPITests",
            dependencies: [
                "GoogleAPI", "Interchange", "TestSupport", .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SheetSyncStoreTests",
            dependencies: ["SheetSyncStore", "SheetSyncCore", "SheetValues", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")],
            // The store's schema text is read by path (see StoreSchemaTextTests).
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SheetSyncTests",
            dependencies: [
                "SheetSync", "SheetSyncCore", "SheetValues", "SheetSyncStore", "Workbook", "GoogleAPI", "SheetsEmulator", "Interchange", "Statements",
                "TestSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // Fixture workbooks are read by path (see Support/XLSXFixture.swift), not bundled.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "SheetsEmulatorTests",
            dependencies: ["SheetsEmulator", "GoogleAPI", "Interchange", .product(name: "Crypto", package: "swift-crypto")]
        ),
        // Fuzz entry points, shared by the libFuzzer executables (Fuzz/) and the regression tests.
        .target(
            name: "FuzzEntries",
            dependencies: [
                "SheetSyncCore", "SheetValues", "Interchange", "Workbook", "GoogleAPI", "SheetSync", "Statements",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ],
            path: "Fuzz/Entries"
        ),
        .testTarget(name: "FuzzRegressionTests", dependencies: ["FuzzEntries", "SheetSyncCore", "SheetValues", "Workbook"]),
    ]
)

for target in package.targets where target.type != .system {
    var settings = target.swiftSettings ?? []
    settings.append(.swiftLanguageMode(.v6))
    // A file uses only the modules it imports itself (not whatever another file of the target imports).
    settings.append(.enableUpcomingFeature("MemberImportVisibility"))
    // An existential is spelled `any P`, so a protocol used as a type is visible as one.
    settings.append(.enableUpcomingFeature("ExistentialAny"))
    // Warnings are errors in the package's own code (dependencies' warnings are not shown).
    settings.append(.treatAllWarnings(as: .error))
    target.swiftSettings = settings
}
