/// What a video capture takes: a camera, or the screen (a screen cast).
public enum VideoSourceKind: String, Hashable, Sendable, CaseIterable {
    case camera, screen
}

/// One app capturing a camera or the screen: the app as it names itself to PipeWire
/// (`application.name`, else its binary, else its stream's node name), at most 64 characters.
public struct VideoCapture: Hashable, Sendable, Comparable {
    public var kind: VideoSourceKind
    public var application: String

    public init(kind: VideoSourceKind, application: String) {
        self.kind = kind
        self.application = String(application.prefix(64))
    }

    public static func < (a: VideoCapture, b: VideoCapture) -> Bool {
        (a.kind.rawValue, a.application) < (b.kind.rawValue, b.application)
    }
}

/// PipeWire's objects as far as the camera and the screen in use need them, and who captures
/// what: pure, fed the registry's records in order (`PipeWireWatch`).
///
/// A video source is a node of media class `Video/Source` (or a subclass). It is a camera when
/// it says so (`media.role` `Camera`, as WirePlumber's V4L2 and libcamera nodes and virtual
/// cameras do) or comes from a device (`device.id`); any other video source is a screen cast,
/// as the desktop portals' backends make them (xdg-desktop-portal-wlr, GNOME's and KDE's).
/// A source is captured while a link runs from it to a node of another client; the capturing
/// app is that node's client.
///
/// At most `maxObjects` nodes, links and clients each are kept (a session has dozens); past
/// that, new ones are not followed.
public struct PipeWireGraph: Sendable {
    public static let maxObjects = 4096

    struct Node: Sendable {
        var mediaClass: String?
        var role: String?
        var fromDevice: Bool
        var client: UInt32?
        var applicationName: String?
        var nodeName: String?
    }

    private var nodes: [UInt32: Node] = [:]
    private var links: [UInt32: (output: UInt32, input: UInt32)] = [:]
    private var clients: [UInt32: String] = [:]

    public init() {}

    /// Unsigned ids as PipeWire writes them; anything else is no id.
    private static func id(_ text: String?) -> UInt32? { text.flatMap { UInt32($0) } }

    public mutating func node(_ id: UInt32, _ properties: [String: String]) {
        guard nodes[id] != nil || nodes.count < Self.maxObjects else { return }
        nodes[id] = Node(
            mediaClass: properties["media.class"], role: properties["media.role"], fromDevice: properties["device.id"] != nil,
            client: Self.id(properties["client.id"]), applicationName: properties["application.name"], nodeName: properties["node.name"])
    }

    public mutating func link(_ id: UInt32, _ properties: [String: String]) {
        guard let output = Self.id(properties["link.output.node"]), let input = Self.id(properties["link.input.node"]),
              links[id] != nil || links.count < Self.maxObjects else { return }
        links[id] = (output, input)
    }

    public mutating func client(_ id: UInt32, _ properties: [String: String]) {
        if let name = properties["application.name"] ?? properties["application.process.binary"], !name.isEmpty,
           clients[id] != nil || clients.count < Self.maxObjects {
            clients[id] = name
        }
    }

    /// An object of any kind went away (ids are unique across kinds).
    public mutating func remove(_ id: UInt32) {
        nodes[id] = nil
        links[id] = nil
        clients[id] = nil
    }

    /// The server went away, and everything with it.
    public mutating func clear() { self = PipeWireGraph() }

    func kind(of node: Node) -> VideoSourceKind? {
        guard let mediaClass = node.mediaClass, mediaClass == "Video/Source" || mediaClass.hasPrefix("Video/Source/") else { return nil }
        return node.role == "Camera" || node.fromDevice ? .camera : .screen
    }

    /// Who captures a camera or the screen now, sorted, each app once per kind.
    public var captures: [VideoCapture] {
        var found: Set<VideoCapture> = []
        for (output, input) in links.values {
            guard let source = nodes[output], let kind = kind(of: source), let capturer = nodes[input] else { continue }
            // A node of the source's own client (its converter, a monitor of itself) is no capture.
            if let client = capturer.client, client == source.client { continue }
            let name = capturer.client.flatMap { clients[$0] } ?? capturer.applicationName ?? capturer.nodeName ?? "an app"
            found.insert(VideoCapture(kind: kind, application: name))
        }
        return found.sorted()
    }
}
