import NookSystem
import Testing

/// Issue 43, part 3: who captures a camera or the screen, from PipeWire's registry records.
@Suite struct PipeWireGraphTests {
    /// A source, a capturing stream of another client, and the link between them.
    static func graph(source: [String: String]) -> PipeWireGraph {
        var graph = PipeWireGraph()
        graph.client(40, ["application.name": "Video Call", "application.process.binary": "call"])
        graph.client(41, ["application.process.binary": "cam-daemon"])
        graph.node(50, source.merging(["client.id": "41"]) { a, _ in a })
        graph.node(51, ["media.class": "Stream/Input/Video", "client.id": "40", "node.name": "call-stream"])
        graph.link(60, ["link.output.node": "50", "link.input.node": "51", "link.output.port": "52", "link.input.port": "53"])
        return graph
    }

    @Test func aCameraIsASourceThatSaysSoOrComesFromADevice() {
        #expect(Self.graph(source: ["media.class": "Video/Source", "media.role": "Camera"]).captures
                == [VideoCapture(kind: .camera, application: "Video Call")])
        #expect(Self.graph(source: ["media.class": "Video/Source", "device.id": "33"]).captures
                == [VideoCapture(kind: .camera, application: "Video Call")])
    }

    @Test func anyOtherVideoSourceIsAScreenCast() {
        #expect(Self.graph(source: ["media.class": "Video/Source", "node.name": "xdpw-stream-1"]).captures
                == [VideoCapture(kind: .screen, application: "Video Call")])
        #expect(Self.graph(source: ["media.class": "Video/Source/Virtual"]).captures.map(\.kind) == [.screen])
    }

    @Test func soundAndUnlinkedSourcesAreNoCapture() {
        #expect(Self.graph(source: ["media.class": "Audio/Source", "media.role": "Camera"]).captures.isEmpty)
        var unlinked = Self.graph(source: ["media.class": "Video/Source", "media.role": "Camera"])
        unlinked.remove(60)
        #expect(unlinked.captures.isEmpty, "the link went: nothing captures")
    }

    @Test func theCapturerIsNamedByItsClientThenItsNode() {
        var graph = Self.graph(source: ["media.class": "Video/Source", "media.role": "Camera"])
        graph.remove(40)
        #expect(graph.captures.map(\.application) == ["call-stream"], "no client info: the stream's node name")
        graph.client(40, ["application.process.binary": "call"])
        #expect(graph.captures.map(\.application) == ["call"])
    }

    @Test func aSourcesOwnNodesAreNoCaptureAndTheServerGoingTakesAll() {
        var graph = Self.graph(source: ["media.class": "Video/Source", "media.role": "Camera"])
        // A converter of the camera's own client.
        graph.node(70, ["media.class": "Stream/Input/Video", "client.id": "41"])
        graph.link(71, ["link.output.node": "50", "link.input.node": "70"])
        #expect(graph.captures.count == 1)
        graph.clear()
        #expect(graph.captures.isEmpty)
    }

    @Test func badIdsAreNoLinkAndNamesAreBounded() {
        var graph = Self.graph(source: ["media.class": "Video/Source", "media.role": "Camera"])
        graph.remove(60)
        graph.link(61, ["link.output.node": "-1", "link.input.node": "51"])
        graph.link(62, ["link.output.node": "50"])
        #expect(graph.captures.isEmpty)
        graph.client(40, ["application.name": String(repeating: "x", count: 500)])
        graph.link(63, ["link.output.node": "50", "link.input.node": "51"])
        #expect(graph.captures.first?.application.count == 64)
    }

    @Test func theGraphKeepsAtMostMaxObjectsOfEachKind() {
        var graph = Self.graph(source: ["media.class": "Video/Source", "media.role": "Camera"])
        for id in UInt32(1000)..<UInt32(1000 + PipeWireGraph.maxObjects) {
            graph.node(id, ["media.class": "Stream/Input/Video"])
            graph.link(id + 100_000, ["link.output.node": "50", "link.input.node": "\(id)"])
        }
        // The source's capture (kept before the flood) still counts; one past the bound is not followed.
        graph.client(99, ["application.name": "Late"])
        graph.node(90_000, ["media.class": "Stream/Input/Video", "client.id": "99"])
        graph.link(90_001, ["link.output.node": "50", "link.input.node": "90000"])
        #expect(graph.captures.map(\.application).contains("Video Call"))
        #expect(!graph.captures.map(\.application).contains("Late"))
    }
}
