// A PipeWire registry watch for nook-system's privacy bridge (Sources/NookSystem/PipeWireWatch.swift).
// PipeWire's client API is made of macros and inline method tables Swift cannot call, so this
// small C layer speaks it and hands Swift plain records: the nodes and links as the registry
// describes them, and each client's properties (its application name and process).
#ifndef NOOK_PIPEWIRE_H
#define NOOK_PIPEWIRE_H

#include <stdint.h>

/// One property of an object, borrowed for the length of the callback.
struct nook_pw_property {
    const char *key;
    const char *value;
};

enum nook_pw_kind {
    NOOK_PW_NODE = 1,
    NOOK_PW_LINK = 2,
    NOOK_PW_CLIENT = 3,
};

/// An object appeared or its properties changed (clients: when their info arrives).
typedef void (*nook_pw_object_fn)(void *context, enum nook_pw_kind kind, uint32_t id,
                                  const struct nook_pw_property *properties, uint32_t count);
/// An object went away.
typedef void (*nook_pw_removed_fn)(void *context, uint32_t id);
/// Connected (1) to a PipeWire server, or lost it (0): every object is gone with it.
typedef void (*nook_pw_connection_fn)(void *context, int connected);

struct nook_pw_watch;

/// A watch that calls back on its own thread, one call at a time. NULL when PipeWire's
/// loop cannot be made.
struct nook_pw_watch *nook_pw_watch_new(void *context, nook_pw_object_fn object,
                                        nook_pw_removed_fn removed, nook_pw_connection_fn connection);
/// Connects, or waits for the server's socket to appear, and starts the thread. 0 on success.
int nook_pw_watch_start(struct nook_pw_watch *watch);
/// Disconnects, ends the thread and frees the watch. Not from one of its callbacks.
void nook_pw_watch_free(struct nook_pw_watch *watch);

#endif
