import Glibc

/// A /proc file, read to its end: what every benchmark reads of a process goes through here.
enum ProcFile {
    /// The file's text; nil when it cannot be opened or read. (`String(contentsOfFile:)` stops
    /// after its first read here, about 4 KB: a /proc file says its size is 0, and the maps of
    /// a process that links the Swift runtime, GLib and PipeWire are 30 KB and more. Until
    /// session 28 the footprint figure read only each process's first 40-odd mappings.)
    static func text(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? String(decoding: bytes, as: UTF8.self) : nil }
            bytes += buffer.prefix(count)
        }
    }
}
