/// A screenshot as 8-bit RGB rows, and where the cover is in it.
struct RGBImage: Sendable {
    let width: Int
    let height: Int
    let bytes: [UInt8]

    /// The renderer's cover without art is (230, 20, 140) (nook-renderer's
    /// `CustomViews.coverWithoutArt`). Faded over the black chrome it keeps its hue, so a
    /// pixel matches by the ratios of its channels, not by their values.
    static func isCoverColour(red: Int, green: Int, blue: Int) -> Bool {
        guard red >= 40, blue > 0 else { return false }
        let redOverBlue = Double(red) / Double(blue)
        return green * 4 < red && abs(redOverBlue - 230.0 / 140.0) < 0.3
    }

    /// A connected patch of cover-coloured pixels: its bounding box and pixel count.
    struct Blob: Hashable, Sendable, CustomStringConvertible {
        var minX: Int, minY: Int, maxX: Int, maxY: Int
        var count: Int
        var width: Int { maxX - minX + 1 }
        var height: Int { maxY - minY + 1 }
        var midX: Double { Double(minX + maxX + 1) / 2 }
        var midY: Double { Double(minY + maxY + 1) / 2 }
        var description: String { "\(minX),\(minY) \(width)x\(height) (\(count) px)" }
    }

    /// The bounding box of the black chrome: every pixel clearly darker than the window's
    /// neutral background (nook-renderer's `NookWindow.neutralBackground`, about 41, 43, 48,
    /// painted where a window cannot be transparent, as on Xvfb). A chrome fading in or out
    /// darkens the background it lies on, so it counts once it is `margin` below it; content
    /// (white text, the magenta cover) is lighter than the background and never counts.
    /// Only the window's rows count: they start at the top and end where the left edge stops
    /// being background (below the window is the bare root window).
    /// - Parameter background: the sum of the background's channels (headless sway's own
    ///   background is 63, 63, 63).
    func chromeBox(margin: Int = 15, background: Int = 41 + 43 + 48) -> Blob? {
        func sum(_ index: Int) -> Int { Int(bytes[index * 3]) + Int(bytes[index * 3 + 1]) + Int(bytes[index * 3 + 2]) }
        var windowRows = 0
        while windowRows < height, abs(sum(windowRows * width) - background) <= margin { windowRows += 1 }
        var box: Blob?
        for index in 0..<(width * windowRows) {
            let offset = index * 3
            let sum = Int(bytes[offset]) + Int(bytes[offset + 1]) + Int(bytes[offset + 2])
            guard sum < background - margin else { continue }
            let x = index % width, y = index / width
            if var found = box {
                found.minX = min(found.minX, x); found.maxX = max(found.maxX, x)
                found.minY = min(found.minY, y); found.maxY = max(found.maxY, y)
                found.count += 1
                box = found
            } else {
                box = Blob(minX: x, minY: y, maxX: x, maxY: y, count: 1)
            }
        }
        return box
    }

    /// Every cover-coloured patch of at least `minimum` pixels, largest first (4-connected).
    func coverBlobs(minimum: Int = 30) -> [Blob] {
        var matches = [Bool](repeating: false, count: width * height)
        for index in 0..<(width * height) {
            let offset = index * 3
            matches[index] = Self.isCoverColour(red: Int(bytes[offset]), green: Int(bytes[offset + 1]), blue: Int(bytes[offset + 2]))
        }
        var seen = [Bool](repeating: false, count: width * height)
        var blobs: [Blob] = []
        for start in 0..<(width * height) where matches[start] && !seen[start] {
            var blob = Blob(minX: start % width, minY: start / width, maxX: start % width, maxY: start / width, count: 0)
            var stack = [start]
            seen[start] = true
            while let index = stack.popLast() {
                let x = index % width, y = index / width
                blob.count += 1
                blob.minX = min(blob.minX, x); blob.maxX = max(blob.maxX, x)
                blob.minY = min(blob.minY, y); blob.maxY = max(blob.maxY, y)
                for (nx, ny) in [(x - 1, y), (x + 1, y), (x, y - 1), (x, y + 1)] where nx >= 0 && ny >= 0 && nx < width && ny < height {
                    let next = ny * width + nx
                    if matches[next] && !seen[next] {
                        seen[next] = true
                        stack.append(next)
                    }
                }
            }
            if blob.count >= minimum { blobs.append(blob) }
        }
        return blobs.sorted { $0.count > $1.count }
    }
}

