/// The one version of the programs Nook installs. nookd, nookctl, nook-renderer and nook-mpris
/// print it for `--version`; the Makefile reads it from this file for the Debian package.
public enum NookVersion {
    public static let number = "0.1"
    /// The contract the programs speak, as nookd's `--version` says it.
    public static let contract = "org.nook.Nook1 version 1"

    /// `PROGRAM 0.1 (contract org.nook.Nook1 version 1)`, the line every `--version` prints.
    public static func line(program: String) -> String {
        "\(program) \(number) (contract \(contract))"
    }
}
