import NookCore
import NookBus

extension Diagnostic {
    /// Reads the contract's diagnostic `a{sv}`; unknown codes are kept as they are, an
    /// unknown severity reads as `info`. Nil when `code` is missing.
    init?(wire props: [String: PropValue]) {
        func string(_ key: String) -> String {
            if case .string(let value) = props[key] { return value }
            return ""
        }
        let code = string("code")
        guard !code.isEmpty else { return nil }
        self.init(
            DiagnosticCode(rawValue: code), DiagnosticSeverity(rawValue: string("severity")) ?? .info, string("message"),
            path: string("path"), module: string("module"), activity: string("activity"), id: string("id"))
    }

    /// The diagnostics of one `Diagnostics(aa{sv})` signal; records that cannot be read are skipped.
    static func decode(signal: BusSignal) -> [Diagnostic] {
        guard case .array(_, let records)? = signal.arguments.first?.unwrappingVariants else { return [] }
        return records.enumerated().compactMap { index, record in
            guard let props = try? WireCodec.dictionary(record, at: "diagnostics.\(index)") else { return nil }
            return Diagnostic(wire: props)
        }
    }
}
