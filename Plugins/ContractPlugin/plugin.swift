import Foundation
import PackagePlugin

/// Generates the contract's code before NookCore and NookBus compile (Plugins/ContractGenerator
/// says what it writes): NookCore's from data/contract.json and data/org.nook.Nook1.xml,
/// NookBus's from the XML of both interfaces (nookd's and nook-notifications').
@main
struct ContractPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let schema = context.package.directoryURL.appending(path: "data/contract.json")
        let interfaces = context.package.directoryURL.appending(path: "data/org.nook.Nook1.xml")
        let notifications = context.package.directoryURL.appending(path: "data/org.nook.Notifications1.xml")
        let output = context.pluginWorkDirectoryURL.appending(path: "Contract.generated.swift")
        let path = { (url: URL) in url.path(percentEncoded: false) }
        let (inputs, arguments): ([URL], [String]) = target.name == "NookBus"
            ? ([interfaces, notifications], ["bus", path(output), path(interfaces), path(notifications)])
            : ([schema, interfaces], ["core", path(schema), path(interfaces), path(output)])
        return [
            .buildCommand(
                displayName: "Generating \(target.name)'s contract code from data/",
                executable: try context.tool(named: "nook-contract-gen").url,
                arguments: arguments,
                inputFiles: inputs,
                outputFiles: [output])
        ]
    }
}
