import NookCore
import NookFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A check for an image path that comes from outside the module (a notification's
/// `image-path`, a media player's `mpris:artUrl`) before it goes into `Image(uri:)`.
///
/// Renderers open such a file to draw it. Only a regular file is worth passing on: a FIFO
/// blocks whoever opens it until a writer comes, a device may never end, a directory is no
/// picture. The check is `stat` (which follows links, as opening the file would) and
/// `access(R_OK)`; it opens nothing, so it cannot block. Renderers check again when they open
/// the file (nook-renderer: docs/renderer.md, "Images"), since the file may change between.
///
/// ```swift
/// if let refusal = NookImageFile.refusal(path: path) { log("image \(path) \(refusal)") }
/// ```
public enum NookImageFile {
    /// Nil for a readable regular file; otherwise why not, as words to follow the path in a
    /// log line: `is a FIFO, not a regular file`, `does not exist`, `is not readable`; with
    /// `maxBytes`, also `is N bytes, more than the M bytes read` (a huge file the renderer would
    /// refuse anyway, docs/renderer.md "Images").
    public static func refusal(path: String, maxBytes: Int64? = nil) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let number = errno
            return number == ENOENT || number == ENOTDIR ? "does not exist" : "cannot be read (errno \(number))"
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else { return "is \(FileKind.words(type)), not a regular file" }
        if let maxBytes, Int64(info.st_size) > maxBytes { return "is \(info.st_size) bytes, more than the \(maxBytes) bytes read" }
        guard access(path, R_OK) == 0 else { return "is not readable" }
        return nil
    }
}
