import Foundation
import Statements

/// The config's `import` section: how a bank statement's entries become transactions.
public struct ImportSettings: Sendable, Equatable {
    /// `import.rules`: the first rule whose `match` finds the entry's payee, memo or description
    /// (a regular expression, case-insensitive) gives its category and tags.
    public struct Rule: Sendable, Equatable {
        public var match: String
        public var category: String
        public var tags: String

        public init(match: String, category: String, tags: String = "") {
            self.match = match
            self.category = category
            self.tags = tags
        }
    }

    /// `import.csv` or one bank's `import.profiles.NAME`: how to read its CSV export. Unset keys of a
    /// profile fall back to `import.csv`, and those to detection.
    public struct CSVSettings: Sendable, Equatable {
        public var expenseSign: StatementOptions.ExpenseSign?
        public var dateFormat: DateFormat?
        public var columns: StatementOptions.Columns?

        public init(
            expenseSign: StatementOptions.ExpenseSign? = nil, dateFormat: DateFormat? = nil, columns: StatementOptions.Columns? = nil
        ) {
            self.expenseSign = expenseSign
            self.dateFormat = dateFormat
            self.columns = columns
        }

        /// These settings with `base`'s where these have none.
        func over(_ base: CSVSettings) -> CSVSettings {
            CSVSettings(
                expenseSign: expenseSign ?? base.expenseSign, dateFormat: dateFormat ?? base.dateFormat, columns: columns ?? base.columns)
        }

        var options: StatementOptions {
            StatementOptions(expenseSign: expenseSign ?? .negative, dateFormat: dateFormat, columns: columns ?? .init())
        }
    }

    /// One bank's block, chosen by `--profile NAME` or by the file it matches: its name (a glob such
    /// as `Umsaetze_*.csv`) and/or a text its first lines hold (`Card Member`).
    public struct Profile: Sendable, Equatable {
        public var csv: CSVSettings
        public var fileName: String?
        public var headerContains: String?

        public init(csv: CSVSettings = .init(), fileName: String? = nil, headerContains: String? = nil) {
            self.csv = csv
            self.fileName = fileName
            self.headerContains = headerContains
        }

        func matches(fileName name: String, head: String) -> Bool {
            guard fileName != nil || headerContains != nil else { return false }
            if let fileName, !Glob.matches(fileName, name) { return false }
            if let headerContains, !head.localizedCaseInsensitiveContains(headerContains) { return false }
            return true
        }
    }

    public var rules: [Rule] = []
    public var defaultCategory = "Uncategorized"
    public var csv = CSVSettings()
    public var profiles: [String: Profile] = [:]

    public init(
        rules: [Rule] = [], defaultCategory: String = "Uncategorized", csv: CSVSettings = .init(), profiles: [String: Profile] = [:]
    ) {
        self.rules = rules
        self.defaultCategory = defaultCategory
        self.csv = csv
        self.profiles = profiles
    }

    /// The profile to read `fileName` with: the one named (refused when there is none of that name),
    /// else the one the file matches (refused when several do), else none; and the options it gives.
    public func options(profile named: String?, fileName: String, head: String) throws -> (profile: String?, options: StatementOptions) {
        if let named {
            guard let profile = profiles[named] else {
                let known = profiles.keys.sorted().map { "'\($0)'" }.joined(separator: ", ")
                throw SheetSyncError.configuration(
                    "--profile '\(named)' is not in the config's import.profiles (\(known.isEmpty ? "it has none" : "known: \(known)"))")
            }
            return (named, profile.csv.over(csv).options)
        }
        let matching = profiles.filter { $0.value.matches(fileName: fileName, head: head) }.keys.sorted()
        guard matching.count <= 1 else {
            throw SheetSyncError.configuration(
                "\(fileName) matches the import profiles \(matching.map { "'\($0)'" }.joined(separator: " and ")); "
                    + "name one with --profile, or make their fileName/headerContains tell them apart")
        }
        guard let name = matching.first, let profile = profiles[name] else { return (nil, csv.options) }
        return (name, profile.csv.over(csv).options)
    }
}

/// `*` and `?` wildcards over a file's name, ignoring case.
enum Glob {
    static func matches(_ pattern: String, _ name: String) -> Bool {
        matches(Array(pattern.lowercased()), 0, Array(name.lowercased()), 0)
    }

    private static func matches(_ p: [Character], _ i: Int, _ s: [Character], _ j: Int) -> Bool {
        var (i, j) = (i, j)
        var star: (Int, Int)?
        while j < s.count {
            if i < p.count, p[i] == "?" || p[i] == s[j] {
                i += 1
                j += 1
            } else if i < p.count, p[i] == "*" {
                star = (i, j)
                i += 1
            } else if let (si, sj) = star {
                i = si + 1
                j = sj + 1
                star = (si, sj + 1)
            } else {
                return false
            }
        }
        while i < p.count, p[i] == "*" { i += 1 }
        return i == p.count
    }
}
