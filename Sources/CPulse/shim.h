// libpulse's asynchronous API with its threaded main loop (Sources/NookSystem/PulseVolume.swift).
#include <pulse/pulseaudio.h>
#include <pulse/thread-mainloop.h>
