import Foundation
import Interchange
import Statements

extension ConfigFile {
    static let importKeys = ["rules", "defaultCategory", "csv", "profiles"]
    static let ruleKeys = ["match", "category", "tags"]
    static let csvKeys = ["expenseSign", "dateFormat", "columns"]
    static let profileKeys = csvKeys + ["fileName", "headerContains"]
    static let columnKeys = ["date", "amount", "note", "payee", "debit", "credit", "reference"]
}

extension ConfigFile.Reader {
    /// The `import` section (`docs/bank-statements.md`), every problem named by its key path.
    mutating func importSettings(_ value: JSONValue) -> ImportSettings {
        var settings = ImportSettings()
        guard let section = object(value, path: "import", known: ConfigFile.importKeys) else { return settings }
        if let name = string(section, "defaultCategory", path: "import.defaultCategory") {
            if name.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("import.defaultCategory: empty; name the category unmatched entries get, e.g. \"Uncategorized\"")
            } else {
                settings.defaultCategory = name.trimmingCharacters(in: .whitespaces)
            }
        }
        switch section["rules"] {
        case nil, .null?: break
        case .array(let rules)?: settings.rules = rules.enumerated().compactMap { rule($0.element, path: "import.rules[\($0.offset)]") }
        case let other?: problems.append("import.rules: expected a list of rules, found \(Self.describe(other))")
        }
        if let csv = section["csv"] { settings.csv = csvSettings(csv, path: "import.csv", known: ConfigFile.csvKeys) }
        switch section["profiles"] {
        case nil, .null?: break
        case .object(let profiles)?:
            for (name, value) in profiles.members where !name.hasPrefix("_") {
                let path = "import.profiles.\(name)"
                guard let profile = object(value, path: path, known: ConfigFile.profileKeys) else { continue }
                settings.profiles[name] = ImportSettings.Profile(
                    csv: csvSettings(value, path: path, known: ConfigFile.profileKeys),
                    fileName: string(profile, "fileName", path: "\(path).fileName"),
                    headerContains: string(profile, "headerContains", path: "\(path).headerContains"))
            }
        case let other?: problems.append("import.profiles: expected an object of named profiles, found \(Self.describe(other))")
        }
        return settings
    }

    private mutating func rule(_ value: JSONValue, path: String) -> ImportSettings.Rule? {
        guard let rule = object(value, path: path, known: ConfigFile.ruleKeys) else { return nil }
        let match = string(rule, "match", path: "\(path).match", required: "a regular expression, e.g. \"rewe|lidl\"")
        let category = string(rule, "category", path: "\(path).category", required: "the category it gives")
        var tags = ""
        switch rule["tags"] {
        case nil, .null?: break
        case .string(let text)?: tags = text
        case .array(let items)?:
            tags = items.compactMap { if case .string(let s) = $0 { return s } else { return nil } }.joined(separator: ",")
        case let other?: problems.append("\(path).tags: expected a string or a list of strings, found \(Self.describe(other))")
        }
        guard let match, let category else { return nil }
        do {
            _ = try NSRegularExpression(pattern: match, options: [.caseInsensitive])
        } catch {
            problems.append("\(path).match: '\(match)' is not a regular expression")
            return nil
        }
        return ImportSettings.Rule(match: match, category: category.trimmingCharacters(in: .whitespaces), tags: tags)
    }

    private mutating func csvSettings(_ value: JSONValue, path: String, known: [String]) -> ImportSettings.CSVSettings {
        var settings = ImportSettings.CSVSettings()
        guard let csv = known == ConfigFile.csvKeys ? object(value, path: path, known: known) : value.objectValue else { return settings }
        if let sign = string(csv, "expenseSign", path: "\(path).expenseSign") {
            settings.expenseSign = StatementOptions.ExpenseSign(rawValue: sign.lowercased())
            if settings.expenseSign == nil {
                problems.append(
                    "\(path).expenseSign: expected \"negative\" (a bank account) or \"positive\" (many credit cards), found '\(sign)'")
            }
        }
        if let pattern = string(csv, "dateFormat", path: "\(path).dateFormat") {
            settings.dateFormat = DateFormat(pattern: pattern)
            if settings.dateFormat == nil {
                problems.append(
                    "\(path).dateFormat: '\(pattern)' is not a date pattern such as \"dd/MM/yyyy\", \"MM/dd/yyyy\" or \"dd.MM.yyyy\"")
            }
        }
        if let value = csv["columns"], let columns = object(value, path: "\(path).columns", known: ConfigFile.columnKeys) {
            var names: [String: String] = [:]
            for key in ConfigFile.columnKeys { names[key] = string(columns, key, path: "\(path).columns.\(key)") }
            settings.columns = StatementOptions.Columns(
                date: names["date"], amount: names["amount"], note: names["note"], payee: names["payee"], debit: names["debit"],
                credit: names["credit"], reference: names["reference"])
        }
        return settings
    }
}

extension JSONValue {
    fileprivate var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }
}
