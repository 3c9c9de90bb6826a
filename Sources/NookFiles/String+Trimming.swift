extension StringProtocol {
    /// The text without the whitespace and newlines at either end (`Character.isWhitespace`,
    /// which counts newlines): Foundation's `trimmingCharacters(in:)` without Foundation.
    public var trimmingWhitespace: String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
