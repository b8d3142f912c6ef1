import GoogleAPI
import Interchange

/// The JSON parser (which keeps number text) and every decoder of what Google sends back.
enum GoogleJSONTarget {
    static func run(_ bytes: UnsafeRawBufferPointer) throws(PropertyViolation) {
        let array = Array(bytes)
        // Error bodies and credentials files are read from raw bytes, valid JSON or not.
        _ = GoogleErrorDetails(response: HTTPResponse(status: 403, body: array), target: "fuzz")
        _ = try? GoogleCredentials.parse(array, path: "fuzz.json")
        _ = Redaction.redact(String(decoding: array, as: UTF8.self))
        guard let value = try? JSONValue.parse(array) else { return }
        // Number text is kept, so serialising and parsing again must give the same value.
        let serialized = value.serialized()
        guard let again = try? JSONValue.parse(serialized) else {
            throw PropertyViolation("the serialised JSON does not parse: \(String(decoding: serialized, as: UTF8.self))")
        }
        guard again == value else {
            throw PropertyViolation("JSON parse → serialise → parse changed the value: \(value) became \(again)")
        }
        if let range = try? ValueRange(json: value) {
            _ = range.rectangularRows(width: 8)
            _ = range.cell(row: 1, column: 1)
        }
        if let info = try? SpreadsheetInfo(json: value) {
            _ = info.sheet(titled: "Transactions")
        }
        _ = try? DriveFile(json: value)
    }
}
