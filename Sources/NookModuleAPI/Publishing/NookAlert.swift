import NookCore
/// How an activity asks for a person's attention, as ActivityKit's `AlertConfiguration` does
/// for an update that matters (a timer that ran out): the nook peeks at the activity for
/// `peekDuration`, and a sound from the desktop's freedesktop sound theme plays.
///
/// ```swift
/// try await module.update(doneTimer)
/// try await module.alert(activityID: doneTimer.id, NookAlert(sound: "complete"))
/// ```
public struct NookAlert: Hashable, Sendable {
    /// A sound name from the freedesktop sound theme (`complete`, `bell`, `message`), or nil
    /// for none. Played through `canberra-gtk-play` when it is installed (`NookSound`).
    public var sound: String?
    /// How long the nook peeks before it goes back to the pill, unless something else (a
    /// person opening the nook, another peek) moved it on first. 0.5 s to 1 hour.
    public var peekDuration: Duration
    /// A short description of the sound for the sound server (`canberra-gtk-play -d`).
    public var soundDescription: String

    /// The peek lasts this long unless the module says otherwise.
    public static let standardPeekDuration: Duration = .seconds(8)

    public init(sound: String? = "complete", peekDuration: Duration = NookAlert.standardPeekDuration, soundDescription: String = "Nook") {
        self.sound = sound
        self.peekDuration = min(max(peekDuration, .milliseconds(500)), .seconds(3600))
        self.soundDescription = soundDescription
    }
}
