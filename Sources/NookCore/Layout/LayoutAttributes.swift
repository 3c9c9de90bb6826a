/// What layout needs to know about one node, with props and class utilities merged.
///
/// Precedence: an explicit prop always wins over a class utility for the same thing
/// (`width` over `w-*`/`size-*`, `height` over `h-*`/`size-*`, `padding` over every `p-*`,
/// `spacing` over `gap-*`). Among class utilities the later token wins, edge by edge for
/// padding (`p-2 pt-0` is 8 pt everywhere except the top). Tokens with a `:` are variants the
/// renderer resolves against state, so layout ignores them; unknown tokens are ignored too.
/// A token naming a theme rule (`rules.named`, SPEC rule 24) stands for that rule's layout
/// utilities, in its place among the others.
///
/// Values are sanitised so layout can never produce NaN: a NaN or infinite length is treated
/// as absent, a negative one as 0, one past `NumberDomain.length` as its bound (validation
/// refuses those; a tree built by other means is still laid out finitely), and a `max_*`
/// below its `min_*` is raised to it.
struct LayoutAttributes: Sendable {
    var fixedWidth: Double?
    var fixedHeight: Double?
    var minWidth: Double?
    var maxWidth: Double?
    var minHeight: Double?
    var maxHeight: Double?
    var padding: EdgeInsets
    /// Explicit stack spacing (prop or `gap-*`); nil means the adaptive default.
    var spacing: Double?

    init(_ node: borrowing ViewNode, rules: NamedLayoutRules = .none) {
        self = withUnsafePointer(to: node) { LayoutAttributes($0, rules: rules) }
    }

    init(_ pointer: UnsafePointer<ViewNode>, rules: NamedLayoutRules = .none) {
        // Most nodes have neither classes nor layout props: nothing to merge.
        guard pointer.pointee.props.classes != nil || pointer.pointee.props.hasLayoutProps else {
            self = .plain
            return
        }
        var classWidth: Double?
        var classHeight: Double?
        var classPadding: EdgeInsets?
        var classGap: Double?
        if let classes = pointer.pointee.props.classes {
            Self.forEachUtility(in: classes, rules: rules) { utility in
                switch utility {
                case .width(let points): classWidth = points
                case .height(let points): classHeight = points
                case .size(let points): classWidth = points; classHeight = points
                case .padding(let edges, let points):
                    var insets = classPadding ?? .zero
                    edges.apply(points, to: &insets)
                    classPadding = insets
                case .gap(let points): classGap = points
                }
            }
        }
        // The layout group is read once (its props are plain numbers, so the copy is cheap).
        let props = pointer.pointee.props.layoutProps
        fixedWidth = Self.length(props?.width) ?? classWidth
        fixedHeight = Self.length(props?.height) ?? classHeight
        let minWidth = Self.length(props?.minWidth)
        let minHeight = Self.length(props?.minHeight)
        self.minWidth = minWidth
        self.minHeight = minHeight
        maxWidth = Self.length(props?.maxWidth).map { max($0, minWidth ?? 0) }
        maxHeight = Self.length(props?.maxHeight).map { max($0, minHeight ?? 0) }
        let insets = props?.padding ?? classPadding ?? .zero
        padding = EdgeInsets(
            top: Self.length(insets.top) ?? 0, leading: Self.length(insets.leading) ?? 0,
            bottom: Self.length(insets.bottom) ?? 0, trailing: Self.length(insets.trailing) ?? 0)
        spacing = Self.length(props?.spacing) ?? classGap

        // An image is square unless told otherwise: one fixed side sets the other.
        if pointer.pointee.kind == .image {
            if fixedWidth == nil, let height = fixedHeight { fixedWidth = height }
            if fixedHeight == nil, let width = fixedWidth { fixedHeight = width }
        }
    }

    /// Calls `body` with each plain layout utility of a class string, in order. Tokens are
    /// separated by ASCII whitespace; a token naming a rule gives the rule's utilities; any
    /// other token with a `:` is a variant and is skipped.
    static func forEachUtility(in classes: String, rules: NamedLayoutRules = .none, _ body: (LayoutUtility) -> Void) {
        // Tokens are found in the string's contiguous bytes (native strings always have
        // them): stepping `String.UTF8View` indices costs several times more, and this runs
        // for every node with classes on every plan. Whitespace and `:` are ASCII, so byte
        // boundaries are character boundaries.
        let utf8 = classes.utf8
        let scanned: Void? = utf8.withContiguousStorageIfAvailable { bytes in
            var offset = 0
            while offset < bytes.count {
                while offset < bytes.count, bytes[offset].isWhitespace { offset += 1 }
                let start = offset
                var isVariant = false
                while offset < bytes.count, !bytes[offset].isWhitespace {
                    if bytes[offset] == UInt8(ascii: ":") { isVariant = true }
                    offset += 1
                }
                guard start < offset else { continue }
                let end = offset
                func token() -> Substring {
                    let from = utf8.index(utf8.startIndex, offsetBy: start)
                    return classes[from..<utf8.index(from, offsetBy: end - start)]
                }
                // Rules first, as the class parser takes them (no lookup at all without rules).
                if !rules.isEmpty, let expansion = rules.expansion(of: token()) {
                    for utility in expansion { body(utility) }
                } else if !isVariant, let utility = utility(UnsafeBufferPointer(rebasing: bytes[start..<end]), token: token) {
                    body(utility)
                }
            }
        }
        guard scanned == nil else { return }
        var index = classes.startIndex
        let end = classes.endIndex
        while index < end {
            while index < end, classes.utf8[index].isWhitespace { index = classes.utf8.index(after: index) }
            let start = index
            var isVariant = false
            while index < end, !classes.utf8[index].isWhitespace {
                if classes.utf8[index] == UInt8(ascii: ":") { isVariant = true }
                index = classes.utf8.index(after: index)
            }
            guard start < index else { continue }
            if !rules.isEmpty, let expansion = rules.expansion(of: classes[start..<index]) {
                for utility in expansion { body(utility) }
            } else if !isVariant, let utility = utility(classes[start..<index]) {
                body(utility)
            }
        }
    }

    /// `LayoutUtility.parse`, with a quick answer for the common shapes: tokens that cannot
    /// be layout utilities (`group/hero`, `shared-[cover]`, `bg-red-500`) are turned away by
    /// their prefix, and whole-unit values (`w-20`) are read without a general number parser.
    /// Anything else goes to `LayoutUtility.parse`; a test checks both agree on every token.
    static func utility(_ token: Substring) -> LayoutUtility? {
        if let answer = token.utf8.withContiguousStorageIfAvailable({ utility($0, token: { token }) }) { return answer }
        return Array(token.utf8).withUnsafeBufferPointer { utility($0, token: { token }) }
    }

    /// `utility(_:)` on the token's bytes; `token` gives the token itself for the general parser.
    static func utility(_ bytes: UnsafeBufferPointer<UInt8>, token: () -> Substring) -> LayoutUtility? {
        guard let dash = bytes.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        guard dash >= 1, dash <= 4 else { return nil }
        var prefix: UInt32 = 0
        for offset in 0..<dash { prefix = prefix << 8 | UInt32(bytes[offset]) }
        let make: (Double) -> LayoutUtility
        switch prefix {
        case 0x77: make = LayoutUtility.width                                       // w
        case 0x68: make = LayoutUtility.height                                      // h
        case 0x7369_7A65: make = LayoutUtility.size                                 // size
        case 0x67_6170: make = LayoutUtility.gap                                    // gap
        case 0x70: make = { .padding(.all, $0) }                                    // p
        case 0x7078: make = { .padding(.horizontal, $0) }                           // px
        case 0x7079: make = { .padding(.vertical, $0) }                             // py
        case 0x7074: make = { .padding(.top, $0) }                                  // pt
        case 0x7062: make = { .padding(.bottom, $0) }                               // pb
        case 0x7073: make = { .padding(.leading, $0) }                              // ps
        case 0x7065: make = { .padding(.trailing, $0) }                             // pe
        default: return nil
        }
        var units = 0
        var digits = 0
        for offset in (dash + 1)..<bytes.count {
            let byte = bytes[offset]
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < 6 else {
                return LayoutUtility.parse(token())
            }
            units = units * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        guard digits > 0 else { return nil }
        return make(NumberDomain.classLength.clamped(Double(units) * LayoutUtility.pointsPerUnit))
    }

    /// No frame, no padding, default spacing: what most nodes have.
    static let plain = LayoutAttributes(
        fixedWidth: nil, fixedHeight: nil, minWidth: nil, maxWidth: nil, minHeight: nil, maxHeight: nil,
        padding: .zero, spacing: nil)

    private init(fixedWidth: Double?, fixedHeight: Double?, minWidth: Double?, maxWidth: Double?,
                 minHeight: Double?, maxHeight: Double?, padding: EdgeInsets, spacing: Double?) {
        self.fixedWidth = fixedWidth
        self.fixedHeight = fixedHeight
        self.minWidth = minWidth
        self.maxWidth = maxWidth
        self.minHeight = minHeight
        self.maxHeight = maxHeight
        self.padding = padding
        self.spacing = spacing
    }

    var isPlain: Bool {
        fixedWidth == nil && fixedHeight == nil && minWidth == nil && maxWidth == nil && minHeight == nil
            && maxHeight == nil && padding == .zero && spacing == nil
    }

    /// A usable length: finite and within `NumberDomain.length`, or nil.
    static func length(_ value: Double?) -> Double? {
        guard let value, value.isFinite else { return nil }
        return NumberDomain.length.clamped(value)
    }
}

private extension UInt8 {
    var isWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D || self == 0x0C }
}
