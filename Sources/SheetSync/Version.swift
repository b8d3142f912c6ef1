/// sheetsync's version: `sheetsync --version` and every `--json` failure carry it.
public enum SheetSyncVersion {
    public static let current = "0.3.0"
}
