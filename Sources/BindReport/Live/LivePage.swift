import BindText

/// The live page `bind-trace serve` sends: the report's look, filled in by its script from the
/// server's event stream (`/events`, Server-Sent Events) instead of from the page itself.
///
/// The page holds nothing from the trace: its script reads every state as JSON and places each string
/// with `textContent` (or as an SVG `<text>`'s text), so a hostile label stays text. It keeps the static
/// report's Content-Security-Policy, plus `connect-src 'self'` for the stream; the server sends the
/// same policy as a header, with `frame-ancestors 'none'` (which only a header can set).
package enum LivePage {
    /// The policy the page's meta tag carries.
    package static var contentSecurityPolicy: String {
        [
            "default-src 'none'",
            "script-src \(SHA256.cspSource(for: HTMLAssets.liveScript))",
            "style-src \(SHA256.cspSource(for: HTMLAssets.style)) \(SHA256.cspSource(for: HTMLAssets.liveStyle))",
            "img-src data:",
            "connect-src 'self'",
            "base-uri 'none'",
            "form-action 'none'",
        ].joined(separator: "; ")
    }

    /// The policy the server sends as a header: the page's, and no framing by another site.
    package static var contentSecurityPolicyHeader: String {
        contentSecurityPolicy + "; frame-ancestors 'none'"
    }

    /// The whole page for `source` (the trace file or directory served), following it or not.
    package static func html(source: String, follows: Bool, toolVersion: String?) -> String {
        var page = HTMLBuilder()
        page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
        page.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"\(contentSecurityPolicy)\">\n")
        page.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
        // The address holds the token: never send it on as a referrer.
        page.raw("<meta name=\"referrer\" content=\"no-referrer\">\n")
        page.element("title", text: "\(source) — bind-trace live")
        page.raw("\n<style>\(HTMLAssets.style)</style>\n<style>\(HTMLAssets.liveStyle)</style>\n</head>\n<body>\n")
        page.raw("<header>")
        page.element("h1", text: "Live: \(source)")
        page.raw("<div class=\"subtitle\">")
        page.text(toolVersion.map { "bind-trace \($0)" } ?? "bind-trace")
        page.text(follows ? " serve --follow: the view follows the trace as the app writes it" : " serve")
        page.raw("</div><div class=\"live-controls\">")
        page.raw("<button id=\"pause\" type=\"button\" aria-pressed=\"false\">Pause</button>")
        page.element("span", ["id": "connection", "class": "note"], text: "connecting…")
        page.element("span", ["id": "held", "class": "note"], text: "")
        page.raw("</div></header>\n<main id=\"traces\">\n")
        page.element(
            "p", ["id": "no-traces", "class": "note"], text: "No trace yet: waiting for the app to write one.")
        page.raw("</main>\n<footer>bind-trace serve. The page loads nothing but its own event stream.</footer>\n")
        page.raw("<script>\(HTMLAssets.liveScript)</script>\n</body>\n</html>\n")
        return page.output
    }
}
