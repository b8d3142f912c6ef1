extension CSVParser {
    /// Strict UTF-8 validation that reports where the first bad byte is.
    ///
    /// The standard library repairs bad input silently (`String(decoding:as:)`) or answers only
    /// yes/no (`String(validating:as:)`); a user fixing a file needs the offset. Rules follow the
    /// Unicode standard's table 3-7: no overlong forms, no surrogates, nothing above U+10FFFF.
    enum UTF8Validation {
        /// The index of the first byte of the first invalid sequence in `bytes`, or nil when all
        /// of `bytes` is UTF-8.
        static func firstInvalidIndex(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
            var i = 0
            let n = bytes.count
            while i < n {
                let lead = bytes[i]
                if lead < 0x80 {
                    i += 1
                    continue
                }
                let length: Int
                var low: UInt8 = 0x80
                var high: UInt8 = 0xBF
                switch lead {
                case 0xC2...0xDF:
                    length = 2
                case 0xE0:
                    length = 3
                    low = 0xA0
                case 0xE1...0xEC, 0xEE...0xEF:
                    length = 3
                case 0xED:
                    length = 3
                    high = 0x9F
                case 0xF0:
                    length = 4
                    low = 0x90
                case 0xF1...0xF3:
                    length = 4
                case 0xF4:
                    length = 4
                    high = 0x8F
                default:
                    return i
                }
                guard i + length <= n else { return i }
                let second = bytes[i + 1]
                guard second >= low, second <= high else { return i }
                var k = 2
                while k < length {
                    guard bytes[i + k] & 0xC0 == 0x80 else { return i }
                    k += 1
                }
                i += length
            }
            return nil
        }
    }
}
