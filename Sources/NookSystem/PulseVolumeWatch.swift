import CPulse
import Synchronization

/// The default output's volume and mute, followed through libpulse's subscribe API: from
/// PipeWire's PulseAudio server (pipewire-pulse) or PulseAudio itself, so a change from any
/// source shows (keys, `pactl`, a mixer, an app).
///
/// It runs libpulse's threaded main loop: one thread, asleep until the server says something.
/// On connecting it reads the default sink once (a baseline, not news); afterwards each sink
/// or server event reads it again, and only a reading that differs from the last is handed to
/// `onChange`. A server that goes away (or is not there yet) is waited for: the context is made
/// again with `PA_CONTEXT_NOFAIL`: libpulse then waits for a server to take
/// `org.pulseaudio.Server` on the session bus (pipewire-pulse and PulseAudio do) and connects.
/// No server is ever started (`PA_CONTEXT_NOAUTOSPAWN`).
///
/// Confinement: everything but `start` and `stop` runs on the loop's thread, inside libpulse's
/// callbacks (which hold the loop's lock); `start` and `stop` take that lock.
public final class PulseVolumeWatch: @unchecked Sendable {
    /// A reading of the default sink: `level` is the channels' average volume over 100 %
    /// (`PA_VOLUME_NORM`), clamped to 0...1 (a boost above 100 % shows as full).
    public struct Reading: Hashable, Sendable {
        public var level: Double
        public var muted: Bool

        public init(level: Double, muted: Bool) {
            self.level = min(max(level.isFinite ? level : 0, 0), 1)
            self.muted = muted
        }
    }

    /// libpulse's `PA_VOLUME_NORM` (a macro Swift does not import): 100 %.
    static let volumeNorm = 65536.0

    private let mainloop: OpaquePointer
    private let onChange: @Sendable (Reading) -> Void
    private let log: @Sendable (String) -> Void
    /// The loop thread's own state (see Confinement).
    private var context: OpaquePointer?
    private var last: Reading?
    private var stopping = false
    private let started = Atomic<Bool>(false)

    /// Nil when libpulse cannot make its main loop (out of memory).
    public init?(onChange: @escaping @Sendable (Reading) -> Void, log: @escaping @Sendable (String) -> Void) {
        guard let loop = pa_threaded_mainloop_new() else { return nil }
        mainloop = loop
        self.onChange = onChange
        self.log = log
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
    }

    private var userdata: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private static func watch(_ userdata: UnsafeMutableRawPointer?) -> PulseVolumeWatch? {
        userdata.map { Unmanaged<PulseVolumeWatch>.fromOpaque($0).takeUnretainedValue() }
    }

    // MARK: On the loop's thread

    private func connect() {
        guard !stopping, let api = pa_threaded_mainloop_get_api(mainloop), let context = pa_context_new(api, "nook-system") else { return }
        self.context = context
        last = nil
        pa_context_set_state_callback(context, { _, userdata in PulseVolumeWatch.watch(userdata)?.stateChanged() }, userdata)
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
                let facility = event.rawValue & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
                guard facility == PA_SUBSCRIPTION_EVENT_SINK.rawValue || facility == PA_SUBSCRIPTION_EVENT_SERVER.rawValue else { return }
                PulseVolumeWatch.watch(userdata)?.read()
            }, userdata)
            let mask = pa_subscription_mask_t(rawValue: PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SERVER.rawValue)
            if let operation = pa_context_subscribe(context, mask, nil, nil) { pa_operation_unref(operation) }
            read()
        case PA_CONTEXT_FAILED, PA_CONTEXT_TERMINATED:
            guard !stopping else { return }
            // The server went away: wait for the next one (NOFAIL connects when it appears).
            log("the sound server went away; waiting for it")
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
                let level = Double(pa_cvolume_avg(&volume)) / PulseVolumeWatch.volumeNorm
                PulseVolumeWatch.watch(userdata)?.readSink(Reading(level: level, muted: sink.pointee.mute != 0))
            }, userdata) {
                pa_operation_unref(operation)
            }
        }, userdata)
        if let operation { pa_operation_unref(operation) }
    }

    private func readSink(_ reading: Reading) {
        defer { last = reading }
        // The first reading on a connection is where things stand, not a change.
        guard let last, last != reading else { return }
        onChange(reading)
    }
}
