import ArgumentParser
import BindText

/// `bind-trace serve TRACE|DIR [--follow]`: the interactive report, live, over HTTP.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve a live report of a trace (or of every trace in a directory) to a browser.",
        discussion: """
            Prints a URL with a random token; open it in a browser. The page shows each trace's Outputs \
            and edges (a graph and a table), its counters, its findings (judged again whenever a scope \
            ends) and its newest events. With --follow the trace is read while the app writes it and \
            every open page is updated within 250 ms; a directory is followed whole, traces that appear \
            later included; a trace that ends (end record, or its process gone) says so. Listens on \
            127.0.0.1 unless --host says otherwise; requests without the token are refused (403). Runs \
            until interrupted (Ctrl-C). Needs a bind-trace built with the package trait Serve (the default).
            """)

    @Argument(help: ArgumentHelp("A trace file, or a directory of traces (every *.trace in it).", valueName: "trace"))
    var trace: String

    @Flag(help: "Follow the trace(s) as the app writes them, and push what is new to every open page.")
    var follow = false

    @Option(help: ArgumentHelp("The port to listen on (0: any free port, printed).", valueName: "n"))
    var port: Int = 0

    @Option(
        help: ArgumentHelp(
            "The address to listen on. Anything but a loopback address lets other machines reach the page "
                + "(with the token).", valueName: "host"))
    var host: String = "127.0.0.1"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port takes 0…65535, not \(port)") }
    }

    func run() throws {
        #if Serve
        let server = LiveServer(
            source: trace, follows: follow, host: host, port: port, token: ServeToken.random())
        if !LiveServer.isLoopback(host) {
            StandardError.write(
                "bind-trace: warning: listening on \(host): other machines can reach this server; the token in "
                    + "the URL is all that keeps them out, and the page is sent without TLS")
        }
        try server.run { url in
            StandardOutput.shared.line("bind-trace: serving \(trace)\(follow ? " (following)" : "") at \(url)")
            StandardOutput.shared.flush()
        }
        #else
        throw ToolFailure(
            "serve: this bind-trace was built without the package trait Serve; build it with "
                + "`swift build --product bind-trace` (Serve is a default trait) or `--traits Serve`")
        #endif
    }
}
