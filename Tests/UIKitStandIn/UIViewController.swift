import Foundation

/// Stands in for `UIViewController`: a title, a navigation item and a tab bar item.
@MainActor
open class UIViewController: UIResponder {
    open var title: String?
    public let navigationItem = UINavigationItem(title: "")
    public let tabBarItem = UITabBarItem()

    public override init() {}
}

/// Stands in for `UITabBarController`: the selection is kept within the view controllers.
@MainActor
open class UITabBarController: UIViewController {
    open var viewControllers: [UIViewController]?

    open var selectedIndex: Int = 0 {
        didSet {
            let count = viewControllers?.count ?? 0
            if selectedIndex >= count { selectedIndex = oldValue }
        }
    }
}
