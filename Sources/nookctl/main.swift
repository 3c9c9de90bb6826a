// nookctl: a thin shell over NookCtlKit (verbs, formatting and recording live there).
import FoundationEssentials
import Glibc
import NookFiles
import NookCtlKit
import NookVersion

let arguments = Array(CommandLine.arguments.dropFirst())

// Besides the verbs: the version, and the files `make install` generates from the verb table
// (hidden: they are for packaging, not for daily use).
switch arguments.first {
case "--version" where arguments.count == 1:
    print(NookVersion.line(program: "nookctl"))
    exit(0)
case "completions":
    guard arguments.count == 2, let script = Completions.script(for: arguments[1]) else {
        StandardStream.error.write("nookctl: usage: nookctl completions \(Completions.shells.joined(separator: "|"))\n")
        exit(2)
    }
    print(script, terminator: "")
    exit(0)
case "manpage" where arguments.count == 1:
    print(ManPage.nookctl(version: NookVersion.number), terminator: "")
    exit(0)
default:
    break
}

let status = await NookCtl.run(arguments: arguments, stopOnSignals: true, finishesInBackground: true)
exit(status.code)
