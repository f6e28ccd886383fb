/// The version of `bind-trace` and of the reports it writes, defined once: `bind-trace --version`,
/// the HTML report's header and SARIF's `tool.driver.version` all show it.
package enum ToolVersion {
    /// Semantic version of the package (the tag a user depends on, README's `from: "1.0.0"`).
    package static let current = "1.0.0"
}
