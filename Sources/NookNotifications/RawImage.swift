/// The spec's `image-data` hint, `(iiibiiay)`: width, height, rowstride, has_alpha,
/// bits_per_sample, channels, pixels. Checked before any pixel is read.
public struct RawImage: Hashable, Sendable {
    /// The largest width and height accepted; bigger images are refused (the nook shows at
    /// most 64 points of it).
    public static let maxSide: Int32 = 512
    /// The most pixel bytes an accepted image can use (512 rows of 512 RGBA pixels, each row
    /// padded by at most 64 bytes). `Notify` skips a longer pixel array unread: a 4096x4096
    /// RGBA image (64 MiB, the most D-Bus carries) then costs the message's bytes, not the
    /// gigabytes its decoded values would.
    public static let maxPixelBytes = Int(maxSide) * (Int(maxSide) * 4 + maxRowPadding)
    static let maxRowPadding = 64

    public let width: Int
    public let height: Int
    public let rowstride: Int
    public let channels: Int
    public let pixels: [UInt8]

    /// Why an `image-data` value was not used.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Checks the fields: 1...512 pixels each way, 8 bits per sample, 3 (RGB) or 4 (RGBA)
    /// channels matching `has_alpha`, a rowstride that holds a row, and enough bytes for the
    /// last row. All arithmetic is on values already bounded, so nothing can overflow.
    public init(width: Int32, height: Int32, rowstride: Int32, hasAlpha: Bool, bitsPerSample: Int32, channels: Int32, pixels: [UInt8]) throws(Problem) {
        guard (1...Self.maxSide).contains(width), (1...Self.maxSide).contains(height) else {
            throw Problem(description: "image-data: \(width)x\(height) is outside 1...\(Self.maxSide) on a side")
        }
        guard bitsPerSample == 8 else { throw Problem(description: "image-data: bits_per_sample \(bitsPerSample), only 8 is read") }
        guard channels == (hasAlpha ? 4 : 3) else {
            throw Problem(description: "image-data: \(channels) channels with has_alpha \(hasAlpha)")
        }
        let row = Int(width) * Int(channels)
        guard rowstride >= row, rowstride <= row + Self.maxRowPadding else {
            throw Problem(description: "image-data: rowstride \(rowstride) for rows of \(row) bytes")
        }
        let needed = Int(rowstride) * (Int(height) - 1) + row
        guard pixels.count >= needed else {
            throw Problem(description: "image-data: \(pixels.count) bytes, \(width)x\(height) needs \(needed)")
        }
        self.width = Int(width)
        self.height = Int(height)
        self.rowstride = Int(rowstride)
        self.channels = Int(channels)
        self.pixels = pixels
    }

    /// The image as a PNG file (RGB or RGBA, 8 bits, deflate "stored" blocks: no compression
    /// library needed, and gdk-pixbuf reads it like any PNG).
    public var png: [UInt8] {
        var raw: [UInt8] = []
        let row = width * channels
        raw.reserveCapacity((row + 1) * height)
        for y in 0..<height {
            raw.append(0)  // filter: none
            raw.append(contentsOf: pixels[(y * rowstride)..<(y * rowstride + row)])
        }
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, channels == 4 ? 6 : 2, 0, 0, 0]
        out.appendChunk("IHDR", header)
        out.appendChunk("IDAT", Self.zlibStored(raw))
        out.appendChunk("IEND", [])
        return out
    }

    /// `data` in a zlib stream of uncompressed deflate blocks (at most 65,535 bytes each).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let size = min(65_535, data.count - offset)
            let last: UInt8 = offset + size == data.count ? 1 : 0
            out.append(last)
            out.append(UInt8(size & 0xFF)); out.append(UInt8(size >> 8))
            out.append(UInt8(~size & 0xFF)); out.append(UInt8((~size >> 8) & 0xFF))
            out.append(contentsOf: data[offset..<(offset + size)])
            offset += size
        } while offset < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        out.appendBigEndian(b << 16 | a)
        return out
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(UInt8(value >> 24)); append(UInt8((value >> 16) & 0xFF)); append(UInt8((value >> 8) & 0xFF)); append(UInt8(value & 0xFF))
    }

    mutating func appendChunk(_ type: String, _ data: [UInt8]) {
        appendBigEndian(UInt32(data.count))
        let typed = Array(type.utf8) + data
        append(contentsOf: typed)
        appendBigEndian(CRC32.checksum(typed))
    }
}

/// PNG's CRC-32 (the IEEE polynomial, reflected).
enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }
}
