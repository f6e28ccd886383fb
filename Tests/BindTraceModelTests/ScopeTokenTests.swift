import Bind
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Foundation
import Testing

@Suite("Carrying a trace scope to other threads")
struct ScopeTokenTests {
    /// The scope each Output labelled `label` was created in.
    private func creationScope(of label: String, in recording: BindTrace.Recording) throws -> UInt64? {
        var scopes: [UInt64: UInt64] = [:]
        for event in try recording.events() {
            switch event.kind {
            case .outputCreated(let creation):
                if creation.label == label { return creation.scope }
                scopes[creation.output] = creation.scope
            case .labeled(let output, label): return scopes[output]
            default: break
            }
        }
        return nil
    }

    /// Runs `work` on a new thread and waits for it.
    private func onAnotherThread(_ work: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            work()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    @Test("work wrapped with inheritingScope runs in the scope it was wrapped in, on any thread")
    func inheritingScope() throws {
        let recording = BindTrace.capture("screen") {
            onAnotherThread(BindTrace.inheritingScope { _ = Output<Int>(value: 0).labeled("carried") })
            onAnotherThread { _ = Output<Int>(value: 0).labeled("not carried") }
        }
        guard BindTrace.isEnabled else {
            #expect(recording == nil)
            return
        }
        let captured = try #require(recording)
        #expect(try creationScope(of: "carried", in: captured) == captured.scope)
        #expect(try creationScope(of: "not carried", in: captured) == 0)
    }

    @Test("a token taken in a scope and used later, elsewhere, puts the work back in that scope")
    func tokenAndWithScope() throws {
        let outside = BindTrace.currentScopeToken
        let token = Locked<BindTrace.ScopeToken?>(nil)
        let seen = Locked<(inWithScope: BindTrace.ScopeToken?, plain: BindTrace.ScopeToken?)>((nil, nil))
        let recording = BindTrace.capture("screen") {
            token.value = BindTrace.currentScopeToken
            let saved = token.value!
            onAnotherThread {
                BindTrace.withScope(saved) {
                    seen.value.inWithScope = BindTrace.currentScopeToken
                    _ = Output<Int>(value: 0).labeled("token")
                }
                seen.value.plain = BindTrace.currentScopeToken
            }
        }
        // Whatever the build: withScope runs its body in the token's scope, and only its body.
        #expect(seen.value.inWithScope == token.value, "inside withScope the current token is the one given")
        #expect(seen.value.plain == outside, "after withScope the other thread is outside any scope again")
        #expect(BindTrace.currentScopeToken == outside, "the capture's scope ended with it")
        guard BindTrace.isEnabled else {
            #expect(token.value == outside, "without the trait there is no scope to carry")
            return
        }
        let captured = try #require(recording)
        #expect(try creationScope(of: "token", in: captured) == captured.scope)
        #expect(token.value != outside, "inside the capture the current token differs from outside it")
        let other = BindTrace.capture("another screen") { #expect(BindTrace.currentScopeToken != token.value) }
        #expect(other != nil)
    }

    @Test("withScope returns the body's value and rethrows its error")
    func passesThrough() {
        #expect(BindTrace.withScope(BindTrace.currentScopeToken) { 42 } == 42)
        struct Failure: Error {}
        #expect(throws: Failure.self) { try BindTrace.withScope(BindTrace.currentScopeToken) { throw Failure() } }
    }
}

/// A value shared with another thread.
private final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
