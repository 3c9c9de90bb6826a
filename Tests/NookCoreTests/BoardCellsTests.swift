import NookTestSupport
import Testing
@testable import NookCore

private typealias F = PlannerFixture

/// A board tile's whole cell is its hit area (issue 39): a plan to the board carries each
/// tile's cell as `board_cells` (an addition), through both encoders (`wireDictionary`,
/// `wireTape`), and reads back as it was sent. On screen: `ReachOnScreenTests`.
@Suite struct BoardCellsTests {
    /// The board with two small widgets (a word each), opened from the pill.
    static func boardPlan() -> (plan: TransitionPlan, before: PlannerScene) {
        let pill = F.songContent()
        var board = pill
        board.expanded = .board([F.owned("music", F.text("Music")), F.owned("timer", F.text("Timers"))])
        let before = F.scene(.pill, pill)
        return (F.plan(before, F.scene(.expanded, board), cause: .open), before)
    }

    @Test func aPlanToTheBoardCarriesEachTilesCellLargerThanItsWidget() throws {
        let (plan, _) = Self.boardPlan()
        #expect(plan.boardCells.map(\.owner) == ["music", "timer"])
        let tokens = GeometryTokens()
        for cell in plan.boardCells {
            let widget = try #require(plan.scene.layout.node(at: SlotName.widget.rootPath(owner: cell.owner))?.node.rect)
            #expect(cell.rect.height == tokens.boardWidgetHeight, "\(cell)")
            #expect(cell.rect.width > widget.width && cell.rect.height > widget.height, "cell \(cell.rect) is no larger than its widget \(widget)")
            #expect(cell.rect.minX <= widget.minX && cell.rect.maxX >= widget.maxX && cell.rect.minY <= widget.minY && cell.rect.maxY >= widget.maxY,
                    "the widget \(widget) is not inside its cell \(cell.rect)")
        }
        #expect(plan.boardCells[0].rect.maxX < plan.boardCells[1].rect.minX, "the two cells overlap: \(plan.boardCells)")
    }

    @Test func boardCellsRoundTripThroughBothEncoders() throws {
        let (plan, before) = Self.boardPlan()
        let wire = plan.wireDictionary()
        let expected: PropValue = .array(plan.boardCells.map { cell in
            .dictionary(["owner": .string(cell.owner), "rect": .structure([.double(cell.rect.x), .double(cell.rect.y), .double(cell.rect.width), .double(cell.rect.height)])])
        })
        #expect(wire["board_cells"] == expected)
        for (form, dictionary, tape) in [
            ("whole", wire, plan.wireTape()),
            ("compact delta", plan.wireDictionary(base: (1, before), compact: true), plan.wireTape(base: (1, before), compact: true)),
        ] {
            #expect(tape == WireTape(dictionary: dictionary), "\(form): the tape is not the dictionary's")
            #expect(dictionary["board_cells"] == expected, "\(form)")
            var warnings: [String] = []
            let held: (serial: UInt64, scene: WireScene)? = form == "whole" ? nil : (1, before.wireScene)
            let read = try ReceivedPlan(wire: .dictionary(dictionary), held: held, warnings: &warnings)
            #expect(read.boardCells == plan.boardCells, "\(form)")
            #expect(read == plan.withScene(plan.scene.wireScene), "\(form)")
        }
    }

    @Test func onlyPlansToTheBoardCarryBoardCells() throws {
        let open = F.openSong()
        #expect(open.boardCells.isEmpty)
        #expect(open.wireDictionary()["board_cells"] == nil)
        #expect(!open.wireTape().tokens.contains { if case .array(let key, _) = $0 { key == "board_cells" } else { false } })
        var warnings: [String] = []
        #expect(try ReceivedPlan(wire: .dictionary(open.wireDictionary()), warnings: &warnings).boardCells.isEmpty)
    }

    @Test func aMalformedBoardCellIsRefusedNamingItsKey() throws {
        var wire = Self.boardPlan().plan.wireDictionary()
        func refusal(_ cell: [String: PropValue]) -> String? {
            wire["board_cells"] = .array([.dictionary(cell)])
            var warnings: [String] = []
            do {
                _ = try ReceivedPlan(wire: .dictionary(wire), warnings: &warnings)
                return nil
            } catch {
                return error.key
            }
        }
        func rect(_ x: Double, _ width: Double) -> PropValue { .structure([.double(x), .double(0), .double(width), .double(10)]) }
        #expect(refusal(["owner": .string("music"), "rect": rect(0, -5)]) == "board_cells.0.rect")
        #expect(refusal(["owner": .string("music"), "rect": rect(.nan, 5)]) == "board_cells.0.rect")
        #expect(refusal(["owner": .string("music"), "rect": rect(.infinity, 5)]) == "board_cells.0.rect")
        #expect(refusal(["rect": rect(0, 5)]) == "board_cells.0.owner")
        #expect(refusal(["owner": .string("music"), "rect": rect(0, 5)]) == nil)
    }
}
