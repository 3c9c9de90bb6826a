// Wayland requests GTK 3 does not make for us. The connector name of a Wayland output (`DP-1`, `HEADLESS-2`), which GTK 3 reads but does not
// expose: nook-renderer matches renderer.json's `output` against it. See OutputConnector.c.
#ifndef NOOK_CXDGOUTPUT_H
#define NOOK_CXDGOUTPUT_H

#include <wayland-client.h>

/// The name xdg-output (version 2 or later) gives `output`, or NULL when the compositor offers
/// none. The caller frees it with free(3). Blocks for two roundtrips on a private event queue,
/// so it never dispatches the toolkit's events; call it from the thread that owns `display`.
char *nook_output_connector(struct wl_display *display, struct wl_output *output);

/// Commits `surface`'s pending state (a new layer, say) without a new buffer. GTK commits only
/// when it draws, and draws only on a frame callback, which a compositor sends to no surface it
/// does not show: a layer surface under a fullscreen window would keep its old layer for good.
void nook_surface_commit(struct wl_surface *surface);

#endif
