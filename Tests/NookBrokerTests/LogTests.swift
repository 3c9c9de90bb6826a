import Foundation
import Testing
@testable import NookBroker
import NookBus

/// nookd's log lines: journald priorities when stderr is the journal's stream, plain lines
/// with the pid otherwise.
struct LogTests {
    @Test func theJournalGetsPrioritiesAndEveryLineOfAMessageKeepsIt() {
        let log = Log(minimum: .debug, journal: true)
        #expect(log.line(.error, "cannot write") == "<3>cannot write\n")
        #expect(log.line(.warning, "a\nb") == "<4>a\n<4>b\n")
        #expect(log.line(.info, "serving") == "<6>serving\n")
        #expect(log.line(.debug, "scene") == "<7>scene\n")
    }

    @Test func elsewhereLinesNameTheProcessAndTheLevel() {
        let log = Log(minimum: .info, journal: false)
        #expect(log.line(.warning, "slow disk") == "nookd[\(getpid())] warning: slow disk\n")
    }

    /// `JOURNAL_STREAM` counts only when it names this process's own stderr (a child whose
    /// stderr was redirected inherits the variable).
    @Test func journalStreamMustNameOurOwnStderr() {
        var status = stat()
        #expect(fstat(2, &status) == 0)
        let ours = "\(status.st_dev):\(status.st_ino)"
        #expect(JournalStream.isStderr(environment: ours))
        #expect(!JournalStream.isStderr(environment: "\(status.st_dev):\(status.st_ino &+ 1)"))
        #expect(!JournalStream.isStderr(environment: "garbage"))
        #expect(!JournalStream.isStderr(environment: nil))
    }
}
