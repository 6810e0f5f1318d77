internal import CExif

/// The EXIF fields properties come from, read with libexif from one EXIF block.
struct EXIFMetadata {
    var orientation = 1
    var date: TakenDate?
    var camera: [UInt8]?
    var location: Coordinates?

    // IFDs as libexif numbers them, and the tags read (`CompactEXIF` copies these).
    static let ifd0: Int32 = 0, exifIFD: Int32 = 2, gpsIFD: Int32 = 3
    static let make: Int32 = 0x010F, model: Int32 = 0x0110, orientationTag: Int32 = 0x0112
    static let dateTimeOriginal: Int32 = 0x9003, dateTimeDigitized: Int32 = 0x9004
    static let offsetTimeOriginal: Int32 = 0x9011, offsetTimeDigitized: Int32 = 0x9012
    static let latitudeRef: Int32 = 1, latitude: Int32 = 2, longitudeRef: Int32 = 3, longitude: Int32 = 4

    init?(_ block: [UInt8]) {
        guard let data = block.withUnsafeBufferPointer({ cexif_load_as_is($0.baseAddress, UInt32($0.count)) }) else { return nil }
        defer { exif_data_unref(data) }
        let order = exif_data_get_byte_order(data)

        func ascii(_ ifds: [Int32], _ tag: Int32) -> [UInt8]? {
            for ifd in ifds {
                guard let entry = cexif_entry(data, ifd, tag), let bytes = entry.pointee.data, entry.pointee.size > 0 else { continue }
                var text = Array(UnsafeBufferPointer(start: bytes, count: Int(entry.pointee.size)))
                if let nul = text.firstIndex(of: 0) { text.removeSubrange(nul...) }
                while let last = text.last, last == 0x20 || last == 0x09 { text.removeLast() }
                while let first = text.first, first == 0x20 || first == 0x09 { text.removeFirst() }
                if !text.isEmpty { return text }
            }
            return nil
        }

        let value = Int(cexif_orientation(data))
        orientation = (1...8).contains(value) ? value : 1
        let dateIFDs = [Self.exifIFD, Self.ifd0]
        if let text = ascii(dateIFDs, Self.dateTimeOriginal),
           let taken = TakenDate.exif(text, offset: ascii(dateIFDs, Self.offsetTimeOriginal), source: .exifOriginal) {
            date = taken
        } else if let text = ascii(dateIFDs, Self.dateTimeDigitized),
                  let taken = TakenDate.exif(text, offset: ascii(dateIFDs, Self.offsetTimeDigitized), source: .exifDigitized) {
            date = taken
        }
        camera = Self.camera(make: ascii([Self.ifd0], Self.make), model: ascii([Self.ifd0], Self.model))

        func degrees(_ tag: Int32, _ refTag: Int32, positive: UInt8, negative: UInt8) -> Double? {
            guard let ref = ascii([Self.gpsIFD], refTag)?.first, ref == positive || ref == negative,
                  let entry = cexif_entry(data, Self.gpsIFD, tag) else { return nil }
            var total = 0.0, scale = 1.0, any = false
            for index in 0..<3 {
                var numerator: UInt32 = 0, denominator: UInt32 = 0
                guard cexif_rational(entry, order, UInt32(index), &numerator, &denominator) != 0 else { break }
                guard denominator != 0 else { return nil }
                total += Double(numerator) / Double(denominator) / scale
                scale *= 60
                any = true
            }
            guard any else { return nil }
            return ref == negative ? -total : total
        }
        if let lat = degrees(Self.latitude, Self.latitudeRef, positive: 0x4E, negative: 0x53),
           let lon = degrees(Self.longitude, Self.longitudeRef, positive: 0x45, negative: 0x57),
           abs(lat) <= 90, abs(lon) <= 180, lat != 0 || lon != 0 {  // 0,0: a GPS without a fix
            location = Coordinates(latitude: lat, longitude: lon)
        }
    }

    /// "Make Model", or the model alone when it begins with the make ("Canon" + "Canon EOS 7D").
    static func camera(make: [UInt8]?, model: [UInt8]?) -> [UInt8]? {
        switch (make, model) {
        case (nil, nil): return nil
        case (let make?, nil): return make
        case (nil, let model?): return model
        case (let make?, let model?):
            let lower = { (bytes: [UInt8]) in bytes.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 } }
            return lower(model).starts(with: lower(make)) ? model : make + [0x20] + model
        }
    }
}
