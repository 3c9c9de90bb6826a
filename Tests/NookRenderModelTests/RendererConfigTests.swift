import NookCore
import NookRenderModel
import Testing

/// `renderer.json`: every key's default, valid and invalid values with the exact message,
/// unknown keys, and where the file is looked for.
@Suite struct RendererConfigTests {
    static func problems(_ text: String) -> [String] {
        do {
            _ = try RendererConfig.parse(text)
            return []
        } catch {
            return error.problems
        }
    }

    @Test func anEmptyObjectGivesTheDefaults() throws {
        let config = try RendererConfig.parse("{}")
        #expect(config == RendererConfig.defaults)
        #expect(config.layer == .auto)
        #expect(config.output == .primary)
        #expect(config.marginTop == 0)
        #expect(config.exclusiveZone == nil)
        #expect(config.notch == .auto)
        #expect(config.notch.size == Size(width: 0, height: 0))
        #expect(config.notes.isEmpty)
        #expect(config.chromeColor == RGBA.black)
        #expect(config.textColor == RGBA.white)
        #expect(config.reduceMotion == .auto)
    }

    @Test func everyKeyTakesItsValues() throws {
        let config = try RendererConfig.parse("""
            {"layer": "overlay", "output": "DP-1", "margin_top": 8, "exclusive_zone": -1, "notch": "0x0",
             "font": "DejaVu Serif", "colors": {"chrome": "#203040", "text": "#FFEE0080"}, "reduce_motion": true}
            """)
        #expect(config.layer == .overlay)
        #expect(config.output == .named("DP-1"))
        #expect(config.marginTop == 8)
        #expect(config.exclusiveZone == -1)
        #expect(config.notch == .size(Size(width: 0, height: 0)))
        #expect(config.notes == [RendererConfig.retiredFontNote()])
        #expect(config.chromeColor == RGBA(red: 0x20 / 255, green: 0x30 / 255, blue: 0x40 / 255))
        #expect(config.textColor == RGBA(red: 1, green: 0xEE / 255, blue: 0, alpha: 0x80 / 255))
        #expect(config.reduceMotion == .fixed(true))
    }

    /// `font` is retired: whatever it holds, the file still applies (so older files keep
    /// working) and the log says the key does nothing and where the font is set.
    @Test func theRetiredFontKeyIsTakenAndSaidToDoNothing() throws {
        for text in [#"{"font": "DejaVu Serif"}"#, #"{"font": 12}"#, #"{"font": "  "}"#] {
            let config = try RendererConfig.parse(text)
            #expect(config.notes == [RendererConfig.retiredFontNote()], "\(text)")
            var withoutNotes = config
            withoutNotes.notes = []
            #expect(withoutNotes == RendererConfig.defaults, "\(text)")
        }
        #expect(RendererConfig.retiredFontNote().contains("font.family"))
    }

    /// The values at the ends of each range, and the named ones.
    @Test func validValuesAtTheEdges() throws {
        #expect(try RendererConfig.parse(#"{"layer": "top"}"#).layer == .top)
        #expect(try RendererConfig.parse(#"{"output": "primary"}"#).output == .primary)
        #expect(try RendererConfig.parse(#"{"output": "focused"}"#).output == .focused)
        #expect(try RendererConfig.parse(#"{"output": "HDMI-A-1"}"#).output == .named("HDMI-A-1"))
        #expect(try RendererConfig.parse(#"{"margin_top": 0}"#).marginTop == 0)
        #expect(try RendererConfig.parse(#"{"margin_top": 1000}"#).marginTop == 1000)
        #expect(try RendererConfig.parse(#"{"exclusive_zone": 0}"#).exclusiveZone == 0)
        #expect(try RendererConfig.parse(#"{"exclusive_zone": "auto"}"#).exclusiveZone == nil)
        #expect(try RendererConfig.parse(#"{"layer": "auto"}"#).layer == .auto)
        #expect(try RendererConfig.parse(#"{"exclusive_zone": 1000}"#).exclusiveZone == 1000)
        #expect(try RendererConfig.parse(#"{"notch": "auto"}"#).notch == .auto)
        #expect(try RendererConfig.parse(#"{"notch": "200x32"}"#).notch == .size(Size(width: 200, height: 32)))
        #expect(try RendererConfig.parse(#"{"reduce_motion": "auto"}"#).reduceMotion == .auto)
        #expect(try RendererConfig.parse(#"{"reduce_motion": false}"#).reduceMotion == .fixed(false))
        #expect(try RendererConfig.parse(#"{"colors": {}}"#) == RendererConfig.defaults)
    }

    @Test(arguments: [
        (#"{"layer": "bottom"}"#, #"renderer.json: key 'layer' must be "auto", "overlay" or "top", got "bottom""#),
        (#"{"layer": 1}"#, #"renderer.json: key 'layer' must be "auto", "overlay" or "top", got 1"#),
        (#"{"output": ""}"#, #"renderer.json: key 'output' must be "primary", "focused" or a connector name such as "DP-1", got """#),
        (#"{"output": ["DP-1"]}"#, #"renderer.json: key 'output' must be "primary", "focused" or a connector name such as "DP-1", got an array"#),
        (#"{"margin_top": -1}"#, "renderer.json: key 'margin_top' must be a whole number of points 0...1000, got -1"),
        (#"{"margin_top": 1001}"#, "renderer.json: key 'margin_top' must be a whole number of points 0...1000, got 1001"),
        (#"{"margin_top": 2.5}"#, "renderer.json: key 'margin_top' must be a whole number of points 0...1000, got 2.5"),
        (#"{"margin_top": "8"}"#, #"renderer.json: key 'margin_top' must be a whole number of points 0...1000, got "8""#),
        (#"{"exclusive_zone": -2}"#, "renderer.json: key 'exclusive_zone' must be \"auto\" (below panels, reserving the pill's height), -1 (over panels), 0 (below panels) or 1...1000 (points to reserve), got -2"),
        (#"{"exclusive_zone": 1001}"#, "renderer.json: key 'exclusive_zone' must be \"auto\" (below panels, reserving the pill's height), -1 (over panels), 0 (below panels) or 1...1000 (points to reserve), got 1001"),
        (#"{"notch": "200"}"#, #"renderer.json: key 'notch' must be "auto" or "WxH" in points (each 0...10000, e.g. "200x32" or "0x0"), got "200""#),
        (#"{"notch": "-1x5"}"#, #"renderer.json: key 'notch' must be "auto" or "WxH" in points (each 0...10000, e.g. "200x32" or "0x0"), got "-1x5""#),
        (#"{"notch": "20000x5"}"#, #"renderer.json: key 'notch' must be "auto" or "WxH" in points (each 0...10000, e.g. "200x32" or "0x0"), got "20000x5""#),
        (#"{"notch": null}"#, #"renderer.json: key 'notch' must be "auto" or "WxH" in points (each 0...10000, e.g. "200x32" or "0x0"), got null"#),
        (##"{"colors": "#000000"}"##, ##"renderer.json: key 'colors' must be an object with "chrome" and/or "text", got "#000000""##),
        (##"{"colors": {"chrome": "black"}}"##, ##"renderer.json: key 'colors.chrome' must be a colour "#RRGGBB" or "#RRGGBBAA", got "black""##),
        (##"{"colors": {"text": "#FFF"}}"##, ##"renderer.json: key 'colors.text' must be a colour "#RRGGBB" or "#RRGGBBAA", got "#FFF""##),
        (##"{"colors": {"accent": "#FFFFFF"}}"##, "renderer.json: unknown key 'colors.accent'"),
        (#"{"reduce_motion": "yes"}"#, #"renderer.json: key 'reduce_motion' must be "auto", true or false, got "yes""#),
        (#"{"reduce_motion": 1}"#, #"renderer.json: key 'reduce_motion' must be "auto", true or false, got 1"#),
        (#"{"layers": "top"}"#, "renderer.json: unknown key 'layers'"),
        ("[]", "renderer.json: expected a JSON object, got an array"),
        (#"{"layer": "top""#, "renderer.json: line 1, column 16: "),
    ])
    func invalidValuesAreNamed(text: String, message: String) {
        let found = Self.problems(text)
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.hasPrefix(message) == true && (message.hasSuffix(": ") || found.first == message), "\(found)")
    }

    /// Every problem of a file is reported, each by its key, and nothing of it applies.
    @Test func everyProblemIsReported() {
        let found = Self.problems(##"{"layer": "bottom", "colour": "#000000", "margin_top": 5}"##)
        #expect(found == [
            "renderer.json: unknown key 'colour'",
            #"renderer.json: key 'layer' must be "auto", "overlay" or "top", got "bottom""#,
        ])
    }

    /// Reduce Motion `auto` follows the desktop's animations; explicit values ignore them.
    @Test func reduceMotionDecision() {
        #expect(RendererConfig.ReduceMotion.auto.value(desktopAnimations: true) == false)
        #expect(RendererConfig.ReduceMotion.auto.value(desktopAnimations: false) == true)
        #expect(RendererConfig.ReduceMotion.fixed(true).value(desktopAnimations: true) == true)
        #expect(RendererConfig.ReduceMotion.fixed(false).value(desktopAnimations: false) == false)
    }

    @Test func notchOptionValues() {
        #expect(RendererConfig.Notch(text: "auto") == .auto)
        #expect(RendererConfig.Notch(text: "0x0") == .size(Size(width: 0, height: 0)))
        #expect(RendererConfig.Notch(text: "200x32")?.size == Size(width: 200, height: 32))
        #expect(RendererConfig.Notch(text: "x32") == nil)
        #expect(RendererConfig.Notch(text: "200x32x1") == nil)
        #expect(RendererConfig.Notch(text: "nanxnan") == nil)
    }

    // MARK: Where the file is

    @Test func xdgConfigHomeComesFirstThenEachConfigDir() {
        let paths = RendererConfigLocation.candidates(environment: [
            "HOME": "/home/ada", "XDG_CONFIG_HOME": "/cfg", "XDG_CONFIG_DIRS": "/opt/xdg:relative:/etc/xdg/",
        ])
        #expect(paths == ["/cfg/nook/renderer.json", "/opt/xdg/nook/renderer.json", "/etc/xdg/nook/renderer.json"])
    }

    @Test func withoutXdgVariablesTheDefaultsApply() {
        #expect(RendererConfigLocation.candidates(environment: ["HOME": "/home/ada"])
            == ["/home/ada/.config/nook/renderer.json", "/etc/xdg/nook/renderer.json"])
        // A relative XDG_CONFIG_HOME is ignored (the XDG rules), and an empty XDG_CONFIG_DIRS means the default.
        #expect(RendererConfigLocation.candidates(environment: ["HOME": "/home/ada", "XDG_CONFIG_HOME": "cfg", "XDG_CONFIG_DIRS": ""])
            == ["/home/ada/.config/nook/renderer.json", "/etc/xdg/nook/renderer.json"])
    }

    @Test func theFirstExistingFileWins() {
        let environment = ["XDG_CONFIG_HOME": "/cfg", "XDG_CONFIG_DIRS": "/a:/b"]
        #expect(RendererConfigLocation.locate(environment: environment) { $0 == "/b/nook/renderer.json" || $0 == "/a/nook/renderer.json" }
            == "/a/nook/renderer.json")
        #expect(RendererConfigLocation.locate(environment: environment) { _ in true } == "/cfg/nook/renderer.json")
        #expect(RendererConfigLocation.locate(environment: environment) { _ in false } == nil)
    }
}
