import Bind
import Testing

/// Derived chains far deeper than anyone writes by hand: each stage updates and is released from
/// inside the stage before it, so without the cascade's depth limit these would overflow the stack.
@Suite("Deep chains")
struct DeepChainTests {
    static let depth = 100_000

    /// `depth` maps over `source`, each adding one; only the last is returned.
    static func chain(from source: Output<Int>, depth: Int = depth) -> Output<Int> {
        var last = source
        for _ in 0..<depth { last = last.map { $0 + 1 } }
        return last
    }

    @Test("a map chain 100,000 deep delivers every update to its end")
    func deepChainUpdates() {
        // Given a source and a chain 100,000 maps deep, bound at its end
        let source = Output<Int>()
        let (recorder, _) = Self.chain(from: source).recorded()
        // When the source updates twice
        source.update(withValue: 0)
        source.update(withValue: 10)
        // Then both values arrive through every stage, and in order
        #expect(recorder.values == [Self.depth, Self.depth + 10])
    }

    @Test("a chain 100,000 deep binds late and replays the stored value at its end")
    func deepChainReplays() {
        let source = Output<Int>(value: 1)
        let end = Self.chain(from: source)

        let (recorder, _) = end.recorded()

        #expect(end.value == Self.depth + 1)
        #expect(recorder.values == [Self.depth + 1])
    }

    @Test("releasing the source of a chain 100,000 deep releases every stage")
    func deepChainReleases() {
        // Given a chain whose end is held only weakly here
        var source: Output<Int>? = Output(value: 0)
        weak var end: Output<Int>?
        do { end = Self.chain(from: source!) }
        #expect(end?.value == Self.depth)
        // When the source is released
        source = nil
        // Then the whole chain is gone
        #expect(end == nil)
    }

    @Test("a chain 100,000 deep updates and releases while a trace is recorded")
    func deepChainWhileRecording() {
        weak var end: Output<Int>?
        var delivered: [Int] = []
        _ = BindTrace.capture("deep chain") {
            let source = Output<Int>()
            let last = Self.chain(from: source)
            end = last
            last.bind { delivered.append($0) }
            source.update(withValue: 1)
        }
        #expect(delivered == [Self.depth + 1])
        #expect(end == nil)
    }

    @Test("a fan-out within ordinary depth delivers depth first, as written")
    func shallowFanOutKeepsOrder() {
        // Given a source with two maps, each with a map bound after it
        let source = Output<Int>()
        let order = Recorder<String>()
        let left = source.map { $0 }
        let right = source.map { $0 }
        left.map { $0 }.bind { _ in order.record("left end") }
        left.bind { _ in order.record("left") }
        right.bind { _ in order.record("right") }
        // When the source updates
        source.update(withValue: 1)
        // Then each branch is delivered whole before the next begins
        #expect(order.values == ["left end", "left", "right"])
    }
}
