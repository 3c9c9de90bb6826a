/// A memo table that never holds more than `capacity` entries, for text measurements that
/// repeat from plan to plan (the same titles, the same countdown digits).
///
/// Two generations: hits in the old one are promoted, and when the young one fills half the
/// capacity the old one is dropped and the young one takes its place. Lookups and inserts are
/// O(1); what was not used over the last half-capacity inserts is what goes.
public struct BoundedCache<Key: Hashable, Value> {
    public let capacity: Int
    private var young: [Key: Value] = [:]
    private var old: [Key: Value] = [:]

    public init(capacity: Int) {
        self.capacity = max(2, capacity)
    }

    public var count: Int { young.count + old.count }

    public mutating func value(for key: Key) -> Value? {
        if let value = young[key] { return value }
        guard let value = old.removeValue(forKey: key) else { return nil }
        insert(value, for: key)
        return value
    }

    public mutating func insert(_ value: Value, for key: Key) {
        if young.count >= capacity / 2 {
            old = young
            young = [:]
            young.reserveCapacity(capacity / 2)
        }
        young[key] = value
    }

    /// The value for `key`, computed by `make` and kept when it is not there yet.
    public mutating func value(for key: Key, orMake make: () -> Value) -> Value {
        if let known = value(for: key) { return known }
        let made = make()
        insert(made, for: key)
        return made
    }
}

extension BoundedCache: Sendable where Key: Sendable, Value: Sendable {}
