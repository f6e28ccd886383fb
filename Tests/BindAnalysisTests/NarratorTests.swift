import Bind
@_spi(Harness) import BindAnalysis
@_spi(Harness) import BindTraceModel
import Testing

@Suite("Narrator: names from what the user wrote")
struct NarratorTests {
    let site = SourceSite(file: "App/Feed.swift", line: 12)

    @Test("an Output is its label, else its kind, value type and creation site")
    func outputNames() {
        #expect(
            Narrator.name(kind: .map, valueType: "String", site: site, label: nil) == "map → String at Feed.swift:12")
        #expect(
            Narrator.name(kind: .output, valueType: "Int", site: site, label: nil) == "Output<Int> at Feed.swift:12")
        #expect(Narrator.name(kind: .relay, valueType: "()", site: site, label: nil) == "Relay<()> at Feed.swift:12")
        #expect(Narrator.name(kind: .map, valueType: "String", site: site, label: "title") == "'title' (String)")
    }

    @Test("a path folds each run of identical steps into one with its count, before its site")
    func foldedPath() {
        let hop = Narrator.name(
            kind: .map, valueType: "Int", site: SourceSite(file: "App/Others.swift", line: 51), label: nil)
        let path = ["'root' (Int)"] + Array(repeating: hop, count: 7) + ["'sum' (Int)", "'sum' (Int)", "closure"]

        #expect(Narrator.path(path) == "'root' (Int) → map → Int ×7 at Others.swift:51 → 'sum' (Int) ×2 → closure")
        #expect(Narrator.path(["a", "b", "a"]) == "a → b → a")
        #expect(Narrator.path([String]()) == "")
    }

    @Test("a subscription says what was bound and where; a Binder target loses its module")
    func subscriptionNames() {
        let target = BinderTarget(type: "App.Label", identity: 7)
        #expect(Narrator.name(of: target) == "Label")
        #expect(
            Narrator.name(of: BinderTarget(type: "Swift.Array<App.Label>", identity: 7)) == "Swift.Array<App.Label>")
        #expect(Narrator.what(target: target) == "Binder to Label")
        #expect(Narrator.what(target: nil) == "closure")
    }

    @Test("durations and counts read naturally")
    func durationsAndCounts() {
        #expect(Narrator.duration(nanoseconds: 500) == "less than 1 ms")
        #expect(Narrator.duration(nanoseconds: 850_000_000) == "850 ms")
        #expect(Narrator.duration(nanoseconds: 3_240_000_000) == "3.2 s")
        #expect(Narrator.duration(nanoseconds: 240_000_000_000) == "4 min")
        #expect(Narrator.count(1, "update") == "1 update")
        #expect(Narrator.count(3, "update") == "3 updates")
    }
}
