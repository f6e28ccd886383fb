#if (canImport(WebKit) && !os(tvOS) && !os(watchOS)) || BIND_UIKIT_STANDIN
#if BIND_UIKIT_STANDIN
// The tests' stand-in for WebKit (Tests/WebKitStandIn); see docs/compatibility.md.
import Bind
import WebKitStandIn
#else
import WebKit
#endif

extension Bindable where TargetType: WKWebView {
    /// Loads each file URL, allowing the web view to read that file only.
    public var fileURL: Binder<URL> {
        Binder(mainThread: target) { $0.loadFileURL($1, allowingReadAccessTo: $1) }
    }
}
#endif
