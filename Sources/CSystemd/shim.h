#pragma once
// What Swift needs of libsystemd. Only NookBus (and the raw-baseline benchmark) import this.
#include <systemd/sd-bus.h>
#include <systemd/sd-daemon.h>
#include <sys/eventfd.h>
#include <poll.h>
#include <errno.h>
#include <time.h>
