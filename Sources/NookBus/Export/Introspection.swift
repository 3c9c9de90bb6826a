/// Introspection XML for an exported object, in the format of the D-Bus specification.
enum Introspection {
    static let standardInterfaces = """
      <interface name="org.freedesktop.DBus.Introspectable">
        <method name="Introspect">
          <arg name="xml_data" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Peer">
        <method name="Ping"/>
        <method name="GetMachineId">
          <arg name="machine_uuid" type="s" direction="out"/>
        </method>
      </interface>
      <interface name="org.freedesktop.DBus.Properties">
        <method name="Get">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="out"/>
        </method>
        <method name="GetAll">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="props" type="a{sv}" direction="out"/>
        </method>
        <method name="Set">
          <arg name="interface_name" type="s" direction="in"/>
          <arg name="property_name" type="s" direction="in"/>
          <arg name="value" type="v" direction="in"/>
        </method>
        <signal name="PropertiesChanged">
          <arg name="interface_name" type="s"/>
          <arg name="changed_properties" type="a{sv}"/>
          <arg name="invalidated_properties" type="as"/>
        </signal>
      </interface>

    """

    static func xml(for interfaces: [DBusInterface], children: [String] = []) -> String {
        var out = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>

        """
        out += standardInterfaces
        for interface in interfaces {
            out += "  <interface name=\"\(interface.name)\">\n"
            for method in interface.methods {
                out += "    <method name=\"\(method.name)\">\n"
                for arg in method.inputs { out += "      <arg name=\"\(arg.name)\" type=\"\(arg.signature)\" direction=\"in\"/>\n" }
                for arg in method.outputs { out += "      <arg name=\"\(arg.name)\" type=\"\(arg.signature)\" direction=\"out\"/>\n" }
                out += "    </method>\n"
            }
            for signal in interface.signals {
                out += "    <signal name=\"\(signal.name)\">\n"
                for arg in signal.arguments { out += "      <arg name=\"\(arg.name)\" type=\"\(arg.signature)\"/>\n" }
                out += "    </signal>\n"
            }
            for property in interface.properties {
                let access = property.isWritable ? "readwrite" : "read"
                out += "    <property name=\"\(property.name)\" type=\"\(property.signature)\" access=\"\(access)\">\n"
                let emits = property.emitsChanged ? "true" : "false"
                out += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" value=\"\(emits)\"/>\n"
                out += "    </property>\n"
            }
            out += "  </interface>\n"
        }
        for child in children { out += "  <node name=\"\(child)\"/>\n" }
        out += "</node>\n"
        return out
    }
}
