#!/usr/bin/env python3
"""A countdown in the nook, from Python with Debian's python3-dbus and nothing else.

    python3 Examples/python/countdown.py [--seconds 300] [--title Tea] [--address ADDR]

The renderer counts down by itself (`timer_end`): the module sends one StartActivity and then
just waits. It ends the activity when the time is up, or at once on Ctrl-C / SIGTERM.
Numbers are plain Python ints and floats (the broker takes 13 where a double is documented);
only dates, unix microseconds beyond 32 bits, go as dbus.Int64.
"""
import argparse, signal, sys, time
import dbus

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--seconds", type=float, default=300)
parser.add_argument("--title", default="Tea")
parser.add_argument("--address", help="a D-Bus address (default: the session bus)")
args = parser.parse_args()

bus = dbus.bus.BusConnection(args.address) if args.address else dbus.SessionBus()
modules = dbus.Interface(bus.get_object("org.nook.Nook1", "/org/nook/Nook1"), "org.nook.Nook1.Modules")


def node(kind, props=None, *children):
    """A view node (sa{sv}av): kind, props, children."""
    return dbus.Struct((kind, dbus.Dictionary(props or {}, signature="sv"), dbus.Array(children, signature="v")))


start = int(time.time() * 1e6)
end = start + int(args.seconds * 1e6)
# The icon and the countdown are shared elements: they grow from the pill into the peek.
icon = lambda size: node("image", {"symbol": "timer", "width": size, "height": size, "shared": {"id": "icon"}})
countdown = lambda size: node("text", {"timer_end": dbus.Int64(end), "font_size": size, "monospaced_digits": True,
                                       "shared": {"id": "timer", "style": "scale"}})

modules.Register("pytimer", {"display_name": "Python timer"})
modules.StartActivity("countdown", {
    "accessibility_label": f"{args.title}, counting down",
    "compact_leading": icon(16),
    "compact_trailing": countdown(13),
    "minimal": node("progress", {"start": dbus.Int64(start), "end": dbus.Int64(end), "style": "circular", "width": 16, "height": 16}),
    "peek": node("hstack", {"spacing": 8}, icon(24), node("text", {"text": args.title, "font_size": 15}), node("spacer"), countdown(17)),
    "expanded": node("vstack", {"alignment": "leading", "spacing": 6},
                     node("hstack", {"spacing": 10}, icon(32), node("text", {"text": args.title, "font_size": 17, "font_weight": "bold"})),
                     countdown(28),
                     node("progress", {"start": dbus.Int64(start), "end": dbus.Int64(end)})),
    "relevance": 1,
})
print(f"counting down {args.seconds:g} s", flush=True)

stopped = []
for number in (signal.SIGINT, signal.SIGTERM):
    signal.signal(number, lambda *_: stopped.append(True))
# A parent may have left these blocked (the mask survives exec); the handlers need them.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
while not stopped and time.time() * 1e6 < end:
    time.sleep(0.1)
modules.EndActivity("countdown", {"dismissal": "immediate" if stopped else "default"})
print("stopped" if stopped else "time is up", flush=True)
