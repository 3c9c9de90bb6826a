// GTK3, gtk-layer-shell, Cairo and Pango for nook-renderer (see ../shared/GTK-NOTES.md).
#include <gtk/gtk.h>
#include <gdk/gdkx.h>  // the X screen's own visual for a window no compositor blends (NookWindow)
#include <gdk/gdkwayland.h>  // a monitor's wl_output, for its connector name (MonitorInfo)
#include <gtk-layer-shell.h>
#include <pango/pangocairo.h>
#include <glib-unix.h>  // g_unix_signal_add: SIGTERM ends the main loop
