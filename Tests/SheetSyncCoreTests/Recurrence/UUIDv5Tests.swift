import Foundation
import Testing

@testable import SheetSyncCore

@Suite struct UUIDv5Tests {
    /// Bytes `(i·7 + 3) mod 256`, whose digests were computed with Python's hashlib.
    private func pattern(_ count: Int) -> [UInt8] { (0..<count).map { UInt8((($0 * 7) + 3) % 256) } }

    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha1MatchesFIPSVectors() {
        #expect(hex(SHA1.digest(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(
            hex(SHA1.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        #expect(
            hex(SHA1.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)))
                == "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    @Test(arguments: [
        (0, "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
        (1, "9842926af7ca0a8cca12604f945414f07b01e13d"),
        (55, "ddf57317ef34bfee3b6df83d359098930eb278bc"),
        (56, "a0d492bb0fc889d0eca3bc137066ab6f4f74f369"),
        (57, "11a02dcf95859677a62e75024067c22b165d890f"),
        (63, "c55856749bef509bdfe6bfebfc7bf4e793e82132"),
        (64, "bede92be29c3874e1b54ddc77988d606fc857a8e"),
        (65, "b05a80522b053d6dc7e0a517d0e70212c7dad11f"),
        (119, "504e27376a6e0f0dba8295b85cb25dc4dfa17d23"),
        (120, "82134b02fb3f702491be9bed581eeab59334acb2"),
        (128, "a09133e6730ffe899efb70204cb5646cd5dc24ee"),
        (1000, "4231a8a50a10fa9758db8ec71fdef855b751048a"),
    ])
    func sha1PadsEveryLengthAroundBlockBoundaries(length: Int, digest: String) {
        #expect(hex(SHA1.digest(pattern(length))) == digest)
    }

    @Test func uuidv5MatchesPythonUUID5Vectors() {
        #expect(UUIDv5.make(namespace: UUIDv5.dnsNamespace, name: "python.org") == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
        #expect(UUIDv5.make(namespace: UUIDv5.urlNamespace, name: "http://python.org/") == "4c565f0d-3f5a-5890-b41b-20cf47701c5e")
        #expect(UUIDv5.make(namespace: UUIDv5.dnsNamespace, name: "www.example.com") == "2ed6657d-e927-568b-95e1-2665a8aea6a2")
        #expect(UUIDv5.make(namespace: UUIDv5.dnsNamespace, name: "") == "4ebd0208-8328-5d69-8c44-ec50939c0967")
        #expect(UUIDv5.make(namespace: UUIDv5.dnsNamespace, name: "café ☕") == "7dd36fd9-9ba7-5311-be09-0745a6aa26cf")
    }

    @Test func namespaceMayBeGivenAsTextInAnyCase() {
        #expect(
            UUIDv5.make(namespace: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8", name: "python.org")
                == "886313e1-3b8a-5372-9b90-0c9aee199e5d")
        #expect(UUIDv5.make(namespace: "not-a-uuid", name: "python.org") == nil)
    }

    @Test func sheetsyncNamespaceIsTheDocumentedRandomUUID() {
        #expect(UUIDv5.sheetsyncNamespace.uuidString.lowercased() == "9f44c194-5151-456e-a1af-6d556a45a2f0")
    }

    @Test func instanceIdHashesRuleIdSlashDateUnderSheetsyncNamespace() {
        let ruleId = "3f2b8c1e-4a5d-4e6f-8a7b-9c0d1e2f3a4b"
        let jan31 = LocalDate(year: 2026, month: 1, day: 31)
        let feb28 = LocalDate(year: 2026, month: 2, day: 28)
        // Expected values from Python: uuid5(UUID('9f44c194-…'), '<ruleId>/<date>').
        #expect(jan31.map { Materializer.instanceId(ruleId: ruleId, date: $0) } == "adba36c7-1528-5fcb-aaf2-cca5a615920e")
        #expect(feb28.map { Materializer.instanceId(ruleId: ruleId, date: $0) } == "59f4198d-75c9-5ece-aec9-00b5c35de262")
        #expect(jan31.map { Materializer.instanceId(ruleId: ruleId.uppercased(), date: $0) } == "adba36c7-1528-5fcb-aaf2-cca5a615920e")
    }
}
