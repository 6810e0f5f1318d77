/// The jobs a lane has queued: most urgent first, then in the order they were queued. A job moved
/// to another priority (raised as Nuke raises a task to its most urgent subscriber, lowered when
/// that subscriber leaves) queues again at the end of that priority's line; its old place is
/// passed over when reached, as is the place of a job withdrawn.
struct JobQueue {
    private var jobs: [UInt64: (job: Scheduler.Job, priority: WorkPriority)] = [:]
    /// Sequence numbers per priority; an entry whose job has gone or moved is stale.
    private var lines: [FIFO<UInt64>] = WorkPriority.allCases.map { _ in FIFO() }

    var isEmpty: Bool { jobs.isEmpty }

    /// The priority and sequence number of the job `pop` would take.
    var first: (priority: WorkPriority, sequence: UInt64)? {
        for priority in WorkPriority.allCases {
            if let sequence = lines[priority.rawValue].first(where: { jobs[$0]?.priority == priority }) {
                return (priority, sequence)
            }
        }
        return nil
    }

    mutating func push(_ job: Scheduler.Job, priority: WorkPriority, sequence: UInt64) {
        jobs[sequence] = (job, priority)
        lines[priority.rawValue].push(sequence)
    }

    /// Moves a queued job to `priority`, more urgent or less (the end of that priority's line); a
    /// job gone (run, cancelled, withdrawn) stays gone.
    mutating func move(_ sequence: UInt64, to priority: WorkPriority) {
        guard let queued = jobs[sequence], priority != queued.priority else { return }
        jobs[sequence]?.priority = priority
        lines[priority.rawValue].push(sequence)
    }

    /// Takes a queued job out, so it never runs; nil when it is not queued (running, or done).
    mutating func remove(_ sequence: UInt64) -> Scheduler.Job? {
        jobs.removeValue(forKey: sequence)?.job
    }

    /// Takes the first job (there must be one), dropping the stale entries before it.
    mutating func pop() -> Scheduler.Job {
        for priority in WorkPriority.allCases {
            while let sequence = lines[priority.rawValue].pop() {
                if jobs[sequence]?.priority == priority { return jobs.removeValue(forKey: sequence)!.job }
            }
        }
        preconditionFailure("pop from an empty JobQueue")
    }

    /// Empties the queue, giving back its jobs in the order they were queued.
    mutating func removeAll() -> [Scheduler.Job] {
        defer { self = JobQueue() }
        return jobs.sorted { $0.key < $1.key }.map(\.value.job)
    }
}

/// First in, first out, without shifting the array on every take.
struct FIFO<Element> {
    private var elements: [Element] = []
    private var head = 0

    func first(where matches: (Element) -> Bool) -> Element? { elements[head...].first(where: matches) }

    mutating func push(_ element: Element) { elements.append(element) }

    mutating func pop() -> Element? {
        guard head < elements.count else { return nil }
        let element = elements[head]
        head += 1
        if head == elements.count {
            elements.removeAll(keepingCapacity: true)
            head = 0
        } else if head > 1024 && head * 2 > elements.count {
            elements.removeFirst(head)
            head = 0
        }
        return element
    }
}
