#!/usr/bin/env python3
"""A countdown in the nook, from Python with Debian's python3-dbus and nothing else.

    python3 Examples/python/countdown.py [--seconds 300] [--title Tea] [--done-seconds 60]
                                         [--no-sound] [--address ADDR]

The renderer counts down by itself (`timer_end`): the module sends one StartActivity and then
just waits. At zero it finishes the way `nookctl activity start --timer` does: every view says
"Done", the nook peeks at it for 8 s, the sound theme's `complete` plays through
`canberra-gtk-play` when it is installed (not with --no-sound), and the activity ends
--done-seconds later. Ctrl-C / SIGTERM ends it at once.
Numbers are plain Python ints and floats (the broker takes 13 where a double is documented);
only dates, unix microseconds beyond 32 bits, go as dbus.Int64.
"""
import argparse, shutil, signal, subprocess, sys, time
import dbus

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--seconds", type=float, default=300)
parser.add_argument("--title", default="Tea")
parser.add_argument("--done-seconds", type=float, default=60, help="how long it says Done before it ends (0 to 3600)")
parser.add_argument("--no-sound", action="store_true", help="play no sound at zero")
parser.add_argument("--address", help="a D-Bus address (default: the session bus)")
args = parser.parse_args()
if not 0 < args.seconds <= 86400:
    parser.error("--seconds must be above 0 and at most 86400")
if not 0 <= args.done_seconds <= 3600:
    parser.error("--done-seconds must be from 0 to 3600")
PEEK_SECONDS = 8

bus = dbus.bus.BusConnection(args.address) if args.address else dbus.SessionBus()
nook = bus.get_object("org.nook.Nook1", "/org/nook/Nook1")
modules = dbus.Interface(nook, "org.nook.Nook1.Modules")
control = dbus.Interface(nook, "org.nook.Nook1.Control")


def node(kind, props=None, *children):
    """A view node (sa{sv}av): kind, props, children."""
    return dbus.Struct((kind, dbus.Dictionary(props or {}, signature="sv"), dbus.Array(children, signature="v")))


start = int(time.time() * 1e6)
end = start + int(args.seconds * 1e6)
# The icon and the countdown are shared elements: they grow from the pill into the peek.
icon = lambda size: node("image", {"symbol": "timer", "width": size, "height": size, "shared": {"id": "icon"}})
# An hour or more shows hours: `text` reserves their width (the layout measures it; the
# renderer draws the countdown), or 1:05:00 would be laid out as 00:00 and cut.
reserve = {"text": "0:00:00" if args.seconds <= 35999 else "00:00:00"} if args.seconds > 3599 else {}
countdown = lambda size: node("text", {"timer_end": dbus.Int64(end), "font_size": size, "monospaced_digits": True,
                                       "shared": {"id": "timer", "style": "scale"}, **reserve})
done = lambda size: node("text", {"text": "Done", "font_size": size, "shared": {"id": "timer", "style": "scale"}})


def views(timer, ring):
    """Every slot, with `timer(size)` where the countdown goes and `ring` as the minimal view."""
    return {
        "compact_leading": icon(16),
        "compact_trailing": timer(13),
        "minimal": ring,
        "peek": node("hstack", {"spacing": 8}, icon(24), node("text", {"text": args.title, "font_size": 15}), node("spacer"), timer(17)),
        "expanded": node("vstack", {"alignment": "leading", "spacing": 6},
                         node("hstack", {"spacing": 10}, icon(32), node("text", {"text": args.title, "font_size": 17, "font_weight": "bold"})),
                         timer(28),
                         node("progress", {"value": 1.0} if timer is done else {"start": dbus.Int64(start), "end": dbus.Int64(end)})),
    }


modules.Register("pytimer", {"display_name": "Python timer"})
modules.StartActivity("countdown", dict(
    views(countdown, node("progress", {"start": dbus.Int64(start), "end": dbus.Int64(end), "style": "circular", "width": 16, "height": 16})),
    accessibility_label=f"{args.title}, counting down", relevance=1))
print(f"counting down {args.seconds:g} s", flush=True)

stopped = []
for number in (signal.SIGINT, signal.SIGTERM):
    signal.signal(number, lambda *_: stopped.append(True))
# A parent may have left these blocked (the mask survives exec); the handlers need them.
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
def wait_until(deadline):
    """Sleeps until `deadline` (time.time() seconds) or a signal; true when a signal came."""
    while not stopped and time.time() < deadline:
        time.sleep(0.1)
    return bool(stopped)


if not wait_until(end / 1e6):
    # Zero: say Done, peek, play `complete`, then stay --done-seconds.
    modules.UpdateActivity("countdown", dict(
        views(done, node("progress", {"value": 1.0, "style": "circular", "width": 16, "height": 16})),
        accessibility_label=f"{args.title}, done"))
    control.Peek("pytimer", "countdown")
    player = shutil.which("canberra-gtk-play")
    if player and not args.no_sound:
        subprocess.Popen([player, "-i", "complete", "-d", f"{args.title} done"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    elif not args.no_sound:
        print("canberra-gtk-play is not installed; no sound", file=sys.stderr, flush=True)
    print(f"{args.title}: done", flush=True)
    finished = time.time()
    peek_over = not wait_until(finished + min(PEEK_SECONDS, args.done_seconds))
    if peek_over:
        # Back to the pill, unless a person or another peek moved the nook on meanwhile.
        state = control.GetState()
        if (state.get("presentation") == "peek" and state.get("module") == "pytimer"
                and state.get("activity") == "countdown"):
            control.EndPeek()
        wait_until(finished + args.done_seconds)
modules.EndActivity("countdown", {"dismissal": "immediate" if stopped else "default"})
print("stopped" if stopped else "time is up", flush=True)
