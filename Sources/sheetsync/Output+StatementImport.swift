import SheetSync

extension Output {
    /// Prints a statement import the way the options ask; 65 when entries were refused (nothing was imported).
    static func statementImport(_ report: StatementImportReport, _ options: GlobalOptions) -> ProcessExitCode {
        if options.json {
            json(report)
        } else if !options.quiet {
            line(report.summary)
            if options.verbose || options.dryRun {
                report.categoryLines.forEach(line)
                report.rowLines.forEach(line)
            }
        }
        report.refused.forEach { issue($0) }
        return report.refused.isEmpty ? .ok : .dataError
    }
}
