import NookBus
@testable import NookCtlKit

/// What a verb sends, spelled out in the tests by hand rather than through `NookContract`, so
/// they pin the wire's names and signatures independently of the generated descriptors.
struct SentCall: Equatable, CustomStringConvertible {
    var interface: String
    var member: String
    var arguments: [DBusValue]
    var signature: String
    var reply: String

    init(_ interface: String, _ member: String, _ arguments: [DBusValue] = [], signature: String = "", reply: String = "") {
        (self.interface, self.member, self.arguments, self.signature, self.reply) = (interface, member, arguments, signature, reply)
    }

    init(_ call: ContractCall) {
        self.init(call.interface, call.member, call.arguments, signature: call.signature, reply: call.replySignature)
    }

    var description: String { "\(interface).\(member)(\(signature)) -> \(reply) \(arguments)" }
}

extension Command {
    /// The calls the command makes, as `SentCall`s.
    var sent: [SentCall] { calls.map(SentCall.init) }
}

extension ActivityCommand {
    var sent: [SentCall] { calls.map(SentCall.init) }
}
