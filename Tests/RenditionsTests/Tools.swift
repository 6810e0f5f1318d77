import Foundation
import Testing

/// Runs external programs (djpeg, ImageMagick's convert, cjpeg, /usr/bin/time, assetfs) for the tests.
enum Tools {
    struct Output {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
    }

    enum Failure: Error, CustomStringConvertible {
        case cannotStart(String, String)
        var description: String {
            switch self { case let .cannotStart(tool, why): "cannot run \(tool): \(why)" }
        }
    }

    /// Runs `arguments` (found on PATH) with `stdin` as standard input, collecting both outputs.
    static func run(_ arguments: [String], stdin: [UInt8]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        do { try process.run() } catch { throw Failure.cannotStart(arguments.joined(separator: " "), "\(error)") }
        // Read stderr and feed stdin on other threads so that no pipe fills up and deadlocks.
        let errorBox = Box<Data>(Data())
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) { errorBox.value = err.fileHandleForReading.readDataToEndOfFile() }
        if let stdin {
            let data = Data(stdin)
            DispatchQueue.global().async(group: group) {
                try? input.fileHandleForWriting.write(contentsOf: data)
                try? input.fileHandleForWriting.close()
            }
        }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        group.wait()
        return Output(status: process.terminationStatus, stdout: [UInt8](stdout),
                      stderr: String(decoding: errorBox.value, as: UTF8.self))
    }

    /// Decodes JPEG bytes with libjpeg-turbo's `djpeg -pnm`: P6 for colour, P5 for gray.
    static func djpeg(_ jpeg: [UInt8]) throws -> PNM {
        let output = try run(["djpeg", "-pnm"], stdin: jpeg)
        guard output.status == 0 else { throw PNM.Failure.tool("djpeg exit \(output.status): \(output.stderr)") }
        return try PNM(output.stdout)
    }

    /// ImageMagick's decode of `path` with `options` applied, as a binary PPM.
    static func convert(_ path: String, _ options: [String]) throws -> PNM {
        let output = try run(["convert", path] + options + ["-depth", "8", "ppm:-"])
        guard output.status == 0 else { throw PNM.Failure.tool("convert exit \(output.status): \(output.stderr)") }
        return try PNM(output.stdout)
    }

    /// A fresh private directory under the system temp dir.
    static func makeTemporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("assetfs-renditions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
        return url
    }
}

/// A mutable cell shared with another thread that is waited for before it is read.
final class Box<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

/// Runs `body` on its own thread and gives up on it after `seconds`: a hang becomes a recorded
/// failure (and `nil`) instead of a test run that never ends. The abandoned thread dies with the process.
func withHangGuard<T>(seconds: Double, _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
                      _ body: @escaping @Sendable () -> T) -> (value: T, seconds: Double)? {
    let result = Box<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let start = DispatchTime.now()
    let thread = Thread {
        result.value = body()
        done.signal()
    }
    thread.stackSize = 16 << 20
    thread.start()
    guard done.wait(timeout: .now() + seconds) == .success, let value = result.value else {
        Issue.record("\(what) did not finish within \(Int(seconds)) s", sourceLocation: sourceLocation)
        return nil
    }
    return (value, Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9)
}
