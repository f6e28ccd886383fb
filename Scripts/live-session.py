#!/usr/bin/env python3
"""Drives `bind-trace serve --follow` and the system Chromium (Playwright) for ServeTests and the benchmarks.

Usage: live-session.py --probe CHROMIUM                 exit 0 when Playwright can start the browser
       live-session.py --tool BIND_TRACE --scenario DIR  the browser test (ServeTests.followsATraceWrittenInSteps)
       live-session.py --tool BIND_TRACE --memory DIR    RSS of the server while it follows DIR's steps
       live-session.py --tool BIND_TRACE --latency DIR   event-to-page latency over DIR's steps (ms)
       live-session.py --tool BIND_TRACE --screenshot PNG --follow TRACE   the README's picture

DIR holds step files and steps.json ([{"file": "step-0.bin", "sequence": N}, …]): the script appends each
step to DIR/app.trace (which `serve --follow` follows), as a recording app flushes a chunk, and reads what
the page shows. Prints one JSON object on its last line of output.
"""

import json
import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request

CHROMIUM = "/usr/bin/chromium"
TIMEOUT = 20.0


def launch(playwright, chromium=CHROMIUM):
    return playwright.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox", "--disable-gpu"])


def start_server(tool, trace, *extra):
    server = subprocess.Popen([tool, "serve", trace, "--follow", *extra], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
    line = server.stdout.readline()
    match = re.search(r"(http://\S+)", line)
    if not match:
        server.kill()
        raise SystemExit(f"serve printed no URL: {line!r} {server.stderr.read()}")
    return server, match.group(1)


def status_of(url, headers=None):
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers)


def wait_for(page, expression, timeout=TIMEOUT):
    """Polls `expression` until it is true. Not Playwright's wait_for_function: that evaluates the text with
    eval inside the page, which the page's policy (no 'unsafe-eval') refuses, as it should."""
    deadline = time.time() + timeout
    while not page.evaluate(expression):
        if time.time() > deadline:
            raise SystemExit(f"timed out after {timeout} s waiting for: {expression}")
        time.sleep(0.01)


def shown(page):
    return page.evaluate("""() => {
      var section = document.querySelector('section.trace');
      if (!section) { return null; }
      return {
        sequence: Number(section.getAttribute('data-sequence')),
        status: section.getAttribute('data-status'),
        statusText: section.querySelector('.status-text').textContent,
        outputs: Array.from(section.querySelectorAll('tbody.outputs tr[data-output]'))
          .map(function (row) { return Number(row.getAttribute('data-output')); }).sort(function (a, b) { return a - b; }),
        findings: section.querySelectorAll('article.finding').length,
        findingKinds: Array.from(section.querySelectorAll('article.finding'))
          .map(function (article) { return article.getAttribute('data-kind'); }),
        rows: section.querySelectorAll('tbody.event-rows tr').length
      };
    }""")


def append(trace, data):
    with open(trace, "ab") as handle:
        handle.write(data)
        handle.flush()


def open_page(browser, url, log):
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    page.on("dialog", lambda dialog: (log["dialogs"].append(dialog.message), dialog.dismiss()))
    page.on("console", lambda message: log["console"].append(message.text))
    page.goto(url)
    wait_for(page, "document.body.getAttribute('data-connection') === 'open'")
    return page


def scenario(tool, directory):
    from playwright.sync_api import sync_playwright

    steps = json.load(open(os.path.join(directory, "steps.json")))
    trace = os.path.join(directory, "app.trace")
    # The "app": a process of ours named in the trace's writer record, killed at the end (a crash).
    app = subprocess.Popen(["sleep", "600"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    append(trace, open(os.path.join(directory, "header.bin"), "rb").read() + writer_record(app.pid))
    server, url = start_server(tool, trace)
    result = {}
    log = {"dialogs": [], "console": []}
    try:
        base = url.split("?")[0]
        token = url.split("token=")[1]
        result["noToken"] = status_of(base)[0]
        result["wrongToken"] = status_of(base + "?token=" + "0" * len(token))[0]
        result["otherOrigin"] = status_of(base + "events?token=" + token, {"Origin": "http://evil.example"})[0]
        result["otherHost"] = status_of(url, {"Host": "evil.example"})[0]
        status, headers = status_of(url)
        result["pageStatus"] = status
        result["corsHeaders"] = [name for name in headers if name.lower().startswith("access-control-")]
        result["policy"] = headers.get("content-security-policy", headers.get("Content-Security-Policy", ""))
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = open_page(browser, url, log)
            seen = []
            for index, step in enumerate(steps[:3]):
                data = open(os.path.join(directory, step["file"]), "rb").read()
                if index == 1:
                    # Half a record first: the page must wait for the rest, not call the trace cut.
                    append(trace, data[: len(data) // 2])
                    time.sleep(0.3)
                    append(trace, data[len(data) // 2:])
                else:
                    append(trace, data)
                wait_for(page, "document.querySelector('section.trace') && Number(document.querySelector("
                         "'section.trace').getAttribute('data-sequence')) === %d" % step["sequence"])
                if index == 2:
                    wait_for(page, "document.querySelectorAll('article.finding').length > 0")
                seen.append(shown(page))
            late = open_page(browser, url, log)
            wait_for(late, "document.querySelector('section.trace') && Number(document.querySelector("
                     "'section.trace').getAttribute('data-sequence')) === %d" % steps[2]["sequence"])
            late_view = shown(late)
            result["lateOutputs"] = late_view["outputs"]
            result["lateFindings"] = late_view["findings"]
            # Pause the first page; the late one keeps following.
            result["sequenceBeforePause"] = shown(page)["sequence"]
            page.click("#pause")
            append(trace, open(os.path.join(directory, steps[3]["file"]), "rb").read())
            wait_for(late, "Number(document.querySelector('section.trace').getAttribute('data-sequence')) === %d"
                     % steps[3]["sequence"])
            time.sleep(0.3)
            result["pausedSequence"] = shown(page)["sequence"]
            result["held"] = page.evaluate("document.getElementById('held').textContent")
            page.click("#pause")
            wait_for(page, "Number(document.querySelector('section.trace').getAttribute('data-sequence')) === %d"
                     % steps[3]["sequence"])
            resumed = shown(page)
            seen.append(resumed)
            result["resumedOutputs"] = resumed["outputs"]
            result["steps"] = seen
            # The writer dies without an end record (SIGKILL): the page says the trace ended.
            app.kill()
            app.wait()
            wait_for(page, "document.querySelector('section.trace').getAttribute('data-status') === 'ended'")
            final = shown(page)
            result["finalStatus"] = final["status"]
            result["finalStatusText"] = final["statusText"]
            result["hostileShownAsText"] = page.evaluate(
                "document.body.textContent.indexOf('<img src=x onerror=alert(1)>') >= 0")
            result["injectedElements"] = page.evaluate("document.querySelectorAll('main img, main script').length")
            browser.close()
    finally:
        app.kill()
        server.terminate()
        server.wait(timeout=10)
    result["dialogs"] = log["dialogs"]
    result["policyViolations"] = [line for line in log["console"] if "Content Security Policy" in line]
    return result


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def writer_record(pid):
    """The `writer` record (tag 8: process, group, session) a recorder writes after the header."""
    payload = varint(pid) + varint(pid) + varint(pid)
    return bytes([8]) + varint(len(payload)) + payload


def rss_kib(pid):
    """The resident memory of `pid` and its children: bind-trace runs each command in a child process
    (docs/hardening.md, "memory and crashes"), which is the one that reads and serves."""
    total = 0
    try:
        with open(f"/proc/{pid}/status") as status:
            total += next(int(line.split()[1]) for line in status if line.startswith("VmRSS:"))
        for task in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{task}/children") as children:
                total += sum(rss_kib(int(child)) for child in children.read().split())
    except (OSError, StopIteration):
        pass
    return total


def memory(tool, directory):
    steps = json.load(open(os.path.join(directory, "steps.json")))
    trace = os.path.join(directory, "app.trace")
    server, url = start_server(tool, trace)
    samples = []
    try:
        # A page stays open (its stream is the server's work too), read through urllib's streamed response.
        stream = urllib.request.urlopen(url.replace("/?", "/events?"), timeout=30)
        for step in steps:
            append(trace, open(os.path.join(directory, step["file"]), "rb").read())
            deadline = time.time() + TIMEOUT
            # Wait until the server has read the step: the stream's newest state names its last event.
            while time.time() < deadline:
                line = stream.readline().decode()
                if line.startswith("data: ") and json.loads(line[6:])["sequence"] >= step["sequence"]:
                    break
            samples.append(rss_kib(server.pid))
        events = steps[-1]["sequence"]
    finally:
        server.terminate()
        server.wait(timeout=10)
    return {"rssKiB": samples, "events": events}


def latency(tool, directory):
    """Appends each step at a known time and reads when the page's row for its last event arrived."""
    from playwright.sync_api import sync_playwright

    steps = json.load(open(os.path.join(directory, "steps.json")))
    trace = os.path.join(directory, "app.trace")
    server, url = start_server(tool, trace)
    delays = []
    log = {"dialogs": [], "console": []}
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = open_page(browser, url, log)
            for step in steps:
                written = time.time() * 1000
                append(trace, open(os.path.join(directory, step["file"]), "rb").read())
                selector = "tr[data-sequence='%d']" % step["sequence"]
                wait_for(page, "document.querySelector(\"%s\") !== null" % selector)
                arrived = float(page.get_attribute(selector, "data-arrived"))
                delays.append(arrived - written)
                time.sleep(0.05)
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    delays.sort()
    return {"samples": len(delays), "p50": delays[len(delays) // 2], "p99": delays[int(len(delays) * 0.99) - 1],
            "max": delays[-1]}


def screenshot(tool, trace, output):
    from playwright.sync_api import sync_playwright

    server, url = start_server(tool, trace)
    log = {"dialogs": [], "console": []}
    try:
        with sync_playwright() as playwright:
            browser = launch(playwright)
            page = open_page(browser, url, log)
            wait_for(page, "document.querySelector('section.trace') !== null")
            time.sleep(1.5)
            page.screenshot(path=output, full_page=True, clip={"x": 0, "y": 0, "width": 1280, "height": 2000})
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)
    return {"screenshot": output}


def main(arguments):
    if arguments[:1] == ["--probe"]:
        from playwright.sync_api import sync_playwright
        try:
            with sync_playwright() as playwright:
                launch(playwright, arguments[1]).close()
        except Exception as error:  # any Playwright error means no browser here
            print(f"{arguments[1]} did not start under Playwright: {error}".splitlines()[0], file=sys.stderr)
            return 3
        return 0
    if len(arguments) < 4 or arguments[0] != "--tool":
        print(__doc__, file=sys.stderr)
        return 2
    tool, mode, target = arguments[1], arguments[2], arguments[3]
    if mode == "--scenario":
        result = scenario(tool, target)
    elif mode == "--memory":
        result = memory(tool, target)
    elif mode == "--latency":
        result = latency(tool, target)
    elif mode == "--screenshot":
        result = screenshot(tool, arguments[5], target)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
