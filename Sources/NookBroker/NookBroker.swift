// The broker's logic (registry, presentation state machine, persistence) arrives with the
// nookd issue. Until then this target only names the contract constants it will serve.
public enum NookContract {
    public static let busName = "org.nook.Nook1"
    public static let objectPath = "/org/nook/Nook1"
}
