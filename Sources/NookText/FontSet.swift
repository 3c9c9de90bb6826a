import CFontText

/// One font of a sorted set: where it is and which characters it has.
struct FontFace {
    var file: String
    var index: Int32
    var charset: OpaquePointer
}

/// One of fontconfig's sorted font sets (a family at a weight for a language) as runs pick
/// fonts from it: its faces, best first, and which face each ASCII character takes, found
/// once, since asking each face's charset for every character of every string was a tenth of
/// measuring a short label. The set owns its faces' charsets.
final class FontSet {
    let faces: [FontFace]
    /// `firstFace(having:in:)` per ASCII value.
    private let asciiFaces: [Int]
    /// Each face's HarfBuzz font once a run used it (finding it by file path hashes the path).
    var shapers: [FontState.Shaper?]

    init(faces: [FontFace]) {
        self.faces = faces
        asciiFaces = (UInt32(0)..<0x80).map { Self.firstFace(having: $0, in: faces) }
        shapers = Array(repeating: nil, count: faces.count)
    }

    deinit {
        for face in faces { FcCharSetDestroy(face.charset) }
    }

    /// The face `value` takes: the first that has it, or the first when none has it.
    func face(for value: UInt32) -> Int {
        value < 0x80 ? asciiFaces[Int(value)] : Self.firstFace(having: value, in: faces)
    }

    func face(_ face: Int, has value: UInt32) -> Bool {
        FcCharSetHasChar(faces[face].charset, value) != 0
    }

    /// `face(for:)` asked of the charsets, face by face.
    static func firstFace(having value: UInt32, in faces: [FontFace]) -> Int {
        faces.firstIndex { FcCharSetHasChar($0.charset, value) != 0 } ?? 0
    }
}
