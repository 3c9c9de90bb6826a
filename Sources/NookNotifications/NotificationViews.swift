import FoundationEssentials
import Glibc
import NookModuleAPI

/// What the bridge's views show of one notification, resolved: the icon and image as URIs
/// the renderer loads, and what a press does.
public struct NotificationContent: Sendable {
    public var id: UInt32
    public var request: NotificationRequest
    /// The app icon: a `file://` URI or an icon-theme name.
    public var iconURI: String
    /// The notification's image (`image-data` written to a file, or a readable `image-path`).
    public var imageURI: String?
    /// When the broker ends it (nil: it stays until closed).
    public var dismissDate: NookInstant?
    /// Runs the action with this key (`ActionInvoked`, then closing unless resident).
    public var invoke: @Sendable (String) async -> Void
    /// The app's name from its `.desktop` file (the `desktop-entry` hint), shown over the summary.
    public var displayName: String? = nil
    /// Opens a link of the body (`xdg-open`).
    public var openLink: @Sendable (String) async -> Void = { _ in }
    /// The stack, when this is the top one of several live notifications (NotificationStack).
    public var stack: NotificationStack.Summary? = nil
}

/// The app icon, marked `icon` wherever it shows, so it moves between pill, peek and
/// expanded view as one element.
struct AppIcon: NookView {
    var uri: String
    var body: some NookView { Image(uri: uri) }
}

/// Summary over body, the body cut shorter in the peek than in the expanded view.
struct NotificationText: NookView {
    var summary: String
    var detail: String
    /// The body's styled lines when it had markup (`NotificationRequest.bodyRuns`): drawn
    /// styled rather than `detail`.
    var detailRuns: [[BodyRun]] = []
    var size: Double

    var body: some NookView {
        VStack(alignment: .leading, spacing: 2) {
            Text(summary).font(size: size, weight: .semibold)
            if !detailRuns.isEmpty {
                PeekBody(lines: detailRuns, maxBytes: NotificationViews.peekBodyBytes, size: size - 1)
            } else if !detail.isEmpty {
                Text(detail).font(size: size - 1).opacity(0.8)
            }
        }
    }
}

public enum NotificationViews {
    /// Bytes of body text in the peek, and characters of summary in the pill.
    static let peekBodyBytes = 200
    static let pillSummaryBytes = 40

    /// The activity id of notification `id`.
    public static func activityID(_ id: UInt32) -> String { "n\(id)" }

    /// The action id of the control for `key`: the key itself when it is a valid id (so
    /// `nookctl press notifications/n3 ok` presses `ok`), else `action-N` by its place.
    public static func actionID(_ key: String, index: Int) -> String {
        let allowed = key.utf8.count <= 64 && !key.isEmpty
            && key.unicodeScalars.allSatisfy { $0.isASCII && IDCharacters.contains($0) }
        // `link-N` is a link of the body (BodyText).
        return allowed && !key.hasPrefix("action-") && !key.hasPrefix("link-") ? key : "action-\(index)"
    }

    /// The notification as an activity: the app icon and summary in the pill; icon, summary
    /// and body in the peek (none for low urgency, which never peeks); icon, app name,
    /// summary, body, progress, image and the actions as buttons in the expanded view.
    /// `default` is a press on the pill or the peek. Critical sorts first, then the newest
    /// (`NotificationStack.relevance`); the top one of several shows the stack.
    public static func activity(_ content: NotificationContent) -> NookLiveActivity {
        let request = content.request
        let invoke = content.invoke
        let title = request.summary.isEmpty ? request.appName : request.summary
        let label = [request.appName, request.summary].filter { !$0.isEmpty }.joined(separator: ": ")
        let relevance = NotificationStack.relevance(request.urgency, id: content.id)
        let pillText = title.prefixBytes(pillSummaryBytes, ellipsis: true)
        let defaultPress: (@Sendable () async -> Void)? = request.hasDefaultAction ? { @Sendable in await invoke("default") } : nil
        var activity = NookLiveActivity(id: activityID(content.id), accessibilityLabel: label.isEmpty ? "Notification" : label, relevance: relevance) {
            pressable(AppIcon(uri: content.iconURI).frame(width: 20, height: 20).nookSharedElement("icon"), defaultPress, request.defaultLabel)
        } compactTrailing: {
            if let stack = content.stack {
                pressable(
                    HStack(spacing: 6) {
                        accented(Text(pillText).font(size: 12), request.ruleEffects.colour)
                        StackBadge(count: stack.count, size: 11)
                    }, defaultPress, request.defaultLabel)
            } else {
                pressable(accented(Text(pillText).font(size: 12), request.ruleEffects.colour), defaultPress, request.defaultLabel)
            }
        } minimal: {
            // In a capsule too, the top one of several says how many there are.
            if let stack = content.stack {
                HStack(spacing: 3) {
                    AppIcon(uri: content.iconURI).frame(width: 16, height: 16)
                    StackBadge(count: stack.count, size: 9)
                }
            } else {
                AppIcon(uri: content.iconURI).frame(width: 16, height: 16)
            }
        }
        activity.dismissDate = content.dismissDate
        if request.urgency != .low {
            activity.setPeek {
                pressable(
                    HStack(spacing: 8) {
                        if let colour = request.ruleEffects.colour { RoundedRectangle(cornerRadius: 1.5).fill(NookColor(hex: colour)).frame(width: 3, height: 32) }
                        AppIcon(uri: content.iconURI).frame(width: 32, height: 32).nookSharedElement("icon")
                        NotificationText(summary: title, detail: request.body.prefixBytes(peekBodyBytes, ellipsis: true), detailRuns: request.bodyRuns, size: 13)
                        if let progress = request.progress { ProgressView(value: Double(progress) / 100).frame(width: 48, height: 4) }
                        if let stack = content.stack { StackBadge(count: stack.count, size: 12) }
                    }, defaultPress, request.defaultLabel)
            }
        }
        activity.setExpanded {
            VStack(alignment: .leading, spacing: 8) {
                // The header is the notification itself: a click on it fires `default`, as
                // one on the pill or the peek does (hovering a peek opens this view first).
                pressable(
                    HStack(spacing: 10) {
                        AppIcon(uri: content.iconURI).frame(width: 32, height: 32).nookSharedElement("icon")
                        VStack(alignment: .leading, spacing: 2) {
                            if let name = content.displayName ?? (request.appName.isEmpty ? nil : request.appName) { Text(name).font(size: 11).opacity(0.6) }
                            Text(title).font(size: 15, weight: .semibold)
                        }
                    }, defaultPress, request.defaultLabel)
                if !request.bodyRuns.isEmpty {
                    BodyText(lines: request.bodyRuns, size: 13, openLink: content.openLink)
                } else if !request.body.isEmpty {
                    Text(request.body).font(size: 13)
                }
                if let progress = request.progress { ProgressView(value: Double(progress) / 100) }
                if let image = content.imageURI { Image(uri: image).frame(width: 64, height: 64) }
                if !request.actions.isEmpty {
                    HStack(spacing: 8) {
                        ForEach(Array(request.actions.enumerated()), id: \.offset) { index, action in
                            Button(action.label) { await invoke(action.key) }
                                .actionID(actionID(action.key, index: index))
                                .accessibilityLabel(action.label)
                        }
                    }
                }
                if let stack = content.stack { StackList(summary: stack) }
            }
        }
        return activity
    }

    /// The pill's text in a rule's `colour` (the accent), when one set it.
    static func accented(_ text: Text, _ colour: String?) -> Text {
        colour.map { text.foregroundStyle(NookColor(hex: $0)) } ?? text
    }

    /// `view`, made a control running `press` (the `default` action) when there is one.
    @NookViewBuilder
    static func pressable(_ view: some NookView, _ press: (@Sendable () async -> Void)?, _ label: String) -> some NookView {
        if let press {
            view.onTapGesture(perform: press).actionID("default").accessibilityLabel(label)
        } else {
            view
        }
    }
}

/// SPEC rule 1's id characters: ASCII letters, digits, `-`, `_`, `.`.
enum IDCharacters {
    static func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar) || "-_.".unicodeScalars.contains(scalar))
    }
}
