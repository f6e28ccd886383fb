import Bind
import Testing

@Suite("debug")
struct DebugTests {
    @Test("debug(identifier:) logs each bind and update through the Output's Printable")
    func debugLogsBindsAndUpdates() {
        // Given an Output with a custom printer, marked for debugging
        let printer = PrintSpy()
        let output = Output<Int>(value: 1, printer: printer)
        let returned = output.debug(identifier: "count")
        // When it is bound and updated
        output.bind { _ in }
        output.update(withValue: 42)
        // Then both are logged with the identifier, the update with its value
        #expect(returned === output)
        #expect(printer.lines.count == 2)
        #expect(printer.lines.allSatisfy { $0.contains("count") })
        #expect(printer.lines[0].contains("bind"))
        #expect(printer.lines[1].contains("42"))
    }

    @Test("an Output not marked for debugging, or only labeled, prints nothing")
    func silentWithoutDebug() {
        let printer = PrintSpy()
        let output = Output<Int>(printer: printer)
        let returned = output.labeled("count")

        output.bind { _ in }
        output.update(withValue: 1)

        #expect(returned === output)
        #expect(printer.lines.isEmpty)
    }
}
