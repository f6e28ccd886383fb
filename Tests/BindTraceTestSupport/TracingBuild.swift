import Testing

/// Whether this test build has the `Tracing` trait (records traces) or is the plain build.
package let tracingBuild: Bool = {
    #if Tracing
    true
    #else
    false
    #endif
}()

extension Trait where Self == ConditionTrait {
    /// Runs a test or suite only in the build with the `Tracing` trait; a plain `swift test` reports it
    /// skipped, with the command that runs it, instead of leaving it out without a word.
    ///
    /// The suite must exist in both builds for that: code that compiles only with the trait stays
    /// inside `#if Tracing`, within the suite.
    package static var requiresTracing: Self {
        .enabled(if: tracingBuild, "built without the Tracing trait: run swift test --traits Tracing")
    }
}
