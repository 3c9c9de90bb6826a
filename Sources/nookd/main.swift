import Foundation
import NookBroker

// nookd is not built yet: say so plainly and fail, rather than pretend to serve the contract.
FileHandle.standardError.write(Data("nookd: the broker is not implemented yet (it would own \(NookContract.busName))\n".utf8))
exit(69)  // EX_UNAVAILABLE
