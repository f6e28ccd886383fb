import Bind
import Testing

@Suite("Ownership")
struct OwnershipTests {
    @Test("a source keeps the Outputs derived from it alive: a chain needs no one to hold its middle")
    func sourceKeepsChainAlive() {
        let first = Output<Int>()
        let second = Output<Int>()
        let recorder = Recorder<Int>()
        Output.combine(first, second).map { $0 + $1 }.filter { $0 > 0 }.bind(recorder.closure)

        first.update(withValue: 1)
        second.update(withValue: 2)

        #expect(recorder.values == [3])
    }

    @Test("releasing the source releases every Output derived from it")
    func releasingSourceReleasesChain() {
        // Given a source and chains of every operator, held only weakly here
        var source: Output<Int>? = Output(value: 1)
        let other = Output<Int>(value: 2)
        let inner = Output<Int>(value: 3)
        weak let weakSource = source
        weak var mapped: Output<String>?
        weak var filtered: Output<String>?
        weak var reduced: Output<Int>?
        weak var distinct: Output<Int>?
        weak var flatMapped: Output<Int>?
        weak var merged: Output<Int>?
        weak var combined: Output<(Int, Int)>?
        weak var combinedAll: Output<[Int]>?
        do {
            let derived = source!.map { "\($0)" }
            mapped = derived
            filtered = derived.filter { !$0.isEmpty }
            filtered?.bind { _ in }
            reduced = source!.reduce(initial: 0, nextPartialResult: +)
            distinct = source!.ignoringDuplicates()
            flatMapped = source!.flatMap { _ in inner }
            merged = Output.merge(source!, source!)
            combined = Output.combine(source!, source!)
            combinedAll = Output.combine(outputs: [source!])
        }
        #expect(mapped != nil && filtered != nil && reduced != nil && distinct != nil)
        #expect(flatMapped != nil && merged != nil && combined != nil && combinedAll != nil)
        // When the source is released
        source = nil
        // Then the whole chain is gone, though `other` and the inner Output live on
        #expect(weakSource == nil)
        #expect(mapped == nil && filtered == nil && reduced == nil && distinct == nil)
        #expect(flatMapped == nil && merged == nil && combined == nil && combinedAll == nil)
        other.update(withValue: 4)
        inner.update(withValue: 5)
    }

    @Test("a flatMap result is released with its source even while the inner Output lives on")
    func flatMapReleasedWithSourceDespiteLiveInner() {
        let inner = Output<Int>(value: 1)
        var source: Output<Int>? = Output(value: 0)
        weak var result: Output<Int>?
        do { result = source!.flatMap { _ in inner } }
        #expect(result?.value == 1)

        source = nil

        #expect(result == nil)
        inner.update(withValue: 2)
    }

    @Test("a combine is released once both of its sources are")
    func combineReleasedWithSources() {
        var first: Output<Int>? = Output()
        var second: Output<Int>? = Output()
        weak var combined: Output<(Int, Int)>?
        do { combined = Output.combine(first!, second!) }

        first = nil
        #expect(combined != nil)
        second = nil

        #expect(combined == nil)
    }
}
