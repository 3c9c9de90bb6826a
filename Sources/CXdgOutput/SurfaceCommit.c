// wl_surface.commit for a surface GTK owns. Swift cannot reach it: it is a static inline
// function over the variadic wl_proxy_marshal_flags.
#include "CXdgOutput.h"

void nook_surface_commit(struct wl_surface *surface) {
    if (surface != NULL) wl_surface_commit(surface);
}
