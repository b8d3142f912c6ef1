import Foundation
import Statements

/// `import.rules` compiled: the first rule whose expression finds an entry's text gives its category
/// and tags; an entry no rule finds gets `import.defaultCategory`.
struct ImportRules {
    private let rules: [(expression: NSRegularExpression, rule: ImportSettings.Rule)]
    let defaultCategory: String

    init(_ settings: ImportSettings) throws {
        rules = try settings.rules.map { rule in
            do {
                return (try NSRegularExpression(pattern: rule.match, options: [.caseInsensitive]), rule)
            } catch {
                throw SheetSyncError.configuration("import.rules: '\(rule.match)' is not a regular expression")
            }
        }
        defaultCategory = settings.defaultCategory
    }

    /// The category and tags of an entry whose payee and memo are `text`, one a line.
    func categorize(_ text: String) -> (category: String, tags: String, matched: Bool) {
        let range = NSRange(text.startIndex..<text.endIndex, in: text)
        for (expression, rule) in rules where expression.firstMatch(in: text, options: [], range: range) != nil {
            return (rule.category, rule.tags, true)
        }
        return (defaultCategory, "", false)
    }
}
