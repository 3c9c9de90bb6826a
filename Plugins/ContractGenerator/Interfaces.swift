// The interfaces half of the contract: data/org.nook.Nook1.xml, the introspection document
// nookd serves, read here and written out as Swift. Into NookCore: `NookNames` and one member
// enum an interface (`ModulesMember`, ...). Into NookBus: each method's and signal's
// signature as a value (`NookContract`), and one typed proxy an interface (`NookControlProxy`,
// ...) that every caller of the contract goes through.
import Foundation

/// The parts of an introspection document the contract uses: interfaces of methods, signals
/// and properties, their typed arguments, and the comment written above each.
struct Introspection {
    struct Argument { var name: String; var type: String; var isOutput: Bool }
    enum Kind { case method, signal, property(type: String, writable: Bool) }
    struct Member {
        var kind: Kind
        var name: String
        var arguments: [Argument] = []
        var doc: String?
        var inputs: [Argument] { arguments.filter { !$0.isOutput } }
        var outputs: [Argument] { arguments.filter(\.isOutput) }
    }
    struct Interface {
        var name: String
        var members: [Member] = []
        /// An `org.nook.BusName` annotation: who serves it, when not the name of the object path.
        var busName: String?
        /// `org.nook.Nook1.Control` -> `Control`; `org.nook.Notifications1` -> `Notifications`.
        var shortName: String {
            let last = name.split(separator: ".").last!
            return String(last.prefix { !$0.isNumber })
        }
    }

    var objectPath = ""
    var interfaces: [Interface] = []

    /// The bus name nookd owns: the object path's segments joined with dots.
    var busName: String { objectPath.split(separator: "/").joined(separator: ".") }

    /// Reads the document tag by tag. It is ours and plain (no CDATA, no entities in names),
    /// so attributes in double quotes and comments are all there is to understand.
    init(xml text: String) throws {
        var rest = Substring(text)
        var pendingDoc: String?
        while let open = rest.firstIndex(of: "<") {
            rest = rest[open...]
            if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { throw GenerationError.invalid("unterminated comment in the XML") }
                pendingDoc = rest[rest.index(rest.startIndex, offsetBy: 4)..<end.lowerBound]
                    .split(whereSeparator: \.isWhitespace).joined(separator: " ")
                rest = rest[end.upperBound...]
                continue
            }
            guard let close = rest.firstIndex(of: ">") else { throw GenerationError.invalid("unterminated tag in the XML") }
            let tag = rest[rest.index(after: rest.startIndex)..<close]
            rest = rest[rest.index(after: close)...]
            if tag.hasPrefix("!") || tag.hasPrefix("?") { continue }
            if tag.hasPrefix("/") {
                if tag.hasPrefix("/method") || tag.hasPrefix("/signal") || tag.hasPrefix("/property") { pendingDoc = nil }
                continue
            }
            let name = String(tag.prefix { !$0.isWhitespace && $0 != "/" })
            let attributes = Self.attributes(of: tag)
            switch name {
            case "node":
                if objectPath.isEmpty { objectPath = attributes["name"] ?? "" }
            case "interface":
                guard let interfaceName = attributes["name"] else { throw GenerationError.invalid("an interface without a name") }
                interfaces.append(Interface(name: interfaceName))
            case "method", "signal", "property":
                guard !interfaces.isEmpty, let memberName = attributes["name"] else { throw GenerationError.invalid("a \(name) outside an interface or without a name") }
                let kind: Kind = switch name {
                case "method": .method
                case "signal": .signal
                default: .property(type: attributes["type"] ?? "", writable: attributes["access"] == "readwrite")
                }
                interfaces[interfaces.count - 1].members.append(Member(kind: kind, name: memberName, doc: pendingDoc))
                pendingDoc = nil
            case "annotation":
                // An interface's own annotation (members' come after their opening tag).
                if attributes["name"] == "org.nook.BusName", !interfaces.isEmpty {
                    interfaces[interfaces.count - 1].busName = attributes["value"]
                }
            case "arg":
                guard var member = interfaces.last?.members.last, let argName = attributes["name"], let type = attributes["type"] else {
                    throw GenerationError.invalid("an arg outside a member, or without a name or type")
                }
                let isSignal = if case .signal = member.kind { true } else { false }
                member.arguments.append(Argument(name: argName, type: type, isOutput: isSignal || attributes["direction"] == "out"))
                let last = interfaces.count - 1
                interfaces[last].members[interfaces[last].members.count - 1] = member
            default:
                continue
            }
        }
        guard !objectPath.isEmpty, !interfaces.isEmpty else { throw GenerationError.invalid("the XML declares no node path or no interface") }
    }

    private static func attributes(of tag: Substring) -> [String: String] {
        var result: [String: String] = [:]
        var rest = tag
        while let equals = rest.firstIndex(of: "=") {
            let key = rest[..<equals].split(whereSeparator: \.isWhitespace).last.map(String.init) ?? ""
            guard let open = rest[equals...].firstIndex(of: "\""),
                  let close = rest[rest.index(after: open)...].firstIndex(of: "\"") else { break }
            result[key] = String(rest[rest.index(after: open)..<close])
            rest = rest[rest.index(after: close)...]
        }
        return result
    }
}

extension Source {
    /// A doc comment, wrapped at about 100 columns.
    mutating func doc(_ text: String) {
        var current = ""
        for word in text.split(separator: " ") {
            if !current.isEmpty, current.count + word.count + 1 > 96 - indent * 4 {
                line("/// " + current)
                current = ""
            }
            current += (current.isEmpty ? "" : " ") + word
        }
        if !current.isEmpty { line("/// " + current) }
    }
}

/// `EndPeek` -> `endPeek`; `ReduceMotion` -> `reduceMotion`.
func memberCase(_ name: String) -> String { name.prefix(1).lowercased() + name.dropFirst() }

/// The Swift type a proxy takes or returns for a D-Bus type: the plain ones typed, anything
/// else (a view's `(sa{sv}av)`) as the `DBusValue` it is.
func proxyType(_ type: String) -> String {
    switch type {
    case "s": "String"
    case "o": "ObjectPath"
    case "b": "Bool"
    case "u": "UInt32"
    case "t": "UInt64"
    case "i": "Int32"
    case "x": "Int64"
    case "d": "Double"
    case "as": "[String]"
    case "a{sv}": "[String: DBusValue]"
    case "aa{sv}": "[[String: DBusValue]]"
    default: "DBusValue"
    }
}

/// How a proxy puts an argument of `type` on the wire: a `DBusValue` goes as it is.
func proxyEncode(_ name: String, _ type: String) -> String {
    switch type {
    case "v": ".variant(\(name))"
    // Keys sorted, so equal records are equal bytes.
    case "a{sv}": ".vardict(\(name))"
    case "aa{sv}": ".array(element: \"a{sv}\", \(name).map { .vardict($0) })"
    default: proxyType(type) == "DBusValue" ? name : "\(name).dbusValue"
    }
}

// MARK: Into NookCore

func writeNames(_ contract: Introspection, into out: inout Source) {
    out.line("/// The contract's D-Bus names, from data/org.nook.Nook1.xml: for nookd, the SDK, nookctl,")
    out.line("/// nook-renderer and nook-notifications alike.")
    out.block("public enum NookNames") { out in
        out.line("public static let busName = \(quoted(contract.busName))")
        out.line("public static let objectPath = \(quoted(contract.objectPath))")
        for interface in contract.interfaces {
            out.line("public static let \(memberCase(interface.shortName))Interface = \(quoted(interface.name))")
        }
        out.line("public static let propertiesInterface = \"org.freedesktop.DBus.Properties\"")
    }
    for interface in contract.interfaces {
        out.line()
        out.line("/// The methods, signals and properties of `\(interface.name)`.")
        out.block("public enum \(interface.shortName)Member: String, Hashable, Sendable, CaseIterable") { out in
            for member in interface.members {
                if let doc = member.doc { out.doc(doc) }
                out.line("case \(memberCase(member.name)) = \(quoted(member.name))")
            }
        }
    }
}

struct ErrorName: Decodable { var name: String; var swift: String; var doc: String }

func writeErrorNames(_ errors: [ErrorName], into out: inout Source) {
    out.line()
    out.line("/// The D-Bus error names of the contract (data/contract.json `errors`): the project's own")
    out.line("/// `org.nook.Nook1.Error.*` and the standard ones it uses where they fit.")
    out.block("public enum NookErrorName: String, Hashable, Sendable, CaseIterable") { out in
        for error in errors {
            out.doc(error.doc)
            out.line("case \(error.swift) = \(quoted(error.name))")
        }
    }
}

// MARK: Into NookBus

func writeBusContract(_ contracts: [Introspection], into out: inout Source) {
    func arguments(_ list: [Introspection.Argument]) -> String {
        "[" + list.map { "DBusArgument(\(quoted($0.name)), \(quoted($0.type)))" }.joined(separator: ", ") + "]"
    }
    out.line("/// Every method and signal of the contract with its signature, from data/*.xml:")
    out.line("/// what nookd exports (`DBusMethod(NookContract.Control.open) { ... }`) and what the proxies call.")
    out.block("public enum NookContract") { out in
        for (contract, interface) in contracts.flatMap({ contract in contract.interfaces.map { (contract, $0) } }) {
            out.line("/// `\(interface.name)`.")
            out.block("public enum \(interface.shortName)") { out in
                out.line("public static let interface = \(quoted(interface.name))")
                out.line("public static let path: ObjectPath = \(quoted(contract.objectPath))")
                out.line("public static let busName = \(quoted(interface.busName ?? contract.busName))")
                func list(_ name: String, _ type: String, _ keep: (Introspection.Kind) -> Bool) {
                    let names = interface.members.filter { keep($0.kind) }.map { memberCase($0.name) }
                    out.line("public static let \(name): [Contract\(type)] = [\(names.joined(separator: ", "))]")
                }
                list("methods", "Method") { if case .method = $0 { true } else { false } }
                list("signals", "Signal") { if case .signal = $0 { true } else { false } }
                list("properties", "Property") { if case .property = $0 { true } else { false } }
                for member in interface.members {
                    let name = memberCase(member.name)
                    switch member.kind {
                    case .method:
                        out.line("public static let \(name) = ContractMethod(interface, \(quoted(member.name)), in: \(arguments(member.inputs)), out: \(arguments(member.outputs)))")
                    case .signal:
                        out.line("public static let \(name) = ContractSignal(interface, \(quoted(member.name)), at: path, \(arguments(member.arguments)))")
                    case .property(let type, _):
                        out.line("public static let \(name) = ContractProperty(interface, \(quoted(member.name)), \(quoted(type)))")
                    }
                }
            }
        }
    }
}

func writeProxies(_ contract: Introspection, into out: inout Source) {
    for interface in contract.interfaces {
        let type = "Nook\(interface.shortName)Proxy"
        out.line()
        out.line("/// `\(interface.name)` as its callers see it: one method a member, typed as")
        out.line("/// the introspection XML declares it. A reply of another shape throws `InvalidArgs`.")
        out.block("public struct \(type): ContractProxy") { out in
            out.line("public let connection: BusConnection")
            out.line("public let destination: String")
            out.line("public let path: ObjectPath")
            out.line("public let timeout: Duration")
            out.line()
            let names = "NookContract.\(interface.shortName)"
            out.block("public init(_ connection: BusConnection, destination: String = \(names).busName, path: ObjectPath = \(names).path, timeout: Duration = .seconds(25))") { out in
                out.line("self.connection = connection")
                out.line("self.destination = destination")
                out.line("self.path = path")
                out.line("self.timeout = timeout")
            }
            for member in interface.members {
                let descriptor = "NookContract.\(interface.shortName).\(memberCase(member.name))"
                out.line()
                switch member.kind {
                case .method:
                    let parameters = member.inputs.map { "\($0.name): \(proxyType($0.type))" }.joined(separator: ", ")
                    let values = "[" + member.inputs.map { proxyEncode($0.name, $0.type) }.joined(separator: ", ") + "]"
                    let outputs = member.outputs
                    let result = switch outputs.count {
                    case 0: ""
                    case 1: " -> \(proxyType(outputs[0].type))"
                    default: " -> (" + outputs.map { "\($0.name): \(proxyType($0.type))" }.joined(separator: ", ") + ")"
                    }
                    let signature = "\(member.name)(\(member.inputs.map(\.type).joined()))" + (outputs.isEmpty ? "" : " -> \(outputs.map(\.type).joined())")
                    out.doc("`\(signature)`" + (member.doc.map { ": \($0)" } ?? ""))
                    if !outputs.isEmpty { out.line("@discardableResult") }
                    out.block("public func \(memberCase(member.name))(\(parameters)) async throws\(result)") { out in
                        let call = "try await call(\(descriptor), \(values))"
                        switch outputs.count {
                        case 0: out.line("_ = \(call)")
                        case 1: out.line("return try \(descriptor).output(0, of: \(call))")
                        default:
                            out.line("let reply = \(call)")
                            out.line("return (" + outputs.indices.map { "try \(descriptor).output(\($0), of: reply)" }.joined(separator: ", ") + ")")
                        }
                    }
                case .signal:
                    out.doc("Calls `handler` on the bus thread with each `\(member.name)` signal's arguments" + (member.doc.map { ": \($0)" } ?? "."))
                    out.block("public func on\(member.name)(_ handler: @escaping @Sendable ([DBusValue]) -> Void) async throws -> SignalSubscription") { out in
                        out.line("try await subscribe(to: \(descriptor), handler)")
                    }
                case .property(let propertyType, let writable):
                    out.line("/// The `\(member.name)` property (`\(propertyType)`).")
                    out.block("public func \(memberCase(member.name))() async throws -> \(proxyType(propertyType))") { out in
                        out.line("try await get(\(descriptor))")
                    }
                    if writable {
                        out.line()
                        out.line("/// Sets the `\(member.name)` property.")
                        out.block("public func set\(member.name)(_ value: \(proxyType(propertyType))) async throws") { out in
                            out.line("try await set(\(descriptor), \(proxyEncode("value", propertyType)))")
                        }
                    }
                }
            }
        }
    }
}
