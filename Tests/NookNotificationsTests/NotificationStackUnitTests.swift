import Foundation
import NookBus
import NookCore
import Testing

@testable import NookNotifications

/// The stack's pure parts (issue 40, part 5): its order, what the top one shows of the
/// others, the relevance that makes the broker agree, and the per-app peek allowance.
struct NotificationStackUnitTests {
    static func request(_ app: String, _ summary: String, urgency: UInt8 = 1) throws -> NotificationRequest {
        try NotificationRequest(arguments: [
            .string(app), .uint32(0), .string(""), .string(summary), .string(""), .array(element: "s", []),
            .dictionary(key: "s", value: "v", [.init(.string("urgency"), .variant(.byte(urgency)))]), .int32(-1),
        ])
    }

    @Test func theNewestOfTheHighestUrgencyIsOnTopAndTheRelevanceAgrees() throws {
        let live: [UInt32: NotificationRequest] = [
            1: try Self.request("A", "one"), 2: try Self.request("B", "two", urgency: 2), 3: try Self.request("A", "three"),
            4: try Self.request("C", "four", urgency: 0), 5: try Self.request("A", "five"),
        ]
        let stack = NotificationStack(live: live)
        #expect(stack.order == [2, 5, 3, 1, 4])
        #expect(stack.top == 2)
        // The broker sorts by relevance, highest first: the same order.
        let byRelevance = live.keys.sorted { NotificationStack.relevance(live[$0]!.urgency, id: $0) > NotificationStack.relevance(live[$1]!.urgency, id: $1) }
        #expect(byRelevance == stack.order)
        // Urgencies never mix; critical stays what the renderer lets over a fullscreen window;
        // normal stays below another module's activity at the default relevance (0).
        #expect(NotificationStack.relevance(.normal, id: .max) < 0)
        #expect(NotificationStack.relevance(.low, id: .max) < NotificationStack.relevance(.normal, id: 1))
        #expect(NotificationStack.relevance(.critical, id: 1) >= 100)
        #expect(NotificationStack.relevance(.normal, id: .max) > -10, "above a paused song (-10)")
    }

    @Test func theTopOneShowsTheCountAndTheOthersGroupedByApp() throws {
        var live: [UInt32: NotificationRequest] = [:]
        for id in UInt32(1)...4 { live[id] = try Self.request("Chat", "message \(id)") }
        live[5] = try Self.request("Mail", "mail")
        let stack = NotificationStack(live: live)
        let summary = try #require(stack.summary(for: 5))
        #expect(summary.count == 5)
        #expect(summary.rows == [NotificationStack.Row(appName: "Chat", summary: "message 4", count: 4)])
        #expect(stack.summary(for: 4) == nil)
        // Alone: no stack.
        #expect(NotificationStack(live: [1: try Self.request("A", "a")]).summary == nil)
        #expect(NotificationStack(live: [:]).top == nil)
    }

    /// Issue 40, part 5: the count shows wherever the top one of several shows: the pill, the
    /// peek, and a capsule (the activity's minimal view) too.
    @Test func theCountShowsInThePillThePeekAndACapsule() throws {
        var live: [UInt32: NotificationRequest] = [:]
        for id in UInt32(1)...3 { live[id] = try Self.request("Chat", "message \(id)") }
        let stack = NotificationStack(live: live)
        let top = try #require(stack.top)
        let content = NotificationContent(id: top, request: live[top]!, iconURI: "", imageURI: nil, dismissDate: nil, invoke: { _ in },
                                          stack: stack.summary(for: top))
        let fields = NotificationViews.activity(content).changes(since: nil, sequence: 1)
        func texts(_ value: PropValue?) -> [String] {
            guard case .node(let node)? = value else { return [] }
            var found: [String] = []
            func walk(_ node: RawNode) {
                if case .string(let text)? = node.props["text"] { found.append(text) }
                node.children.forEach(walk)
            }
            walk(node)
            return found
        }
        for slot in ["compact_trailing", "peek", "minimal"] {
            #expect(texts(fields[slot]).contains("3"), "\(slot) does not show the count: \(texts(fields[slot]))")
        }
        // Alone, the capsule is the icon only.
        let alone = NotificationContent(id: 1, request: live[1]!, iconURI: "", imageURI: nil, dismissDate: nil, invoke: { _ in })
        #expect(texts(NotificationViews.activity(alone).changes(since: nil, sequence: 1)["minimal"]).isEmpty)
    }

    @Test func theListIsBoundedToMaxRowsAndCountsTheRest() throws {
        var live: [UInt32: NotificationRequest] = [:]
        for id in UInt32(1)...20 { live[id] = try Self.request("app\(id % 10)", "n\(id)") }
        let summary = try #require(NotificationStack(live: live).summary)
        #expect(summary.count == 20)
        #expect(summary.rows.count == NotificationStack.maxRows)
        // Ten apps; the top's own app (app0: n20) still has n10 among the others.
        #expect(summary.rows.first == NotificationStack.Row(appName: "app9", summary: "n19", count: 2))
        #expect(summary.rows.count + summary.moreApps == 10)
        #expect(summary.rows.reduce(0) { $0 + $1.count } + summary.moreNotifications == 19)
    }

    @Test func aFloodFromOneAppPeeksABurstThenOnceASecond() {
        var allowance = NotificationStack.PeekAllowance()
        let start: Int64 = 1_796_000_000_000_000
        let burst = Int(NotificationStack.PeekAllowance.burst)
        let taken = (0..<100).filter { allowance.take(at: start + Int64($0) * 1_000) }.count
        #expect(taken == burst)
        let halfASecondOn = allowance.take(at: start + 500_000)
        let aSecondOn = allowance.take(at: start + 1_100_000)
        let soonAfter = allowance.take(at: start + 1_200_000)
        #expect(!halfASecondOn && aSecondOn && !soonAfter)
        // A clock that goes back refills nothing and traps on nothing.
        let backwards = allowance.take(at: 0)
        #expect(!backwards)
        #expect(!allowance.isFull(at: start))
        #expect(allowance.isFull(at: .max))
    }
}
