import Testing
@testable import NookBus

@Suite struct SignatureTests {
    @Test(arguments: ["", "s", "sa{sv}", "(sa{sv}av)", "a{s(iu)}", "aav", "h", "a{oa{sv}}", String(repeating: "a", count: 32) + "y"])
    func validSignaturesAreAccepted(_ text: String) throws {
        #expect(try Signature(text).rawValue == text)
    }

    @Test(arguments: [
        ("a", "array without an element type"),
        ("{sv}", "dict entry outside an array"),
        ("a{vs}", "dict entry key must be a basic type"),
        ("a{sss}", "dict entry must hold exactly a key and a value"),
        ("()", "empty struct"),
        ("(s", "unclosed struct"),
        ("z", "unknown type code 'z'"),
        (String(repeating: "a", count: 33) + "y", "arrays nested deeper than 32"),
    ])
    func invalidSignaturesNameTheReason(_ text: String, _ reason: String) {
        #expect(throws: SignatureError(signature: text, reason: reason)) { try Signature(text) }
    }

    @Test func completeTypesSplitABody() {
        #expect(Signature("sa{sv}(ii)").completeTypes == ["s", "a{sv}", "(ii)"])
    }

    @Test func valuesKnowTheirSignature() {
        let node = DBusValue.structure([.string("vstack"), .vardict([:]), .array(element: "v", [])])
        #expect(node.signature == "(sa{sv}av)")
        #expect(DBusValue.array(element: "s", []).signature == "as")
    }

    @Test func decodingMismatchNamesExpectedAndFoundSignatures() {
        let error = #expect(throws: DBusTypeError.self) { try decode(.int32(3), as: String.self, at: "argument 0") }
        #expect(error?.description == "argument 0: expected signature 's', found 'i'")
    }

    @Test func vardictReadsNameTheKey() throws {
        let record = try Vardict(.vardict(["width": .string("wide")]))
        #expect(throws: VardictError.wrongType(key: "width", expected: "d", found: "s")) { try record.required("width", as: Double.self) }
        #expect(throws: VardictError.missingKey("height")) { try record.required("height", as: Double.self) }
        #expect(try record.optional("height", as: Double.self) == nil)
    }

    @Test func invalidContainersAreCaughtBeforeSending() {
        #expect(throws: DBusTypeError.self) { try DBusValue.array(element: "s", [.int32(1)]).validate() }
        #expect(throws: DBusTypeError.self) { try DBusValue.dictionary(key: "v", value: "s", []).validate() }
    }

    @Test func namesAreValidatedAsTheSpecificationSays() {
        #expect(BusNames.isValidBusName("org.nook.Nook1"))
        #expect(BusNames.isValidBusName(":1.42"))
        #expect(!BusNames.isValidBusName("org"))
        #expect(!BusNames.isValidBusName("org.1nook"))
        #expect(BusNames.isValidInterfaceName("org.nook.Nook1.Modules"))
        #expect(!BusNames.isValidMemberName("Get-All"))
        // Through a variable: a bare literal would pick the (trapping) literal initializer.
        let paths = ["/org/nook/Nook1": true, "/": true, "/org//nook": false, "/org/": false, "org": false, "/a-b": false]
        for (path, valid) in paths { #expect(((try? ObjectPath(path)) != nil) == valid, "\(path)") }
    }
}
