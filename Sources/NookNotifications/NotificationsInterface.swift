import NookBus

/// `org.freedesktop.Notifications` (specification 1.2) at `/org/freedesktop/Notifications`.
public enum NotificationsInterface {
    public static let name = "org.freedesktop.Notifications"
    public static let path: ObjectPath = "/org/freedesktop/Notifications"
    public static let specVersion = "1.2"

    /// What the bridge always draws and does (docs/notifications.md, "Capabilities"): the
    /// actions as buttons; the body; its markup drawn (`b`, `i`, `u`; `img` is not, so no
    /// `body-images`); its links opened on a click; the app icon, unanimated.
    public static let capabilities = ["actions", "body", "body-hyperlinks", "body-markup", "icon-static"]

    /// `capabilities`, with `persistence` when closed notifications are kept in a history to
    /// bring back (`--history` above 0), and `sound` when the hints' sounds are played
    /// (`canberra-gtk-play` is installed and `--no-sound` is not given).
    public static func capabilities(persistence: Bool, sound: Bool) -> [String] {
        (capabilities + (persistence ? ["persistence"] : []) + (sound ? ["sound"] : [])).sorted()
    }

    static func arg(_ name: String, _ signature: Signature) -> DBusArgument { DBusArgument(name, signature) }

    static let signals = [
        DBusSignal("NotificationClosed", [arg("id", "u"), arg("reason", "u")]),
        DBusSignal("ActionInvoked", [arg("id", "u"), arg("action_key", "s")]),
        DBusSignal("ActivationToken", [arg("id", "u"), arg("activation_token", "s")]),
    ]

    /// `Notify`, reading at most `RawImage.maxPixelBytes` of any byte array (the image-data).
    /// `notify` gives the id, answered at once, and the work that reads the request after it.
    static func notifyMethod(_ notify: @escaping @Sendable (MethodCall) throws -> (UInt32, () -> Void)) -> DBusMethod {
        var method = DBusMethod.replyingFirst(
            "Notify",
            in: [arg("app_name", "s"), arg("replaces_id", "u"), arg("app_icon", "s"), arg("summary", "s"), arg("body", "s"),
                 arg("actions", "as"), arg("hints", "a{sv}"), arg("expire_timeout", "i")],
            out: [arg("id", "u")]
        ) { call in
            let (id, afterReply) = try notify(call)
            return ([.uint32(id)], afterReply)
        }
        method.maxByteArrayCount = RawImage.maxPixelBytes
        return method
    }

    /// The interface; `notify` and `close` run on the connection's thread and reply at once
    /// (`notify` reads the request after its reply; `close` throws the spec's error for an id
    /// that is not live).
    static func interface(
        version: String, capabilities: [String] = capabilities,
        notify: @escaping @Sendable (MethodCall) throws -> (UInt32, () -> Void), close: @escaping @Sendable (_ id: UInt32, _ sender: String) throws -> Void
    ) -> DBusInterface {
        DBusInterface(
            name,
            methods: [
                notifyMethod(notify),
                DBusMethod("CloseNotification", in: [arg("id", "u")]) { call in
                    try close(try call.argument(0, as: UInt32.self), call.sender)
                    return []
                },
                DBusMethod("GetCapabilities", out: [arg("capabilities", "as")]) { _ in
                    [.array(element: "s", capabilities.map { .string($0) })]
                },
                DBusMethod("GetServerInformation", out: [arg("name", "s"), arg("vendor", "s"), arg("version", "s"), arg("spec_version", "s")]) { _ in
                    [.string("Nook"), .string("Nook"), .string(version), .string(specVersion)]
                },
            ],
            signals: signals)
    }
}
