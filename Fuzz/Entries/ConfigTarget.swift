import SheetSync

/// The config loader, on a config file holding the input.
enum ConfigTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        guard let url = FuzzScratch.write(bytes, named: "sheetsync.json") else { return }
        defer { FuzzScratch.remove(url) }
        _ = try? Config.load(url)
    }
}
