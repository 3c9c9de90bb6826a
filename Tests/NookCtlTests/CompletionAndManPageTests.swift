import Foundation
import NookTestSupport
import Testing
@testable import NookCtlKit

/// What `make install` generates from the verb table: the completions, run by real bash and
/// fish and parsed by zsh, and the man page, formatted by groff without a warning.
@Suite struct CompletionAndManPageTests {
    /// Writes `text` to a scratch file and runs `body` with its path.
    static func withFile<T>(_ text: String, _ body: (String) async throws -> T) async throws -> T {
        let scratch = try Scratch("nookctl-generated")
        defer { scratch.remove() }
        let file = scratch.url.appendingPathComponent("script")
        try Data(text.utf8).write(to: file)
        return try await body(file.path)
    }

    /// What bash offers for a command line whose last word is being completed.
    static func bashCompletes(_ words: [String]) async throws -> [String] {
        try await withFile(Completions.bash) { path in
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
            let script = "source '\(path)'; COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _nookctl; printf '%s\\n' \"${COMPREPLY[@]}\""
            let result = try await Tools.run("bash", ["--norc", "--noprofile", "-c", script])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map(String.init).sorted()
        }
    }

    /// What fish offers for a command line (`complete -C`), without descriptions.
    static func fishCompletes(_ line: String) async throws -> [String] {
        try await withFile(Completions.fish) { path in
            let result = try await Tools.run("fish", ["--no-config", "-c", "source '\(path)'; complete -C '\(line)'"])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }.sorted()
        }
    }

    static let firstWords = VerbTableTerms.firstWords.map(\.word).sorted()

    @Test func firstWordsAreTheVerbTablesOnes() {
        #expect(Self.firstWords == ["actions", "activities", "activity", "animation", "close", "companion", "display", "dnd", "end", "focus", "hide", "modules",
                                    "notifications", "open", "osd", "peek", "press", "preview", "record", "reload", "set", "show", "status", "theme", "timer", "toggle",
                                    "unpeek", "watch"])
        #expect(VerbTableTerms.valuedOptions.sorted() == ["--activity", "--address", "--count", "--dismissible", "--expires", "--for", "--format", "--height", "--home",
                                                          "--id", "--image", "--label", "--notch", "--peek", "--progress", "--relevance", "--seconds", "--subtitle", "--svg",
                                                          "--symbol", "--timer", "--title", "--via", "--view-json", "--width"])
    }

    @Test func bashCompletesVerbsGroupsOptionsAndValues() async throws {
        #expect(try await Self.bashCompletes(["nookctl", ""]) == Self.firstWords)
        #expect(try await Self.bashCompletes(["nookctl", "th"]) == ["theme"])
        #expect(try await Self.bashCompletes(["nookctl", "theme", ""]) == ["load", "set", "show"])
        #expect(try await Self.bashCompletes(["nookctl", "--address", "unix:path=/tmp/bus", "open", "--via", ""]) == ["claim", "hover"])
        #expect(try await Self.bashCompletes(["nookctl", "open", "--"]) == ["--activity", "--board", "--help", "--home", "--via"])
        #expect(try await Self.bashCompletes(["nookctl", "set", "reduce-motion", ""]) == ["off", "on"])
        #expect(try await Self.bashCompletes(["nookctl", "activity", "start", "b/j", "--dismissible", ""]) == ["off", "on"])
        #expect(try await Self.bashCompletes(["nookctl", "preview", ""]) == VerbTable.previewActions.sorted())
        #expect(try await Self.bashCompletes(["nookctl", "animation", "set", ""]) == ["convert", "peek"])
        // After the verb's last positional there is nothing more to offer.
        #expect(try await Self.bashCompletes(["nookctl", "set", "reduce-motion", "on", ""]) == [])
    }

    @Test func fishCompletesVerbsGroupsOptionsAndValues() async throws {
        #expect(try await Self.fishCompletes("nookctl ") == Self.firstWords)
        #expect(try await Self.fishCompletes("nookctl theme ") == ["load", "set", "show"])
        #expect(try await Self.fishCompletes("nookctl --address unix:path=/tmp/bus open --via ") == ["claim", "hover"])
        #expect(try await Self.fishCompletes("nookctl open --") == ["--activity", "--address", "--board", "--help", "--home", "--version", "--via"])
        #expect(try await Self.fishCompletes("nookctl set reduce-motion ") == ["off", "on"])
        #expect(try await Self.fishCompletes("nookctl set reduce-motion on ") == [])
    }

    @Test func zshParsesItsCompletion() async throws {
        try await Self.withFile(Completions.zsh) { path in
            let result = try await Tools.run("zsh", ["-n", path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
        }
        // Every verb and option has its line.
        for verb in VerbTable.verbs {
            #expect(Completions.zsh.contains(verb.secondWord + ")"), "\(verb.name)")
            for option in verb.options { #expect(Completions.zsh.contains("'" + option.name + "["), "\(verb.name) \(option.name)") }
        }
    }

    @Test func manPageListsEveryVerbAndOptionAndFormatsWithoutWarnings() async throws {
        let page = ManPage.nookctl(version: "9.9")
        #expect(page.contains(".TH NOOKCTL 1 \"\" \"Nook 9.9\""))
        for verb in VerbTable.verbs {
            #expect(page.contains(".B " + ManPage.roff(verb.name)), "\(verb.name) missing")
            for option in verb.options { #expect(page.contains(".B " + ManPage.roff(option.name)), "\(verb.name) \(option.name) missing") }
        }
        try await Self.withFile(page) { path in
            let result = try await Tools.run("groff", ["-man", "-ww", "-z", "-Tutf8", path])
            #expect(result.status == 0 && result.stderr.isEmpty, "\(result.stderr)")
            let text = try await Tools.run("groff", ["-man", "-Tutf8", "-P", "-cbou", path])
            #expect(text.stdout.contains("theme set TOKEN VALUE"), "\(text.stdout)")
        }
    }
}
