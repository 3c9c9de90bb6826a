import Glibc

/// `close(2)`, kept in its own file so the codec files need not import Glibc.
func closeDescriptor(_ fd: Int32) -> Int32 { close(fd) }
