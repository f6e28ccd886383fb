import Bind
import Testing

@Suite("Binder")
struct BinderTests {
    @Test("a Binder calls its binding with the target and each value")
    func binderDelivers() {
        let label = Label()
        let binder = Binder<Int>(label) { label, value in label.count = value }

        binder.on(3)

        #expect(label.count == 3)
    }

    @Test("a Binder holds its target weakly: once the target is gone, values are dropped without a crash")
    func binderDropsValuesForReleasedTarget() {
        // Given an Output bound to a Binder of a label, and to a closure
        let count = Output<Int>(value: 1)
        var calls = 0
        weak var weakLabel: Label?
        do {
            let label = Label()
            weakLabel = label
            count.bind(
                to: Binder(label) { label, value in
                    label.count = value; calls += 1
                })
        }
        let (others, _) = count.recorded()
        // When the label is gone and the Output updates
        count.update(withValue: 2)
        // Then the binding is not called, and other closures still are
        #expect(weakLabel == nil)
        #expect(calls == 1)
        #expect(others.values == [1, 2])
    }

    @Test("a key-path Binder writes the property, optional or not")
    func keyPathBinders() {
        let label = Label()
        let count = Output<Int>(value: 4)
        let text = Output<String>(value: "hi")
        let optionalText = Output<String?>(value: "maybe")

        count.bind(to: Binder(label, \.count))
        text.bind(to: Binder(label, \.text))
        #expect(label.count == 4)
        #expect(label.text == "hi")

        optionalText.bind(to: Binder(label, \.text))
        optionalText.update(withValue: nil)
        #expect(label.text == nil)
    }

    @Test("binding[keyPath] of a BindableCompatible object is a Binder of that property")
    func bindableSubscript() {
        let label = Label()
        let text = Output<String>(value: "hi")
        let count = Output<Int>(value: 2)

        text.bind(to: label.binding[\.text])
        count.bind(to: label.binding[\.count])

        #expect(label.text == "hi")
        #expect(label.count == 2)
        #expect(label.binding.target === label)
        #expect(Bindable(label).target === label)
    }
}
