import NookCore
// The publishing values, sent through a module: `song.start(on: module)` reads as well as
// `module.start(song)`, and does the same.

extension NookLiveActivity {
    /// Starts this activity; see `NookModule.start(_:)`.
    @discardableResult
    public func start(on module: NookModule) async throws -> NookDelivery { try await module.start(self) }

    /// Sends what changed; see `NookModule.update(_:animate:animation:)`.
    @discardableResult
    public func update(on module: NookModule, animate: Bool = true, animation: AnimationPreset? = nil) async throws
        -> NookDelivery
    {
        try await module.update(self, animate: animate, animation: animation)
    }

    /// Ends this activity; see `NookModule.end(_:dismissal:)`.
    @discardableResult
    public func end(on module: NookModule, dismissal: NookDismissal = .default) async throws -> NookDelivery {
        try await module.end(self, dismissal: dismissal)
    }
}

extension NookModuleConfiguration {
    /// Publishes this configuration's content; see `NookModule.publish(_:)`.
    @discardableResult
    public func publish(on module: NookModule) async throws -> NookDelivery { try await module.publish(self) }
}
