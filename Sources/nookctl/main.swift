import Foundation

// nookctl needs the broker, which is not built yet: say so plainly and fail.
FileHandle.standardError.write(Data("nookctl: no verbs yet; nookd is not implemented\n".utf8))
exit(69)  // EX_UNAVAILABLE
