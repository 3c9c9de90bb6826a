// A subsurface of GTK's layer surface, drawn from a few wl_shm buffers that are kept and
// reused. GTK 3 maps a fresh buffer for every frame when the compositor holds the last one
// until the next commit (wlroots' pixman renderer does): thousands of page faults a
// transition. Here a buffer is made once per size and painted again where it is stale
// (its age, as EGL_EXT_buffer_age counts it). Every object lives on a private event queue of
// GTK's connection, dispatched only here: GTK's main loop reads the socket, and the
// buffers' `release` events wait in that queue until the next paint looks at them.
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "CXdgOutput.h"

// Three: the compositor holds one, one is being painted, and one spare for a release late.
#define CANVAS_BUFFERS 3

struct canvas_buffer {
    struct wl_buffer *buffer;
    void *data;
    size_t size;
    int busy;
    // The canvas' frame counter when this buffer was committed (0: never).
    uint64_t committed;
};

struct nook_canvas {
    struct wl_display *display;
    struct wl_event_queue *queue;
    struct wl_display *wrapper;
    struct wl_compositor *compositor;
    struct wl_subcompositor *subcompositor;
    struct wl_shm *shm;
    struct wl_surface *parent;
    struct wl_surface *surface;
    struct wl_subsurface *subsurface;
    int width, height, scale, stride;
    uint64_t frames;
    int painting;
    // The size changed: the next frame is committed with the parent's, which GTK draws at the
    // new size in the same frame clock cycle (a subsurface in sync mode).
    int resized;
    int synced;
    struct canvas_buffer buffers[CANVAS_BUFFERS];
};

static void registry_global(void *data, struct wl_registry *registry, uint32_t id, const char *interface, uint32_t version) {
    struct nook_canvas *canvas = data;
    if (strcmp(interface, wl_compositor_interface.name) == 0 && canvas->compositor == NULL) {
        canvas->compositor = wl_registry_bind(registry, id, &wl_compositor_interface, version < 4 ? version : 4);
    } else if (strcmp(interface, wl_subcompositor_interface.name) == 0 && canvas->subcompositor == NULL) {
        canvas->subcompositor = wl_registry_bind(registry, id, &wl_subcompositor_interface, 1);
    } else if (strcmp(interface, wl_shm_interface.name) == 0 && canvas->shm == NULL) {
        canvas->shm = wl_registry_bind(registry, id, &wl_shm_interface, 1);
    }
}

static void registry_global_remove(void *data, struct wl_registry *registry, uint32_t id) {}

static const struct wl_registry_listener registry_listener = {registry_global, registry_global_remove};

static void buffer_release(void *data, struct wl_buffer *buffer) {
    struct canvas_buffer *slot = data;
    slot->busy = 0;
}

static const struct wl_buffer_listener buffer_listener = {buffer_release};

static void drop_buffer(struct canvas_buffer *slot) {
    if (slot->buffer != NULL) wl_buffer_destroy(slot->buffer);
    if (slot->data != NULL) munmap(slot->data, slot->size);
    memset(slot, 0, sizeof(*slot));
}

void nook_canvas_destroy(struct nook_canvas *canvas) {
    if (canvas == NULL) return;
    for (int i = 0; i < CANVAS_BUFFERS; i++) drop_buffer(&canvas->buffers[i]);
    if (canvas->subsurface != NULL) wl_subsurface_destroy(canvas->subsurface);
    if (canvas->surface != NULL) wl_surface_destroy(canvas->surface);
    if (canvas->shm != NULL) wl_shm_destroy(canvas->shm);
    if (canvas->subcompositor != NULL) wl_subcompositor_destroy(canvas->subcompositor);
    if (canvas->compositor != NULL) wl_compositor_destroy(canvas->compositor);
    if (canvas->wrapper != NULL) wl_proxy_wrapper_destroy(canvas->wrapper);
    if (canvas->queue != NULL) wl_event_queue_destroy(canvas->queue);
    wl_display_flush(canvas->display);
    free(canvas);
}

struct nook_canvas *nook_canvas_create(struct wl_display *display, struct wl_surface *parent) {
    if (display == NULL || parent == NULL) return NULL;
    struct nook_canvas *canvas = calloc(1, sizeof(*canvas));
    if (canvas == NULL) return NULL;
    canvas->display = display;
    canvas->painting = -1;
    canvas->queue = wl_display_create_queue(display);
    // Objects made through the wrapper, and those made from them, belong to the queue.
    canvas->wrapper = wl_proxy_create_wrapper(display);
    wl_proxy_set_queue((struct wl_proxy *)canvas->wrapper, canvas->queue);
    struct wl_registry *registry = wl_display_get_registry(canvas->wrapper);
    wl_registry_add_listener(registry, &registry_listener, canvas);
    int reached = wl_display_roundtrip_queue(display, canvas->queue);
    wl_registry_destroy(registry);
    if (reached < 0 || canvas->compositor == NULL || canvas->subcompositor == NULL || canvas->shm == NULL) {
        nook_canvas_destroy(canvas);
        return NULL;
    }
    canvas->parent = parent;
    canvas->surface = wl_compositor_create_surface(canvas->compositor);
    canvas->subsurface = wl_subcompositor_get_subsurface(canvas->subcompositor, canvas->surface, parent);
    // Its frames show when it commits, not when GTK next commits the parent.
    wl_subsurface_set_desync(canvas->subsurface);
    wl_subsurface_set_position(canvas->subsurface, 0, 0);
    // The pointer goes through to GTK's surface below, which keeps the input region.
    struct wl_region *none = wl_compositor_create_region(canvas->compositor);
    wl_surface_set_input_region(canvas->surface, none);
    wl_region_destroy(none);
    wl_surface_commit(canvas->surface);
    wl_display_flush(display);
    return canvas;
}

static int make_buffer(struct nook_canvas *canvas, struct canvas_buffer *slot) {
    size_t size = (size_t)canvas->stride * (size_t)canvas->height;
    int fd = memfd_create("nook-canvas", MFD_CLOEXEC);
    if (fd < 0) return -1;
    if (ftruncate(fd, (off_t)size) != 0) {
        close(fd);
        return -1;
    }
    void *data = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) {
        close(fd);
        return -1;
    }
    struct wl_shm_pool *pool = wl_shm_create_pool(canvas->shm, fd, (int32_t)size);
    slot->buffer = wl_shm_pool_create_buffer(pool, 0, canvas->width, canvas->height, canvas->stride, WL_SHM_FORMAT_ARGB8888);
    wl_shm_pool_destroy(pool);
    close(fd);
    wl_buffer_add_listener(slot->buffer, &buffer_listener, slot);
    slot->data = data;
    slot->size = size;
    slot->busy = 0;
    slot->committed = 0;
    return 0;
}

unsigned char *nook_canvas_begin(struct nook_canvas *canvas, int width, int height, int scale, int *stride, int *age) {
    *age = -1;
    if (canvas == NULL || width <= 0 || height <= 0 || scale <= 0 || width > 16384 || height > 16384) return NULL;
    wl_display_dispatch_queue_pending(canvas->display, canvas->queue);
    if (width != canvas->width || height != canvas->height || scale != canvas->scale) {
        // A new size: new buffers (the compositor keeps its own mapping of one it still shows).
        for (int i = 0; i < CANVAS_BUFFERS; i++) drop_buffer(&canvas->buffers[i]);
        canvas->width = width;
        canvas->height = height;
        canvas->scale = scale;
        canvas->stride = width * 4;
        canvas->resized = 1;
    }
    struct canvas_buffer *free_slot = NULL;
    int index = -1;
    // The most recently committed free buffer has the least to repaint.
    for (int i = 0; i < CANVAS_BUFFERS; i++) {
        struct canvas_buffer *slot = &canvas->buffers[i];
        if (slot->buffer == NULL || slot->busy) continue;
        if (free_slot == NULL || slot->committed > free_slot->committed) {
            free_slot = slot;
            index = i;
        }
    }
    if (free_slot == NULL) {
        for (int i = 0; i < CANVAS_BUFFERS; i++) {
            if (canvas->buffers[i].buffer == NULL) {
                if (make_buffer(canvas, &canvas->buffers[i]) != 0) return NULL;
                free_slot = &canvas->buffers[i];
                index = i;
                break;
            }
        }
    }
    if (free_slot == NULL) {
        *age = 0;  // Every buffer is the compositor's: not a failure.
        return NULL;
    }
    canvas->painting = index;
    *stride = canvas->stride;
    *age = free_slot->committed == 0 ? 0 : (int)(canvas->frames - free_slot->committed + 1);
    return free_slot->data;
}

void nook_canvas_commit(struct nook_canvas *canvas, const int32_t *rects, int count) {
    if (canvas == NULL || canvas->painting < 0) return;
    struct canvas_buffer *slot = &canvas->buffers[canvas->painting];
    canvas->painting = -1;
    if (canvas->resized) {
        wl_subsurface_set_sync(canvas->subsurface);
        canvas->resized = 0;
        canvas->synced = 1;
    }
    wl_surface_attach(canvas->surface, slot->buffer, 0, 0);
    wl_surface_set_buffer_scale(canvas->surface, canvas->scale);
    if (rects == NULL) {
        wl_surface_damage(canvas->surface, 0, 0, canvas->width / canvas->scale, canvas->height / canvas->scale);
    } else {
        for (int i = 0; i < count; i++) wl_surface_damage(canvas->surface, rects[4 * i], rects[4 * i + 1], rects[4 * i + 2], rects[4 * i + 3]);
    }
    wl_surface_commit(canvas->surface);
    slot->busy = 1;
    canvas->frames += 1;
    slot->committed = canvas->frames;
    wl_display_flush(canvas->display);
}

void nook_canvas_set_parent_input(struct nook_canvas *canvas, const int32_t *rects, int count) {
    if (canvas == NULL) return;
    struct wl_region *region = wl_compositor_create_region(canvas->compositor);
    for (int i = 0; i < count; i++) wl_region_add(region, rects[4 * i], rects[4 * i + 1], rects[4 * i + 2], rects[4 * i + 3]);
    wl_surface_set_input_region(canvas->parent, region);
    wl_region_destroy(region);
}

int nook_canvas_awaits_parent(struct nook_canvas *canvas) {
    return canvas != NULL && canvas->synced;
}

void nook_canvas_parent_committed(struct nook_canvas *canvas) {
    if (canvas == NULL || !canvas->synced) return;
    wl_subsurface_set_desync(canvas->subsurface);
    canvas->synced = 0;
    wl_display_flush(canvas->display);
}

void nook_canvas_commit_parent(struct nook_canvas *canvas) {
    if (canvas == NULL) return;
    wl_surface_commit(canvas->parent);
    if (canvas->synced) {
        // Applied with the parent: back to frames of its own.
        wl_subsurface_set_desync(canvas->subsurface);
        canvas->synced = 0;
    }
    wl_display_flush(canvas->display);
}
