import XCTest

/// An XCTest case that can catch the failures a body records (by overriding `recordFailure`), so a
/// planted leak is checked without failing the test itself.
class FailureCapturingTestCase: XCTestCase {
    private var captured: [(description: String, path: String, line: Int)] = []
    private var capturing = false

    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
        if capturing {
            captured.append((description, filePath, lineNumber))
        } else {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }

    func failures(of body: () -> Void) -> [(description: String, path: String, line: Int)] {
        _ = sharedProfile
        captured = []
        capturing = true
        body()
        capturing = false
        return captured
    }

    func failures(ofAsync body: () async -> Void) async -> [(description: String, path: String, line: Int)] {
        _ = sharedProfile
        captured = []
        capturing = true
        await body()
        capturing = false
        return captured
    }
}
