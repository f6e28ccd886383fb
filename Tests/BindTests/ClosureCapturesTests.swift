#if Tracing
@testable import Bind
import Foundation
import Testing

// What a bound closure holds, read in process (Sources/Bind/Tracing/Captures, docs/captures.md). Each
// closure is stored in a variable first, as `bind` receives it: an escaping closure with a heap context.

final class ArticleScreen {
    var title = "Swift"
    func handle(_ value: Int) { _ = value }
}

final class ArticleViewModel {}

final class ArticleSession: Sendable {}

struct ArticleState {
    var screen: ArticleScreen
    var count: Int
    func handle(_ value: Int) { _ = (screen, count, value) }
}

actor ArticleCounter {
    nonisolated func describe(_ value: Int) -> String { String(value) }
}

protocol ArticleRendering: AnyObject {}
extension ArticleScreen: ArticleRendering {}

private func address(of object: AnyObject) -> UnsafeRawPointer {
    UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
}

private func strong(_ object: AnyObject, _ typeName: String) -> CapturedReference {
    CapturedReference(strength: .strong, typeName: typeName, object: address(of: object))
}

private func freeFunction(_ value: Int) { _ = value }

/// A closure stored as `(T) -> Void` in a generic class, as `Output<Value>` stores what `bind` receives.
private final class GenericHolder<T> {
    let closure: (T) -> Void
    init(_ closure: @escaping (T) -> Void) { self.closure = closure }
    func captures() -> [CapturedReference] { ClosureCaptures.references(of: closure) }
}

/// Created inside a generic function that is never specialised, so its context records a generic capture.
@_semantics("optimize.sil.specialize.generic.never")
@inline(never)
private func makeGenericClosure<T>(capturing value: T) -> (Int) -> Void {
    { _ in _ = value }
}

/// Metadata shaped like what `-disable-reflection-metadata` emits for a closure context (kind 0x400, first
/// capture at 16, no capture descriptor). Never freed: the reader caches layouts by metadata address.
nonisolated(unsafe) private let metadataWithoutDescriptor: UnsafeMutableRawPointer = {
    let word = MemoryLayout<UInt>.size
    let metadata = UnsafeMutableRawPointer.allocate(byteCount: 3 * word, alignment: word)
    metadata.storeBytes(of: 0x400, as: UInt.self)
    metadata.storeBytes(of: UInt(16), toByteOffset: word, as: UInt.self)
    metadata.storeBytes(of: 0, toByteOffset: 2 * word, as: UInt.self)
    return metadata
}()

@Suite("What a closure captures")
struct ClosureCapturesTests {
    @Test("a closure that captures nothing, and a plain function, hold nothing")
    func capturesNothing() {
        let closure: (Int) -> Int = { $0 + 1 }
        #expect(ClosureCaptures.references(of: closure).isEmpty)
        #expect(ClosureCaptures.references(of: freeFunction).isEmpty)
    }

    @Test("a closure capturing one instance (its own context) holds it strongly")
    func oneInstance() {
        let screen = ArticleScreen()
        let closure: (Int) -> Void = { _ in _ = screen.title }
        #expect(ClosureCaptures.references(of: closure) == [strong(screen, "ArticleScreen")])
    }

    @Test("an instance captured beside an Int is the only reference")
    func instanceAndInt() {
        let screen = ArticleScreen()
        let count = Int.random(in: 1...9)
        let closure: (Int) -> Int = { screen.title.count + count + $0 }
        #expect(ClosureCaptures.references(of: closure) == [strong(screen, "ArticleScreen")])
    }

    @Test("[weak self] is weak, with the type and no address")
    func weakCapture() {
        let screen = ArticleScreen()
        let closure: (Int) -> Void = { [weak screen] _ in _ = screen?.title }
        #expect(
            ClosureCaptures.references(of: closure) == [
                CapturedReference(strength: .weak, typeName: "ArticleScreen", object: nil)
            ])
        withExtendedLifetime(screen) {}
    }

    @Test("[unowned self] and unowned(unsafe) are unowned, with the instance's address")
    func unownedCapture() {
        let screen = ArticleScreen()
        let safe: (Int) -> Void = { [unowned screen] _ in _ = screen.title }
        let unsafe: (Int) -> Void = { [unowned(unsafe) screen] _ in _ = screen.title }
        let expected = [CapturedReference(strength: .unowned, typeName: "ArticleScreen", object: address(of: screen))]
        #expect(ClosureCaptures.references(of: safe) == expected)
        #expect(ClosureCaptures.references(of: unsafe) == expected)
        withExtendedLifetime(screen) {}
    }

    @Test("two strong instances are both reported")
    func twoInstances() {
        let screen = ArticleScreen()
        let model = ArticleViewModel()
        let closure: (Int) -> Void = { _ in _ = (screen, model) }
        let references = ClosureCaptures.references(of: closure)
        #expect(references.count == 2)
        #expect(references.contains(strong(screen, "ArticleScreen")))
        #expect(references.contains(strong(model, "ArticleViewModel")))
    }

    @Test("a captured struct reports its class fields as strong")
    func structCapture() {
        let screen = ArticleScreen()
        let state = ArticleState(screen: screen, count: 2)
        let closure: (Int) -> Void = { _ in _ = state.count }
        #expect(ClosureCaptures.references(of: closure) == [strong(screen, "ArticleScreen")])
    }

    @Test("a captured var is read through its box: what it holds now")
    func boxedVar() {
        var screen = ArticleScreen()
        var count = 0
        let closure: (Int) -> Void = { count += $0 }
        let holder: (Int) -> Void = { _ in screen = ArticleScreen() }
        #expect(ClosureCaptures.references(of: closure).isEmpty)
        #expect(ClosureCaptures.references(of: holder) == [strong(screen, "ArticleScreen")])
        withExtendedLifetime((count, screen)) {}
    }

    @Test("a closure made in a generic function is unknown (generic context), never a guess")
    func genericContext() {
        let screen = ArticleScreen()
        let closure = makeGenericClosure(capturing: screen)
        #expect(
            ClosureCaptures.references(of: closure) == [
                CapturedReference(strength: .unknown, typeName: "<generic>", object: nil)
            ])
    }

    @Test("a closure capturing a closure reports what the inner one holds")
    func nestedClosures() {
        let screen = ArticleScreen()
        let count = Int.random(in: 1...9)
        let inner: (Int) -> Int = { screen.title.count + count + $0 }
        let outer: (Int) -> Int = { inner($0) * 2 }
        #expect(ClosureCaptures.references(of: outer) == [strong(screen, "ArticleScreen")])
    }

    @Test("@Sendable closures, and async closures captured by another, are read alike")
    func sendableAndAsync() {
        let session = ArticleSession()
        let model = ArticleViewModel()
        let sendable: @Sendable (Int) -> Void = { [unowned session] _ in _ = session }
        let work: (Int) async -> Void = { _ in _ = model }
        let caller: (Int) -> Void = { _ in _ = work }
        #expect(
            ClosureCaptures.references(of: sendable) == [
                CapturedReference(strength: .unowned, typeName: "ArticleSession", object: address(of: session))
            ])
        #expect(ClosureCaptures.references(of: caller) == [strong(model, "ArticleViewModel")])
    }

    @Test("an autoclosure captured by a closure is followed")
    func autoclosure() {
        let screen = ArticleScreen()
        func deferred(_ value: @autoclosure @escaping () -> String) -> (Int) -> String {
            { _ in value() }
        }
        let closure = deferred(screen.title)
        #expect(ClosureCaptures.references(of: closure) == [strong(screen, "ArticleScreen")])
    }

    @Test("method references capture the receiver: a class, a struct's class fields, an actor")
    func methodReferences() {
        let screen = ArticleScreen()
        let state = ArticleState(screen: screen, count: 1)
        let counter = ArticleCounter()
        let onClass: (Int) -> Void = screen.handle
        let onStruct: (Int) -> Void = state.handle
        let onActor: (Int) -> String = counter.describe
        #expect(ClosureCaptures.references(of: onClass) == [strong(screen, "ArticleScreen")])
        #expect(ClosureCaptures.references(of: onStruct) == [strong(screen, "ArticleScreen")])
        #expect(ClosureCaptures.references(of: onActor) == [strong(counter, "ArticleCounter")])
    }

    @Test("a closure stored as (T) -> Void in a generic class is read through its reabstraction thunk")
    func throughGenericHolder() {
        let screen = ArticleScreen()
        let count = Int.random(in: 1...9)
        let holder = GenericHolder<Int> { _ in _ = (screen, count) }
        let lone = GenericHolder<String> { _ in _ = screen }
        #expect(holder.captures() == [strong(screen, "ArticleScreen")])
        #expect(lone.captures() == [strong(screen, "ArticleScreen")])
    }

    @Test("two-argument closures (combine's transforms) are read alike")
    func twoArguments() {
        let screen = ArticleScreen()
        let combine: (Int, String) -> String = { _, text in screen.title + text }
        #expect(ClosureCaptures.references(of: combine) == [strong(screen, "ArticleScreen")])
    }

    @Test("existentials and Optionals give the instance they hold, with its dynamic type")
    func existentialsAndOptionals() {
        let screen = ArticleScreen()
        let model = ArticleViewModel()
        let count = Int.random(in: 1...9)
        let anything: Any = screen
        let object: AnyObject = model
        let rendering: any ArticleRendering = screen
        let maybe: ArticleViewModel? = model
        let none: ArticleViewModel? = nil
        let closure: (Int) -> Void = { _ in _ = (anything, object, rendering, maybe, none, count) }
        #expect(
            ClosureCaptures.references(of: closure) == [
                strong(screen, "ArticleScreen"), strong(model, "ArticleViewModel"), strong(screen, "ArticleScreen"),
                strong(model, "ArticleViewModel"),
            ])
    }

    @Test("a captured array is unknown: its elements are not read")
    func arrayCapture() {
        let screens = [ArticleScreen()]
        let count = Int.random(in: 1...9)
        let closure: (Int) -> Void = { _ in _ = (screens, count) }
        #expect(
            ClosureCaptures.references(of: closure) == [
                CapturedReference(strength: .unknown, typeName: "<Array<ArticleScreen>>", object: nil)
            ])
    }

    @Test("a second read of the same closure expression (cached layout) reads each instance's own words")
    func cachedLayout() {
        func make(_ screen: ArticleScreen) -> (Int) -> Void {
            let count = Int.random(in: 1...9)
            return { _ in _ = (screen, count) }
        }
        let first = ArticleScreen()
        let second = ArticleScreen()
        let firstClosure = make(first)
        let secondClosure = make(second)
        #expect(ClosureCaptures.references(of: firstClosure) == [strong(first, "ArticleScreen")])
        #expect(ClosureCaptures.references(of: secondClosure) == [strong(second, "ArticleScreen")])
        #expect(ClosureCaptures.references(of: firstClosure) == [strong(first, "ArticleScreen")])
    }

    @Test("a context whose metadata has no capture descriptor is unknown")
    func missingDescriptor() {
        // Given HeapLocalVariable metadata as -disable-reflection-metadata emits it: no descriptor
        let word = MemoryLayout<UInt>.size
        let metadata = metadataWithoutDescriptor
        let context = UnsafeMutableRawPointer.allocate(byteCount: 4 * word, alignment: word)
        context.initializeMemory(as: UInt.self, repeating: 0, count: 4)
        context.storeBytes(of: UnsafeRawPointer(metadata), as: UnsafeRawPointer.self)
        defer { context.deallocate() }
        // When its captures are read
        var references: [CapturedReference] = []
        ClosureCaptures.appendReferences(inContext: context, depth: 0, to: &references)
        // Then
        #expect(references == [CapturedReference(strength: .unknown, typeName: "<no capture metadata>", object: nil)])
    }
}
// MARK: - Retain paths

/// Stands in for an Output: what the walk looks for.
final class WalkTarget {
    let id: UInt64
    init(_ id: UInt64) { self.id = id }
}

final class WalkViewModel {
    let title = WalkTarget(1)
    var next: WalkViewModel?
}

final class WalkScreen {
    var viewModel = WalkViewModel()
}

final class WeakHolder {
    weak var viewModel: WalkViewModel?
    unowned var owner: WalkScreen
    unowned(unsafe) var unsafeOwner: WalkScreen
    init(viewModel: WalkViewModel, owner: WalkScreen) {
        self.viewModel = viewModel
        self.owner = owner
        self.unsafeOwner = owner
    }
}

final class CollectionsHolder {
    var rows: [WalkViewModel] = []
    var byName: [String: WalkTarget] = [:]
    var maybe: WalkViewModel?
    var pair: (Int, WalkTarget)?
    var anything: Any = 0
}

enum LoadState {
    case idle
    case loaded(WalkViewModel)
}

final class StateHolder {
    var state = LoadState.idle
}

final class LazyHolder {
    nonisolated(unsafe) static var made = 0
    lazy var viewModel: WalkViewModel = {
        LazyHolder.made += 1
        return WalkViewModel()
    }()
}

final class ClosureHolder {
    var onTap: (Int) -> Void = { _ in }
}

private func targetID(_ object: AnyObject) -> UInt64? { (object as? WalkTarget)?.id }

/// A thread-safe store, as apps write them: a lock, and `var`s other threads change under it.
final class LockedStore: @unchecked Sendable {
    private let lock = NSLock()
    let title = WalkTarget(2)
    let storage = WalkViewModel()
    private var current = WalkTarget(3)
    private var rows: [WalkViewModel] = []

    func replace(with rows: [WalkViewModel]) {
        lock.withLock {
            self.rows = rows
            current = WalkTarget(UInt64(rows.count))
        }
    }
}

/// Shared, but its only `var` is a number: nothing is left unread that could hold an Output.
final class CountingStore: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    let title = WalkTarget(8)
}

/// A view's label, thread-safe: its text is in a lock wrapper, which cannot hold a target.
final class SharedLabel: @unchecked Sendable {
    private let text = Locked("")
    private var tapCount = 0
}

/// Shared, with rows that could hold targets: `[WalkViewModel]` is told by its element type.
final class SharedRows: @unchecked Sendable {
    private let lock = NSLock()
    private var rows: [WalkViewModel] = []
    private var names: [String] = []
}

/// Its lock sits in a struct with the state it guards.
final class NestedLockStore: @unchecked Sendable {
    struct State {
        let lock = NSLock()
        var current = WalkTarget(9)
    }
    private var state = State()
    let title = WalkTarget(10)
}

/// The program's own lock wrapper, by a name of its own.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
}

/// A view model holding a thread-safe cache: it is shared, so its `var`s are not read; its `let`s are.
final class CachingViewModel {
    let cache = Locked(WalkTarget(6))
    let title = WalkTarget(1)
    var status = WalkTarget(7)
}

actor WalkActor {
    let title = WalkTarget(4)
    var progress = WalkTarget(5)
}

/// A type whose name only looks like a lock's.
final class WallClock {}

/// An `Operation` subclass holding a screen, as an app hands work to an `OperationQueue`: Foundation's
/// own fields are not walked (reading them crashed the walk once), the object is still safe to pass.
private final class LoadOperation: Operation, @unchecked Sendable {
    let screen = WalkScreen()
    override func main() {}
}

@Suite("Strong paths from an owner to its Outputs")
struct RetainWalkTests {
    @Test("a subclass of Foundation's Operation is never walked into: no crash, no path")
    func foundationSubclassNotWalked() {
        let operation = LoadOperation()
        #expect(RetainWalk.inheritsFromSystemClass(LoadOperation.self))
        #expect(RetainWalk.paths(from: operation, isTarget: targetID).isEmpty)
        #expect(!RetainWalk.inheritsFromSystemClass(WalkScreen.self))
    }

    @Test("a screen's view model's Output is found at .viewModel.title")
    func findsPath() {
        let screen = WalkScreen()
        let paths = RetainWalk.paths(from: screen, isTarget: targetID)
        #expect(paths.map(\.path) == [".viewModel.title"])
        #expect(paths.map(\.target) == [1])
    }

    @Test("weak, unowned and unowned(unsafe) properties are not followed")
    func weakAndUnownedNotFollowed() {
        let screen = WalkScreen()
        let holder = WeakHolder(viewModel: screen.viewModel, owner: screen)
        #expect(RetainWalk.paths(from: holder, isTarget: targetID).isEmpty)
    }

    @Test("a cycle in the object graph ends the walk")
    func cycles() {
        let first = WalkViewModel()
        let second = WalkViewModel()
        first.next = second
        second.next = first
        let paths = RetainWalk.paths(from: first, maxDepth: 10, isTarget: targetID)
        #expect(paths.map(\.path) == [".title", ".next.title"])
        second.next = nil
    }

    @Test("maxDepth bounds the hops and maxObjects the objects expanded")
    func limits() {
        // Given a chain of five view models, each with its own Output
        let models = (0..<5).map { _ in WalkViewModel() }
        for (model, next) in zip(models, models.dropFirst()) { model.next = next }
        // Then each limit cuts the walk where it says
        #expect(RetainWalk.paths(from: models[0], maxDepth: 1, isTarget: targetID).map(\.path) == [".title"])
        #expect(RetainWalk.paths(from: models[0], maxDepth: 3, isTarget: targetID).count == 3)
        #expect(RetainWalk.paths(from: models[0], maxDepth: 10, maxObjects: 2, isTarget: targetID).count == 2)
        #expect(RetainWalk.paths(from: models[0], maxDepth: 10, isTarget: targetID).count == 5)
    }

    @Test("arrays, dictionaries, Optionals, tuples and Any are followed")
    func collections() {
        let holder = CollectionsHolder()
        holder.rows = [WalkViewModel(), WalkViewModel()]
        holder.byName = ["title": WalkTarget(7)]
        holder.maybe = WalkViewModel()
        holder.pair = (1, WalkTarget(8))
        holder.anything = WalkTarget(9)
        let paths = RetainWalk.paths(from: holder, isTarget: targetID).map(\.path)
        #expect(
            Set(paths) == [
                ".rows[0].title", ".rows[1].title", #".byName["title"]"#, ".maybe.title", ".pair.1", ".anything",
            ])
    }

    @Test("an enum's payload is followed")
    func enumPayload() {
        let holder = StateHolder()
        holder.state = .loaded(WalkViewModel())
        #expect(RetainWalk.paths(from: holder, isTarget: targetID).map(\.path) == [".state.loaded.title"])
    }

    @Test("a lazy var's storage is read without initialising it")
    func lazyStorage() {
        let holder = LazyHolder()
        let before = LazyHolder.made
        #expect(RetainWalk.paths(from: holder, isTarget: targetID).isEmpty)
        #expect(LazyHolder.made == before)
        _ = holder.viewModel
        #expect(RetainWalk.paths(from: holder, isTarget: targetID).map(\.path) == [".viewModel.title"])
    }

    @Test("an object with a lock is read through its lets, and so is all it reaches: its vars change on other threads")
    func sharedObjectsReadThroughLets() {
        let store = LockedStore()
        store.replace(with: [WalkViewModel()])
        store.storage.next = WalkViewModel()
        // `.current`, `.rows[0].title` (vars of the store) and `.storage.next.title` (a var of an object
        // reached from the store) are not read.
        #expect(
            Set(RetainWalk.paths(from: store, maxDepth: 10, isTarget: targetID).map(\.path)) == [
                ".title", ".storage.title",
            ])
        // Its vars could hold an Output: the walk says it left them unread, so "no path" is no fact.
        // (`.storage` is reached through the store: its `var next` is left unread too.)
        #expect(RetainWalk.walk(from: store, isTarget: targetID).unread == ["LockedStore", "WalkViewModel"])
        #expect(RetainWalk.walk(from: CountingStore(), isTarget: targetID).unread.isEmpty)
        // Told by type: a shared label whose lock wrapper holds a String cannot lead to a target.
        let onlyTargets: (AnyClass) -> Bool? = { $0 == WalkTarget.self ? true : nil }
        #expect(RetainWalk.walk(from: SharedLabel(), isTargetType: onlyTargets, isTarget: targetID).unread.isEmpty)
        #expect(RetainWalk.walk(from: store, isTargetType: onlyTargets, isTarget: targetID).unread.count == 2)
        // A lock in a struct the object stores makes it shared too.
        #expect(RetainWalk.paths(from: NestedLockStore(), isTarget: targetID).map(\.path) == [".title"])
        let rows = SharedRows()
        #expect(RetainWalk.walk(from: rows, isTargetType: onlyTargets, isTarget: targetID).unread == ["SharedRows"])
        // The same walk from an ordinary object reads its vars.
        let model = WalkViewModel()
        model.next = WalkViewModel()
        #expect(
            RetainWalk.paths(from: model, maxDepth: 10, isTarget: targetID).map(\.path) == [".title", ".next.title"])
    }

    @Test("a bound closure capturing a shared store adds an unknown capture naming it; an ordinary owner does not")
    func unreadVarsAreAnUnknownCapture() {
        let store = LockedStore()
        let model = WalkViewModel()
        let facts = CaptureProbe.facts(of: ClosureCaptures.references(of: { (_: Int) in _ = (store, model) }))
        #expect(facts.map(\.strength) == [.strong, .unknown, .strong])
        #expect(
            facts.map(\.typeName) == [
                "LockedStore", "the vars of LockedStore and WalkViewModel, shared across threads", "WalkViewModel",
            ])
        #expect(CaptureProbe.unreadList(["A", "B", "C", "D"]) == "A, B and 2 more")
    }

    @Test("an object holding the program's own lock wrapper is shared; the wrapper is never read into")
    func ownLockWrappers() {
        let model = CachingViewModel()
        #expect(RetainWalk.paths(from: model, isTarget: targetID).map(\.path) == [".title"])
    }

    @Test("an actor is read through its lets")
    func actorsReadThroughLets() {
        let actor = WalkActor()
        #expect(RetainWalk.paths(from: actor, isTarget: targetID).map(\.path) == [".title"])
    }

    @Test("synchronisation types are told by the words of their names, not by a substring")
    func synchronisationNames() {
        #expect(RetainWalk.SharedState.words(of: "Foundation.NSLock") == ["foundation", "ns", "lock"])
        #expect(RetainWalk.SharedState.words(of: "__C.os_unfair_lock_s") == ["c", "os", "unfair", "lock", "s"])
        #expect(RetainWalk.SharedState.words(of: "NIOLockedValueBox") == ["nio", "locked", "value", "box"])
        for type in [
            NSLock.self, NSRecursiveLock.self, NSCondition.self, Optional<NSLock>.self, DispatchQueue.self,
            Locked<Int>.self, UnsafeMutablePointer<pthread_mutex_t>.self,
        ] as [Any.Type] {
            #expect(RetainWalk.SharedState.namesSynchronisation(type), "\(type)")
        }
        for type in [WallClock.self, WalkScreen.self, Int.self, [String].self] as [Any.Type] {
            #expect(!RetainWalk.SharedState.namesSynchronisation(type), "\(type)")
        }
    }

    @Test("binding closures that capture a store while other threads change it under its lock: no race (TSan)")
    func bindingWhileAStoreChanges() {
        let store = LockedStore()
        let output = Output<Int>(value: 0)
        let threads = 4
        let rounds = 200
        let recording = BindTrace.capture("store changing") {
            runOnThreads(threads) { thread in
                for round in 0..<rounds {
                    if thread == 0 {
                        store.replace(with: (0..<(round % 7)).map { _ in WalkViewModel() })
                    } else {
                        let subscription = output.bind { _ in _ = store }
                        subscription.unsubscribe()
                    }
                }
            }
        }
        #expect(recording != nil)
    }

    @Test("a stored closure's strong captures are followed")
    func storedClosure() {
        let holder = ClosureHolder()
        let model = WalkViewModel()
        let count = Int.random(in: 1...9)
        holder.onTap = { _ in _ = (model, count) }
        #expect(RetainWalk.paths(from: holder, isTarget: targetID).map(\.path) == [".onTap{}.title"])
    }
}
// MARK: - Cost

/// What one read costs on a cache hit, printed (no timed assertion). Run it in a release build:
/// `BIND_CAPTURES_BENCH=1 swift test -c release --traits Tracing -Xswiftc -enable-testing --filter CaptureCost`.
@Suite("What reading captures costs")
struct CaptureCostTests {
    @Test(
        "nanoseconds per call on a cache hit, by closure shape",
        .enabled(if: ProcessInfo.processInfo.environment["BIND_CAPTURES_BENCH"] != nil))
    func costPerCall() {
        let screen = ArticleScreen()
        let model = ArticleViewModel()
        let count = Int.random(in: 1...9)
        let nothing: (Int) -> Void = { _ in }
        let instance: (Int) -> Void = { _ in _ = screen }
        let instanceAndInt: (Int) -> Void = { _ in _ = (screen, count) }
        let two: (Int) -> Void = { _ in _ = (screen, model, count) }
        let weak: (Int) -> Void = { [weak screen] _ in _ = screen }
        let holder = GenericHolder<Int> { _ in _ = (screen, count) }
        let walkScreen = WalkScreen()
        let shapes: [(String, () -> Int)] = [
            ("captures nothing", { ClosureCaptures.references(of: nothing).count }),
            ("one instance (its own context)", { ClosureCaptures.references(of: instance).count }),
            ("instance + Int", { ClosureCaptures.references(of: instanceAndInt).count }),
            ("two instances + Int", { ClosureCaptures.references(of: two).count }),
            ("[weak self]", { ClosureCaptures.references(of: weak).count }),
            ("(T) -> Void in a generic class, as bind gets it", { holder.captures().count }),
            // What a bind's probe adds for a strong capture: the walk from it (screen → view model → Output).
            (
                "walk from a screen to its view model's Output",
                { RetainWalk.paths(from: walkScreen, isTarget: targetID).count }
            ),
        ]
        let iterations = 1_000_000
        for (name, read) in shapes {
            var total = read()
            let clock = ContinuousClock()
            let elapsed = clock.measure {
                for _ in 0..<iterations { total &+= read() }
            }
            let nanoseconds = Double(elapsed.components.attoseconds) / 1e9 + Double(elapsed.components.seconds) * 1e9
            print(
                "captures cost: \(name): \(String(format: "%.1f", nanoseconds / Double(iterations))) ns/call (\(total))"
            )
        }
    }
}
#endif
