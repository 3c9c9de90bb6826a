import CSystemd
@_exported import NookCore
