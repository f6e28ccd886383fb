#!/usr/bin/env python3
"""Drives headless Chromium over the DevTools protocol for the HTML report's browser tests.

Usage: browser-session.py CHROMIUM URL STEPS_JSON

Opens URL in a fresh headless Chromium, waits for the page's script (body[data-script=ran]), then runs
the steps in order and prints one JSON object: {"results": [...], "log": [...]}, one result per eval step.
Steps are real input, as a person gives it (the browser dispatches trusted events):

  {"click": "CSS selector"}            press and release the mouse at the element's centre
  {"click": "sel", "at": 0.8}          ... at 80 % of its width (a range input's track)
  {"key": "j"}                         press and release a key ("Enter", "ArrowDown", "Home", "j", ...)
  {"type": "Model.swift:7"}            type text into the focused element (as an input method does)
  {"eval": "JS expression"}            the expression's value (JSON), e.g. an attribute to assert
  {"size": "390x844"}                  the window's inner size (a phone's width here)
  {"screenshot": "out.png"}            a PNG of what the window shows (for the README's picture)

Only the Python standard library is used: the WebSocket handshake and frames are written here (RFC 6455),
so `make setup` installs nothing for it. Everything has a deadline; Chromium is killed on every path.
A dialog the page opens (a trace string that ran as script would) is logged as `dialog: …` and dismissed.
Exit status: 0 done, 2 usage, 3 browser did not start or answer, 4 a step failed.
"""

import base64
import http.client
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time

DEADLINE_SECONDS = 120
READY_SECONDS = 30


class SessionError(Exception):
    def __init__(self, status, message):
        super().__init__(message)
        self.status = status


class WebSocket:
    """A client WebSocket with just what CDP needs: text frames, masked sends, ping replies."""

    def __init__(self, host, port, path, deadline):
        self.deadline = deadline
        self.sock = socket.create_connection((host, port), timeout=self.remaining())
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.receive_some()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if b" 101 " not in head.split(b"\r\n", 1)[0]:
            raise SessionError(3, "the DevTools endpoint refused the WebSocket upgrade")

    def remaining(self):
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise SessionError(3, "the browser did not answer in time")
        return left

    def receive_some(self):
        self.sock.settimeout(self.remaining())
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            raise SessionError(3, "the browser did not answer in time")
        if not chunk:
            raise SessionError(3, "the browser closed the DevTools connection")
        return chunk

    def exactly(self, count):
        while len(self.buffer) < count:
            self.buffer += self.receive_some()
        data, self.buffer = self.buffer[:count], self.buffer[count:]
        return data

    def send(self, text):
        payload = text.encode()
        header = bytes([0x81])
        if len(payload) < 126:
            header += bytes([0x80 | len(payload)])
        elif len(payload) < 65536:
            header += bytes([0x80 | 126]) + struct.pack(">H", len(payload))
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", len(payload))
        mask = os.urandom(4)
        masked = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def receive(self):
        """The next whole text message (continuation frames joined)."""
        message = b""
        while True:
            first, second = self.exactly(2)
            opcode, final = first & 0x0F, first & 0x80
            length = second & 0x7F
            if length == 126:
                length = struct.unpack(">H", self.exactly(2))[0]
            elif length == 127:
                length = struct.unpack(">Q", self.exactly(8))[0]
            mask = self.exactly(4) if second & 0x80 else None
            payload = self.exactly(length)
            if mask:
                payload = bytes(byte ^ mask[index % 4] for index, byte in enumerate(payload))
            if opcode == 0x8:
                raise SessionError(3, "the browser closed the DevTools connection")
            if opcode == 0x9:  # ping: answer with a pong carrying the same data (masked, as a client must)
                pong_mask = os.urandom(4)
                body = bytes(byte ^ pong_mask[index % 4] for index, byte in enumerate(payload))
                self.sock.sendall(bytes([0x8A, 0x80 | len(payload)]) + pong_mask + body)
                continue
            if opcode in (0x1, 0x2, 0x0):
                message += payload
                if final:
                    return message.decode("utf-8", "replace")


class Page:
    """One page's CDP session: commands with ids, events collected on the way."""

    def __init__(self, socket_):
        self.socket = socket_
        self.next_id = 0
        self.log = []

    def call(self, method, **params):
        self.next_id += 1
        wanted = self.next_id
        self.socket.send(json.dumps({"id": wanted, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.receive())
            if message.get("id") == wanted:
                if "error" in message:
                    raise SessionError(4, f"{method}: {message['error'].get('message')}")
                return message.get("result", {})
            self.note(message)

    def note(self, message):
        method = message.get("method")
        params = message.get("params", {})
        if method == "Log.entryAdded":
            self.log.append(params["entry"].get("text", ""))
        elif method == "Runtime.consoleAPICalled":
            self.log.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"]))
        elif method == "Page.javascriptDialogOpening":
            self.log.append("dialog: " + params.get("message", ""))
            # Dismissed without waiting: its answer carries an id nobody waits for, and is skipped.
            self.next_id += 1
            self.socket.send(json.dumps({"id": self.next_id, "method": "Page.handleJavaScriptDialog",
                                         "params": {"accept": False}}))
        elif method == "Runtime.exceptionThrown":
            details = params["exceptionDetails"]
            self.log.append("exception: " + details.get("exception", {}).get("description", details.get("text", "")))

    def evaluate(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise SessionError(4, f"script failed: {expression}")
        return result["result"].get("value")

    def settle(self):
        """Lets the page's handlers run and the frame paint before the next step reads it."""
        self.evaluate("new Promise(function (done) { requestAnimationFrame(function () { setTimeout(done, 0); }); })")

    def mouse(self, kind, x, y):
        self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left", clickCount=1, buttons=1)

    def click(self, selector, at):
        place = self.evaluate(
            "(function () { var e = document.querySelector(" + json.dumps(selector) + "); if (!e) { return null; }"
            " e.scrollIntoView({block: 'center'}); var r = e.getBoundingClientRect();"
            " return [r.left, r.top, r.width, r.height]; })()"
        )
        if place is None:
            raise SessionError(4, f"nothing to click: {selector}")
        left, top, width, height = place
        x, y = left + width * at, top + height / 2
        self.call("Input.dispatchMouseEvent", type="mouseMoved", x=x, y=y)
        self.mouse("mousePressed", x, y)
        self.call("Input.dispatchMouseEvent", type="mouseReleased", x=x, y=y, button="left", clickCount=1)

    KEYS = {
        "Enter": (13, "\r"), "Escape": (27, ""), "Tab": (9, ""), " ": (32, " "), "Home": (36, ""), "End": (35, ""),
        "ArrowLeft": (37, ""), "ArrowUp": (38, ""), "ArrowRight": (39, ""), "ArrowDown": (40, ""),
    }

    def key(self, key):
        code, text = self.KEYS.get(key, (ord(key.upper()) if len(key) == 1 else 0, key if len(key) == 1 else ""))
        common = {"key": key, "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code}
        if len(key) == 1 and key.isalpha():
            common["code"] = "Key" + key.upper()
        self.call("Input.dispatchKeyEvent", type="keyDown" if text else "rawKeyDown", text=text, **common)
        self.call("Input.dispatchKeyEvent", type="keyUp", **common)


def start_browser(chromium, profile, deadline):
    browser = subprocess.Popen(
        [chromium, "--headless", "--disable-gpu", "--no-sandbox", "--no-first-run", "--disable-extensions",
         "--remote-debugging-port=0", "--remote-allow-origins=*", f"--user-data-dir={profile}",
         "--window-size=1280,1000", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    port_file = os.path.join(profile, "DevToolsActivePort")
    while True:
        if os.path.exists(port_file):
            lines = open(port_file).read().split("\n")
            if len(lines) >= 2 and lines[0].strip().isdigit():
                return browser, int(lines[0])
        if browser.poll() is not None:
            raise SessionError(3, f"chromium exited with status {browser.returncode} before it listened")
        if time.monotonic() > deadline:
            raise SessionError(3, "chromium did not write DevToolsActivePort in time")
        time.sleep(0.05)


def page_socket(port, deadline):
    while True:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        try:
            connection.request("GET", "/json/list")
            targets = json.loads(connection.getresponse().read())
        finally:
            connection.close()
        pages = [target for target in targets if target.get("type") == "page"]
        if pages:
            address = pages[0]["webSocketDebuggerUrl"]
            return WebSocket("127.0.0.1", port, address.split(str(port), 1)[1], deadline)
        if time.monotonic() > deadline:
            raise SessionError(3, "chromium opened no page")
        time.sleep(0.05)


def run(chromium, url, steps):
    deadline = time.monotonic() + DEADLINE_SECONDS
    profile = tempfile.mkdtemp(prefix="bind-report-cdp-")
    browser = None
    try:
        browser, port = start_browser(chromium, profile, deadline)
        page = Page(page_socket(port, deadline))
        for domain in ("Page", "Runtime", "Log"):
            page.call(domain + ".enable")
        page.call("Page.navigate", url=url)
        # The page's script marks <body> when it has run; one blocked by the policy never does.
        ready_by = min(deadline, time.monotonic() + READY_SECONDS)
        while page.evaluate("document.readyState === 'complete' && document.body !== null && "
                            "document.body.getAttribute('data-script') === 'ran'") is not True:
            if time.monotonic() > ready_by:
                raise SessionError(4, "the page's script did not run (no data-script on <body>); browser log: "
                                   + " | ".join(page.log))
            time.sleep(0.05)
        results = []
        for step in steps:
            if "click" in step:
                page.click(step["click"], float(step.get("at", 0.5)))
            elif "key" in step:
                page.key(step["key"])
            elif "type" in step:
                page.call("Input.insertText", text=step["type"])
            elif "size" in step:
                width, height = (int(part) for part in step["size"].split("x"))
                page.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                          mobile=False)
            elif "screenshot" in step:
                picture = page.call("Page.captureScreenshot", format="png")
                with open(step["screenshot"], "wb") as file:
                    file.write(base64.b64decode(picture["data"]))
            elif "eval" in step:
                results.append(page.evaluate(step["eval"]))
            else:
                raise SessionError(2, f"unknown step: {json.dumps(step)}")
            page.settle()
        return {"results": results, "log": page.log}
    finally:
        if browser is not None:
            try:
                os.killpg(browser.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            browser.wait()
        shutil.rmtree(profile, ignore_errors=True)


def main():
    if len(sys.argv) != 4:
        print("usage: browser-session.py CHROMIUM URL STEPS_JSON", file=sys.stderr)
        return 2
    try:
        print(json.dumps(run(sys.argv[1], sys.argv[2], json.loads(sys.argv[3]))))
        return 0
    except SessionError as error:
        print(f"browser-session: {error}", file=sys.stderr)
        return error.status
    except (OSError, ValueError) as error:
        print(f"browser-session: {error}", file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
