import NookBus
import NookCore

extension NookModule {
    /// Asks for a person's attention for one of this module's live activities: the nook peeks
    /// at it (`Control.Peek`) and `alert.sound` plays (`NookSound`); after `alert.peekDuration`
    /// the peek ends (`Control.EndPeek`), if the nook still peeks at this activity then.
    ///
    /// Call it after the update the alert is about (`update` returns once the broker has it),
    /// so the peek shows the new content. The activity needs a peek view.
    /// - Parameters:
    ///   - activityID: one of this module's live activities.
    ///   - alert: the sound and how long the peek lasts.
    ///   - playsSound: false leaves the sound out (a module's `--no-sound`).
    /// - Throws: `NookModuleError`: the broker refused the peek (`UnknownActivity`, or
    ///   `InvalidArgs` for an activity without a peek view), or it is not running.
    public func alert(activityID: String, _ alert: NookAlert = NookAlert(), playsSound: Bool = true) async throws {
        let module = id
        do {
            _ = try await send(NookContract.Control.peek, [.string(module), .string(activityID)])
        } catch .refused(let error) {
            throw error
        } catch .away {
            throw NookModuleError(.disconnected, "the broker is not running")
        }
        if playsSound, let sound = alert.sound { NookSound.play(sound, description: alert.soundDescription) }
        let duration = alert.peekDuration
        Task { [weak self] in
            try? await Task.sleep(for: duration)
            await self?.endPeek(ifStillOn: activityID)
        }
    }

    /// Ends the peek when the nook still peeks at `activityID` of this module.
    func endPeek(ifStillOn activityID: String) async {
        guard let reply = try? await send(NookContract.Control.getState, []),
              let state = reply.first, let record = try? WireCodec.dictionary(state, at: "state"),
              record["presentation"] == .string("peek"), record["module"] == .string(id), record["activity"] == .string(activityID)
        else { return }
        _ = try? await send(NookContract.Control.endPeek, [])
    }
}
