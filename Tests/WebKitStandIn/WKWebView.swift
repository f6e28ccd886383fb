import Foundation
@_exported import UIKitStandIn

/// Stands in for `WKNavigation`.
@MainActor
public final class WKNavigation {}

/// Stands in for `WKWebView`: remembers the file URLs it was asked to load.
@MainActor
open class WKWebView: UIView {
    /// Each `loadFileURL` call: the file, and the URL the web view may read.
    public private(set) var loadedFiles: [(url: URL, readAccessURL: URL)] = []

    @discardableResult
    open func loadFileURL(_ url: URL, allowingReadAccessTo readAccessURL: URL) -> WKNavigation? {
        loadedFiles.append((url, readAccessURL))
        return WKNavigation()
    }
}
