import Foundation

/// Part names inside an OPC package: always relative to the package root, `/`-separated, no `..`.
enum PartPath {
    /// Why a name was refused.
    enum Problem: Error, Equatable {
        case absolute
        case climbsOut
        case empty
    }

    /// Checks a ZIP entry name: it must name a place inside the package.
    ///
    /// OPC part names never hold `..` segments, so any `..` (with either separator, as Windows
    /// tools write them) is refused rather than normalised.
    static func validateEntryName(_ name: String) throws(Problem) {
        if name.isEmpty { throw .empty }
        if name.hasPrefix("/") || name.hasPrefix("\\") || hasDrivePrefix(name) { throw .absolute }
        let segments = name.split(omittingEmptySubsequences: true) { $0 == "/" || $0 == "\\" }
        if segments.contains("..") { throw .climbsOut }
    }

    /// Resolves a relationship target against the part that holds the relationship.
    ///
    /// `source` is the part name (`xl/workbook.xml`) or `""` for the package's own `_rels/.rels`.
    /// A target starting with `/` is relative to the package root (OPC allows both forms).
    static func resolve(target: String, from source: String) throws(Problem) -> String {
        var raw = target
        if raw.contains("%") { raw = raw.removingPercentEncoding ?? raw }
        if raw.isEmpty { throw .empty }
        if hasDrivePrefix(raw) || raw.hasPrefix("//") || raw.contains("://") { throw .absolute }
        var segments: [Substring]
        if raw.hasPrefix("/") {
            segments = []
        } else {
            segments = source.split(separator: "/", omittingEmptySubsequences: true)
            if !segments.isEmpty { segments.removeLast() }  // the source part's own file name
        }
        for segment in raw.split(separator: "/", omittingEmptySubsequences: true) {
            switch segment {
            case ".": continue
            case "..":
                if segments.isEmpty { throw .climbsOut }
                segments.removeLast()
            default: segments.append(segment)
            }
        }
        if segments.isEmpty { throw .empty }
        return segments.joined(separator: "/")
    }

    /// The relationships part of `part`: `xl/workbook.xml` → `xl/_rels/workbook.xml.rels`.
    static func relationshipsPart(of part: String) -> String {
        guard let slash = part.lastIndex(of: "/") else { return "_rels/\(part).rels" }
        let folder = part[..<slash]
        let name = part[part.index(after: slash)...]
        return "\(folder)/_rels/\(name).rels"
    }

    private static func hasDrivePrefix(_ name: String) -> Bool {
        let bytes = Array(name.utf8.prefix(3))
        guard bytes.count >= 2, bytes[1] == UInt8(ascii: ":") else { return false }
        let letter = bytes[0] | 0x20
        return letter >= UInt8(ascii: "a") && letter <= UInt8(ascii: "z")
    }
}
