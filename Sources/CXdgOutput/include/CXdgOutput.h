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

/// A subsurface of `parent` that frames are drawn on from a few reused wl_shm buffers (see
/// SubsurfaceCanvas.c). NULL when the compositor lacks wl_subcompositor or wl_shm. It takes no
/// pointer input: the parent keeps that. Call everything from the thread that owns `display`.
struct nook_canvas;
struct nook_canvas *nook_canvas_create(struct wl_display *display, struct wl_surface *parent);
void nook_canvas_destroy(struct nook_canvas *canvas);
/// The pixels (ARGB8888, premultiplied: cairo's ARGB32) of a buffer of `width` x `height`
/// buffer pixels to paint the next frame into. `age`: 0 when its content is unknown, 1 when it
/// holds the last frame committed, 2 the one before, and so on. NULL with `age` 0 when every
/// buffer is still the compositor's, with `age` -1 when no buffer can be made (a size out of
/// range, no memory or descriptors left).
unsigned char *nook_canvas_begin(struct nook_canvas *canvas, int width, int height, int scale, int *stride, int *age);
/// Shows the buffer `begin` gave: `rects` (x, y, width, height in surface coordinates, `count`
/// of them; NULL: all of it) changed since the last frame committed.
void nook_canvas_commit(struct nook_canvas *canvas, const int32_t *rects, int count);
/// Sets the parent's input region to `rects` (x, y, width, height, `count` of them), for the
/// parent's next commit. GTK 3 sends a region it is given only with a frame of its own.
void nook_canvas_set_parent_input(struct nook_canvas *canvas, const int32_t *rects, int count);
/// Whether the last frame committed waits for the parent's commit (its size changed, and it
/// must show with the parent's new size, not before).
int nook_canvas_awaits_parent(struct nook_canvas *canvas);
/// The parent was committed by its owner (GTK): a frame that waited for it shows, and the
/// next frames show on their own again.
void nook_canvas_parent_committed(struct nook_canvas *canvas);
/// Commits the parent (no new buffer): what was set on it applies, and a frame waiting for it
/// shows.
void nook_canvas_commit_parent(struct nook_canvas *canvas);

#endif
