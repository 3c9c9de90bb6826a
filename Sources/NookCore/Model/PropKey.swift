/// `PropKey` itself (the cases, `name`, `named`) is generated from data/contract.json.
extension PropKey {
    static let byName: [String: PropKey] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })

    var bit: UInt64 { 1 << UInt64(rawValue) }
}

/// The keys one props dictionary carries: contract keys as bits, anything else by name.
struct PropKeySet {
    private(set) var bits: UInt64 = 0
    /// Keys that are no contract key at all, in no particular order.
    private(set) var others: [String] = []

    init(_ props: [String: PropValue]) {
        for key in props.keys {
            if let known = PropKey.byName[key] { bits |= known.bit } else { others.append(key) }
        }
    }

    func contains(_ key: PropKey) -> Bool { bits & key.bit != 0 }

    /// The keys present that `allowed` does not hold, sorted (the order diagnostics list them in).
    func keys(notIn allowed: UInt64) -> [String] {
        var unknown = others
        var rest = bits & ~allowed
        while rest != 0 {
            unknown.append(PropKey(rawValue: rest.trailingZeroBitCount)!.name)
            rest &= rest - 1
        }
        return unknown.count > 1 ? unknown.sorted() : unknown
    }

    static func mask(_ names: Set<String>) -> UInt64 {
        names.reduce(0) { $0 | (PropKey.byName[$1]?.bit ?? 0) }
    }
}
