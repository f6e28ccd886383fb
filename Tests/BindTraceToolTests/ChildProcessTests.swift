import BindTraceTestSupport
import Foundation
import Testing

@Suite("the tests' process runner")
struct ChildProcessTests {
    @Test("a child that fills standard error before it writes standard output is read whole, without blocking")
    func bothPipesAreDrained() throws {
        // 256 KiB to standard error first: more than a pipe holds, so reading only standard output
        // first would wait forever on a child blocked writing the other pipe.
        let script = "head -c 262144 /dev/zero | tr '\\0' e >&2; printf done"
        let run = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), ["-c", script])
        #expect(run.status == 0)
        #expect(run.standardOutput == "done")
        #expect(run.standardError.utf8.count == 262_144)
    }
}
