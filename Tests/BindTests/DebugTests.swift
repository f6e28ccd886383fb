import Bind
import Testing

@Suite("debug")
struct DebugTests {
    @Test("debug(identifier:) logs binds and updates in the published format (testDebug)")
    func debugLogsBindsAndUpdates() {
        // Given an empty Output with a custom printer, marked for debugging
        let printer = PrintSpy()
        let output = Output<Bool>(printer: printer)
        // When it is bound
        let returned = output.debug(identifier: "123")
        returned.bind { _ in }
        // Then the bind is logged with the bindings it now has
        #expect(returned === output)
        #expect(
            printer.lines == [
                "---", "Binding 123 (Output<Bool>) to (Function)", "To bindings: [Bind.Subscription: (Function)]",
            ])
        // When it is updated
        output.update(withValue: false)
        // Then the update is logged before and after the deliveries
        #expect(
            printer.lines.dropFirst(3) == [
                "---", "Will update value for 123 (Output<Bool>) to false",
                "To bindings: [Bind.Subscription: (Function)]",
                "Did update value for 123 (Output<Bool>) to false", "To bindings: [Bind.Subscription: (Function)]",
            ])
    }

    @Test("a bind to an Output with a value logs the initial value it is called with (published format)")
    func debugLogsInitialValue() {
        let printer = PrintSpy()
        let output = Output<Int>(value: 7, printer: printer).debug(identifier: "count")
        output.bind { _ in }

        output.bind { _ in }

        #expect(
            printer.lines.suffix(4) == [
                "---", "Binding count (Output<Int>) to (Function)",
                "To bindings: [Bind.Subscription: (Function), Bind.Subscription: (Function)]",
                "Initial value for count (Output<Int>) is 7",
            ])
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
