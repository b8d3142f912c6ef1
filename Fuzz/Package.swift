// swift-tools-version:5.4
// libFuzzer executables, one per reader (see FUZZING.md). A package of its own so that nothing here is
// linked into `sheetsync` and the root package's `swift build` never builds them. Build with
// `scripts/fuzz.sh`, which passes `-sanitize=fuzzer,address` and `-parse-as-library` (libFuzzer brings `main`).
// Tools version 5.4 on purpose: from 5.5 on SwiftPM renames an executable's entry point and links
// `main` to `<module>_main`, which a libFuzzer target (whose `main` is libFuzzer's) does not have.
// The targets are five-line wrappers; the code they run (`FuzzEntries`) is built in Swift 6 mode.
import PackageDescription

let targets = [
    "csv", "xlsx-package", "xlsx-part", "fields", "config", "google-json", "csv-roundtrip", "xlsx-roundtrip", "terminal-text",
    "ofx", "qif", "camt", "statement-csv",
]

let package = Package(
    name: "sheetsync-fuzz",
    products: targets.map { .executable(name: "fuzz-\($0)", targets: ["fuzz-\($0)"]) },
    dependencies: [.package(name: "sheetsync", path: "..")],
    targets: targets.map { name in
        .executableTarget(
            name: "fuzz-\(name)",
            dependencies: [.product(name: "FuzzEntries", package: "sheetsync")],
            path: "Targets/\(name)"
        )
    }
)
