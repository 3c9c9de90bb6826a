import Foundation
import NookCore
import NookTestSupport
import Testing
@testable import NookCtlKit

/// `nookctl record --svg` against the real broker: a recorded tour is well-formed SVG whose
/// moving elements start and end where the plans say, it stops cleanly on SIGINT and SIGTERM,
/// and headless Chromium draws a mid-transition frame of it.
@Suite(.serialized) struct RecordTests {
    /// A recorded tour: the SVG `nookctl record` wrote and the plans `nookctl watch --json`
    /// printed meanwhile (the same display, so the same plans).
    struct Tour {
        var svg: Data
        var plans: [[String: Any]]
    }

    /// The music module publishes; the executables `record` and `watch --json` subscribe; the
    /// tour (show, peek, unpeek, open onto the home, close) runs through nookctl; then SIGINT
    /// (or SIGTERM) stops both and the recorder writes its file.
    func recordTour(in nook: LiveNook, stopWith stopSignal: Int32 = SIGINT) async throws -> Tour {
        let file = nook.scratch.appendingPathComponent("tour.svg")
        let recorder = try nook.process(["record", "--svg", file.path, "--seconds", "600"])
        let watcher = try nook.process(["watch", "--json"])
        let subscribed = await eventually(timeout: .seconds(30)) {
            recorder.log.contains("nookctl: recording into") && watcher.log.contains("\n")
        }
        #expect(subscribed, "record: \(recorder.log)\nwatch: \(watcher.log)")
        let steps = [["show"], ["peek", "music/song"], ["unpeek"], ["open", "--home", "music"], ["close"]]
        for (index, step) in steps.enumerated() {
            let run = await nook.ctl(step)
            #expect(run.status == NookCtlKit.ExitStatus.ok, "\(step): \(run.err)")
            // Pace the tour like a person: wait until the watcher has the plan, then let it play.
            #expect(await eventually(timeout: .seconds(30)) { watcher.log.split(separator: "\n").count >= index + 2 })
            try await Task.sleep(for: .milliseconds(700))
        }
        #expect(await recorder.stop(stopSignal) == 0, "record did not exit 0 on signal \(stopSignal): \(recorder.log)")
        #expect(await watcher.stop(stopSignal) == 0, "watch did not exit 0 on signal \(stopSignal): \(watcher.log)")
        #expect(recorder.log.contains("wrote \(file.path): "), "\(recorder.log)")
        let plans = try watcher.log.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
        return Tour(svg: try Data(contentsOf: file), plans: plans)
    }

    static func rect(_ value: Any?) -> [Double]? {
        guard let numbers = value as? [NSNumber], numbers.count == 4 else { return nil }
        return numbers.map(\.doubleValue)
    }

    /// Each moving element's rect starts at its plan's `from_rect` and ends at its `to_rect`
    /// (x, y, width, height; the SVG keeps two decimals).
    @Test func aRecordedTourIsSVGWhoseElementsFollowThePlansRects() async throws {
        try await LiveNook.with(music: true) { nook in
            let tour = try await recordTour(in: nook)
            let svg = try SVGDocument(data: tour.svg)
            #expect(svg.root["xmlns"] == "http://www.w3.org/2000/svg")
            #expect(svg.root["data-plans"] == String(tour.plans.count), "\(svg.root)")
            #expect(tour.plans.map { $0["cause"] as? String ?? "?" } == ["subscribe", "show", "peek", "end_peek", "open", "close"])
            // Every moving shared element is drawn as items carrying its key (SVGRecordingTests
            // checks their rects against the render model's frames).
            let text = String(decoding: tour.svg, as: UTF8.self)
            var checked = 0
            for plan in tour.plans {
                for element in plan["elements"] as? [[String: Any]] ?? [] {
                    let key = try #require(element["key"] as? String)
                    #expect(text.contains("data-key=\"\(key)\""), "no item for \(key) in the SVG")
                    checked += 1
                }
            }
            // The cover moves pill -> peek, back, and pill -> home and back: at least four trips.
            #expect(checked >= 4, "only \(checked) moving elements in \(tour.plans.map { $0["cause"] ?? "?" })")
            // The chrome ends where the last plan put it.
            let last = try #require(tour.plans.last?["chrome"] as? [String: Any])
            let to = try #require(Self.rect(last["to_rect"]))
            let chrome = try #require(svg.rects["chrome"])
            #expect(abs((chrome.ends("width")?.last ?? -1) - to[2]) <= 0.006 || to[2] == 0)
        }
    }

    @Test func recordStopsCleanlyOnSIGTERMToo() async throws {
        try await LiveNook.with(music: true) { nook in
            let tour = try await recordTour(in: nook, stopWith: SIGTERM)
            #expect(try SVGDocument(data: tour.svg).root["data-plans"] == String(tour.plans.count))
        }
    }

    @Test func recordStopsAfterItsCountOrSeconds() async throws {
        try await LiveNook.with(music: true) { nook in
            let file = nook.scratch.appendingPathComponent("one.svg")
            let counted = await nook.ctl(["record", "--svg", file.path, "--count", "1"])
            #expect(counted.status == NookCtlKit.ExitStatus.ok && counted.out == "wrote \(file.path): 1 plans\n", "\(counted)")
            let timed = await nook.ctl(["record", "--svg", file.path, "--seconds", "0.3"])
            #expect(timed.status == NookCtlKit.ExitStatus.ok && timed.out == "wrote \(file.path): 1 plans\n", "\(timed)")
            let written = try SVGDocument(data: Data(contentsOf: file))
            #expect(written.root["data-plans"] == "1")
        }
    }

    /// Headless Chromium (Debian's `chromium`) loads the recorded tour, paused mid-way through
    /// the chrome's first move, and draws it: the screenshot is not blank (it shows the SVG's
    /// backdrop and the black chrome), and it differs from the frame at rest before the move.
    @Test func headlessChromiumDrawsAMidTransitionFrame() async throws {
        guard let chromium = try? Tools.path(of: "chromium") else {
            Issue.record("chromium is not installed, so no browser drew the SVG: `make test` installs it (scripts/ensure-deps.sh), or run apt-get install chromium")
            return
        }
        try await LiveNook.with(music: true) { nook in
            let tour = try await recordTour(in: nook)
            let svg = try SVGDocument(data: tour.svg)
            let duration = try #require(svg.root["data-duration"].flatMap(Double.init))
            let chrome = try #require(svg.rects["chrome"])
            let (rest, moving) = try #require(Self.restAndMovingTimes(chrome, duration: duration), "the chrome never moves")
            // One CSS pixel per display point (the SVG asks for two): small PNGs, quick to count.
            let width = Int((Double(svg.root["width"] ?? "") ?? 960) / 2), height = Int((Double(svg.root["height"] ?? "") ?? 400) / 2)
            let browser = ChromiumFrames(chromium: chromium, directory: nook.scratch, svg: tour.svg, width: width, height: height)
            let restFrame = try await browser.pixels(at: rest)
            let movingFrame = try await browser.pixels(at: moving)
            for (name, frame) in [("rest", restFrame), ("moving", movingFrame)] {
                // The page is white; the SVG paints its backdrop (#dfe3ea) and the chrome black.
                #expect(frame.backdrop > width * height / 20, "\(name) frame at shows no SVG backdrop: \(frame)")
                #expect(frame.dark > 200, "\(name) frame shows no chrome: \(frame)")
            }
            #expect(movingFrame.dark != restFrame.dark, "the frame mid-move looks like the frame at rest: \(restFrame) vs \(movingFrame)")
        }
    }

    /// The recording as a browser plays it is the render model's frames: headless Chromium,
    /// paused at chosen instants (every tenth frame) of a tour and of an interrupted hide dip,
    /// shows every item and the chrome where `PlanPresenter` draws them, within 1 point and
    /// 0.05 opacity.
    @Test func headlessChromiumShowsTheRenderModelsFrames() async throws {
        guard let chromium = try? Tools.path(of: "chromium") else {
            Issue.record("chromium is not installed, so no browser played the SVG: `make test` installs it (scripts/ensure-deps.sh), or run apt-get install chromium")
            return
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("nook-svg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        for name in ["interrupted dip", "tour"] {
            let recorded = SVGRecordingTests.recordings[name]!
            let document = SVGRecording(plans: recorded).document
            let duration = RecordingTimeline(recorded).total
            let times = stride(from: 0, through: Int(duration * 60), by: 10).map { Double($0) / 60 }
            let browser = ChromiumFrames(chromium: chromium, directory: scratch, svg: Data(document.utf8), width: 0, height: 0)
            let shown = try await browser.drawn(at: times)
            var failures: [String] = []
            for (time, svg) in zip(times, shown) {
                #expect(!svg.isEmpty, "\(name): chromium showed nothing at \(time) s")
                let model = SVGSampling.drawn(SVGSampling.modelFrame(recorded, at: time))
                failures += SVGSampling.mismatches(svg: svg, model: model).map { "\(time) s: \($0)" }
            }
            #expect(failures.isEmpty, "\(name): \(failures.count) differences, first: \(failures.prefix(4))")
        }
    }

    /// From the chrome's width animation: a time at rest just before its first move, and a
    /// time in the middle of that move (a sample that differs from both its neighbours).
    static func restAndMovingTimes(_ chrome: SVGDocument.Rect, duration: Double) -> (Double, Double)? {
        for name in ["width", "height", "x", "y"] {
            guard let animation = chrome.animations[name], animation.values.count == animation.keyTimes.count else { continue }
            let values = animation.values, times = animation.keyTimes
            guard values.count >= 4 else { continue }
            // The first run of samples that all differ from their neighbours: the chrome travelling.
            var run: [Int] = []
            for index in 1..<(values.count - 1) {
                if values[index] != values[index - 1] && values[index] != values[index + 1] && times[index + 1] - times[index] < 0.05 {
                    run.append(index)
                } else if run.count >= 3 {
                    break
                } else {
                    run = []
                }
            }
            guard run.count >= 3, let start = run.first else { continue }
            let rest = times[start - 1] * duration - 0.002
            return (max(0, rest), times[run[run.count / 2]] * duration)
        }
        return nil
    }
}

/// Screenshots of one SVG in headless Chromium, paused at a chosen time.
struct ChromiumFrames {
    let chromium: String
    let directory: URL
    let svg: Data
    let width: Int
    let height: Int

    /// How the pixels of one screenshot fall: the white page, the SVG's backdrop, near-black
    /// (the chrome), anything else.
    struct Pixels: CustomStringConvertible {
        var page = 0, backdrop = 0, dark = 0, other = 0
        var description: String { "page \(page), backdrop \(backdrop), dark \(dark), other \(other)" }
    }

    /// What Chromium shows at each of `times`: the SVG inline in a page whose script pauses
    /// its animations, sets each time in turn and writes the chrome's and every item's
    /// animated rect and computed opacity into the page, which `--dump-dom` prints.
    func drawn(at times: [Double]) async throws -> [[SVGSampling.Drawn]] {
        let page = directory.appendingPathComponent("sample-\(UUID().uuidString).html")
        var body = String(decoding: svg, as: UTF8.self)
        if body.hasPrefix("<?xml"), let end = body.range(of: "?>") { body = String(body[end.upperBound...]) }
        let list = times.map { String($0) }.joined(separator: ",")
        let html = """
        <!DOCTYPE html><html><head></head><body>
        \(body)
        <pre id="out"></pre>
        <script>
        const svg = document.querySelector('svg'); svg.pauseAnimations();
        const box = (r) => [r.x.animVal.value, r.y.animVal.value, r.width.animVal.value, r.height.animVal.value].join(' ');
        let lines = [];
        (async () => {
        for (const t of [\(list)]) {
          svg.setCurrentTime(t);
          // Animated values follow a new time at the next frame.
          await new Promise((done) => setTimeout(done, 50));
          const chrome = document.getElementById('chrome');
          lines.push(t + '\\t#chrome\\t\\t' + box(chrome) + '\\t' + getComputedStyle(chrome).opacity);
          for (const g of document.querySelectorAll('g[id^="item-"]')) {
            const r = g.querySelector('rect.box');
            lines.push(t + '\\t' + g.dataset.path + '\\t' + (g.dataset.key || '') + '\\t' + box(r) + '\\t' + getComputedStyle(g).opacity);
          }
        }
        document.getElementById('out').textContent = lines.join('\\n');
        })();
        </script></body></html>
        """
        try html.write(to: page, atomically: true, encoding: .utf8)
        let result = try await Tools.run("timeout", [
            "120", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
            "--user-data-dir=\(directory.appendingPathComponent("chromium-profile").path)",
            "--virtual-time-budget=30000", "--dump-dom", page.absoluteString,
        ])
        guard let start = result.stdout.range(of: "<pre id=\"out\">"), let end = result.stdout.range(of: "</pre>", range: start.upperBound..<result.stdout.endIndex) else {
            throw SVGDocument.SVGProblem("chromium printed no samples (status \(result.status)): \(result.stderr.suffix(2000))")
        }
        var out = times.map { _ in [SVGSampling.Drawn]() }
        for line in result.stdout[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 5, let time = Double(fields[0]), let at = times.firstIndex(where: { abs($0 - time) < 1e-9 }) else { continue }
            let numbers = fields[3].split(separator: " ").compactMap { Double($0) }
            guard numbers.count == 4, let opacity = Double(fields[4]) else { continue }
            let path = fields[1].replacingOccurrences(of: "&amp;", with: "&")
            out[at].append(SVGSampling.Drawn(path: path, key: fields[2].isEmpty ? nil : fields[2],
                                             rect: NookCore.Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3]), opacity: opacity))
        }
        return out
    }

    /// Renders the SVG inline in an HTML page whose script pauses its animations at `time`
    /// seconds, screenshots it, and counts the PNG's pixels (decoded by `python3`'s zlib: the
    /// PNG is 8-bit RGB(A), non-interlaced, as Chromium writes it).
    func pixels(at time: Double) async throws -> Pixels {
        let tag = UUID().uuidString
        let page = directory.appendingPathComponent("frame-\(tag).html")
        let png = directory.appendingPathComponent("frame-\(tag).png")
        var body = String(decoding: svg, as: UTF8.self)
        if body.hasPrefix("<?xml"), let end = body.range(of: "?>") { body = String(body[end.upperBound...]) }
        let html = """
        <!DOCTYPE html><html><head><style>html,body{margin:0;padding:0;background:#ffffff}svg{display:block;width:\(width)px;height:\(height)px}</style></head><body>
        \(body)
        <script>const svg = document.querySelector('svg'); svg.pauseAnimations(); svg.setCurrentTime(\(time));</script>
        </body></html>
        """
        try html.write(to: page, atomically: true, encoding: .utf8)
        // Under `timeout`: a browser that hangs fails the test instead of stalling the suite.
        let result = try await Tools.run("timeout", [
            "120", chromium, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--user-data-dir=\(directory.appendingPathComponent("chromium-profile").path)",
            "--virtual-time-budget=2000", "--window-size=\(width),\(height)", "--screenshot=\(png.path)", page.absoluteString,
        ])
        guard FileManager.default.fileExists(atPath: png.path) else {
            throw SVGDocument.SVGProblem("chromium wrote no screenshot (status \(result.status)): \(result.stderr.suffix(2000))")
        }
        let counted = try await Tools.run("/usr/bin/python3", ["-c", Self.countPixels, png.path])
        let numbers = counted.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard counted.status == 0, numbers.count == 4 else {
            throw SVGDocument.SVGProblem("cannot decode \(png.path): \(counted.stderr)")
        }
        return Pixels(page: numbers[0], backdrop: numbers[1], dark: numbers[2], other: numbers[3])
    }

    /// A minimal PNG reader: IHDR, the IDAT stream inflated, the five row filters undone.
    /// Prints the counts of white, backdrop (#dfe3ea, within 6), near-black, and other pixels.
    static let countPixels = #"""
    import struct, sys, zlib
    data = open(sys.argv[1], 'rb').read()
    assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
    pos, idat, width, height, bpp = 8, b'', 0, 0, 0
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        chunk = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', chunk)
            assert depth == 8 and colour in (2, 6) and interlace == 0, 'unsupported PNG'
            bpp = 3 if colour == 2 else 4
        elif kind == b'IDAT':
            idat += chunk
        pos += 12 + length
    raw, stride, prev, counts = zlib.decompress(idat), width * bpp, bytearray(width * bpp), [0, 0, 0, 0]
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1:start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1: line[i] = (line[i] + a) & 255
            elif kind == 2: line[i] = (line[i] + b) & 255
            elif kind == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        for x in range(0, stride, bpp):
            r, g, bl = line[x], line[x + 1], line[x + 2]
            if r >= 250 and g >= 250 and bl >= 250: counts[0] += 1
            elif abs(r - 0xdf) <= 6 and abs(g - 0xe3) <= 6 and abs(bl - 0xea) <= 6: counts[1] += 1
            elif r <= 24 and g <= 24 and bl <= 24: counts[2] += 1
            else: counts[3] += 1
        prev = line
    print(*counts)
    """#
}
