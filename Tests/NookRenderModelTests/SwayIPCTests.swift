@testable import NookRenderModel
import Testing

/// sway's IPC as `output: focused` reads it (no polling for the focused output, issue 39):
/// messages framed as the i3 IPC protocol has them, cut back out of bytes however they
/// arrive, and the focused output found in a `GET_OUTPUTS` reply. On sway:
/// `SwayOutputFollowingTests.focusedFollowsSwaysFocusFromItsIPCEventsWithNoPolling`.
@Suite struct SwayIPCTests {
    static func header(length: UInt32, type: UInt32) -> [UInt8] {
        var bytes = Array("i3-ipc".utf8)
        withUnsafeBytes(of: length) { bytes += $0 }
        withUnsafeBytes(of: type) { bytes += $0 }
        return bytes
    }

    static func frame(_ type: UInt32, _ payload: String) -> [UInt8] {
        header(length: UInt32(payload.utf8.count), type: type) + Array(payload.utf8)
    }

    @Test func theSubscriptionsAskForWorkspaceAndOutputEventsApart() {
        #expect(SwayIPC.subscribeToWorkspaces == Self.frame(2, #"["workspace"]"#))
        #expect(SwayIPC.subscribeToOutputs == Self.frame(2, #"["output"]"#))
        #expect(SwayIPC.getOutputs == Self.header(length: 0, type: 3))
    }

    @Test func messagesAreCutOutOfBytesHoweverTheyArrive() throws {
        let event = Self.frame(0x8000_0000, #"{"change":"focus"}"#)
        let reply = Self.frame(3, #"[{"name":"HEADLESS-1","focused":false},{"name":"HEADLESS-2","focused":true}]"#)
        let bytes = event + reply
        // Whole, and one byte at a time.
        var whole = SwayIPC.Reader()
        let all = try whole.feed(bytes)
        #expect(all.map(\.type) == [0x8000_0000, 3] && all[0].isEvent && !all[1].isEvent)
        var trickle = SwayIPC.Reader()
        var got: [SwayIPC.Message] = []
        for byte in bytes { got += try trickle.feed([byte]) }
        #expect(got == all)
        #expect(SwayIPC.focusedOutput(inOutputsReply: all[1].payload) == "HEADLESS-2")
    }

    @Test func theFocusedOutputIsTheOneMarkedFocused() {
        func focused(_ json: String) -> String? { SwayIPC.focusedOutput(inOutputsReply: Array(json.utf8)) }
        #expect(focused(#"[{"name":"DP-1","focused":true,"modes":[{"width":1920,"height":1080}],"rect":{"x":0,"y":0}}]"#) == "DP-1")
        #expect(focused(#"[{"name":"DP-1","focused":false},{"name":"DP-2","active":false}]"#) == nil)
        #expect(focused(#"{"name":"DP-1","focused":true}"#) == nil)
        #expect(focused("not json") == nil)
        #expect(focused(#"[{"name":"","focused":true}]"#) == nil)
        #expect(SwayIPC.subscribed(Array(#"{"success": true}"#.utf8)))
        #expect(!SwayIPC.subscribed(Array(#"{"success": false}"#.utf8)))
    }

    @Test func aBadHeaderOrAnOversizedPayloadEndsTheConnection() {
        var wrongMagic = SwayIPC.Reader()
        #expect(throws: SwayIPC.ProtocolError.self) { try wrongMagic.feed(Array("i4-ipc".utf8) + [0, 0, 0, 0, 3, 0, 0, 0]) }
        var huge = SwayIPC.Reader()
        #expect(throws: SwayIPC.ProtocolError.self) { try huge.feed(Self.header(length: UInt32(SwayIPC.maxPayload) + 1, type: 3)) }
        var largest = SwayIPC.Reader()
        #expect((try? largest.feed(Self.header(length: UInt32(SwayIPC.maxPayload), type: 3)))?.isEmpty == true, "a payload at the limit is waited for")
    }
}
