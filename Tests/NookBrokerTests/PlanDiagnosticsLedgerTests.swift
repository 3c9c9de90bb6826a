@testable import NookBroker
import NookCore
import Testing

/// The ledger behind contract 1.1's routing of plan-time diagnostics to modules, with no bus.
@Suite struct PlanDiagnosticsLedgerTests {
    static func element(_ code: DiagnosticCode, _ id: String, activity: String = "song", module: String = "music", path: String = "expanded/0") -> Diagnostic {
        Diagnostic(code, .info, "\(code) \(id)", path: path, module: module, activity: activity, id: id)
    }

    @Test func eachDistinctCodeElementAndActivityOncePerChangeOfContent() {
        var ledger = PlanDiagnosticsLedger()
        let all = [
            Self.element(.duplicateSource, "cover"), Self.element(.duplicateSource, "cover", path: "expanded/1"),
            Self.element(.noCounterpart, "cover"), Self.element(.noCounterpart, "cover", activity: "radio"),
            Self.element(.sharedInDelayedRow, "title"), Self.element(.capsuleNotShared, "cover", module: "clock"),
            Self.element(.followerCode, "cover"), Diagnostic(.missingGroup, .warning, "a", path: "expanded/2.classes", module: "music"),
            Diagnostic(.missingGroup, .warning, "b", path: "expanded/3.classes", module: "music"),
        ]
        let first = ledger.news(in: all) { _ in true }
        #expect(first.map(\.module) == ["clock", "music"])
        #expect(first[1].diagnostics.map(\.code) == [.duplicateSource, .noCounterpart, .noCounterpart, .sharedInDelayedRow, .missingGroup, .missingGroup],
                "one per (code, element, activity); not follower (not routed); missing-group without an element told apart by path")
        #expect(ledger.news(in: all) { _ in true }.isEmpty, "nothing twice")
        ledger.contentChanged("music")
        #expect(ledger.news(in: all) { _ in true }.map(\.module) == ["music"], "music's content changed; clock's did not")
    }

    @Test func onlyModulesThatCanHearRecordAndWhatTheRegistrySentCountsAsTold() {
        var ledger = PlanDiagnosticsLedger()
        let missing = Self.element(.missingGroup, "cover")
        #expect(ledger.news(in: [missing]) { _ in false }.isEmpty)
        #expect(ledger.news(in: [missing]) { _ in true }.count == 1, "not recorded while nobody could hear it")
        // The registry lists a call's diagnostics before its scene change: both are the new content's.
        ledger.follow([.diagnostics(connection: ":1.5", module: "music", [missing]),
                       .sceneChanged(SceneChange(cause: .activityUpdated, module: "music", activity: "song"))])
        #expect(ledger.news(in: [missing]) { _ in true }.isEmpty, "the registry already told the module when it published")
    }
}

extension DiagnosticCode {
    static let followerCode: DiagnosticCode = "follower"
}
