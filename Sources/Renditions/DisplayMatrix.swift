extension Orientation {
    /// The orientation a video's display matrix asks for, as one of the eight EXIF orientations.
    /// FFmpeg's matrix maps a stored point (x, y) to (a·x + c·y, b·x + d·y) with y pointing down;
    /// the signs of a, b, c, d name the turn and whether it mirrors (a negative determinant: a
    /// rotation-only reading, such as FFmpeg's own `rotation`, shows such a video flipped). A
    /// matrix that is not a quarter turn is taken as the nearest one.
    init(displayMatrix m: [Int32]) {
        guard m.count >= 5 else { self = .up; return }
        let a = m[0].signum(), b = m[1].signum(), c = m[3].signum(), d = m[4].signum()
        let straight = abs(Int64(m[0])) >= abs(Int64(m[1]))
        switch straight ? (a, 0, 0, d) : (0, b, c, 0) {
        case (-1, 0, 0, 1): self = .upMirrored
        case (-1, 0, 0, -1): self = .down
        case (1, 0, 0, -1): self = .downMirrored
        case (0, 1, 1, 0): self = .leftMirrored     // transpose
        case (0, 1, -1, 0): self = .right           // 90° clockwise
        case (0, -1, -1, 0): self = .rightMirrored  // transverse
        case (0, -1, 1, 0): self = .left            // 90° counter-clockwise
        default: self = .up
        }
    }
}
