import CFontText
import NookCore

/// The fonts and cache behind one `FontTextMeasurer`; only ever used under its lock.
final class FontState {
    let family: String
    var cache: MeasurementCache
    /// Fontconfig's sorted fonts per family, weight and language, found on first use.
    private var fontSets: [FontSetKey: FontSet] = [:]
    /// The set a segment takes, per weight, script and emoji flag, found on first use: a
    /// segment then costs neither the script's language nor hashing the family and language.
    private var segmentFontSets: [SegmentFontSetKey: FontSet] = [:]
    /// The last of those used: labels keep to one weight and script, and comparing the key
    /// costs a tenth of hashing it.
    private var lastSegmentFontSet: (key: SegmentFontSetKey, fonts: FontSet)?
    /// The locale's language, read once (Pango reads it once too).
    let language: TextLanguage
    /// HarfBuzz fonts by file and face index, loaded on first use and kept.
    private var shapers: [FaceKey: Shaper] = [:]
    /// The one HarfBuzz buffer every run is shaped in, cleared before each (creating and
    /// destroying one per run cost as much as filling it).
    private let shapingBuffer: OpaquePointer
    /// `tnum` (monospaced digits), parsed once.
    private let tabularDigits: [hb_feature_t]
    /// The string being measured as scalars, and a segment's items: kept between strings for
    /// their storage.
    private var scalars: [UInt32] = []
    private var items: [Item] = []

    init(family: String, cacheCapacity: Int) {
        self.family = family
        cache = MeasurementCache(capacity: cacheCapacity)
        language = TextLanguage.current
        shapingBuffer = hb_buffer_create()
        var tnum = hb_feature_t()
        tabularDigits = hb_feature_from_string("tnum", -1, &tnum) != 0 ? [tnum] : []
        FcInit()
    }

    deinit {
        for shaper in shapers.values { hb_font_destroy(shaper.font) }
        hb_buffer_destroy(shapingBuffer)
    }

    struct FontSetKey: Hashable {
        var family: String
        var weight: Int
        var language: String
    }

    struct SegmentFontSetKey: Hashable {
        var weight: Int
        var script: UInt32
        var isEmoji: Bool
    }

    struct FaceKey: Hashable {
        var file: String
        var index: Int32
    }

    /// A HarfBuzz font at its design scale (one unit is 1/`unitsPerEm` em).
    struct Shaper {
        var font: OpaquePointer
        var unitsPerEm: Double
        /// Ascent and descent (positive down), in ems.
        var ascent: Double
        var descent: Double
    }

    // MARK: Fonts

    /// Fontconfig's fonts for `family` at `weight` for `language`, best first, asked for as
    /// Pango asks: family, weight (from its CSS value), roman slant, language, substituted
    /// and sorted.
    func fonts(family: String, weight: Int, language: String) -> FontSet {
        let key = FontSetKey(family: family, weight: weight, language: language)
        if let known = fontSets[key] { return known }
        var found: [FontFace] = []
        if let pattern = FcPatternCreate() {
            defer { FcPatternDestroy(pattern) }
            FcPatternAddString(pattern, "family", family)
            FcPatternAddDouble(pattern, "weight", FcWeightFromOpenTypeDouble(Double(weight)))
            FcPatternAddInteger(pattern, "slant", 0)
            FcPatternAddString(pattern, "lang", language)
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            if let set = FcFontSort(nil, pattern, 1, nil, &result) {
                defer { FcFontSetDestroy(set) }
                for slot in 0..<Int(set.pointee.nfont) {
                    guard let candidate = set.pointee.fonts[slot],
                          let prepared = FcFontRenderPrepare(nil, pattern, candidate) else { continue }
                    defer { FcPatternDestroy(prepared) }
                    if let face = Self.face(prepared) { found.append(face) }
                }
            }
        }
        let set = FontSet(faces: found)
        fontSets[key] = set
        return set
    }

    /// The fonts text in the measurer's family at `weight` uses first, for the locale.
    func fonts(weight: Int) -> FontSet {
        fonts(family: family, weight: weight, language: language.locale)
    }

    /// A prepared pattern as a face, when it is a scalable font Pango would use.
    private static func face(_ pattern: OpaquePointer) -> FontFace? {
        var file: UnsafeMutablePointer<FcChar8>?
        var charset: OpaquePointer?
        var index: Int32 = 0
        var format: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, "file", 0, &file) == FcResultMatch, let file,
              FcPatternGetCharSet(pattern, "charset", 0, &charset) == FcResultMatch, let charset else { return nil }
        _ = FcPatternGetInteger(pattern, "index", 0, &index)
        // Pango draws TrueType and CFF fonts only (no bitmap or Type 1 fonts).
        if FcPatternGetString(pattern, "fontformat", 0, &format) == FcResultMatch, let format {
            let name = String(cString: format)
            guard name == "TrueType" || name == "CFF" else { return nil }
        }
        return FontFace(file: String(cString: file), index: index, charset: FcCharSetCopy(charset))
    }

    /// The set for a segment's script, emoji flag and `weight`.
    private func fonts(for segment: TextItemizer.Segment, weight: Int) -> FontSet {
        let key = SegmentFontSetKey(weight: weight, script: segment.script.rawValue, isEmoji: segment.isEmoji)
        if let last = lastSegmentFontSet, last.key == key { return last.fonts }
        let set = segmentFontSets[key] ?? fonts(family: segment.isEmoji ? "emoji" : family, weight: weight, language: language.language(for: segment.script))
        segmentFontSets[key] = set
        lastSegmentFontSet = (key, set)
        return set
    }

    /// The HarfBuzz font of `face` in `set`.
    private func shaper(_ set: FontSet, _ face: Int) -> Shaper {
        if let known = set.shapers[face] { return known }
        let shaper = shaper(set.faces[face])
        set.shapers[face] = shaper
        return shaper
    }

    private func shaper(_ face: FontFace) -> Shaper {
        let key = FaceKey(file: face.file, index: face.index)
        if let known = shapers[key] { return known }
        let blob = hb_blob_create_from_file(face.file)
        let hbFace = hb_face_create(blob, UInt32(max(0, face.index)))
        let font = hb_font_create(hbFace)!
        let unitsPerEm = Double(max(1, hb_face_get_upem(hbFace)))
        hb_face_destroy(hbFace)
        hb_blob_destroy(blob)
        var extents = hb_font_extents_t()
        _ = hb_font_get_h_extents(font, &extents)
        let shaper = Shaper(
            font: font, unitsPerEm: unitsPerEm, ascent: Double(extents.ascender) / unitsPerEm,
            descent: Double(-extents.descender) / unitsPerEm)
        shapers[key] = shaper
        return shaper
    }

    // MARK: Measuring

    /// `text`'s advances and line height at a size of one em.
    func measure(_ text: String, weight: Int, monospacedDigits: Bool) -> MeasuredText {
        if let line = text.utf8.withContiguousStorageIfAvailable({ measureASCIILine($0, weight: weight, monospacedDigits: monospacedDigits) }),
           let line {
            return line
        }
        return measureAnyText(text, weight: weight, monospacedDigits: monospacedDigits)
    }

    /// `measure` for a line of ASCII (a label like `track 12`) whose characters all take one
    /// face, read from the string's bytes: it is what `measureAnyText` does for such a line
    /// (one paragraph, one segment, one run, the whole line its context), without the
    /// scalars, segments and items. Nil for any other text (empty, a line break, a non-ASCII
    /// byte, characters of different faces, no fonts), which goes the general way.
    func measureASCIILine(_ bytes: UnsafeBufferPointer<UInt8>, weight: Int, monospacedDigits: Bool) -> MeasuredText? {
        guard !bytes.isEmpty else { return nil }
        var hasLetter = false
        for byte in bytes {
            guard byte < 0x80, byte != 0x0A, byte != 0x0D else { return nil }
            if TextItemizer.isASCIILetter(UInt32(byte)) { hasLetter = true }
        }
        let segment = TextItemizer.Segment(range: 0..<bytes.count, script: hasLetter ? HB_SCRIPT_LATIN : HB_SCRIPT_COMMON, isEmoji: false)
        let fonts = fonts(for: segment, weight: weight)
        guard !fonts.faces.isEmpty, let face = Self.soleASCIIFace(bytes, 0..<bytes.count, in: fonts) else { return nil }
        let shaper = shaper(fonts, face)
        var advances = Self.zeroes(bytes.count)
        hb_buffer_clear_contents(shapingBuffer)
        // ASCII bytes are their scalars, and Latin-1 clusters are byte indices: the buffer
        // holds what `hb_buffer_add_utf32` puts in it from the scalars.
        hb_buffer_add_latin1(shapingBuffer, bytes.baseAddress!, Int32(bytes.count), 0, Int32(bytes.count))
        shapeBuffer(script: segment.script, with: shaper, features: monospacedDigits ? tabularDigits : [], paragraphStart: 0, into: &advances)
        return MeasuredText(advances: advances, lineHeight: lineHeight(ascent: max(0, shaper.ascent), descent: max(0, shaper.descent), weight: weight))
    }

    /// `measure` the general way: paragraphs, segments, items and runs from the scalars.
    func measureAnyText(_ text: String, weight: Int, monospacedDigits: Bool) -> MeasuredText {
        let features = monospacedDigits ? tabularDigits : []
        var scalars = takeScalars()
        defer { self.scalars = scalars }
        for scalar in text.unicodeScalars { scalars.append(scalar.value) }
        var advances = Self.zeroes(scalars.count)
        var ascent = 0.0
        var descent = 0.0
        scalars.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                var end = start
                while end < buffer.count, buffer[end] != 0x0A, buffer[end] != 0x0D { end += 1 }
                if end > start {
                    forEachRun(buffer, start..<end, weight: weight) { run in
                        let shaper = shaper(run.fonts, run.face)
                        ascent = max(ascent, shaper.ascent)
                        descent = max(descent, shaper.descent)
                        shape(buffer, paragraph: start..<end, run: run, with: shaper, features: features, into: &advances)
                    }
                }
                start = end + 1
            }
        }
        return MeasuredText(advances: advances, lineHeight: lineHeight(ascent: ascent, descent: descent, weight: weight))
    }

    /// The line height of text whose fonts reach `ascent` and `descent` (both zero: no glyphs,
    /// as in an empty string or only line breaks, and the primary font's line is taken).
    private func lineHeight(ascent: Double, descent: Double, weight: Int) -> Double {
        var ascent = ascent
        var descent = descent
        if ascent + descent == 0, let primary = fonts(weight: weight).faces.first.map(shaper) {
            ascent = primary.ascent
            descent = primary.descent
        }
        if ascent + descent == 0 { ascent = TextMetrics.lineHeightFactor }
        return ascent + descent
    }

    /// `count` zero advances. Reserving and appending keeps to code specialized for `Double`;
    /// `Array(repeating:count:)` allocates through the standard library's unspecialized
    /// path, which looks the storage's type up at run time (about 450 instructions a call).
    static func zeroes(_ count: Int) -> [Double] {
        var zeroes: [Double] = []
        zeroes.reserveCapacity(count)
        for _ in 0..<count { zeroes.append(0) }
        return zeroes
    }

    struct Run {
        var range: Range<Int>
        var fonts: FontSet
        var face: Int
        var script: hb_script_t
    }

    /// Characters of one segment that take one face (nil: none picked yet).
    struct Item {
        var range: Range<Int>
        var face: Int?
    }

    /// `scalars`, emptied, its storage kept and unshared while it is filled.
    private func takeScalars() -> [UInt32] {
        var taken: [UInt32] = []
        swap(&taken, &scalars)
        taken.removeAll(keepingCapacity: true)
        return taken
    }

    /// A paragraph in runs of one font and script, one by one (see `FontTextMeasurer` and
    /// `TextItemizer`).
    private func forEachRun(_ text: UnsafeBufferPointer<UInt32>, _ paragraph: Range<Int>, weight: Int, _ body: (Run) -> Void) {
        var items: [Item] = []
        swap(&items, &self.items)
        defer { self.items = items }
        TextItemizer.forEachSegment(text, paragraph) { segment in
            let fonts = fonts(for: segment, weight: weight)
            guard !fonts.faces.isEmpty else { return }
            if let face = Self.soleASCIIFace(text, segment.range, in: fonts) {
                return body(Run(range: segment.range, fonts: fonts, face: face, script: segment.script))
            }
            Self.collectItems(text, segment.range, in: fonts, into: &items)
            for item in items {
                body(Run(range: item.range, fonts: fonts, face: item.face ?? fonts.face(for: 0x20), script: segment.script))
            }
        }
    }

    /// A segment's items: where the face its characters take changes. Characters that pick no
    /// font join the item they are in; at the start of the segment they wait for the first
    /// font picked (a space, if none is, see `forEachRun`). Where the font changes, spaces
    /// ending an item that holds more than spaces move to the new item when its font has them.
    static func collectItems(_ text: UnsafeBufferPointer<UInt32>, _ segment: Range<Int>, in fonts: FontSet, into items: inout [Item]) {
        items.removeAll(keepingCapacity: true)
        var trailingSpaces = 0
        for position in segment {
            let value = text[position]
            let picked = choosesFont(value) ? fonts.face(for: value) : nil
            if var last = items.last, picked == nil || last.face == nil || last.face == picked {
                if last.face == nil, let picked { last.face = picked }
                last.range = last.range.lowerBound..<(position + 1)
                items[items.count - 1] = last
            } else if let last = items.last {
                var start = position
                if let picked, trailingSpaces > 0, trailingSpaces < last.range.count,
                   (position - trailingSpaces..<position).allSatisfy({ fonts.face(picked, has: text[$0]) }) {
                    start = position - trailingSpaces
                    items[items.count - 1].range = last.range.lowerBound..<start
                }
                items.append(Item(range: start..<(position + 1), face: picked))
            } else {
                items.append(Item(range: position..<(position + 1), face: picked))
            }
            trailingSpaces = picked == nil && isSpace(value) ? trailingSpaces + 1 : 0
        }
    }

    /// The face of an ASCII segment whose characters all pick the same face (or none picks
    /// one): `collectItems` makes it one item of that face (of a space's, if none), so a
    /// label takes it without building items. Nil otherwise.
    static func soleASCIIFace<CodeUnit: FixedWidthInteger>(_ text: UnsafeBufferPointer<CodeUnit>, _ segment: Range<Int>, in fonts: FontSet) -> Int? {
        var sole: Int?
        for position in segment {
            let value = UInt32(truncatingIfNeeded: text[position])
            guard value < 0x80 else { return nil }
            guard choosesFont(value) else { continue }
            let face = fonts.face(for: value)
            if let sole, sole != face { return nil }
            sole = face
        }
        return sole ?? fonts.face(for: 0x20)
    }

    /// Whether a character picks its font: spaces (but Ogham's), controls, format characters
    /// and variation selectors do not (Pango's rule: never pick a font for a space).
    static func choosesFont(_ value: UInt32) -> Bool {
        // ASCII: controls and the space pick no font, every other character does.
        if value < 0x80 { return value > 0x20 && value != 0x7F }
        return choosesFontByCategory(value)
    }

    /// `choosesFont` from the character's general category (any character).
    static func choosesFontByCategory(_ value: UInt32) -> Bool {
        if (0xFE00...0xFE0F).contains(value) || (0xE0100...0xE01EF).contains(value) { return false }
        guard let scalar = Unicode.Scalar(value) else { return false }
        switch scalar.properties.generalCategory {
        case .control, .format, .surrogate, .lineSeparator, .paragraphSeparator: return false
        case .spaceSeparator: return value == 0x1680
        default: return true
        }
    }

    static func isSpace(_ value: UInt32) -> Bool {
        if value < 0x80 { return value == 0x20 }
        return isSpaceByCategory(value)
    }

    static func isSpaceByCategory(_ value: UInt32) -> Bool {
        Unicode.Scalar(value)?.properties.generalCategory == .spaceSeparator
    }

    private func shape(
        _ text: UnsafeBufferPointer<UInt32>, paragraph: Range<Int>, run: Run, with shaper: Shaper, features: [hb_feature_t],
        into advances: inout [Double]
    ) {
        // Cleared, the buffer is as a new one: no text, context or properties.
        hb_buffer_clear_contents(shapingBuffer)
        // The whole paragraph goes in as context; clusters are indices into it.
        hb_buffer_add_utf32(
            shapingBuffer, text.baseAddress! + paragraph.lowerBound, Int32(paragraph.count),
            UInt32(run.range.lowerBound - paragraph.lowerBound), Int32(run.range.count))
        shapeBuffer(script: run.script, with: shaper, features: features, paragraphStart: paragraph.lowerBound, into: &advances)
    }

    /// Shapes the run in the buffer in `script` and adds each glyph's advance, in ems, to its
    /// cluster's scalar (clusters count from `paragraphStart`).
    private func shapeBuffer(
        script: hb_script_t, with shaper: Shaper, features: [hb_feature_t], paragraphStart: Int, into advances: inout [Double]
    ) {
        hb_buffer_set_script(shapingBuffer, script)
        hb_buffer_set_direction(shapingBuffer, hb_script_get_horizontal_direction(script) == HB_DIRECTION_RTL ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        hb_buffer_set_language(shapingBuffer, hb_language_get_default())
        // `hb_shape`, not a kept shape plan: it also sets the buffer's limits on work (a guard
        // against fonts that never finish), as Pango's shaping does.
        features.withUnsafeBufferPointer { hb_shape(shaper.font, shapingBuffer, $0.baseAddress, UInt32($0.count)) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(shapingBuffer, &count),
              let positions = hb_buffer_get_glyph_positions(shapingBuffer, nil) else { return }
        advances.withUnsafeMutableBufferPointer { advances in
            for glyph in 0..<Int(count) {
                let scalar = paragraphStart + Int(infos[glyph].cluster)
                guard scalar < advances.count else { continue }
                advances[scalar] += Double(positions[glyph].x_advance) / shaper.unitsPerEm
            }
        }
    }
}
