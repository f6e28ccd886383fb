import Bind
import BindAnalysis
@_spi(Harness) import BindTraceModel
import BindTraceTestSupport
import Testing

@Suite("duplicate-binding", .requiresTracing)
struct DuplicateBindingTests {
    @Test("a reused cell that never unsubscribes is a duplicate binding")
    func reusedCell() throws {
        let title = Output<String>(value: "Ada")
        let label = Label()
        var bindLine: UInt = 0

        let recording = BindTrace.capture {
            for _ in 0..<3 {
                BindTrace.scope("configure cell") {
                    bindLine = #line; _ = title.bind(to: label.binding[\.text])
                }
            }
        }

        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["duplicate-binding@\(bindLine)"])
        #expect(result.findings.first?.message.contains("3 times") == true)
        #expect(result.findings.first?.subscriptions.count == 3)
    }

    @Test("a reused cell that unsubscribes before binding again is not a duplicate")
    func reusedCellUnsubscribing() throws {
        let title = Output<String>(value: "Ada")
        let label = Label()

        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            for _ in 0..<3 {
                bag.unsubscribe()  // prepareForReuse
                BindTrace.scope("configure cell") {
                    title.bind(to: label.binding[\.text]).add(to: bag)
                }
            }
            bag.unsubscribe()
        }

        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("two different cells bound from the same line are not duplicates")
    func differentTargets() throws {
        let title = Output<String>(value: "Ada")
        let labels = [Label(), Label()]

        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            for label in labels {
                title.bind(to: label.binding[\.text]).add(to: bag)
            }
            bag.unsubscribe()
        }

        #expect(try analyze(recording).findings.isEmpty)
    }

    @Test("a new target allocated at a released target's address is not the same target")
    func reusedAddress() throws {
        let title = Output<String>(value: "Ada")
        var addresses: [ObjectIdentifier] = []

        // Bind a fresh label each time and let it go without unbinding (leaked, but not twice to
        // one target): the allocator hands the next label the same address, most of the time.
        let recording = BindTrace.capture {
            for _ in 0..<4 {
                let label = Label()
                addresses.append(ObjectIdentifier(label))
                title.bind(to: label.binding[\.text])
            }
        }

        // glibc's malloc reuses the address (sanitizer allocators quarantine it, and then the
        // targets simply differ): either way, no two of these bindings share a live target.
        #expect(try analyze(recording).findings.filter { $0.kind == .duplicateBinding }.isEmpty)
    }

    @Test("a Label bound in a loop to two sources in one scope is one use of it, not a duplicate")
    func loopOverSources() throws {
        // Given a status bar that shows the latest of two sources: one Label bound to each (last writer wins)
        let user = Output<String>(value: "Ada")
        let theme = Output<String>(value: "light")
        let status = Label()

        // When it binds them in a loop into its bag, a source updates, and the bar closes
        let recording = BindTrace.capture {
            BindTrace.scope("status bar") {
                let bag = SubscriptionContainer()
                for source in [user, theme] {
                    source.bind(to: status.binding[\.text]).add(to: bag)
                }
                theme.update(withValue: "dark")
                bag.unsubscribe()
            }
        }

        // Then nothing was superseded
        #expect(try analyze(recording).findings.isEmpty)
        #expect(status.text == "dark")
    }

    @Test("a loop binding two Labels to each source, line after line, is one use of each")
    func loopOverSourcesTwoLabels() throws {
        // Given a header showing the latest title and subtitle of several sources, made at their own
        // lines (sources of different kinds; rows of one kind are a reused cell's, reported)
        let sources = [
            (Output<String>(value: "title 0"), Output<String>(value: "subtitle 0")),
            (Output<String>(value: "title 1"), Output<String>(value: "subtitle 1")),
            (Output<String>(value: "title 2"), Output<String>(value: "subtitle 2")),
        ]
        let title = Label()
        let subtitle = Label()

        // When one loop binds both Labels to each source, the two binds of a source on adjacent lines
        let recording = BindTrace.capture {
            BindTrace.scope("header") {
                let bag = SubscriptionContainer()
                for (sourceTitle, sourceSubtitle) in sources {
                    sourceTitle.bind(to: title.binding[\.text]).add(to: bag)
                    sourceSubtitle.bind(to: subtitle.binding[\.text]).add(to: bag)
                }
                bag.unsubscribe()
            }
        }

        // Then the binds of one line to one Label, interleaved with the other line's, supersede nothing
        #expect(try analyze(recording).findings.isEmpty)
        #expect(title.text == "title 2" && subtitle.text == "subtitle 2")
    }

    @Test("a reused cell bound to its next row's Output without unbinding the previous row is a duplicate")
    func reusedCellNextRow() throws {
        // Given one cell's Label and two rows' Outputs
        let rows = [Output<String>(value: "row 0"), Output<String>(value: "row 1")]
        let label = Label()
        var bindLine: UInt = 0

        // When the cell is configured for each row in turn, each configuration in its own scope, and
        // never unbinds the previous row before a row updates
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            for row in rows {
                BindTrace.scope("configure cell") {
                    bindLine = #line; row.bind(to: label.binding[\.text]).add(to: bag)
                }
            }
            rows[0].update(withValue: "row 0 edited")
            bag.unsubscribe()
        }

        // Then the bind line is a duplicate binding with the reused-cell advice and the evidence
        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["duplicate-binding@\(bindLine)"])
        let message = try #require(result.findings.first?.message)
        #expect(message.contains("to 2 Outputs at once"))
        #expect(message.contains("a reused cell must unbind its previous row"))
        #expect(message.contains("reached the Label now showing"))
    }

    @Test("rows of one declaration told apart by their values: the message shows the values, the identity does not")
    func valuesLeaveTheIdentity() throws {
        // A trace with values (BIND_TRACE_VALUES=1): one cell's Label bound from one line to two rows'
        // titles, made on one line, each configuration in its own scope, never unbound
        func duplicate(rows texts: [String]) throws -> Finding {
            var writer = TraceWriter(minor: 1)
            writer.thread(1)
            let cell = SourceSite(file: "App/Cell.swift", line: 30)
            for (index, _) in texts.enumerated() {
                let row = UInt64(index + 1)
                writer.event(
                    .outputCreated(
                        TraceEvent.OutputCreation(
                            output: row, kind: .output, valueType: "String",
                            site: SourceSite(file: "App/Rows.swift", line: 12), label: "row title", scope: 0)))
            }
            for (index, _) in texts.enumerated() {
                let scope = UInt64(index + 1)
                writer.event(.scopeBegan(id: scope, parent: 0, name: "configure cell", site: cell))
                writer.event(
                    .bound(
                        TraceEvent.Binding(
                            subscription: scope, output: scope, site: cell,
                            target: BinderTarget(type: "UIKit.UILabel", identity: 7), scope: scope)))
                writer.event(.scopeEnded(id: scope))
            }
            for (index, text) in texts.enumerated() {
                writer.event(.updated(output: UInt64(index + 1), cause: nil, preview: text))
            }
            writer.end()
            let result = try TraceAnalyzer.analyze(reader: try TraceReader(bytes: writer.bytes))
            let found = result.findings.filter { $0.kind == .duplicateBinding }
            #expect(found.count == 1, "\(result.findings.map(\.message))")
            return try #require(found.first)
        }

        // When two runs show other rows
        let first = try duplicate(rows: ["Ada", "Grace"])
        let second = try duplicate(rows: ["Edsger", "Barbara"])

        // Then each message names its own values, and what the finding is about is the same
        #expect(first.message.contains("'row title' (String) = Ada"), "\(first.message)")
        #expect(second.message.contains("'row title' (String) = Edsger"), "\(second.message)")
        #expect(first.identity != nil)
        #expect(first.identity == second.identity)
        #expect(first.identity?.contains("Ada") == false)
    }

    @Test("one cell configured for a row, then the next, with no scopes at all, is still a duplicate")
    func reusedCellWithoutScopes() throws {
        // Given two rows' view models of one kind (their Outputs made at one line) and one cell
        final class RowViewModel {
            let title: Output<String>
            init(_ title: String) { self.title = Output(value: title) }
        }
        let rows = [RowViewModel("row 0"), RowViewModel("row 1")]
        let label = Label()
        var bindLine: UInt = 0

        // When the cell is configured for each row in turn at top level, never unbinding the previous
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            for row in rows { bindLine = #line; row.title.bind(to: label.binding[\.text]).add(to: bag) }
            rows[0].title.update(withValue: "row 0 edited")
            bag.unsubscribe()
        }

        // Then it is a duplicate binding, unlike a loop over sources made at different lines
        #expect(try kindsAndLines(analyze(recording)) == ["duplicate-binding@\(bindLine)"])
    }

    @Test("a pool of cells configured in turn in one scope is a duplicate when a cell comes back without unbinding")
    func poolInOneScope() throws {
        // Given two cells for four rows, with no scope per configuration
        let rows = (0..<4).map { Output<String>(value: "row \($0)") }
        let labels = [Label(), Label()]
        var bindLine: UInt = 0

        // When each row is bound to the next cell in turn, the cells never emptied between uses
        let recording = BindTrace.capture {
            BindTrace.scope("feed screen") {
                let bags = [SubscriptionContainer(), SubscriptionContainer()]
                for (index, row) in rows.enumerated() {
                    bindLine = #line; row.bind(to: labels[index % 2].binding[\.text]).add(to: bags[index % 2])
                }
                for bag in bags { bag.unsubscribe() }
            }
        }

        // Then both cells are reported, once, at the bind line
        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["duplicate-binding@\(bindLine)"])
        #expect(result.findings.first?.message.contains("(2 targets)") == true)
    }

    @Test("one Output bound twice to one Label in one loop is a duplicate")
    func sameOutputTwiceInALoop() throws {
        // Given one Output and one Label
        let title = Output<String>(value: "Ada")
        let label = Label()
        var bindLine: UInt = 0

        // When a loop binds the same Output to the Label twice, in one go
        let recording = BindTrace.capture {
            let bag = SubscriptionContainer()
            for source in [title, title] {
                bindLine = #line; source.bind(to: label.binding[\.text]).add(to: bag)
            }
            bag.unsubscribe()
        }

        // Then every value reaches the Label twice: reported
        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["duplicate-binding@\(bindLine)"])
        #expect(result.findings.first?.message.contains("2 times at once to the same Label") == true)
    }

    @Test("a header bound again to each selected item by a tap handler, in one scope, is a duplicate")
    func rebindOnEachTap() throws {
        // Given a detail screen whose header shows the selected item, chosen by taps
        let items = [Output<String>(value: "item 1"), Output<String>(value: "item 2")]
        let header = Label()
        let select = Relay<Int>()
        var bindLine: UInt = 0

        // When each tap binds the header to its item without unbinding the previous one, all in one scope
        let recording = BindTrace.capture {
            BindTrace.scope("detail screen") {
                let bag = SubscriptionContainer()
                select.bind { index in
                    bindLine = #line; items[index].bind(to: header.binding[\.text]).add(to: bag)
                }.add(to: bag)
                select.update(withValue: 0)
                select.update(withValue: 1)
                items[0].update(withValue: "item 1 renamed")
                bag.unsubscribe()
            }
        }

        // Then the binds of two taps are two uses of the header: the first is superseded
        let result = try analyze(recording)
        #expect(kindsAndLines(result) == ["duplicate-binding@\(bindLine)"])
        #expect(header.text == "item 1 renamed")
    }
}
