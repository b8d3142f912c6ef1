import FuzzEntries

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzTarget.camt.fuzzOne(start, count)
}
