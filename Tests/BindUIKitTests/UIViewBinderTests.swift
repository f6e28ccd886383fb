import Bind
import Testing
import UIKitStandIn

@MainActor
@Suite("UIView binders")
struct UIViewBinderTests {
    @Test("isHidden and isVisible set isHidden, the second inverted")
    func hiddenAndVisible() {
        let view = UIView()
        let hidden = Output<Bool>()
        let visible = Output<Bool>()
        hidden.bind(to: view.binding.isHidden)
        visible.bind(to: view.binding.isVisible)

        hidden.update(withValue: true)
        #expect(view.isHidden)
        visible.update(withValue: true)
        #expect(!view.isHidden)
        visible.update(withValue: false)
        #expect(view.isHidden)
    }

    @Test("isVisibleAlpha sets alpha to 1 or 0, and an animated change reads as its final value at once")
    func visibleAlpha() {
        for animated in [false, true] {
            let view = UIView()
            let visible = Output<Bool>()
            visible.bind(to: view.binding.isVisibleAlpha(animated: animated))

            visible.update(withValue: false)
            #expect(view.alpha == 0)
            visible.update(withValue: true)
            #expect(view.alpha == 1)
        }
        let view = UIView()
        Output(value: false).bind(to: view.binding.isVisibleAlpha())
        #expect(view.alpha == 0, "not animated by default")
    }

    @Test("alpha, borderWidth and cornerRadius set the view's and its layer's CGFloat properties")
    func floats() {
        let view = UIView()
        Output<CGFloat>(value: 0.5).bind(to: view.binding.alpha)
        Output<CGFloat>(value: 30).bind(to: view.binding.borderWidth)
        Output<CGFloat>(value: 40).bind(to: view.binding.cornerRadius)

        #expect(view.alpha == 0.5)
        #expect(view.layer.borderWidth == 30)
        #expect(view.layer.cornerRadius == 40)
    }

    @Test("backgroundColor, tintColor and borderColor take non-optional UIColors")
    func colors() {
        let view = UIView()
        let background = Output<UIColor>()
        let tint = Output<UIColor>()
        let border = Output<UIColor>()
        background.bind(to: view.binding.backgroundColor)
        tint.bind(to: view.binding.tintColor)
        border.bind(to: view.binding.borderColor)

        background.update(withValue: .red)
        tint.update(withValue: .blue)
        border.update(withValue: .green)

        #expect(view.backgroundColor == .red)
        #expect(view.tintColor == .blue)
        #expect(view.layer.borderColor == UIColor.green.cgColor)
    }

    @Test("isUserInteractionEnabled and accessibilityIdentifier (a String) are set")
    func interactionAndAccessibility() {
        let view = UIView()
        Output(value: false).bind(to: view.binding.isUserInteractionEnabled)
        Output(value: "sign-in.button").bind(to: view.binding.accessibilityIdentifier)

        #expect(!view.isUserInteractionEnabled)
        #expect(view.accessibilityIdentifier == "sign-in.button")
    }

    @Test("areConstraintsActive deactivates the view's constraints, which then leave the view")
    func constraintsActive() {
        let view = UIView()
        let height = view.heightAnchor.constraint(equalToConstant: 10)
        height.isActive = true
        let active = Output<Bool>()
        active.bind(to: view.binding.areConstraintsActive)
        #expect(view.constraints.count == 1)

        active.update(withValue: false)
        #expect(view.constraints.isEmpty)
        #expect(!height.isActive)

        active.update(withValue: true)
        #expect(!height.isActive, "a deactivated constraint is no longer the view's, as in UIKit")
    }
}
