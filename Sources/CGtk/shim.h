// GTK3, gtk-layer-shell, Cairo and Pango for nook-renderer (see ../shared/GTK-NOTES.md).
#include <gtk/gtk.h>
#include <gtk-layer-shell.h>
#include <pango/pangocairo.h>
#include <glib-unix.h>  // g_unix_signal_add: SIGTERM ends the main loop
