import CGtk
import NookBus
import Glibc
import NookFiles

/// Loads `file://` images off the GTK main thread, each file checked before it is decoded
/// (docs/renderer.md, "Images"): a path comes from a module, a notification or a media player,
/// and the main thread must never wait on it. A FIFO blocks `open(2)` until a writer comes, a
/// device never ends, a file on a stalled network mount stalls its reader.
///
/// Each file is opened with `O_NONBLOCK | O_CLOEXEC` (a FIFO's open then returns at once),
/// `fstat` of that descriptor must say regular file, and then:
/// - at most `maxFileBytes` are read (the size is checked before reading and while reading);
/// - the first bytes must be a PNG, JPEG, GIF, WebP or SVG signature, and the file is decoded by
///   gdk-pixbuf's loader for that type only (`allowedTypes`);
/// - a bitmap larger than `maxSide` on a side or `maxDecodedPixels` in all is refused before
///   its pixels are decoded (gdk-pixbuf's `size-prepared`); every image is decoded at the
///   size drawn, at most `maxRequestPixels` on a side.
///
/// Loads run on a GLib thread pool of `workers` threads; a load that blocks anyway (a stalled
/// mount) holds one of them, and later loads wait for another while the nook goes on drawing.
/// The result comes back to the main thread through `MainLoop.post`.
final class ImageFileLoader {
    /// The largest file read: 16 MiB.
    static let maxFileBytes = 16 * 1024 * 1024
    /// A bitmap's largest side, and its most pixels (16 Mpx: 64 MiB while decoding).
    static let maxSide = 16_384
    static let maxDecodedPixels = 4096 * 4096
    /// The largest size an image is decoded at, on a side (a picture drawn larger is scaled).
    static let maxRequestPixels = 2048
    static let workers: Int32 = 2

    /// What came of one load: a pixbuf the receiver owns (one reference), or why not.
    struct Outcome: @unchecked Sendable {
        // @unchecked: the pixbuf is handed from the worker to the main thread and used there only.
        let pixbuf: OpaquePointer?
        let problem: String?
    }

    private final class Job {
        let path: String
        let pixels: Int
        let done: @Sendable (Outcome) -> Void
        init(path: String, pixels: Int, done: @escaping @Sendable (Outcome) -> Void) {
            self.path = path
            self.pixels = pixels
            self.done = done
        }
    }

    /// Jobs waiting for a worker, oldest first. GLib's pool only wakes a worker (its queue
    /// carries a token); the job itself crosses threads through this lock, which
    /// ThreadSanitizer can see (GLib's own locking it cannot).
    private let pending = Locked<[Job]>([])
    private var pool: UnsafeMutablePointer<GThreadPool>!

    /// The pool's workers hold the loader (one reference, never given back: the pool is never
    /// freed either, and a worker may still be loading when its owner lets go).
    init() {
        pool = g_thread_pool_new({ _, loader in
            let loader = Unmanaged<ImageFileLoader>.fromOpaque(loader!).takeUnretainedValue()
            guard let job = loader.pending.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) else { return }
            job.done(ImageFileLoader.load(path: job.path, pixels: job.pixels))
        }, Unmanaged.passRetained(self).toOpaque(), Self.workers, 0, nil)
    }

    /// Loads `path` at `pixels` (the larger side) on a worker; `done` runs on the worker
    /// thread with the outcome (post it to the main loop from there).
    func load(path: String, pixels: Int, done: @escaping @Sendable (Outcome) -> Void) {
        let job = Job(path: path, pixels: min(max(1, pixels), Self.maxRequestPixels), done: done)
        pending.withLock { $0.append(job) }
        // Any non-null pointer: one token per job, so every job gets a worker's turn.
        g_thread_pool_push(pool, UnsafeMutableRawPointer(bitPattern: 1), nil)
    }

    // MARK: On a worker

    /// The gdk-pixbuf loader type of each accepted signature.
    static let allowedTypes = ["png", "jpeg", "gif", "webp", "svg"]

    /// Opens, checks, reads and decodes `path`; never blocks on a FIFO or a device.
    static func load(path: String, pixels: Int) -> Outcome {
        let bytes: [UInt8]
        switch read(path) {
        case .failure(let problem): return Outcome(pixbuf: nil, problem: problem.text)
        case .success(let read): bytes = read
        }
        guard let type = imageType(bytes) else {
            return Outcome(pixbuf: nil, problem: "not a PNG, JPEG, GIF, WebP or SVG image (by its first bytes)")
        }
        return decode(bytes, type: type, pixels: pixels)
    }

    struct Problem: Error { let text: String }

    /// The file's bytes: a regular file of at most `maxFileBytes`, opened without blocking
    /// (`BoundedFileRead`).
    static func read(_ path: String) -> Result<[UInt8], Problem> {
        do {
            guard let data = try BoundedFileRead.read(path, limit: maxFileBytes, followLinks: true) else {
                return .failure(Problem(text: "cannot open it (\(String(cString: strerror(ENOENT))))"))
            }
            return .success([UInt8](data))
        } catch {
            switch error.reason {
            case .notRegular(let kind): return .failure(Problem(text: "it is \(kind), not a regular file"))
            case .tooLarge(let size, _):
                return .failure(Problem(text: "it is \(size) bytes, more than the \(maxFileBytes / 1024 / 1024) MiB limit"))
            case .system(let operation, let code): return .failure(Problem(text: "cannot \(operation) it (\(String(cString: strerror(code))))"))
            case .link: return .failure(Problem(text: "it is a symbolic link"))
            }
        }
    }

    /// The gdk-pixbuf loader type of `bytes` by its signature; nil for anything else.
    static func imageType(_ bytes: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            bytes.count >= offset + prefix.count && Array(bytes[offset..<offset + prefix.count]) == prefix
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return "png" }
        if starts([0xFF, 0xD8, 0xFF]) { return "jpeg" }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return "gif" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "webp" }
        // SVG: XML text (after a byte-order mark and white space) with an <svg element early on.
        var start = starts([0xEF, 0xBB, 0xBF]) ? 3 : 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) { start += 1 }
        if start < bytes.count, bytes[start] == UInt8(ascii: "<") {
            let head = bytes[start..<min(bytes.count, start + 4096)]
            let svg = Array("<svg".utf8)
            if head.count >= svg.count, (head.startIndex...(head.endIndex - svg.count)).contains(where: { Array(head[$0..<$0 + svg.count]) == svg }) {
                return "svg"
            }
        }
        return nil
    }

    /// What `size-prepared` decides: the size to decode at, or a refusal.
    private final class Sizing {
        let pixels: Int
        let scalable: Bool
        var refused: String?
        init(pixels: Int, scalable: Bool) {
            self.pixels = pixels
            self.scalable = scalable
        }
    }

    /// Decodes `bytes` with gdk-pixbuf's loader for `type`, fitted into `pixels` square.
    static func decode(_ bytes: [UInt8], type: String, pixels: Int) -> Outcome {
        var error: UnsafeMutablePointer<GError>?
        guard let loader = gdk_pixbuf_loader_new_with_type(type, &error) else {
            defer { if error != nil { g_error_free(error) } }
            return Outcome(pixbuf: nil, problem: "no \(type) loader (\(error.map { String(cString: $0.pointee.message) } ?? "unknown"))")
        }
        defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
        let sizing = Sizing(pixels: pixels, scalable: type == "svg")
        let context = Unmanaged.passRetained(sizing)
        defer { context.release() }
        typealias SizePrepared = @convention(c) (UnsafeMutablePointer<GdkPixbufLoader>?, Int32, Int32, UnsafeMutableRawPointer?) -> Void
        let onSize: SizePrepared = { loader, width, height, data in
            let sizing = Unmanaged<Sizing>.fromOpaque(data!).takeUnretainedValue()
            guard width > 0, height > 0 else {
                if sizing.scalable { gdk_pixbuf_loader_set_size(loader, Int32(sizing.pixels), Int32(sizing.pixels)) }
                return
            }
            let (maxSide, maxPixels) = (ImageFileLoader.maxSide, ImageFileLoader.maxDecodedPixels)
            if !sizing.scalable, Int(width) > maxSide || Int(height) > maxSide || Int(width) * Int(height) > maxPixels {
                sizing.refused = "it is \(width)x\(height) pixels, more than \(maxSide) on a side or \(maxPixels) in all"
                gdk_pixbuf_loader_set_size(loader, 0, 0)  // Stops the loader before it allocates the pixels.
                return
            }
            let factor = Double(sizing.pixels) / Double(max(width, height))
            gdk_pixbuf_loader_set_size(loader, Int32(max(1, (Double(width) * factor).rounded())),
                                       Int32(max(1, (Double(height) * factor).rounded())))
        }
        connectSignal(UnsafeMutableRawPointer(loader), "size-prepared", onSize, context.toOpaque())
        let written = bytes.withUnsafeBufferPointer { gdk_pixbuf_loader_write(loader, $0.baseAddress, gsize($0.count), &error) } != 0
        var problem = written ? nil : error.map { String(cString: $0.pointee.message) }
        if error != nil {
            g_error_free(error)
            error = nil
        }
        // Always closed, so the loader finishes (or gives up) before it is freed.
        if gdk_pixbuf_loader_close(loader, &error) == 0, problem == nil {
            problem = error.map { String(cString: $0.pointee.message) } ?? "the image is incomplete"
        }
        if error != nil { g_error_free(error) }
        if let refused = sizing.refused { return Outcome(pixbuf: nil, problem: refused) }
        guard problem == nil, let pixbuf = gdk_pixbuf_loader_get_pixbuf(loader) else {
            return Outcome(pixbuf: nil, problem: problem ?? "it decoded to nothing")
        }
        g_object_ref(UnsafeMutableRawPointer(pixbuf))
        return Outcome(pixbuf: pixbuf, problem: nil)
    }
}
