import CLibXML2
import Foundation
import SheetSyncCore

/// ISO 20022 `camt.053` (any version, any namespace): every booked `Ntry` of every `Stmt` is an
/// entry; pending (`PDNG`) and information-only (`INFO`) entries are counted, not read. Read with
/// libxml2's tree parser without network access and without entity substitution.
enum CAMTParser {
    static func read(_ text: String, file: String) throws(StatementError) -> Statement {
        xmlInitParser()
        let bytes = Array(text.utf8)
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
        // The text is UTF-8 by now, whatever the declaration says.
        let parsed = bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.flatMap { base in
                base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    xmlReadMemory($0, Int32(clamping: buffer.count), "statement.xml", "UTF-8", options)
                }
            }
        }
        guard let document = parsed else {
            let line = xmlGetLastError().map { Int($0.pointee.line) }
            throw StatementError(file: file, line: line, problem: .malformed("not well-formed XML"))
        }
        defer { xmlFreeDoc(document) }
        guard let root = xmlDocGetRootElement(document), let statementRoot = XMLNode(root).descendant("BkToCstmrStmt") else {
            throw StatementError(file: file, problem: .unknownFormat("an XML file without a camt.053 BkToCstmrStmt element"))
        }
        var statement = Statement(format: .camt053)
        for stmt in statementRoot.children("Stmt") {
            let account = stmt.path("Acct", "Id", "IBAN")?.text ?? stmt.path("Acct", "Id", "Othr", "Id")?.text ?? ""
            for ntry in stmt.children("Ntry") {
                let status = ntry.child("Sts").map { $0.child("Cd")?.text ?? $0.text } ?? "BOOK"
                guard status == "BOOK" else {
                    statement.pending += 1
                    continue
                }
                do throws(StatementError) {
                    statement.entries.append(try entry(ntry, account: account, file: file))
                } catch {
                    statement.refused.append(error)
                }
            }
        }
        return statement
    }

    private static func entry(_ ntry: XMLNode, account: String, file: String) throws(StatementError) -> StatementEntry {
        let line = ntry.line
        guard let amountText = ntry.child("Amt")?.text else { throw StatementError(file: file, line: line, problem: .missingField("Amt")) }
        guard let amount = StatementAmount.parse(amountText, decimalMark: "."), !amount.negative else {
            throw StatementError(file: file, line: line, problem: .badAmount(amountText))
        }
        let indicator = ntry.child("CdtDbtInd")?.text ?? ""
        guard indicator == "CRDT" || indicator == "DBIT" else {
            throw StatementError(file: file, line: line, problem: .malformed("CdtDbtInd '\(indicator)' is neither CRDT nor DBIT"))
        }
        let dateNode = ntry.child("BookgDt") ?? ntry.child("ValDt")
        guard let dateText = dateNode.flatMap({ $0.child("Dt")?.text ?? $0.child("DtTm")?.text }) else {
            throw StatementError(file: file, line: line, problem: .missingField("BookgDt"))
        }
        // A DtTm's calendar date as written, in its own offset.
        guard let date = LocalDate(iso: String(dateText.prefix(10))) else {
            throw StatementError(file: file, line: line, problem: .badDate(dateText))
        }
        let details = ntry.path("NtryDtls", "TxDtls")
        // The other party: who was paid for money out, who paid for money in.
        // (where the statement names only one party, that one).
        let parties = indicator == "DBIT" ? ["Cdtr", "Dbtr"] : ["Dbtr", "Cdtr"]
        let payee =
            parties.lazy.compactMap { party in
                details?.path("RltdPties", party, "Nm")?.text ?? details?.path("RltdPties", party, "Pty", "Nm")?.text
            }.first ?? ""
        let remittance = details?.child("RmtInf")?.children("Ustrd").map(\.text) ?? []
        let memo = (remittance.isEmpty ? [ntry.child("AddtlNtryInf")?.text ?? details?.child("AddtlTxInf")?.text ?? ""] : remittance)
            .joined(separator: " ")
        let reference = ntry.child("AcctSvcrRef")?.text ?? ntry.child("NtryRef")?.text
        return StatementEntry(
            date: date, amount: amount.magnitude, direction: indicator == "DBIT" ? .outgoing : .incoming, payee: payee, memo: memo,
            reference: reference, account: account, line: line)
    }
}

/// An element of a libxml2 tree, found by local name (whatever its namespace).
struct XMLNode {
    let node: xmlNodePtr

    init(_ node: xmlNodePtr) { self.node = node }

    var name: String { node.pointee.name.map { String(cString: $0) } ?? "" }
    var line: Int { Int(xmlGetLineNo(node)) }

    /// The element's own text (its text and CDATA children), trimmed.
    var text: String {
        var result = ""
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_TEXT_NODE || current.pointee.type == XML_CDATA_SECTION_NODE,
                let content = current.pointee.content
            {
                result += String(cString: content)
            }
            child = current.pointee.next
        }
        return result.trimmingWhitespace(newlines: true)
    }

    func children(_ name: String) -> [XMLNode] {
        var found: [XMLNode] = []
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, XMLNode(current).name == name { found.append(XMLNode(current)) }
            child = current.pointee.next
        }
        return found
    }

    func child(_ name: String) -> XMLNode? { children(name).first }

    func path(_ names: String...) -> XMLNode? {
        var node: XMLNode? = self
        for name in names { node = node?.child(name) }
        return node
    }

    /// The first element of that name at or below this one, depth first.
    func descendant(_ name: String) -> XMLNode? {
        if self.name == name { return self }
        var child = node.pointee.children
        while let current = child {
            if current.pointee.type == XML_ELEMENT_NODE, let found = XMLNode(current).descendant(name) { return found }
            child = current.pointee.next
        }
        return nil
    }
}
