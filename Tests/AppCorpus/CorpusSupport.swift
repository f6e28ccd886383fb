import Bind
import Foundation

/// One app-shaped program of the corpus: several screens, run once with its planted bugs and once
/// as its clean twin.
///
/// The lines a finding is expected at carry a marker comment, `// expect: <kind>`, in the
/// program's own source file: the test reads them back, so the expectations sit on the lines they
/// are about and cannot drift when a file is edited. `// expect-with-handles: <kind>` marks a
/// finding only a trace with `Subscription` handle records can prove, `// expect-with-values: <kind>`
/// one judged on value previews (only in a trace recorded with them). `// kept alive by: <path>` on
/// the line above a leak is the path `bind-trace check` prints for it.
protocol CorpusProgram: Sendable {
    /// `#filePath` of the program's source file.
    static var sourcePath: String { get }
    /// Whether the recorded corpus runs this program with value previews (`BIND_TRACE_VALUES=1`).
    ///
    /// Previews are a process-wide switch and the in-process corpus runs programs in parallel in one
    /// process (beside suites that flip the switch), so only the recorded corpus, one process per
    /// program with its own environment, turns them on and judges `// expect-with-values:` markers.
    static var recordsValuePreviews: Bool { get }
    /// Runs the program; `buggy` plants the bugs the markers name, `false` runs the clean twin.
    static func run(buggy: Bool) async
}

extension CorpusProgram {
    static var recordsValuePreviews: Bool { false }
}

enum CorpusPrograms {
    /// Every program of the corpus.
    static let all: [any CorpusProgram.Type] = [
        FeedApp.self, ProfileApp.self, SessionApp.self, CheckoutApp.self, SettingsApp.self, SuggestionsApp.self,
        TabsApp.self, AccountApp.self, GalleryApp.self, DownloadsApp.self, StopwatchApp.self, UploadApp.self,
        PlayerApp.self, ComposerApp.self, QuotesApp.self, ContactsApp.self, InboxCellsApp.self, ThreadsApp.self,
        SignUpApp.self, WeatherApp.self, NotesApp.self, FormApp.self, ActivityApp.self, ReaderApp.self, CatalogApp.self,
        LaunchApp.self, HandOffApp.self, RatesApp.self, WatchlistApp.self,
    ]
}

// Headless stand-ins for UIKit views: classes with properties a screen binds to. Programs bind
// from OperationQueues and Threads as well as the main thread, so each property takes a lock (a
// real app would hop to the main queue; the corpus judges the hand-off, not the hop).

final class Label: BindableCompatible, @unchecked Sendable {
    private let storage = Locked("")
    var text: String {
        get { storage.value }
        set { storage.value = newValue }
    }
}

final class Toggle: BindableCompatible, @unchecked Sendable {
    private let storage = Locked(false)
    var isOn: Bool {
        get { storage.value }
        set { storage.value = newValue }
    }
}

/// A value behind a lock.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

/// A text field: `text` is what the user typed, and what is shown.
final class TextField {
    let text: Output<String>
    init(name: String) { text = Output<String>(value: "").labeled("\(name) field") }
    func type(_ value: String) { text.update(withValue: value) }
}

/// A table that hands out a small pool of reusable cells for any number of rows, as UITableView does.
final class Table<Cell: AnyObject> {
    private(set) var cells: [Cell] = []
    private let make: (Int) -> Cell
    private let poolSize: Int

    init(visibleRows: Int, make: @escaping (Int) -> Cell) {
        poolSize = visibleRows
        self.make = make
    }

    /// The cell for `row`, and whether it was used for another row before.
    func dequeue(row: Int) -> (cell: Cell, isReused: Bool) {
        if cells.count < poolSize {
            cells.append(make(cells.count))
            return (cells[cells.count - 1], false)
        }
        return (cells[row % poolSize], true)
    }
}

/// Keeps what an app keeps for its whole life (its coordinator, an on-screen list) past the end
/// of the recording, as an app that is quit with them on screen does.
final class AppLifetime: @unchecked Sendable {
    static let shared = AppLifetime()
    private let lock = NSLock()
    private var kept: [AnyObject] = []
    func keep(_ object: AnyObject) { lock.withLock { kept.append(object) } }
}
