import CGtk
import Glibc
import NookRenderModel

/// Reads `renderer.json` from where the XDG rules say (`RendererConfigLocation`).
enum ConfigFile {
    /// What reading found: the config to use, or why the file was refused.
    enum Outcome {
        /// No file anywhere: the defaults.
        case absent
        case loaded(RendererConfig, path: String)
        case refused(RendererConfigError, path: String)
    }

    static var environment: [String: String] {
        var out: [String: String] = [:]
        for key in ["HOME", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS"] {
            if let value = getenv(key) { out[key] = String(cString: value) }
        }
        return out
    }

    static var candidates: [String] { RendererConfigLocation.candidates(environment: environment) }

    static func read() -> Outcome {
        guard let path = RendererConfigLocation.locate(environment: environment, exists: { access($0, F_OK) == 0 }) else {
            return .absent
        }
        var contents: UnsafeMutablePointer<gchar>?
        var length: gsize = 0
        var error: UnsafeMutablePointer<GError>?
        guard g_file_get_contents(path, &contents, &length, &error) != 0, let contents else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "cannot be read"
            if let error { g_error_free(error) }
            return .refused(RendererConfigError(problems: ["renderer.json: \(message)"]), path: path)
        }
        defer { g_free(contents) }
        let text = String(decoding: UnsafeBufferPointer(start: UnsafeRawPointer(contents).assumingMemoryBound(to: UInt8.self), count: Int(length)),
                          as: UTF8.self)
        do {
            return .loaded(try RendererConfig.parse(text), path: path)
        } catch {
            return .refused(error, path: path)
        }
    }
}
