import Bind
import Testing
import UIKitStandIn

/// A view class of an app, with a binder of its own, as users of the original framework write them.
@MainActor
final class BadgeView: UIView {
    var count = 0
}

extension Bindable where TargetType: BadgeView {
    var count: Binder<Int> { Binder(target) { view, count in MainActor.assumeIsolated { view.count = count } } }
}

/// A model object that opts in, as the original framework asks of classes outside UIKit's views.
final class Session: BindableCompatible {
    var userName = ""
}

@MainActor
@Suite("binding of UIKit objects")
struct BindableCompatibleTests {
    @Test("a view's binding is typed as its own class, so subclass binders are found")
    func subclassBinding() {
        let badge = BadgeView()
        let count = Output(value: 3)
        count.bind(to: badge.binding.count)
        Output(value: false).bind(to: badge.binding.isHidden)

        #expect(badge.count == 3)
        #expect(!badge.isHidden)
        #expect(badge.binding.target === badge)
    }

    @Test("binding[keyPath] still writes any property, optional ones included")
    func keyPathBinding() {
        let label = UILabel()
        let session = Session()
        Output<String?>(value: nil).bind(to: label.binding[\.text])
        Output(value: "ada").bind(to: session.binding[\.userName])
        #expect(label.text == nil)
        #expect(session.userName == "ada")
    }

    @Test("a UIKit binder holds its object weakly: a released view is not kept alive, and its values are dropped")
    func weakTarget() {
        let text = Output<String>()
        weak var released: UILabel?
        do {
            let label = UILabel()
            released = label
            text.bind(to: label.binding.text)
        }
        text.update(withValue: "after")
        #expect(released == nil)
    }
}
