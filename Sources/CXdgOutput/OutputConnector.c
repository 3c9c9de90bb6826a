// xdg-output's `name` event for one wl_output, asked on a private event queue of the toolkit's
// own connection, so GTK's objects and events are left alone. The protocol glue beside this
// file is generated from wayland-protocols' unstable/xdg-output/xdg-output-unstable-v1.xml:
//   wayland-scanner private-code  ... xdg-output-unstable-v1-protocol.c
//   wayland-scanner client-header ... xdg-output-unstable-v1-client-protocol.h
#include <stdlib.h>
#include <string.h>
#include "CXdgOutput.h"
#include "xdg-output-unstable-v1-client-protocol.h"

struct lookup {
    struct zxdg_output_manager_v1 *manager;
    char *name;
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t id, const char *interface, uint32_t version) {
    struct lookup *lookup = data;
    // `name` arrived in version 2.
    if (strcmp(interface, zxdg_output_manager_v1_interface.name) == 0 && version >= 2 && lookup->manager == NULL) {
        lookup->manager = wl_registry_bind(registry, id, &zxdg_output_manager_v1_interface, 2);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t id) {}

static const struct wl_registry_listener registry_listener = {registry_global, registry_global_remove};

static void output_logical_position(void *data, struct zxdg_output_v1 *output, int32_t x, int32_t y) {}
static void output_logical_size(void *data, struct zxdg_output_v1 *output, int32_t width, int32_t height) {}
static void output_done(void *data, struct zxdg_output_v1 *output) {}
static void output_description(void *data, struct zxdg_output_v1 *output, const char *description) {}

static void output_name(void *data, struct zxdg_output_v1 *output, const char *name) {
    struct lookup *lookup = data;
    free(lookup->name);
    lookup->name = strdup(name);
}

static const struct zxdg_output_v1_listener output_listener = {
    output_logical_position, output_logical_size, output_done, output_name, output_description,
};

char *nook_output_connector(struct wl_display *display, struct wl_output *output) {
    if (display == NULL || output == NULL) return NULL;
    struct lookup lookup = {NULL, NULL};
    struct wl_event_queue *queue = wl_display_create_queue(display);
    // Objects made through the wrapper belong to `queue` from the start (no event can race).
    struct wl_display *wrapper = wl_proxy_create_wrapper(display);
    wl_proxy_set_queue((struct wl_proxy *)wrapper, queue);
    struct wl_registry *registry = wl_display_get_registry(wrapper);
    wl_registry_add_listener(registry, &registry_listener, &lookup);
    if (wl_display_roundtrip_queue(display, queue) >= 0 && lookup.manager != NULL) {
        struct zxdg_output_v1 *xdg_output = zxdg_output_manager_v1_get_xdg_output(lookup.manager, output);
        zxdg_output_v1_add_listener(xdg_output, &output_listener, &lookup);
        wl_display_roundtrip_queue(display, queue);
        zxdg_output_v1_destroy(xdg_output);
        zxdg_output_manager_v1_destroy(lookup.manager);
    }
    wl_registry_destroy(registry);
    wl_proxy_wrapper_destroy(wrapper);
    wl_event_queue_destroy(queue);
    return lookup.name;
}
