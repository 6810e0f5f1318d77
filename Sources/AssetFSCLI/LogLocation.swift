import Posix

/// Where a mount in the background logs. syslog(3) drops messages without a word where nothing
/// listens on /dev/log (containers often have no syslog), so then a file:
/// `$XDG_STATE_HOME/assetfs/assetfs.log`, else `~/.local/state/assetfs/assetfs.log`, else (no
/// HOME, as in a mount at boot) `/var/log/assetfs/assetfs.log`. `-o log=FILE` is always used when given.
enum LogLocation: Equatable {
    case syslog
    case file(FilePath, isDefault: Bool)

    static func choose(explicit: FilePath?, environment: [String: String], syslogSocket: FilePath = FilePath("/dev/log")) -> LogLocation {
        if let explicit { return .file(explicit, isDefault: false) }
        if SyslogSocket.acceptsMessages(at: syslogSocket) { return .syslog }
        return .file(defaultFile(environment: environment), isDefault: true)
    }

    static func defaultFile(environment: [String: String]) -> FilePath {
        let base: FilePath
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {  // the XDG spec ignores relative ones
            base = FilePath(state)
        } else if let home = environment["HOME"], !home.isEmpty {
            base = FilePath(home).appending(Array(".local/state".utf8))
        } else {
            base = FilePath("/var/log")
        }
        return base.appending(Array("assetfs".utf8)).appending(Array("assetfs.log".utf8))
    }

    /// Opened now, before the mount, so that a log that cannot be written is an error the caller
    /// sees. The default folder is made 0700 (the log names photos), the file 0600.
    func destination() throws(UsageError) -> Log.Destination {
        switch self {
        case .syslog:
            return .syslog
        case .file(let path, let isDefault):
            do {
                if isDefault { try Directory.create(path.parent, permissions: 0o700) }
                return .file(SharedFileDescriptor(try OwnedFileDescriptor.openForAppending(path, permissions: 0o600)), path: path)
            } catch {
                throw UsageError("cannot open the log file \(path): \(error); give another with -o log=FILE")
            }
        }
    }
}
