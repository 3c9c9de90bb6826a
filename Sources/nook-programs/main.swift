import Glibc
import NookMPRISEntry
import NookNotificationsEntry
import NookSystemEntry
import NookdEntry

// nook-programs: nookd, nook-mpris, nook-notifications and nook-system in one binary, run by
// the name it was started under (the installed /usr/bin/nookd is a link to it). The four
// share most of their code (NookCore, NookBus, the SDK): once in memory for all of them
// rather than once each (docs/PERFORMANCE.md, "Footprint").

let programs: [String: () async -> Never] = [
    "nookd": NookdEntry.Program.main,
    "nook-mpris": NookMPRISEntry.Program.main,
    "nook-notifications": NookNotificationsEntry.Program.main,
    "nook-system": NookSystemEntry.Program.main,
]

let invoked = CommandLine.arguments.first.map { String($0.split(separator: "/").last ?? "") } ?? ""
if let program = programs[invoked] { await program() }
let message = "nook-programs: run it as one of \(programs.keys.sorted().joined(separator: ", ")) (a link of that name)\n"
_ = message.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
exit(2)
