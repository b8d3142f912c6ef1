import FuzzEntries

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzTarget.statementCSV.fuzzOne(start, count)
}
