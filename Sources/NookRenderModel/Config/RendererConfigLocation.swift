/// Where `renderer.json` is looked for, by the XDG Base Directory rules: the user's file
/// (`$XDG_CONFIG_HOME/nook/renderer.json`, default `~/.config/nook/renderer.json`) first,
/// then each of `$XDG_CONFIG_DIRS` (default `/etc/xdg`) in order. The first that exists wins
/// whole; files are not merged.
public enum RendererConfigLocation {
    public static let relativePath = "nook/renderer.json"

    /// Every candidate path, most important first. Relative entries are ignored, as the
    /// specification says.
    public static func candidates(environment: [String: String]) -> [String] {
        var paths: [String] = []
        if let home = environment["XDG_CONFIG_HOME"], home.hasPrefix("/") {
            paths.append(join(home, relativePath))
        } else if let home = environment["HOME"], home.hasPrefix("/") {
            paths.append(join(home, ".config/" + relativePath))
        }
        let dirs = environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg"
        for dir in dirs.split(separator: ":") where dir.hasPrefix("/") {
            let path = join(String(dir), relativePath)
            if !paths.contains(path) { paths.append(path) }
        }
        return paths
    }

    /// The first candidate for which `exists` is true, or nil (the defaults apply).
    public static func locate(environment: [String: String], exists: (String) -> Bool) -> String? {
        candidates(environment: environment).first(where: exists)
    }

    private static func join(_ directory: String, _ relative: String) -> String {
        directory.hasSuffix("/") ? directory + relative : directory + "/" + relative
    }
}
