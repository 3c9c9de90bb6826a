import NookCore
import NookBus

/// SIGTERM and SIGINT as an async stream, so a module can end its activities before it exits
/// (the example modules use it). The same type nookd uses, from NookBus.
public typealias TerminationSignals = NookBus.TerminationSignals
