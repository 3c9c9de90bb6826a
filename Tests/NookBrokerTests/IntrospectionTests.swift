import Foundation
import Testing
import NookBus
import NookCore
import NookTestSupport

/// The shipped contract (`data/org.nook.Nook1.xml`) and what nookd exports agree.
@Suite struct IntrospectionTests {
    static let contractFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("data/org.nook.Nook1.xml")

    /// The members of each interface in introspection XML, one line each, e.g.
    /// `method Register(in s module, in a{sv} info)`, `signal Diagnostics(aa{sv} diagnostics)`,
    /// `property ReduceMotion b readwrite`. Written for the one-element-per-line form both
    /// files use; enough to compare names and signatures.
    static func members(_ xml: String) -> [String: [String]] {
        func attribute(_ name: String, in line: Substring) -> String? {
            guard let start = line.range(of: "\(name)=\"") else { return nil }
            let rest = line[start.upperBound...]
            return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
        }
        var out: [String: [String]] = [:]
        var interface: String?
        var member: (kind: String, name: String, args: [String])?
        func close() {
            if let current = member, let interface { out[interface, default: []].append("\(current.kind) \(current.name)(\(current.args.joined(separator: ", ")))") }
            member = nil
        }
        for raw in xml.split(separator: "\n") {
            let line = raw.drop { $0 == " " }
            if line.hasPrefix("<interface ") {
                interface = attribute("name", in: line)
            } else if line.hasPrefix("</interface>") {
                interface = nil
            } else if line.hasPrefix("<method ") || line.hasPrefix("<signal ") {
                member = (line.hasPrefix("<method") ? "method" : "signal", attribute("name", in: line) ?? "?", [])
                if line.hasSuffix("/>") { close() }
            } else if line.hasPrefix("</method>") || line.hasPrefix("</signal>") {
                close()
            } else if line.hasPrefix("<arg "), member != nil {
                let direction = attribute("direction", in: line).map { $0 + " " } ?? ""
                member!.args.append(direction + (attribute("type", in: line) ?? "?") + " " + (attribute("name", in: line) ?? "?"))
            } else if line.hasPrefix("<property "), let interface {
                out[interface, default: []].append(
                    "property \(attribute("name", in: line) ?? "?") \(attribute("type", in: line) ?? "?") \(attribute("access", in: line) ?? "?")")
            }
        }
        return out
    }

    @Test func theContractFileListsEveryMember() throws {
        let contract = Self.members(try String(contentsOf: Self.contractFile, encoding: .utf8))
        #expect(Set(contract.keys) == ["org.nook.Nook1.Modules", "org.nook.Nook1.Control", "org.nook.Nook1.Render"])
        #expect(contract["org.nook.Nook1.Modules"]?.count == 9, "8 of v1 and 1.1's ActionInvoked")
        #expect(contract["org.nook.Nook1.Control"]?.count == 21, "16 of CONTRACT.md, the added EndActivity, ReloadTheme and Focus, and 1.1's StateChanged and Invoke")
        #expect(contract["org.nook.Nook1.Render"]?.count == 7, "4 of v1, 1.1's Activate, and the added OpenSlot and FocusRequested")
        #expect(contract["org.nook.Nook1.Render"]?.contains("method OpenSlot(in a{sv} target, out t serial)") == true)
        #expect(contract["org.nook.Nook1.Control"]?.contains("method Focus(in a{sv} options, out t serial)") == true)
        #expect(contract["org.nook.Nook1.Modules"]?.contains("method StartActivity(in s activity, in a{sv} spec)") == true)
        #expect(contract["org.nook.Nook1.Render"]?.contains("method Subscribe(in a{sv} display, out o handle, out a{sv} plan)") == true)
    }

    /// The names declared once in NookCore (`NookNames`, `*Member`) are exactly the file's.
    @Test func theDeclaredNamesAreTheContractFilesNames() throws {
        let contract = Self.members(try String(contentsOf: Self.contractFile, encoding: .utf8))
        func names(_ interface: String) -> Set<String> {
            Set((contract[interface] ?? []).map { line in
                let afterKind = line.drop { $0 != " " }.dropFirst()
                return String(afterKind.prefix { $0 != "(" && $0 != " " })
            })
        }
        #expect(Set(contract.keys) == [NookNames.modulesInterface, NookNames.controlInterface, NookNames.renderInterface])
        #expect(names(NookNames.modulesInterface) == Set(ModulesMember.allCases.map(\.rawValue)))
        #expect(names(NookNames.controlInterface) == Set(ControlMember.allCases.map(\.rawValue)))
        #expect(names(NookNames.renderInterface) == Set(RenderMember.allCases.map(\.rawValue)))
        let xml = try String(contentsOf: Self.contractFile, encoding: .utf8)
        #expect(xml.contains("<node name=\"\(NookNames.objectPath)\">"))
    }

    @Test func theExportedInterfacesMatchTheContractFile() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        try await PrivateBus.with { bus in
            let nookd = try await NookdProcess(bus: bus, stateDirectory: temp.stateDirectory)
            let client = try await BusConnection.connect(to: .address(bus.address))
            let reply = try await client.call(
                destination: "org.nook.Nook1", path: "/org/nook/Nook1", interface: "org.freedesktop.DBus.Introspectable", member: "Introspect")
            let exported = Self.members(try decode(reply[0], as: String.self))
            let contract = Self.members(try String(contentsOf: Self.contractFile, encoding: .utf8))
            let modules = "org.nook.Nook1.Modules"
            for interface in [modules, "org.nook.Nook1.Control", "org.nook.Nook1.Render"] {
                #expect(exported[interface]?.sorted() == contract[interface]?.sorted(), "\(interface)")
            }
            // busctl, which shares no code with us, sees the same.
            let busctl = try await Tools.run("busctl", ["--address=\(bus.address)", "introspect", "org.nook.Nook1", "/org/nook/Nook1", modules])
            #expect(busctl.status == 0, "\(busctl.stderr)")
            #expect(busctl.stdout.contains(".SetContent") && busctl.stdout.contains("s(sa{sv}av)"))
            await client.close()
            #expect(await nookd.stop() == 0)
        }
    }
}
