/// Removes credentials from text before it reaches a log line or an error message.
///
/// Covers `Authorization`-style header lines, `Bearer` tokens anywhere, JSON string members and
/// form/query fields whose names carry secrets (`access_token`, `refresh_token`, `assertion`, …).
public enum Redaction {
    /// What a secret is replaced with.
    public static let placeholder = "REDACTED"

    static let secretFieldNames: [String] = [
        "access_token", "refresh_token", "id_token", "client_secret", "private_key", "assertion",
        "code", "code_verifier", "password",
    ]
    static let secretHeaderNames: [String] = ["authorization", "proxy-authorization", "cookie", "set-cookie"]

    /// The text with every recognised secret replaced by `placeholder`.
    public static func redact(_ text: String) -> String {
        var bytes = Array(text.utf8)
        bytes = redactHeaderLines(bytes)
        bytes = redactBearer(bytes)
        for name in secretFieldNames {
            bytes = redactJSONMember(name, in: bytes)
            bytes = redactFormField(name, in: bytes)
        }
        bytes = redactPrivateKeys(bytes)
        for prefix in secretPrefixes { bytes = redactPrefixed(prefix, in: bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Secrets Google issues in recognisable shapes, found wherever they stand (an error body may quote a
    /// request without naming its fields): access tokens, refresh tokens, OAuth client secrets, and
    /// JWTs, whose base64url header always begins `eyJ` (`{"`).
    static let secretPrefixes: [[UInt8]] = ["ya29.", "1//", "GOCSPX-", "eyJ"].map { Array($0.utf8) }

    private static func isSecretByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        case UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "/"), UInt8(ascii: "+"), UInt8(ascii: "="),
            UInt8(ascii: "~"), UInt8(ascii: "%"):
            return true
        default:
            return false
        }
    }

    /// Replaces `prefix` and the token characters after it, when it starts a word.
    private static func redactPrefixed(_ prefix: [UInt8], in bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let startsWord = index == 0 || !isSecretByte(bytes[index - 1])
            guard startsWord, bytes[index] == prefix[0], index + prefix.count < bytes.count,
                Array(bytes[index..<index + prefix.count]) == prefix, isSecretByte(bytes[index + prefix.count])
            else {
                output.append(bytes[index])
                index += 1
                continue
            }
            output.append(contentsOf: placeholderBytes)
            index += prefix.count
            while index < bytes.count, isSecretByte(bytes[index]) { index += 1 }
        }
        return output
    }

    /// Replaces PEM private key blocks, with or without their closing line.
    private static func redactPrivateKeys(_ bytes: [UInt8]) -> [UInt8] {
        let begin = Array("-----BEGIN".utf8), keyWord = Array("PRIVATE KEY-----".utf8), end = Array("-----END".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard matches(bytes, at: index, begin.map(lowercased)),
                let keyAt = (index..<min(bytes.count, index + 40)).first(where: { matches(bytes, at: $0, keyWord.map(lowercased)) })
            else {
                output.append(bytes[index])
                index += 1
                continue
            }
            var cursor = keyAt + keyWord.count
            while cursor < bytes.count, !matches(bytes, at: cursor, end.map(lowercased)) { cursor += 1 }
            if cursor < bytes.count {
                cursor += end.count
                while cursor < bytes.count, bytes[cursor] != 0x0A, bytes[cursor] != UInt8(ascii: "\"") { cursor += 1 }
            }
            output.append(contentsOf: placeholderBytes)
            index = cursor
        }
        return output
    }

    private static let placeholderBytes = Array(placeholder.utf8)

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
    }

    private static func matches(_ bytes: [UInt8], at start: Int, _ word: [UInt8]) -> Bool {
        guard start + word.count <= bytes.count else { return false }
        for offset in 0..<word.count where lowercased(bytes[start + offset]) != word[offset] { return false }
        return true
    }

    private static func redactHeaderLines(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var lineStart = 0
        while lineStart < bytes.count {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A, bytes[lineEnd] != 0x0D { lineEnd += 1 }
            var replaced = false
            for name in secretHeaderNames {
                let word = Array(name.utf8) + [UInt8(ascii: ":")]
                if matches(bytes, at: lineStart, word) {
                    output.append(contentsOf: bytes[lineStart..<lineStart + word.count])
                    output.append(0x20)
                    output.append(contentsOf: placeholderBytes)
                    replaced = true
                    break
                }
            }
            if !replaced { output.append(contentsOf: bytes[lineStart..<lineEnd]) }
            var next = lineEnd
            while next < bytes.count, bytes[next] == 0x0A || bytes[next] == 0x0D {
                output.append(bytes[next])
                next += 1
            }
            lineStart = next
        }
        return output
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "&"), UInt8(ascii: ","):
            return false
        default:
            return true
        }
    }

    private static func redactBearer(_ bytes: [UInt8]) -> [UInt8] {
        let word = Array("bearer ".utf8)
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if matches(bytes, at: index, word) {
                output.append(contentsOf: bytes[index..<index + word.count])
                index += word.count
                guard index < bytes.count, isTokenByte(bytes[index]) else { continue }
                while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
                output.append(contentsOf: placeholderBytes)
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return output
    }

    /// Replaces the string value of `"name": "..."` with the placeholder.
    private static func redactJSONMember(_ name: String, in bytes: [UInt8]) -> [UInt8] {
        let key = [UInt8(ascii: "\"")] + Array(name.utf8) + [UInt8(ascii: "\"")]
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard matches(bytes, at: index, key) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            var cursor = index + key.count
            while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: ":") else {
                output.append(contentsOf: bytes[index..<cursor])
                index = cursor
                continue
            }
            cursor += 1
            while cursor < bytes.count, bytes[cursor] == 0x20 || bytes[cursor] == 0x09 { cursor += 1 }
            // Only string values are secrets; `"code": 403` in an error body stays readable.
            guard cursor < bytes.count, bytes[cursor] == UInt8(ascii: "\"") else {
                output.append(contentsOf: bytes[index..<cursor])
                index = cursor
                continue
            }
            output.append(contentsOf: bytes[index..<cursor])
            output.append(UInt8(ascii: "\""))
            output.append(contentsOf: placeholderBytes)
            output.append(UInt8(ascii: "\""))
            cursor += 1
            while cursor < bytes.count, bytes[cursor] != UInt8(ascii: "\"") {
                cursor += bytes[cursor] == UInt8(ascii: "\\") ? 2 : 1
            }
            cursor = min(cursor + 1, bytes.count)
            index = cursor
        }
        return output
    }

    /// Replaces the value of `name=...` in form bodies and query strings.
    private static func redactFormField(_ name: String, in bytes: [UInt8]) -> [UInt8] {
        let key = Array(name.utf8) + [UInt8(ascii: "=")]
        let boundaries: [UInt8] = [UInt8(ascii: "&"), UInt8(ascii: "?"), 0x20, 0x0A, 0x0D, 0x09]
        var output: [UInt8] = []
        var index = 0
        while index < bytes.count {
            let atBoundary = index == 0 || boundaries.contains(bytes[index - 1])
            guard atBoundary, matches(bytes, at: index, key) else {
                output.append(bytes[index])
                index += 1
                continue
            }
            output.append(contentsOf: bytes[index..<index + key.count])
            output.append(contentsOf: placeholderBytes)
            index += key.count
            while index < bytes.count, isTokenByte(bytes[index]) { index += 1 }
        }
        return output
    }
}
