/// The keyframes of one animated attribute over the whole recording: times in seconds from
/// the start, values in display points (or opacity). Rendered as one SMIL `<animate>` whose
/// `values`/`keyTimes` run linearly between dense samples, so any curve (springs included)
/// plays the same in every browser.
struct Track: Sendable {
    private(set) var keyframes: [(time: Double, value: Double)] = []

    /// Seconds a jump takes: short enough to read as instant, long enough that every
    /// renderer sees two distinct key times.
    static let jump = 0.001

    /// A keyframe at `time` (kept in time order; a time before the last one is moved up to it).
    mutating func add(_ time: Double, _ value: Double) {
        let time = max(time, keyframes.last?.time ?? 0)
        keyframes.append((time, value))
    }

    /// Holds the current value until `time`, then switches to `value` at once.
    mutating func jump(at time: Double, to value: Double) {
        if let last = keyframes.last {
            if last.value == value { return }
            add(time - Self.jump, last.value)
        }
        add(time, value)
    }

    /// Samples `value(progress)` along `curve` from `start` to `end` at `frameRate` frames per
    /// second, both ends included, stopping early once the curve has settled.
    mutating func sample(from start: Double, to end: Double, frameRate: Double, progress: (Double) -> Double,
                         value: (Double) -> Double, settle: Double) {
        let stop = min(end, start + settle)
        guard stop > start else {
            add(start, value(progress(max(settle, 0))))
            return
        }
        let frames = Int(((stop - start) * frameRate).rounded(.up))
        for frame in 0...frames {
            let t = min(Double(frame) / frameRate, stop - start)
            add(start + t, value(progress(t)))
        }
    }

    var first: Double? { keyframes.first?.value }
    var last: Double? { keyframes.last?.value }
    var isConstant: Bool { keyframes.allSatisfy { $0.value == keyframes[0].value } }

    /// The keyframes over `0...total`, with runs of equal values reduced to their ends.
    func normalized(total: Double) -> [(time: Double, value: Double)] {
        var frames = keyframes
        guard !frames.isEmpty else { return [] }
        if frames[0].time > 0 { frames.insert((0, frames[0].value), at: 0) }
        frames[0].time = 0
        if frames[frames.count - 1].time < total { frames.append((total, frames[frames.count - 1].value)) }
        frames = frames.map { (min($0.time, total), $0.value) }
        var kept: [(time: Double, value: Double)] = []
        for (index, frame) in frames.enumerated() {
            let isEnd = index == 0 || index == frames.count - 1
            if !isEnd, frames[index - 1].value == frame.value, frames[index + 1].value == frame.value { continue }
            kept.append(frame)
        }
        return kept
    }
}
