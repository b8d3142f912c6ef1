import FuzzEntries

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzTarget.ofx.fuzzOne(start, count)
}
