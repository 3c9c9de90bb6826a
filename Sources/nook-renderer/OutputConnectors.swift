import CGtk
import CXdgOutput
import Glibc

/// Wayland outputs' connector names, asked for once per output. Asking is not free: it takes
/// two roundtrips, and sway answers every new xdg-output with a `wl_output.done`, which GDK
/// reports as `monitors-changed`, which makes the renderer look for its output again. Without
/// this cache that loop never ends (seen on sway 1.7: hundreds of thousands of lookups).
enum OutputConnectors {
    /// By the address of GDK's `wl_output` proxy. Only touched on the GTK main thread.
    nonisolated(unsafe) private static var known: [UInt: String?] = [:]

    /// The connector of `output`, a proxy on `display` (nil without xdg-output 2).
    static func name(of output: OpaquePointer, on display: OpaquePointer?) -> String? {
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(output)))
        if let cached = known[key] { return cached }
        var name: String?
        if let text = nook_output_connector(display, output) {
            name = String(cString: text)
            free(text)
        }
        known[key] = name
        return name
    }

    /// An output came or went: GDK's proxies may be new ones at old addresses.
    static func forget() { known = [:] }
}
