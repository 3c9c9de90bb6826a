import Foundation
import Testing
@testable import NookCore

/// `line_limit`, the view key added through data/contract.json alone (plus what gives it
/// meaning: layout's line count and the renderer's ellipsis): refused out of its range naming
/// its path, read into `NodeProps`, written back to the wire, capping layout's lines, and in
/// the documented table. `LineLimitOnScreenTests` sees it over D-Bus and on screen.
@Suite struct LineLimitTests {
    static func text(_ limit: PropValue?) -> RawNode {
        var props: [String: PropValue] = ["text": .string("one two three four five six seven eight nine ten")]
        if let limit { props["line_limit"] = limit }
        return RawNode(kind: "text", props: props)
    }

    @Test func aLineLimitOutOfItsRangeIsRefusedNamingItsPath() {
        for bad: PropValue in [.int(0), .int(101), .int(-3), .uint(.max), .double(2.5)] {
            do {
                _ = try ViewValidator().validate(Self.text(bad), slot: "expanded")
                Issue.record("line_limit \(bad) was accepted")
            } catch {
                #expect(error.path == "expanded.line_limit", "\(bad): \(error)")
                #expect(error.code == .invalidValue || error.code == .wrongType, "\(bad): \(error)")
            }
        }
        do {
            _ = try ViewValidator().validate(Self.text(.string("2")), slot: "expanded")
            Issue.record("a string line_limit was accepted")
        } catch {
            #expect(error.code == .wrongType && error.message.contains("expected type i"), "\(error)")
        }
    }

    @Test func aLineLimitInItsRangeIsReadAndWrittenBack() throws {
        for (given, read) in [(PropValue.int(1), 1), (.int(100), 100), (.uint(3), 3)] {
            let view = try ViewValidator().validate(Self.text(given), slot: "expanded")
            #expect(view.root.props.lineLimit == read)
            #expect(view.root.props.rawProps["line_limit"] == .int(Int64(read)))
            #expect(try ViewValidator().validate(view.root.rawNode, slot: "expanded").root == view.root)
        }
        // On another kind it is unknown: ignored with an info diagnostic, as any unknown key.
        let image = try ViewValidator().validate(RawNode(kind: "image", props: ["line_limit": .int(2)]), slot: "expanded")
        #expect(image.diagnostics.map(\.code) == [.unknownKey])
    }

    @Test func aLineLimitCapsTheLinesLayoutGivesAText() throws {
        func height(_ limit: Int?) throws -> Double {
            var props = NodeProps()
            props.text = "one two three four five six seven eight nine ten"
            props.fontSize = 10
            props.lineLimit = limit
            let result = LayoutEngine.layout(ViewNode(kind: .text, props: props), rootPath: "t", proposal: ProposedSize(width: 60, height: nil))
            return try #require(result.rect(at: "t")).height
        }
        let lineHeight = 10 * TextMetrics.lineHeightFactor
        let unlimited = try height(nil)
        #expect(unlimited >= 4 * lineHeight - Geometry.epsilon, "the sample wraps to at least four lines at 60 pt")
        #expect(abs(try height(2) - 2 * lineHeight) < Geometry.epsilon)
        #expect(abs(try height(1) - lineHeight) < Geometry.epsilon)
        #expect(abs(try height(100) - unlimited) < Geometry.epsilon)
    }

    @Test func aLineLimitIsInTheDocumentedTable() throws {
        let row = try #require(ContractKeys.viewProp("line_limit", on: .text))
        #expect(row.type == .integer)
        #expect(row.meaning.hasSuffix("1...100"))
        let docs = try String(contentsOf: ContractKeysTests.repository.appendingPathComponent("docs/contract.md"), encoding: .utf8)
        #expect(docs.contains("| `line_limit` | `text` | `i` |"))
    }
}
