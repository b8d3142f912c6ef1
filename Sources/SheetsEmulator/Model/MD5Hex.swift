import Crypto
import Foundation

/// Drive reports `md5Checksum` for uploaded content; clients compare it to what they sent.
enum MD5Hex {
    static func digest(_ data: Data) -> String {
        Insecure.MD5.hash(data: data).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
