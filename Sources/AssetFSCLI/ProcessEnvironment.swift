import Glibc

enum ProcessEnvironment {
    static var home: String? { getenv("HOME").map { String(cString: $0) } }

    /// The variables among `names` that are set.
    static func variables(_ names: [String]) -> [String: String] {
        Dictionary(uniqueKeysWithValues: names.compactMap { name in getenv(name).map { (name, String(cString: $0)) } })
    }

    static var currentDirectory: String {
        guard let cwd = getcwd(nil, 0) else { return "/" }
        defer { free(cwd) }
        return String(cString: cwd)
    }

    static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// The machine's RAM in bytes (0 if unknown).
    static var physicalMemory: Int { max(0, Int(sysconf(Int32(_SC_PHYS_PAGES)))) * max(0, Int(sysconf(Int32(_SC_PAGESIZE)))) }
}
