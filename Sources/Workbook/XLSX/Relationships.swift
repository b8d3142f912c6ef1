/// One `<Relationship>` of a `.rels` part, with its target resolved to a part name.
struct Relationship: Equatable {
    var id: String
    /// The full type URI; compare with `isType(_:)`, which ignores the Transitional/Strict prefix.
    var type: String
    /// The resolved part name, or nil for an external target (a URL, a linked file).
    var target: String?

    /// Whether the type ends in `/<suffix>`: Transitional (`schemas.openxmlformats.org/…`) and
    /// Strict (`purl.oclc.org/ooxml/…`) type URIs differ only before the last segment.
    func isType(_ suffix: String) -> Bool {
        type.hasSuffix("/" + suffix)
    }
}

/// Reads a `.rels` part.
final class RelationshipsHandler: XMLEventHandler {
    private let source: String
    private let file: String
    private let relsPart: String
    private(set) var relationships: [Relationship] = []

    /// `source` is the part the relationships belong to (`""` for the package itself).
    init(source: String, relsPart: String, file: String) {
        self.source = source
        self.relsPart = relsPart
        self.file = file
    }

    func startElement(_ name: XMLName, _ attributes: XMLAttributes) throws {
        guard name == "Relationship" else { return }
        guard let id = attributes.string("Id"), let type = attributes.string("Type"),
            let target = attributes.string("Target")
        else { return }
        if attributes.string("TargetMode")?.lowercased() == "external" {
            relationships.append(Relationship(id: id, type: type, target: nil))
            return
        }
        do {
            let part = try PartPath.resolve(target: target, from: source)
            relationships.append(Relationship(id: id, type: type, target: part))
        } catch {
            throw XLSXError(
                .unsafePath, file: file, part: relsPart,
                "has a relationship target '\(target)' outside the package (refused)")
        }
    }

    func endElement(_ name: XMLName) throws {}
    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {}
}

extension XLSXPackage {
    /// The relationships of `part` (`""` for the package), or none when it has no `.rels` part.
    func relationships(of part: String) throws -> [Relationship] {
        let relsPart = part.isEmpty ? "_rels/.rels" : PartPath.relationshipsPart(of: part)
        guard contains(relsPart) else { return [] }
        let handler = RelationshipsHandler(source: part, relsPart: relsPart, file: fileName)
        try parse(relsPart, with: handler)
        return handler.relationships
    }
}
