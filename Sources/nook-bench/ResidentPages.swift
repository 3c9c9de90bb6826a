import Foundation
import Glibc

/// The physical pages resident in a set of processes, each counted once: what the processes
/// take of the machine's memory together. A library page that five processes map is one page
/// of RAM; summing each process's RSS counts it five times, and PSS gives part of it to
/// whatever else maps it. Read from /proc/PID/pagemap, whose page frame numbers only root
/// (CAP_SYS_ADMIN) sees: nil when they read as zero.
enum ResidentPages {
    /// Pagemap entries read at a time (8 bytes each).
    private static let chunk = 65_536

    static func uniqueKiB(of pids: [Int32]) -> Int? {
        let pageSize = UInt64(sysconf(Int32(_SC_PAGESIZE)))
        var frames = Set<UInt64>()
        var sawFrame = false
        for pid in pids {
            guard let maps = ProcFile.text("/proc/\(pid)/maps") else { continue }
            let fd = open("/proc/\(pid)/pagemap", O_RDONLY)
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var entries = [UInt64](repeating: 0, count: chunk)
            for line in maps.split(separator: "\n") where !line.hasSuffix("[vsyscall]") {
                let bounds = line.prefix { $0 != " " }.split(separator: "-")
                guard bounds.count == 2, let start = UInt64(bounds[0], radix: 16), let end = UInt64(bounds[1], radix: 16), end > start
                else { continue }
                var page = start / pageSize
                let last = end / pageSize
                while page < last {
                    let count = Int(min(UInt64(chunk), last - page))
                    let read = entries.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count * 8, off_t(page * 8)) }
                    guard read > 0 else { break }
                    for entry in entries.prefix(read / 8) where entry & (1 << 63) != 0 {
                        // Bits 0-54: the frame number (present pages; bit 63).
                        let frame = entry & ((1 << 55) - 1)
                        if frame != 0 {
                            sawFrame = true
                            frames.insert(frame)
                        }
                    }
                    page += UInt64(count)
                }
            }
        }
        return sawFrame ? frames.count * Int(pageSize) / 1024 : nil
    }
}
