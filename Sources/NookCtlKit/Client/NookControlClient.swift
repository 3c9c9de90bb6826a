import FoundationEssentials
import Synchronization
import Glibc
import NookBus
import NookCore

/// Runs `Command`s against `org.nook.Nook1` on `/org/nook/Nook1` over one bus connection.
///
/// ```swift
/// let bus = try await BusConnection.connect(to: .session)
/// let status = try await NookControlClient(connection: bus).execute(.status, output: .standard)
/// ```
public struct NookControlClient: Sendable {
    public let connection: BusConnection
    public var timeout: Duration = .seconds(25)

    /// Performs one contract call and returns the reply's arguments.
    /// - Throws: `DBusError` as the broker (or the bus) replied.
    public func call(_ call: ContractCall) async throws -> [DBusValue] {
        try await connection.call(destination: NookNames.busName, path: ObjectPath.nook, interface: call.interface,
                                  member: call.member, arguments: call.arguments, timeout: timeout)
    }

    /// Runs `command`, printing its result to `output`.
    /// - Returns: `.ok`, or `.failure` for failures found locally (`end`, an unreadable file).
    /// - Throws: `DBusError` from the broker; the caller prints it and exits 1.
    public func execute(_ command: Command, output: OutputSink) async throws -> ExitStatus {
        switch command {
        case .help(let verb):
            output.out(HelpText.help(for: verb))
        case .status, .activities, .modules:
            let state = try WireFields(reply: try await first(.getState))
            switch command {
            case .status: output.out(try StateText.status(state))
            case .activities: output.out(try StateText.activityList(state))
            default: output.out(try StateText.moduleList(state))
            }
        case .reload:
            _ = try await call(.reloadTheme)
            output.out("reloaded the theme\n")
            return await reloadNotificationRules(output: output)
        case .show, .hide, .setReduceMotion, .themeSet, .animationSet:
            for contractCall in command.calls { _ = try await call(contractCall) }
        case .open, .close, .peek, .unpeek, .companion, .display, .focus:
            // Each returns the serial of the plan it caused.
            let reply = try await first(command.calls[0])
            guard case .uint64(let serial) = reply.unwrappingVariants else {
                throw DBusError(.invalidSignature, "\(command.calls[0].member) replied '\(reply.signature)'; expected 't'")
            }
            output.out("\(serial)\n")
        case .statusAs(.waybar, let follow):
            try await followWaybar(follow: follow, output: output)
        case .statusAs(let format, let follow):
            let print = { (state: DBusValue) throws(WireFieldError) in output.out(try StateText.formatted(state, as: format)) }
            guard follow else {
                try print(try await first(.getState))
                break
            }
            // Listen first, then read: no change between the two is lost.
            let changes = try await connection.stream(matching: MatchRule(path: ObjectPath.nook, interface: NookNames.controlInterface,
                                                                         member: ControlMember.stateChanged.rawValue)) { signal in signal.arguments.first }
            try print(try await first(.getState))
            for await state in changes { try print(state) }
        case .toggle:
            let state = try WireFields(reply: try await first(.getState))
            let isOpen = ["expanded", "peek", "companion"].contains(try state.string("presentation", default: ""))
            let reply = try await first(isOpen ? .close() : .open([:]))
            guard case .uint64(let serial) = reply.unwrappingVariants else {
                throw DBusError(.invalidSignature, "\(isOpen ? "Close" : "Open") replied '\(reply.signature)'; expected 't'")
            }
            output.out("\(serial)\n")
        case .preview(_, _, let json):
            let plan = try await first(command.calls[0])
            output.out(json ? PlanJSON.json(plan) + "\n" : try PlanExplanation.text(plan))
        case .themeShow:
            output.out(StateText.tokens(try await first(.getTokens)))
        case .themeLoad(let path):
            let tokens: [String: DBusValue]
            do {
                tokens = try Self.tokens(inFile: path)
            } catch {
                output.err("nookctl: \(error)\n")
                return .failure
            }
            _ = try await call(.setTokens(tokens))
            output.out("sent \(tokens.count) tokens\n")
        case .end(let module, let activity, _):
            for contractCall in command.calls { _ = try await call(contractCall) }
            output.out("ended \(module)/\(activity)\n")
        case .press, .actions:
            return try await executeTouch(command, output: output)
        case .watch(let json, let display, let count):
            let end = try await subscribe(display: display, limit: count.map(RecordLimit.count)) { recorded in
                output.out((json ? PlanJSON.json(recorded.plan) : PlanSummary.line(recorded.plan)) + "\n")
            }
            if end == .brokerLeft {
                output.err("nookctl: \(NookNames.busName) left the bus\n")
                return .failure
            }
        case .record(let file, let limit, let display):
            let collector = PlanCollector()
            let end = try await subscribe(display: display, limit: limit) { recorded in
                // Once subscribed, say so: scripts (and tests) wait for this line before acting.
                if collector.append(recorded) == 1 {
                    output.err("nookctl: recording into \(file) (SIGINT or SIGTERM stops and writes it)\n")
                }
            }
            if end == .brokerLeft { output.err("nookctl: \(NookNames.busName) left the bus; writing what was recorded\n") }
            let plans = collector.plans
            let svg = SVGRecording(plans: plans).document
            do {
                try svg.write(toFile: file, atomically: true, encoding: .utf8)
            } catch {
                output.err("nookctl: cannot write \(file): \(error)\n")
                return .failure
            }
            output.out("wrote \(file): \(plans.count) plans\n")
        case .activity(let activityCommand):
            return try await execute(activityCommand, output: output)
        case .notifications(let notificationsCommand):
            return try await execute(notificationsCommand, output: output)
        case .osd(let request):
            return try await execute(request, output: output)
        case .timer(let timerCommand):
            return try await execute(timerCommand, output: output)
        }
        return .ok
    }

    /// `status --format waybar [--follow]`: nookd's state, with nook-notifications' do not
    /// disturb when it serves (its absence is no error); following both `StateChanged` and
    /// `DoNotDisturbChanged`, a line for each.
    func followWaybar(follow: Bool, output: OutputSink) async throws {
        enum Change: Sendable { case state(DBusValue), dnd(DBusValue) }
        let (changes, sink) = AsyncStream<Change>.makeStream()
        if follow {
            // Listen first, then read: no change between the two is lost.
            let states = try await connection.stream(matching: NookContract.Control.stateChanged.matchRule) { signal in signal.arguments.first }
            let dnds = try await connection.stream(matching: NookContract.Notifications.doNotDisturbChanged.matchRule) { signal in signal.arguments.first }
            Task { for await state in states { sink.yield(.state(state)) }; sink.finish() }
            Task { for await dnd in dnds { sink.yield(.dnd(dnd)) } }
        }
        var state = try await first(.getState)
        var dnd = try? await callNotifications(NotificationsCommand.dndStatus(json: true).calls[0]).first
        output.out(try StateText.formatted(state, as: .waybar, doNotDisturb: dnd))
        guard follow else { return }
        for await change in changes {
            switch change {
            case .state(let value): state = value
            case .dnd(let value): dnd = value
            }
            output.out(try StateText.formatted(state, as: .waybar, doNotDisturb: dnd))
        }
    }

    private func first(_ contractCall: ContractCall) async throws -> DBusValue {
        let reply = try await call(contractCall)
        guard let value = reply.first else {
            throw DBusError(.invalidSignature, "\(contractCall.member) replied with nothing; expected '\(contractCall.replySignature)'")
        }
        return value
    }

    /// How a subscription ended.
    public enum SubscriptionEnd: Hashable, Sendable {
        /// The count or the time ran out (or the task was cancelled).
        case limit
        /// The broker's name lost its owner: nookd stopped or was replaced.
        case brokerLeft
    }

    /// Subscribes as a renderer and hands each plan (the reply's, then each `Plan` signal's) to
    /// `deliver`, until `limit` or until the broker leaves the bus; then unsubscribes. No
    /// limit: until the broker leaves or the process is stopped.
    ///
    /// The signal matches are installed before `Subscribe` is called, so no plan falls between.
    @discardableResult
    public func subscribe(display: DisplayArguments, limit: RecordLimit?,
                          deliver: @escaping @Sendable (RecordedPlan) -> Void) async throws -> SubscriptionEnd {
        let rule = MatchRule(path: ObjectPath.nook, interface: NookNames.renderInterface, member: RenderMember.plan.rawValue)
        let plans = try await connection.stream(matching: rule) { signal in signal.arguments.first }
        let owners = try await connection.nameOwnerChanges(of: NookNames.busName)
        let reply = try await call(.subscribe(display.subscription))
        let start = ContinuousClock.now
        guard reply.count == 2 else {
            throw DBusError(.invalidSignature, "Subscribe replied with \(reply.count) values; expected '(oa{sv})'")
        }
        deliver(RecordedPlan(plan: reply[1], time: 0))
        var remaining = Int.max
        if case .count(let count) = limit { remaining = count - 1 }
        guard remaining > 0 else {
            _ = try? await call(.unsubscribe)
            return .limit
        }
        let budget = remaining
        let end = await withTaskGroup(of: SubscriptionEnd.self) { group in
            group.addTask {
                var left = budget
                for await plan in plans {
                    let elapsed = ContinuousClock.now - start
                    deliver(RecordedPlan(plan: plan, time: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18))
                    left -= 1
                    if left == 0 { break }
                }
                return .limit
            }
            group.addTask {
                for await change in owners where !change.oldOwner.isEmpty { return .brokerLeft }
                // Cancelled: let the other children decide.
                try? await Task.sleep(for: .seconds(1e9))
                return .limit
            }
            if case .seconds(let seconds) = limit {
                group.addTask {
                    try? await Task.sleep(for: .seconds(seconds))
                    return .limit
                }
            }
            let first = await group.next() ?? .limit
            group.cancelAll()
            return first
        }
        if end == .limit { _ = try? await call(.unsubscribe) }
        return end
    }

    /// The tokens of a DTCG JSON file, flattened to dotted paths. At most
    /// `ThemeLimits.maxDocumentBytes` are read (what the broker takes in one `SetTokens`), so
    /// `/dev/zero` or a 10 GB file is refused after that much, never read whole.
    static func tokens(inFile path: String) throws -> [String: DBusValue] {
        let text: String
        switch BoundedRead.read(path, limit: ThemeLimits.maxDocumentBytes) {
        case .success(let bytes):
            text = String(decoding: bytes, as: UTF8.self)
        case .failure(.tooLarge):
            throw FileProblem(message: "\(path): more than \(ThemeLimits.maxDocumentBytes / 1024) KiB (the limit of a theme); nothing was sent")
        case .failure(.unreadable(let why)):
            throw FileProblem(message: "cannot read \(path): \(why)")
        }
        do {
            return TokenConversion.tokens(in: try JSONValue.parse(text))
        } catch {
            throw FileProblem(message: "\(path) is not valid JSON: \(error)")
        }
    }
}

struct FileProblem: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// Plans collected by `record`, appended from the subscription task.
final class PlanCollector: Sendable {
    private let collected = Mutex<[RecordedPlan]>([])

    /// Appends `plan`; returns how many plans there are now.
    @discardableResult
    func append(_ plan: RecordedPlan) -> Int { collected.withLock { $0.append(plan); return $0.count } }
    var plans: [RecordedPlan] { collected.withLock { $0 } }
}
