import Foundation

/// The background `nookctl activity finish M/A --wait` that `activity start`/`update --timer`
/// leave behind: it sleeps until the countdown reaches zero, then makes it say "Done", peeks
/// and plays the sound, and exits. A detached activity has no program of its own to do that.
///
/// It runs in a session of its own (`setsid`), with standard input and output on /dev/null, so
/// it outlives the shell that ran nookctl and holds none of its pipes. While it sleeps it holds
/// an idle bus connection and no module, so other `nookctl activity` calls go on as usual.
enum FinishWaiter {
    /// glibc's `POSIX_SPAWN_SETSID` (0x80, since 2.26), which Swift does not import.
    static let spawnSetSID: Int16 = 0x80

    /// Starts the waiter, after stopping the one an earlier `--timer` of the same activity
    /// left (it would only wake to find its countdown replaced); says on standard error, and
    /// goes on, when it cannot. Its pid is kept beside the activity's record.
    static func spawn(module: String, activity: String, address: String?, playsSound: Bool, output: OutputSink,
                      records: ActivityRecordStore = .standard()) {
        stopPrevious(module: module, activity: activity, records: records)
        var arguments = ["nookctl"]
        if let address { arguments += ["--address", address] }
        arguments += ["activity", "finish", "\(module)/\(activity)", "--wait"]
        if !playsSound { arguments.append("--no-sound") }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, spawnSetSID)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        // Nothing else of ours: a caller that watches for our exit through a descriptor we
        // inherited (Foundation's Process does, with a socket) must see it close when we exit,
        // not when the waiter does, minutes later.
        for fd in inheritedDescriptors() { posix_spawn_file_actions_addclose(&actions, fd) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, "/proc/self/exe", &actions, &attributes, argv, environ)
        if result == 0 {
            try? ActivityRecordStore.writePrivately(Data("\(pid)\n".utf8), to: records.waiterFile(module: module, activity: activity))
        } else {
            output.err("nookctl: warning: cannot start the countdown's finish in the background (\(String(cString: strerror(result)))); run `nookctl activity finish \(module)/\(activity) --wait` yourself\n")
        }
    }

    /// Stops the waiter an earlier call left for this activity, if it still runs: only a
    /// process whose command line is that very `activity finish M/A --wait` is signalled.
    static func stopPrevious(module: String, activity: String, records: ActivityRecordStore) {
        let file = records.waiterFile(module: module, activity: activity)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let pid = pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)), pid > 1,
              let cmdline = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return }
        let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let at = words.firstIndex(of: "finish"), at > 0, words[at - 1] == "activity",
              words.dropFirst(at + 1).first == "\(module)/\(activity)", words.contains("--wait") else { return }
        kill(pid, SIGTERM)
    }

    /// Open descriptors above standard error (read from /proc/self/fd; the listing's own
    /// descriptor, closed once it is read, is left out).
    static func inheritedDescriptors() -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return names.compactMap(Int32.init).filter { $0 > 2 && fcntl($0, F_GETFD) != -1 }.sorted()
    }
}
