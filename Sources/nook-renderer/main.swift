import CGtk

// Scaffold: replaced by the renderer proper.
print("nook-renderer: GTK \(gtk_get_major_version()).\(gtk_get_minor_version()) — not built yet")
exit(2)
