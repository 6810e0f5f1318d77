import Foundation
import Glibc
import Posix
import Testing
@testable import AssetFSCLI

/// Where a background mount logs: `-o log=FILE`, else syslog when /dev/log takes messages, else a
/// file in the XDG state folder. The environment and the socket's path are given, not the process's.
@Suite struct LogLocationTests {
    /// A private folder for sockets and files, removed afterwards.
    func withFolder(_ body: (String) throws -> Void) throws {
        var template = Array("/tmp/assetfs-log.XXXXXX".utf8CString)
        let folder = String(cString: try #require(mkdtemp(&template)))
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try body(folder)
    }

    /// A datagram socket bound at `path`, as syslog daemons listen; closed after `body`.
    func withListener(at path: String, _ body: () throws -> Void) throws {
        let socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        try #require(socket >= 0)
        defer { close(socket) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(bound == 0, "bind \(path): \(String(cString: strerror(errno)))")
        try body()
    }

    let environment = ["XDG_STATE_HOME": "/state", "HOME": "/home/me"]

    @Test func withoutSyslogTheStateFolderThenHomeThenVarLog() throws {
        try withFolder { folder in
            let missing = FilePath(folder + "/log")
            #expect(LogLocation.choose(explicit: nil, environment: environment, syslogSocket: missing)
                    == .file(FilePath("/state/assetfs/assetfs.log"), isDefault: true))
            #expect(LogLocation.choose(explicit: nil, environment: ["HOME": "/home/me"], syslogSocket: missing)
                    == .file(FilePath("/home/me/.local/state/assetfs/assetfs.log"), isDefault: true))
            #expect(LogLocation.choose(explicit: nil, environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/me"], syslogSocket: missing)
                    == .file(FilePath("/home/me/.local/state/assetfs/assetfs.log"), isDefault: true), "a relative XDG_STATE_HOME is ignored")
            #expect(LogLocation.choose(explicit: nil, environment: [:], syslogSocket: missing)
                    == .file(FilePath("/var/log/assetfs/assetfs.log"), isDefault: true))
        }
    }

    @Test func syslogOnlyWhenSomethingListensOnItsSocket() throws {
        try withFolder { folder in
            let socket = folder + "/log"
            try withListener(at: socket) {
                #expect(LogLocation.choose(explicit: nil, environment: environment, syslogSocket: FilePath(socket)) == .syslog)
            }
            // The socket file is still there, but nobody listens: as good as none.
            #expect(FileManager.default.fileExists(atPath: socket))
            #expect(LogLocation.choose(explicit: nil, environment: environment, syslogSocket: FilePath(socket))
                    == .file(FilePath("/state/assetfs/assetfs.log"), isDefault: true))
            let plainFile = folder + "/file"
            #expect(FileManager.default.createFile(atPath: plainFile, contents: Data()))
            #expect(LogLocation.choose(explicit: nil, environment: environment, syslogSocket: FilePath(plainFile))
                    == .file(FilePath("/state/assetfs/assetfs.log"), isDefault: true), "not a socket")
        }
    }

    @Test func anExplicitFileIsAlwaysUsed() throws {
        try withFolder { folder in
            let socket = folder + "/log"
            try withListener(at: socket) {
                #expect(LogLocation.choose(explicit: FilePath("/var/log/mine.log"), environment: environment, syslogSocket: FilePath(socket))
                        == .file(FilePath("/var/log/mine.log"), isDefault: false))
            }
        }
    }

    @Test func theDefaultFileIsPrivate() throws {
        try withFolder { folder in
            let location = LogLocation.choose(explicit: nil, environment: ["XDG_STATE_HOME": folder + "/state"], syslogSocket: FilePath(folder + "/none"))
            guard case .file = try location.destination() else { Issue.record("not a file: \(location)"); return }
            let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/state/assetfs/assetfs.log")
            #expect((attributes[.posixPermissions] as? Int) == 0o600)
            let folderAttributes = try FileManager.default.attributesOfItem(atPath: folder + "/state/assetfs")
            #expect((folderAttributes[.posixPermissions] as? Int) == 0o700)
        }
    }
}
