/// The names `nookd` serves (CONTRACT.md).
public enum NookContract {
    public static let busName = "org.nook.Nook1"
    public static let objectPath = "/org/nook/Nook1"
    public static let modulesInterface = "org.nook.Nook1.Modules"
    public static let controlInterface = "org.nook.Nook1.Control"
    public static let renderInterface = "org.nook.Nook1.Render"
}
