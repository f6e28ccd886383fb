import Bind
import Foundation

// A photos app whose screens hand their binding work to other threads, with no tracing call in
// the app's code: an import screen runs an `Operation` subclass on an OperationQueue, a scoreboard
// screen polls with a repeating `DispatchSourceTimer` on a queue of its own, a route screen starts a
// `Thread`. Each screen waits for its work before it closes, so the work binds while the screen's
// scope runs; what the work binds is judged with that scope, tied to it by what the closure captures
// (the screen, which holds Outputs the scope made) or by the Output it binds (made by the scope).
// Planted bugs:
// - the import operation binds to the app-wide library's photo count with a closure that captures
//   the screen strongly, and drops the Subscription: the library keeps the screen for the app's life;
// - the scoreboard's first tick binds the score with a closure that captures the screen strongly
//   and keeps it in the screen's own bag: screen → view model → score → closure → screen;
// - the route thread binds to the app-wide location with a closure that captures the screen
//   strongly, and drops the Subscription.
// Clean twin: the work keeps each Subscription in the screen's bag, and the screen empties its bag
// when it closes.

final class PhotoLibrary: Sendable {
    let photoCount = Output<Int>(value: 0).labeled("library photo count")
    let location = Output<String>(value: "").labeled("current location")
}

final class ImportScreen: @unchecked Sendable {
    let imported = Output<Int>(value: 0).labeled("imported photos")
    let countLabel = Label()
    let bag = SubscriptionContainer()

    func close() { bag.unsubscribe() }
}

final class PhotoImportOperation: Operation, @unchecked Sendable {
    private let library: PhotoLibrary
    private let screen: ImportScreen
    private let dropsSubscription: Bool

    init(library: PhotoLibrary, screen: ImportScreen, dropsSubscription: Bool) {
        self.library = library
        self.screen = screen
        self.dropsSubscription = dropsSubscription
    }

    override func main() {
        let screen = screen
        let count = library.photoCount
        if dropsSubscription {
            count.bind { screen.countLabel.text = "\($0) photos" }  // expect-with-handles: leaked-subscription
        } else {
            count.bind { screen.countLabel.text = "\($0) photos" }.add(to: screen.bag)
        }
        screen.imported.update(withValue: 12)
        library.photoCount.update(withValue: 12)
    }
}

final class ScoreViewModel: @unchecked Sendable {
    let score = Output<String>(value: "0 : 0").labeled("match score")
}

final class ScoreboardScreen: @unchecked Sendable {
    let viewModel = ScoreViewModel()
    let scoreLabel = Label()
    private let bag = SubscriptionContainer()
    private let ticks = Locked(0)

    /// Polls three times on `queue`, binding the score on the first tick, then returns.
    func poll(on queue: DispatchQueue) {
        let done = DispatchSemaphore(value: 0)
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now(), repeating: .milliseconds(2))
        timer.setEventHandler { [weak self] in
            guard let self else { return }
            ticks.value += 1
            if ticks.value == 1 {
                viewModel.score.bind { self.scoreLabel.text = $0 }.add(to: bag)  // expect: retain-cycle
            }
            viewModel.score.update(withValue: "\(ticks.value) : 0")
            if ticks.value == 3 { done.signal() }
        }
        timer.resume()
        done.wait()
        timer.cancel()
    }

    func close() { bag.unsubscribe() }
}

final class RouteScreen: @unchecked Sendable {
    let route = Output<[String]>(value: []).labeled("route steps")
    let positionLabel = Label()
    let bag = SubscriptionContainer()

    /// Follows the location on a thread of its own until the first fix, then returns.
    func follow(_ library: PhotoLibrary, dropsSubscription: Bool) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            if dropsSubscription {
                library.location.bind { self.positionLabel.text = $0 }  // expect-with-handles: leaked-subscription
            } else {
                library.location.bind { self.positionLabel.text = $0 }.add(to: self.bag)
            }
            self.route.update(withValue: ["north", "east"])
            library.location.update(withValue: "52.5, 13.4")
            done.signal()
        }
        thread.start()
        done.wait()
    }

    func close() { bag.unsubscribe() }
}

enum HandOffApp: CorpusProgram {
    static let sourcePath = #filePath

    static func run(buggy: Bool) {
        let library = PhotoLibrary()
        AppLifetime.shared.keep(library)
        BindTrace.scope("import screen") {
            let screen = ImportScreen()
            let queue = OperationQueue()
            queue.addOperation(PhotoImportOperation(library: library, screen: screen, dropsSubscription: buggy))
            queue.waitUntilAllOperationsAreFinished()
            screen.close()
        }
        BindTrace.scope("scoreboard screen") {
            let screen = ScoreboardScreen()
            screen.poll(on: DispatchQueue(label: "scoreboard polling"))
            if !buggy { screen.close() }
        }
        BindTrace.scope("route screen") {
            let screen = RouteScreen()
            screen.follow(library, dropsSubscription: buggy)
            screen.close()
        }
        library.photoCount.update(withValue: 13)
        library.location.update(withValue: "52.6, 13.4")
    }
}
