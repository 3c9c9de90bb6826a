import NookCore
/// Why a call did not go through.
enum SendFailure: Error {
    /// The broker is not there (or stopped answering): keep the change for later.
    case away
    /// The broker answered with an error.
    case refused(NookModuleError)
}
