/// The sound server's two bridges on one libpulse connection (`PulseWatch`): the volume
/// (`VolumeBridge`) and the microphone in use (`PrivacyBridge`), each fed its events in order.
public enum SoundBridges {
    /// Starts following the sound server for the bridges given; nil (said in the log) when
    /// libpulse cannot start its loop. Keep the watch: `stop()` ends it.
    public static func start(volume: VolumeBridge?, privacy: PrivacyBridge?, log: @escaping @Sendable (String) -> Void) -> PulseWatch? {
        guard volume != nil || privacy != nil else { return nil }
        guard let watch = PulseWatch(followsCapture: privacy != nil, log: log), watch.start() else {
            log("cannot start libpulse's main loop: no volume, no microphone")
            return nil
        }
        Task {
            for await event in watch.events {
                switch event {
                case .volume(let reading): await volume?.changed(reading)
                case .capture(let apps): await privacy?.microphone(apps)
                }
            }
        }
        return watch
    }

    /// Starts following PipeWire for the camera and the screen in use; nil (said in the log)
    /// when PipeWire's loop cannot start. Keep the watch: `stop()` ends it.
    public static func startVideo(privacy: PrivacyBridge, log: @escaping @Sendable (String) -> Void) -> PipeWireWatch? {
        let watch = PipeWireWatch(log: log)
        guard watch.start() else {
            log("cannot start PipeWire's loop: no camera, no screen")
            return nil
        }
        Task {
            for await captures in watch.events { await privacy.video(captures) }
        }
        return watch
    }
}
