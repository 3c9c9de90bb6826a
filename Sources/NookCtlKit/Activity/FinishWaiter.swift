import FoundationEssentials
import Glibc
import NookFiles

/// The background `nookctl activity finish M/A --wait` that `activity start`/`update --timer`
/// leave behind: it sleeps until the countdown reaches zero, then makes it say "Done", peeks
/// and plays the sound, and exits. A detached activity has no program of its own to do that.
///
/// It runs in a session of its own (`setsid`), with standard input and output on /dev/null, so
/// it outlives the shell that ran nookctl and holds none of its pipes. While it sleeps it holds
/// an idle bus connection and no module, so other `nookctl activity` calls go on as usual.
enum FinishWaiter {
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

        switch DetachedCommand.spawn("/proc/self/exe", arguments) {
        case .success(let pid):
            try? ActivityRecordStore.writePrivately(Data("\(pid)\n".utf8), to: records.waiterFile(module: module, activity: activity))
        case .failure(let failure):
            output.err("nookctl: warning: cannot start the countdown's finish in the background (\(String(cString: strerror(failure.errno)))); run `nookctl activity finish \(module)/\(activity) --wait` yourself\n")
        }
    }

    /// Stops the waiter an earlier call left for this activity, if it still runs: only a
    /// process whose command line is that very `activity finish M/A --wait` is signalled.
    static func stopPrevious(module: String, activity: String, records: ActivityRecordStore) {
        let file = records.waiterFile(module: module, activity: activity)
        defer { try? FileManager.default.removeItem(at: file) }
        guard let text = try? String(contentsOf: file, encoding: .utf8),
              let pid = pid_t(text.trimmingWhitespace), pid > 1,
              let cmdline = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline")) else { return }
        let words = cmdline.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        guard let at = words.firstIndex(of: "finish"), at > 0, words[at - 1] == "activity",
              words.dropFirst(at + 1).first == "\(module)/\(activity)", words.contains("--wait") else { return }
        kill(pid, SIGTERM)
    }
}
