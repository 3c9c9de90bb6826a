// The module SDK (view DSL, NookLiveActivity, module configuration) arrives with its issue.
// Until then this target only re-exports the layers it will stand on.
@_exported import NookCore
