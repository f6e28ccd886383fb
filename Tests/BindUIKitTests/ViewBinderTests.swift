import Bind
import Foundation
import Testing
import UIKitStandIn
import WebKitStandIn

@MainActor
@Suite("binders of labels, images, bars, controllers, constraints, gestures and web views")
struct ViewBinderTests {
    @Test("a label's text and textColor take non-optional values, attributedText an optional one")
    func label() {
        let label = UILabel()
        Output(value: "Welcome").bind(to: label.binding.text)
        Output<UIColor>(value: .red).bind(to: label.binding.textColor)
        let attributed = Output<NSAttributedString?>(value: NSAttributedString(string: "Hi"))
        attributed.bind(to: label.binding.attributedText)

        #expect(label.text == "Welcome")
        #expect(label.textColor == .red)
        #expect(label.attributedText == NSAttributedString(string: "Hi"))
        attributed.update(withValue: nil)
        #expect(label.attributedText == nil)
    }

    @Test("an image view's image takes a UIImage")
    func imageView() {
        let imageView = UIImageView()
        let avatar = UIImage(named: "avatar")!
        Output(value: avatar).bind(to: imageView.binding.image)
        #expect(imageView.image === avatar)
    }

    @Test("isAnimating starts and stops an activity indicator")
    func activityIndicator() {
        let indicator = UIActivityIndicatorView()
        let loading = Output(value: true)
        loading.bind(to: indicator.binding.isAnimating)
        #expect(indicator.isAnimating)
        loading.update(withValue: false)
        #expect(!indicator.isAnimating)
    }

    @Test("a view controller's title and tabBarTitle set its title and its tab bar item's title")
    func viewController() {
        let controller = UIViewController()
        Output(value: "Inbox").bind(to: controller.binding.title)
        Output(value: "Mail").bind(to: controller.binding.tabBarTitle)

        #expect(controller.title == "Inbox")
        #expect(controller.tabBarItem.title == "Mail")
    }

    @Test("a tab bar controller's selectedIndex selects a tab")
    func tabBarController() {
        let controller = UITabBarController()
        controller.viewControllers = [UIViewController(), UIViewController()]
        Output(value: 1).bind(to: controller.binding.selectedIndex)
        #expect(controller.selectedIndex == 1)
    }

    @Test("a tab bar's unselectedItemColor sets unselectedItemTintColor")
    func tabBar() {
        let tabBar = UITabBar()
        Output<UIColor>(value: .green).bind(to: tabBar.binding.unselectedItemColor)
        #expect(tabBar.unselectedItemTintColor == .green)
    }

    @Test("a navigation item's title and a search bar's placeholder take Strings")
    func navigationItemAndSearchBar() {
        let item = UINavigationItem(title: "")
        let searchBar = UISearchBar()
        Output(value: "Settings").bind(to: item.binding.title)
        Output(value: "Search mail").bind(to: searchBar.binding.placeholder)

        #expect(item.title == "Settings")
        #expect(searchBar.placeholder == "Search mail")
    }

    @Test("isActive activates a constraint, isInactive deactivates it, constant sets its constant")
    func constraint() {
        let view = UIView()
        let height = view.heightAnchor.constraint(equalToConstant: 10)
        let active = Output(value: true)
        active.bind(to: height.binding.isActive)
        #expect(height.isActive)

        let inactive = Output(value: true)
        inactive.bind(to: height.binding.isInactive)
        #expect(!height.isActive)
        inactive.update(withValue: false)
        #expect(height.isActive)

        Output<CGFloat>(value: 44).bind(to: height.binding.constant)
        #expect(height.constant == 44)
    }

    @Test("a gesture recognizer's isEnabled is set")
    func gestureRecognizer() {
        let recognizer = UIGestureRecognizer()
        Output(value: false).bind(to: recognizer.binding.isEnabled)
        #expect(!recognizer.isEnabled)
    }

    @Test("fileURL loads the file into a web view, allowing it to read that file")
    func webView() {
        let webView = WKWebView()
        let page = URL(fileURLWithPath: "/tmp/help/index.html")
        Output(value: page).bind(to: webView.binding.fileURL)

        #expect(webView.loadedFiles.count == 1)
        #expect(webView.loadedFiles.first?.url == page)
        #expect(webView.loadedFiles.first?.readAccessURL == page)
    }
}
