extension ClassList {
    /// True when `token` is one class the parser reads as nothing of its own (no group,
    /// shared, animation, layout or variant meaning): a name a renderer may know, or a
    /// named rule (`rules.named.<name>`) to be expanded.
    ///
    /// `.twAnimation` keeps such tokens, so a rule holding animation classes still counts there.
    public static func isPlainName(_ token: String) -> Bool {
        let list = ClassList(parsing: token)
        return list.passthrough == [token] && list.group == nil && list.shared == nil && list.sharedProperties == nil
            && list.sharedRole == nil && list.animation.isEmpty && list.layout.isEmpty && list.variants.isEmpty
            && list.diagnostics.isEmpty
    }
}
