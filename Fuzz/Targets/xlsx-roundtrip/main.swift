import FuzzEntries

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzTarget.xlsxRoundTrip.fuzzOne(start, count)
}
