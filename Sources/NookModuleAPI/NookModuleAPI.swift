// The SDK module authors write against: a SwiftUI-flavoured view DSL that encodes to the
// contract's view nodes (View/, Modifiers/), and the values a module publishes (Publishing/).
// `NookModule` (Transport/) registers the module with the broker and sends them, and keeps
// them published across broker restarts. See docs/module-guide.md.
//
// NookCore is re-exported: its node types (`ViewNode`, `PropValue`, `SharedStyle`, ...) are
// part of this API, and its validator checks views the same way the broker does.
@_exported import NookCore
