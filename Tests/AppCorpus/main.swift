import Bind

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The app-shaped corpus as a program: `AppCorpus <Program> buggy|clean` runs one program once, as an
// app would. Run it with `BIND_TRACE=path` in the instrumented build and judge the file with
// `bind-trace check`; AppCorpusTests does both, and also judges in-process captures.

let arguments = CommandLine.arguments.dropFirst()
if let name = arguments.first, let program = CorpusPrograms.all.first(where: { "\($0)" == name }),
    let variant = arguments.dropFirst().first, variant == "buggy" || variant == "clean"
{
    await program.run(buggy: variant == "buggy")
} else {
    print("usage: AppCorpus <\(CorpusPrograms.all.map { "\($0)" }.joined(separator: "|"))> buggy|clean")
    exit(2)
}
