#!/usr/bin/env python3
"""A "now building" progress activity, from Python with Debian's python3-dbus alone.

    python3 Examples/python/now_building.py [--steps 5] [--interval 1] [--linger 3] [--address ADDR]

Starts an activity, updates its progress once per step (a plain float; the bar and the
percentage change in place), shows the finished build for `--linger` seconds and ends it.
Replace `steps` with your build's real stages.
"""
import argparse, time
import dbus

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--steps", type=int, default=5)
parser.add_argument("--interval", type=float, default=1)
parser.add_argument("--linger", type=float, default=3)
parser.add_argument("--address", help="a D-Bus address (default: the session bus)")
args = parser.parse_args()

bus = dbus.bus.BusConnection(args.address) if args.address else dbus.SessionBus()
modules = dbus.Interface(bus.get_object("org.nook.Nook1", "/org/nook/Nook1"), "org.nook.Nook1.Modules")


def node(kind, props=None, *children):
    """A view node (sa{sv}av): kind, props, children."""
    return dbus.Struct((kind, dbus.Dictionary(props or {}, signature="sv"), dbus.Array(children, signature="v")))


def views(done, step):
    """Every slot for `done` (0..1): the hammer and the ring are shared, so they grow into the peek."""
    percent = f"{round(done * 100)}%"
    hammer = lambda size: node("image", {"symbol": "hammer.fill", "width": size, "height": size, "shared": {"id": "icon"}})
    ring = lambda size: node("progress", {"value": done, "style": "circular", "width": size, "height": size, "shared": {"id": "progress"}})
    return {
        "accessibility_label": f"Building, {percent}",
        "compact_leading": hammer(16),
        "compact_trailing": ring(16),
        "minimal": node("text", {"text": percent, "font_size": 11, "monospaced_digits": True}),
        "peek": node("hstack", {"spacing": 8}, hammer(24), node("text", {"text": f"Building: step {step} of {args.steps}"}),
                     node("spacer"), ring(20)),
        "expanded": node("vstack", {"alignment": "leading", "spacing": 8, "padding": (4, 4, 4, 4)},
                         node("hstack", {"spacing": 10}, hammer(32), node("text", {"text": "Building", "font_size": 17, "font_weight": "bold"}),
                              node("spacer"), ring(28)),
                         node("hstack", {"spacing": 8}, node("progress", {"value": done}),
                              node("text", {"text": percent, "font_size": 13, "monospaced_digits": True}))),
    }


modules.Register("pybuild", {"display_name": "Python build"})
modules.StartActivity("build", views(0.0, 0))
for step in range(1, args.steps + 1):
    time.sleep(args.interval)  # one stage of the build
    modules.UpdateActivity("build", views(step / args.steps, step))
    print(f"step {step} of {args.steps}", flush=True)
time.sleep(args.linger)  # 100 % on screen for a moment
modules.EndActivity("build", {"dismissal": "default"})
print("built", flush=True)
