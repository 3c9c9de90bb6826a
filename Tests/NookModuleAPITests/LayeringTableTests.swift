import Testing
import NookCore
@testable import NookModuleAPI

// The layering table of `Layers` as a table: a first modifier, a second one, and whether the
// second lands on the same node (merge) or on a wrapper. Each row is one cell of the table.

private let ns = Namespace("t")

private struct Row: CustomTestStringConvertible, Sendable {
    var name: String
    var wraps: Bool
    var build: @Sendable () -> EncodedView
    var testDescription: String { name }
}

private let rows: [Row] = [
    Row(name: "padding, padding", wraps: false) { Circle().padding(1).padding(2) },
    Row(name: "padding, frame", wraps: false) { Circle().padding(1).frame(width: 9) },
    Row(name: "frame, padding", wraps: true) { Circle().frame(width: 9).padding(1) },
    Row(name: "class padding, padding", wraps: true) { Circle().tw("p-1").padding(1) },
    Row(name: "padding, class padding", wraps: true) { Circle().padding(1).tw("p-1") },
    Row(name: "frame w, frame w", wraps: true) { Circle().frame(width: 9).frame(width: 8) },
    Row(name: "frame w, frame h", wraps: false) { Circle().frame(width: 9).frame(height: 8) },
    Row(name: "frame w, class w", wraps: true) { Circle().frame(width: 9).tw("w-2") },
    Row(name: "frame w, min h", wraps: false) { Circle().frame(width: 9).frame(minHeight: 8) },
    Row(name: "leading stack, frame", wraps: true) { VStack(alignment: .leading) {}.frame(width: 9) },
    Row(name: "centred stack, frame", wraps: false) { VStack(alignment: .center) {}.frame(width: 9) },
    Row(name: "opacity, frame", wraps: false) { Circle().opacity(0.5).frame(width: 9) },
    Row(name: "opacity, opacity", wraps: false) { Circle().opacity(0.5).opacity(0.5) },
    Row(name: "opacity, appearance", wraps: true) { Circle().opacity(0.5).tw("bg-red-500") },
    Row(name: "appearance, opacity", wraps: false) { Circle().tw("bg-red-500").opacity(0.5) },
    Row(name: "appearance, frame", wraps: true) { Circle().tw("bg-red-500").frame(width: 9) },
    Row(name: "appearance, appearance", wraps: false) { Circle().tw("bg-red-500").tw("rounded") },
    Row(name: "frame, mark", wraps: false) { Circle().frame(width: 9).nookSharedElement("a") },
    Row(name: "appearance, mark", wraps: false) { Circle().tw("bg-red-500").twShared("a", in: ns) },
    Row(name: "mark, frame", wraps: true) { Circle().nookSharedElement("a").frame(width: 9) },
    Row(name: "mark, padding", wraps: true) { Circle().nookSharedElement("a").padding(1) },
    Row(name: "mark, opacity", wraps: true) { Circle().nookSharedElement("a").opacity(0.5) },
    Row(name: "mark, appearance", wraps: true) { Circle().nookSharedElement("a").tw("bg-red-500") },
    Row(name: "mark, mark", wraps: true) { Circle().nookSharedElement("a").twShared("b", in: ns) },
    Row(name: "mark, class mark", wraps: false) { Circle().nookSharedElement("a").tw("shared-[b]") },
    Row(name: "class mark, class mark", wraps: true) { Circle().tw("shared-[a]").tw("shared-[b]") },
    Row(name: "class mark, frame class", wraps: true) { Circle().tw("shared-[a]").tw("w-4") },
    Row(name: "mark, group", wraps: false) { Circle().nookSharedElement("a").group("g") },
    Row(name: "group, group", wraps: true) { Circle().group().tw("group/g") },
    Row(name: "group, frame", wraps: false) { Circle().group("g").frame(width: 9) },
    Row(name: "group, mark", wraps: false) { Circle().group("g").nookSharedElement("a") },
    Row(name: "scope, frame", wraps: true) { Circle().tw("animate-smooth").frame(width: 9) },
    Row(name: "scope, opacity", wraps: true) { Circle().tw("", value: 1).opacity(0.5) },
    Row(name: "scope, mark", wraps: true) { Circle().twAnimation(.animation(.smooth), value: 1).nookSharedElement("a") },
    Row(name: "scope, scope", wraps: true) { Circle().tw("animate-smooth").twAnimation(.duration(0.2)) },
    Row(name: "scope, group", wraps: false) { Circle().tw("animate-smooth", value: 1).group() },
    Row(name: "mark, scope", wraps: false) { Circle().nookSharedElement("a").tw("animate-smooth", value: 1) },
    Row(name: "anything, role", wraps: false) { Circle().nookSharedElement("a").tw("animate-smooth").role(.header) },
    Row(name: "anything, identity", wraps: false) { Circle().tw("animate-smooth").identity("x") },
    Row(name: "frame with alignment", wraps: true) { Circle().frame(width: 9, alignment: .top) },
]

@Test(arguments: rows)
private func secondModifierMergesOrWrapsAsTheLayeringTableSays(_ row: Row) throws {
    let raw = try wire(row.build())
    #expect((raw.kind == "zstack") == row.wraps)
    if row.wraps {
        #expect(raw.children.count == 1 && raw.children[0].kind != "zstack", "one wrapper holding the view")
    }
}
