// A pointer for the Wayland test suite: a zwlr_virtual_pointer_v1 on the compositor that
// WAYLAND_DISPLAY names, driven by lines on stdin. Each command is sent with a `frame` and a
// roundtrip (so the compositor has handled it), then acknowledged on stdout:
//
//   move X Y WIDTH HEIGHT   absolute motion to X,Y in a WIDTHxHEIGHT layout -> "moved X Y"
//   press | release         the left button                                -> "pressed" | "released"
//   press middle | release middle   the middle button                      -> "pressed" | "released"
//
// With arguments X Y WIDTH HEIGHT, the pointer starts at X,Y.
// It keeps its pointer until stdin closes or it is killed: destroying the device would take
// the seat's pointer away, and clients would see the pointer leave.
// Built at test time (VirtualPointer.swift): wayland-scanner generates the protocol code from
// wlr-virtual-pointer-unstable-v1.xml next to this file.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <wayland-client.h>
#include "wlr-virtual-pointer-unstable-v1-client-protocol.h"

#define LEFT_BUTTON 0x110  // BTN_LEFT in linux/input-event-codes.h
#define MIDDLE_BUTTON 0x112  // BTN_MIDDLE

static struct zwlr_virtual_pointer_manager_v1 *manager;
static struct wl_seat *seat;

static void global(void *data, struct wl_registry *registry, uint32_t name, const char *interface, uint32_t version) {
    if (strcmp(interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0) {
        manager = wl_registry_bind(registry, name, &zwlr_virtual_pointer_manager_v1_interface, 1);
    } else if (strcmp(interface, wl_seat_interface.name) == 0 && seat == NULL) {
        seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
    }
}

static void global_remove(void *data, struct wl_registry *registry, uint32_t name) {}

static const struct wl_registry_listener registry_listener = {global, global_remove};

static uint32_t milliseconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint32_t)(now.tv_sec * 1000 + now.tv_nsec / 1000000);
}

int main(int argc, char **argv) {
    struct wl_display *display = wl_display_connect(NULL);
    if (display == NULL) {
        fprintf(stderr, "virtual-pointer: cannot connect to the Wayland display\n");
        return 1;
    }
    struct wl_registry *registry = wl_display_get_registry(display);
    wl_registry_add_listener(registry, &registry_listener, NULL);
    wl_display_roundtrip(display);
    if (manager == NULL) {
        fprintf(stderr, "virtual-pointer: the compositor offers no zwlr_virtual_pointer_manager_v1\n");
        return 1;
    }
    struct zwlr_virtual_pointer_v1 *pointer = zwlr_virtual_pointer_manager_v1_create_virtual_pointer(manager, seat);
    // `virtual-pointer X Y WIDTH HEIGHT`: the pointer starts there, moved in the same batch as
    // the device is made, so no client sees it anywhere else first.
    if (argc == 5) {
        zwlr_virtual_pointer_v1_motion_absolute(pointer, milliseconds(), (uint32_t)atoi(argv[1]), (uint32_t)atoi(argv[2]),
                                                (uint32_t)atoi(argv[3]), (uint32_t)atoi(argv[4]));
        zwlr_virtual_pointer_v1_frame(pointer);
    }
    wl_display_roundtrip(display);
    printf("ready\n");
    fflush(stdout);

    char line[256];
    while (fgets(line, sizeof line, stdin) != NULL) {
        unsigned x, y, width, height;
        if (sscanf(line, "move %u %u %u %u", &x, &y, &width, &height) == 4 && width > 0 && height > 0) {
            zwlr_virtual_pointer_v1_motion_absolute(pointer, milliseconds(), x, y, width, height);
            zwlr_virtual_pointer_v1_frame(pointer);
            if (wl_display_roundtrip(display) < 0) break;
            printf("moved %u %u\n", x, y);
        } else if (strncmp(line, "press", 5) == 0 || strncmp(line, "release", 7) == 0) {
            int pressed = line[0] == 'p';
            int middle = strstr(line, "middle") != NULL;
            zwlr_virtual_pointer_v1_button(pointer, milliseconds(), middle ? MIDDLE_BUTTON : LEFT_BUTTON,
                                           pressed ? WL_POINTER_BUTTON_STATE_PRESSED : WL_POINTER_BUTTON_STATE_RELEASED);
            zwlr_virtual_pointer_v1_frame(pointer);
            if (wl_display_roundtrip(display) < 0) break;
            printf(pressed ? "pressed\n" : "released\n");
        } else {
            printf("unknown command: %s", line);
        }
        fflush(stdout);
    }
    zwlr_virtual_pointer_v1_destroy(pointer);
    wl_display_roundtrip(display);
    wl_display_disconnect(display);
    return 0;
}
