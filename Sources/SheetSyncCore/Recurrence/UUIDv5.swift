import Foundation

/// Name-based UUIDs, version 5 (RFC 4122 §4.3, RFC 9562 §5.5): SHA-1 of namespace + name.
///
/// The same namespace and name give the same UUID on every machine, which is what lets two
/// machines materialize identical recurring instances without talking to each other.
public enum UUIDv5 {
    /// The RFC 4122 namespace for fully qualified domain names.
    public static let dnsNamespace = UUID(
        uuid: (
            0x6b, 0xa7, 0xb8, 0x10, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8
        ))

    /// The RFC 4122 namespace for URLs.
    public static let urlNamespace = UUID(
        uuid: (
            0x6b, 0xa7, 0xb8, 0x11, 0x9d, 0xad, 0x11, 0xd1, 0x80, 0xb4, 0x00, 0xc0, 0x4f, 0xd4, 0x30, 0xc8
        ))

    /// sheetsync's namespace for recurring-instance ids: `9f44c194-5151-456e-a1af-6d556a45a2f0`.
    ///
    /// A random (v4) UUID picked once for this project and never to be changed: changing it
    /// would give every future instance a new id, so a rebuilt store or a second machine would
    /// create duplicates of instances that already exist. The name hashed under it is
    /// `"<recurringRuleId>/<YYYY-MM-DD>"` (lowercase rule id, occurrence date); see
    /// `Materializer.instanceId(ruleId:date:)`.
    public static let sheetsyncNamespace = UUID(
        uuid: (
            0x9f, 0x44, 0xc1, 0x94, 0x51, 0x51, 0x45, 0x6e, 0xa1, 0xaf, 0x6d, 0x55, 0x6a, 0x45, 0xa2, 0xf0
        ))

    /// The version-5 UUID of `name` (hashed as UTF-8) in `namespace`, in lowercase canonical form.
    public static func make(namespace: UUID, name: String) -> String {
        var message: [UInt8] = []
        message.reserveCapacity(16 + name.utf8.count)
        withUnsafeBytes(of: namespace.uuid) { message.append(contentsOf: $0) }
        message.append(contentsOf: name.utf8)
        var bytes = SHA1.digest(message)
        bytes[6] = bytes[6] & 0x0F | 0x50  // version 5
        bytes[8] = bytes[8] & 0x3F | 0x80  // RFC 4122 variant
        return canonical(bytes.prefix(16))
    }

    /// The version-5 UUID of `name` in the namespace written as `namespace` (any case), or nil
    /// when `namespace` is not a UUID.
    public static func make(namespace: String, name: String) -> String? {
        guard let ns = UUID(uuidString: namespace) else { return nil }
        return make(namespace: ns, name: name)
    }

    /// `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` in lowercase hex.
    static func canonical(_ bytes: some Collection<UInt8>) -> String {
        String(unsafeUninitializedCapacity: 2 * bytes.count + 4) { text in
            var count = 0
            for (index, byte) in bytes.enumerated() {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    text[count] = UInt8(ascii: "-")
                    count += 1
                }
                text[count] = hexDigits[Int(byte >> 4)]
                text[count + 1] = hexDigits[Int(byte & 0x0F)]
                count += 2
            }
            return count
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}
