import NookCore
import NookModuleAPI

/// The numbers nook-mpris reads from a player, each with a finite range, as the broker has for
/// what modules send (docs/contract.md, "Ranges"). Any app may own an `org.mpris.MediaPlayer2.*`
/// name, so a player's numbers are input like any other: a value outside its range (NaN, an
/// infinity, `Int64.max`, a negative length) is ignored as if the player had not sent the key,
/// and logged once naming the player and the key. Nothing computed from a value in range can
/// overflow: every time here is at most a week, far inside `Int64` microseconds and inside the
/// broker's dates (years 1970 to 2200) from any time this century.
///
/// The bridge reads only these numbers. `Rate`, `Volume`, `xesam:trackNumber`,
/// `xesam:discNumber` and the rest are never read, so no value of theirs can matter.
enum MPRISNumber: String, CaseIterable, Sendable {
    /// `Metadata["mpris:length"]`: the song's length.
    case length = "mpris:length"
    /// `Position`: how far into the song the player is.
    case position = "Position"

    /// A week, in microseconds: longer than any song, audiobook or recorded broadcast.
    static let week: Int64 = 7 * 24 * 3600 * 1_000_000

    /// The values accepted, in microseconds. A length of 0 is what players send for a stream
    /// without one: it reads as no length, silently.
    var range: ClosedRange<Int64> {
        switch self {
        case .length: 1...Self.week
        case .position: 0...Self.week
        }
    }

    /// What a value of this key is, read from the player.
    enum Reading: Equatable, Sendable {
        /// The key is absent, not a number, or (a length) 0.
        case absent
        case value(Int64)
        /// A number outside `range`: why, for the log.
        case refused(String)
    }

    /// Reads `value` (an MPRIS time: `x`, though some players send `t`, another integer type or a
    /// double) as microseconds within `range`, without any conversion that can trap.
    func read(_ value: PropValue?) -> Reading {
        let micros: Int64
        switch value {
        case .int(let number)?:
            micros = number
        case .uint(let number)?:
            guard number <= UInt64(range.upperBound) else { return .refused(outside("\(number)")) }
            micros = Int64(number)
        case .double(let number)?:
            // Spelled as the broker spells it: `NaN is not a finite number`.
            guard number.isFinite else { return .refused("\(number.isNaN ? "NaN" : "\(number)") is not a finite number") }
            // Compared as a double first: only a value inside the range is converted.
            guard number >= Double(range.lowerBound) - 0.5 || (self == .length && number == 0),
                  number <= Double(range.upperBound)
            else { return .refused(outside("\(number)")) }
            micros = Int64(number.rounded())
        default:
            return .absent
        }
        if self == .length, micros == 0 { return .absent }
        guard range.contains(micros) else { return .refused(outside("\(micros)")) }
        return .value(micros)
    }

    private func outside(_ text: String) -> String { "\(text) is outside \(range.lowerBound)...\(range.upperBound) µs" }
}
