import Foundation
import Testing

@_spi(Harness) @testable import BindReport

@Suite("writing report files")
struct ReportWriterTests {
    @Test("writes the three files, replaces them on a second run, and leaves no temporary files")
    func atomicWrites() throws {
        let directory = try Fixtures.temporaryDirectory() + "/nested/report"
        try ReportWriter.write(Fixtures.hostileContent(), to: directory)
        try ReportWriter.write(ReportContent(title: "second", traceFile: "t"), to: directory)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ReportWriter.fileNames.sorted())
        let html = try String(contentsOfFile: directory + "/index.html", encoding: .utf8)
        #expect(html.contains("<h1>second</h1>"))
        #expect(html.hasSuffix("</html>\n"))
    }

    @Test("a second run replaces the directory as a whole: a new directory takes the old one's place")
    func directorySwap() throws {
        let parent = try Fixtures.temporaryDirectory()
        let directory = parent + "/report"
        try ReportWriter.write(Fixtures.hostileContent(), to: directory)
        let first = try FileManager.default.attributesOfItem(atPath: directory)[.systemFileNumber] as? Int
        try ReportWriter.write(ReportContent(title: "second", traceFile: "t"), to: directory)
        let second = try FileManager.default.attributesOfItem(atPath: directory)[.systemFileNumber] as? Int
        #expect(first != second, "files are never replaced one by one inside the old directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: parent) == ["report"])
    }

    @Test("a directory holding other files is refused and left as it was")
    func foreignDirectory() throws {
        let directory = try Fixtures.temporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("mine".utf8)))
        #expect(throws: ReportWriteError.self) {
            try ReportWriter.write(ReportContent(title: "t", traceFile: "t"), to: directory)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notes.txt"])
    }

    @Test("a directory that cannot be created is a typed error naming it")
    func unwritableDirectory() throws {
        let file = try Fixtures.temporaryDirectory() + "/plain-file"
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: ReportWriteError.self) {
            try ReportWriter.write(ReportContent(title: "t", traceFile: "t"), to: file + "/report")
        }
    }
}

@Suite("big traces")
struct BigTraceTests {
    @Test("a million events stream through the builder into a bounded, evenly sampled table")
    func millionEventsThroughTheBuilder() throws {
        var builder = EventTable.Builder()
        for sequence in 1...1_000_000 {
            builder.add(
                EventRow(
                    sequence: UInt64(sequence), time: UInt64(sequence) * 100, thread: 1, kind: "updated",
                    description: "u"))
        }
        let table = builder.table
        #expect(table.totalCount == 1_000_000)
        #expect(table.rows.count <= 4_000)
        #expect(table.rows.first?.sequence == 1)
        #expect(table.rows.last?.sequence == 1_000_000)
        #expect(table.rows.map(\.sequence) == table.rows.map(\.sequence).sorted())
        let sampling = try #require(table.sampling as EventTable.Sampling?)
        #expect(sampling.head == 1_000)
        #expect(sampling.tail == 1_000)
        #expect(sampling.stride > 1)
    }

    @Test("a content holding a million rows is cut to the row cap, and the page says how")
    func millionRowsAreCapped() {
        let rows = (1...1_000_000).map {
            EventRow(sequence: UInt64($0), time: UInt64($0), thread: 1, kind: "bound", description: "b")
        }
        let content = ReportContent(title: "big", traceFile: "big.trace", events: EventTable(rows: rows))
        let limits = ReportLimits()
        let html = ReportWriter.html(content, options: ReportOptions(limits: limits))
        let rowCount = html.components(separatedBy: "<tr data-kind=").count - 1
        #expect(rowCount <= limits.maxEventRows)
        #expect(rowCount >= limits.maxEventRows / 2)
        #expect(html.contains("of 1,000,000 events: the first 1,000 events"))
        #expect(html.utf8.count < 2_000_000)
    }
}
