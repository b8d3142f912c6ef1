/// Deterministic pseudo-random numbers (SplitMix64), the one seeded generator of every test target,
/// so a failing property or model case replays from its seed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound`.
    public mutating func next(below bound: Int) -> Int { Int(next() % UInt64(bound)) }
}

extension SeededRandom {
    /// `text` with one to three characters replaced, inserted or removed, each new one from `alphabet`:
    /// a text near a valid one, for differential tests of readers.
    public mutating func mutated(_ text: String, alphabet: [Character]) -> String {
        var chars = Array(text)
        for _ in 0...next(below: 3) {
            let at = next(below: chars.count + 1)
            switch next(below: 3) {
            case 0 where at < chars.count: chars[at] = alphabet[next(below: alphabet.count)]
            case 1: chars.insert(alphabet[next(below: alphabet.count)], at: at)
            default: if at < chars.count { chars.remove(at: at) }
            }
        }
        return String(chars)
    }
}
