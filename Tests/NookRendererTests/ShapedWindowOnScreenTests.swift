import Foundation
import NookTestSupport
import Testing

/// X11 without a compositor (Xvfb has none): the renderer's window shows only the chrome (an X
/// shape), never a grey band. The root is painted blue, so anything the window paints outside
/// the chrome would show as something other than blue.
@Suite
struct ShapedWindowOnScreenTests {
    static let blue = (red: 0x33, green: 0x66, blue: 0xcc)
    static let neutralGrey = (red: 41, green: 43, blue: 48)

    @Test func onlyTheChromeIsShownAroundItTheRootShows() async throws {
        try await RendererNook.with(slowMotion: 1, root: "#3366cc") { nook in
            try await nook.showPillAtRest()
            let shot = try await nook.xvfb.screenshot(rows: 982)
            let below = (900 * shot.width + 5) * 3
            #expect([shot.bytes[below], shot.bytes[below + 1], shot.bytes[below + 2]] == [0x33, 0x66, 0xcc], "below the window the root is not blue")
            #expect(nook.rendererLog.contains("no compositor: the window shows only the chrome's shape"), "\(nook.rendererLog)")
            // The window spans the screen's width and its top 45% (445 rows): away from the
            // pill at the top centre, every row of it shows the root.
            for (x, y) in [(5, 5), (300, 10), (1500, 2), (756, 200), (100, 440), (1400, 300)] {
                let offset = (y * shot.width + x) * 3
                let pixel = (Int(shot.bytes[offset]), Int(shot.bytes[offset + 1]), Int(shot.bytes[offset + 2]))
                #expect(pixel == Self.blue, "pixel \(x),\(y) is \(pixel), not the root's blue:\n\(nook.rendererLog)")
            }
            #expect(shot.pixels(near: Self.neutralGrey) == 0, "a grey band is painted: \(shot.pixels(near: Self.neutralGrey)) px")
            // The pill itself is there: black at the top centre.
            let centre = (3 * shot.width + shot.width / 2) * 3
            #expect(Int(shot.bytes[centre]) + Int(shot.bytes[centre + 1]) + Int(shot.bytes[centre + 2]) < 30, "no black chrome at the top centre")
            #expect(!shot.coverBlobs().isEmpty, "the pill's cover is not drawn")
        }
    }
}
