import Foundation
import Testing
@testable import NookCore

/// The value domains: defined once in `NumberDomain`, shown in docs/contract.md, enforced
/// with messages that name what was wrong.
@Suite struct NumberDomainTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func docsShowTheCodesTable() throws {
        for page in ["docs/contract.md", "docs/broker.md"] {
            let text = try String(contentsOf: Self.repository.appendingPathComponent(page), encoding: .utf8)
            // When this fails, paste the table below into the page's "Ranges" section.
            #expect(text.contains(NumberDomain.markdownTable), "\(page) lacks the current table:\n\(NumberDomain.markdownTable)")
        }
    }

    @Test func everyDomainIsFiniteAndOrdered() {
        for domain in NumberDomain.all {
            #expect(domain.lower.isFinite && domain.upper.isFinite && domain.lower < domain.upper, "\(domain.name)")
            #expect(!domain.contains(.nan) && !domain.contains(.infinity) && !domain.contains(-.infinity), "\(domain.name)")
            #expect(domain.contains(domain.clamped(.nan)) && domain.contains(domain.clamped(.infinity)), "\(domain.name)")
        }
        #expect(Set(NumberDomain.all.map(\.name)).count == NumberDomain.all.count, "domain names are unique")
    }

    @Test func problemsSayWhatWasWrong() {
        #expect(NumberDomain.duration.problem(.nan) == "NaN is not a finite number")
        #expect(NumberDomain.duration.problem(-.infinity) == "-inf is not a finite number")
        #expect(NumberDomain.duration.problem(1e308) == "1e+308 is outside 0...60 s (duration)")
        #expect(NumberDomain.springResponse.problem(0) == "0 is outside 0.001...60 s (response)")
        #expect(NumberDomain.length.problem(1_000_000) == nil)
        #expect(NumberDomain.length.problem(1_000_000.5) != nil)
        #expect(NumberDomain.unixDate.problem(Double(Int64.min)) != nil)
    }

    @Test func validatorRefusesOutOfDomainSizesAndDatesByPath() {
        let cases: [(String, RawNode, String, String)] = [
            ("padding 1e308", RawNode(kind: "vstack", props: ["padding": .structure([.double(1e308), .double(0), .double(0), .double(0)])]),
             "expanded.padding", "1e+308 is outside"),
            ("spacing 1e308", RawNode(kind: "hstack", props: ["spacing": .double(1e308)]), "expanded.spacing", "outside"),
            ("min_length 1e308", RawNode(kind: "spacer", props: ["min_length": .double(1e308)]), "expanded.min_length", "outside"),
            ("text height 1e300", RawNode(kind: "text", props: ["height": .double(1e300)]), "expanded.height", "outside"),
            ("timer_end Int64.min", RawNode(kind: "text", props: ["timer_end": .int(.min)]), "expanded.timer_end", "unix microseconds"),
            ("progress end far future", RawNode(kind: "progress", props: ["end": .int(.max)]), "expanded.end", "unix microseconds"),
            ("NaN in params", RawNode(kind: "view", props: ["params": .dictionary(["x": .double(.nan)])]), "expanded.params.x", "NaN"),
        ]
        for (name, raw, path, words) in cases {
            do {
                _ = try ViewValidator().validate(raw, slot: "expanded")
                Issue.record("\(name): accepted")
            } catch {
                #expect(error.path == path && error.message.contains(words), "\(name): \(error)")
            }
        }
        // The bounds themselves are fine.
        #expect((try? ViewValidator().validate(RawNode(kind: "text", props: ["height": .double(1_000_000)]), slot: "expanded")) != nil)
    }

    @Test func classValuesAreClampedNotRefused() {
        #expect(LayoutUtility.parse("w-[1e308]") == .width(NumberDomain.classLength.upper))
        #expect(LayoutAttributes.utility("p-999999"[...]) == .padding(.all, NumberDomain.classLength.upper))
        let classes = ClassList(parsing: "duration-99999999999999999999999 delay-[99999s]", path: "x")
        #expect(classes.animation.duration == NumberDomain.classTiming.upper)
        #expect(classes.animation.delay == NumberDomain.classTiming.upper)
    }

    @Test func errorsQuoteAtMostTwoHundredCharactersOfInput() {
        let huge = String(repeating: "x", count: 1 << 20)
        #expect(InputQuote.text(huge).count < 230)
        #expect(InputQuote.text("short") == "short")
        do {
            _ = try ViewValidator().validate(RawNode(kind: huge), slot: "expanded")
        } catch {
            #expect(error.description.utf8.count < 600, "\(error.description.utf8.count) bytes")
        }
    }
}
