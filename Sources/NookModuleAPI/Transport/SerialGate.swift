import NookCore
/// A first-come, first-served lock for one actor's async work: whoever holds it finishes its
/// calls to the broker before the next caller starts, so calls reach the broker in the order
/// they were made and every diff is taken against what the broker really has.
///
/// Only used from its owning actor, so it needs no locking of its own.
struct SerialGate {
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// True when the caller got the gate at once; otherwise it must wait with `enqueue`.
    mutating func tryEnter() -> Bool {
        if held { return false }
        held = true
        return true
    }

    mutating func enqueue(_ waiter: CheckedContinuation<Void, Never>) { waiters.append(waiter) }

    /// Passes the gate to the next waiter (it stays held), or opens it.
    mutating func leave() {
        if waiters.isEmpty {
            held = false
        } else {
            waiters.removeFirst().resume()
        }
    }
}
