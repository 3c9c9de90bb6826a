import Foundation
import NookTestSupport

extension SwayServer {
    /// The layout's region `x,y WxH` as 8-bit RGB (`grim -t ppm`, as the sway user), `scale`
    /// pixels a layout point (an output of scale 2 is drawn at 2, and shrunk for 1).
    func screenshot(x: Int = 0, y: Int = 0, width: Int = SwayServer.screen.width, height: Int = 520, scale: Int = 1) async throws -> RGBImage {
        let (executable, argv) = try user.command("grim", ["-t", "ppm", "-s", "\(scale)", "-g", "\(x),\(y) \(width)x\(height)", "-"],
                                                  environment: clientEnvironment)
        let image = try RGBImage(ppm: try await XvfbServer.output(of: executable, argv))
        guard image.width == width * scale, image.height == height * scale else {
            throw TestSupportError("grim gave \(image.width)x\(image.height), asked for \(width)x\(height) at scale \(scale)")
        }
        return image
    }
}

extension RGBImage {
    /// A binary PPM (`P6`, maximum 255), as grim writes it.
    init(ppm data: Data) throws {
        let bytes = [UInt8](data)
        var fields: [Int] = []
        var index = 2
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P"), bytes[1] == UInt8(ascii: "6") else {
            throw TestSupportError("not a binary PPM (\(bytes.count) bytes)")
        }
        // Width, height and maximum, each after whitespace; one whitespace byte ends the header.
        while fields.count < 3, index < bytes.count {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0a || bytes[index] == 0x09 || bytes[index] == 0x0d { index += 1 }
            var value = 0
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39, value < 1_000_000 {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
            }
            fields.append(value)
        }
        index += 1
        guard fields.count == 3, fields[2] == 255, bytes.count - index == fields[0] * fields[1] * 3 else {
            throw TestSupportError("a PPM header \(fields) does not match its \(bytes.count - index) bytes of pixels")
        }
        self.init(width: fields[0], height: fields[1], bytes: Array(bytes[index...]))
    }
}
