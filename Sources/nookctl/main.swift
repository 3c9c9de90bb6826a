// nookctl: a thin shell over NookCtlKit (verbs, formatting and recording live there).
import Foundation
import NookCtlKit

let status = await NookCtl.run(arguments: Array(CommandLine.arguments.dropFirst()), stopOnSignals: true)
exit(status.code)
