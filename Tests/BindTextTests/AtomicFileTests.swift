import Foundation
import Testing

@testable import BindText

@Suite("AtomicFile: readers see the old contents or the whole new ones")
struct AtomicFileTests {
    private func scratch() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("atomic-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    private func contents(_ directory: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
    }

    @Test("a file is replaced whole and no temporary file is left")
    func file() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try AtomicFile.write("old", to: directory + "/a.txt")
        try AtomicFile.write("new", to: directory + "/a.txt")
        #expect(try String(contentsOfFile: directory + "/a.txt", encoding: .utf8) == "new")
        #expect(try contents(directory) == ["a.txt"])
    }

    @Test("a directory is replaced as a whole: no file of the old run survives beside the new ones")
    func directory() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = root + "/report"
        try AtomicFile.replaceDirectory(report, names: ["a", "b"]) { (fresh) throws(FileWriteFailure) in
            try AtomicFile.write("old a", to: fresh + "/a")
            try AtomicFile.write("old b", to: fresh + "/b")
        }
        try AtomicFile.replaceDirectory(report, names: ["a", "b"]) { (fresh) throws(FileWriteFailure) in
            try AtomicFile.write("new a", to: fresh + "/a")
        }
        #expect(try contents(report) == ["a"])
        #expect(try String(contentsOfFile: report + "/a", encoding: .utf8) == "new a")
        #expect(try contents(root) == ["report"])
    }

    @Test("a run that fails half way leaves the old directory untouched and nothing beside it")
    func failedFill() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let report = root + "/report"
        try AtomicFile.replaceDirectory(report, names: ["a", "b"]) { (fresh) throws(FileWriteFailure) in
            try AtomicFile.write("old a", to: fresh + "/a")
            try AtomicFile.write("old b", to: fresh + "/b")
        }
        #expect(throws: FileWriteFailure.self) {
            try AtomicFile.replaceDirectory(report, names: ["a", "b"]) { (fresh) throws(FileWriteFailure) in
                try AtomicFile.write("new a", to: fresh + "/a")
                throw FileWriteFailure(operation: .write, path: fresh + "/b", reason: "disk full")
            }
        }
        #expect(try String(contentsOfFile: report + "/a", encoding: .utf8) == "old a")
        #expect(try contents(report) == ["a", "b"])
        #expect(try contents(root) == ["report"])
    }

    @Test("a directory holding other files is refused, never deleted")
    func foreignFiles() throws {
        let root = try scratch()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try AtomicFile.write("mine", to: root + "/notes.txt")
        #expect(throws: FileWriteFailure.self) {
            try AtomicFile.replaceDirectory(root, names: ["a"]) { (_) throws(FileWriteFailure) in }
        }
        #expect(try contents(root) == ["notes.txt"])
    }
}
