import NookBus
import NookCore

/// Restoring what the state file keeps beside the registry, each part through the path live
/// input takes: theme overrides through `SetTokens`' `setTokens`, shared-element curves through
/// `SetSharedElementAnimation`'s parser, the presentation through the `PresentationMachine`'s
/// own actions. What is refused is returned as `RejectedEntry`s; the rest applies.
extension Broker {
    /// `SetTokens` with the stored overrides, validated whole as the call is. When the whole
    /// is refused, each override is tried on its own (repeatedly, so one that aliases another
    /// override still finds it) and only those the theme still refuses are set aside.
    func restoreTokens(_ stored: [String: StoredValue]) -> [RejectedEntry] {
        var values: [String: PropValue] = [:]
        var rejected: [RejectedEntry] = []
        for (path, value) in stored {
            do { values[path] = try Registry.asFromTheBus([path: value.propValue])[path] } catch {
                rejected.append(RejectedEntry(kind: .token, key: path, reason: error.message, stored: .value(value)))
            }
        }
        if (try? setTokens(values)) != nil { return rejected }
        var pending = values.keys.sorted()
        var progress = true
        while progress {
            progress = false
            for path in pending where (try? setTokens([path: values[path]!])) != nil {
                pending.removeAll { $0 == path }
                progress = true
            }
        }
        for path in pending {
            do { try setTokens([path: values[path]!]) } catch {
                rejected.append(RejectedEntry(kind: .token, key: path, reason: error.message, stored: .value(stored[path]!)))
            }
        }
        return rejected
    }

    /// Reduce Motion and the shared-element curve overrides (`convert`, `peek`), the latter
    /// read by `curveOverride`, the parser `SetSharedElementAnimation` uses.
    func restoreSettings(_ stored: [String: StoredValue]) -> [RejectedEntry] {
        var rejected: [RejectedEntry] = []
        for key in stored.keys.sorted() {
            let value = stored[key]!
            func reject(_ reason: String) { rejected.append(RejectedEntry(kind: .setting, key: key, reason: reason, stored: .value(value))) }
            switch key {
            case "reduce_motion":
                guard case .bool(let on) = value else { reject("expected a bool"); continue }
                settings.reduceMotion = on
            case "convert", "peek":
                do {
                    let curve = try Broker.curveOverride(try Registry.asFromTheBus(["curve": value.propValue]).dictionary("curve"))
                    if key == "convert" { settings.sharedElementAnimation = curve } else { settings.sharedElementPeekAnimation = curve }
                } catch let error as DBusError {
                    reject(error.message)
                } catch let error as RegistryError {
                    reject(error.message)
                } catch {
                    reject("\(error)")
                }
            default:
                reject("not a setting this broker knows")
            }
        }
        return rejected
    }

    /// The stored presentation as the Control action that leads to it (`Open`, `Peek`,
    /// `OpenCompanion`, `Hide`), applied by the machine to the restored registry: an action
    /// the machine refuses (content gone, a peek without a peek view) leaves the pill.
    func restoreMachine(_ stored: StoredValue) -> [RejectedEntry] {
        machine = PresentationMachine()
        _ = machine.reconcile(with: registry, cause: .show)
        func reject(_ reason: String) -> [RejectedEntry] { [RejectedEntry(kind: .presentation, reason: reason, stored: .value(stored))] }
        guard case .dictionary(let record) = stored.propValue,
              case .string(let kind)? = record["state"] else { return reject("expected a dictionary with a string 'state'") }
        func text(_ key: String) -> String { if case .string(let value)? = record[key] { value } else { "" } }
        let ref = ActivityRef(module: text("module"), activity: text("activity"))
        let action: ControlAction?
        switch kind {
        case "hidden": action = record["hidden_by_user"] == .bool(true) ? .hide : nil
        case "pill": action = nil
        case "peek": action = .peek(ref)
        case "expanded-activity": action = .open(onto: .activity(ref), via: .claim)
        case "expanded-home": action = .open(onto: .home(module: ref.module), via: .claim)
        case "expanded-board": action = .open(onto: .board, via: .claim)
        case "companion": action = .openCompanion(module: ref.module)
        default: return reject("unknown presentation state \"\(kind)\"")
        }
        guard let action else { return [] }
        do { _ = try machine.apply(action, registry: registry) } catch {
            return reject("\(kind): \(error.message)")
        }
        return []
    }
}

extension Dictionary where Key == String, Value == PropValue {
    /// The dictionary under `key`, or an `InvalidArgs` naming it.
    func dictionary(_ key: String) throws(RegistryError) -> [String: PropValue] {
        guard case .dictionary(let record)? = self[key] else {
            throw RegistryError(.invalidArgs, "key '\(key)': expected a dictionary a{sv}")
        }
        return record
    }
}
