extension JSONParseError {
    /// The 1-based line and column of the problem in `bytes` (the document it was read from), as an
    /// editor shows them: columns count characters, not bytes, and a tab counts as one.
    public func location(in bytes: some Collection<UInt8>) -> (line: Int, column: Int) {
        var line = 1, column = 1
        // A byte order mark is no character an editor shows.
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        for byte in bytes.prefix(offset).dropFirst(start) {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // UTF-8 continuation bytes belong to the character already counted.
                column += 1
            }
        }
        return (line, column)
    }
}
