import Foundation
import NookModuleAPI

// The MusicModule example needs the module SDK, which is not built yet: say so plainly and fail.
FileHandle.standardError.write(Data("MusicModule: not implemented yet; it needs NookModuleAPI\n".utf8))
exit(69)  // EX_UNAVAILABLE
