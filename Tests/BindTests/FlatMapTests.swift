import Bind
import Testing

/// A source selecting one of two inner Outputs, and the flatMap following the selection.
private struct Selection {
    let selected = Output<Int>()
    let inners = [Output<String>(value: "a0"), Output<String>(value: "b0")]
    let followed: Output<String>

    init() {
        let inners = inners
        followed = selected.flatMap { inners[$0] }
    }
}

@Suite("flatMap")
struct FlatMapTests {
    @Test("flatMap delivers the inner Output's stored value and its updates")
    func followsInner() {
        let selection = Selection()
        let (recorder, _) = selection.followed.recorded()

        selection.selected.update(withValue: 0)
        selection.inners[0].update(withValue: "a1")

        #expect(recorder.values == ["a0", "a1"])
    }

    @Test("flatMap switches: the previous inner Output no longer reaches the result")
    func switchesInner() {
        // Given a flatMap following the first inner Output
        let selection = Selection()
        let (recorder, _) = selection.followed.recorded()
        selection.selected.update(withValue: 0)
        // When the source selects the second
        selection.selected.update(withValue: 1)
        selection.inners[0].update(withValue: "a1")
        selection.inners[1].update(withValue: "b1")
        // Then only the second is followed
        #expect(recorder.values == ["a0", "b0", "b1"])
    }

    @Test("a switch made from inside the result's delivery leaves the newest inner Output followed")
    func reentrantSwitchKeepsNewest() {
        // Given a closure that selects the second inner as soon as it sees the first's value
        let selection = Selection()
        selection.followed.bind { value in
            if value == "a0" { selection.selected.update(withValue: 1) }
        }
        let (recorder, _) = selection.followed.recorded()
        // When the source selects the first
        selection.selected.update(withValue: 0)
        selection.inners[0].update(withValue: "a1")
        selection.inners[1].update(withValue: "b1")
        // Then the second, selected last, is the one followed
        #expect(recorder.values.last == "b1")
        #expect(!recorder.values.contains("a1"))
        #expect(selection.followed.value == "b1")
    }

    @Test("an inner Output made by the transform is kept alive while it is followed")
    func keepsTransientInnerAlive() {
        let id = Output<Int>()
        weak var weakInner: Output<Int>?
        let doubled = id.flatMap { value in
            let inner = Output<Int>(value: value * 2)
            weakInner = inner
            return inner
        }

        id.update(withValue: 1)

        #expect(weakInner != nil)
        weakInner?.update(withValue: 7)
        #expect(doubled.value == 7)
        id.update(withValue: 2)
        #expect(doubled.value == 4)
    }
}
