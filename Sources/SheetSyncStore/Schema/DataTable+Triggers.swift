import GRDB
import SheetSyncCore

/// The triggers that keep a tab's table right for writes by any SQLite client.
///
/// SQLite cannot change `NEW` in a BEFORE trigger, so a row that needs fixing on its way in
/// (no key, an uppercase UUID, empty timestamps, a stale `year`/`month`) is written again, fixed,
/// by the trigger, and the original write is dropped with `RAISE(IGNORE)`; the AFTER triggers
/// then see the row as it is stored. The lastModifiedAt bump, tombstones and the change counter
/// stay quiet while the sync engine applies a commit (a row in `sync_applying`, only ever
/// visible inside the engine's own write transaction).
extension DataTable {
    static let now = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
    static let notApplying = "NOT EXISTS (SELECT 1 FROM sync_applying)"
    /// A random version 4 UUID in lowercase canonical form.
    static let newUUID = """
        lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' \
        || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))
        """
    static let timestampFields: Set<FieldKey> = [.createdAt, .lastModifiedAt]

    /// The names of every trigger the migrations create: data tables' triggers write rows only
    /// into their own table (a fixed row) and the bookkeeping tables. (`keep_deleted` is v2's,
    /// in DeletedRows.swift; without it here no store ever had only its own triggers.)
    static let ownTriggerNames: Set<String> = Set(
        Tab.allCases.flatMap { tab in
            [
                "fix_insert", "touch", "rekey", "untombstone", "tombstone", "fix_update", "count_insert", "count_update",
                "count_delete", "keep_deleted",
            ]
            .map { "\(tab.schema.tableName)_\($0)" }
        } + ["sync_conflicts_append_only"])

    /// Whether every trigger in the store is one of `ownTriggerNames` (none was added by hand).
    static func hasOnlyOwnTriggers(_ db: Database) throws -> Bool {
        let names = try String.fetchAll(
            db.cachedStatement(
                sql: """
                    SELECT name FROM sqlite_master WHERE type = 'trigger'
                    UNION ALL SELECT name FROM sqlite_temp_master WHERE type = 'trigger'
                    """))
        return names.allSatisfy(ownTriggerNames.contains)
    }

    func createTriggers(_ db: Database) throws {
        try db.execute(sql: rowTriggers)
        if let fixUpdate { try db.execute(sql: fixUpdate) }
        for event in ["INSERT", "UPDATE", "DELETE"] { try db.execute(sql: counter(event)) }
    }

    /// `fix_insert`, `touch`, `rekey`, `untombstone` and `tombstone`, in that order.
    private var rowTriggers: String {
        let name = schema.tableName
        let tabLiteral = tab.rawValue.sqlLiteral
        let key = keyColumn
        let columns = schema.fieldNames.map(\.quotedDatabaseIdentifier)
        let lastModified = FieldKey.lastModifiedAt.rawValue.quotedDatabaseIdentifier
        let tombstoneOld =
            "INSERT OR REPLACE INTO sync_tombstones (tab, key, deletedAt)"
            + " SELECT \(tabLiteral), OLD.\(key), \(Self.now) WHERE \(Self.notApplying);"
        return """
            CREATE TRIGGER \("\(name)_fix_insert".quotedDatabaseIdentifier) BEFORE INSERT ON \(table)
            WHEN \(needsFix(insert: true) ?? "0")
            BEGIN
              INSERT INTO \(table) (\(columns.joined(separator: ", ")))
              VALUES (\(schema.fields.map { fixed($0, insert: true) }.joined(separator: ", ")));
              SELECT RAISE(IGNORE);
            END;

            CREATE TRIGGER \("\(name)_touch".quotedDatabaseIdentifier) AFTER UPDATE ON \(table)
            WHEN NEW.\(lastModified) IS OLD.\(lastModified)
              AND (\(columns.map { "NEW.\($0) IS NOT OLD.\($0)" }.joined(separator: " OR ")))
              AND \(Self.notApplying)
            BEGIN
              UPDATE \(table) SET \(lastModified) = \(Self.now) WHERE rowid = NEW.rowid;
            END;

            CREATE TRIGGER \("\(name)_rekey".quotedDatabaseIdentifier) AFTER UPDATE OF \(key) ON \(table)
            WHEN NEW.\(key) IS NOT OLD.\(key)
            BEGIN
              \(tombstoneOld)
              DELETE FROM sync_tombstones WHERE tab = \(tabLiteral) AND key = NEW.\(key);
            END;

            CREATE TRIGGER \("\(name)_untombstone".quotedDatabaseIdentifier) AFTER INSERT ON \(table)
            BEGIN
              DELETE FROM sync_tombstones WHERE tab = \(tabLiteral) AND key = NEW.\(key);
            END;

            CREATE TRIGGER \("\(name)_tombstone".quotedDatabaseIdentifier) AFTER DELETE ON \(table)
            BEGIN
              \(tombstoneOld)
            END;
            """
    }

    /// `fix_update`: nil for a table whose updated rows never need fixing.
    private var fixUpdate: String? {
        guard let condition = needsFix(insert: false) else { return nil }
        return """
            CREATE TRIGGER \("\(schema.tableName)_fix_update".quotedDatabaseIdentifier) BEFORE UPDATE ON \(table)
            WHEN \(condition)
            BEGIN
              UPDATE \(table) SET \(schema.fields.map {
            "\($0.name.quotedDatabaseIdentifier) = \(fixed($0, insert: false))" }.joined(separator: ", "))
              WHERE rowid = OLD.rowid;
              SELECT RAISE(IGNORE);
            END;
            """
    }

    /// `count_insert`, `count_update` or `count_delete`: the change counter, for `event`.
    private func counter(_ event: String) -> String {
        """
        CREATE TRIGGER \("\(schema.tableName)_count_\(event.lowercased())".quotedDatabaseIdentifier)
        AFTER \(event) ON \(table) WHEN \(Self.notApplying)
        BEGIN UPDATE sync_change_counter SET value = value + 1; END;
        """
    }

    /// When a written row must be rewritten before it is stored; nil when it never must.
    private func needsFix(insert: Bool) -> String? {
        var conditions: [String] = []
        for field in schema.fields {
            let column = "NEW.\(field.name.quotedDatabaseIdentifier)"
            if field.kind == .uuid {
                conditions.append("\(column) <> lower(\(column))")
                if insert && field.key == schema.keyField { conditions.append("\(column) IS NULL") }
            }
            if insert && Self.timestampFields.contains(field.key) {
                conditions.append("coalesce(\(column), '') = ''")
            }
        }
        if let dateOK = datePartsApply {
            conditions.append("(\(dateOK) AND (NEW.\"year\" IS NOT \(datePart(.year)) OR NEW.\"month\" IS NOT \(datePart(.month))))")
        }
        return conditions.isEmpty ? nil : conditions.joined(separator: " OR ")
    }

    /// The stored value of `field` for a written row.
    private func fixed(_ field: FieldSpec, insert: Bool) -> String {
        let column = "NEW.\(field.name.quotedDatabaseIdentifier)"
        if field.kind == .uuid {
            return insert && field.key == schema.keyField ? "coalesce(lower(\(column)), \(Self.newUUID))" : "lower(\(column))"
        }
        if insert && Self.timestampFields.contains(field.key) {
            return "CASE WHEN coalesce(\(column), '') = '' THEN \(Self.now) ELSE \(column) END"
        }
        if let dateOK = datePartsApply, field.key == .year || field.key == .month {
            return "CASE WHEN \(dateOK) THEN \(datePart(field.key)) ELSE \(column) END"
        }
        return column
    }

    /// For a tab with `date`, `year` and `month`: when `date` is a `YYYY-MM-DD` text to derive from.
    private var datePartsApply: String? {
        guard schema.field(.date) != nil, schema.field(.year) != nil,
            schema.field(.month) != nil
        else { return nil }
        return "NEW.\"date\" GLOB '\(SQLPattern.date)'"
    }

    private func datePart(_ key: FieldKey) -> String {
        key == .year ? "CAST(substr(NEW.\"date\", 1, 4) AS INTEGER)" : "CAST(substr(NEW.\"date\", 6, 2) AS INTEGER)"
    }
}
