import NookCore
/// What the SDK knows about one activity: the state the module wants, what the current broker
/// has, and what is still to be said.
struct ActivityEntry: Sendable {
    /// The latest state the module asked for.
    var activity: NookLiveActivity
    /// What the current broker instance received from us; nil when it has nothing from this
    /// connection yet (first start, or the broker came back), so the next delivery is a start.
    var delivered: NookLiveActivity?
    /// The last `sequence` sent for this activity; every call uses a larger one.
    var sequence: UInt64 = 0
    /// The options of the newest update not delivered yet (latest wins while the broker is away).
    var options = UpdateOptions()
    /// Set once the module ended it; the entry goes away when the end is delivered.
    var ending: NookDismissal?

    init(activity: NookLiveActivity) { self.activity = activity }

    /// Takes the next sequence number.
    mutating func nextSequence() -> UInt64 {
        sequence += 1
        return sequence
    }
}
