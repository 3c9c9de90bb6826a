import NookBus
import NookCore

extension Broker {
    /// A subscriber from `Subscribe`'s (or `DisplayChanged`'s) display record.
    ///
    /// Every number is read within its `NumberDomain`: sizes `length` (width and height also
    /// above 0), `scale` `displayScale`, `refresh_rate` `refreshRate` (1...1000 Hz: a frame
    /// is how long plans coalesce, and curves are sampled once per frame for renderers
    /// without springs). Out of range is `InvalidArgs` naming the key.
    static func subscriber(_ connection: String, _ record: [String: PropValue]) throws(DBusError) -> RenderSubscriber {
        func size(_ key: String, required: Bool) throws(DBusError) -> Double {
            guard let value = try number(record, key, in: .length, context: "display") else {
                if required { throw DBusError(nook: .invalidArgs, "display: missing key '\(key)'") }
                return 0
            }
            return value
        }
        let width = try size("width", required: true), height = try size("height", required: true)
        guard width > 0, height > 0 else { throw DBusError(nook: .invalidArgs, "display: 'width' and 'height' must be positive") }
        let display = DisplayInfo(
            width: width, height: height, notchWidth: try size("notch_width", required: false),
            notchHeight: try size("notch_height", required: false),
            scale: try number(record, "scale", in: .displayScale, context: "display") ?? 1)
        var capabilities = RenderCapability.v1
        if let value = record["capabilities"] {
            guard case .array(let items) = value else { throw DBusError(nook: .invalidArgs, "display: key 'capabilities' must be 'as'") }
            capabilities = []
            for item in items {
                guard case .string(let name) = item else { throw DBusError(nook: .invalidArgs, "display: key 'capabilities' must be 'as'") }
                // Unknown capabilities are ignored: newer renderers may know more than we do.
                if let capability = RenderCapability(rawValue: name) { capabilities.insert(capability) }
            }
        }
        return RenderSubscriber(
            connection: connection, name: InputQuote.text(try string(record, "name") ?? ""), display: display,
            refreshRate: try number(record, "refresh_rate", in: .refreshRate, context: "display") ?? RenderSubscriber.defaultRefreshRate,
            capabilities: capabilities)
    }
}
