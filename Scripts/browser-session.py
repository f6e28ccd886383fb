#!/usr/bin/env python3
"""Drives the system Chromium with Playwright for the HTML report's browser tests.

Usage: browser-session.py CHROMIUM URL STEPS_JSON
       browser-session.py --probe CHROMIUM      exit 0 when Playwright can start the browser, else 3 and why

Opens URL (with its #fragment, as a person opening a link does) in a fresh headless Chromium, waits for
the page's script (body[data-script=ran]), then runs the steps in order and prints one JSON object:
{"results": [...], "log": [...]}, one result per eval step. Steps are real input (trusted events):

  {"click": "CSS selector"}            press and release the mouse at the element's centre
  {"click": "sel", "at": 0.8}          ... at 80 % of its width (a range input's track)
  {"key": "j"}                         press and release a key ("Enter", "ArrowDown", "Home", "j", ...)
  {"type": "Model.swift:7"}            type text into the focused element (as an input method does)
  {"eval": "JS expression"}            the expression's value (JSON), e.g. an attribute to assert
  {"size": "390x844"}                  the window's inner size (a phone's width here)
  {"screenshot": "out.png"}            a PNG of what the window shows (for the README's picture)

The browser is the system's (`executable_path`): Playwright's own browser download is never used.
The page is opened at 1280x1000. A dialog the page opens (a trace string that ran as script would) is
logged as `dialog: …` and dismissed; a policy violation as `Refused to … (Content Security Policy)`; an
uncaught error as `exception: …`. Exit status: 0 done, 2 usage, 3 browser did not start, 4 a step failed.
"""

import json
import sys

DEADLINE_MS = 120_000
READY_MS = 30_000
KEYS = {" ": "Space"}

# Reported to the log whatever the browser's own console does with violations (an init script is not
# subject to the page's policy, and it only listens).
WATCH_POLICY = """
document.addEventListener("securitypolicyviolation", function (event) {
  console.error("Refused to load or run " + event.blockedURI + " (Content Security Policy: "
    + event.violatedDirective + ")");
});
"""


class SessionError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


def launch(playwright, chromium):
    try:
        return playwright.chromium.launch(executable_path=chromium, headless=True,
                                          args=["--no-sandbox", "--disable-gpu"], timeout=READY_MS)
    except Exception as error:  # Playwright raises its own Error types; any of them means no browser.
        raise SessionError(3, f"{chromium} did not start under Playwright: {error}".splitlines()[0])


def settle(page):
    """Lets the page's handlers run and the frame paint before the next step reads it."""
    page.evaluate("new Promise(function (done) { requestAnimationFrame(function () { setTimeout(done, 0); }); })")


def click(page, selector, at):
    element = page.locator(selector).first
    if element.count() == 0:
        raise SessionError(4, f"nothing to click: {selector}")
    element.scroll_into_view_if_needed()
    box = element.bounding_box()
    if box is None:
        raise SessionError(4, f"not visible, cannot click: {selector}")
    page.mouse.click(box["x"] + box["width"] * at, box["y"] + box["height"] / 2)


def run(chromium, url, steps):
    from playwright.sync_api import sync_playwright

    log = []
    with sync_playwright() as playwright:
        browser = launch(playwright, chromium)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.set_default_timeout(DEADLINE_MS)
            page.on("console", lambda message: log.append(message.text))
            page.on("pageerror", lambda error: log.append(f"exception: {error}"))

            def dialog(opened):
                log.append("dialog: " + opened.message)
                opened.dismiss()

            page.on("dialog", dialog)
            page.add_init_script(WATCH_POLICY)
            page.goto(url)
            try:
                page.wait_for_selector("body[data-script=ran]", state="attached", timeout=READY_MS)
            except Exception:
                raise SessionError(4, "the page's script did not run (no data-script on <body>); browser log: "
                                   + " | ".join(log))
            settle(page)
            results = []
            for step in steps:
                if "click" in step:
                    click(page, step["click"], float(step.get("at", 0.5)))
                elif "key" in step:
                    page.keyboard.press(KEYS.get(step["key"], step["key"]))
                elif "type" in step:
                    page.keyboard.insert_text(step["type"])
                elif "size" in step:
                    width, height = (int(part) for part in step["size"].split("x"))
                    page.set_viewport_size({"width": width, "height": height})
                elif "screenshot" in step:
                    page.screenshot(path=step["screenshot"])
                elif "eval" in step:
                    value = page.evaluate(step["eval"])
                    results.append(value if value is None or isinstance(value, str) else json.dumps(value))
                else:
                    raise SessionError(2, f"unknown step: {json.dumps(step)}")
                settle(page)
            return {"results": results, "log": log}
        finally:
            browser.close()


def probe(chromium):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        raise SessionError(3, "the Python package playwright is not installed (make setup installs it)")
    with sync_playwright() as playwright:
        launch(playwright, chromium).close()


def main():
    try:
        if len(sys.argv) == 3 and sys.argv[1] == "--probe":
            probe(sys.argv[2])
            return 0
        if len(sys.argv) != 4:
            print("usage: browser-session.py CHROMIUM URL STEPS_JSON | --probe CHROMIUM", file=sys.stderr)
            return 2
        print(json.dumps(run(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))))
        return 0
    except SessionError as error:
        print(f"browser-session: {error}", file=sys.stderr)
        return error.status


if __name__ == "__main__":
    sys.exit(main())
