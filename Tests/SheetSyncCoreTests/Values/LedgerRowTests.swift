import SheetSyncCore
import Testing

/// A row is its field names and values: how it is laid out in memory never shows.
@Suite struct LedgerRowTests {
    static let names = TabSchema.categories.fieldNames
    static let values = ["Food", "expense", "🍔", "#ff0000", "TRUE", "1", "2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z"]

    static var dictionary: [String: String] { Dictionary(uniqueKeysWithValues: zip(names, values)) }

    @Test func rowsBuiltFromTheStoreTheSheetAndADictionaryShareTheTabsLayoutAndAreEqual() {
        let fromTemplate = LedgerRowTemplate(names: Self.names).record(Self.values)
        let fromDictionary = LedgerRow(Self.dictionary)
        #expect(fromTemplate.layout === FieldLayout.of(.categories))
        #expect(fromDictionary.layout === FieldLayout.of(.categories))
        #expect(fromTemplate == fromDictionary)
        #expect(fromTemplate.fields == Self.dictionary)
        #expect(fromTemplate[.emoji] == "🍔")
        #expect(fromTemplate[named: "noSuchField"] == "")
    }

    @Test func equalityAndHashingDoNotDependOnTheLayout() {
        let tabOrder = LedgerRow(Self.dictionary)
        let reversed = LedgerRowTemplate(names: Self.names.reversed()).record(Self.values.reversed())
        #expect(tabOrder.layout !== reversed.layout)
        #expect(tabOrder == reversed)
        #expect(tabOrder.hashValue == reversed.hashValue)
        #expect(Set([tabOrder, reversed]).count == 1)

        var changed = reversed
        changed[.emoji] = "🍕"
        #expect(changed != tabOrder)
        #expect(tabOrder != changed)
        #expect(changed.layout === reversed.layout)
    }

    @Test func rowsWithOtherFieldNamesDifferEvenWithTheSameValues() {
        let row = LedgerRow(["a": "1", "b": "2"])
        #expect(row != LedgerRow(["a": "1", "c": "2"]))
        #expect(row != LedgerRow(["a": "1"]))
        #expect(row != LedgerRow(["a": "1", "b": "2", "c": ""]))
        #expect(row == LedgerRow(["b": "2", "a": "1"]))
    }

    @Test func settingAnUnknownFieldAddsItWithoutTouchingTheSharedLayout() {
        var row = LedgerRow(Self.dictionary)
        row[named: "extra"] = "x"
        #expect(row[named: "extra"] == "x")
        #expect(row.fields == Self.dictionary.merging(["extra": "x"]) { $1 })
        #expect(FieldLayout.of(.categories).position(of: "extra") == nil)
        #expect(LedgerRow(Self.dictionary)[named: "extra"] == "")
    }

    @Test func slotsReadByPositionAndFallBackToTheNameForOtherLayouts() {
        let slot = FieldSlot(.colorHex, of: .categories)
        let shared = LedgerRow(Self.dictionary)
        let other = LedgerRow([.colorHex: "#00ff00", .name: "Rent"])
        #expect(shared[slot] == "#ff0000")
        #expect(other[slot] == "#00ff00")
        var edited = other
        edited[slot] = "#0000ff"
        #expect(edited[.colorHex] == "#0000ff")
    }

    @Test func aTemplateWithRepeatedNamesKeepsTheLastValueAsADictionaryWould() {
        let row = LedgerRowTemplate(names: ["a", "b", "a"]).record(["1", "2", "3"])
        #expect(row.fields == ["a": "3", "b": "2"])
        #expect(LedgerRowTemplate(names: ["a", "b"]).record(["1"]).fields == ["a": "1", "b": ""])
    }
}
