// See include/nook_pipewire.h. Everything after nook_pw_watch_start runs on the thread loop's
// thread, inside PipeWire's callbacks, except nook_pw_watch_free, which takes the loop's lock.
#include "nook_pipewire.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <pipewire/impl-module.h>
#include <pipewire/pipewire.h>
#include <spa/utils/list.h>

#define MAX_BOUND_CLIENTS 4096

/// The client proxies bound for their properties, one per client global.
struct bound_client {
    struct spa_list link;
    struct nook_pw_watch *watch;
    uint32_t id;
    struct pw_proxy *proxy;
    struct spa_hook client_listener;
};

struct nook_pw_watch {
    void *context;
    nook_pw_object_fn object;
    nook_pw_removed_fn removed;
    nook_pw_connection_fn connection;

    struct pw_thread_loop *loop;
    struct pw_context *pw_context;
    struct pw_core *core;
    struct spa_hook core_listener;
    struct pw_registry *registry;
    struct spa_hook registry_listener;
    struct spa_list clients;
    /// How many clients are bound: at most MAX_BOUND_CLIENTS (a session has dozens).
    int bound_clients;

    // Waiting for the server: its socket's directory, watched with inotify.
    int inotify;
    struct spa_source *inotify_source;
    struct spa_source *retry;
    struct spa_source *lost;
    int retries;
    char socket_name[NAME_MAX + 1];
    int connected;
};

static void connect_now(struct nook_pw_watch *watch);

static void forward_dict(struct nook_pw_watch *watch, enum nook_pw_kind kind, uint32_t id, const struct spa_dict *props) {
    static const struct nook_pw_property none[1] = {{NULL, NULL}};
    // spa_dict_item is a key and a value, as nook_pw_property is.
    const struct nook_pw_property *items = props && props->n_items ? (const struct nook_pw_property *)props->items : none;
    watch->object(watch->context, kind, id, items, props ? props->n_items : 0);
}

static void client_info(void *data, const struct pw_client_info *info) {
    struct bound_client *client = data;
    if (info->change_mask & PW_CLIENT_CHANGE_MASK_PROPS)
        forward_dict(client->watch, NOOK_PW_CLIENT, client->id, info->props);
}

static const struct pw_client_events client_events = {
    PW_VERSION_CLIENT_EVENTS,
    .info = client_info,
};

static void drop_client(struct bound_client *client) {
    client->watch->bound_clients--;
    spa_hook_remove(&client->client_listener);
    pw_proxy_destroy(client->proxy);
    spa_list_remove(&client->link);
    free(client);
}

static void registry_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
                            const struct spa_dict *props) {
    struct nook_pw_watch *watch = data;
    (void)permissions;
    (void)version;
    if (strcmp(type, PW_TYPE_INTERFACE_Node) == 0) {
        forward_dict(watch, NOOK_PW_NODE, id, props);
    } else if (strcmp(type, PW_TYPE_INTERFACE_Link) == 0) {
        forward_dict(watch, NOOK_PW_LINK, id, props);
    } else if (strcmp(type, PW_TYPE_INTERFACE_Client) == 0) {
        // A client's application name is in its info, not in the registry's summary.
        if (watch->bound_clients >= MAX_BOUND_CLIENTS) return;
        struct bound_client *client = calloc(1, sizeof *client);
        if (!client) return;
        client->proxy = pw_registry_bind(watch->registry, id, PW_TYPE_INTERFACE_Client, PW_VERSION_CLIENT, 0);
        if (!client->proxy) {
            free(client);
            return;
        }
        client->watch = watch;
        client->id = id;
        pw_client_add_listener((struct pw_client *)client->proxy, &client->client_listener, &client_events, client);
        spa_list_append(&watch->clients, &client->link);
        watch->bound_clients++;
    }
}

static void registry_global_remove(void *data, uint32_t id) {
    struct nook_pw_watch *watch = data;
    struct bound_client *client, *next;
    spa_list_for_each_safe(client, next, &watch->clients, link) {
        if (client->id == id) drop_client(client);
    }
    watch->removed(watch->context, id);
}

static const struct pw_registry_events registry_events = {
    PW_VERSION_REGISTRY_EVENTS,
    .global = registry_global,
    .global_remove = registry_global_remove,
};

/// Drops the connection and everything bound on it; says so to Swift when `tell`.
static void disconnect(struct nook_pw_watch *watch, int tell) {
    struct bound_client *client, *next;
    spa_list_for_each_safe(client, next, &watch->clients, link) drop_client(client);
    if (watch->registry) {
        spa_hook_remove(&watch->registry_listener);
        pw_proxy_destroy((struct pw_proxy *)watch->registry);
        watch->registry = NULL;
    }
    if (watch->core) {
        spa_hook_remove(&watch->core_listener);
        pw_core_disconnect(watch->core);
        watch->core = NULL;
    }
    if (watch->connected && tell) watch->connection(watch->context, 0);
    watch->connected = 0;
}

/// The connection was lost: drop it (outside the core's own callback), then look for a
/// server at once, in case its socket came back before we noticed.
static void connection_lost(void *data, uint64_t count) {
    struct nook_pw_watch *watch = data;
    (void)count;
    disconnect(watch, 1);
    watch->retries = 10;
    connect_now(watch);
}

static void core_error(void *data, uint32_t id, int seq, int res, const char *message) {
    struct nook_pw_watch *watch = data;
    (void)seq;
    (void)message;
    // The server went away.
    if (id == PW_ID_CORE && res == -EPIPE && watch->lost) pw_loop_signal_event(pw_thread_loop_get_loop(watch->loop), watch->lost);
}

static const struct pw_core_events core_events = {
    PW_VERSION_CORE_EVENTS,
    .error = core_error,
};

static void retry_timer(void *data, uint64_t expirations) {
    (void)expirations;
    connect_now(data);
}

/// Tries the socket; when it is not there (or not listening yet, just made), tries again a
/// few times, a fifth of a second apart, then waits for the directory to change.
static void connect_now(struct nook_pw_watch *watch) {
    if (watch->core) return;
    watch->core = pw_context_connect(watch->pw_context, NULL, 0);
    if (!watch->core) {
        if (watch->retries > 0 && watch->retry) {
            watch->retries--;
            struct timespec value = {0, 200 * 1000 * 1000};
            pw_loop_update_timer(pw_thread_loop_get_loop(watch->loop), watch->retry, &value, NULL, false);
        }
        return;
    }
    watch->retries = 0;
    pw_core_add_listener(watch->core, &watch->core_listener, &core_events, watch);
    watch->registry = pw_core_get_registry(watch->core, PW_VERSION_REGISTRY, 0);
    if (!watch->registry) {
        disconnect(watch, 1);
        return;
    }
    pw_registry_add_listener(watch->registry, &watch->registry_listener, &registry_events, watch);
    watch->connected = 1;
    watch->connection(watch->context, 1);
}

static void directory_changed(void *data, int fd, uint32_t mask) {
    struct nook_pw_watch *watch = data;
    (void)mask;
    char buffer[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
    int appeared = 0;
    for (;;) {
        ssize_t length = read(fd, buffer, sizeof buffer);
        if (length <= 0) break;
        for (char *at = buffer; at < buffer + length;) {
            const struct inotify_event *event = (const struct inotify_event *)at;
            if (event->len && strcmp(event->name, watch->socket_name) == 0) appeared = 1;
            at += sizeof *event + event->len;
        }
    }
    if (appeared && !watch->core) {
        watch->retries = 10;
        connect_now(watch);
    }
}

/// The directory PipeWire's socket is made in, as libpipewire looks for it.
static const char *socket_directory(void) {
    const char *directory = getenv("PIPEWIRE_RUNTIME_DIR");
    if (!directory || !*directory) directory = getenv("XDG_RUNTIME_DIR");
    if (!directory || !*directory) directory = getenv("USERPROFILE");
    return directory && *directory ? directory : NULL;
}

struct nook_pw_watch *nook_pw_watch_new(void *context, nook_pw_object_fn object, nook_pw_removed_fn removed,
                                        nook_pw_connection_fn connection) {
    pw_init(NULL, NULL);
    // Warnings about what this bare context leaves out (config modules, realtime threads) are
    // noise in nook-system's log; PIPEWIRE_DEBUG still sets the level when given.
    if (!getenv("PIPEWIRE_DEBUG")) pw_log_set_level(SPA_LOG_LEVEL_ERROR);
    struct nook_pw_watch *watch = calloc(1, sizeof *watch);
    if (!watch) return NULL;
    watch->context = context;
    watch->object = object;
    watch->removed = removed;
    watch->connection = connection;
    watch->inotify = -1;
    spa_list_init(&watch->clients);
    const char *remote = getenv("PIPEWIRE_REMOTE");
    snprintf(watch->socket_name, sizeof watch->socket_name, "%s", remote && *remote && !strchr(remote, '/') ? remote : "pipewire-0");
    watch->loop = pw_thread_loop_new("nook-pipewire", NULL);
    if (!watch->loop) goto failed;
    // No config file and so none of client.conf's modules (nodes, devices, metadata, the
    // session manager's): a registry reader needs only the native protocol, loaded alone.
    watch->pw_context = pw_context_new(pw_thread_loop_get_loop(watch->loop),
                                       pw_properties_new(PW_KEY_CONFIG_NAME, "null", PW_KEY_APP_NAME, "nook-system", NULL), 0);
    if (!watch->pw_context) goto failed;
    if (!pw_context_load_module(watch->pw_context, "libpipewire-module-protocol-native", NULL, NULL)) {
        pw_context_destroy(watch->pw_context);
        goto failed;
    }
    return watch;
failed:
    if (watch->loop) pw_thread_loop_destroy(watch->loop);
    free(watch);
    return NULL;
}

int nook_pw_watch_start(struct nook_pw_watch *watch) {
    struct pw_loop *loop = pw_thread_loop_get_loop(watch->loop);
    pw_thread_loop_lock(watch->loop);
    const char *directory = socket_directory();
    if (directory) {
        watch->inotify = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (watch->inotify >= 0 && inotify_add_watch(watch->inotify, directory, IN_CREATE | IN_MOVED_TO | IN_ATTRIB) >= 0) {
            watch->inotify_source = pw_loop_add_io(loop, watch->inotify, SPA_IO_IN, false, directory_changed, watch);
        }
    }
    watch->retry = pw_loop_add_timer(loop, retry_timer, watch);
    watch->lost = pw_loop_add_event(loop, connection_lost, watch);
    connect_now(watch);
    pw_thread_loop_unlock(watch->loop);
    return pw_thread_loop_start(watch->loop);
}

void nook_pw_watch_free(struct nook_pw_watch *watch) {
    if (!watch) return;
    pw_thread_loop_lock(watch->loop);
    struct pw_loop *loop = pw_thread_loop_get_loop(watch->loop);
    // No callbacks into Swift from here on.
    disconnect(watch, 0);
    if (watch->inotify_source) pw_loop_destroy_source(loop, watch->inotify_source);
    if (watch->retry) pw_loop_destroy_source(loop, watch->retry);
    if (watch->lost) pw_loop_destroy_source(loop, watch->lost);
    if (watch->inotify >= 0) close(watch->inotify);
    pw_thread_loop_unlock(watch->loop);
    pw_thread_loop_stop(watch->loop);
    pw_context_destroy(watch->pw_context);
    pw_thread_loop_destroy(watch->loop);
    free(watch);
}
