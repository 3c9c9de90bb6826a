#pragma once
// glibc's allocator controls (mallopt, malloc_trim, mallinfo2): not in Swift's Glibc module.
#include <malloc.h>
