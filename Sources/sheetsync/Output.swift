import Foundation
import SheetSync
import SheetSyncCore
import Synchronization

/// Human and JSON output: silent on success unless asked, problems on stderr.
///
/// Every line of text passes `TerminalText.visibleLines` here, the one place output is written: a value
/// from the workbook, the store or a server (a category name, a rejected cell, an error message) never
/// puts a control character on the terminal or in a log. JSON goes out exact (the encoder escapes).
enum Output {
    static func error(_ message: String) {
        clearProgress()
        FileHandle.standardError.write(Data("sheetsync: \(TerminalText.visibleLines(message))\n".utf8))
    }

    /// How every command ends on a failure: the message on stderr (`shown`, when argument-parser's
    /// own words say it better, as for a usage error), then its hint, and under `--json` the
    /// `{"error": …}` object on stdout.
    static func failure(_ failure: SheetSyncError, json: Bool, shown: String? = nil) {
        if let shown {
            clearProgress()
            FileHandle.standardError.write(Data((TerminalText.visibleLines(shown) + "\n").utf8))
        } else {
            error(failure.message)
        }
        if let hint = failure.hint { error("hint: \(hint)") }
        if json { self.json(JSONFailure(error: JSONError(failure), version: SheetSyncVersion.current)) }
    }

    /// Rewrites the progress line on stderr (a terminal); `clearProgress` removes it.
    @Sendable static func progress(_ text: String) {
        progressShown.store(true, ordering: .relaxed)
        FileHandle.standardError.write(Data("\r\u{1B}[K\(TerminalText.visible(text))".utf8))
    }

    /// Whether a progress line is on the terminal now: only then is there a line to clear, so
    /// output on a terminal carries no stray escape codes.
    private static let progressShown = Atomic<Bool>(false)

    static func clearProgress() {
        if progressShown.exchange(false, ordering: .relaxed) { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// An issue as a person reads it (its `--json` form is its `Codable` one): a notice as `note: …`
    /// on stdout (or stderr, beside output that scripts read), a change held back on stderr.
    static func issue(_ issue: SyncIssue, noticeOnStandardError: Bool = false) {
        switch issue.severity {
        case .notice: noticeOnStandardError ? error("note: \(issue.text)") : line("note: \(issue.text)")
        case .heldBack: error(issue.text)
        }
    }

    static func line(_ text: String) {
        clearProgress()
        FileHandle.standardOutput.write(Data((TerminalText.visibleLines(text) + "\n").utf8))
    }

    static func json<T: Encodable>(_ value: T) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
        } catch {
            // Not expected (every value is text, a whole number or a flag), but never a silent gap
            // where a script waits for the report.
            Output.error("cannot write the JSON output: \(error)")
        }
    }

    /// Prints a sync-like report the way the options ask, and returns the exit code it means.
    static func report(_ report: SyncReport, _ options: GlobalOptions) -> SheetSync.ProcessExitCode {
        if options.json {
            json(report)
        } else if !options.quiet {
            report.headlines.forEach { line($0) }
            if options.dryRun || options.verbose {
                report.changes.forEach { line($0) }
                report.summaryLines.forEach { line($0) }
                if report.upToDate { line("up to date") }
            }
            // What the run did on its own that a user should know (a copy given a new id, a clock
            // clamped, a row that waits): shown unless --quiet.
            report.notices.forEach { issue($0) }
        }
        if !options.quiet || !report.errors.isEmpty {
            report.errors.forEach { issue($0) }
        }
        // Rejected rows are loud when they first appear or change; rows that stay rejected are
        // listed by `status` without failing every later cron run.
        if report.newlyRejected > 0 && !options.json {
            let inStore = report.rejected.filter { $0.row == Rejection.storeRow }.count
            let sheet = report.rejected.count - inStore
            // Where each waits: a sheet row stays as the user typed it; a store row is held back from the push.
            let places = [
                sheet > 0 ? "\(sheet) left as they are in the workbook" : nil,
                inStore > 0 ? "\(inStore) held back in the store, not pushed" : nil,
            ].compactMap { $0 }
            error("\(report.rejected.count) row(s) could not be loaded (\(places.joined(separator: "; "))):")
            for r in report.rejected { error("  " + r.summary) }
        }
        return report.exitCode
    }
}

extension Output {
    /// Text exactly as given (it carries its own line ends).
    static func text(_ text: String) {
        clearProgress()
        FileHandle.standardOutput.write(Data(TerminalText.visibleLines(text).utf8))
    }
}
