# Sourced by demo.sh and soak.sh: starts a private dbus-daemon in $work and sets `address`
# and `bus_pid` (the caller ends it by that pid). Nothing else gets activated on it.
start_private_bus() {
  command -v dbus-daemon >/dev/null || { echo "dbus-daemon is missing: run scripts/ensure-deps.sh" >&2; exit 1; }
  cat > "$work/bus.conf" <<CONF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=$work/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
CONF
  dbus-daemon --config-file="$work/bus.conf" --fork --print-address=1 --print-pid=1 > "$work/bus.out"
  address=$(sed -n 1p "$work/bus.out")
  bus_pid=$(sed -n 2p "$work/bus.out")
}
