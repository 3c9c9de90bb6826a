// The SDK module authors write against: a SwiftUI-flavoured view DSL that encodes to the
// contract's view nodes (View/, Modifiers/), and the values a module publishes (Publishing/).
// `NookModule` (Transport/) registers the module with the broker and sends them, and keeps
// them published across broker restarts. See docs/module-guide.md.
//
// NookCore is not re-exported: a module author sees the SDK's own surface, and the model's
// values its signatures take (`.leading`, `.scale`, `.compactLeading`) by their leading dot.
// The planner, layout and the wire stay the broker's. Code that needs the model itself (a
// bridge reading D-Bus values, tests comparing nodes) imports NookCore by name.
import NookCore
