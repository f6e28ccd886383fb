import Bind
import Testing
import UIKitStandIn

@MainActor
@Suite("UIControl, UIButton, UISwitch, UISegmentedControl and UIPageControl binders")
struct ControlBinderTests {
    @Test("title(for:) sets the title of the normal state unless told another state")
    func buttonTitles() {
        let button = UIButton()
        Output(value: "Sign in").bind(to: button.binding.title())
        Output(value: "Signing in").bind(to: button.binding.title(for: .disabled))

        #expect(button.title(for: .normal) == "Sign in")
        #expect(button.title(for: .disabled) == "Signing in")
    }

    @Test("attributedTitle(for:) takes an optional attributed string; nil clears it")
    func buttonAttributedTitle() {
        let button = UIButton()
        let title = Output<NSAttributedString?>(value: NSAttributedString(string: "Go"))
        title.bind(to: button.binding.attributedTitle())
        #expect(button.attributedTitle(for: .normal) == NSAttributedString(string: "Go"))

        title.update(withValue: nil)
        #expect(button.attributedTitle(for: .normal) == nil)
    }

    @Test("image(for:) and backgroundImage(for:) set the images of their states")
    func buttonImages() {
        let button = UIButton()
        let plus = UIImage(named: "plus")!
        let pill = UIImage(named: "pill")!
        Output(value: plus).bind(to: button.binding.image())
        Output(value: pill).bind(to: button.binding.backgroundImage(for: .highlighted))

        #expect(button.image(for: .normal) === plus)
        #expect(button.backgroundImage(for: .highlighted) === pill)
        #expect(button.backgroundImage(for: .normal) == nil)
    }

    @Test("action(for:) adds each target and action for touchUpInside unless told another event")
    func buttonActions() {
        final class Handler {}
        let button = UIButton()
        let handler = Handler()
        let actions = Output<(Any, Selector)>()
        actions.bind(to: button.binding.action())
        actions.bind(to: button.binding.action(for: .touchDown))

        actions.update(withValue: (handler, Selector("signIn")))
        actions.update(withValue: (handler, Selector("track")))

        #expect(button.actions(forTarget: handler, forControlEvent: .touchUpInside) == ["signIn", "track"])
        #expect(button.actions(forTarget: handler, forControlEvent: .touchDown) == ["signIn", "track"])
        #expect(button.actions(forTarget: handler, forControlEvent: .valueChanged) == nil)
    }

    @Test("isEnabled and isSelected work on every control, buttons included")
    func enabledAndSelected() {
        let button = UIButton()
        let toggle = UISwitch()
        let enabled = Output(value: false)
        enabled.bind(to: button.binding.isEnabled)
        enabled.bind(to: toggle.binding.isEnabled)
        Output(value: true).bind(to: button.binding.isSelected)

        #expect(!button.isEnabled)
        #expect(!toggle.isEnabled)
        #expect(button.isSelected)
    }

    @Test("isOn sets a switch")
    func switchIsOn() {
        let toggle = UISwitch()
        let isOn = Output(value: true)
        isOn.bind(to: toggle.binding.isOn)
        #expect(toggle.isOn)
        isOn.update(withValue: false)
        #expect(!toggle.isOn)
    }

    @Test("titles replaces every segment, title(for:) renames one, selectedIndex selects one")
    func segments() {
        let control = UISegmentedControl()
        let titles = Output(value: ["Day", "Week", "Month"])
        titles.bind(to: control.binding.titles)
        Output(value: "Fortnight").bind(to: control.binding.title(for: 1))
        Output(value: 2).bind(to: control.binding.selectedIndex)

        #expect((0..<control.numberOfSegments).map(control.titleForSegment(at:)) == ["Day", "Fortnight", "Month"])
        #expect(control.selectedSegmentIndex == 2)

        titles.update(withValue: ["Yes", "No"])
        #expect((0..<control.numberOfSegments).map(control.titleForSegment(at:)) == ["Yes", "No"])
    }

    @Test("page sets a page control's currentPage")
    func page() {
        let control = UIPageControl()
        control.numberOfPages = 3
        Output(value: 2).bind(to: control.binding.page)
        #expect(control.currentPage == 2)
    }

    @Test("text and borderColor set a text field's text and its layer's border")
    func textField() {
        let field = UITextField()
        Output(value: "me@example.com").bind(to: field.binding.text)
        Output<UIColor>(value: .red).bind(to: field.binding.borderColor)

        #expect(field.text == "me@example.com")
        #expect(field.layer.borderColor == UIColor.red.cgColor)
    }
}
