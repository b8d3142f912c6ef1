import SheetSyncCore
import Testing

/// `FieldKey` is the one list of field names: the schemas declare their fields with it, so the two
/// cannot drift apart.
@Suite struct FieldKeyTests {
    @Test func everyKeyIsAFieldOfSomeTab() {
        let declared = Set(Tab.allCases.flatMap { $0.schema.fields.map(\.key) })
        #expect(Set(FieldKey.allCases).subtracting(declared).isEmpty)
    }

    @Test(arguments: Tab.allCases)
    func eachFieldIsFoundByItsKeyAndByItsName(_ tab: Tab) {
        let schema = tab.schema
        for field in schema.fields {
            #expect(field.name == field.key.rawValue)
            #expect(FieldKey(rawValue: field.name) == field.key)
            #expect(schema.field(field.key) == field)
            #expect(schema.field(named: field.name) == field)
        }
        #expect(schema.field(schema.keyField) != nil)
        #expect(schema.optionalColumns.allSatisfy { schema.field($0) != nil })
    }

    @Test func aRowReadByKeyIsTheFieldOfThatName() {
        var row = LedgerRow([.amount: "12.50", .note: "lunch"])
        #expect(row[.amount] == "12.50")
        #expect(row[named: "amount"] == "12.50")
        #expect(row[.category] == "")
        row[.category] = "Food"
        #expect(row[named: "category"] == "Food")
        #expect(row == LedgerRow(["amount": "12.50", "note": "lunch", "category": "Food"]))
    }
}
