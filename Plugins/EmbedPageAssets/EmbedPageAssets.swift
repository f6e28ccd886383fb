import Foundation
import PackagePlugin

/// Embeds the report pages' `.css` and `.js` files into `BindReport` as string constants (`HTMLAssets`).
///
/// Embedded rather than shipped as SwiftPM resources: a resource bundle sits beside the binary, and
/// `bind-trace` must still write reports when the binary alone is copied or installed elsewhere
/// (docs/architecture.md, "The report page's files").
@main
struct EmbedPageAssets: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let files = (module.sourceFiles(withSuffix: "css").map(\.url) + module.sourceFiles(withSuffix: "js").map(\.url))
            .sorted { $0.path < $1.path }
        // `report.css` and `report.js` are `style` and `script`; any other page's `NAME.css`/`NAME.js` (the
        // live page's) are `NAMEStyle` and `NAMEScript`.
        let names: [String] = files.map { file in
            let base = file.deletingPathExtension().lastPathComponent
            let isStyle = file.pathExtension == "css"
            if base == "report" { return isStyle ? "style" : "script" }
            return base + (isStyle ? "Style" : "Script")
        }
        guard names.contains("style"), names.contains("script"), Set(names).count == names.count else {
            throw PluginError(
                description: "\(target.name) needs report.css, report.js and at most one file per other name")
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "HTMLAssets.swift")
        return [
            .buildCommand(
                displayName: "Embedding the report page's style sheet and script",
                executable: try context.tool(named: "EmbedPageAssetsTool").url,
                arguments: [output.path, "HTMLAssets"] + zip(names, files).map { "\($0)=\($1.path)" },
                inputFiles: files,
                outputFiles: [output])
        ]
    }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
}
