import NookCore
import NookBus
import Synchronization

/// The broker's unique name, shared with the bus thread.
final class BrokerCell: Sendable {
    private let owner = Locked<String?>(nil)
    func set(_ name: String?) { owner.withLock { $0 = name } }
    func isOwner(_ sender: String) -> Bool { owner.withLock { $0 == sender } }
}
