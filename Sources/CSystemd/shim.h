#pragma once
// What Swift needs of libsystemd. Only NookBus (and the raw-baseline benchmark) import this.
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <errno.h>
#include <time.h>
#include <fcntl.h>
#include <unistd.h>

// fcntl is variadic and does not import into Swift.
static inline int nook_dup_cloexec(int fd) { return fcntl(fd, F_DUPFD_CLOEXEC, 3); }
