import Foundation

/// The layer surfaces a client asked for, read from its `WAYLAND_DEBUG=1` trace: libwayland's
/// own record of each request sent, which sway 1.7's IPC does not list (`get_tree` and
/// `get_outputs` leave layer surfaces out). The output a request names is a `wl_output` proxy;
/// its connector name comes from the `zxdg_output_v1.name` event of the xdg-output GTK gets
/// for that proxy. Read in order, so a proxy id the client reuses names its latest output.
struct LayerSurfaceTrace {
    struct Request: Sendable, Equatable, CustomStringConvertible {
        static func == (a: Request, b: Request) -> Bool {
            (a.surface, a.output, a.layer, a.namespace, a.exclusiveZone) == (b.surface, b.output, b.layer, b.namespace, b.exclusiveZone)
                && a.size?.width == b.size?.width && a.size?.height == b.size?.height
        }

        /// `zwlr_layer_surface_v1@N`
        var surface: String
        /// The connector (`HEADLESS-1`); nil when the client left the output to the compositor.
        var output: String?
        var layer: Layer
        var namespace: String
        /// The last `set_exclusive_zone` sent for this surface.
        var exclusiveZone: Int?
        /// The last `set_size` sent for this surface, in points.
        var size: (width: Int, height: Int)?
        var description: String {
            "\(surface) on \(output ?? "the compositor's choice"), layer \(layer), namespace \(namespace), exclusive zone \(exclusiveZone.map(String.init) ?? "-")"
                + ", size \(size.map { "\($0.width)x\($0.height)" } ?? "-")"
        }
    }

    /// zwlr_layer_shell_v1's layer enum.
    enum Layer: Int, Sendable { case background = 0, bottom = 1, top = 2, overlay = 3 }

    private(set) var requests: [Request] = []

    init(_ trace: String) {
        var xdgOutputOf: [String: String] = [:]  // zxdg_output_v1@N -> wl_output@M
        var nameOf: [String: String] = [:]  // wl_output@M -> connector
        for line in trace.split(separator: "\n") {
            if let arguments = Self.arguments(of: "get_xdg_output", in: line), arguments.count == 2 {
                xdgOutputOf[Self.object(arguments[0])] = arguments[1]
            } else if let (object, arguments) = Self.event("name", in: line), object.hasPrefix("zxdg_output_v1@"),
                      let output = xdgOutputOf[object], let name = arguments.first {
                nameOf[output] = Self.unquoted(name)
            } else if let arguments = Self.arguments(of: "get_layer_surface", in: line), arguments.count == 5,
                      let layerNumber = Int(arguments[3]), let layer = Layer(rawValue: layerNumber) {
                requests.append(Request(surface: Self.object(arguments[0]), output: nameOf[arguments[2]], layer: layer,
                                        namespace: Self.unquoted(arguments[4])))
            } else if let arguments = Self.arguments(of: "set_exclusive_zone", in: line), let zone = arguments.first.flatMap({ Int($0) }),
                      let surface = Self.target(of: line), let index = requests.lastIndex(where: { $0.surface == surface }) {
                requests[index].exclusiveZone = zone
            } else if let arguments = Self.arguments(of: "set_size", in: line), arguments.count == 2,
                      let width = Int(arguments[0]), let height = Int(arguments[1]),
                      let surface = Self.target(of: line), let index = requests.lastIndex(where: { $0.surface == surface }) {
                requests[index].size = (width, height)
            }
        }
    }

    /// `[123.456]  -> iface@N.request(a, b)`: the arguments of a request the client sent.
    private static func arguments(of request: String, in line: Substring) -> [String]? {
        guard line.contains(" -> "), let call = line.range(of: ".\(request)(") else { return nil }
        return split(line[call.upperBound...])
    }

    /// `[123.456] iface@N.event(a, b)`: an event the client received, and its target.
    private static func event(_ event: String, in line: Substring) -> (String, [String])? {
        guard !line.contains(" -> "), let call = line.range(of: ".\(event)("), let target = target(of: line) else { return nil }
        return (target, split(line[call.upperBound...]))
    }

    /// The `iface@N` a line's message is for.
    private static func target(of line: Substring) -> String? {
        guard let close = line.firstIndex(of: "]") else { return nil }
        let rest = line[line.index(after: close)...].drop { $0 == " " || $0 == "-" || $0 == ">" }
        guard let dot = rest.firstIndex(of: ".") else { return nil }
        return String(rest[..<dot])
    }

    /// Splits `a, "b, c", d)` at top-level commas up to the closing parenthesis.
    private static func split(_ text: Substring) -> [String] {
        var parts: [String] = [], current = "", quoted = false
        for character in text {
            if character == "\"" { quoted.toggle() }
            if !quoted && character == ")" { break }
            if !quoted && character == "," {
                parts.append(current.trimmingCharacters(in: .whitespaces))
                current = ""
            } else {
                current.append(character)
            }
        }
        parts.append(current.trimmingCharacters(in: .whitespaces))
        return parts
    }

    /// `new id zxdg_output_v1@19` -> `zxdg_output_v1@19`
    private static func object(_ argument: String) -> String {
        String(argument.split(separator: " ").last ?? "")
    }

    private static func unquoted(_ text: String) -> String {
        text.hasPrefix("\"") && text.hasSuffix("\"") && text.count >= 2 ? String(text.dropFirst().dropLast()) : text
    }
}
