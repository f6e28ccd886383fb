import Bind
import BindAnalysis
import BindTraceTestSupport
import Testing

@testable import AppCorpus

/// App-shaped programs recorded by the instrumented build and judged by the analysis: the planted
/// bugs at exactly the marked lines, and nothing at all from each program's clean twin.
@Suite("the app-shaped corpus", .requiresTracing)
struct AppCorpusTests {
    static let programs = CorpusPrograms.all

    @Test("each planted bug is one finding at its marked line", arguments: programs.map { ProgramCase($0) })
    func plantedBugs(_ program: ProgramCase) async throws {
        let (sites, findings, recordsHandles) = try await Corpus.findings(of: program.type, buggy: true)
        let expected = try Corpus.expectations(in: program.type.sourcePath, recordsHandles: recordsHandles)
        #expect(
            try !Corpus.expectations(in: program.type.sourcePath, recordsHandles: true, recordsValues: true).isEmpty)
        #expect(sites == expected, "findings: \(findings.map(\.compilerStyle))")
    }

    @Test("the clean twin of every program has no finding", arguments: programs.map { ProgramCase($0) })
    func cleanTwins(_ program: ProgramCase) async throws {
        let (sites, findings, _) = try await Corpus.findings(of: program.type, buggy: false)
        #expect(sites.isEmpty, "findings: \(findings.map(\.compilerStyle))")
    }

    @Test(
        "each planted leak says what keeps it alive, hop by hop, as its kept-alive comment says",
        arguments: programs.filter { (try? Corpus.keptAlivePaths(in: $0.sourcePath).isEmpty) == false }
            .map { ProgramCase($0) })
    func keptAlivePaths(_ program: ProgramCase) async throws {
        // Given a program whose leaks carry a `// kept alive by:` comment
        let expected = try Corpus.keptAlivePaths(in: program.type.sourcePath)

        // When its buggy run is judged
        let (_, findings, _, state) = try await Corpus.analysis(of: program.type, buggy: true)

        // Then the leak at each commented line has exactly that path
        for (line, path) in expected {
            let finding = try #require(findings.first { $0.site?.line == UInt(line) }, "a finding at line \(line)")
            let described = try #require(ReferencePath.describe(finding, in: state), "\(finding.compilerStyle)")
            #expect(Corpus.withoutIDs(described) == path)
        }
    }

    @Test("no message names an Output by a bare id", arguments: programs.map { ProgramCase($0) })
    func messagesNameWhatTheUserWrote(_ program: ProgramCase) async throws {
        let (_, findings, _) = try await Corpus.findings(of: program.type, buggy: true)
        for finding in findings {
            #expect(
                finding.message.range(of: #"Output #\d"#, options: .regularExpression) == nil, "\(finding.message)")
            #expect(!finding.message.contains("#\(finding.outputs.first ?? 0) ("), "\(finding.message)")
        }
    }
}

/// A program as a test argument, named after the program.
struct ProgramCase: CustomTestStringConvertible, Sendable {
    let type: any CorpusProgram.Type
    init(_ type: any CorpusProgram.Type) { self.type = type }
    var testDescription: String { "\(type)" }
}
