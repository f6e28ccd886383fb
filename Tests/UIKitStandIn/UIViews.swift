import Foundation

/// Stands in for `UILabel`.
@MainActor
open class UILabel: UIView {
    open var text: String?
    open var textColor: UIColor! = .black
    open var attributedText: NSAttributedString?
}

/// Stands in for `UIImageView`.
@MainActor
open class UIImageView: UIView {
    open var image: UIImage?
}

/// Stands in for `UIActivityIndicatorView`.
@MainActor
open class UIActivityIndicatorView: UIView {
    open private(set) var isAnimating = false

    open func startAnimating() { isAnimating = true }
    open func stopAnimating() { isAnimating = false }
}

/// Stands in for `UISearchBar`.
@MainActor
open class UISearchBar: UIView {
    open var placeholder: String?
}

/// Stands in for `UITabBar`.
@MainActor
open class UITabBar: UIView {
    open var unselectedItemTintColor: UIColor?
}

/// Stands in for `UIBarItem`.
@MainActor
open class UIBarItem {
    open var title: String?

    public init() {}
}

/// Stands in for `UITabBarItem`.
@MainActor
open class UITabBarItem: UIBarItem {}

/// Stands in for `UINavigationItem`.
@MainActor
open class UINavigationItem {
    open var title: String?

    public init(title: String) {
        self.title = title
    }
}
