import FoundationEssentials
import Glibc
import NookBus
import NookCore
import NookModuleAPI
import NookFiles

extension NookControlClient {
    /// Runs `activity start|update|end|list`, printing to `output`.
    /// - Returns: `.ok`, or `.failure` after printing why (a bad `--view-json`, an unreadable
    ///   file, a module another program holds, nothing remembered to update).
    /// - Throws: other `DBusError`s from the broker; the caller prints them and exits 1.
    public func execute(_ command: ActivityCommand, output: OutputSink,
                        records: ActivityRecordStore = .standard()) async throws -> ExitStatus {
        do {
            switch command {
            case .start(let request), .update(let request):
                let isStart = if case .start = command { true } else { false }
                return try await publish(request, isStart: isStart, output: output, records: records)
            case .end(let module, let activity, let dismissal):
                try await register(module)
                records.remove(module: module, activity: activity)
                _ = try await call(.endModuleActivity(activity, ["dismissal": .string(dismissal)]))
                output.out("ended \(module)/\(activity)\n")
            case .finish(let finish):
                return try await self.finish(finish, output: output, records: records)
            case .list(let json):
                let state = try await call(.getState).first ?? WireCodec.vardict([:])
                if json {
                    // The items as sent, D-Bus types and all.
                    let items = (try? Vardict(state, at: "state"))?["items"] ?? .array(element: "a{sv}", [])
                    output.out(PlanJSON.json(items) + "\n")
                } else {
                    output.out(try ActivityListText.text(try WireFields(reply: state).records("items")))
                }
            }
        } catch let problem as ActivityProblem {
            output.err("nookctl: \(problem.message)\n")
            return .failure
        }
        return .ok
    }

    func publish(_ request: ActivityRequest, isStart: Bool, output: OutputSink,
                 records: ActivityRecordStore, announces: Bool = true) async throws -> ExitStatus {
        let now = Self.unixMicroseconds()
        let json = try request.viewJSON.map { source throws(ActivityProblem) in try Self.viewJSON(from: source, now: now) }
        var imageURI: String?
        if case .set(let path) = request.content.image { imageURI = try Self.imageURI(path) }
        let previous = records.load(module: request.module, activity: request.activity)
        // A new countdown takes a colour no other countdown nookctl remembers has.
        let color = TimerColors.next(notIn: records.timerColors(except: request.module, request.activity, now: now))
        let spec = try ActivitySpec.build(request, isStart: isStart, previous: previous, json: json, imageURI: imageURI, now: now,
                                          timerColor: color)

        try await register(request.module)
        _ = try await call(isStart ? .startActivity(request.activity, spec.values) : .updateActivity(request.activity, spec.values))
        switch spec.record {
        case .keep: break
        case .save(let content):
            do {
                try records.save(content, module: request.module, activity: request.activity)
            } catch {
                output.err("nookctl: warning: cannot remember the content in \(records.directory.path) (\(error)); a later update will need --title\n")
            }
        case .forget: records.remove(module: request.module, activity: request.activity)
        }
        var line = "\(isStart ? "started" : "updated") \(request.module)/\(request.activity)"
        if case .int(let dismiss)? = spec.values["dismiss_date"] {
            line += ", dismissed in \(DurationArgument.text(Double(dismiss.saturatingSubtract(now)) / 1e6))"
        }
        if announces { output.out(line + "\n") }
        return .ok
    }

    /// `activity finish`: waits for zero when asked, then makes the countdown say "Done"
    /// (`UpdateActivity` as its module), peeks at it and plays the sound. With `--wait`,
    /// a countdown changed or ended meanwhile is left alone (exit 0): another `finish` waits
    /// for the new one, or there is nothing left to finish.
    private func finish(_ finish: ActivityFinish, output: OutputSink, records: ActivityRecordStore) async throws -> ExitStatus {
        let name = "\(finish.module)/\(finish.activity)"
        guard let remembered = records.load(module: finish.module, activity: finish.activity), let end = remembered.timerEnd else {
            if finish.wait { return .ok }
            throw ActivityProblem("\(name): nookctl remembers no countdown of it (`activity start --timer` makes one)")
        }
        var content = remembered
        if finish.wait {
            // Dates are within 1970..2200 (NumberDomain.unixDate): the difference cannot overflow.
            let left = end.saturatingSubtract(Self.unixMicroseconds())
            if left > 0 {
                // The bus going away (a logout, a test's private bus) ends the wait: nothing
                // could be finished on it any more.
                let sleeper = Task { try await Task.sleep(for: .microseconds(left)) }
                let connection = self.connection
                let watcher = Task { await connection.waitUntilClosed(); sleeper.cancel() }
                let slept = (try? await sleeper.value) != nil
                watcher.cancel()
                guard slept else { throw ActivityProblem("\(name): the bus went away before the countdown reached zero") }
            }
            guard let now = records.load(module: finish.module, activity: finish.activity), now.timerEnd == end, !now.isDone else {
                return .ok
            }
            content = now
        }
        do {
            try await register(finish.module)
        } catch let error as DBusError where finish.wait && NookCtl.brokerAbsentErrors.contains(error.name) {
            // nookd is away at zero (restarting after a crash, where the bus cannot start it):
            // the countdown still finishes once it is back, as the activity it restores.
            guard await waitForBroker(within: Self.brokerWait) else { throw error }
            try await register(finish.module)
        }
        let spec = ActivitySpec.finish(content, expires: finish.expires, now: Self.unixMicroseconds())
        do {
            _ = try await call(.updateActivity(finish.activity, spec.values))
        } catch let error as DBusError where error.name == NookErrorName.unknownActivity.rawValue && finish.wait {
            // A person ended it before zero.
            return .ok
        }
        if case .save(let done) = spec.record { try? records.save(done, module: finish.module, activity: finish.activity) }
        _ = try await call(.peek(module: finish.module, activity: finish.activity))
        if finish.playsSound { NookSound.play(ActivityFinish.sound, description: "\(content.title) done") }
        output.out("finished \(name): Done\n")
        return .ok
    }

    /// How long a countdown's finish waits at zero for an absent nookd: its activity goes a
    /// minute after zero anyway (`ActivityRequest.timerLinger`).
    static let brokerWait = Duration.seconds(60)

    /// Waits, asleep on `NameOwnerChanged`, until nookd owns its name; false after `limit`.
    func waitForBroker(within limit: Duration) async -> Bool {
        guard let changes = try? await connection.nameOwnerChanges(of: NookNames.busName) else { return false }
        // Asked after subscribing, so an owner that came in between is not missed.
        if (try? await connection.nameOwner(of: NookNames.busName)) != nil { return true }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await change in changes where !change.newOwner.isEmpty { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: limit)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Ends the peek when the nook still peeks at `module`/`activity` (a person or another
    /// peek may have moved it on).
    public func endPeek(ifStillOn module: String, _ activity: String) async throws {
        let state = try WireFields(reply: try await call(.getState).first ?? WireCodec.vardict([:]))
        guard try state.string("presentation", default: "") == "peek", try state.string("module", default: "") == module,
              try state.string("activity", default: "") == activity else { return }
        _ = try await call(.endPeek)
    }

    /// `Register`, telling a module another program holds apart from other errors.
    func register(_ module: String) async throws {
        do {
            _ = try await call(.register(module))
        } catch let error as DBusError where error.name == NookErrorName.moduleTaken.rawValue {
            throw ActivityProblem("module '\(module)' belongs to a running program (\(error.name)); nookctl can only act for a module no live connection holds")
        }
    }

    static func unixMicroseconds() -> Int64 {
        Int64(saturating: (Date().timeIntervalSince1970 * 1_000_000).rounded())
    }

    /// The most `--view-json` reads, from a file or standard input: 4 MiB, four times the
    /// broker's 1 MiB payload limit (JSON spells a view out at greater length than D-Bus).
    public static let maxViewJSONBytes = 4 * 1024 * 1024

    /// Reads and checks `--view-json` (`-`: standard input), at most `maxViewJSONBytes`.
    static func viewJSON(from source: String, now: Int64) throws(ActivityProblem) -> ViewJSON {
        let name = source == "-" ? "(standard input)" : source
        let data: [UInt8]
        switch BoundedRead.read(source == "-" ? nil : source, limit: maxViewJSONBytes) {
        case .success(let read): data = read
        case .failure(.tooLarge):
            throw ActivityProblem("--view-json \(name): more than \(maxViewJSONBytes / 1024 / 1024) MiB (the limit); nothing was sent")
        case .failure(.unreadable(let why)):
            throw ActivityProblem("--view-json: cannot read \(name) (\(why))")
        }
        let text = String(decoding: data, as: UTF8.self)
        do {
            return try ViewJSON.parse(text, now: now)
        } catch {
            throw ActivityProblem("--view-json \(name): \(error)")
        }
    }

    /// `--image FILE` as the `file://` URI renderers load, once `stat` says it is a readable
    /// regular file: a FIFO or a device would stall the renderer that opens it.
    static func imageURI(_ path: String) throws(ActivityProblem) -> String {
        let url = URL(fileURLWithPath: path).standardizedFileURL
        var info = stat()
        guard stat(url.path, &info) == 0 else { throw ActivityProblem("--image: cannot read \(path) (\(String(cString: strerror(errno))))") }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { throw ActivityProblem("--image: \(path) is \(FileKind.words(type)), not a regular file") }
        guard access(url.path, R_OK) == 0 else { throw ActivityProblem("--image: cannot read \(path) (\(String(cString: strerror(errno))))") }
        return url.absoluteString
    }
}

/// `activity list` as text: one line per activity in display order, `MODULE/ACTIVITY  ROLE  LABEL`.
enum ActivityListText {
    static func text(_ items: [WireFields]) throws(WireFieldError) -> String {
        var rows: [(String, String, String)] = []
        for item in items {
            rows.append((try item.string("module", default: "") + "/" + item.string("activity", default: ""),
                         try item.string("role", default: "") + (try item.bool("stale", default: false) ? ", stale" : ""),
                         try item.string("accessibility_label", default: "")))
        }
        let nameWidth = rows.map(\.0.count).max() ?? 0
        let roleWidth = rows.map(\.1.count).max() ?? 0
        return rows.map { HelpText.pad($0.0, nameWidth) + "  " + HelpText.pad($0.1, roleWidth) + "  " + $0.2 + "\n" }.joined()
    }
}
