/// One `<Relationship>` of a `.rels` part, with its target resolved to a part name.
///
/// A target is resolved when the part is read but judged only when sheetsync follows it: a
/// relationship whose target names no part of the package (`../customXml/item1.xml` in a package's
/// own `_rels/.rels`, as LibreOffice writes it; an absolute path; a URL without
/// `TargetMode="External"`) is kept, unfollowed, when nothing sheetsync reads goes through it, and
/// refused (`followed(file:)`) when something does. A push copies every `.rels` part it does not edit
/// byte for byte, so links sheetsync does not use stay as the producer wrote them.
struct Relationship: Equatable {
    /// Where a relationship points.
    enum Destination: Equatable {
        /// A part of this package (resolved, `/`-separated, from the package root).
        case part(String)
        /// `TargetMode="External"`: a URL or another file, never opened.
        case external
        /// A target that names no part of this package, as written, and why.
        case outside(written: String, problem: PartPath.Problem)
    }

    var id: String
    /// The full type URI; compare with `isType(_:)`, which ignores the Transitional/Strict prefix.
    var type: String
    var destination: Destination
    /// The `.rels` part the relationship was read from (what a refusal names).
    var relsPart: String

    /// The resolved part name, or nil when the target is external or names no part of the package:
    /// for looking a part up, never for following a link (that is `followed(file:)`).
    var target: String? {
        if case .part(let part) = destination { return part }
        return nil
    }

    /// Whether the type ends in `/<suffix>`: Transitional (`schemas.openxmlformats.org/…`) and
    /// Strict (`purl.oclc.org/ooxml/…`) type URIs differ only before the last segment.
    func isType(_ suffix: String) -> Bool {
        type.hasSuffix("/" + suffix)
    }

    /// The part this relationship leads to, for code that reads or edits it: nil for an external
    /// target; a target outside the package is refused, naming the `.rels` part, the relationship
    /// and its target.
    func followed(file: String) throws(XLSXError) -> String? {
        switch destination {
        case .part(let part): return part
        case .external: return nil
        case .outside(let written, let problem):
            let kind = type.split(separator: "/").last.map { "\($0) " } ?? ""
            throw XLSXError(
                .unsafePath, file: file, part: relsPart,
                "has a \(kind)relationship '\(id)' whose target '\(written)' \(problem.phrase) (refused: sheetsync would follow it)")
        }
    }
}

extension PartPath.Problem {
    /// Why a relationship target names no part, for a message.
    var phrase: String {
        switch self {
        case .absolute: "lies outside the package: it is an absolute path or a URL"
        case .climbsOut: "lies outside the package: its '..' climbs above the package root"
        case .empty: "is empty: it names no part of the package"
        }
    }
}

/// Reads a `.rels` part.
final class RelationshipsHandler: XMLEventHandler {
    private let source: String
    private let relsPart: String
    private(set) var relationships: [Relationship] = []

    /// `source` is the part the relationships belong to (`""` for the package itself).
    init(source: String, relsPart: String) {
        self.source = source
        self.relsPart = relsPart
    }

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
        guard name == "Relationship" else { return }
        guard let id = attributes.string("Id"), let type = attributes.string("Type"),
            let target = attributes.string("Target")
        else { return }
        let destination: Relationship.Destination
        if attributes.string("TargetMode")?.lowercased() == "external" {
            destination = .external
        } else {
            do {
                destination = .part(try PartPath.resolve(target: target, from: source))
            } catch {
                destination = .outside(written: target, problem: error)
            }
        }
        relationships.append(Relationship(id: id, type: type, destination: destination, relsPart: relsPart))
    }

    func endElement(_ name: XMLName) throws {}
    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {}
}

extension XLSXPackage {
    /// The relationships part of `part` (`""` for the package: `_rels/.rels`).
    static func relationshipsPart(of part: String) -> String {
        part.isEmpty ? "_rels/.rels" : PartPath.relationshipsPart(of: part)
    }

    /// The relationships of `part` (`""` for the package), or none when it has no `.rels` part.
    /// Targets outside the package are listed, not refused: `Relationship.followed(file:)` refuses
    /// them where sheetsync would follow one.
    func relationships(of part: String) throws -> [Relationship] {
        let relsPart = Self.relationshipsPart(of: part)
        guard contains(relsPart) else { return [] }
        let handler = RelationshipsHandler(source: part, relsPart: relsPart)
        try parse(relsPart, with: handler)
        return handler.relationships
    }
}
