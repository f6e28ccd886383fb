import Foundation
import PackagePlugin

/// Embeds the report page's `.css` and `.js` files into `BindReport` as string constants (`HTMLAssets`).
///
/// Embedded rather than shipped as SwiftPM resources: a resource bundle sits beside the binary, and
/// `bind-trace` must still write reports when the binary alone is copied or installed elsewhere
/// (docs/architecture.md, "The report page's files").
@main
struct EmbedPageAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let style = module.sourceFiles(withSuffix: "css").map(\.url).sorted { $0.path < $1.path }
        let script = module.sourceFiles(withSuffix: "js").map(\.url).sorted { $0.path < $1.path }
        guard style.count == 1, script.count == 1 else {
            throw PluginError(
                description:
                    "\(target.name) needs exactly one .css and one .js file (has \(style.count) and \(script.count))")
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "HTMLAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding the report page's style sheet and script",
                executable: try context.tool(named: "EmbedPageAssetsTool").url,
                arguments: [output.path, "HTMLAssets", "style=\(style[0].path)", "script=\(script[0].path)"],
                inputFiles: style + script,
                outputFiles: [output])
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
}
