import CPulse
import Synchronization

/// What the sound server says that the nook shows.
public enum PulseEvent: Hashable, Sendable {
    /// The default output's volume or mute changed.
    case volume(PulseVolume)
    /// The apps recording from a microphone (a source that is not a sink's monitor) now;
    /// empty when none is.
    case capture([PulseCapture])
}

/// A reading of the default sink: `level` is the channels' average volume over 100 %
/// (`PA_VOLUME_NORM`), clamped to 0...1 (a boost above 100 % shows as full).
public struct PulseVolume: Hashable, Sendable {
    public var level: Double
    public var muted: Bool

    public init(level: Double, muted: Bool) {
        self.level = min(max(level.isFinite ? level : 0, 0), 1)
        self.muted = muted
    }
}

/// One recording stream from a microphone: the app as it names itself to the server
/// (`application.name`, else its binary), at most 64 characters.
public struct PulseCapture: Hashable, Sendable, Comparable {
    public var application: String

    public init(application: String) { self.application = String(application.prefix(64)) }

    public static func < (a: PulseCapture, b: PulseCapture) -> Bool { a.application < b.application }
}

/// The default output's volume and mute, and who records from a microphone, followed through
/// libpulse's subscribe API: from PipeWire's PulseAudio server (pipewire-pulse) or PulseAudio
/// itself, so a change from any source shows (keys, `pactl`, a mixer, an app; any recorder).
///
/// It runs libpulse's threaded main loop: one thread, asleep until the server says something.
/// On connecting it reads the default sink once (a baseline, not news); afterwards each sink
/// or server event reads it again, and only a reading that differs from the last becomes an
/// event. With `followsCapture`, the sources and the recording streams are listed on
/// connecting and on each of their events, and the recorders of non-monitor sources become an
/// event whenever that list changes (the first one too, when something records already).
///
/// A server that goes away (or is not there yet) is waited for: the context is made again with
/// `PA_CONTEXT_NOFAIL`, and libpulse connects when a server takes `org.pulseaudio.Server` on
/// the session bus (pipewire-pulse and PulseAudio do). No server is ever started
/// (`PA_CONTEXT_NOAUTOSPAWN`). While there is none, nothing records.
///
/// Confinement: everything but `start` and `stop` runs on the loop's thread, inside libpulse's
/// callbacks (which hold the loop's lock); `start` and `stop` take that lock.
public final class PulseWatch: @unchecked Sendable {
    /// libpulse's `PA_VOLUME_NORM` (a macro Swift does not import): 100 %.
    static let volumeNorm = 65536.0

    private let mainloop: OpaquePointer
    private let followsCapture: Bool
    private let log: @Sendable (String) -> Void
    private let continuation: AsyncStream<PulseEvent>.Continuation
    /// The events, in order, until `stop`.
    public let events: AsyncStream<PulseEvent>
    /// The loop thread's own state (see Confinement).
    private var context: OpaquePointer?
    private var last: PulseVolume?
    private var lastCapture: [PulseCapture]?
    /// The listing of sources and recording streams under way (`listCaptures`), what it found
    /// so far, and whether an event came meanwhile (it lists again when done).
    private var listing = false, listAgain = false
    private var monitors: Set<UInt32> = []
    private var found: [PulseCapture] = []
    private var stopping = false
    private let started = Atomic<Bool>(false)

    /// Nil when libpulse cannot make its main loop (out of memory).
    public init?(followsCapture: Bool, log: @escaping @Sendable (String) -> Void) {
        guard let loop = pa_threaded_mainloop_new() else { return nil }
        mainloop = loop
        self.followsCapture = followsCapture
        self.log = log
        // Volume readings coalesce to the newest; every capture list is kept (they are few).
        (events, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    deinit {
        stop()
        pa_threaded_mainloop_free(mainloop)
    }

    /// Connects (or starts waiting for a server) and starts the loop's thread.
    public func start() -> Bool {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return true }
        pa_threaded_mainloop_lock(mainloop)
        connect()
        pa_threaded_mainloop_unlock(mainloop)
        return pa_threaded_mainloop_start(mainloop) >= 0
    }

    /// Disconnects and ends the loop's thread. Not from one of its callbacks.
    public func stop() {
        guard started.exchange(false, ordering: .acquiringAndReleasing) else { return }
        pa_threaded_mainloop_lock(mainloop)
        stopping = true
        if let context {
            pa_context_set_state_callback(context, nil, nil)
            pa_context_set_subscribe_callback(context, nil, nil)
            pa_context_disconnect(context)
            pa_context_unref(context)
            self.context = nil
        }
        pa_threaded_mainloop_unlock(mainloop)
        pa_threaded_mainloop_stop(mainloop)
        continuation.finish()
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func watch(_ userdata: UnsafeMutableRawPointer?) -> PulseWatch? {
        userdata.map { Unmanaged<PulseWatch>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: On the loop's thread

    private func connect() {
        guard !stopping, let api = pa_threaded_mainloop_get_api(mainloop), let context = pa_context_new(api, "nook-system") else { return }
        self.context = context
        last = nil
        lastCapture = nil
        listing = false
        listAgain = false
        pa_context_set_state_callback(context, { _, userdata in PulseWatch.watch(userdata)?.stateChanged() }, userdata)
        let flags = pa_context_flags_t(rawValue: PA_CONTEXT_NOFAIL.rawValue | PA_CONTEXT_NOAUTOSPAWN.rawValue)
        // Under NOFAIL a server that is not there is waited for, not an error.
        if pa_context_connect(context, nil, flags, nil) < 0, pa_context_errno(context) != 0 {
            log("cannot connect to the sound server: \(String(cString: pa_strerror(pa_context_errno(context))))")
        }
    }

    private func stateChanged() {
        guard let context else { return }
        switch pa_context_get_state(context) {
        case PA_CONTEXT_READY:
            log("following the volume of the default output")
            pa_context_set_subscribe_callback(context, { _, event, _, userdata in
                guard let watch = PulseWatch.watch(userdata) else { return }
                switch event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue {
                case PA_SUBSCRIPTION_EVENT_SINK.rawValue, PA_SUBSCRIPTION_EVENT_SERVER.rawValue: watch.read()
                case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue, PA_SUBSCRIPTION_EVENT_SOURCE_OUTPUT.rawValue: watch.listCaptures()
                default: break
                }
            }, userdata)
            var mask = PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue
            if followsCapture { mask |= PA_SUBSCRIPTION_MASK_SOURCE.rawValue | PA_SUBSCRIPTION_MASK_SOURCE_OUTPUT.rawValue }
            if let operation = pa_context_subscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil) { pa_operation_unref(operation) }
            read()
            if followsCapture { listCaptures() }
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            guard !stopping else { return }
            // The server went away: wait for the next one (NOFAIL connects when it appears).
            log("the sound server went away; waiting for it")
            if lastCapture?.isEmpty == false { continuation.yield(.capture([])) }
            pa_context_set_state_callback(context, nil, nil)
            pa_context_set_subscribe_callback(context, nil, nil)
            pa_context_unref(context)
            self.context = nil
            connect()
        default:
            break
        }
    }

    /// Asks for the default sink's name, then for that sink.
    private func read() {
        guard let context else { return }
        let operation = pa_context_get_server_info(context, { context, info, userdata in
            guard let context, let name = info?.pointee.default_sink_name else { return }
            if let operation = pa_context_get_sink_info_by_name(context, name, { _, sink, eol, userdata in
                guard eol == 0, let sink else { return }
                var volume = sink.pointee.volume
                let level = Double(pa_cvolume_avg(&volume)) / PulseWatch.volumeNorm
                PulseWatch.watch(userdata)?.readSink(PulseVolume(level: level, muted: sink.pointee.mute != 0))
            }, userdata) {
                pa_operation_unref(operation)
            }
        }, userdata)
        if let operation { pa_operation_unref(operation) }
    }

    private func readSink(_ reading: PulseVolume) {
        defer { last = reading }
        // The first reading on a connection is where things stand, not a change.
        guard let last, last != reading else { return }
        continuation.yield(.volume(reading))
    }

    /// Lists the sources (to know the monitors), then the recording streams; one listing at
    /// a time, again at its end when an event came meanwhile.
    private func listCaptures() {
        guard let context else { return }
        guard !listing else { return listAgain = true }
        listing = true
        monitors = []
        found = []
        let operation = pa_context_get_source_info_list(context, { context, source, eol, userdata in
            guard let watch = PulseWatch.watch(userdata) else { return }
            if eol == 0, let source {
                if source.pointee.monitor_of_sink != UInt32.max { watch.monitors.insert(source.pointee.index) }
                return
            }
            guard let context else { return }
            if let operation = pa_context_get_source_output_info_list(context, { _, output, eol, userdata in
                guard let watch = PulseWatch.watch(userdata) else { return }
                if eol == 0, let output {
                    watch.sawRecorder(output.pointee)
                } else {
                    watch.listed()
                }
            }, userdata) {
                pa_operation_unref(operation)
            }
        }, userdata)
        if let operation { pa_operation_unref(operation) } else { listing = false }
    }

    private func sawRecorder(_ output: pa_source_output_info) {
        guard !monitors.contains(output.source) else { return }
        func property(_ key: String) -> String? { pa_proplist_gets(output.proplist, key).map { String(cString: $0) } }
        // A level meter (pavucontrol's) is no recording.
        if property("application.id") == "org.PulseAudio.pavucontrol" || property("media.name") == "Peak detect" { return }
        let name = property("application.name") ?? property("application.process.binary") ?? "an app"
        found.append(PulseCapture(application: name))
    }

    private func listed() {
        listing = false
        let now = found.sorted()
        if now != lastCapture {
            lastCapture = now
            continuation.yield(.capture(now))
        }
        if listAgain {
            listAgain = false
            listCaptures()
        }
    }
}
