import NookCore

/// The measurer's memo of strings measured in ems: `BoundedCache`'s two generations (hits in
/// the old one are promoted; when the young one fills half the capacity the old one is
/// dropped), written out for this key and value so that the compiler specializes the
/// dictionaries. `BoundedCache` is generic in another module, and its unspecialized
/// dictionary calls cost about 5,500 instructions per miss, more than a third of measuring
/// a short string.
struct MeasurementCache {
    let capacity: Int
    private var young: [MeasurementKey: MeasuredText] = [:]
    private var old: [MeasurementKey: MeasuredText] = [:]

    init(capacity: Int) {
        self.capacity = max(2, capacity)
    }

    var count: Int { young.count + old.count }

    mutating func value(for key: MeasurementKey) -> MeasuredText? {
        if let value = young[key] { return value }
        guard let value = old.removeValue(forKey: key) else { return nil }
        insert(value, for: key)
        return value
    }

    mutating func insert(_ value: MeasuredText, for key: MeasurementKey) {
        if young.count >= capacity / 2 {
            old = young
            young = [:]
            young.reserveCapacity(capacity / 2)
        }
        young[key] = value
    }

    /// The value for `key`, computed by `make` and kept when it is not there yet.
    mutating func value(for key: MeasurementKey, orMake make: () -> MeasuredText) -> MeasuredText {
        // While the young generation has room (no rotation is due), one probe finds the key or
        // the slot a missing one goes in (looking up, then inserting, probes twice). An empty
        // old generation (until the first rotation) is not asked: that hashes the key again.
        if young.count < capacity / 2 {
            return Self.read(&young[key, default: (old.isEmpty ? nil : old.removeValue(forKey: key)) ?? make()])
        }
        if let known = value(for: key) { return known }
        let made = make()
        insert(made, for: key)
        return made
    }

    private static func read(_ value: inout MeasuredText) -> MeasuredText { value }
}
