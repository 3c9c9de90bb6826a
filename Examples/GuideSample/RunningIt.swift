// The guide's "Running it" function, verbatim (docs/module-guide.md).

import NookModuleAPI

func brew(_ pot: Brew, address: NookModuleAddress = .session) async throws {
    var tea = TeaModule(brews: [pot])
    let module = try await NookModule.connect(tea.configuration(), address: address)
    try await module.start(tea.activity(for: pot))

    // The renderer counts down; the module only wakes when the pot is done.
    try await Task.sleep(for: pot.ends - NookInstant.now())
    try await module.end(activityID: pot.id, dismissal: .default)
    tea.brews.removeAll { $0.id == pot.id }
    try await module.publish(tea.configuration())
    await module.close()
}
