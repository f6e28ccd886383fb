import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a test that could only exceed it by hanging.
    ///
    /// Swift Testing starts a test's clock when the test is scheduled, not when a thread takes it
    /// up. On a 2-core CI machine the concurrency pool has two threads, and a test can wait minutes
    /// behind the ones that build packages or run programs: every 1-minute limit once failed that way
    /// in a single run. A hang still fails here, well inside CI's budget.
    package static var hangGuard: Self { .timeLimit(.minutes(15)) }
}
