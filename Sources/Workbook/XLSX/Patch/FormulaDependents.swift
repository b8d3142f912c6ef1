/// Which formulas of a workbook read which cells, reversed: for a cell, the formulas that read
/// it. Built once per push from every worksheet's formulas (shared formulas filled to each of
/// their cells, defined names read through), then walked from the cells a push changes to every
/// formula that depends on them, directly or through other formulas, in any sheet.
struct FormulaDependents {
    /// Ranges wider than this many columns are kept once for the whole row, not per column: a
    /// query may then find a formula whose columns miss the cell, which only drops one cached
    /// result too many (the spreadsheet recomputes it), never one too few.
    static let widestPerColumn = 64

    private struct Column: Hashable {
        var sheet: Int
        var column: Int
    }

    /// Formula cells by id: sheet index, row and column.
    private var formulas: [(sheet: Int, row: Int, column: Int)] = []
    private var byColumn: [Column: RowIntervals] = [:]
    private var wide: [Int: RowIntervals] = [:]
    private var columnsOfSheet: [Int: Set<Int>] = [:]

    var isEmpty: Bool { formulas.isEmpty }

    /// Records the formula at `row`, `column` of `sheet` reading `areas` (sheets resolved).
    mutating func add(sheet: Int, row: Int, column: Int, reading areas: [(sheet: Int, area: FormulaArea)]) {
        guard !areas.isEmpty, formulas.count < Int(Int32.max) else { return }
        let id = Int32(formulas.count)
        formulas.append((sheet, row, column))
        for (target, area) in areas {
            if area.lastColumn - area.firstColumn >= Self.widestPerColumn {
                wide[target, default: RowIntervals()].insert(id, rows: area.firstRow, area.lastRow)
                continue
            }
            for column in area.firstColumn...area.lastColumn {
                byColumn[Column(sheet: target, column: column), default: RowIntervals()].insert(id, rows: area.firstRow, area.lastRow)
                columnsOfSheet[target, default: []].insert(column)
            }
        }
    }

    /// A changed place: one cell, or a whole row (deleted or appended).
    enum Change {
        case cell(sheet: Int, row: Int, column: Int)
        case row(sheet: Int, row: Int)
    }

    /// The formulas that depend on `changes`, directly or through other formulas, as keys of
    /// `StaleFormulas` by sheet index. Each stored range is visited at most once.
    mutating func closure(of changes: [Change]) -> [Int: Set<Int>] {
        // Read through a copy: `reach` runs while a tree of `self` is being taken from.
        let formulas = formulas
        var stale = [Bool](repeating: false, count: formulas.count)
        var result: [Int: Set<Int>] = [:]
        var queue: [Int32] = []
        func reach(_ id: Int32) {
            let index = Int(id)
            guard !stale[index] else { return }
            stale[index] = true
            let formula = formulas[index]
            result[formula.sheet, default: []].insert(StaleFormulas.key(row: formula.row, column: formula.column))
            queue.append(id)
        }
        func readers(sheet: Int, row: Int, column: Int?) {
            if let column {
                byColumn[Column(sheet: sheet, column: column)]?.take(row: row, reach)
            } else {
                for column in columnsOfSheet[sheet] ?? [] { byColumn[Column(sheet: sheet, column: column)]?.take(row: row, reach) }
            }
            wide[sheet]?.take(row: row, reach)
        }
        for change in changes {
            switch change {
            case .cell(let sheet, let row, let column): readers(sheet: sheet, row: row, column: column)
            case .row(let sheet, let row): readers(sheet: sheet, row: row, column: nil)
            }
        }
        while let id = queue.popLast() {
            let formula = formulas[Int(id)]
            readers(sheet: formula.sheet, row: formula.row, column: formula.column)
        }
        return result
    }
}

/// The formula cells whose cached results a push makes stale, by sheet, in the rows and columns
/// the sheets had before the push.
public struct StaleFormulas: Sendable, Equatable {
    private var cells: [String: Set<Int>]

    public init() { cells = [:] }

    init(bySheetName cells: [String: Set<Int>]) {
        self.cells = cells.filter { !$0.value.isEmpty }
    }

    static func key(row: Int, column: Int) -> Int { row << 15 | column }

    /// The stale cells of `sheet` (any case), as `key(row:column:)`.
    func cells(ofSheet sheet: String) -> Set<Int> { cells[sheet.lowercased()] ?? [] }

    func contains(sheet: String, row: Int, column: Int) -> Bool {
        cells[sheet.lowercased()]?.contains(Self.key(row: row, column: column)) ?? false
    }

    /// The lowercased names of the sheets with a stale formula.
    var sheets: Set<String> { Set(cells.keys) }

    /// How many formulas are stale, over every sheet.
    public var count: Int { cells.values.reduce(0) { $0 + $1.count } }
}
