// Compiled by check.sh with the closure reader (Sources/Bind/Tracing/Captures) in one module, without
// reflection metadata: the reader must say it cannot read a context, not guess and not crash.
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

final class Screen {
    var title = "Swift"
}

func describe(_ references: [CapturedReference]) -> String {
    "\(references.map { "\($0.strength.rawValue) \($0.typeName)" })"
}

/// Every closure the test passes is concrete, so it reaches the reader wrapped in a reabstraction thunk,
/// whose context lacks a descriptor too: each read must be one unknown entry. A closure without a context
/// must still read as empty. Built with its metadata (`-D CAPTURES_WITH_METADATA`, the control run), the
/// same closures read as the instance they hold.
func check() -> Bool {
    let screen = Screen()
    let count = Int.random(in: 1...9)
    let described: (Int) -> Void = { _ in _ = (screen, count) }
    let lone: (Int) -> Void = { _ in _ = screen.title }
    let nothing: (Int) -> Int = { $0 + 1 }
    #if CAPTURES_WITH_METADATA
    let object = UnsafeRawPointer(Unmanaged.passUnretained(screen).toOpaque())
    let expected = [CapturedReference(strength: .strong, typeName: "Screen", object: object)]
    #else
    let expected = [CapturedReference(strength: .unknown, typeName: "<no capture metadata>", object: nil)]
    #endif
    let results = [
        ("two captures", ClosureCaptures.references(of: described), expected),
        ("one instance", ClosureCaptures.references(of: lone), expected),
        ("no context", ClosureCaptures.references(of: nothing), []),
    ]
    var passed = true
    for (name, got, expected) in results {
        print("\(name): \(describe(got))\(got == expected ? "" : " (expected \(describe(expected)))")")
        passed = passed && got == expected
    }
    return passed
}

if !check() {
    print("FAIL")
    exit(1)
}
print("ok")
