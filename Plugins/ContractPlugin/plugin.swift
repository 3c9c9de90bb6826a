import PackagePlugin

/// Generates NookCore's contract code from data/contract.json before NookCore compiles
/// (Plugins/ContractGenerator says what it writes).
@main
struct ContractPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let schema = context.package.directoryURL.appending(path: "data/contract.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "Contract.generated.swift")
        return [
            .buildCommand(
                displayName: "Generating the contract's code from data/contract.json",
                executable: try context.tool(named: "nook-contract-gen").url,
                arguments: [schema.path(percentEncoded: false), output.path(percentEncoded: false)],
                inputFiles: [schema],
                outputFiles: [output])
        ]
    }
}
