import Testing

@testable import BindTesting

/// What a check does in a build without the `Tracing` trait, by policy and environment: by default it
/// fails in CI (where a green run is never read) and warns elsewhere, and its message says how to opt out.
@Suite("the untraced-build policy")
struct UntracedBuildPolicyTests {
    private func decision(_ policy: UntracedBuildPolicy, _ environment: [String: String]) -> UntracedDecision {
        policy.decision { environment[$0] }
    }

    @Test("every front end defaults to .automatic")
    func defaults() {
        #expect(BindingLeakCheckTrait().untraced == .automatic)
        #expect(BindingLeakCheckTrait.bindingLeakCheck.untraced == .automatic)
        #expect(BindingLeakCheckTrait.bindingLeakCheck(accepting: []).untraced == .automatic)
    }

    @Test("automatic fails where CI is set, saying why and how to opt out, and warns elsewhere")
    func automatic() {
        #expect(decision(.automatic, [:]) == .warnOutsideCI)
        #expect(decision(.automatic, ["CI": "false"]) == .warnOutsideCI)
        #expect(decision(.automatic, ["CI": "0"]) == .warnOutsideCI)
        for ci in ["true", "1", "woodpecker"] {
            let failing = decision(.automatic, ["CI": ci])
            #expect(failing.fails, "CI=\(ci)")
            #expect(failing.message.contains("checked nothing"))
            #expect(failing.message.contains("the environment variable CI is set"))
            #expect(failing.message.contains("untraced: .warn"), "how to opt out in code")
            #expect(failing.message.contains("BIND_LEAK_CHECK_REQUIRE_TRACING=0"), "how to opt out for a job")
        }
        #expect(decision(.automatic, [:]).message.contains("It fails instead in CI"))
    }

    @Test("BIND_LEAK_CHECK_REQUIRE_TRACING=1 fails every policy; =0 lets automatic warn in CI, never overrides .fail")
    func environment() {
        for policy in [UntracedBuildPolicy.automatic, .warn, .fail] {
            #expect(decision(policy, ["BIND_LEAK_CHECK_REQUIRE_TRACING": "1"]).fails, "\(policy)")
        }
        #expect(decision(.automatic, ["CI": "true", "BIND_LEAK_CHECK_REQUIRE_TRACING": "0"]) == .warn)
        #expect(decision(.fail, ["BIND_LEAK_CHECK_REQUIRE_TRACING": "0"]).fails)
    }

    @Test("an explicit policy stands: .warn in CI warns, .fail anywhere fails")
    func explicit() {
        #expect(decision(.warn, ["CI": "true"]) == .warn)
        #expect(!decision(.warn, [:]).message.contains("fails"), "an explicit .warn never fails, nor says it would")
        #expect(decision(.fail, [:]).fails)
        #expect(decision(.fail, [:]).message.contains("untraced: .fail"))
    }
}
