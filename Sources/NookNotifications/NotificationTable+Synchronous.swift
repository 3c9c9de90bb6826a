extension NotificationTable {
    /// The live notification of `appName` whose synchronous hint is `value` (the newest when
    /// several are), nil when none is. One app cannot replace another's (docs/security.md).
    func synchronousID(_ value: String, appName: String) -> UInt32? {
        let app = appName.prefixBytes(NotificationRequest.maxAppNameBytes)
        return order.last { id in
            guard let request = entries[id]?.request else { return false }
            return request.appName == app && request.specHints.synchronous == value
        }
    }
}
