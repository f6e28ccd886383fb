#!/usr/bin/env python3
"""Writes the hand-made seeds of the fuzz corpora (Fuzz/corpus/{traces,replay,labels}/hand-*).

Each seed is a small trace in the format of docs/trace-format.md aimed at one edge case: cut
records, huge lengths, string redefinitions, unknown tags, deep cause chains, hostile strings.
Record tags come from the one table of them, Sources/BindTraceFormat/EventKinds.toml,
read by name (TAG["update"]): a seed never spells a tag's number.
Usage: Fuzz/make-seeds.py Fuzz/corpus (or --tags: print the table as read, one `name=value` a line)
"""
import os
import sys
import tomllib

MAGIC = b"BINDTRC\x1a"
FORMAT_TABLE = os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "Sources", "BindTraceFormat", "EventKinds.toml")


def read_tags(path=FORMAT_TABLE):
    """The record tags by name, in tag order, from the format's one table of them (EventKinds.toml)."""
    with open(path, "rb") as file:
        table = tomllib.load(file)
    tags = {entry["record"]: entry["tag"] for entry in table.get("metadata", []) + table.get("event", [])}
    if not tags:
        sys.exit(f"make-seeds.py: {path}: no records")
    return dict(sorted(tags.items(), key=lambda item: item[1]))


TAG = read_tags()


def varint(value):
    out = bytearray()
    while value >= 0x80:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class Trace:
    def __init__(self, major=1, minor=0):
        self.data = bytearray(MAGIC + major.to_bytes(2, "little") + minor.to_bytes(2, "little") + b"\0\0\0\0")
        self.next_string = 1

    def record(self, tag, fields=(), trailing=b""):
        payload = b"".join(varint(f) for f in fields) + trailing
        self.data += bytes([tag]) + varint(len(payload)) + payload
        return self

    def clock(self, ticks=1000, ns=5000, rate=1_000_000_000):
        return self.record(TAG["clock"], [ticks, ns, rate])

    def string(self, text):
        sid = self.next_string
        self.next_string += 1
        self.record(TAG["string"], [sid], text if isinstance(text, bytes) else text.encode("utf-8"))
        return sid

    def thread(self, number, name_id=0):
        return self.record(TAG["thread"], [number, name_id])

    def end(self):
        return self.record(TAG["end"])

    # Events: tick delta first.
    def created(self, output, kind, type_id, file_id, line, label=0, scope=0, pre=0, cause=None):
        return self.record(TAG["outputCreated"], [1, output, kind, type_id, file_id, line, label, scope, pre] + cause_fields(cause))

    def edge(self, source, derived, kind):
        return self.record(TAG["edge"], [1, source, derived, kind])

    def switch(self, flatmap, inner):
        return self.record(TAG["innerSwitch"], [1, flatmap, inner])

    def bound(self, sub, output, file_id, line, flags=0, target=None, scope=0, cause=None):
        fields = [1, sub, output, file_id, line, flags]
        if flags & 2:
            fields += list(target)
        return self.record(TAG["bound"], fields + [scope] + cause_fields(cause))

    def update(self, output, cause=None, preview=None, tag=TAG["update"]):
        fields = [1, output] + cause_fields(cause) + [0 if preview is None else 1]
        return self.record(tag, fields, b"" if preview is None else preview)

    def unbound(self, sub, reason, cause=None):
        return self.record(TAG["unbound"], [1, sub, reason] + cause_fields(cause))


def cause_fields(cause):
    # (back, subscription) or None
    return [0] if cause is None else [cause[0], cause[1]]


def kitchen_sink(hostile=False):
    """Every record kind once or more, with the strings a real recording writes."""
    t = Trace()
    t.clock()
    main = t.string("App/SignIn.swift")
    name = t.string("main-thread")
    t.thread(1, name)
    string_type = t.string("String")
    label = t.string('<b>"name"</b> & \\N \\G {x} | ; \u2028 \x01\x1b[31m' if hostile else "name")
    t.created(1, 0, string_type, main, 3, label=label)  # 1
    int_type = t.string("Int")
    t.created(2, 4, int_type, main, 5)  # 2
    t.edge(1, 2, 4)  # 3
    t.bound(1, 1, main, 5, flags=1)  # 4
    t.bound(2, 2, main, 7, scope=0)  # 5
    screen = t.string("Screen<T>" if not hostile else "Screen<\"&'>\"")
    t.bound(3, 1, main, 8, flags=2, target=(screen, 0x7F00_1234_5678))  # 6
    scope_name = t.string("sign-in screen" if not hostile else "</script><script>alert(1)</script>")
    t.record(TAG["scopeBegin"], [1, 1, 0, scope_name, main, 11])  # 7
    t.created(3, 1, t.string("()"), main, 12, scope=1)  # 8 relay
    t.created(4, 5, int_type, main, 13, scope=1)  # 9 flatMap
    t.switch(4, 2)  # 10
    t.bound(4, 3, main, 14, scope=1)  # 11
    t.update(3, tag=TAG["fire"], preview=b"()")  # 12
    t.update(1, cause=(1, 4), preview=b"Grace" if not hostile else b"\xff\xfe<&>\"\\\n\x00")  # 13
    t.update(2, cause=(1, 1), preview=b"5")  # 14
    t.record(TAG["dangling"], [1, 3])  # 15
    mark = t.string("before tap")
    t.record(TAG["mark"], [1, mark, 1])  # 16
    t.record(TAG["label"], [1, 2, t.string("length")])  # 17
    t.unbound(2, 2)  # 18
    t.record(TAG["scopeEnd"], [1, 1])  # 19
    t.unbound(4, 3)  # 20
    t.record(TAG["released"], [1, 3])  # 21
    t.record(TAG["lost"], [3])
    t.clock(ticks=900, ns=4000)  # a clock going backwards
    t.update(1)  # 22
    t.end()
    return t


def seeds():
    yield "empty", b""
    yield "header-cut", bytes(Trace().data[:10])
    yield "header-only", bytes(Trace().data)
    yield "major-2", bytes(Trace(major=2).data)
    yield "not-a-trace", b"hello, this is not a trace at all\n"
    sink = kitchen_sink()
    yield "every-kind", bytes(sink.data)
    yield "every-kind-cut", bytes(sink.data[:-7])
    yield "every-kind-cut-in-length", bytes(sink.data[: len(sink.data) - 1]) + bytes([TAG["update"], 0x80])
    yield "hostile-strings", bytes(kitchen_sink(hostile=True).data)

    t = Trace().clock()
    t.data += bytes([TAG["update"]]) + varint(4 << 30) + b"\0\0\0"
    yield "huge-length", bytes(t.data)
    t = Trace().clock()
    t.data += bytes([TAG["update"]]) + b"\xff" * 12
    yield "endless-varint", bytes(t.data)
    t = Trace().clock()
    t.data += bytes([TAG["update"]]) + b"\x80" * 9 + b"\x02" + b"\x01\x01\x00\x00"
    yield "overflowing-length", bytes(t.data)
    t = Trace().clock()
    t.record(TAG["update"], [1] + [0xFFFFFFFFFFFFFFFF] + [0, 0])
    yield "max-varint-field", bytes(t.data)

    t = Trace()
    t.record(TAG["string"], [1], b"a")
    t.record(TAG["string"], [1], b"b")
    yield "string-redefined", bytes(t.data)
    t = Trace()
    t.record(TAG["string"], [2], b"b")
    yield "string-out-of-order", bytes(t.data)
    t = Trace().clock()
    t.record(TAG["mark"], [1, 99, 0])
    yield "string-undefined", bytes(t.data)

    t = Trace(minor=7).clock()
    unknown = [tag for tag in (9, 200, 0, 255) if tag not in TAG.values()]
    assert len(unknown) == 4, "the unknown-tags seed needs tags the format does not define"
    t.record(9, [1, 2, 3]).record(200, [], b"future payload").record(0, []).record(255, [1])
    t.update(1).record(9, [4]).end()
    yield "unknown-tags", bytes(t.data)

    t = Trace().clock()
    t.created(1, 0, 0, 0, 1)
    t.bound(1, 1, 0, 2)
    for _ in range(600):
        t.update(1, cause=(1, 1))
    t.end()
    yield "deep-cause-chain", bytes(t.data)

    t = Trace().clock()
    t.created(1, 0, 0, 0, 1)
    t.bound(1, 1, 0, 2)
    t.update(1, cause=(5, 1))  # before the start
    yield "cause-before-start", bytes(t.data)

    t = Trace().clock(rate=0)
    yield "clock-rate-zero", bytes(t.data)
    t = Trace().clock(ticks=2**64 - 1, ns=2**64 - 1, rate=1)
    t.update(1)
    t.clock(ticks=0, ns=0, rate=2**64 - 1)
    t.update(1)
    yield "clock-extremes", bytes(t.data)

    t = Trace().clock()
    for number in (1, 2, 1, 2**32, 3):
        t.thread(number)
        t.update(number)
    yield "threads", bytes(t.data)

    # Thread numbers no recorder hands out, nested on each other's heels (docs/hardening.md, finding 9).
    t = Trace().clock()
    for number in (1, 0xE0000000, 2**32 - 1, 1, 0xE0000000):
        t.thread(number)
        t.update(number % 7)
    yield "threads-huge", bytes(t.data)

    t = Trace().clock()
    t.record(TAG["unbound"], [1, 1, 200, 0])
    yield "bad-unbind-reason", bytes(t.data)
    t = Trace().clock()
    t.record(TAG["edge"], [1, 1, 2, 99])
    yield "bad-output-kind", bytes(t.data)
    t = Trace().clock()
    t.record(TAG["clock"], [1])
    yield "clock-short", bytes(t.data)
    t = Trace().clock().end()
    t.update(1)
    yield "events-after-end", bytes(t.data)

    # The hostile shapes of a real app and of an attacker, each near the fuzzers' -max_len (64 KiB).
    t = Trace(minor=1).clock()
    source, name = t.string("App/Cell.swift"), t.string("cell 3")
    t.record(TAG["scopeBegin"], [1, 1, 0, name, source, 10])
    t.created(1, 0, 0, source, 3)
    t.bound(1, 1, source, 12, scope=1)
    t.record(TAG["contained"], [1, 1, 7])  # in container 7
    t.bound(2, 1, source, 13, scope=1)
    t.record(TAG["handleReleased"], [1, 2])  # nothing can unbind subscription 2
    t.record(TAG["scopeEnd"], [1, 1])
    t.record(TAG["handleReleased"], [1, 99])  # the handle of a subscription never bound
    t.end()
    yield "handles-1.1", bytes(t.data)

    # Call sites of root updates (1.3): a site record (30) and the calledAt event (31) after the update.
    t = Trace(minor=3).clock()
    source = t.string("App/Model.swift")
    t.created(1, 0, 0, source, 3)
    t.record(30, [1, source, 40])  # site 1: App/Model.swift:40
    t.update(1)
    t.record(31, [1, 1, 1])  # the update one event back was called at site 1
    t.record(31, [1, 99, 1])  # an event before the trace's first
    t.record(31, [1, 1, 7])  # an undefined site
    t.record(30, [5, source, 41])  # a gap in site ids (lost with a failed write): accepted
    t.record(30, [2, source, 42])  # a site defined out of order
    t.end()
    yield "call-sites-1.3", bytes(t.data)
    # A delivery Bind deferred past its nesting limit resumes (1.4): the resumed event (33) opens the
    # delivery's frame again inside its own cause, and the deferred update names that delivery.
    t = Trace(minor=4).clock()
    source = t.string("App/Chain.swift")
    t.created(1, 0, 0, source, 3)  # 1
    t.created(2, 4, 0, source, 4)  # 2 map
    t.edge(1, 2, 4)  # 3
    t.bound(1, 1, source, 4, flags=1)  # 4
    t.created(3, 4, 0, source, 5)  # 5 map
    t.edge(2, 3, 4)  # 6
    t.bound(2, 2, source, 5, flags=1)  # 7
    t.update(1)  # 8 root
    t.update(2, cause=(1, 1))  # 9 (its delivery to subscription 2 deferred)
    t.update(1)  # 10 another root
    t.record(TAG["resumed"], [1, 2, 2, 0])  # 11: the delivery of event 9 to subscription 2 resumes, at top level
    t.update(3, cause=(2, 2))  # 12: caused by event 9
    t.record(TAG["resumed"], [1, 50, 2, 1, 1])  # 13: a delivery before the trace, inside event 12
    t.record(TAG["resumed"], [1, 1, 77, 0])  # 14: a subscription never bound
    t.end()
    yield "resumed-1.4", bytes(t.data)
    # A flight recording's later segment ended by SIGTERM (1.4): writer, window (100 events before
    # it, 60 of them in the previous segment, which began at 1,000 ns; segment 3), the signal record.
    t = Trace(minor=4)
    t.record(8, [4242, 4200, 4000])
    t.record(TAG["window"], [100, 60, 1000, 3])
    t.clock()
    source = t.string("App/Model.swift")
    t.created(1, 0, 0, source, 3, pre=1)  # made before the window: preexisting
    t.update(1)
    t.record(TAG["window"], [5, 9, 0, 1])  # more in the previous segment than before it: malformed
    t.record(TAG["signal"], [15])
    t.end()
    yield "flight-window-1.4", bytes(t.data)
    # 1.2: a file's writer and continues records, numbered chunks (one written twice, one skipping
    # numbers), exact lost counts, and a combine that stopped.
    t = Trace(minor=2)
    t.record(8, [4242, 4200, 4000])  # writer
    t.record(7, [0, 100, 7], b"/tmp/run.trace")  # continues a deleted file
    chunk = Trace(minor=2)
    chunk.clock()
    main = chunk.string("App/Form.swift")
    chunk.created(1, 0, 0, main, 3)
    chunk.created(2, 0, 0, main, 4)
    chunk.created(3, 2, 0, main, 5)  # combine
    chunk.edge(1, 3, 2)
    chunk.edge(2, 3, 2)
    chunk.bound(1, 3, main, 6)
    body = bytes(chunk.data[16:])
    t.record(6, [1, 1, len(body)])  # chunk 1: events 1…6
    t.data += body
    again = bytearray()
    second = Trace(minor=2)
    second.record(18, [1, 1])  # 7 released
    second.record(25, [1, 3, 1])  # 8 stopped: the combine's source 1 was released
    second.record(5, [3])  # lost 3 (numbers 9…11)
    second.update(2)  # 12: dropped by the stopped combine
    body = bytes(second.data[16:])
    again += bytes([6]) + varint(len(varint(2) + varint(7) + varint(len(body)))) + varint(2) + varint(7) + varint(len(body))
    again += body
    t.data += again
    t.data += again  # chunk 2 written twice
    t.record(6, [3, 20, 0])  # chunk 3 starts past the next number: 7 events missing, nothing says why
    t.record(25, [1, 99, 98])  # stopped, of Outputs never created
    t.end()
    yield "chunks-1.2", bytes(t.data)

    # What bound closures capture (1.4): a strong capture holding an Output through a property
    # path, a weak one, an unreadable one; then hostile counts and an unknown strength.
    t = Trace(minor=4).clock()
    source = t.string("App/Screen.swift")
    screen = t.string("Screen")
    path = t.string(".model.title")
    t.created(1, 0, 0, source, 3)
    t.bound(1, 1, source, 7)
    t.record(TAG["captured"], [1, 1, 3, 0, screen, 4096, 1, path, 1, 1, screen, 0, 0, 3, screen, 0, 0])
    t.record(TAG["captured"], [1, 1, 1, 9, screen, 0, 0])  # an unknown strength
    t.record(TAG["captured"], [1, 1, 100000])  # more captures than any closure has
    t.record(TAG["captured"], [1, 99, 0])  # of a subscription never bound
    t.end()
    yield "captures-1.4", bytes(t.data)

    t = Trace().clock()
    t.created(1, 0, 0, 0, 1)
    for sub in range(1, 1501):
        t.bound(sub, 1, 0, sub)
    t.update(1)
    t.record(TAG["released"], [1, 1])  # with 1,500 still bound
    t.end()
    yield "wide-fan", bytes(t.data)

    t = Trace().clock()
    t.created(1, 0, 0, 0, 1)
    for output in range(2, 1201):
        t.created(output, 4, 0, 0, output)
        t.edge(output - 1, output, 4)
        t.bound(output, output - 1, 0, output, flags=1)
    t.update(1)
    t.record(TAG["released"], [1, 1])
    t.end()
    yield "long-chain", bytes(t.data)

    t = Trace().clock()
    label = t.string("x" * 16_000)
    for output in range(1, 201):
        t.created(output, 0, 0, 0, output, label=label)
        t.bound(output, output, 0, 1000 + output)
    t.end()
    yield "repeated-long-label", bytes(t.data)

    t = Trace().clock()
    t.string("y" * 16_385)
    t.end()
    yield "string-over-limit", bytes(t.data)

    t = Trace().clock()
    t.created(1, 0, 0, 0, 1)
    t.bound(1, 1, 0, 2)
    for _ in range(6000):
        t.update(1, cause=(1, 1))
    t.end()
    yield "deeper-cause-chain", bytes(t.data)


def replay_seeds():
    """Event programs for FuzzAnalysis (see Fuzz/Sources/FuzzSupport/EventProgram.swift)."""
    # opcode % 16: 0 created, 2 edge, 3 switch, 4 bound, 6 update, 8 fire, 9 unbound, 10 dangling,
    # 11 released, 12 scopeBegan, 13 scopeEnded, 14 mark, 15 labeled.
    created = lambda o, scope=1: bytes([0, o, 0, 2, 1, 5, 0, scope, 1, 0])
    bound = lambda s, o, flags=0: bytes([4, flags, s, o, 1, 9, 1, 1, 0]) if not flags & 2 else bytes([4, flags, s, o, 1, 9, 3, 1, 1, 1, 0])
    update = lambda o, back=0, sub=0: bytes([6, o, back, sub, 1]) if back else bytes([6, o, 0, 1])
    yield "leak-in-scope", bytes([12, 1, 0, 5, 1, 3]) + created(1) + bound(1, 1) + bytes([13, 1]) + b"\x01"
    yield "feedback-cycle", created(1) + created(2) + bound(1, 1) + bound(2, 2) + update(1) + update(2, 1, 1) + update(1, 1, 2) + update(2, 1, 1)
    yield "structural-cycle", created(1) + created(2) + bytes([2, 1, 2, 4, 2, 2, 1, 4])
    yield "duplicate-binder", created(1) + bound(1, 1, 2) + bound(2, 1, 2) + update(1) + bytes([10, 1, 11, 1])
    yield "unbind-unknown", bytes([9, 5, 0, 0, 11, 3, 11, 3, 13, 2, 3, 7, 7])
    yield "flatmap-switch", created(1) + created(2) + created(3) + bytes([3, 3, 1, 3, 3, 2, 9, 1, 2, 0])


def label_seeds():
    """Texts for FuzzLabels: a flags byte, then texts separated by 0xFF."""
    texts = [
        b"<script>alert(1)</script>", b"\\N \\G \\L \\", b"a & b \"c\" 'd' <e>", b"]]> --> <!-- <![CDATA[",
        b"\x00\x01\x1b[31m\x7f", "\u202eevil\u2066".encode(), b"\xff\xfe\xc3", "e\u0301\u0301\u0301\u0301".encode(),
        "line\nbreak\r\n\u2028".encode(), b"x" * 300,
    ]
    yield "hostile-texts", bytes([1]) + b"\xff".join(texts)
    yield "no-graph", bytes([0]) + b"\xff".join(texts[:3])
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script><g onload="x()"><a href="javascript:x()"><text>t</text></a></g><foreignObject><p>x</p></foreignObject></svg>'
    yield "raw-svg", bytes([2]) + svg
    yield "raw-svg-tricks", bytes([2]) + b'<svg><SCRIPT>1</SCRIPT><g ONCLICK="1"/><!x <script>1</script>><svg:script>1</svg:script></svg>'


def write(directory, prefix, pairs):
    os.makedirs(directory, exist_ok=True)
    for name, data in pairs:
        with open(os.path.join(directory, prefix + name), "wb") as file:
            file.write(data)


def main():
    """Usage: make-seeds.py CORPUS_DIRECTORY (writes traces/, replay/ and labels/ in it)."""
    if sys.argv[1:] == ["--tags"]:
        for name, value in TAG.items():
            print(f"{name}={value}")
        return
    if len(sys.argv) != 2 or sys.argv[1].startswith("-"):
        # An option it does not know is not a directory to write into (a `--help` folder once was).
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        sys.exit(0 if sys.argv[1:] in (["--help"], ["-h"]) else 2)
    corpus = sys.argv[1]
    write(os.path.join(corpus, "traces"), "hand-", ((n + ".trace", d) for n, d in seeds()))
    write(os.path.join(corpus, "replay"), "hand-", replay_seeds())
    write(os.path.join(corpus, "labels"), "hand-", label_seeds())


if __name__ == "__main__":
    main()
