import Glibc

/// A moment as the local wall clock shows it (`2026-12-04 18:03:11`, with `CET` when
/// `withZone`), from the C library's `localtime_r` and `strftime`: the time zone is the
/// process's (`TZ`, else /etc/localtime), as `date` shows it.
enum LocalTime {
    static func text(unixMicroseconds micros: Int64, withZone: Bool) -> String {
        var seconds = time_t(micros / 1_000_000)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return "?" }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, withZone ? "%Y-%m-%d %H:%M:%S %Z" : "%Y-%m-%d %H:%M:%S", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
