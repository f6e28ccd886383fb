import Foundation
import Testing

@Suite("the stand-in check covers Sources/Bind/UIKit")
struct StandInCoverageTests {
    /// The repository's root, found from this file's path.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("Binders is a link to Sources/Bind/UIKit, so these tests compile the shipped files themselves")
    func bindersIsTheSourceFolder() throws {
        let binders = Self.root.appendingPathComponent("Tests/BindUIKitTests/Binders")
        let destination = try FileManager.default.destinationOfSymbolicLink(atPath: binders.path)
        #expect(destination == "../../Sources/Bind/UIKit")
    }

    @Test("every file in Sources/Bind/UIKit is compiled against the stand-in, not skipped on Linux")
    func everyFileHasTheStandInCondition() throws {
        let folder = Self.root.appendingPathComponent("Sources/Bind/UIKit")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty)
        for file in files {
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            let firstLine = text.prefix { $0 != "\n" }
            #expect(
                firstLine.hasPrefix("#if ") && firstLine.hasSuffix("|| BIND_UIKIT_STANDIN"), "\(file): \(firstLine)")
        }
    }
}
