import Foundation
import NookCore
import NookModuleAPI
import Testing

/// The sound player is optional: found on PATH when installed, nil (nothing played, nothing
/// thrown) when not.
@Test func theSoundPlayerIsFoundOnPathAndItsAbsenceIsNoError() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("nook-sound-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    #expect(NookSound.playerPath(environment: ["PATH": directory.path]) == nil)
    let player = directory.appendingPathComponent(NookSound.player)
    try "#!/bin/sh\nexit 0\n".write(to: player, atomically: true, encoding: .utf8)
    #expect(NookSound.playerPath(environment: ["PATH": "/nonexistent:" + directory.path]) == nil, "not executable yet")
    chmod(player.path, 0o755)
    #expect(NookSound.playerPath(environment: ["PATH": "/nonexistent:" + directory.path]) == player.path)
}

/// A peek shorter than half a second or longer than an hour is brought into that range.
@Test func anAlertsPeekStaysWithinHalfASecondAndAnHour() {
    #expect(NookAlert(peekDuration: .zero).peekDuration == .milliseconds(500))
    #expect(NookAlert(peekDuration: .seconds(86_400)).peekDuration == .seconds(3600))
    #expect(NookAlert().peekDuration == NookAlert.standardPeekDuration && NookAlert().sound == "complete")
}
