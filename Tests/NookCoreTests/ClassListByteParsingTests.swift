import NookTestSupport
import Testing
@testable import NookCore

/// ASCII class strings are parsed on UTF-8 bytes; anything else through `Character`s. The two
/// readings must agree, so these compare them on the same tokens.
@Suite struct ClassListByteParsingTests {
    /// A non-ASCII passthrough token sends the whole string through the `Character` path;
    /// apart from that token the result must be the byte path's.
    static func characterReading(_ classes: String) -> ClassList {
        var list = ClassList(parsing: classes + " é", path: "n.classes")
        #expect(list.passthrough.last == "é")
        list.passthrough.removeLast()
        return list
    }

    @Test func byteAndCharacterReadingsAgreeOnNamedCases() {
        let cases = [
            "", " ", "group", "group/hero", "group/", "group/bad name", "group/he:ro", "shared-[cover]", "shared-[cover]/hero",
            "shared-[a b]", "shared-[cover", "shared-[cover]x", "shared-frame shared-size", "shared-source shared-follower",
            "shared-nothing", "animate-smooth animate-snappy", "animate-", "duration-400 duration-300", "delay-[20ms]",
            "duration-[0.4s]", "duration-x", "w-20 h-[37] size-5 p-2 pt-0 px-3 gap-1 w-0.5 w-[37pt]", "hover:w-20",
            "group-hover/hero:opacity-70 active:group-hover/hero:opacity-50", "group-nope:opacity-50", "a::b", ":x", "x:",
            "bg-[url(a:b)]", "p-2\tgap-1\ngroup\r\nshared-[x]\u{0B}w-1\u{0C}h-2", "  lots   of   space  ", "grouphero", "shared-",
        ]
        for classes in cases {
            #expect(ClassList(parsing: classes, path: "n.classes") == Self.characterReading(classes), "\(classes.debugDescription)")
        }
    }

    /// `shared-[id]` has its own one-pass byte reader; every other shape falls back to the
    /// general one, and both must give what the `Character` path gives (ids, diagnostics, the
    /// later-wins conflict note with the token as written).
    @Test func sharedIDsReadFromBytesAgreeWithCharacters() {
        let longest = String(repeating: "a", count: Identifier.maxLength)
        let cases = [
            "shared-[a]", "shared-[a.b_c-9]", "shared-[]", "shared-[a]]", "shared-[[a]", "shared-[a]x", "shared-[a]/hero",
            "shared-[a] shared-[b]", "shared-[a] shared-[a]", "shared-[b]/hero shared-[a]", "shared-[\(longest)]",
            "shared-[\(longest)a]", "shared-[a+b]", "shared-[", "shared-[a", "shared-]a[",
        ]
        for classes in cases {
            let bytes = ClassList(parsing: classes, path: "n.classes")
            #expect(bytes == Self.characterReading(classes), "\(classes.debugDescription)")
        }
        #expect(ClassList(parsing: "shared-[icon7] size-8").shared == SharedClass(id: "icon7"))
        #expect(ClassList(parsing: "shared-[\(longest)a]").shared == nil)
        let conflict = ClassList(parsing: "shared-[a] shared-[b]")
        #expect(conflict.shared == SharedClass(id: "b"))
        #expect(conflict.diagnostics.map(\.message) == ["\"shared-[b]\" replaces an earlier shared class on the same node"])
        #expect(conflict.diagnostics.map(\.id) == ["b"])
    }

    @Test func byteAndCharacterReadingsAgreeOnRandomStrings() {
        let pieces = ["group", "group/", "shared-", "[", "]", "/", ":", "-", "animate-", "duration-", "delay-", "w", "h", "size", "p",
                      "px", "gap", "hero", "cover", "0", "2", "20", ".5", "ms", "s", "hover", "group-hover", " ", "\t", "\n", "\r",
                      "\u{0B}", "\u{0C}", "  ", "frame", "follower", "opacity-70"]
        var random = SeededGenerator(seed: 42)
        var mismatches: [String] = []
        for _ in 0..<2_000 {
            let count = Int.random(in: 1...12, using: &random)
            let classes = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
            if ClassList(parsing: classes, path: "n.classes") != Self.characterReading(classes) { mismatches.append(classes) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map(\.debugDescription))")
    }
}
